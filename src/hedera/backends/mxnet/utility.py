"""Utility functions (mxnet backend)."""

from __future__ import annotations

import mxnet as mx

from ..numpy import utility as _ref
from ._core import host
from .elementwise import FLOATS

__all__ = ["all", "any", "diff"]

_mnp = mx.np


def _axis(axis):
    return tuple(axis) if isinstance(axis, list) else axis


def all(x, /, *, axis=None, keepdims=False):
    return _mnp.all(x, axis=_axis(axis), keepdims=keepdims)


def any(x, /, *, axis=None, keepdims=False):
    return _mnp.any(x, axis=_axis(axis), keepdims=keepdims)


_diff = host(_ref.diff, "diff")


def diff(x, /, *, axis=-1, n=1, prepend=None, append=None):
    if x.dtype in FLOATS and prepend is None and append is None and x.ndim:
        return _mnp.diff(x, n=n, axis=axis)
    return _diff(x, axis=axis, n=n, prepend=prepend, append=append)
