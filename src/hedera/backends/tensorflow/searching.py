"""Searching functions (tensorflow backend).

Index results are int64 (the default index dtype). ``argmax``/``argmin`` return
the first occurrence of the extreme value and treat NaN as the extreme, as NumPy
does; TF's kernels do neither for NaN, so float inputs that may hold one (all of them
inside ``tf.function``; eager CPU tensors are checked, see ``may_hold_nan``) take a
NaN-aware shim.
"""

from __future__ import annotations

import tensorflow as tf

from ..._api import names_in
from ...errors import InvalidArgumentError, ShapeError
from .._common import check_integer_indices, normalize_axes, normalize_axis
from ._core import (
    DEFAULT_INDEX,
    INT32_ENUM,
    REAL_FLOAT,
    REAL_FLOAT_ENUMS,
    dtype_enum,
    may_hold_nan,
    ndim,
    nonzero_mask,
    promote,
    reduction_axes,
    shape_operand,
    zero_like,
)
from ._private import EagerTensor, gen_array_ops, gen_math_ops

__all__ = names_in("searching")  # the API table's searching rows


def _arg_extreme(op, x, axis, keepdims):
    rank = ndim(x)
    if axis is None and rank != 1:
        flat = tf.reshape(x, [-1])
        out = _arg_extreme(op, flat, 0, False)
        return tf.reshape(out, [1] * rank) if keepdims else out
    # (a 1-d x is already flat; keepdims gives the same shape [1] either way)
    axis = 0 if axis is None else normalize_axis(axis, rank)
    kind = dtype_enum(x)
    if kind == _BOOL:
        x = tf.cast(x, tf.int8)
    elif kind in REAL_FLOAT_ENUMS and may_hold_nan(x):
        # NaN is the extreme value (its first occurrence wins), as in NumPy
        nan = tf.math.is_nan(x)
        first_nan = tf.math.argmax(tf.cast(nan, tf.int8), axis=axis, output_type=DEFAULT_INDEX)
        out = op(x, axis=axis, output_type=DEFAULT_INDEX)
        out = tf.where(tf.reduce_any(nan, axis=axis), first_nan, out)
    else:
        out = _RAW[op](input=x, dimension=axis)  # (int64, DEFAULT_INDEX, by default)
    return tf.expand_dims(out, axis) if keepdims else out


_BOOL = tf.bool.as_datatype_enum
#: the raw ops behind tf.math.argmax/argmin: the same kernels, without ~1.5 us of Python wrapping
_RAW = {tf.math.argmax: tf.raw_ops.ArgMax, tf.math.argmin: tf.raw_ops.ArgMin}


def argmax(x, /, *, axis=None, keepdims=False):
    """The index of the (first) largest element along ``axis`` (of the flattened array if None)."""
    return _arg_extreme(tf.math.argmax, x, axis, keepdims)


def argmin(x, /, *, axis=None, keepdims=False):
    """The index of the (first) smallest element along ``axis`` (of the flattened array if None)."""
    return _arg_extreme(tf.math.argmin, x, axis, keepdims)


def count_nonzero(x, /, *, axis=None, keepdims=False):
    """The number of non-zero elements along ``axis`` (all if None), as int64."""
    axes = None if axis is None else normalize_axes(axis, ndim(x))
    # (TF's ops themselves: tf.reduce_sum makes its axes anew on every call, ~3 ops for a 0-d x)
    counts = gen_math_ops.cast(nonzero_mask(x), DEFAULT_INDEX)
    return gen_math_ops._sum(counts, reduction_axes(counts, axes), bool(keepdims))


def nonzero(x, /):
    """The indices of the non-zero elements: one int64 array per axis of ``x``, in row-major order."""
    if ndim(x) == 0:
        raise ShapeError("nonzero: x must have at least one dimension (the standard disallows 0-d input)")
    coords = tf.where(nonzero_mask(x))
    return tuple(tf.unstack(coords, num=ndim(x), axis=1))


