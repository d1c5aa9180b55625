"""Manipulation functions (torch backend)."""

from __future__ import annotations

import torch

from ..._api import names_in
from ...errors import InvalidArgumentError, ShapeError
from .._common import (
    check_integer_indices,
    native_common_case,
    normalize_axes,
    normalize_axis,
    repeat_axis_of_0d,
)

__all__ = names_in("manipulation")  # the API table's manipulation rows

moveaxis = torch.moveaxis
tile = torch.tile


def broadcast_arrays(*arrays):
    return tuple(torch.broadcast_tensors(*arrays))


def broadcast_to(x, /, shape):
    return torch.broadcast_to(x, shape)


@native_common_case(torch.cat, 1)
def concat(arrays, /, *, axis=0):
    if axis is None:  # torch.cat has no axis=None
        try:  # along axis 0, where torch can: the flat operands' elements in their order
            out = torch.cat(arrays)
        except RuntimeError:  # (0-d operands, other trailing shapes: flattened first)
            return torch.cat([a if a.ndim == 1 else torch.reshape(a, (-1,)) for a in arrays])
        return out if out.ndim == 1 else torch.reshape(out, (-1,))
    return torch.cat(arrays, axis)


def expand_dims(x, /, axis):
    if isinstance(axis, int):
        return torch.unsqueeze(x, axis)
    # a tuple of axes, each an index into the result
    ndim = x.ndim + len(axis)
    axes = normalize_axes(axis, ndim)
    sizes = iter(x.shape)
    return torch.reshape(x, [1 if i in axes else next(sizes) for i in range(ndim)])


def flip(x, /, *, axis=None):
    if axis is None:
        axis = tuple(range(x.ndim))
    elif isinstance(axis, int):
        axis = (axis,)
    return torch.flip(x, axis)


def permute_dims(x, /, axes):
    return torch.permute(x, axes)


def repeat(x, repeats, /, *, axis=None):
    check_integer_indices("repeat", "repeats", repeats)  # .to(int64) would truncate floats
    # torch rejects short integer repeats tensors
    if isinstance(repeats, torch.Tensor) and repeats.dtype is not torch.int64:
        repeats = repeats.to(torch.int64)
    if axis is not None and x.ndim == 0:
        axis = repeat_axis_of_0d(axis)
    return torch.repeat_interleave(x, repeats, axis)


def reshape(x, /, shape, *, copy=None):
    if copy is True:
        return torch.reshape(x, shape).clone()
    if copy is False:
        try:
            return x.view(shape)
        except RuntimeError as e:
            raise InvalidArgumentError(f"copy=False: this reshape needs a copy ({e})") from e
    return torch.reshape(x, shape)


def roll(x, /, shift, *, axis=None):
    if axis is None:
        return torch.roll(x, shift)
    if isinstance(shift, int) and not isinstance(axis, int):  # one shift for several axes
        shift = (shift,) * len(axis)
    return torch.roll(x, shift, axis)


def squeeze(x, /, axis):
    # torch silently keeps axes whose size is not 1; the standard raises
    if type(axis) is int:  # the common case: one axis, checked without normalize_axes
        shape = x.shape
        if -len(shape) <= axis < len(shape) and shape[axis] == 1:
            return torch.squeeze(x, axis)
    axes = normalize_axes(axis, x.ndim)
    for a in axes:
        if x.shape[a] != 1:
            raise ShapeError(f"squeeze: axis {a} has size {x.shape[a]}, not 1 (x has shape {tuple(x.shape)})")
    return torch.squeeze(x, axes) if axes else x


@native_common_case(torch.stack, 1)
def stack(arrays, /, *, axis=0):
    return torch.stack(arrays, axis)


def unstack(x, /, *, axis=0):
    normalize_axis(axis, x.ndim)
    return torch.unbind(x, axis)
