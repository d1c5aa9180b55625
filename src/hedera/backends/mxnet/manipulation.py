"""Manipulation functions (mxnet backend): MXNet's own; ``concat``/``stack`` promote as the standard does."""

from __future__ import annotations

import mxnet as mx

from ... import dtypes as _hd
from ..._api import names_in
from ...errors import InvalidArgumentError
from .._common import repeat_axis_of_0d
from ..numpy import manipulation as _ref
from ._core import host
from .data_type import result_type
from .elementwise import MAX_NDIM, axes, native_ok

__all__ = names_in("manipulation")  # the API table's manipulation rows

_mnp = mx.np


def _native(x):
    """Whether MXNet's kernel may run (``elementwise.native_ok``)."""
    return native_ok(x)


_broadcast_arrays = host(_ref.broadcast_arrays, "broadcast_arrays")


def broadcast_arrays(*arrays):
    if arrays and all(_native(a) for a in arrays):
        return tuple(_mnp.broadcast_arrays(*arrays))
    return tuple(_broadcast_arrays(*arrays))


_broadcast_to = host(_ref.broadcast_to, "broadcast_to")


def broadcast_to(x, /, shape):
    if _native(x) and len(shape) <= MAX_NDIM:
        return _mnp.broadcast_to(x, tuple(shape))
    return _broadcast_to(x, tuple(shape))


def _same_dtype(arrays):
    arrays = list(arrays)
    dt = result_type(*arrays)  # MXNet refuses mixed dtypes; the standard promotes
    if not isinstance(dt, type):
        raise _hd.unsupported("mxnet", dt)
    return [a if a.dtype == dt else a.astype(dt) for a in arrays]


_concat = host(_ref.concat, "concat")


def concat(arrays, /, *, axis=0):
    arrays = _same_dtype(arrays)
    if not all(_native(a) for a in arrays):
        return _concat(arrays, axis=axis)
    if axis is None:
        return _mnp.concatenate([a.reshape(-1) for a in arrays], axis=0)
    return _mnp.concatenate(arrays, axis=axes(axis, arrays[0].ndim))


_expand_dims = host(_ref.expand_dims, "expand_dims")


def expand_dims(x, /, axis):
    if _native(x) and x.ndim < MAX_NDIM:
        return _mnp.expand_dims(x, axes(axis, x.ndim + 1))
    return _expand_dims(x, axis)


_flip = host(_ref.flip, "flip")


def flip(x, /, *, axis=None):
    if _native(x) and x.ndim:
        return _mnp.flip(x, axis=axes(axis, x.ndim))
    return _flip(x, axis=axis)


_moveaxis = host(_ref.moveaxis, "moveaxis")


def moveaxis(x, source, destination, /):
    if _native(x):
        return _mnp.moveaxis(x, axes(source, x.ndim, "source"), axes(destination, x.ndim, "destination"))
    return _moveaxis(x, source, destination)


_permute_dims = host(_ref.permute_dims, "permute_dims")


def permute_dims(x, /, axes):
    if _native(x):
        return _mnp.transpose(x, tuple(axes))
    return _permute_dims(x, tuple(axes))


_repeat = host(_ref.repeat, "repeat")


def repeat(x, repeats, /, *, axis=None):
    if axis is not None and x.ndim == 0:
        axis = repeat_axis_of_0d(axis)
    if _native(x) and isinstance(repeats, int) and repeats > 0:  # (MXNet drops axes for 0)
        return _mnp.repeat(x.reshape(-1) if axis is None else x, repeats, axis=0 if axis is None else axis)
    return _repeat(x, repeats, axis=axis)  # per-element repeats: MXNet has no such kernel


_reshape = host(_ref.reshape, "reshape")


def reshape(x, /, shape, *, copy=None):
    if copy is False:
        raise InvalidArgumentError("copy=False: MXNet's reshape may copy; it cannot promise a view")
    if _native(x) and len(shape) <= MAX_NDIM:
        out = _mnp.reshape(x, tuple(shape))
        return out.copy() if copy else out
    return _reshape(x, tuple(shape), copy=copy)


_roll = host(_ref.roll, "roll")


def roll(x, /, shift, *, axis=None):
    ax = axes(axis, x.ndim)
    if _native(x) and not (isinstance(ax, tuple) and len(set(ax)) < len(ax)):  # repeated axes: host
        return _mnp.roll(x, shift, axis=ax)
    return _roll(x, shift, axis=axis)


_squeeze = host(_ref.squeeze, "squeeze")


def squeeze(x, /, axis):
    for a in axis if isinstance(axis, (tuple, list)) else (axis,):
        if x.shape[a] != 1:
            raise ValueError(f"squeeze: axis {a} has size {x.shape[a]}, not 1")
    if _native(x):
        return _mnp.squeeze(x, axis=axes(axis, x.ndim))
    return _squeeze(x, axis=axis)


_stack = host(_ref.stack, "stack")


def stack(arrays, /, *, axis=0):
    arrays = _same_dtype(arrays)
    if all(_native(a) and a.ndim < MAX_NDIM for a in arrays):
        return _mnp.stack(arrays, axis=axes(axis, arrays[0].ndim + 1))
    return _stack(arrays, axis=axis)


_tile = host(_ref.tile, "tile")


def tile(x, repetitions, /):
    reps = tuple(repetitions)
    if _native(x) and x.size and 0 not in reps and max(len(reps), x.ndim) <= MAX_NDIM:
        return _mnp.tile(x, reps)
    return _tile(x, reps)


_unstack = host(_ref.unstack, "unstack")


def unstack(x, /, *, axis=0):
    if _native(x):
        axis = axes(axis, x.ndim)
        return tuple(_mnp.moveaxis(x, axis, 0)[i] for i in range(x.shape[axis]))
    return _unstack(x, axis=axis)
