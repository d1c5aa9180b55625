"""Set functions (torch backend). NaNs are distinct values, as the standard says (torch agrees)."""

from __future__ import annotations

import torch

from .._common import UniqueAllResult, UniqueCountsResult, UniqueInverseResult
from ._core import promote_all

__all__ = ["isin", "unique_all", "unique_counts", "unique_inverse", "unique_values"]


def isin(x1, x2, /, *, invert=False):
    if not isinstance(x1, torch.Tensor) or not isinstance(x2, torch.Tensor) or x1.dtype is not x2.dtype:
        x1, x2 = promote_all(x1, x2)
    return torch.isin(x1, x2, invert=invert)


def unique_all(x, /):
    # torch.unique has no first-occurrence indices: take the least position of each value
    flat = torch.reshape(x, (-1,))
    values, inverse, counts = torch.unique(flat, return_inverse=True, return_counts=True)
    n = flat.shape[0]
    positions = torch.arange(n, device=x.device)
    indices = torch.full(values.shape, n, dtype=torch.int64, device=x.device)
    indices = indices.scatter_reduce(0, inverse, positions, "amin")
    return UniqueAllResult(values, indices, torch.reshape(inverse, x.shape), counts)


def unique_counts(x, /):
    return UniqueCountsResult(*torch.unique(x, return_counts=True))


def unique_inverse(x, /):
    values, inverse = torch.unique(x, return_inverse=True)
    return UniqueInverseResult(values, torch.reshape(inverse, x.shape))


def unique_values(x, /):
    return torch.unique(x)
