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


def _key(dtype):
    """A dtype as a cache key: hedera dtypes by name (their hash runs in Python), others as they are."""
    return dtype.name if type(dtype) is _hd.DType else dtype


# answers by argument: the dtype lattice and limits never change
_CAN_CAST: dict = {}
_FINFO: dict = {}
_IINFO: dict = {}


def can_cast(from_, to, /):
    from_ = _dtype_of(from_)
    key = (_key(from_), _key(to))
    try:
        return _CAN_CAST[key]
    except KeyError:
        out = _CAN_CAST[key] = _hd.can_cast(from_, to)
        return out
    except TypeError:  # an unhashable argument: answered (and rejected) without the cache
        return _hd.can_cast(from_, to)


def finfo(type, /):
    dtype = _dtype_of(type)
    try:
        return _FINFO[_key(dtype)]
    except KeyError:
        out = _FINFO[_key(dtype)] = finfo_of(np.finfo(native_dtype(dtype)))  # Python float fields
        return out
    except TypeError:
        return finfo_of(np.finfo(native_dtype(dtype)))


def iinfo(type, /):
    dtype = _dtype_of(type)
    try:
        return _IINFO[_key(dtype)]
    except KeyError:
        out = _IINFO[_key(dtype)] = iinfo_of(np.iinfo(native_dtype(dtype)))
        return out
    except TypeError:
        return iinfo_of(np.iinfo(native_dtype(dtype)))


def isdtype(dtype, kind):
    return _hd.isdtype(dtype, kind)


def result_type(*arrays_and_dtypes):
    return np.result_type(
        *(native_dtype(a) if isinstance(a, (_hd.DType, str)) else a for a in arrays_and_dtypes)
    )
