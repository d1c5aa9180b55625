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
        if (
            x.__class__ is np.ndarray
            and x.ndim == 1
            and n.__class__ is int
            and n == 1
            and axis.__class__ is int
            and (axis == -1 or axis == 0)
        ):
            # np.diff's one step on a vector (its op: not_equal for bools, else subtract), without its
            # ~1.2 us of Python (axis normalisation, slice tuples, the prepend/append handling)
            return (np.not_equal if x.dtype.kind == "b" else np.subtract)(x[1:], x[:-1])
        return np.diff(x, n, axis)
    # numpy treats prepend=None as a value to prepend, so pass only what was given
    extra = {k: v for k, v in (("prepend", prepend), ("append", append)) if v is not None}
    return np.diff(x, n=n, axis=axis, **extra)
