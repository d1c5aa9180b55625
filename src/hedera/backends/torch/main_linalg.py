"""Linear algebra functions of the main namespace (torch backend)."""

from __future__ import annotations

import math

import torch

from ..._api import names_in
from ...errors import ShapeError
from .._common import native_common_case, normalize_axis
from ._core import promote_all

__all__ = names_in("linear_algebra")  # the API table's linear_algebra rows


_INEXACT = frozenset(
    {torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.complex64, torch.complex128}
)


#: the integer dtypes torch.matmul multiplies on the CPU; on a device without integer kernels
#: (CUDA) it raises for them, and the C front then calls the shim (native_common_case)
_CPU_INTEGER = (torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8)


@native_common_case(torch.matmul, 2, (*_INEXACT, *_CPU_INTEGER))
def matmul(x1, x2, /):
    # the common case first: one dtype, on the CPU or inexact (x1.is_cpu, not x1.device.type:
    # building a torch.device costs more than the product of small matrices)
    dt = x1.dtype
    if dt is x2.dtype and (dt in _INEXACT or x1.is_cpu):
        return torch.matmul(x1, x2)
    if dt is not x2.dtype:  # torch.matmul does not promote mixed dtypes
        x1, x2 = promote_all(x1, x2)
    if x1.is_cpu or x1.dtype in _INEXACT:
        return torch.matmul(x1, x2)
    return integer_matmul(x1, x2)


def integer_matmul(x1, x2):
    """Exact ``x1 @ x2`` for integer tensors, by broadcast multiply and sum.

    For devices without integer matrix-multiply kernels (CUDA has none for int8..int64);
    uses memory for the full ``(..., n, k, m)`` product.
    """
    a = x1[None, :] if x1.ndim == 1 else x1
    b = x2[:, None] if x2.ndim == 1 else x2
    if a.shape[-1] != b.shape[-2]:
        raise ShapeError(f"matmul: shapes {tuple(x1.shape)} and {tuple(x2.shape)} do not align")
    out = torch.sum(a[..., :, :, None] * b[..., None, :, :], dim=-2, dtype=x1.dtype)
    if x2.ndim == 1:
        out = out[..., 0]
    if x1.ndim == 1:
        out = out[..., 0] if x2.ndim == 1 else out[..., 0, :]
    return out


def matrix_transpose(x, /):
    if x.ndim < 2:
        raise ShapeError(f"matrix_transpose: x must have at least two dimensions, got shape {tuple(x.shape)}")
    return x.mT


_SEQUENCES = (tuple, list)


def tensordot(x1, x2, /, *, axes=2):
    # The common case, an inexact dtype and a pair of equally long sequences of ints:
    # torch.tensordot itself, once the contracted sizes are equal (torch would sum a size-1 axis
    # against any size). What fails here (an axis out of range, or repeated) takes the checked
    # path below, which raises its error.
    dt = x1.dtype
    if dt is x2.dtype and dt in _INEXACT and type(axes) in _SEQUENCES and len(axes) == 2:
        a1, a2 = axes
        if type(a1) in _SEQUENCES and type(a2) in _SEQUENCES and len(a1) == len(a2):
            shape1, shape2 = x1.shape, x2.shape
            try:
                for i, j in zip(a1, a2, strict=False):  # (equally long: checked above)
                    if type(i) is not int or type(j) is not int or shape1[i] != shape2[j]:
                        break
                else:
                    return torch.tensordot(x1, x2, dims=(a1, a2))
            except (IndexError, RuntimeError):
                pass
    # torch calls axes "dims", needs one dtype, and fails on integer tensors with
    # single-element contractions, so integers go through a float-free matmul
    if x1.dtype is not x2.dtype:
        x1, x2 = promote_all(x1, x2)
    if isinstance(axes, int):
        if axes < 0:
            raise ValueError("tensordot: axes must be a non-negative integer or a pair of sequences")
        a1 = list(range(x1.ndim - axes, x1.ndim))
        a2 = list(range(axes))
    else:
        a1, a2 = ([a] if isinstance(a, int) else list(a) for a in axes)
    a1 = [normalize_axis(a, x1.ndim, "axes") for a in a1]
    a2 = [normalize_axis(a, x2.ndim, "axes") for a in a2]
    if len(a1) != len(a2) or any(x1.shape[i] != x2.shape[j] for i, j in zip(a1, a2, strict=True)):
        raise ShapeError(
            f"tensordot: contracted axes {a1} of x1 (shape {tuple(x1.shape)}) and {a2} of x2 "
            f"(shape {tuple(x2.shape)}) do not match"
        )
    free1 = [i for i in range(x1.ndim) if i not in a1]
    free2 = [j for j in range(x2.ndim) if j not in a2]
    shape1 = [x1.shape[i] for i in free1]
    shape2 = [x2.shape[j] for j in free2]
    k = math.prod(x1.shape[i] for i in a1)
    left = torch.permute(x1, free1 + a1).reshape(math.prod(shape1), k)
    right = torch.permute(x2, a2 + free2).reshape(k, math.prod(shape2))
    return matmul(left, right).reshape(shape1 + shape2)


# (torch broadcasts a contracted axis of size 1: the C front calls torch for equal shapes alone)
@native_common_case(torch.linalg.vecdot, 2, tuple(_INEXACT), same_shape=True)
def vecdot(x1, x2, /, *, axis=-1):
    dt = x1.dtype
    if dt is x2.dtype and dt in _INEXACT and x1.shape[axis] == x2.shape[axis]:  # the common case
        # (without dim= where it is torch's default: each keyword costs torch's parser ~100 ns)
        return torch.linalg.vecdot(x1, x2) if axis == -1 else torch.linalg.vecdot(x1, x2, dim=axis)
    if x1.dtype is not x2.dtype:
        x1, x2 = promote_all(x1, x2)
    if x1.shape[axis] != x2.shape[axis]:  # torch would broadcast along the contracted axis
        raise ShapeError(
            f"vecdot: x1 (shape {tuple(x1.shape)}) and x2 (shape {tuple(x2.shape)}) must have the same "
            f"size along axis {axis}"
        )
    if x1.dtype.is_floating_point or x1.dtype.is_complex:
        return torch.linalg.vecdot(x1, x2, dim=axis)
    return torch.sum(x1 * x2, dim=axis, dtype=x1.dtype)  # torch.linalg.vecdot has no integer kernel
