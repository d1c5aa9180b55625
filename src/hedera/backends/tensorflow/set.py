"""Set functions (tensorflow backend).

Built on a stable sort of the flattened array (see sorting.py): values come out
sorted (NaNs last), each NaN is a distinct value, as the standard says, and
``indices`` point at first occurrences. Index and count results are int64.

Eager tensors without NaN (integers, bool, and floats checked in place by ``may_hold_nan``) take
a path of ~7 TF ops (``_fast_groups``): one ``TopKV2`` sorts, TF's ``UniqueWithCounts`` of the
sorted keys numbers the groups, and ``SegmentMin`` finds each group's first occurrence: ~0.1 ms
at 1 element, where the general path (~40 ops, ``boolean_mask``'s Python included) costs ~3 ms.
"""

from __future__ import annotations

from typing import NamedTuple

import tensorflow as tf

from ..._api import names_in
from .._common import UniqueAllResult, UniqueCountsResult, UniqueInverseResult
from ._core import (
    DEFAULT_INDEX,
    INT32_ENUM,
    INTEGER,
    dtype_enum,
    may_hold_nan,
    promote,
    shape_list,
    shape_operand,
    small_constant,
)
from ._private import EagerTensor, gen_array_ops, gen_bitwise_ops, gen_math_ops
from .sorting import order_along

__all__ = names_in("set")  # the API table's set rows


def isin(x1, x2, /, *, invert=False):
    """Whether each element of ``x1`` is in ``x2`` (NaN never is); the shape of ``x1``."""
    x1, x2 = promote(x1, x2)
    if type(x1) is EagerTensor and type(x2) is EagerTensor:  # (the same ops, operands cached)
        last = small_constant(-1, tf.int32)
        flat = gen_array_ops.reshape(x2, shape_operand((-1,), INT32_ENUM, minimum=-1))
        hits = gen_math_ops.equal(gen_array_ops.expand_dims(x1, last), flat)
        hits = gen_math_ops._any(hits, last, False)
        return gen_math_ops.logical_not(hits) if invert else hits
    hits = tf.reduce_any(tf.equal(tf.expand_dims(x1, -1), tf.reshape(x2, [-1])), axis=-1)
    return tf.logical_not(hits) if invert else hits


def _sorted_groups(x):
    """``(sorted flat values, their original positions, True where a new value starts)``."""
    flat = tf.reshape(x, [-1])
    _, order, _ = order_along(flat, 0, descending=False)
    values = tf.gather(flat, order)
    # NaN != NaN, so every NaN starts its own group
    starts = tf.concat([tf.ones([1], tf.bool)[: tf.size(values)], tf.not_equal(values[1:], values[:-1])], 0)
    return values, order, starts


class _Groups(NamedTuple):
    flat: tf.Tensor  # x flattened
    order: tf.Tensor  # the positions in flat of its stably sorted elements (int64)
    group: tf.Tensor  # the group number of each sorted element (int64)
    first: tf.Tensor  # the position in flat of each group's first occurrence (int64)
    counts: tf.Tensor  # the size of each group (int64)


def _fast_groups(x):
    """The groups of equal values of an eager ``x`` without NaN (see the module's docstring); None
    for symbolic tensors, complex numbers and floats that may hold a NaN (the general path)."""
    if type(x) is not EagerTensor:
        return None
    kind = dtype_enum(x)
    if kind not in _INTEGER_ENUMS and kind != _BOOL_ENUM and (kind not in _FLOAT_ENUMS or may_hold_nan(x)):
        return None
    flat = gen_array_ops.reshape(x, shape_operand((-1,), INT32_ENUM, minimum=-1))
    # ascending order is top_k's of a flipped key: ~x for integers (-x would overflow), 0 - x for
    # floats (not -x: -0.0 and 0.0 must be one key, and UniqueWithCounts hashes float16's bits)
    if kind == _BOOL_ENUM:
        key = gen_bitwise_ops.invert(gen_math_ops.cast(flat, tf.uint8))
    elif kind in _INTEGER_ENUMS:
        key = gen_bitwise_ops.invert(flat)
    else:
        key = gen_math_ops.sub(small_constant(0, x.dtype), flat)
    top = tf.raw_ops.TopKV2(input=key, k=flat.shape[0], sorted=True, index_type=DEFAULT_INDEX)
    _, group, counts = gen_array_ops.unique_with_counts(top.values, out_idx=DEFAULT_INDEX)
    first = gen_math_ops.segment_min(top.indices, group)  # (stable: the lowest position of each group)
    return _Groups(flat, top.indices, group, first, counts)


_BOOL_ENUM = tf.bool.as_datatype_enum
_INTEGER_ENUMS = frozenset(d.as_datatype_enum for d in INTEGER.dtypes)
_FLOAT_ENUMS = frozenset(d.as_datatype_enum for d in (tf.float16, tf.float32, tf.float64))


def _fast_values(groups):
    return gen_array_ops.gather_v2(groups.flat, groups.first, small_constant(0, tf.int32))


def _fast_inverse(groups, x):
    # inverse[order[i]] = group[i]
    positions = gen_array_ops.invert_permutation(groups.order)
    inverse = gen_array_ops.gather_v2(groups.group, positions, small_constant(0, tf.int32))
    return gen_array_ops.reshape(inverse, shape_operand(tuple(x.shape), INT32_ENUM))


def unique_values(x, /):
    """The distinct values of ``x``, sorted, as a 1-d array."""
    groups = _fast_groups(x)
    if groups is not None:
        return _fast_values(groups)
    values, _, starts = _sorted_groups(x)
    return tf.boolean_mask(values, starts)


def _counts(starts):
    first = tf.cast(tf.where(starts)[:, 0], DEFAULT_INDEX)
    end = tf.cast(tf.shape(starts, out_type=DEFAULT_INDEX), DEFAULT_INDEX)
    return first, tf.concat([first[1:], end], 0) - first


def _inverse(order, starts, x):
    group = tf.cumsum(tf.cast(starts, DEFAULT_INDEX)) - 1
    inverse = tf.scatter_nd(order[:, None], group, tf.shape(order, out_type=DEFAULT_INDEX))
    return tf.reshape(inverse, shape_list(x))


def unique_counts(x, /):
    """The distinct values of ``x`` and how often each occurs."""
    groups = _fast_groups(x)
    if groups is not None:
        return UniqueCountsResult(_fast_values(groups), groups.counts)
    values, _, starts = _sorted_groups(x)
    _, counts = _counts(starts)
    return UniqueCountsResult(tf.boolean_mask(values, starts), counts)


def unique_inverse(x, /):
    """The distinct values of ``x`` and, in the shape of ``x``, the index of each element's value."""
    groups = _fast_groups(x)
    if groups is not None:
        return UniqueInverseResult(_fast_values(groups), _fast_inverse(groups, x))
    values, order, starts = _sorted_groups(x)
    return UniqueInverseResult(tf.boolean_mask(values, starts), _inverse(order, starts, x))


def unique_all(x, /):
    """Distinct values, the index of each one's first occurrence, the inverse indices and the counts."""
    groups = _fast_groups(x)
    if groups is not None:
        return UniqueAllResult(_fast_values(groups), groups.first, _fast_inverse(groups, x), groups.counts)
    values, order, starts = _sorted_groups(x)
    first, counts = _counts(starts)
    return UniqueAllResult(
        tf.boolean_mask(values, starts), tf.gather(order, first), _inverse(order, starts, x), counts
    )
