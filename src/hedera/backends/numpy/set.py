"""Set functions (numpy backend). NaNs are distinct values, as the standard says."""

from __future__ import annotations

import numpy as np

from ..._api import names_in
from .._common import UniqueAllResult, UniqueCountsResult, UniqueInverseResult

__all__ = names_in("set")  # the API table's set rows

#: a result tuple of NumPy's result's fields: tuple.__new__ without the namedtuple's Python __new__
_new = tuple.__new__


def isin(x1, x2, /, *, invert=False):
    return np.isin(x1, x2, invert=invert)


def _unique(x, **flags):
    try:
        return np.unique(np.reshape(x, -1), equal_nan=False, **flags)
    except TypeError:  # numpy < 1.24 has no equal_nan and keeps NaNs distinct already
        return np.unique(np.reshape(x, -1), **flags)


# numpy >= 2's unique_* functions conform (NaNs distinct, inverse indices of x's shape); numpy < 2 has none
_NATIVE_UNIQUE = hasattr(np, "unique_all")


def unique_all(x, /):
    if _NATIVE_UNIQUE:
        return _new(UniqueAllResult, np.unique_all(x))
    values, indices, inverse, counts = _unique(x, return_index=True, return_inverse=True, return_counts=True)
    return UniqueAllResult(values, indices, np.reshape(inverse, np.shape(x)), counts)


def unique_counts(x, /):
    if _NATIVE_UNIQUE:
        return _new(UniqueCountsResult, np.unique_counts(x))
    return UniqueCountsResult(*_unique(x, return_counts=True))


def unique_inverse(x, /):
    if _NATIVE_UNIQUE:
        return _new(UniqueInverseResult, np.unique_inverse(x))
    values, inverse = _unique(x, return_inverse=True)
    return UniqueInverseResult(values, np.reshape(inverse, np.shape(x)))


def unique_values(x, /):
    try:  # (np.unique flattens x itself: without return_inverse the shape is not needed)
        return np.unique(x, equal_nan=False)
    except TypeError:  # numpy < 1.24 has no equal_nan and keeps NaNs distinct already
        return np.unique(x)
