"""Set functions (tensorflow backend).

Built on a stable sort of the flattened array (see sorting.py): values come out
sorted (NaNs last), each NaN is a distinct value, as the standard says, and
``indices`` point at first occurrences. Index and count results are int64.
"""

from __future__ import annotations

import tensorflow as tf

from ..._api import names_in
from .._common import UniqueAllResult, UniqueCountsResult, UniqueInverseResult
from ._core import DEFAULT_INDEX, promote, shape_list
from .sorting import order_along

__all__ = names_in("set")  # the API table's set rows


def isin(x1, x2, /, *, invert=False):
    """Whether each element of ``x1`` is in ``x2`` (NaN never is); the shape of ``x1``."""
    x1, x2 = promote(x1, x2)
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


def unique_values(x, /):
    """The distinct values of ``x``, sorted, as a 1-d array."""
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
    values, _, starts = _sorted_groups(x)
    _, counts = _counts(starts)
    return UniqueCountsResult(tf.boolean_mask(values, starts), counts)


def unique_inverse(x, /):
    """The distinct values of ``x`` and, in the shape of ``x``, the index of each element's value."""
    values, order, starts = _sorted_groups(x)
    return UniqueInverseResult(tf.boolean_mask(values, starts), _inverse(order, starts, x))


def unique_all(x, /):
    """Distinct values, the index of each one's first occurrence, the inverse indices and the counts."""
    values, order, starts = _sorted_groups(x)
    first, counts = _counts(starts)
    return UniqueAllResult(
        tf.boolean_mask(values, starts), tf.gather(order, first), _inverse(order, starts, x), counts
    )
