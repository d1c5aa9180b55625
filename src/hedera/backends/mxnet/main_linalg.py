"""Linear algebra functions of the main namespace (mxnet backend).

Floating-point operands use MXNet's kernels (differentiable); integer ones go
through the host path (MXNet has no integer matrix product).
"""

from __future__ import annotations

import mxnet as mx

from ..._api import names_in
from ..numpy import main_linalg as _ref
from ._core import host
from .elementwise import native_ok
from .statistical import sum as _sum

__all__ = names_in("linear_algebra")  # the API table's linear_algebra rows

_mnp = mx.np
_matmul = host(_ref.matmul, "matmul")
_tensordot = host(_ref.tensordot, "tensordot")
_vecdot = host(_ref.vecdot, "vecdot")
_matrix_transpose = host(_ref.matrix_transpose, "matrix_transpose")


def _float_pair(x1, x2):
    return native_ok(x1) and native_ok(x2)


def matmul(x1, x2, /):
    if _float_pair(x1, x2) and x1.dtype == x2.dtype:
        return _mnp.matmul(x1, x2)
    return _matmul(x1, x2)


def matrix_transpose(x, /):
    if x.ndim < 2:
        raise ValueError("matrix_transpose: x must have at least two dimensions")
    if native_ok(x):
        return _mnp.swapaxes(x, -1, -2)
    return _matrix_transpose(x)


def tensordot(x1, x2, /, *, axes=2):
    if _float_pair(x1, x2) and x1.dtype == x2.dtype:
        return _mnp.tensordot(x1, x2, axes=axes)
    return _tensordot(x1, x2, axes=axes)


def vecdot(x1, x2, /, *, axis=-1):
    if x1.shape[axis] != x2.shape[axis]:
        raise ValueError("vecdot: x1 and x2 must have the same size along axis")
    if _float_pair(x1, x2) and x1.dtype == x2.dtype:
        return _sum(x1 * x2, axis=axis)  # (hedera's sum: MXNet's loses infinities)
    return _vecdot(x1, x2, axis=axis)
