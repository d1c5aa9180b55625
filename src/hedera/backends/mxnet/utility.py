"""Utility functions (mxnet backend)."""

from __future__ import annotations

import mxnet as mx

from ..._api import names_in
from ..numpy import utility as _ref
from ._core import host
from .elementwise import axes, native_ok

__all__ = names_in("utility")  # the API table's utility rows

_mnp = mx.np


_all = host(_ref.all, "all")
_any = host(_ref.any, "any")


def all(x, /, *, axis=None, keepdims=False):
    if 0 < x.size and x.ndim <= 5 and axis != ():
        return _mnp.all(x, axis=axes(axis, x.ndim), keepdims=keepdims)
    return _all(x, axis=axis, keepdims=keepdims)


def any(x, /, *, axis=None, keepdims=False):
    if 0 < x.size and x.ndim <= 5 and axis != ():
        return _mnp.any(x, axis=axes(axis, x.ndim), keepdims=keepdims)
    return _any(x, axis=axis, keepdims=keepdims)


_diff = host(_ref.diff, "diff")


def diff(x, /, *, axis=-1, n=1, prepend=None, append=None):
    if native_ok(x) and prepend is None and append is None and x.ndim:
        return _mnp.diff(x, n=n, axis=axes(axis, x.ndim))
    return _diff(x, axis=axis, n=n, prepend=prepend, append=append)
