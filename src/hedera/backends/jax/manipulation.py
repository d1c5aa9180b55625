"""Manipulation functions (jax backend)."""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np

from ..._api import names_in
from ..._diagnose import check_kinds
from .._common import (
    check_integer_indices,
    check_repeat_counts,
    exact_axes,
    normalize_axis,
    repeat_axis_of_0d,
)
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
    if axis is not None and np.ndim(x) == 0:
        axis = repeat_axis_of_0d(axis)
    if isinstance(repeats, jax.Array) and not isinstance(repeats, jax.core.Tracer):
        # (concrete counts, which jnp.repeat reads on the host too: it takes a negative count as 0)
        if not isinstance(x, jax.Array):
            x = jnp.asarray(x)  # (a Python scalar, as jnp.repeat converts it)
        if axis is not None:
            axis = normalize_axis(axis, x.ndim)
        counts = np.asarray(repeats)
        n = x.size if axis is None else x.shape[axis]
        positions = _source_positions(counts, n)
        if positions is None:
            check_repeat_counts(counts, n)
        elif positions.size and jax.sharding.get_abstract_mesh().empty:
            return _gather(x, positions, axis)
        # (an empty answer: jnp.repeat's is a fresh array, not weakly typed; a mesh in context:
        # jnp.repeat's sharding rules)
        repeats = counts  # (the host copy: not a second transfer of jnp.repeat's own)
    return jnp.repeat(x, repeats, axis)


def _source_positions(counts: np.ndarray, n: int) -> np.ndarray | None:
    """The int32 position along the axis (of ``n`` elements) of each element of ``repeat``'s answer:
    ``np.repeat(np.arange(n), counts)``, which jnp.repeat builds on the device with ~10 ops
    dispatched one by one (~1.2-2 ms a call at any size; with these positions hd.repeat costs
    ~20 us at one element, ~40 us at 1000). None where NumPy refuses the counts: exactly those
    ``check_repeat_counts`` refuses (not 1 or ``n`` counts, a negative count), which it then
    diagnoses (run first, it costs ~1.5 us a call), and uint64 counts; or for an axis too long
    for int32 positions."""
    if n > _INT32_MAX:
        return None
    try:
        return np.arange(n, dtype=np.int32).repeat(counts)
    except (ValueError, TypeError):
        return None


_INT32_MAX = 2**31 - 1


@functools.partial(jax.jit, static_argnames="axis", inline=True)
def _gather(x, positions, axis):
    """``x`` (flattened for ``axis=None``) at ``positions`` along ``axis``: jnp.repeat's own last
    step, so its answer, weak type, placement and gradient. (jnp.take's default mode, as there: its
    bounds mask costs XLA's CPU backend a round trip of bfloat16 through float32, which quiets a
    NaN's payload, where a gather alone keeps it, as np.repeat does.) Compiled once per shapes, as
    jnp.repeat's ops are for each new length of the answer."""
    if axis is None:
        x, axis = x.ravel(), 0
    return jnp.take(x, positions, axis=axis)


# the common case of the count check: a NumPy dtype's kind (the general check ~0.4 us)
_INTEGER_KINDS = ("i", "u")
