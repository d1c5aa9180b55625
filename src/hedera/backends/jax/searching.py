"""Searching functions (jax backend)."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from ..._api import names_in
from .._common import check_integer_indices
from ._core import default_int, eager_on_host

__all__ = names_in("searching")  # the API table's searching rows

argmax = jnp.argmax
argmin = jnp.argmin
count_nonzero = jnp.count_nonzero
where = jnp.where


def nonzero(x, /):
    """The indices of ``x``'s nonzero elements, one array per axis, in C order.

    Data-dependent shape: eager only (under jit, JAX needs its ``size=`` argument). For an eager
    CPU array (``_core.eager_on_host``) the mask is jax's ``x != 0``, as in jnp.nonzero, and its
    indices are NumPy's (~25 us; jnp.nonzero: ~0.4 ms of small ops at one element).
    """
    if not eager_on_host(x) or x.ndim == 0:  # (jnp.nonzero refuses 0-d arrays itself)
        return jnp.nonzero(x)
    mask = x if x.dtype == np.bool_ else x != 0
    dt = default_int()
    return tuple(jnp.asarray(i.astype(dt, copy=False)) for i in np.nonzero(np.asarray(mask)))


def searchsorted(x1, x2, /, *, side="left", sorter=None):
    # JAX returns int32 indices even in 64-bit mode; the standard wants the default integer dtype
    check_integer_indices("searchsorted", "sorter", sorter)
    out = jnp.searchsorted(x1, x2, side=side, sorter=sorter)
    dt = default_int()
    return out if out.dtype == dt else out.astype(dt)
