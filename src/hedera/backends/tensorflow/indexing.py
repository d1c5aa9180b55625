"""Indexing functions (tensorflow backend), plus the functional indexed update behind ``hd.at``.

TensorFlow's own ``x[...]`` handles integers, slices, ``...`` and ``None``, but not
integer-array indexing. :func:`index_get` adds it with NumPy's semantics: the
basic part of the index is applied with ``x[...]``, then the array part (integer
arrays, boolean masks as their ``nonzero`` coordinates, and integers alongside
them) with one ``tf.gather_nd``. :func:`index_update` selects the flat positions
``index`` reaches (by indexing a ``tf.range`` id tensor the shape of ``x``) and
scatters ``values`` there, out of place and differentiably.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import tensorflow as tf

from ...errors import DtypeError, InvalidArgumentError, ShapeError
from .._common import check_index_update_op, check_integer_indices, normalize_axis
from ._core import (
    INT32_ENUM,
    INTEGER,
    broadcast_shape,
    constant,
    may_be_negative,
    ndim,
    shape_list,
    shape_operand,
    size,
    small_constant,
)
from ._private import EagerTensor, gen_array_ops, gen_math_ops

__all__ = ["index_get", "index_update", "take", "take_along_axis"]


def _wrap_negative(indices, n):
    """Integer ``indices`` with negative entries counted from the end of an axis of size ``n``."""
    if indices.dtype not in (tf.int32, tf.int64):
        indices = tf.cast(indices, tf.int64)
    return tf.where(indices < 0, indices + tf.cast(n, indices.dtype), indices)


def _as_index_tensor(indices):
    if isinstance(indices, (tf.Tensor, tf.Variable)):
        return indices
    return tf.convert_to_tensor(np.asarray(indices))


def take(x, indices, /, *, axis=None):
    """Elements of ``x`` at integer ``indices`` along ``axis`` (negative indices count from the end).

    ``axis`` may be omitted only for 1-d ``x``.
    """
    rank = ndim(x)
    if axis is None:
        if rank != 1:
            raise InvalidArgumentError("take: axis must be given for arrays of other than one dimension")
        axis = 0
    axis = normalize_axis(axis, rank)
    check_integer_indices("take", "indices", indices)  # _wrap_negative would cast floats
    if type(x) is EagerTensor and type(indices) is EagerTensor and not may_be_negative(indices):
        # (tf.gather's op, the axis cached: tf.where & co. and tf.gather's Python cost ~0.15 ms)
        if indices.dtype not in (tf.int32, tf.int64):
            indices = gen_math_ops.cast(indices, tf.int64)
        return gen_array_ops.gather_v2(x, indices, small_constant(axis, tf.int32))
    indices = _wrap_negative(_as_index_tensor(indices), shape_list(x)[axis])
    return tf.gather(x, indices, axis=axis)


def take_along_axis(x, indices, /, *, axis=-1):
    """Elements of ``x`` at ``indices`` along ``axis``; the other axes of both broadcast together."""
    rank = ndim(x)
    axis = normalize_axis(axis, rank)
    check_integer_indices("take_along_axis", "indices", indices)  # _wrap_negative would cast floats
    indices = _as_index_tensor(indices)
    if ndim(indices) != rank:
        raise ShapeError(
            f"take_along_axis: indices must have as many dimensions as x ({rank}), got {ndim(indices)}"
        )
    if type(x) is EagerTensor and type(indices) is EagerTensor:
        return _eager_take_along_axis(x, indices, axis, rank)
    xs, js = shape_list(x), shape_list(indices)
    indices = _wrap_negative(indices, xs[axis])
    others = broadcast_shape([*xs[:axis], 1, *xs[axis + 1 :]], [*js[:axis], 1, *js[axis + 1 :]])
    if isinstance(others, list):
        x = tf.broadcast_to(x, [*others[:axis], xs[axis], *others[axis + 1 :]])
        indices = tf.broadcast_to(indices, [*others[:axis], js[axis], *others[axis + 1 :]])
    else:
        x = tf.broadcast_to(x, tf.tensor_scatter_nd_update(others, [[axis]], [tf.shape(x)[axis]]))
        indices = tf.broadcast_to(
            indices, tf.tensor_scatter_nd_update(others, [[axis]], [tf.shape(indices)[axis]])
        )
    perm = [a for a in range(rank) if a != axis] + [axis]
    inverse = list(np.argsort(perm))
    out = tf.gather(tf.transpose(x, perm), tf.transpose(indices, perm), batch_dims=rank - 1)
    return tf.transpose(out, inverse)


# ---- indexing with the standard's (and NumPy's) index forms --------------------------------


def _is_array_index(item: Any) -> bool:
    """Whether ``item`` takes part in advanced indexing (0-d integer tensors act as integers)."""
    if isinstance(item, (tf.Tensor, tf.Variable)):
        return item.dtype is tf.bool or item.shape.rank != 0
    return isinstance(item, (list, np.ndarray))


def index_get(x, index, /):
    """``x[index]`` with NumPy's semantics: ints, slices, ``...``, ``None``, integer arrays, boolean masks.

    Integer arrays broadcast together; their result axes replace the indexed axes
    where the array indices are adjacent, else they come first (NumPy's rule).
    """
    key = index if isinstance(index, tuple) else (index,)
    for item in key:
        if _is_array_index(item):
            return _advanced_get(x, key)
    return x[index]


def _advanced_get(x, key):
    rank = ndim(x)
    items: list[tuple[str, Any]] = []
    consumed = 0
    for item in key:
        if item is None:
            items.append(("new", None))
        elif item is Ellipsis:
            items.append(("ellipsis", None))
        elif isinstance(item, slice):
            items.append(("slice", item))
            consumed += 1
        elif _is_array_index(item):
            t = _as_index_tensor(item)
            if t.dtype is tf.bool:
                if t.shape.rank == 0:
                    raise InvalidArgumentError("index: 0-d boolean indices are not supported")
                items.append(("mask", t))
                consumed += t.shape.rank
            else:
                if t.dtype not in INTEGER:
                    raise DtypeError(f"index: array indices must be integers or booleans, got {t.dtype.name}")
                items.append(("array", t))
                consumed += 1
        else:
            items.append(("array", tf.convert_to_tensor(item)))  # an integer among array indices
            consumed += 1
    n_ellipsis = sum(kind == "ellipsis" for kind, _ in items)
    if n_ellipsis > 1:
        raise InvalidArgumentError("index: an index can have only one ellipsis ('...')")
    if consumed > rank:
        raise InvalidArgumentError(f"index: too many indices ({consumed}) for an array of {rank} dimensions")
    fill = [("slice", slice(None))] * (rank - consumed)
    if n_ellipsis:
        at = next(i for i, (kind, _) in enumerate(items) if kind == "ellipsis")
        items = items[:at] + fill + items[at + 1 :]
    else:
        items = items + fill

    # basic indexing first (array-indexed axes kept whole), noting where the array axes land
    basic: list[Any] = []
    advanced: list[tuple[int, Any]] = []  # (axis of the basic result, index tensor)
    groups = 0  # runs of adjacent array indices
    previous_advanced = False
    x_axis = 0
    for kind, value in items:
        if kind in ("new", "slice"):
            basic.append(value)
            previous_advanced = False
            x_axis += kind == "slice"
            continue
        groups += not previous_advanced
        previous_advanced = True
        if kind == "array":
            basic.append(slice(None))
            advanced.append((len(basic) - 1, value))
            x_axis += 1
        else:  # a mask over the next k axes: its nonzero coordinates, one index per axis
            k = value.shape.rank
            static = x.shape[x_axis : x_axis + k]
            if value.shape.is_fully_defined() and static.is_fully_defined() and value.shape != static:
                raise InvalidArgumentError(
                    f"index: a boolean index of shape {tuple(value.shape)} does not match the "
                    f"indexed dimensions {tuple(static)}"
                )
            coords = tf.where(value)
            for j in range(k):
                basic.append(slice(None))
                advanced.append((len(basic) - 1, coords[:, j]))
            x_axis += k
    y = x[tuple(basic)]
    y_shape = shape_list(y)
    positions = [p for p, _ in advanced]
    indices = [_wrap_negative(i, y_shape[p]) for p, i in advanced]
    common = broadcast_shape(*(shape_list(i) for i in indices))
    index_dtype = tf.int64 if any(i.dtype is tf.int64 for i in indices) else tf.int32
    indices = [tf.broadcast_to(tf.cast(i, index_dtype), common) for i in indices]
    rest = [a for a in range(len(y_shape)) if a not in positions]
    if positions + rest != list(range(len(y_shape))):
        y = tf.transpose(y, positions + rest)
    out = tf.gather_nd(y, tf.stack(indices, axis=-1))
    first = positions[0]
    if groups == 1 and first:  # adjacent array indices: their result axes go where they were
        nb = len(common) if isinstance(common, list) else int(common.shape[0])
        n_out = nb + len(rest)
        perm = list(range(nb, nb + first)) + list(range(nb)) + list(range(nb + first, n_out))
        out = tf.transpose(out, perm)
    return out


def _flat_positions(x, index):
    """The flat (row-major) positions of the elements ``x[index]`` selects, in the shape of ``x[index]``."""
    n = size(x)
    dtype = tf.int32 if isinstance(n, int) and n < 2**31 else tf.int64
    ids = tf.reshape(tf.range(tf.cast(n, dtype), dtype=dtype), tf.shape(x))
    return index_get(ids, index)


def index_update(x, index, values, /, *, op="set"):
    """A copy of ``x`` with ``values`` written (``op="set"``) or combined into ``x[index]``.

    ``op`` is one of ``"set"``, ``"add"``, ``"multiply"``, ``"min"``, ``"max"``; for all
    but ``"set"`` repeated indices accumulate (for ``"set"`` the last write wins on
    the CPU; TensorFlow does not specify it on accelerators). ``values`` broadcasts
    to the shape of ``x[index]`` and is cast to ``x``'s dtype. Differentiable with
    respect to ``x`` and ``values``.
    """
    check_index_update_op(op)
    if isinstance(x, tf.Variable):
        x = tf.convert_to_tensor(x)
    positions = _flat_positions(x, index)
    if isinstance(values, (tf.Tensor, tf.Variable)):
        values = values if values.dtype is x.dtype else tf.cast(values, x.dtype)
    else:
        values = (
            constant(values, x.dtype)
            if isinstance(values, (bool, int, float, complex))
            else tf.cast(tf.convert_to_tensor(values), x.dtype)
        )
    values = tf.reshape(tf.broadcast_to(values, tf.shape(positions)), [-1])
    flat_positions = tf.reshape(positions, [-1, 1])
    flat_x = tf.reshape(x, [-1])
    dtype = x.dtype
    if dtype is tf.bool and op != "set":  # booleans: add is OR, multiply is AND
        flat_x, values = tf.cast(flat_x, tf.int8), tf.cast(values, tf.int8)
        op = {"add": "max", "multiply": "min"}.get(op, op)
    if op == "set":
        out = tf.tensor_scatter_nd_update(flat_x, flat_positions, values)
    elif op == "add":
        out = tf.tensor_scatter_nd_add(flat_x, flat_positions, values)
    elif op == "min":
        out = tf.tensor_scatter_nd_min(flat_x, flat_positions, values)
    elif op == "max":
        out = tf.tensor_scatter_nd_max(flat_x, flat_positions, values)
    else:  # multiply: the product of the values at each position, then one multiplication
        factors = tf.math.unsorted_segment_prod(values, flat_positions[:, 0], tf.size(flat_x))
        out = flat_x * factors
    return tf.reshape(tf.cast(out, dtype) if out.dtype is not dtype else out, tf.shape(x))


def _eager_take_along_axis(x, indices, axis, rank):
    """``take_along_axis`` of eager tensors: the same ops, called directly with the static shapes and
    permutations as cached host tensors (``shape_operand``), and none that would change nothing
    (a broadcast to the same shape, the identity permutation, the wrap of indices that are all
    non-negative, checked in place): ~0.9 ms -> ~30 us at 1 element."""
    xs, js = x.shape.as_list(), indices.shape.as_list()
    if indices.dtype not in (tf.int32, tf.int64):
        indices = gen_math_ops.cast(indices, tf.int64)
    if may_be_negative(indices):
        indices = _wrap_negative(indices, xs[axis])
    others = broadcast_shape([*xs[:axis], 1, *xs[axis + 1 :]], [*js[:axis], 1, *js[axis + 1 :]])
    x = _eager_broadcast(x, xs, [*others[:axis], xs[axis], *others[axis + 1 :]])
    indices = _eager_broadcast(indices, js, [*others[:axis], js[axis], *others[axis + 1 :]])
    last = rank - 1
    if axis != last:
        perm = [a for a in range(rank) if a != axis] + [axis]
        x = gen_array_ops.transpose(x, shape_operand(perm, INT32_ENUM))
        indices = gen_array_ops.transpose(indices, shape_operand(perm, INT32_ENUM))
    out = gen_array_ops.gather_v2(x, indices, small_constant(last, tf.int32), batch_dims=last)
    if axis != last:
        inverse = [*range(axis), last, *range(axis, last)]
        out = gen_array_ops.transpose(out, shape_operand(inverse, INT32_ENUM))
    return out


def _eager_broadcast(x, shape, target):
    if shape == target:
        return x
    return gen_array_ops.broadcast_to(x, shape_operand(target, INT32_ENUM))
