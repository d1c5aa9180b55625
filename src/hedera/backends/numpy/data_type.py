"""Data type functions (numpy backend)."""

from __future__ import annotations

import numpy as np

from ... import dtypes as _hd
from ..._api import names_in
from ...errors import DtypeError
from .._common import finfo_of, iinfo_of, memoized_can_cast, memoized_info
from ._core import check_device, native_dtype

__all__ = names_in("data_type")  # the API table's data_type rows


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


# an array (or NumPy scalar) stands for its dtype (np.dtype objects have a .shape too: test the type)
_ARRAYS = (np.ndarray, np.generic)
can_cast = memoized_can_cast(_ARRAYS)
finfo = memoized_info("finfo", _ARRAYS, lambda dt: finfo_of(np.finfo(native_dtype(dt))))  # Python floats
iinfo = memoized_info("iinfo", _ARRAYS, lambda dt: iinfo_of(np.iinfo(native_dtype(dt))))


def isdtype(dtype, kind):
    return _hd.isdtype(dtype, kind)


def result_type(*arrays_and_dtypes):
    return np.result_type(
        *(native_dtype(a) if isinstance(a, (_hd.DType, str)) else a for a in arrays_and_dtypes)
    )
