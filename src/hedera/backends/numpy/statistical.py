"""Statistical functions (numpy backend)."""

from __future__ import annotations

import numpy as np

from ..._api import names_in
from ...errors import InvalidArgumentError, ShapeError
from .._common import native_common_case
from ._core import native_dtype

__all__ = names_in("statistical")  # the API table's statistical rows


def _cumulative(op, identity, x, axis, dtype, include_initial):
    if np.ndim(x) == 0:  # np.cumsum would flatten it to shape (1,)
        raise ShapeError("x: a cumulative sum or product needs at least one dimension, got a 0-d array")
    if axis is None:
        if np.ndim(x) > 1:
            raise InvalidArgumentError("axis: must be given for arrays of more than one dimension")
        axis = 0
    out = op(x, axis=axis, dtype=native_dtype(dtype))
    if include_initial:
        shape = list(np.shape(out))
        shape[axis] = 1
        out = np.concatenate([np.full(shape, identity, dtype=out.dtype), out], axis=axis)
    return out


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    if dtype is None and not include_initial and type(x) is np.ndarray:  # the common case, no calls
        n = x.ndim
        if n == 1 and axis is None:
            return x.cumsum(0)  # (the method: np.cumsum is a Python wrapper around it)
        if n and type(axis) is int and -n <= axis < n:
            return x.cumsum(axis)
    return _cumulative(np.cumsum, 0, x, axis, dtype, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    if dtype is None and not include_initial and type(x) is np.ndarray:  # the common case, no calls
        n = x.ndim
        if n == 1 and axis is None:
            return x.cumprod(0)  # (the method: np.cumprod is a Python wrapper around it)
        if n and type(axis) is int and -n <= axis < n:
            return x.cumprod(axis)
    return _cumulative(np.cumprod, 1, x, axis, dtype, include_initial)


@native_common_case(np.max, 1, forwarded=("axis", "keepdims"))
def max(x, /, *, axis=None, keepdims=False):
    return np.max(x, axis=axis, keepdims=keepdims)


@native_common_case(np.min, 1, forwarded=("axis", "keepdims"))
def min(x, /, *, axis=None, keepdims=False):
    return np.min(x, axis=axis, keepdims=keepdims)


@native_common_case(np.mean, 1, forwarded=("axis", "keepdims"))
def mean(x, /, *, axis=None, keepdims=False):
    return np.mean(x, axis=axis, keepdims=keepdims)


@native_common_case(np.prod, 1, forwarded=("axis", "keepdims"))
def prod(x, /, *, axis=None, dtype=None, keepdims=False):
    return np.prod(x, axis=axis, dtype=native_dtype(dtype), keepdims=keepdims)


@native_common_case(np.sum, 1, forwarded=("axis", "keepdims"))
def sum(x, /, *, axis=None, dtype=None, keepdims=False):
    return np.sum(x, axis=axis, dtype=native_dtype(dtype), keepdims=keepdims)


#: NumPy >= 2's var and std take correction= (as ddof=): the native common case forwards it
_CORRECTION = ("correction",) if np.lib.NumpyVersion(np.__version__) >= "2.0.0" else ()


@native_common_case(np.std, 1, forwarded=("axis", "keepdims", *_CORRECTION))
def std(x, /, *, axis=None, correction=0.0, keepdims=False):
    return np.std(x, axis=axis, ddof=correction, keepdims=keepdims)


@native_common_case(np.var, 1, forwarded=("axis", "keepdims", *_CORRECTION))
def var(x, /, *, axis=None, correction=0.0, keepdims=False):
    return np.var(x, axis=axis, ddof=correction, keepdims=keepdims)
