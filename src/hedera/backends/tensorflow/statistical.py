"""Statistical functions (tensorflow backend).

``sum``, ``prod`` and the cumulative functions accumulate integers in 64 bits
(int64; uint64 for unsigned input; int64 for bool), as NumPy and the standard's
reference do; other dtypes keep their own. ``max``/``min`` propagate NaNs, as the
standard says (TensorFlow's reductions do already). ``mean`` of integers gives the
default float, float32.
"""

from __future__ import annotations

import tensorflow as tf

from ..._api import names_in
from ...errors import InvalidArgumentError, ShapeError
from .._common import normalize_axes, normalize_axis
from ._core import (
    COMPLEX,
    DEFAULT_FLOAT,
    INEXACT,
    REAL_FLOAT,
    REAL_FLOAT_ENUMS,
    dtype_enum,
    native_dtype,
    ndim,
    reduction_axes,
    shape_list,
)
from ._private import gen_math_ops
from .elementwise import divide

__all__ = names_in("statistical")  # the API table's statistical rows


# the dtype sums and products accumulate in, where it is not the input's (by DataType number)
_WIDENED = {
    **{d.as_datatype_enum: tf.int64 for d in (tf.bool, tf.int8, tf.int16, tf.int32)},
    **{d.as_datatype_enum: tf.uint64 for d in (tf.uint8, tf.uint16, tf.uint32)},
}


def _accumulator(x, dtype):
    """``x`` cast to the dtype a sum or product of it has (``dtype`` if given)."""
    dt = _WIDENED.get(dtype_enum(x)) if dtype is None else native_dtype(dtype)
    return x if dt is None or x.dtype is dt else tf.cast(x, dt)


def _axis(axis):
    """``axis`` as TF's reductions take it (they accept None, ints and negative axes themselves)."""
    return list(axis) if isinstance(axis, tuple) else axis


# The reductions call TF's ops (Sum, Prod, Max, Min) themselves, with the axes of axis=None cached
# (reduction_axes): tf.reduce_sum(x) wraps the same op in ~2 us of Python and makes the axes anew.


def sum(x, /, *, axis=None, dtype=None, keepdims=False):
    # the common case (a float array, no dtype) costs one dict lookup on the dtype's number
    if dtype is not None or _WIDENED.get(dtype_enum(x)) is not None:
        x = _accumulator(x, dtype)
    return gen_math_ops._sum(x, reduction_axes(x, axis), bool(keepdims))


def prod(x, /, *, axis=None, dtype=None, keepdims=False):
    if dtype is not None or _WIDENED.get(dtype_enum(x)) is not None:
        x = _accumulator(x, dtype)
    return gen_math_ops.prod(x, reduction_axes(x, axis), bool(keepdims))


def _check_nonempty(fname, x, axis):
    # TF reduces an empty axis to -inf/+inf (the standard: implementation-defined); hedera raises everywhere
    static = x.shape
    if static.num_elements():  # the common case: a known, non-zero number of elements
        return
    shape = static.as_list() if static.rank is not None else None
    if shape is None or 0 not in shape:
        return
    axes = range(len(shape)) if axis is None else axis if isinstance(axis, (tuple, list)) else (axis,)
    if any(isinstance(a, int) and -len(shape) <= a < len(shape) and shape[a] == 0 for a in axes):
        raise ShapeError(f"{fname}: x (shape {tuple(shape)}) has no elements to reduce over axis={axis}")


def max(x, /, *, axis=None, keepdims=False):
    _check_nonempty("max", x, axis)
    if x.dtype is tf.bool:
        return gen_math_ops._any(x, reduction_axes(x, axis), bool(keepdims))
    return gen_math_ops._max(x, reduction_axes(x, axis), bool(keepdims))


def min(x, /, *, axis=None, keepdims=False):
    _check_nonempty("min", x, axis)
    if x.dtype is tf.bool:
        return gen_math_ops._all(x, reduction_axes(x, axis), bool(keepdims))
    return gen_math_ops._min(x, reduction_axes(x, axis), bool(keepdims))


