"""Data type functions (numpy backend)."""

from __future__ import annotations

import numpy as np

from ... import dtypes as _hd
from ...errors import DtypeError
from .._common import finfo_of, iinfo_of
from ._core import check_device, native_dtype

__all__ = ["astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type"]


_COMPLEX = frozenset({np.dtype(np.complex64), np.dtype(np.complex128)})


def astype(x, dtype, /, *, copy=True, device=None):
    # the common case first: a supported hedera dtype, no device (one attribute read, no calls)
    if type(dtype) is _hd.DType and device is None and dtype.dtype is not None:
        dt = dtype.dtype
    else:
        check_device(device)
        dt = native_dtype(dtype)
    if dt not in _COMPLEX and x.dtype in _COMPLEX:  # NumPy would drop the imaginary part
        raise DtypeError(
            f"astype: casting complex {x.dtype} to real {dt} is not allowed by the standard; "
            "take real(x) or abs(x) first"
        )
    if copy:
        return x.astype(dt)  # (copy=True is the default: no keyword to parse)
    return x.astype(dt, copy=False)


def _dtype_of(value):
    # an array's dtype, else value itself (np.dtype objects have a .shape too, so test the type)
    return value.dtype if isinstance(value, (np.ndarray, np.generic)) else value


def can_cast(from_, to, /):
    return _hd.can_cast(_dtype_of(from_), to)


def finfo(type, /):
    return finfo_of(np.finfo(native_dtype(_dtype_of(type))))  # Python float fields, as the standard says


def iinfo(type, /):
    return iinfo_of(np.iinfo(native_dtype(_dtype_of(type))))


def isdtype(dtype, kind):
    return _hd.isdtype(dtype, kind)


def result_type(*arrays_and_dtypes):
    return np.result_type(
        *(native_dtype(a) if isinstance(a, (_hd.DType, str)) else a for a in arrays_and_dtypes)
    )
