"""Linear algebra functions of the main namespace (numpy backend)."""

from __future__ import annotations

import numpy as np

from ..._api import names_in

__all__ = names_in("linear_algebra")  # the API table's linear_algebra rows

matmul = np.matmul


def matrix_transpose(x, /):
    if x.__class__ is np.ndarray and x.ndim > 1:  # (np.swapaxes calls this method, after ~0.5 us of Python)
        return x.swapaxes(-1, -2)
    if np.ndim(x) < 2:
        raise ValueError("matrix_transpose: x must have at least two dimensions")
    return np.swapaxes(x, -1, -2)


def tensordot(x1, x2, /, *, axes=2):
    return np.tensordot(x1, x2, axes=axes)


#: NumPy >= 2's vecdot gufunc (conj(x1) . x2 in the promoted dtype, batch axes broadcast)
_vecdot = getattr(np, "vecdot", None)


def vecdot(x1, x2, /, *, axis=-1):
    # a negative axis names the same axis of each operand and of their broadcast, as the gufunc reads it;
    # other cases (and the gufunc's errors: mismatched sizes, too few axes) take the path below
    if _vecdot is not None and type(axis) is int and axis < 0:
        try:
            return _vecdot(x1, x2) if axis == -1 else _vecdot(x1, x2, axis=axis)
        except ValueError:
            pass
    if np.shape(x1)[axis] != np.shape(x2)[axis]:
        raise ValueError("vecdot: x1 and x2 must have the same size along axis")
    x1, x2 = np.broadcast_arrays(x1, x2)
    # np.sum would widen small integers to int64; the standard keeps the promoted dtype
    return np.sum(np.conj(x1) * x2, axis=axis, dtype=np.result_type(x1, x2))
