"""Indexing functions (jax backend), plus the functional indexed update behind ``hd.at``.

JAX clamps (``x[i]``) or fills (``take``) out-of-bounds indices instead of
raising, since it cannot check them under ``jit``; the standard leaves
out-of-bounds indices undefined.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from ...errors import InvalidArgumentError
from .._common import check_index_update_op, check_integer_indices
from ._core import compiled_common_case

__all__ = ["index_get", "index_update", "take", "take_along_axis"]


@compiled_common_case(2, ("axis",), ("axis",))
def take(x, indices, /, *, axis=None):
    # jnp.take flattens x when axis is None; the standard allows that only for 1-d x
    if axis is None:
        if x.ndim != 1:
            raise InvalidArgumentError("take: axis must be given for arrays of more than one dimension")
        axis = 0
    if getattr(getattr(indices, "dtype", None), "kind", None) not in _INTEGER_KINDS:
        check_integer_indices("take", "indices", indices)  # jnp.take casts booleans
    return jnp.take(x, indices, axis=axis)


@compiled_common_case(2, ("axis",), ("axis",))
def take_along_axis(x, indices, /, *, axis=-1):
    if getattr(getattr(indices, "dtype", None), "kind", None) not in _INTEGER_KINDS:
        check_integer_indices("take_along_axis", "indices", indices)
    return jnp.take_along_axis(x, indices, axis=axis)


# the common case of the index checks: a NumPy dtype's kind (~0.1 us; the general check ~0.4 us)
_INTEGER_KINDS = ("i", "u")


def index_get(x, index, /):
    return x[index]


def index_update(x, index, values, /, *, op="set"):
    """A copy of ``x`` with ``values`` written (``op="set"``) or combined into ``x[index]``.

    ``x.at[index].<op>(values)``: out of place, differentiable with respect to
    ``x`` and ``values``, and usable under ``jit``. Repeated indices accumulate
    for every op but ``"set"``.
    """
    check_index_update_op(op)
    if op == "multiply":
        return _multiply(x, index, values)
    return getattr(x.at[index], op)(values)


def _may_repeat(index) -> bool:
    """Whether ``index`` may name one element twice: it holds an integer array (or a list)."""
    for item in index if isinstance(index, tuple) else (index,):
        if item is None or item is Ellipsis or isinstance(item, (int, slice)):
            continue
        if getattr(getattr(item, "dtype", None), "kind", None) == "b":
            continue  # a boolean mask selects each element at most once
        return True
    return False


def _multiply(x, index, values):
    if not _may_repeat(index):
        # unique targets: JAX differentiates scatter-multiply only when told so
        return x.at[index].multiply(values, unique_indices=True)
    if x.dtype.kind not in "fc":
        return x.at[index].multiply(values)  # nothing to differentiate
    # JAX cannot differentiate a scatter-multiply whose targets may repeat, so multiply x by
    # each target's product of values, found by a segmented scan over the values sorted by target
    targets = jnp.arange(x.size).reshape(x.shape)[index]
    t = targets.ravel()
    if t.size == 0:
        return x
    v = jnp.broadcast_to(jnp.asarray(values).astype(x.dtype), targets.shape).ravel()
    order = jnp.argsort(t, stable=True)
    t, v = t[order], v[order]
    boundary = t[1:] != t[:-1]
    first = jnp.concatenate([jnp.ones(1, bool), boundary])
    last = jnp.concatenate([boundary, jnp.ones(1, bool)])

    def segmented_product(a, b):
        (a_value, a_first), (b_value, b_first) = a, b
        return jnp.where(b_first, b_value, a_value * b_value), a_first | b_first

    products, _ = jax.lax.associative_scan(segmented_product, (v, first))
    # write each segment's total from its last element; the others go out of bounds and are dropped
    factor = jnp.ones(x.size, x.dtype).at[jnp.where(last, t, x.size)].set(products, mode="drop")
    return x * factor.reshape(x.shape)
