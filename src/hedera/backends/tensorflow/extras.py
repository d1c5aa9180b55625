"""hedera's functions beyond the standard (tensorflow backend).

Semantics as documented in ``hedera/backends/numpy/extras.py``.
"""

from __future__ import annotations

import itertools

import numpy as np
import tensorflow as tf

from ..._api import names_in
from ...errors import InvalidArgumentError, UnsupportedError
from .._common import (
    TopKResult,
    check_pad_mode,
    normalize_axes,
    normalize_axis,
    normalize_pad_width,
)
from ._core import (
    _EAGER,
    DEFAULT_FLOAT,
    INEXACT,
    INT32_ENUM,
    DTypeSet,
    all_finite,
    check_index_dtype,
    constant,
    host_values,
    may_be_negative,
    native_dtype,
    ndim,
    promote,
    promote_many,
    reduction_axes,
    shape_list,
    shape_operand,
    small_constant,
)
from ._private import could_possibly_record, einsum_resolve, gen_array_ops, gen_linalg_ops, gen_math_ops
from .sorting import direct_top_k, order_along
from .statistical import cumulative_prod, cumulative_sum

__all__ = names_in("extra")  # the API table's extra rows

cumsum = cumulative_sum
cumprod = cumulative_prod


def isclose(x1, x2, /, *, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Element-wise ``|x1 - x2| <= atol + rtol * |x2|``; equal infinities are close, NaNs if ``equal_nan``."""
    x1, x2 = promote(x1, x2)
    if x1.dtype not in INEXACT:
        x1, x2 = tf.cast(x1, DEFAULT_FLOAT), tf.cast(x2, DEFAULT_FLOAT)
    real = x1.dtype.real_dtype
    if all_finite(x1) and all_finite(x2) and type(atol) in _TOLERANCES and type(rtol) in _TOLERANCES:
        # (no NaN or infinity to special-case: the comparison alone, TF's ops as tf.abs & co run them)
        margin = gen_math_ops.mul(small_constant(rtol, real), gen_math_ops._abs(x2))
        margin = gen_math_ops.add_v2(small_constant(atol, real), margin)
        return gen_math_ops.less_equal(gen_math_ops._abs(gen_math_ops.sub(x1, x2)), margin)
    diff = tf.abs(x1 - x2)
    close = diff <= tf.constant(atol, real) + tf.constant(rtol, real) * tf.abs(x2)
    finite = tf.math.is_finite(tf.abs(x1)) & tf.math.is_finite(tf.abs(x2))
    out = tf.where(finite, close, tf.equal(x1, x2))
    if equal_nan:
        out = out | (tf.math.is_nan(tf.abs(x1)) & tf.math.is_nan(tf.abs(x2)))
    return out


_TOLERANCES = frozenset((float, int))


def allclose(x1, x2, /, *, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether :func:`isclose` holds everywhere: a Python bool (a bool tensor inside ``tf.function``)."""
    close = isclose(x1, x2, rtol=rtol, atol=atol, equal_nan=equal_nan)
    values = host_values(close)
    if values is not None:
        return bool(values.all())
    out = tf.reduce_all(close)
    return bool(out) if tf.executing_eagerly() else out


_NO_EINSUM_KERNEL = DTypeSet((tf.int8, tf.int16, tf.uint8, tf.uint16, tf.uint32, tf.uint64, tf.bool))


def einsum(subscripts, /, *operands):
    """Einstein summation over ``operands`` in NumPy's notation (``"ij,jk->ik"``); dtypes promoted."""
    dtype = operands[0].dtype
    for o in operands[1:]:
        if o.dtype is not dtype:
            operands = promote_many(list(operands))
            dtype = operands[0].dtype
            break
    if dtype in _NO_EINSUM_KERNEL:
        # no einsum kernels for these: compute in int64 (exact modulo the dtype's range)
        wide = [tf.cast(o, tf.int64) for o in operands]
        out = tf.einsum(subscripts, *wide)
        return tf.cast(out != 0, tf.bool) if dtype is tf.bool else tf.cast(out, dtype)
    if len(operands) <= 2 and einsum_resolve is not None and all(type(o) is _EAGER for o in operands):
        # tf.einsum's op with its equation, completed once per equation and shapes (TF's Python
        # parses it on every call, ~1.5 us)
        key = (subscripts, *(tuple(o.shape.as_list()) for o in operands))
        equation = _EINSUM_EQUATIONS.get(key)
        if equation is None:
            equation, _, ellipsis = einsum_resolve(subscripts, [list(k) for k in key[1:]])
            equation = equation.replace(ellipsis, "...") if ellipsis else equation
            if len(_EINSUM_EQUATIONS) < 1024:
                _EINSUM_EQUATIONS[key] = equation
        return gen_linalg_ops.einsum(list(operands), equation)
    return tf.einsum(subscripts, *operands)


_EINSUM_EQUATIONS: dict[tuple, str] = {}


def gather_nd(x, indices, /, *, batch_dims=0):
    """Gather slices of ``x`` at multi-indices, as ``tf.gather_nd`` (see the numpy backend for shapes)."""
    check_index_dtype("gather_nd", "indices", indices)
    if batch_dims == 0 and type(indices) is _EAGER and indices._datatype_enum() in _SIGNED_INDEX:
        if not may_be_negative(indices):  # the common case: tf.gather_nd's op (the check: ~0.3 us)
            return gen_array_ops.gather_nd(x, indices)
    k = indices.shape[-1]
    if indices.dtype.is_unsigned is False and isinstance(k, int) and may_be_negative(indices):
        # TF refuses negative indices (the check reads an eager CPU tensor in place: ~1 us, not ~5 ops)
        indices = _wrap_negative_nd(indices, tf.shape(x)[batch_dims : batch_dims + k])
    return tf.gather_nd(x, indices, batch_dims=batch_dims)


_ONE_HOT_INDEX = frozenset(d.as_datatype_enum for d in (tf.uint8, tf.int8, tf.int32, tf.int64))
_SIGNED_INDEX = frozenset(d.as_datatype_enum for d in (tf.int32, tf.int64))
_SIGNED_ENUMS = frozenset(d.as_datatype_enum for d in (tf.int8, tf.int16, tf.int32, tf.int64))
_BOOL_ENUM = tf.bool.as_datatype_enum


def _wrap_negative_nd(indices, dims):
    """Multi-indices (last axis) with negative entries counted from the end of the axes of sizes ``dims``."""
    return tf.where(indices < 0, indices + tf.cast(dims, indices.dtype), indices)


def scatter_nd(indices, updates, shape, /):
    """A zero array of ``shape`` with ``updates`` added at ``indices`` (repeats sum), as ``tf.scatter_nd``."""
    check_index_dtype("scatter_nd", "indices", indices)
    if type(indices) is _EAGER and type(updates) is _EAGER and indices._rank() > 1:
        # the common case (eager, a batch of multi-indices), read from the dtype numbers and the shape
        # tuple (.dtype and .shape cost ~0.2 and ~0.5 us each), then the same steps as below
        if indices._datatype_enum() in _SIGNED_ENUMS and may_be_negative(indices):
            k = indices._shape_tuple()[-1]
            indices = _wrap_negative_nd(indices, tf.constant(list(shape)[:k], tf.int64))
        dims = shape_operand(shape, indices._datatype_enum())
        if updates._datatype_enum() == _BOOL_ENUM:
            return gen_array_ops.scatter_nd(indices, tf.cast(updates, tf.int8), dims) > 0
        return gen_array_ops.scatter_nd(indices, updates, dims)  # (is tf.scatter_nd)
    if indices.dtype.is_unsigned is False and isinstance(indices.shape[-1], int) and may_be_negative(indices):
        indices = _wrap_negative_nd(indices, tf.constant(list(shape)[: indices.shape[-1]], tf.int64))
    if indices.shape.rank == 1:  # one multi-index: TF wants at least one outer dimension
        indices, updates = indices[None], updates[None]
    if updates.dtype is tf.bool:  # no bool kernel: adding booleans is OR
        return tf.scatter_nd(indices, tf.cast(updates, tf.int8), shape) > 0
    return tf.scatter_nd(indices, updates, shape)


def logsumexp(x, /, *, axis=None, keepdims=False):
    """``log(sum(exp(x), axis))``, computed stably (shifted by the maximum).

    Integer and boolean ``x`` is cast to the default floating dtype first (as torch does).
    """
    if x.dtype not in INEXACT:  # TF has no integer kernel
        x = tf.cast(x, DEFAULT_FLOAT)
    axes = reduction_axes(x, None if axis is None else list(normalize_axes(axis, ndim(x))))
    # tf.reduce_logsumexp's ops, called directly (its Python makes the axes anew for each of its
    # two reductions: 3 ops each for a 0-d x)
    raw_max = gen_math_ops._max(x, axes, True)
    shift = gen_array_ops.stop_gradient(gen_math_ops.select_v2(gen_math_ops.is_finite(raw_max), raw_max, 0))
    exps = gen_math_ops.exp(gen_math_ops.sub(x, shift))
    out = gen_math_ops.log(gen_math_ops._sum(exps, axes, bool(keepdims)))
    if not keepdims:
        shape = shape_list(out) if out.shape.is_fully_defined() else tf.shape(out)
        shift = gen_array_ops.reshape(shift, shape)
    return gen_math_ops.add_v2(out, shift)


def one_hot(indices, num_classes, /, *, dtype=None, axis=-1):
    """One-hot encoding of integer ``indices``: a new axis of size ``num_classes`` at ``axis``.

    Out-of-range indices give all-zero rows. ``dtype`` defaults to float32 (the default float).
    """
    check_index_dtype("one_hot", "indices", indices)  # the cast below would truncate floats
    dt = native_dtype(dtype) or DEFAULT_FLOAT
    axis = normalize_axis(axis, ndim(indices) + 1)
    if type(indices) is _EAGER and indices._datatype_enum() in _ONE_HOT_INDEX and dt is not tf.bool:
        # the common case: tf.one_hot's op, its on and off values cached (TF makes them each call)
        return gen_array_ops.one_hot(indices, num_classes, small_constant(1, dt), small_constant(0, dt), axis)
    if indices.dtype not in (tf.uint8, tf.int8, tf.int32, tf.int64):
        indices = tf.cast(indices, tf.int64)
    if dt is tf.bool:
        return tf.cast(tf.one_hot(indices, num_classes, axis=axis, dtype=tf.int8), tf.bool)
    return tf.one_hot(indices, num_classes, axis=axis, dtype=dt)


def _pad_indices(n, before, after, mode):
    """Source indices (into an axis of size ``n``, an int or a run-time tensor) of the padded axis."""
    i = tf.range(-before, n + after)
    if mode == "edge":
        return tf.clip_by_value(i, 0, n - 1)
    if mode == "wrap":
        return tf.math.floormod(i, n)
    if mode == "symmetric":
        period = 2 * n
        i = tf.math.floormod(i, period)
        return tf.where(i < n, i, period - 1 - i)
    # reflect; a single element reflects onto itself (as in NumPy)
    period = tf.maximum(2 * (n - 1), 1)
    i = tf.math.floormod(i, period)
    return tf.where(i < n, i, period - i)


def pad(x, /, pad_width, *, mode="constant", constant_values=0):
    """Pad ``x``. ``pad_width`` as in NumPy; ``mode`` one of constant, reflect, symmetric, edge, wrap.

    Widths beyond the array's size are allowed in every mode (reflections repeat, as in NumPy).
    """
    if mode != "constant":
        check_pad_mode(mode)
    rank = ndim(x)
    widths = normalize_pad_width(pad_width, rank)
    if rank == 0:
        return x
    if mode == "constant":
        # (constant() casts a value of another kind, as NumPy does: 1.5 pads an int32 array with 1)
        value = bool(constant_values) if x.dtype is tf.bool else constant(constant_values, x.dtype)
        # tf.pad's op, without its wrapper (~8 us)
        return tf.raw_ops.PadV2(input=x, paddings=widths, constant_values=value)
    out = x
    sizes = shape_list(x)
    for axis, (before, after) in enumerate(widths):
        if before == after == 0:
            continue
        if isinstance(sizes[axis], int) and sizes[axis] == 0:
            raise InvalidArgumentError(f"pad: cannot pad an empty axis ({axis}) in mode {mode!r}")
        out = tf.gather(out, _pad_indices(sizes[axis], before, after, mode), axis=axis)
    return out


def split(x, indices_or_sections, /, *, axis=0):
    """Split ``x`` along ``axis`` into equal sections (an int) or at the given indices (a sequence)."""
    axis = normalize_axis(axis, ndim(x))
    n = shape_list(x)[axis]
    if isinstance(indices_or_sections, int):
        sections = indices_or_sections
        if sections <= 0 or (isinstance(n, int) and n % sections):
            raise InvalidArgumentError(
                f"indices_or_sections: {sections} does not divide axis {axis} of size {n}"
            )
        return tuple(tf.split(x, sections, axis=axis))
    bounds = [0, *indices_or_sections, None]
    if type(x) is _EAGER and all(type(i) is int for i in indices_or_sections):
        return tuple(_eager_slice(x, axis, n, a, b) for a, b in itertools.pairwise(bounds))
    head = (slice(None),) * axis
    return tuple(x[(*head, slice(a, b))] for a, b in itertools.pairwise(bounds))


def _eager_slice(x, axis, n, start, stop):
    """``x[..., start:stop]`` (on ``axis``, of size ``n``) of an eager ``x``: TF's ``Slice`` op with
    the bounds read as Python reads them, as cached host tensors (``x[...]`` converts them on TF's
    slow path, ~0.1 ms a part)."""
    start, stop, _ = slice(start, stop).indices(n)
    begin = [0] * len(x.shape)
    begin[axis] = start
    sizes = [-1] * len(x.shape)
    sizes[axis] = max(stop - start, 0)
    return gen_array_ops._slice(
        x, shape_operand(begin, INT32_ENUM), shape_operand(sizes, INT32_ENUM, minimum=-1)
    )


def top_k(x, k, /, *, axis=-1, largest=True):
    """The ``k`` largest (or smallest) elements along ``axis`` and their int64 indices, sorted.

    Among equal elements the lower index comes first; NaNs count as the largest values.
    """
    n = shape_list(x)[normalize_axis(axis, ndim(x))]
    if isinstance(n, int) and not 0 <= k <= n:
        raise InvalidArgumentError(f"k: expected 0 <= k <= {n}, got {k}")
    # integers, and floats without NaN, along the last axis: one TopKV2 (not where a tape may record:
    # TF's gradient of TopKV2 fails on int64 indices, and -(-x)'s gradient has -0.0 for +0.0)
    direct = direct_top_k(x, axis, largest, k=k) if type(k) is int and not could_possibly_record() else None
    if direct is not None:
        top, undo = direct
        return TopKResult(top.values if undo is None else undo(top.values), top.indices)
    xt, order, perm = order_along(x, axis, descending=largest, k=k)
    values = tf.gather(xt, order, batch_dims=ndim(x) - 1)
    if perm is not None:
        values, order = tf.transpose(values, perm), tf.transpose(order, perm)
    return TopKResult(values, order)


def to_numpy(x, /):
    """``x`` as a NumPy array (a copy, or a view where TensorFlow allows).

    Raises
    ------
    UnsupportedError
        For a symbolic tensor (inside ``tf.function``), which has no value yet.
    """
    try:
        return np.asarray(x.numpy())
    except AttributeError:
        if isinstance(x, np.ndarray):
            return x
        raise UnsupportedError(
            "to_numpy: a symbolic tensor (inside tf.function) has no value; call it outside tf.function"
        ) from None
