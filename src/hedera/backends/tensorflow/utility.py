"""Utility functions (tensorflow backend)."""

from __future__ import annotations

import tensorflow as tf

from ..._api import names_in
from ...errors import InvalidArgumentError
from .._common import normalize_axis
from ._core import as_tensor, ndim, shape_list

__all__ = names_in("utility")  # the API table's utility rows


def _truth(x):
    return x if x.dtype is tf.bool else tf.not_equal(x, tf.zeros((), x.dtype))


def all(x, /, *, axis=None, keepdims=False):
    """Whether every element along ``axis`` is non-zero (NaN counts as non-zero)."""
    return tf.reduce_all(_truth(x), axis=list(axis) if isinstance(axis, tuple) else axis, keepdims=keepdims)


def any(x, /, *, axis=None, keepdims=False):
    """Whether some element along ``axis`` is non-zero (NaN counts as non-zero)."""
    return tf.reduce_any(_truth(x), axis=list(axis) if isinstance(axis, tuple) else axis, keepdims=keepdims)


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
    head = (slice(None),) * axis
    for _ in range(n):
        upper, lower = out[(*head, slice(1, None))], out[(*head, slice(None, -1))]
        out = tf.not_equal(upper, lower) if out.dtype is tf.bool else upper - lower
    return out
