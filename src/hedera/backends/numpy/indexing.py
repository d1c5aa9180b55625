"""Indexing functions (numpy backend), plus the functional indexed update behind ``hd.at``."""

from __future__ import annotations

import numpy as np

from ...errors import InvalidArgumentError
from .._common import check_index_update_op, check_integer_indices

__all__ = ["index_get", "index_update", "take", "take_along_axis"]


def take_along_axis(x, indices, /, *, axis=-1):
    if type(indices) is np.ndarray and indices.dtype.kind == "i":  # the common case: no check to make
        return np.take_along_axis(x, indices, axis)
    check_integer_indices("take_along_axis", "indices", indices)  # numpy casts booleans
    return np.take_along_axis(x, indices, axis)  # numpy < 2 has no default axis


def take(x, indices, /, *, axis=None):
    # the common case: an array of signed integer indices (no check to make), an axis or a 1-d x
    if type(indices) is np.ndarray and indices.dtype.kind == "i" and type(x) is np.ndarray:
        if axis is not None or x.ndim == 1:
            return x.take(indices, axis)
    check_integer_indices("take", "indices", indices)  # numpy casts booleans
    if axis is None and np.ndim(x) != 1:
        raise InvalidArgumentError("axis: must be given for arrays of more than one dimension")
    if getattr(indices, "dtype", None) == np.uint64:  # numpy < 2 will not cast uint64 to intp
        indices = np.asarray(indices).astype(np.intp)
    return np.take(x, indices, axis=axis)


def index_get(x, index, /):
    return x[index]


_ACCUMULATE = {"add": np.add, "multiply": np.multiply, "min": np.minimum, "max": np.maximum}


def index_update(x, index, values, /, *, op="set"):
    """A copy of ``x`` with ``values`` written (``op="set"``) or combined into ``x[index]``.

    Repeated indices accumulate for every op but ``"set"`` (``ufunc.at``).
    """
    check_index_update_op(op)
    out = np.array(x, copy=True)
    if op == "set":
        out[index] = values
    else:
        _ACCUMULATE[op].at(out, index, values)
    return out
