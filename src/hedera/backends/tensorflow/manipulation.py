"""Manipulation functions (tensorflow backend).

TensorFlow has no ``uint16`` kernels for ``Tile`` (behind ``tile`` and ``repeat``):
those move ``uint16`` data as ``int16`` through an exact bit-cast.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import tensorflow as tf

from ..._api import names_in
from ...errors import InvalidArgumentError, InvalidAxisError, ShapeError
from .._common import (
    check_integer_indices,
    check_repeat_counts,
    normalize_axes,
    normalize_axis,
    repeat_axis_of_0d,
)
from ._core import INT32_ENUM, broadcast_shape, dtype_enum, ndim, promote_many, shape_list, shape_operand
from ._private import EagerTensor, gen_array_ops

__all__ = names_in("manipulation")  # the API table's manipulation rows


def _as_int16(x):
    """``(x as int16, undo)`` for ``uint16`` data (kernels TF lacks for it), else ``(x, identity)``."""
    if x.dtype is tf.uint16:
        return tf.bitcast(x, tf.int16), lambda out: tf.bitcast(out, tf.uint16)
    return x, lambda out: out


def broadcast_arrays(*arrays):
    """The arrays broadcast to their common shape (a tuple)."""
    shape = broadcast_shape(*(shape_list(a) for a in arrays))
    return tuple(tf.broadcast_to(a, shape) for a in arrays)


def broadcast_to(x, /, shape):
    """``x`` broadcast to ``shape``: TF's op (tf.broadcast_to), a Python shape made a cached tensor
    (``_core.shape_operand``: TF converts it on its slow path, ~40 us of a ~50 us call)."""
    return gen_array_ops.broadcast_to(x, shape_operand(shape, _INT64_ENUM))


_INT64_ENUM = tf.int64.as_datatype_enum


def concat(arrays, /, *, axis=0):
    """Join arrays along an existing ``axis`` (flattened first when ``axis`` is None), promoting dtypes."""
    arrays = _one_dtype(arrays)
    if axis is None:
        arrays, axis = [tf.reshape(a, [-1]) for a in arrays], 0
    else:
        axis = normalize_axis(axis, ndim(arrays[0]))
    if len(arrays) < 2:  # (the op takes two or more)
        return tf.concat(arrays, axis=axis)
    return tf.raw_ops.ConcatV2(values=arrays, axis=axis)  # tf.concat's op, without ~1 us of Python wrapping


def _one_dtype(arrays):
    """``arrays`` as a list of tensors of one dtype (promoted by the standard's rules if they differ)."""
    arrays = list(arrays)
    if not arrays:
        return arrays
    first = arrays[0].dtype
    for a in arrays:
        if a.dtype is not first:
            return promote_many(arrays)
    return arrays


def expand_dims(x, /, axis):
    """``x`` with a new axis of size one at ``axis`` (in ``[-ndim - 1, ndim]``); several for a tuple."""
    if isinstance(axis, int):
        # TF's op itself: tf.expand_dims is two Python wrappers around it (~1.5 us a call)
        rank = x._rank() if type(x) is EagerTensor else ndim(x)
        return gen_array_ops.expand_dims(x, normalize_axis(axis, rank + 1))
    out_rank = ndim(x) + len(axis)
    axes = normalize_axes(axis, out_rank)
    shape = iter(shape_list(x))
    return tf.reshape(x, [1 if a in axes else next(shape) for a in range(out_rank)])


def flip(x, /, *, axis=None):
    """``x`` with the order of elements reversed along ``axis`` (all axes if None)."""
    return tf.reverse(x, list(normalize_axes(axis, ndim(x))))


def moveaxis(x, source, destination, /):
    """``x`` with axes ``source`` moved to positions ``destination`` (ints or tuples), the others in order."""
    rank = ndim(x)
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    if len(src) != len(dst):
        raise InvalidArgumentError("moveaxis: source and destination must have the same number of axes")
    src = [normalize_axis(a, rank, "source") for a in src]
    dst = [normalize_axis(a, rank, "destination") for a in dst]
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise InvalidAxisError("moveaxis: repeated axes")
    order = [a for a in range(rank) if a not in src]
    for d, s in sorted(zip(dst, src, strict=False)):
        order.insert(d, s)
    return tf.transpose(x, order)


def permute_dims(x, /, axes):
    """``x`` with its axes permuted: output axis ``i`` is input axis ``axes[i]``."""
    rank = ndim(x)
    axes = [normalize_axis(a, rank, "axes") for a in axes]
    if sorted(axes) != list(range(rank)):
        raise InvalidAxisError(f"permute_dims: axes {axes} must name each axis of x ({rank} axes) once")
    return tf.raw_ops.Transpose(x=x, perm=_perm(axes))  # tf.transpose's op, without its Python wrapping


_PERMS: dict[tuple[int, ...], Any] = {}


def _perm(axes: list[int]) -> Any:
    """``axes`` as an int32 tensor, made once per permutation in eager mode (converting the list
    on every call costs more than the transpose of a small tensor); the list itself in a graph."""
    key = tuple(axes)
    perm = _PERMS.get(key)
    if perm is None:
        if not tf.executing_eagerly():
            return axes
        perm = _PERMS[key] = tf.constant(key, tf.int32)
    return perm


def repeat(x, repeats, /, *, axis=None):
    """Each element of ``x`` repeated ``repeats`` times (an int, or one count per element) along ``axis``.

    ``axis=None`` repeats the flattened array.
    """
    if type(repeats) is int and repeats >= 0 and x.shape.is_fully_defined() and (axis is None or ndim(x)):
        y, undo = _as_int16(x)
        return undo(_repeated(y, repeats, None if axis is None else normalize_axis(axis, ndim(x))))
    if axis is not None and not ndim(x):
        axis = repeat_axis_of_0d(axis)
    if axis is not None:  # (axis=None: tf.repeat flattens x itself, one reshape op, as this did)
        axis = normalize_axis(axis, ndim(x))
    check_integer_indices("repeat", "repeats", repeats)  # the cast below would truncate floats
    if type(x) is EagerTensor and type(repeats) is EagerTensor:
        out = _repeated_by_counts(x, repeats, axis)
        if out is not None:
            return out
    if not isinstance(repeats, int):
        repeats = tf.cast(repeats, tf.int64) if repeats.dtype is not tf.int64 else repeats
    y, undo = _as_int16(x)
    return undo(tf.repeat(y, repeats, axis=axis))


def _repeated_by_counts(x, repeats, axis: int | None):
    """``tf.repeat(x, repeats, axis)`` for eager tensors, as one gather: the source position of each
    output element computed on the host, ``np.repeat`` of the positions by the counts (tf.repeat
    builds that index with ~20 ops, ~0.7-1 ms at any size; this path ~30 us). The same data
    movement, so the same answer; hedera's error where the counts are not one non-negative count
    per element (or one for all: tf.repeat took a negative count as 0); None for an ``x`` of
    unknown shape (tf.repeat decides)."""
    if not x.shape.is_fully_defined():
        return None
    counts = repeats.numpy()
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    n = x.shape[axis]
    check_repeat_counts(counts, n)
    positions = np.repeat(np.arange(n, dtype=np.int64), np.broadcast_to(counts.reshape(-1), (n,)))
    y, undo = _as_int16(x)
    return undo(tf.gather(y, positions, axis=axis))


def _repeated(x, repeats: int, axis: int | None):
    """``tf.repeat(x, repeats, axis)`` for a count and a static shape: its own three ops (ExpandDims,
    Tile, Reshape; ``axis=None``: Reshape, Tile, Reshape), the same data movement, with their shape
    operands computed here once (tf.repeat builds them with ~10 more ops on every call, ~0.5 ms)."""
    shape = tuple(x.shape.as_list())
    key = (shape, repeats, axis)
    operands = _REPEAT_OPERANDS.get(key)
    if operands is None:
        operands = _repeat_operands(shape, repeats, axis, eager=type(x) is EagerTensor)
        if type(x) is EagerTensor and len(_REPEAT_OPERANDS) < _REPEAT_CACHE_SIZE:
            _REPEAT_OPERANDS[key] = operands
    if axis is None:
        expanded = gen_array_ops.reshape(x, operands[0])
    else:
        expanded = gen_array_ops.expand_dims(x, axis + 1)
    return gen_array_ops.reshape(gen_array_ops.tile(expanded, operands[-2]), operands[-1])


_REPEAT_OPERANDS: dict[tuple, tuple] = {}
_REPEAT_CACHE_SIZE = 256


def _repeat_operands(shape: tuple[int, ...], repeats: int, axis: int | None, eager: bool) -> tuple:
    """The int64 shape operands of :func:`_repeated`: ``([n, 1],)`` for ``axis=None``, then the
    multiples and the result's shape; eager tensors on the host (TF keeps shape operands there), or
    NumPy arrays (graph constants) inside tf.function."""
    if axis is None:
        size = int(np.prod(shape, dtype=np.int64))
        operands = [[size, 1], [1, repeats], [size * repeats]]
    else:
        multiples = [1] * (len(shape) + 1)
        multiples[axis + 1] = repeats
        operands = [multiples, [*shape[:axis], shape[axis] * repeats, *shape[axis + 1 :]]]
    arrays = [np.array(o, np.int64) for o in operands]
    if not eager:
        return tuple(arrays)
    with tf.device("/CPU:0"):
        return tuple(tf.constant(a) for a in arrays)


def reshape(x, /, shape, *, copy=None):
    """``x`` with a new ``shape`` (one entry may be -1). TF reshapes never copy; tensors are immutable.

    An eager ``x`` is reshaped by TF's op with the shape as a cached tensor (``_core.shape_operand``:
    tf.reshape converts a Python shape on its slow path, ~60 us of a ~70 us call)."""
    if type(x) is EagerTensor:
        out = gen_array_ops.reshape(x, shape_operand(shape, INT32_ENUM, minimum=-1))
    else:
        out = tf.reshape(x, shape)
    return tf.identity(out) if copy else out


def roll(x, /, shift, *, axis=None):
    """``x`` shifted by ``shift`` along ``axis`` (the flattened array if None), wrapping around."""
    if axis is None:
        if type(x) is EagerTensor:  # (tf.reshape's Python shapes and tf.shape: ~0.2 ms at 1 element)
            flat = gen_array_ops.reshape(x, shape_operand((-1,), INT32_ENUM, minimum=-1))
            return gen_array_ops.reshape(tf.roll(flat, shift, 0), shape_operand(tuple(x.shape), INT32_ENUM))
        return tf.reshape(tf.roll(tf.reshape(x, [-1]), shift, 0), tf.shape(x))
    axes = [axis] if isinstance(axis, int) else list(axis)
    shifts = [shift] * len(axes) if isinstance(shift, int) else list(shift)
    if len(shifts) != len(axes):
        raise InvalidArgumentError("roll: shift and axis must have the same length")
    rank = ndim(x)
    return tf.roll(x, shifts, [normalize_axis(a, rank) for a in axes])


def squeeze(x, /, axis):
    """``x`` without the size-one axes ``axis`` (an int or a tuple); other sizes raise."""
    rank = ndim(x)
    axes = [axis] if isinstance(axis, int) else list(axis)
    axes = [normalize_axis(a, rank) for a in axes]
    static = x.shape.as_list()
    for a in axes:
        if static[a] is not None and static[a] != 1:
            raise ShapeError(f"squeeze: axis {a} of x (shape {static}) has size {static[a]}, not 1")
    if not axes:
        return x
    return gen_array_ops.squeeze(x, axes)  # tf.squeeze's op (its Python wrapping costs ~1.5 us)


def stack(arrays, /, *, axis=0):
    """Join arrays of one shape along a new ``axis``, promoting dtypes."""
    arrays = _one_dtype(arrays)
    return tf.raw_ops.Pack(values=arrays, axis=normalize_axis(axis, ndim(arrays[0]) + 1))  # tf.stack's op


def tile(x, repetitions, /):
    """``x`` repeated ``repetitions[i]`` times along axis ``i`` (NumPy's rule when the lengths differ)."""
    reps = list(repetitions)
    rank = ndim(x)
    if len(reps) > rank:
        x = gen_array_ops.reshape(x, shape_operand([1] * (len(reps) - rank) + shape_list(x), INT32_ENUM))
    elif len(reps) < rank:
        reps = [1] * (rank - len(reps)) + reps
    # (the multiples as a cached tensor: TF converts a Python list on its slow path, ~45 us)
    multiples = shape_operand(reps, INT32_ENUM) if reps else _NO_REPS
    if dtype_enum(x) != _UINT16:
        return gen_array_ops.tile(x, multiples)
    y, undo = _as_int16(x)
    return undo(gen_array_ops.tile(y, multiples))


_UINT16 = tf.uint16.as_datatype_enum
_NO_REPS = np.zeros(0, np.int32)  # (an empty list would convert to float32)


def unstack(x, /, *, axis=0):
    """The slices of ``x`` along ``axis``, as a tuple."""
    shape = x.shape
    rank = shape.rank
    axis = normalize_axis(axis, ndim(x) if rank is None else rank)
    num = shape[axis] if rank else None
    if num is None:  # (a 0-d input, or a length unknown in tf.function: tf.unstack decides)
        return tuple(tf.unstack(x, axis=axis))
    # tf.unstack's own op, without its wrapper's conversion and checks (about 1 us)
    return tuple(gen_array_ops.unpack(x, num=num, axis=axis))
