"""The ``linalg`` extension (numpy backend)."""

from __future__ import annotations

import numpy as np

from ..._api import names_in
from ...errors import ShapeError
from .._common import EighResult, QRResult, SlogdetResult, SVDResult, native_common_case, normalize_axes
from ._core import native_dtype
from .main_linalg import matmul, matrix_transpose, tensordot, vecdot  # noqa: F401  (hd.linalg has them too)

__all__ = names_in("linalg", "linalg")  # the API table's hd.linalg rows

det = np.linalg.det
eigvalsh = np.linalg.eigvalsh
inv = np.linalg.inv
matrix_power = np.linalg.matrix_power
outer = np.outer

#: a result tuple (EighResult, QRResult, ...) of NumPy's result's fields: tuple.__new__ without the
#: namedtuple's Python __new__ (Result(*out): ~0.1 us more)
_new = tuple.__new__


def cholesky(x, /, *, upper=False):
    lower = np.linalg.cholesky(x)
    return np.conj(np.swapaxes(lower, -1, -2)) if upper else lower


def cross(x1, x2, /, *, axis=-1):
    # np.cross also takes 2-element vectors (giving a scalar z); the standard: size 3 only
    if np.shape(x1)[axis] != 3 or np.shape(x2)[axis] != 3:
        raise ShapeError(
            f"linalg.cross: axis {axis} of x1 (shape {np.shape(x1)}) and x2 (shape {np.shape(x2)}) "
            "must have size 3"
        )
    return np.cross(x1, x2, axis=axis)


def diagonal(x, /, *, offset=0):
    return np.diagonal(x, offset=offset, axis1=-2, axis2=-1)


def eigh(x, /):
    return _new(EighResult, np.linalg.eigh(x))


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    return np.linalg.norm(x, ord=ord, axis=(-2, -1), keepdims=keepdims)


def _default_rtol(x):
    return max(np.shape(x)[-2:]) * np.finfo(x.dtype).eps


def matrix_rank(x, /, *, rtol=None):
    s = np.linalg.svd(x, compute_uv=False)
    rtol = _default_rtol(x) if rtol is None else np.asarray(rtol)[..., None]
    # (the methods: np.max and np.count_nonzero(axis=) are Python wrappers around them, ~1.5 us each)
    tol = s.max(axis=-1, keepdims=True, initial=0.0) * rtol
    return (s > tol).sum(axis=-1, dtype=np.intp)


#: NumPy >= 2's pinv takes rtol=, whose None is the standard's default (max(M, N) * eps), computed
#: inside from the array it has already made (np.shape and np.finfo here: ~0.5 us more)
_PINV_RTOL = np.lib.NumpyVersion(np.__version__) >= "2.0.0"


def pinv(x, /, *, rtol=None):
    if _PINV_RTOL:
        return np.linalg.pinv(x, rtol=rtol)
    return np.linalg.pinv(x, rcond=_default_rtol(x) if rtol is None else rtol)


if _PINV_RTOL:  # (NumPy >= 2 takes the standard's rtol: the C front calls np.linalg.pinv itself)
    pinv = native_common_case(np.linalg.pinv, 1, forwarded=("rtol",))(pinv)


def qr(x, /, *, mode="reduced"):
    return _new(QRResult, np.linalg.qr(x, mode=mode))


def slogdet(x, /):
    return _new(SlogdetResult, np.linalg.slogdet(x))


#: NumPy >= 2 reads x2 as the standard does: a vector only where it is 1-d (numpy < 2: also where
#: it has one dimension less than x1), the batch axes broadcast
_SOLVE_CONFORMS = np.lib.NumpyVersion(np.__version__) >= "2.0.0"


def solve(x1, x2, /):
    if _SOLVE_CONFORMS:
        return np.linalg.solve(x1, x2)
    # the standard treats a 1-d x2 as a vector, and otherwise as a stack of matrices; the batch
    # axes are broadcast here because numpy < 2 reads an x2 of one dimension less than x1 as vectors
    x1, x2 = np.asarray(x1), np.asarray(x2)
    vector = x2.ndim == 1
    b = x2[:, None] if vector else x2
    batch = np.broadcast_shapes(x1.shape[:-2], b.shape[:-2])
    out = np.linalg.solve(
        np.broadcast_to(x1, batch + x1.shape[-2:]), np.broadcast_to(b, batch + b.shape[-2:])
    )
    return out[..., 0] if vector else out


def svd(x, /, *, full_matrices=True):
    return _new(SVDResult, np.linalg.svd(x, full_matrices=full_matrices))


def svdvals(x, /):
    return np.linalg.svd(x, compute_uv=False)


def trace(x, /, *, offset=0, dtype=None):
    return np.asarray(np.trace(x, offset=offset, axis1=-2, axis2=-1, dtype=native_dtype(dtype)))


_vector_norm = getattr(np.linalg, "vector_norm", None)  # numpy >= 2


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    if _vector_norm is not None and type(x) is np.ndarray and x.dtype.kind in "fc" and type(axis) is not list:
        # (an int or tuple axis out of range or repeated raises as from the path below: normalize_axes)
        if axis is None or (type(axis) is int and -x.ndim <= axis < x.ndim):
            return _vector_norm(x, axis=axis, keepdims=keepdims, ord=ord)
    axes = normalize_axes(axis, np.ndim(x))
    a = np.abs(x)
    if ord == np.inf:
        out = np.max(a, axis=axes, keepdims=keepdims)
    elif ord == -np.inf:
        out = np.min(a, axis=axes, keepdims=keepdims)
    elif ord == 0:
        out = np.sum(a != 0, axis=axes, keepdims=keepdims).astype(a.dtype)
    else:
        out = np.sum(a**ord, axis=axes, keepdims=keepdims) ** (1.0 / ord)
    return np.asarray(out, dtype=a.dtype)
