"""Statistical functions (torch backend).

torch reduces over *every* axis for ``dim=()`` (the standard: over none), and sums
small integers in int64 as the standard does, but ``uint8`` in int64 too, where the
standard's accumulator is ``uint64``, which torch lacks: that raises
:class:`~hedera.errors.UnsupportedDtypeError` unless ``dtype`` is given.
"""

from __future__ import annotations

import functools
import math

import torch

from ... import dtypes as _hd
from ..._api import names_in
from ...errors import InvalidArgumentError, ShapeError
from .._common import native_common_case, normalize_axes, normalize_axis
from ._core import DTYPE_KEYWORD, TORCH_DTYPES, native_dtype

__all__ = names_in("statistical")  # the API table's statistical rows

_uint8 = torch.uint8
_UNSIGNED = (torch.uint8, torch.uint16, torch.uint32, torch.uint64)
_UNSIGNED_SET = frozenset(_UNSIGNED)  # (a hash test: `in` a tuple compares with each)
_SMALL_UNSIGNED = (torch.uint8, torch.uint16, torch.uint32)  # accumulated in uint64 by the standard
#: the dtypes whose sums and products torch accumulates as the standard does (the C front's common case)
_NOT_UNSIGNED = tuple(d for d in TORCH_DTYPES.values() if d not in _UNSIGNED)
_INEXACT = tuple(d for d in TORCH_DTYPES.values() if d.is_floating_point or d.is_complex)


def _accumulator(x, dtype):
    """The dtype to sum or multiply ``x`` in: ``dtype``, else None (torch's choice is the standard's)."""
    if dtype is not None:
        return native_dtype(dtype)
    if x.dtype is torch.uint64:  # torch would accumulate in int64
        return torch.uint64
    if x.dtype in _SMALL_UNSIGNED:
        raise _hd.UnsupportedDtypeError(
            f"the standard accumulates {str(x.dtype)[6:]} in uint64, for which torch has no sum or "
            "product kernel; pass dtype=hd.int64 (or another dtype) explicitly"
        )
    return None


def _no_axis(x, dtype):
    """A reduction over no axis (``axis=()``): ``x`` itself, in the accumulator dtype."""
    if dtype is None and not (x.dtype.is_floating_point or x.dtype.is_complex):
        dtype = torch.uint64 if x.dtype in _UNSIGNED else torch.int64
    return x.to(dtype or x.dtype, copy=True)


@native_common_case(torch.sum, 1, _NOT_UNSIGNED, translated={"dtype": DTYPE_KEYWORD})
def sum(x, /, *, axis=None, dtype=None, keepdims=False):
    if dtype is None and axis is None and not keepdims and x.dtype not in _UNSIGNED:
        return torch.sum(x)  # the common case, without torch's slower keyword parsing
    if dtype is None and type(axis) is int and x.dtype not in _UNSIGNED_SET:
        return torch.sum(x, axis, keepdims)  # one axis: no dtype keyword either
    dt = _accumulator(x, dtype)
    if axis is None:
        return torch.sum(x, None, keepdims, dtype=dt)
    if axis == ():
        return _no_axis(x, dt)
    return torch.sum(x, axis, keepdims, dtype=dt)


@native_common_case(torch.prod, 1, _NOT_UNSIGNED, translated={"dtype": DTYPE_KEYWORD})
def prod(x, /, *, axis=None, dtype=None, keepdims=False):
    if dtype is None and axis is None and not keepdims and x.dtype not in _UNSIGNED:
        return torch.prod(x)  # the common case, without torch's slower keyword parsing
    if dtype is None and type(axis) is int and x.dtype not in _UNSIGNED_SET:
        return torch.prod(x, axis, keepdims)  # the common case of one axis, without the dtype keyword
    dt = _accumulator(x, dtype)
    if axis is None:
        out = torch.prod(x, dtype=dt)
        return torch.reshape(out, (1,) * x.ndim) if keepdims else out
    if isinstance(axis, int):
        return torch.prod(x, axis, keepdims, dtype=dt)
    axes = normalize_axes(axis, x.ndim)
    if not axes:
        return _no_axis(x, dt)
    # torch.prod takes one axis: move the reduced axes last and flatten them
    kept = [i for i in range(x.ndim) if i not in axes]
    size = math.prod(x.shape[i] for i in axes)
    flat = torch.reshape(torch.permute(x, kept + list(axes)), [x.shape[i] for i in kept] + [size])
    out = torch.prod(flat, -1, dtype=dt)
    if keepdims:
        out = torch.reshape(out, [1 if i in axes else n for i, n in enumerate(x.shape)])
    return out


