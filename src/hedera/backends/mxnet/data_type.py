"""Data type functions (mxnet backend). Promotion follows the standard (hedera's lattice)."""

from __future__ import annotations

import mxnet as mx
import numpy as np

from ... import dtypes as _hd
from ..._api import names_in
from ...errors import DtypeError
from .._common import finfo_of, iinfo_of
from ._core import MX_DTYPES, native_device, native_dtype

__all__ = names_in("data_type")  # the API table's data_type rows


def astype(x, dtype, /, *, copy=True, device=None):
    out = x.astype(native_dtype(dtype), copy=copy)
    ctx = native_device(device)
    return out if ctx is None or ctx == out.ctx else out.as_in_ctx(ctx)


def _dtype_of(value):
    return value.dtype if isinstance(value, mx.np.ndarray) else value


def can_cast(from_, to, /):
    return _hd.can_cast(_dtype_of(from_), to)


def finfo(type, /):
    return finfo_of(np.finfo(native_dtype(_dtype_of(type))))  # Python float fields, as the standard says


def iinfo(type, /):
    return iinfo_of(np.iinfo(native_dtype(_dtype_of(type))))


def isdtype(dtype, kind):
    return _hd.isdtype(dtype, kind)


def result_type(*arrays_and_dtypes):
    """The standard's promotion of the arguments' dtypes, as MXNet's dtype object.

    Where the standard's answer is a dtype MXNet lacks (``int8`` with ``uint8`` is
    ``int16``), the answer is that hedera dtype (``hd.int16``): it names the dtype
    without pretending MXNet has it.
    """
    result = None
    scalars = []
    for a in arrays_and_dtypes:
        if isinstance(a, (bool, int, float, complex)):
            scalars.append(a)
            continue
        d = _hd.as_hedera_dtype(_dtype_of(a), "arrays_and_dtypes")
        result = d if result is None else _hd.promote_types(result, d)
    if result is None:
        raise DtypeError("result_type: expected at least one array or dtype")
    for s in scalars:
        if isinstance(s, complex) and result.kind != "complex floating":
            result = _hd.complex128 if result is _hd.float64 else _hd.complex64
        elif isinstance(s, float) and result.kind not in ("real floating", "complex floating"):
            result = _hd.float32
    return MX_DTYPES.get(result.name, result)
