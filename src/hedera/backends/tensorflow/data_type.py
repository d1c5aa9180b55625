"""Data type functions (tensorflow backend)."""

from __future__ import annotations

from typing import Any

import numpy as np
import tensorflow as tf

from ... import dtypes as _hd
from ..._api import names_in
from ...errors import DtypeError, InvalidArgumentError
from .._common import FInfo, IInfo
from ._core import (
    COMPLEX,
    INTEGER,
    REAL_FLOAT,
    DTypeSet,
    is_scalar,
    native_device,
    native_dtype,
    nonzero_mask,
    on_device,
    promote_dtypes,
    scalar_dtype,
)
from ._private import gen_math_ops

__all__ = names_in("data_type")  # the API table's data_type rows


#: the dtypes whose casts to every dtype are TF's own (complex ones to real ones are refused)
REAL = REAL_FLOAT | INTEGER | DTypeSet((tf.bool,))


def astype(x, dtype, /, *, copy=True, device=None):
    """``x`` cast to ``dtype`` (``tf.cast``: floats to integers truncate toward zero).

    TF tensors are immutable: ``copy=False`` with an unchanged dtype returns ``x``
    itself, ``copy=True`` a new tensor.
    """
    dt = native_dtype(dtype)
    source = x.dtype
    if source is dt:
        out = tf.identity(x) if copy else x
    elif source in REAL or dt in COMPLEX:  # the common case: tf.cast's op, without its ~1.5 us of Python
        out = gen_math_ops.cast(x, dt) if dt is not tf.bool else nonzero_mask(x)
    elif source.is_complex and not dt.is_complex:
        # the standard: not permitted, to bool either (TF would drop the imaginary part silently)
        raise DtypeError(
            f"astype: casting complex {x.dtype.name} to real {dt.name} is not allowed by the standard; "
            "take real(x) or abs(x) first"
        )
    elif dt is tf.bool:
        out = nonzero_mask(x)
    else:
        out = tf.cast(x, dt)
    # (onto another device only: a device naming x's own needs no op, ~10 us)
    if device is not None and native_device(device) != native_device(x.device):
        with on_device(device):
            out = tf.identity(out)
    return out


def _as_dtype(value: Any, argname: str) -> _hd.DType:
    if hasattr(value, "shape") and hasattr(value, "dtype"):
        value = value.dtype
    return _hd.as_hedera_dtype(value, argname)


def can_cast(from_, to, /):
    return _hd.can_cast(_as_dtype(from_, "from_"), _as_dtype(to, "to"))


def finfo(type, /):
    dt = native_dtype(type.dtype if hasattr(type, "shape") else type)
    if not (dt.is_floating or dt.is_complex):
        raise DtypeError(f"finfo: expected a floating-point dtype, got {dt.name}")
    real = dt.real_dtype
    if real is tf.bfloat16:  # np.finfo does not know ml_dtypes' bfloat16 (TF's NumPy dtype for it)
        import ml_dtypes

        info = ml_dtypes.finfo(ml_dtypes.bfloat16)
    else:
        info = np.finfo(real.as_numpy_dtype)
    return FInfo(
        bits=info.bits,
        eps=float(info.eps),
        max=float(info.max),
        min=float(info.min),
        smallest_normal=float(info.smallest_normal),
        dtype=real,
    )


def iinfo(type, /):
    dt = native_dtype(type.dtype if hasattr(type, "shape") else type)
    if dt not in INTEGER:
        raise DtypeError(f"iinfo: expected an integer dtype, got {dt.name}")
    info = np.iinfo(dt.as_numpy_dtype)
    return IInfo(bits=info.bits, max=int(info.max), min=int(info.min), dtype=dt)


def isdtype(dtype, kind):
    return _hd.isdtype(dtype, kind)


def result_type(*arrays_and_dtypes):
    """The standard's result dtype of arrays, dtypes and Python scalars, as a tf dtype.

    Python scalars take part as in the binary functions (see ``_core.scalar_dtype``).
    """
    result = None
    scalars = []
    for item in arrays_and_dtypes:
        if is_scalar(item):
            scalars.append(item)
            continue
        d = native_dtype(item.dtype if hasattr(item, "shape") and hasattr(item, "dtype") else item)
        result = d if result is None else promote_dtypes(result, d)
    if result is None:
        if not scalars:
            raise InvalidArgumentError("result_type: expected at least one array or dtype")
        raise DtypeError("result_type: Python scalars alone have no result type; pass an array or a dtype")
    for s in scalars:
        result = scalar_dtype(s, result)
    return result