def searchsorted(x1, x2, /, *, side="left", sorter=None):
    """Indices where ``x2``'s elements would be inserted into the sorted 1-d ``x1`` to keep it sorted.

    ``side="left"`` gives the first such index, ``"right"`` the last. ``sorter``
    (indices that sort ``x1``) is applied first. The result has ``x2``'s shape, int64.
    """
    if side not in ("left", "right"):
        raise InvalidArgumentError(f"side: expected 'left' or 'right', got {side!r}")
    if ndim(x1) != 1:
        raise ShapeError(f"searchsorted: x1 must be one-dimensional, got shape {tuple(x1.shape)}")
    if sorter is not None:
        check_integer_indices("searchsorted", "sorter", sorter)
        x1 = tf.gather(x1, sorter)
    x1, x2 = promote(x1, x2)
    if x1.dtype is tf.bool:
        x1, x2 = tf.cast(x1, tf.int8), tf.cast(x2, tf.int8)
    if x1.dtype in REAL_FLOAT and (may_hold_nan(x1) or may_hold_nan(x2)):
        # NumPy orders NaN after +inf; searchsorted's comparisons would not: search ranks instead
        return _searchsorted_nan(x1, x2, side)
    bound = gen_array_ops.lower_bound if side == "left" else gen_array_ops.upper_bound
    if type(x2) is EagerTensor:  # TF's ops, the shapes as cached tensors (tf.searchsorted: ~10 ops' worth)
        values = gen_array_ops.reshape(x2, shape_operand((1, -1), INT32_ENUM, minimum=-1))
        out = bound(gen_array_ops.expand_dims(x1, 0), values, out_type=DEFAULT_INDEX)
        return gen_array_ops.reshape(out, shape_operand(tuple(x2.shape), INT32_ENUM))
    out = tf.searchsorted(x1[None, :], tf.reshape(x2, [1, -1]), side=side, out_type=DEFAULT_INDEX)
    return tf.reshape(out, tf.shape(x2))


def _searchsorted_nan(x1, x2, side):
    # with NaN as the largest value: count x1 < v (left) or x1 <= v (right) in that order
    nan1 = tf.math.is_nan(x1)
    flat = tf.reshape(x2, [-1])
    nan2 = tf.math.is_nan(flat)
    n_finite = tf.reduce_sum(tf.cast(tf.logical_not(nan1), DEFAULT_INDEX))
    finite_x1 = tf.where(nan1, tf.constant(float("inf"), x1.dtype), x1)
    found = tf.searchsorted(finite_x1[None, :], tf.where(nan2, tf.zeros_like(flat), flat)[None, :], side=side,
                            out_type=DEFAULT_INDEX)[0]  # fmt: skip
    # a NaN goes before the NaNs of x1 (left) or after them (right)
    n = tf.cast(tf.shape(x1)[0], DEFAULT_INDEX)
    at_nan = n_finite if side == "left" else n
    found = tf.minimum(found, n_finite)  # NaNs in x1 (searched as +inf) are above any number
    return tf.reshape(tf.where(nan2, at_nan, found), tf.shape(x2))


def where(condition, x1, x2, /):
    """``x1`` where ``condition`` is True, else ``x2`` (broadcast; ``x1``/``x2`` promoted, may be scalars)."""
    if condition.dtype is not tf.bool:
        condition = tf.cast(condition, tf.bool)
    if isinstance(x1, tf.Tensor) and isinstance(x2, tf.Tensor) and x1.dtype is x2.dtype:
        return tf.raw_ops.SelectV2(condition=condition, t=x1, e=x2)  # tf.where's op, ~2 us less
    if type(x2) is float and isinstance(x1, tf.Tensor) and x1.dtype in REAL_FLOAT:
        # the standard's result is x1's dtype; a zero bypasses TF's scalar cache (its sign kept)
        e = zero_like(x2, x1) if not x2 else x2
        if type(e) is not float or x2:
            return tf.raw_ops.SelectV2(condition=condition, t=x1, e=e)
    x1, x2 = promote(x1, x2)
    return tf.where(condition, x1, x2)
