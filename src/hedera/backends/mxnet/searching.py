"""Searching functions (mxnet backend)."""

from __future__ import annotations

import mxnet as mx

from ..._api import names_in
from ..numpy import searching as _ref
from ._core import host
from .elementwise import exact_scalar, native_ok

__all__ = names_in("searching")  # the API table's searching rows

_mnp = mx.np

count_nonzero = host(_ref.count_nonzero, "count_nonzero")
nonzero = host(_ref.nonzero, "nonzero")
searchsorted = host(_ref.searchsorted, "searchsorted")
_argmax = host(_ref.argmax, "argmax")
_argmin = host(_ref.argmin, "argmin")
_where = host(_ref.where, "where")


def argmax(x, /, *, axis=None, keepdims=False):
    return _argmax(x, axis=axis, keepdims=keepdims)  # MXNet's picks the last of tied NaNs


def argmin(x, /, *, axis=None, keepdims=False):
    return _argmin(x, axis=axis, keepdims=keepdims)


def _float_or_scalar(x):
    d = getattr(x, "dtype", None)
    return native_ok(x) if d is not None else isinstance(x, (int, float)) and not isinstance(x, bool)


def _condition_ok(condition):
    return hasattr(condition, "dtype") and 0 < condition.size and condition.ndim <= 5


def where(condition, x1, x2, /):
    same = getattr(x1, "dtype", None) == getattr(x2, "dtype", None) or not (
        hasattr(x1, "dtype") and hasattr(x2, "dtype")
    )
    if same and _float_or_scalar(x1) and _float_or_scalar(x2) and _condition_ok(condition):
        if not hasattr(x1, "dtype") and not hasattr(x2, "dtype"):
            return _where(condition, x1, x2)
        if not hasattr(x1, "dtype"):
            x1 = exact_scalar(x1, x2)
        elif not hasattr(x2, "dtype"):
            x2 = exact_scalar(x2, x1)
        return _mnp.where(condition, x1, x2)
    return _where(condition, x1, x2)
