"""Searching functions (numpy backend)."""

from __future__ import annotations

import numpy as np

from ..._api import names_in
from ...errors import ShapeError
from .._common import check_integer_indices, native_common_case
from .elementwise import _VALUE_BASED, _standard_operands

__all__ = names_in("searching")  # the API table's searching rows

where = np.where
if _VALUE_BASED:  # numpy < 2 promotes by value (see elementwise.py)

    def where(condition, x1, x2, /):
        return np.where(condition, *_standard_operands(x1, x2))


def argmax(x, /, *, axis=None, keepdims=False):
    # (the method, not np.argmax's Python wrapper around it; a 0-d result is an array, not a NumPy scalar)
    if type(x) is np.ndarray:
        out = x.argmax(axis, keepdims=keepdims)
    else:
        out = np.argmax(x, axis, keepdims=keepdims)
    return out if type(out) is np.ndarray else np.asarray(out)


def argmin(x, /, *, axis=None, keepdims=False):
    if type(x) is np.ndarray:
        out = x.argmin(axis, keepdims=keepdims)
    else:
        out = np.argmin(x, axis, keepdims=keepdims)
    return out if type(out) is np.ndarray else np.asarray(out)


def count_nonzero(x, /, *, axis=None, keepdims=False):
    return np.asarray(np.count_nonzero(x, axis=axis, keepdims=keepdims), dtype=np.int64)


def nonzero(x, /):
    if np.ndim(x) == 0:
        raise ShapeError("nonzero: x must have at least one dimension (the standard disallows 0-d input)")
    return tuple(np.nonzero(x))


@native_common_case(np.searchsorted, 2, forwarded=("side",))
def searchsorted(x1, x2, /, *, side="left", sorter=None):
    check_integer_indices("searchsorted", "sorter", sorter)
    return np.searchsorted(x1, x2, side=side, sorter=sorter)