def mean(x, /, *, axis=None, keepdims=False):
    """The arithmetic mean over ``axis``; NaN for an empty reduction (complex: both parts)."""
    if dtype_enum(x) in REAL_FLOAT_ENUMS:  # the common case, TF's own op
        return gen_math_ops.mean(x, reduction_axes(x, axis), bool(keepdims))
    dtype = x.dtype
    if dtype in COMPLEX:  # NumPy's sum / count, with its complex division (TF's 0 / 0 is not NaN)
        axes = list(normalize_axes(axis, ndim(x)))
        total = tf.reduce_sum(x, axis=axes, keepdims=keepdims)
        return divide(total, tf.cast(_count(x, axes), dtype))
    if dtype not in INEXACT:
        x = tf.cast(x, DEFAULT_FLOAT)
    return tf.reduce_mean(x, axis=_axis(axis), keepdims=keepdims)


def _axes(x, axis):
    return list(normalize_axes(axis, ndim(x)))


def _count(x, axes):
    """The number of elements reduced over ``axes``, as a float of ``x``'s real precision."""
    shape = shape_list(x)
    n = 1
    for a in axes:
        n = n * shape[a]
    return tf.cast(n, x.dtype.real_dtype)


def var(x, /, *, axis=None, correction=0.0, keepdims=False):
    """``sum(|x - mean|**2) / (N - correction)`` over ``axis``."""
    if correction == 0 and x.dtype in REAL_FLOAT:  # the common case: TF's own (4 ops, not 7), the same sums
        return _reduce_variance(x, reduction_axes(x, None if axis is None else _axes(x, axis)), keepdims)
    if x.dtype not in INEXACT:
        x = tf.cast(x, DEFAULT_FLOAT)
    axes = _axes(x, axis)
    centered = x - tf.reduce_mean(x, axis=axes, keepdims=True)
    if x.dtype.is_complex:
        squares = tf.math.real(centered * tf.math.conj(centered))
    else:
        squares = centered * centered
    total = tf.reduce_sum(squares, axis=axes, keepdims=keepdims)
    # N - correction below 0 would give a negative variance: 0, as NumPy and torch (inf or NaN)
    return total / tf.maximum(_count(x, axes) - correction, tf.zeros((), total.dtype))


def std(x, /, *, axis=None, correction=0.0, keepdims=False):
    """The square root of :func:`var`."""
    if correction == 0 and x.dtype in REAL_FLOAT:  # tf.math.reduce_std's ops
        axes = reduction_axes(x, None if axis is None else _axes(x, axis))
        return gen_math_ops.sqrt(_reduce_variance(x, axes, keepdims))
    return tf.sqrt(var(x, axis=axis, correction=correction, keepdims=keepdims))


def _reduce_variance(x, axes, keepdims):
    """``tf.math.reduce_variance`` of real floating ``x``: its four ops, called directly."""
    means = gen_math_ops.mean(x, axes, True)
    return gen_math_ops.mean(gen_math_ops.square(gen_math_ops.sub(x, means)), axes, bool(keepdims))


def _cumulative(op, identity, x, axis, dtype, include_initial):
    rank = ndim(x)
    if rank == 0:
        raise ShapeError("x: a cumulative sum or product needs at least one dimension, got a 0-d array")
    if axis is None:
        if rank > 1:
            raise InvalidArgumentError("axis: must be given for arrays of more than one dimension")
        axis = 0
    axis = normalize_axis(axis, rank)
    x = _accumulator(x, dtype)
    out = _RAW_CUMULATIVE[op](x=x, axis=axis)  # the op of tf.cumsum/cumprod, without its Python wrapping
    if include_initial:
        shape = shape_list(out)
        shape[axis] = 1
        out = tf.concat([tf.fill(shape, tf.constant(identity, out.dtype)), out], axis=axis)
    return out


_RAW_CUMULATIVE = {tf.cumsum: tf.raw_ops.Cumsum, tf.math.cumprod: tf.raw_ops.Cumprod}


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    """Running sums along ``axis`` (optional for 1-d ``x``), with a leading 0 if ``include_initial``."""
    return _cumulative(tf.cumsum, 0, x, axis, dtype, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    """Running products along ``axis`` (optional for 1-d ``x``), with a leading 1 if ``include_initial``."""
    return _cumulative(tf.math.cumprod, 1, x, axis, dtype, include_initial)
