"""Sorting functions (torch backend). Stable sorts keep equal elements in their order, descending too."""

from __future__ import annotations

import torch

from ..._api import names_in

__all__ = names_in("sorting")  # the API table's sorting rows


def argsort(x, /, *, axis=-1, descending=False, stable=True):
    # torch sorts unstably unless asked
    return torch.argsort(x, dim=axis, descending=descending, stable=stable)


def sort(x, /, *, axis=-1, descending=False, stable=True):
    if not stable or not (x.dtype.is_floating_point or x.dtype.is_complex):
        # equal integers (booleans) are the same value: any order of them is the stable one, and
        # torch's default sort is faster (floating: +0.0 and -0.0 are equal yet distinct, so stable);
        # torch.sort(x, dim, descending) is its stable=False, positional (a keyword: ~0.1-0.3 us)
        return torch.sort(x, axis, descending).values
    return torch.sort(x, dim=axis, descending=descending, stable=stable).values
