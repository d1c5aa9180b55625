"""Manipulation functions (numpy backend)."""

from __future__ import annotations

import numpy as np

from ..._api import names_in
from ..._diagnose import check_kinds
from ...errors import InvalidArgumentError
from .._common import check_integer_indices, exact_axes, native_common_case, repeat_axis_of_0d

__all__ = names_in("manipulation")  # the API table's manipulation rows

broadcast_to = np.broadcast_to
moveaxis = np.moveaxis


def broadcast_arrays(*arrays):
    return tuple(np.broadcast_arrays(*arrays))


@native_common_case(np.concatenate, 1, forwarded=("axis",))
def concat(arrays, /, *, axis=0):
    return np.concatenate(arrays, axis=axis)


@native_common_case(np.expand_dims, 1, forwarded=("axis",))
def expand_dims(x, /, axis):
    return np.expand_dims(x, axis)


@native_common_case(np.flip, 1, forwarded=("axis",))
def flip(x, /, *, axis=None):
    return np.flip(x, axis=axis)


@native_common_case(np.transpose, 1, forwarded=("axes",))
def permute_dims(x, /, axes):
    return np.transpose(x, axes)


def repeat(x, repeats, /, *, axis=None):
    if repeats.__class__ is not np.ndarray or repeats.dtype.kind not in "iu":
        check_integer_indices("repeat", "repeats", repeats)  # numpy casts booleans
    if axis is not None and np.ndim(x) == 0:
        axis = repeat_axis_of_0d(axis)
    if x.__class__ is np.ndarray:  # (np.repeat calls this method, after ~0.5 us of Python)
        return x.repeat(repeats, axis)
    return np.repeat(x, repeats, axis=axis)


def reshape(x, /, shape, *, copy=None):
    if copy is True:
        return np.reshape(x, shape).copy()
    out = np.reshape(x, shape)
    if copy is False and not np.shares_memory(out, x) and out.size:
        raise InvalidArgumentError("copy=False: this reshape needs a copy")
    return out


def roll(x, /, shift, *, axis=None):
    if not exact_axes(shift) or (axis is not None and not exact_axes(axis)):
        check_kinds("roll", {"shift": shift, "axis": axis})  # np.roll takes a float or an array shift
    return np.roll(x, shift, axis=axis)


@native_common_case(np.squeeze, 1, forwarded=("axis",))
def squeeze(x, /, axis):
    return np.squeeze(x, axis=axis)


def stack(arrays, /, *, axis=0):
    return np.stack(arrays, axis=axis)


def tile(x, repetitions, /):
    return np.tile(x, repetitions)


def unstack(x, /, *, axis=0):
    return tuple(np.moveaxis(x, axis, 0))
