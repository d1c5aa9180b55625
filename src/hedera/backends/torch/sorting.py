"""Sorting functions (torch backend). Stable sorts keep equal elements in their order, descending too."""

from __future__ import annotations

import torch

from ..._api import names_in

__all__ = names_in("sorting")  # the API table's sorting rows


def argsort(x, /, *, axis=-1, descending=False, stable=True):
    # torch sorts unstably unless asked
    return torch.argsort(x, dim=axis, descending=descending, stable=stable)


def sort(x, /, *, axis=-1, descending=False, stable=True):
    return torch.sort(x, dim=axis, descending=descending, stable=stable).values
