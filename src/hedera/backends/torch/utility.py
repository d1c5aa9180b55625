"""Utility functions (torch backend)."""

from __future__ import annotations

import torch

from ..._api import names_in
from .._common import native_common_case
from ._core import TORCH_DTYPES, to_tensor_like

#: torch.all and torch.any give bool for these (uint8 for uint8)
_NOT_UINT8 = tuple(d for d in TORCH_DTYPES.values() if d is not torch.uint8)

__all__ = names_in("utility")  # the API table's utility rows


@native_common_case(torch.all, 1, _NOT_UINT8)
def all(x, /, *, axis=None, keepdims=False):
    # torch reduces everything for dim=(), and keeps uint8 as the result dtype
    if axis == ():
        return x.to(torch.bool, copy=True)
    out = torch.all(x) if axis is None and not keepdims else torch.all(x, axis, keepdims)
    return out if out.dtype is torch.bool else out.to(torch.bool)  # (.to costs ~0.7 us even as a no-op)


@native_common_case(torch.any, 1, _NOT_UINT8)
def any(x, /, *, axis=None, keepdims=False):
    if axis == ():
        return x.to(torch.bool, copy=True)
    out = torch.any(x) if axis is None and not keepdims else torch.any(x, axis, keepdims)
    return out if out.dtype is torch.bool else out.to(torch.bool)  # (.to costs ~0.7 us even as a no-op)


def diff(x, /, *, axis=-1, n=1, prepend=None, append=None):
    if prepend is None and append is None:  # the common case: positional (torch parses a keyword ~0.2 us)
        return x.clone() if n == 0 else torch.diff(x, n, axis)
    # torch.diff wants prepend/append of x's rank and dtype; the standard broadcasts them
    if prepend is not None:
        prepend = _edge(x, prepend, axis)
    if append is not None:
        append = _edge(x, append, axis)
    if n == 0:  # as NumPy: the input as it is, without prepend/append
        return x.clone()
    return torch.diff(x, n=n, dim=axis, prepend=prepend, append=append)


def _edge(x, value, axis):
    if not isinstance(value, torch.Tensor):
        value = to_tensor_like(value, x)
    if value.ndim != x.ndim:
        shape = list(x.shape)
        shape[axis] = 1
        value = torch.broadcast_to(value, shape)
    return value
