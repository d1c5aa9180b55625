"""Set functions (torch backend). NaNs are distinct values, as the standard says (torch agrees)."""

from __future__ import annotations

import torch

from ..._api import names_in
from .._common import UniqueAllResult, UniqueCountsResult, UniqueInverseResult, native_common_case
from ._core import TORCH_DTYPES, promote_all

_NOT_COMPLEX = tuple(d for d in TORCH_DTYPES.values() if not d.is_complex)

__all__ = names_in("set")  # the API table's set rows


@native_common_case(torch.isin, 2, _NOT_COMPLEX, forwarded=("invert",))
def isin(x1, x2, /, *, invert=False):
    if not isinstance(x1, torch.Tensor) or not isinstance(x2, torch.Tensor) or x1.dtype is not x2.dtype:
        x1, x2 = promote_all(x1, x2)
    if x1.dtype.is_complex:  # torch.isin has no complex kernel
        found = torch.any(torch.reshape(x1, (*x1.shape, 1)) == torch.reshape(x2, (-1,)), dim=-1)
        return ~found if invert else found
    return torch.isin(x1, x2, invert=invert)


def _unique(x):
    """``(values, inverse, counts)`` of flattened ``x``, values sorted, NaNs distinct."""
    flat = torch.reshape(x, (-1,))
    if not flat.dtype.is_complex:
        return torch.unique(flat, return_inverse=True, return_counts=True)
    # torch.unique has no complex kernel: sort by (real, imag) and split where neighbours differ
    n = flat.shape[0]
    order = torch.argsort(flat.imag, stable=True)
    order = order[torch.argsort(flat.real[order], stable=True)]
    ordered = flat[order]
    starts = torch.ones(n, dtype=torch.bool, device=x.device)
    starts[1:] = ordered[1:] != ordered[:-1]  # NaN != NaN: each NaN starts its own group
    group = torch.cumsum(starts, 0) - 1
    inverse = torch.empty(n, dtype=torch.int64, device=x.device).scatter(0, order, group)
    counts = torch.zeros(int(starts.sum()), dtype=torch.int64, device=x.device)
    counts = counts.scatter_add(0, group, torch.ones_like(group))
    return ordered[starts], inverse, counts


def unique_all(x, /):
    # torch.unique has no first-occurrence indices: take the least position of each value
    values, inverse, counts = _unique(x)
    n = inverse.shape[0]
    positions = torch.arange(n, device=x.device)
    indices = torch.full(values.shape, n, dtype=torch.int64, device=x.device)
    indices = indices.scatter_reduce(0, inverse, positions, "amin")
    return UniqueAllResult(values, indices, torch.reshape(inverse, x.shape), counts)


def unique_counts(x, /):
    if x.dtype.is_complex:
        values, _, counts = _unique(x)
        return UniqueCountsResult(values, counts)
    return UniqueCountsResult(*torch.unique(x, return_counts=True))


def unique_inverse(x, /):
    if x.dtype.is_complex:
        values, inverse, _ = _unique(x)
    else:
        values, inverse = torch.unique(x, return_inverse=True)
    return UniqueInverseResult(values, torch.reshape(inverse, x.shape))


def unique_values(x, /):
    return _unique(x)[0] if x.dtype.is_complex else torch.unique(x)