@native_common_case(torch.mean, 1, _INEXACT)
def mean(x, /, *, axis=None, keepdims=False):
    if not (x.dtype.is_floating_point or x.dtype.is_complex):  # torch.mean refuses integers
        x = x.to(torch.get_default_dtype())
    if axis == ():
        return x.clone()
    return torch.mean(x, axis, keepdims)


@native_common_case(torch.max, 1)
def max(x, /, *, axis=None, keepdims=False):
    if axis is None and not keepdims:
        return torch.max(x)  # the full reduction, whose one-argument call torch parses fastest
    if axis == ():
        return x.clone()
    return torch.amax(x, () if axis is None else axis, keepdims)


@native_common_case(torch.min, 1)
def min(x, /, *, axis=None, keepdims=False):
    if axis is None and not keepdims:
        return torch.min(x)  # the full reduction, whose one-argument call torch parses fastest
    if axis == ():
        return x.clone()
    return torch.amin(x, () if axis is None else axis, keepdims)


@native_common_case(functools.partial(torch.var, correction=0.0), 1, _INEXACT, forwarded=("correction",))
def var(x, /, *, axis=None, correction=0.0, keepdims=False):
    if not (x.dtype.is_floating_point or x.dtype.is_complex):  # torch.var refuses integers
        x = x.to(torch.get_default_dtype())
    if axis == ():  # the deviation of each element from itself, over max(1 - correction, 0)
        return torch.zeros_like(x) / (1 - correction if correction < 1 else 0)
    return torch.var(x, axis, correction=correction, keepdim=keepdims)


@native_common_case(functools.partial(torch.std, correction=0.0), 1, _INEXACT, forwarded=("correction",))
def std(x, /, *, axis=None, correction=0.0, keepdims=False):
    if not (x.dtype.is_floating_point or x.dtype.is_complex):  # torch.std refuses integers
        x = x.to(torch.get_default_dtype())
    if axis == ():
        return torch.zeros_like(x) / (1 - correction if correction < 1 else 0)
    return torch.std(x, axis, correction=correction, keepdim=keepdims)


def _cumulative(op, identity, x, axis, dtype, include_initial):
    if x.ndim == 0:
        raise ShapeError("x: a cumulative sum or product needs at least one dimension, got a 0-d array")
    if axis is None:
        if x.ndim != 1:
            raise InvalidArgumentError(
                f"axis: must be given for arrays of other than one dimension (x has shape {tuple(x.shape)})"
            )
        axis = 0
    axis = normalize_axis(axis, x.ndim)
    out = op(x, axis, dtype=_accumulator(x, dtype))
    if include_initial:
        shape = list(out.shape)
        shape[axis] = 1
        out = torch.cat([torch.full(shape, identity, dtype=out.dtype, device=out.device), out], axis)
    return out


def _plain_axis(x, axis, dtype, include_initial):
    """The axis of the common case (no dtype, no initial value, a valid axis), else None."""
    if dtype is None and not include_initial and x.dtype not in _UNSIGNED:
        if type(axis) is int and -x.ndim <= axis < x.ndim:
            return axis
        if axis is None and x.ndim == 1:
            return 0
    return None


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    if type(axis) is int and dtype is None and include_initial is False and x.dtype not in _UNSIGNED_SET:
        n = x.ndim
        if -n <= axis < n:  # the common case, straight to torch (no call of _plain_axis)
            return _cumsum(x, axis)
    plain = _plain_axis(x, axis, dtype, include_initial)
    if plain is not None:
        return torch.cumsum(x, plain)
    return _cumulative(torch.cumsum, 0, x, axis, dtype, include_initial)


_cumsum = torch.cumsum  # (a module constant: torch.cumsum is a global and an attribute lookup)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    if type(axis) is int and dtype is None and not include_initial and x.dtype not in _UNSIGNED_SET:
        n = x.ndim
        if -n <= axis < n:  # the common case, as in cumulative_sum
            return torch.cumprod(x, axis)
    plain = _plain_axis(x, axis, dtype, include_initial)
    if plain is not None:
        return torch.cumprod(x, plain)
    return _cumulative(torch.cumprod, 1, x, axis, dtype, include_initial)
