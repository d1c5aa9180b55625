"""Utility functions (numpy backend)."""

from __future__ import annotations

import numpy as np

from ..._api import names_in
from .._common import native_common_case

__all__ = names_in("utility")  # the API table's utility rows


@native_common_case(np.all, 1, forwarded=("axis", "keepdims"))
def all(x, /, *, axis=None, keepdims=False):
    return np.all(x, axis=axis, keepdims=keepdims)


@native_common_case(np.any, 1, forwarded=("axis", "keepdims"))
def any(x, /, *, axis=None, keepdims=False):
    return np.any(x, axis=axis, keepdims=keepdims)


@native_common_case(np.diff, 1, forwarded=("axis", "n"))
def diff(x, /, *, axis=-1, n=1, prepend=None, append=None):
    if prepend is None and append is None:
        return np.diff(x, n, axis)
    # numpy treats prepend=None as a value to prepend, so pass only what was given
    extra = {k: v for k, v in (("prepend", prepend), ("append", append)) if v is not None}
    return np.diff(x, n=n, axis=axis, **extra)
