"""Data type functions (torch backend)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch

from ... import dtypes as _hd
from ...errors import DtypeError
from ._core import native_device, native_dtype, scalar_dtype

__all__ = ["astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type"]


def astype(x, dtype, /, *, copy=True, device=None):
    dt, dev = native_dtype(dtype), native_device(device)
    if x.dtype.is_complex and not dt.is_complex:  # torch drops the imaginary part
        raise DtypeError(
            f"astype: casting complex {x.dtype} to real {dt} is not allowed by the standard; "
            "take real(x) or abs(x) first"
        )
    if dev is None:
        return x.to(dtype=dt, copy=copy)
    return x.to(dev, dtype=dt, copy=copy)


_CAN_CAST: dict = {}  # (from_, to) -> the answer: the lattice never changes


def can_cast(from_, to, /):
    from_ = from_.dtype if isinstance(from_, torch.Tensor) else from_
    # hedera dtypes by name (their hash runs in Python), native dtypes as they are
    key = (from_.name if type(from_) is _hd.DType else from_, to.name if type(to) is _hd.DType else to)
    try:
        return _CAN_CAST[key]
    except KeyError:
        out = _CAN_CAST[key] = _hd.can_cast(from_, to)
        return out
    except TypeError:  # an unhashable argument, rejected without the cache
        return _hd.can_cast(from_, to)


@dataclass(frozen=True)
class FInfo:
    """The standard's ``finfo`` object (torch's own has ``dtype`` as a string)."""

    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: torch.dtype


@dataclass(frozen=True)
class IInfo:
    """The standard's ``iinfo`` object."""

    bits: int
    max: int
    min: int
    dtype: torch.dtype


_FINFO: dict[torch.dtype, FInfo] = {}
_IINFO: dict[torch.dtype, IInfo] = {}


def _dtype_arg(type):
    return type.dtype if isinstance(type, torch.Tensor) else native_dtype(type)


def finfo(type, /):
    dt = _dtype_arg(type)
    try:
        return _FINFO[dt]
    except KeyError:
        pass
    if not (dt.is_floating_point or dt.is_complex):
        raise DtypeError(f"finfo: expected a floating-point dtype, got {dt}")
    real = {torch.complex64: torch.float32, torch.complex128: torch.float64}.get(dt, dt)
    f = torch.finfo(real)
    # for complex dtypes, the standard's finfo describes the real and imaginary parts
    out = FInfo(f.bits, float(f.eps), float(f.max), float(f.min), float(f.smallest_normal), real)
    _FINFO[dt] = out
    return out


def iinfo(type, /):
    dt = _dtype_arg(type)
    try:
        return _IINFO[dt]
    except KeyError:
        pass
    if dt.is_floating_point or dt.is_complex or dt is torch.bool:
        raise DtypeError(f"iinfo: expected an integer dtype, got {dt}")
    i = torch.iinfo(dt)
    out = IInfo(i.bits, int(i.max), int(i.min), dt)
    _IINFO[dt] = out
    return out


def isdtype(dtype, kind):
    return _hd.isdtype(dtype, kind)


def result_type(*arrays_and_dtypes: Any) -> torch.dtype:
    """The dtype the standard's promotion gives, as a torch dtype.

    Arrays and dtypes are combined first, then Python scalars (which take the
    array's dtype where their kind fits, as in torch's own binary operations).
    """
    out, scalars = None, []
    for item in arrays_and_dtypes:
        if isinstance(item, (bool, int, float, complex)):
            scalars.append(item)
            continue
        d = _hd.as_hedera_dtype(item.dtype if isinstance(item, torch.Tensor) else item, "arrays_and_dtypes")
        out = d if out is None else _hd.promote_types(out, d)
    if out is None:
        raise DtypeError("result_type: expected at least one array or dtype")
    # torch has objects for every standard dtype (uint16/32/64 included, though they are unsupported)
    native = getattr(torch, out.name)
    for s in scalars:
        native = scalar_dtype(s, native)
    return native
