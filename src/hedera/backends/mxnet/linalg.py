"""The ``linalg`` extension (mxnet backend).

``matmul``, ``tensordot``, ``vecdot``, ``matrix_transpose`` use MXNet's kernels
for floats; ``det`` and ``inv`` too (differentiable).
The rest is computed on the host through NumPy (exact, not differentiable):
MXNet's decompositions differ in conventions (``svd``'s shapes, ``qr`` modes,
``eigh``'s ``UPLO``) or lack batching.
"""

from __future__ import annotations

import mxnet as mx

from ..._api import names_in
from ..numpy import linalg as _ref
from ._core import host
from .elementwise import native_ok
from .main_linalg import matmul, matrix_transpose, tensordot, vecdot  # noqa: F401  (hd.linalg has them too)

__all__ = names_in("linalg", "linalg")  # the API table's hd.linalg rows

cholesky = host(_ref.cholesky, "linalg.cholesky")
cross = host(_ref.cross, "linalg.cross")
diagonal = host(_ref.diagonal, "linalg.diagonal")
eigh = host(_ref.eigh, "linalg.eigh")
_eigvalsh = host(_ref.eigvalsh, "linalg.eigvalsh")


def eigvalsh(x, /):
    return _eigvalsh(x)


matrix_norm = host(_ref.matrix_norm, "linalg.matrix_norm")
_matrix_power = host(_ref.matrix_power, "linalg.matrix_power")


def matrix_power(x, n, /):
    return _matrix_power(x, n)


matrix_rank = host(_ref.matrix_rank, "linalg.matrix_rank")
_outer = host(_ref.outer, "linalg.outer")


def outer(x1, x2, /):
    return _outer(x1, x2)


pinv = host(_ref.pinv, "linalg.pinv")
qr = host(_ref.qr, "linalg.qr")
slogdet = host(_ref.slogdet, "linalg.slogdet")
solve = host(_ref.solve, "linalg.solve")
svd = host(_ref.svd, "linalg.svd")
svdvals = host(_ref.svdvals, "linalg.svdvals")
trace = host(_ref.trace, "linalg.trace")
vector_norm = host(_ref.vector_norm, "linalg.vector_norm")
_det = host(_ref.det, "det")
_inv = host(_ref.inv, "inv")


def det(x, /):
    if native_ok(x):
        return mx.np.linalg.det(x)
    return _det(x)


def inv(x, /):
    if native_ok(x):
        return mx.np.linalg.inv(x)
    return _inv(x)
