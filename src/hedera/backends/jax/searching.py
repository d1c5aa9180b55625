"""Searching functions (jax backend)."""

from __future__ import annotations

import jax.numpy as jnp

from ..._api import names_in
from .._common import check_integer_indices
from ._core import default_int

__all__ = names_in("searching")  # the API table's searching rows

argmax = jnp.argmax
argmin = jnp.argmin
count_nonzero = jnp.count_nonzero
nonzero = jnp.nonzero  # data-dependent shape: eager only (under jit, JAX needs its size= argument)
where = jnp.where


def searchsorted(x1, x2, /, *, side="left", sorter=None):
    # JAX returns int32 indices even in 64-bit mode; the standard wants the default integer dtype
    check_integer_indices("searchsorted", "sorter", sorter)
    out = jnp.searchsorted(x1, x2, side=side, sorter=sorter)
    dt = default_int()
    return out if out.dtype == dt else out.astype(dt)
