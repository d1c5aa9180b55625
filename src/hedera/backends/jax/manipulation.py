"""Manipulation functions (jax backend)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..._api import names_in
from ..._diagnose import check_kinds
from .._common import check_integer_indices, check_repeat_counts, exact_axes, normalize_axis
from ._core import compiled_common_case

__all__ = names_in("manipulation")  # the API table's manipulation rows

broadcast_to = jnp.broadcast_to
concat = jnp.concat
expand_dims = jnp.expand_dims
flip = jnp.flip
moveaxis = jnp.moveaxis
permute_dims = jnp.permute_dims
reshape = jnp.reshape  # JAX arrays are immutable: copy=False never fails, copy=True is moot


@compiled_common_case(1, ("shift", "axis"), ("shift", "axis"))
def roll(x, /, shift, *, axis=None):
    if not exact_axes(shift) or (axis is not None and not exact_axes(axis)):
        check_kinds("roll", {"shift": shift, "axis": axis})  # jnp.roll takes a float or an array shift
    return jnp.roll(x, shift, axis=axis)


squeeze = jnp.squeeze
stack = jnp.stack
tile = jnp.tile
unstack = jnp.unstack


@compiled_common_case((1, 16))  # (as many as the C front forwards)
def broadcast_arrays(*arrays):
    return tuple(jnp.broadcast_arrays(*arrays))  # a tuple, where JAX returns a list


def repeat(x, repeats, /, *, axis=None):
    if getattr(getattr(repeats, "dtype", None), "kind", None) not in _INTEGER_KINDS:
        check_integer_indices("repeat", "repeats", repeats)  # jnp.repeat casts boolean counts
    if isinstance(repeats, jax.Array) and not isinstance(repeats, jax.core.Tracer):
        # (concrete counts, which jnp.repeat reads on the host too: it takes a negative count as 0;
        # it gets the host copy read here, not a second transfer of its own)
        size = x.size if axis is None else x.shape[normalize_axis(axis, x.ndim)]
        repeats = np.asarray(repeats)
        check_repeat_counts(repeats, size)
    return jnp.repeat(x, repeats, axis)


# the common case of the count check: a NumPy dtype's kind (the general check ~0.4 us)
_INTEGER_KINDS = ("i", "u")
