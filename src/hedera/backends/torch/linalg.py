"""The ``linalg`` extension (torch backend): ``torch.linalg`` where it conforms."""

from __future__ import annotations

import torch

from ..._api import names_in
from ...errors import ShapeError
from .._common import EighResult, QRResult, SlogdetResult, SVDResult, native_common_case, normalize_axes
from ._core import TORCH_DTYPES, native_dtype, promote_all
from .main_linalg import matmul, matrix_transpose, tensordot, vecdot  # noqa: F401  (hd.linalg has them too)
from .statistical import sum as _sum

__all__ = names_in("linalg", "linalg")  # the API table's hd.linalg rows

det = torch.linalg.det
eigvalsh = torch.linalg.eigvalsh
inv = torch.linalg.inv
matrix_power = torch.linalg.matrix_power
svdvals = torch.linalg.svdvals

#: a result tuple (QRResult, SVDResult) of a torch result's fields: tuple.__new__ without the
#: namedtuple's Python __new__
_new = tuple.__new__


@native_common_case(torch.linalg.cholesky, 1, forwarded=("upper",))  # (upper=False, its default: unparsed)
def cholesky(x, /, *, upper=False):
    return torch.linalg.cholesky(x) if upper is False else torch.linalg.cholesky(x, upper=upper)


@native_common_case(torch.linalg.cross, 2, tuple(TORCH_DTYPES.values()))
def cross(x1, x2, /, *, axis=-1):
    # torch.linalg.cross does not broadcast to new dimensions and wants one dtype; where it takes the
    # operands (one dtype: the common case) its answer is the standard's, broadcasting included, and it
    # raises on shapes it does not broadcast or an axis of another size than 3 (then the code below
    # broadcasts or raises; the C front's native common case, torch.linalg.cross itself, falls back to
    # this shim where torch raises). (No shape test first: reading two torch shapes costs ~150 ns.)
    same = type(x1) is torch.Tensor and type(x2) is torch.Tensor and x1.dtype is x2.dtype
    if same:
        try:  # (without dim= where it is torch's default: each keyword costs torch's parser ~100 ns)
            return torch.linalg.cross(x1, x2) if axis == -1 else torch.linalg.cross(x1, x2, dim=axis)
        except RuntimeError:
            pass
    if not isinstance(x1, torch.Tensor) or not isinstance(x2, torch.Tensor) or x1.dtype is not x2.dtype:
        x1, x2 = promote_all(x1, x2)
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ShapeError(
            f"cross: axis {axis} must have size 3 in x1 (shape {tuple(x1.shape)}) "
            f"and x2 (shape {tuple(x2.shape)})"
        )
    x1, x2 = torch.broadcast_tensors(x1, x2)
    return torch.linalg.cross(x1, x2, dim=axis)


@native_common_case(torch.linalg.diagonal, 1)
def diagonal(x, /, *, offset=0):
    return torch.diagonal(x, offset, -2, -1)


def eigh(x, /):
    return _new(EighResult, torch.linalg.eigh(x))


@native_common_case(torch.linalg.matrix_norm, 1)
def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    if keepdims is False and type(ord) is str and ord == "fro":  # torch's defaults: its parser's fast path
        return torch.linalg.matrix_norm(x)
    return torch.linalg.matrix_norm(x, ord, (-2, -1), keepdims)  # (positional: ~100 ns less per keyword)


def matrix_rank(x, /, *, rtol=None):
    if rtol is not None and not isinstance(rtol, torch.Tensor):
        rtol = float(rtol)
    return torch.linalg.matrix_rank(x, rtol=rtol)


def outer(x1, x2, /):
    if x1.dtype is not x2.dtype:
        x1, x2 = promote_all(x1, x2)
    return torch.outer(x1, x2)


def pinv(x, /, *, rtol=None):
    if rtol is not None and not isinstance(rtol, torch.Tensor):
        rtol = float(rtol)
    return torch.linalg.pinv(x, rtol=rtol)


def qr(x, /, *, mode="reduced"):
    # (torch's default mode unparsed, and the result's fields taken as they are: QRResult(*out) runs
    # the namedtuple's Python __new__)
    return _new(QRResult, torch.linalg.qr(x) if mode == "reduced" else torch.linalg.qr(x, mode))


def slogdet(x, /):
    return SlogdetResult(*torch.linalg.slogdet(x))


# (torch.linalg.solve itself for two tensors of one dtype and shape: a stack of matrices x2, which it
# reads as the standard does; where they are vectors, torch raises and this shim answers)
@native_common_case(torch.linalg.solve, 2, tuple(TORCH_DTYPES.values()), same_shape=True)
def solve(x1, x2, /):
    # the standard treats a 1-d x2 as a vector and anything else as a stack of matrices;
    # torch also reads x2 of shape x1.shape[:-1] as a stack of vectors
    if x1.dtype is not x2.dtype:
        x1, x2 = promote_all(x1, x2)
    if x2.ndim == 1:  # a vector, for every matrix of the stack: give it x1's rank so torch cannot misread it
        return torch.linalg.solve(x1, torch.broadcast_to(x2, x1.shape[:-1])[..., None])[..., 0]
    if x1.ndim - 1 == x2.ndim and x1.shape[:-1] == x2.shape:
        return torch.linalg.solve(x1, x2[None])
    return torch.linalg.solve(x1, x2)


def svd(x, /, *, full_matrices=True):
    # (as qr: torch's default unparsed, the fields taken as they are)
    return _new(
        SVDResult, torch.linalg.svd(x) if full_matrices is True else torch.linalg.svd(x, full_matrices)
    )


def trace(x, /, *, offset=0, dtype=None):
    # torch.trace takes only matrices and has no offset
    return _sum(torch.diagonal(x, offset, -2, -1), axis=-1, dtype=native_dtype(dtype))


@native_common_case(torch.linalg.vector_norm, 1)
def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    if axis == ():  # torch reads dim=() as every axis; the norm of one element is |x| (x != 0 for ord=0)
        out = torch.abs(x)
        return (x != 0).to(out.dtype) if ord == 0 else out
    if isinstance(axis, tuple):
        normalize_axes(axis, x.ndim)  # torch accepts repeated axes
    return torch.linalg.vector_norm(x, ord, axis, keepdims)  # (positional: ~100 ns less per keyword)
