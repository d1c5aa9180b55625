"""Searching functions (torch backend)."""

from __future__ import annotations

import torch

from ..._api import names_in
from ...errors import InvalidArgumentError, ShapeError
from .._common import check_integer_indices, native_common_case, normalize_axes
from ._core import TORCH_DTYPES, promote, promote_all, to_tensor_like

__all__ = names_in("searching")  # the API table's searching rows


@native_common_case(torch.argmax, 1)
def argmax(x, /, *, axis=None, keepdims=False):
    return torch.argmax(x, axis, keepdims)


@native_common_case(torch.argmin, 1)
def argmin(x, /, *, axis=None, keepdims=False):
    return torch.argmin(x, axis, keepdims)


@native_common_case(torch.count_nonzero, 1)
def count_nonzero(x, /, *, axis=None, keepdims=False):
    if axis is None and not keepdims:
        return torch.count_nonzero(x)  # every element: no dims to name (naming them all costs ~2 us)
    # torch.count_nonzero has no keepdims
    axes = normalize_axes(axis, x.ndim)
    if not axes:
        return (x != 0).to(torch.int64)
    out = torch.count_nonzero(x, dim=axes)
    if keepdims:
        out = torch.reshape(out, [1 if i in axes else n for i, n in enumerate(x.shape)])
    return out


def nonzero(x, /):
    if x.ndim == 0:
        raise ShapeError("nonzero: x must have at least one dimension (the standard disallows 0-d input)")
    return torch.nonzero(x, as_tuple=True)


@native_common_case(torch.searchsorted, 2, tuple(TORCH_DTYPES.values()), forwarded=("side",))
def searchsorted(x1, x2, /, *, side="left", sorter=None):
    if sorter is None and x2.__class__ is torch.Tensor and x1.dtype is x2.dtype:
        # the common case, without the keywords at torch's defaults (~0.3 us each to parse) and the
        # checks of a side, an x2 and a sorter that need none
        if side == "left":
            return torch.searchsorted(x1, x2)
        if side == "right":
            return torch.searchsorted(x1, x2, side=side)
    if side not in ("left", "right"):
        raise InvalidArgumentError(f"side: expected 'left' or 'right', got {side!r}")
    if not isinstance(x2, torch.Tensor):
        x2 = to_tensor_like(x2, x1)
    if x1.dtype is not x2.dtype:
        x1, x2 = promote_all(x1, x2)
    check_integer_indices("searchsorted", "sorter", sorter)
    if sorter is not None and sorter.dtype is not torch.int64:
        sorter = sorter.to(torch.int64)
    return torch.searchsorted(x1, x2, side=side, sorter=sorter)


@native_common_case(torch.where, 3, tuple(TORCH_DTYPES.values()), leading=(torch.bool,))
def where(condition, x1, x2, /):
    # a 0-d operand of another dtype would lose in torch's promotion, and torch wants a bool condition
    if condition.dtype is not torch.bool:
        condition = condition.to(torch.bool)
    if type(x2) is float and isinstance(x1, torch.Tensor) and x1.dtype.is_floating_point:
        return torch.where(condition, x1, x2)  # torch gives x1's dtype, as the standard does
    try:
        if x1.dtype is x2.dtype:
            return torch.where(condition, x1, x2)
    except AttributeError:
        pass
    return torch.where(condition, *promote(x1, x2))
