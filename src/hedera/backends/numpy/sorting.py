"""Sorting functions (numpy backend)."""

from __future__ import annotations

import numpy as np

__all__ = ["argsort", "sort"]


def argsort(x, /, *, axis=-1, descending=False, stable=True):
    kind = "stable" if stable else None
    if not descending:
        return np.argsort(x, axis=axis, kind=kind)
    # a stable descending sort keeps equal elements in their original order: sort the
    # reversed array ascending, then map indices back and reverse
    n = np.shape(x)[axis]
    return np.flip(n - 1 - np.argsort(np.flip(x, axis=axis), axis=axis, kind=kind), axis=axis)


def sort(x, /, *, axis=-1, descending=False, stable=True):
    out = np.sort(x, axis=axis, kind="stable" if stable else None)
    return np.flip(out, axis=axis) if descending else out
