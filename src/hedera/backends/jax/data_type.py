"""Data type functions (jax backend)."""

from __future__ import annotations

import jax.numpy as jnp
from jax import lax

from ... import dtypes as _hd
from ..._api import names_in
from ...errors import DtypeError
from .._common import finfo_of, iinfo_of, memoized_can_cast, memoized_info
from ._core import dtype_unchecked, native_device, native_dtype

__all__ = names_in("data_type")  # the API table's data_type rows


def astype(x, dtype, /, *, copy=True, device=None):
    """``x`` cast to ``dtype``.

    Casting a complex array to a real dtype raises
    :class:`~hedera.errors.DtypeError`, as the standard asks, where JAX would drop
    the imaginary part (use ``real(x)`` first).
    """
    dt = native_dtype(dtype)
    x_dtype = x.dtype
    if x_dtype.kind == "c" and dt.kind != "c":
        raise DtypeError(
            f"astype: casting complex {x_dtype} to real {dt} is not allowed by the standard; "
            f"take real(x) or abs(x) first"
        )
    if x_dtype != dt:
        if device is None:
            # a cast makes a new array: jnp.astype's copy=True would copy it once more (~7 us)
            return lax.convert_element_type(x, dt)
        copy = False  # (the cast's array is new: copy=True would copy it once more, ~11 us)
    return jnp.astype(x, dt, copy=copy, device=native_device(device))


def _dtype_arg(value):
    # an array stands for its dtype
    return value.dtype if hasattr(value, "shape") and hasattr(value, "dtype") else value


can_cast = memoized_can_cast(_dtype_arg)
finfo = memoized_info(
    "finfo", _dtype_arg, lambda dt: finfo_of(jnp.finfo(dtype_unchecked(dt)))
)  # Python floats
iinfo = memoized_info("iinfo", _dtype_arg, lambda dt: iinfo_of(jnp.iinfo(dtype_unchecked(dt))))


def isdtype(dtype, kind):
    return _hd.isdtype(dtype, kind)


def result_type(*arrays_and_dtypes):
    return jnp.result_type(
        *(dtype_unchecked(a) if isinstance(a, (_hd.DType, str)) else a for a in arrays_and_dtypes)
    )
