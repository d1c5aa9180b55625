"""Sorting functions (mxnet backend): MXNet's sort for floats, the host path for the rest.

MXNet's ``argsort`` is not stable and it has no descending order, so ``argsort``
runs on the host (exact, stable); ``sort`` of floats is MXNet's (values do not
depend on stability), flipped for descending.
"""

from __future__ import annotations

import mxnet as mx

from ..._api import names_in
from .._common import normalize_axis
from ..numpy import sorting as _ref
from ._core import host
from .elementwise import native_ok

__all__ = names_in("sorting")  # the API table's sorting rows

argsort = host(_ref.argsort, "argsort")
_sort = host(_ref.sort, "sort")


def sort(x, /, *, axis=-1, descending=False, stable=True):
    if native_ok(x) and x.ndim and not _has_nan(x):
        axis = normalize_axis(axis, x.ndim)  # MXNet's sort of a 1-element axis rejects -1
        out = mx.np.sort(x, axis=axis)
        return mx.np.flip(out, axis=axis) if descending else out
    return _sort(x, axis=axis, descending=descending, stable=stable)


def _has_nan(x):
    return bool(mx.np.isnan(x).any())
