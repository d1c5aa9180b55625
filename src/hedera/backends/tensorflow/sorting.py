"""Sorting functions (tensorflow backend).

Sorts are stable in both directions and order NaNs after ``+inf`` (first when
descending), as NumPy does. TensorFlow sorts with ``top_k`` (stable: among equal
keys the lower index comes first) and treats NaNs inconsistently, so the sort runs
on an integer key of the same width whose order is the float order: the bits of
``x`` (``-0.0`` made ``+0.0``, every NaN made one positive NaN) with the magnitude
bits of negative numbers flipped. Ascending order is ``top_k`` of the key's
bitwise complement, which, unlike negation, cannot overflow. Along the last axis, integers
and floats without NaNs (checked in place for eager CPU tensors) sort on themselves, with
no key: one ``top_k`` (and a negation or complement when ascending).
"""

from __future__ import annotations

import math

import numpy as np
import tensorflow as tf

from ..._api import names_in
from .._common import normalize_axis
from ._core import COMPLEX, DEFAULT_INDEX, INTEGER, REAL_FLOAT, may_hold_nan, ndim
from ._private import EagerTensor

__all__ = names_in("sorting")  # the API table's sorting rows

_INT_OF_WIDTH = {2: tf.int16, 4: tf.int32, 8: tf.int64}


def sort_key(x):
    """A tensor whose (stable) descending order is the descending order of ``x`` with NaNs largest."""
    if x.dtype is tf.bool:
        return tf.cast(x, tf.int8)
    if x.dtype in REAL_FLOAT:
        bits = _INT_OF_WIDTH[x.dtype.size]
        canonical = tf.where(tf.math.is_nan(x), tf.constant(math.nan, x.dtype), _plus_zero(x))
        key = tf.bitcast(canonical, bits)
        magnitude = tf.constant(np.iinfo(bits.as_numpy_dtype).max, bits)
        return tf.where(key < 0, tf.bitwise.bitwise_xor(key, magnitude), key)
    return x


def _plus_zero(x):
    """``x`` with ``-0.0`` made ``+0.0``: ``x + 0`` eagerly; inside ``tf.function`` a select, as
    TF's graph optimizer rewrites ``x + 0`` to ``x`` (then -0.0 sorted before 0.0, unstably)."""
    zero = tf.zeros((), x.dtype)
    if type(x) is EagerTensor:
        return x + zero
    return tf.where(tf.equal(x, zero), zero, x)


def _last_axis_order(key, descending, k=None):
    """Indices (int64) of the ``k`` first elements of each row of ``key`` in sorted order, stably."""
    if not descending:
        key = tf.bitwise.invert(key)
    n = tf.shape(key)[-1] if k is None else k
    return tf.cast(tf.math.top_k(key, k=n, sorted=True).indices, DEFAULT_INDEX)


def _move_last(x, axis):
    rank = ndim(x)
    axis = normalize_axis(axis, rank)
    if axis == rank - 1:
        return x, None
    perm = list(range(rank))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    return tf.transpose(x, perm), perm


def order_along(x, axis, descending, k=None):
    """``(x with axis moved last, indices of its first k sorted elements, perm to move back or None)``.

    Complex numbers order lexicographically (real part, then imaginary part), as in
    NumPy: two stable sorts, by the imaginary part and then by the real part.
    """
    xt, perm = _move_last(x, axis)
    if xt.dtype in COMPLEX:
        batch = ndim(xt) - 1
        by_imag = _last_axis_order(sort_key(tf.math.imag(xt)), descending)
        real = tf.gather(tf.math.real(xt), by_imag, batch_dims=batch)
        order = tf.gather(by_imag, _last_axis_order(sort_key(real), descending, k), batch_dims=batch)
        return xt, order, perm
    return xt, _last_axis_order(sort_key(xt), descending, k), perm


def direct_top_k(x, axis, descending, index_type=DEFAULT_INDEX, k=None):
    """``top_k`` of ``x``'s last axis (its first ``k`` elements, all for None) in sorted order, or
    None where the key is needed.

    Without NaNs (integers, and floats checked by ``may_hold_nan``), the order of ``x``
    itself is the key's along the last axis: descending is ``top_k(x)``, ascending
    ``top_k`` of ``-x`` (floats: exact, and ``-0.0`` ties ``+0.0`` as in the key) or of
    ``~x`` (integers: negation would overflow). Returns ``(result of top_k, how to undo the
    transformation of the values)``. ``sort`` asks for int32 indices: TensorFlow's gradient of
    ``TopKV2`` adds int32 offsets to the indices and fails on int64 ones.
    """
    rank = ndim(x)
    if rank == 0 or normalize_axis(axis, rank) != rank - 1:
        return None
    if x.dtype in INTEGER:
        flip = _invert
    elif x.dtype in REAL_FLOAT and not may_hold_nan(x):
        flip = _negative
    else:
        return None
    n = x.shape[-1] if k is None else k
    if n is None:
        n = tf.shape(x)[-1]
    # (the ops of tf.math.top_k, negative and bitwise.invert, without their Python wrapping)
    if descending:
        return tf.raw_ops.TopKV2(input=x, k=n, index_type=index_type), None
    return tf.raw_ops.TopKV2(input=flip(x), k=n, index_type=index_type), flip


def _invert(x):
    return tf.raw_ops.Invert(x=x)


def _negative(x):
    return tf.raw_ops.Neg(x=x)


def argsort(x, /, *, axis=-1, descending=False, stable=True):
    """Indices (int64) that sort ``x`` along ``axis``; stable, NaNs last (first when descending)."""
    direct = direct_top_k(x, axis, descending)
    if direct is not None:
        return direct[0].indices
    _, order, perm = order_along(x, axis, descending)
    return order if perm is None else tf.transpose(order, perm)


def sort(x, /, *, axis=-1, descending=False, stable=True):
    """``x`` sorted along ``axis``; NaNs last (first when descending)."""
    direct = direct_top_k(x, axis, descending, tf.int32)
    if direct is not None:
        top, undo = direct
        return top.values if undo is None else undo(top.values)
    xt, order, perm = order_along(x, axis, descending)
    out = tf.gather(xt, order, batch_dims=ndim(x) - 1)
    return out if perm is None else tf.transpose(out, perm)
