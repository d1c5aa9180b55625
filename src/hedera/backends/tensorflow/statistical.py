"""Statistical functions (tensorflow backend).

``sum``, ``prod`` and the cumulative functions accumulate integers in 64 bits
(int64; uint64 for unsigned input; int64 for bool), as NumPy and the standard's
reference do; other dtypes keep their own. ``max``/``min`` propagate NaNs, as the
standard says (TensorFlow's reductions do already). ``mean`` of integers gives the
default float, float32.
"""

from __future__ import annotations

import tensorflow as tf

from ...errors import InvalidArgumentError
from .._common import normalize_axes, normalize_axis
from ._core import DEFAULT_FLOAT, INEXACT, SIGNED, UNSIGNED, native_dtype, ndim, shape_list
from .elementwise import divide

__all__ = ["cumulative_prod", "cumulative_sum", "max", "mean", "min", "prod", "std", "sum", "var"]


def _accumulator(x, dtype):
    """``x`` cast to the dtype a sum or product of it has (``dtype`` if given)."""
    dt = native_dtype(dtype)
    if dt is None:
        if x.dtype in SIGNED or x.dtype == tf.bool:
            dt = tf.int64
        elif x.dtype in UNSIGNED:
            dt = tf.uint64
        else:
            return x
    return x if x.dtype == dt else tf.cast(x, dt)


def _axes(x, axis):
    return list(normalize_axes(axis, ndim(x)))


def sum(x, /, *, axis=None, dtype=None, keepdims=False):
    return tf.reduce_sum(_accumulator(x, dtype), axis=_axes(x, axis), keepdims=keepdims)


def prod(x, /, *, axis=None, dtype=None, keepdims=False):
    return tf.reduce_prod(_accumulator(x, dtype), axis=_axes(x, axis), keepdims=keepdims)


def max(x, /, *, axis=None, keepdims=False):
    if x.dtype == tf.bool:
        return tf.reduce_any(x, axis=_axes(x, axis), keepdims=keepdims)
    return tf.reduce_max(x, axis=_axes(x, axis), keepdims=keepdims)


def min(x, /, *, axis=None, keepdims=False):
    if x.dtype == tf.bool:
        return tf.reduce_all(x, axis=_axes(x, axis), keepdims=keepdims)
    return tf.reduce_min(x, axis=_axes(x, axis), keepdims=keepdims)


def mean(x, /, *, axis=None, keepdims=False):
    """The arithmetic mean over ``axis``; NaN for an empty reduction (complex: both parts)."""
    if x.dtype not in INEXACT:
        x = tf.cast(x, DEFAULT_FLOAT)
    axes = _axes(x, axis)
    if x.dtype.is_complex:  # NumPy's sum / count, with its complex division (TF's 0 / 0 is not NaN)
        total = tf.reduce_sum(x, axis=axes, keepdims=keepdims)
        return divide(total, tf.cast(_count(x, axes), x.dtype))
    return tf.reduce_mean(x, axis=axes, keepdims=keepdims)


def _count(x, axes):
    """The number of elements reduced over ``axes``, as a float of ``x``'s real precision."""
    shape = shape_list(x)
    n = 1
    for a in axes:
        n = n * shape[a]
    return tf.cast(n, x.dtype.real_dtype)


def var(x, /, *, axis=None, correction=0.0, keepdims=False):
    """``sum(|x - mean|**2) / (N - correction)`` over ``axis``."""
    if x.dtype not in INEXACT:
        x = tf.cast(x, DEFAULT_FLOAT)
    axes = _axes(x, axis)
    centered = x - tf.reduce_mean(x, axis=axes, keepdims=True)
    if x.dtype.is_complex:
        squares = tf.math.real(centered * tf.math.conj(centered))
    else:
        squares = centered * centered
    total = tf.reduce_sum(squares, axis=axes, keepdims=keepdims)
    return total / (_count(x, axes) - correction)


def std(x, /, *, axis=None, correction=0.0, keepdims=False):
    """The square root of :func:`var`."""
    return tf.sqrt(var(x, axis=axis, correction=correction, keepdims=keepdims))


def _cumulative(op, identity, x, axis, dtype, include_initial):
    rank = ndim(x)
    if axis is None:
        if rank > 1:
            raise InvalidArgumentError("axis: must be given for arrays of more than one dimension")
        if rank == 0:
            x, rank = tf.reshape(x, [1]), 1
        axis = 0
    axis = normalize_axis(axis, rank)
    x = _accumulator(x, dtype)
    out = op(x, axis=axis)
    if include_initial:
        shape = shape_list(out)
        shape[axis] = 1
        out = tf.concat([tf.fill(shape, tf.constant(identity, out.dtype)), out], axis=axis)
    return out


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    """Running sums along ``axis`` (optional for 1-d ``x``), with a leading 0 if ``include_initial``."""
    return _cumulative(tf.cumsum, 0, x, axis, dtype, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    """Running products along ``axis`` (optional for 1-d ``x``), with a leading 1 if ``include_initial``."""
    return _cumulative(tf.math.cumprod, 1, x, axis, dtype, include_initial)
