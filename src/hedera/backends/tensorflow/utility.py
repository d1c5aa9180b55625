"""Utility functions (tensorflow backend)."""

from __future__ import annotations

import tensorflow as tf

from ..._api import names_in
from ...errors import InvalidArgumentError
from .._common import normalize_axis
from ._core import (
    INT32_ENUM,
    as_tensor,
    ndim,
    nonzero_mask,
    reduction_axes,
    shape_list,
    shape_operand,
    small_constant,
)
from ._private import EagerTensor, gen_array_ops, gen_math_ops

__all__ = names_in("utility")  # the API table's utility rows


def _eager_axes(x, axis):
    """``axis`` (None or an int) as a cached host tensor for an eager ``x``; else None (the general
    path: ``tf.reduce_all`` converts Python axes, and makes ``range(rank)`` for None, anew each call)."""
    if type(x) is not EagerTensor:
        return None
    if axis is None:
        return reduction_axes(x, None)
    return small_constant(axis, tf.int32) if type(axis) is int else None


def all(x, /, *, axis=None, keepdims=False):
    """Whether every element along ``axis`` is non-zero (NaN counts as non-zero)."""
    truth = nonzero_mask(x)
    axes = _eager_axes(truth, axis)
    if axes is not None:
        return gen_math_ops._all(truth, axes, bool(keepdims))
    return tf.reduce_all(truth, axis=list(axis) if isinstance(axis, tuple) else axis, keepdims=keepdims)


def any(x, /, *, axis=None, keepdims=False):
    """Whether some element along ``axis`` is non-zero (NaN counts as non-zero)."""
    truth = nonzero_mask(x)
    axes = _eager_axes(truth, axis)
    if axes is not None:
        return gen_math_ops._any(truth, axes, bool(keepdims))
    return tf.reduce_any(truth, axis=list(axis) if isinstance(axis, tuple) else axis, keepdims=keepdims)


def _edge(value, x, axis):
    """``prepend``/``append`` as an array fitting ``x`` along ``axis`` (a scalar becomes one slice)."""
    value = as_tensor(value, x.dtype)
    if value.shape.rank == 0:
        shape = shape_list(x)
        shape[axis] = 1
        value = tf.fill(shape, value)
    return value


def diff(x, /, *, axis=-1, n=1, prepend=None, append=None):
    """The ``n``-th forward difference ``x[i + 1] - x[i]`` along ``axis`` (``!=`` for booleans).

    ``prepend``/``append`` are joined to ``x`` along ``axis`` first.
    """
    rank = ndim(x)
    axis = normalize_axis(axis, rank)
    if n < 0:
        raise InvalidArgumentError(f"diff: n must be non-negative, got {n}")
    if n == 0:  # NumPy returns x as it is, without prepend/append
        return x
    parts = [x]
    if prepend is not None:
        parts.insert(0, _edge(prepend, x, axis))
    if append is not None:
        parts.append(_edge(append, x, axis))
    out = tf.concat(parts, axis=axis) if len(parts) > 1 else x
    if type(out) is EagerTensor:
        return _eager_diff(out, axis, n)
    head = (slice(None),) * axis
    for _ in range(n):
        upper, lower = out[(*head, slice(1, None))], out[(*head, slice(None, -1))]
        out = tf.not_equal(upper, lower) if out.dtype is tf.bool else upper - lower
    return out


def _eager_diff(x, axis, n):
    """``diff``'s differences of an eager ``x``: its slices by TF's ``Slice`` op with cached operands
    (``x[..., 1:]`` converts the slices on TF's slow path, ~0.1 ms each); the same values."""
    is_bool = x.dtype is tf.bool
    for _ in range(n):
        shape = x.shape.as_list()
        length = shape[axis]
        sizes = [-1] * len(shape)
        sizes[axis] = max(length - 1, 0)
        sizes = shape_operand(sizes, INT32_ENUM, minimum=-1)
        begin = [0] * len(shape)
        lower = gen_array_ops._slice(x, shape_operand(begin, INT32_ENUM), sizes)
        begin[axis] = min(length, 1)
        upper = gen_array_ops._slice(x, shape_operand(begin, INT32_ENUM), sizes)
        x = gen_math_ops.not_equal(upper, lower) if is_bool else gen_math_ops.sub(upper, lower)
    return x
