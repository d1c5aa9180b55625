"""Data type functions (torch backend)."""

from __future__ import annotations

from typing import Any

import torch

from ... import dtypes as _hd
from ..._api import names_in
from ...errors import DtypeError
from .._common import FInfo, IInfo, memoized_can_cast, memoized_info
from ._core import native_device, native_dtype, scalar_dtype

__all__ = names_in("data_type")  # the API table's data_type rows


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


_REAL = {torch.complex64: torch.float32, torch.complex128: torch.float64}


def _finfo(dtype):
    dt = native_dtype(dtype)
    if not (dt.is_floating_point or dt.is_complex):
        raise DtypeError(f"finfo: expected a floating-point dtype, got {dt}")
    real = _REAL.get(dt, dt)
    f = torch.finfo(real)
    # for complex dtypes, the standard's finfo describes the real and imaginary parts
    return FInfo(f.bits, float(f.eps), float(f.max), float(f.min), float(f.smallest_normal), real)


def _iinfo(dtype):
    dt = native_dtype(dtype)
    if dt.is_floating_point or dt.is_complex or dt is torch.bool:
        raise DtypeError(f"iinfo: expected an integer dtype, got {dt}")
    i = torch.iinfo(dt)
    return IInfo(i.bits, int(i.max), int(i.min), dt)


# a tensor stands for its dtype; other arguments are read (and checked) by native_dtype
can_cast = memoized_can_cast((torch.Tensor,))
finfo = memoized_info("finfo", (torch.Tensor,), _finfo)
iinfo = memoized_info("iinfo", (torch.Tensor,), _iinfo)


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
