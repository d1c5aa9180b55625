"""Statistical functions (jax backend).

Shims only where a ``dtype`` argument must be converted (hedera dtypes, the x64
check) and for ``cumulative_prod``'s integer promotion.
"""

from __future__ import annotations

import jax.numpy as jnp

from ..._api import names_in
from ._core import compiled_common_case, default_int, default_uint, native_dtype

__all__ = names_in("statistical")  # the API table's statistical rows

#: what sum and prod read besides x's shape and dtype
_REDUCTION = ("axis", "dtype", "keepdims")

max = jnp.max
min = jnp.min
mean = jnp.mean
std = jnp.std
var = jnp.var


@compiled_common_case(1, _REDUCTION, _REDUCTION)
def sum(x, /, *, axis=None, dtype=None, keepdims=False):
    return jnp.sum(x, axis=axis, dtype=None if dtype is None else native_dtype(dtype), keepdims=keepdims)


@compiled_common_case(1, _REDUCTION, _REDUCTION)
def prod(x, /, *, axis=None, dtype=None, keepdims=False):
    return jnp.prod(x, axis=axis, dtype=None if dtype is None else native_dtype(dtype), keepdims=keepdims)


#: what the shims of cumulative_sum and cumulative_prod read besides x's shape and dtype
_CUMULATIVE = ("axis", "dtype", "include_initial")


@compiled_common_case(1, _CUMULATIVE, _CUMULATIVE)
def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    # the common case: inexact x, no dtype, no initial zero: jnp.cumsum, without
    # jnp.cumulative_sum's argument checks (~1.3 us); its answer there is the same
    if dtype is None and not include_initial and x.dtype.kind in "fc":
        if type(axis) is int and -x.ndim <= axis < x.ndim:
            return jnp.cumsum(x, axis)
        if axis is None and x.ndim == 1:
            return jnp.cumsum(x, 0)
    return jnp.cumulative_sum(x, axis=axis, dtype=native_dtype(dtype), include_initial=include_initial)


def _integer_accumulator(dt):
    # the standard accumulates narrow integers (and bools) in the default integer dtype of their sign
    if dt.kind in "bi" and dt.itemsize < default_int().itemsize:
        return default_int()
    if dt.kind == "u" and dt.itemsize < default_uint().itemsize:
        return default_uint()
    return None


@compiled_common_case(1, _CUMULATIVE, _CUMULATIVE)
def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    # the common case, as in cumulative_sum: jnp.cumprod without jnp.cumulative_prod's checks (~10 us)
    if dtype is None and not include_initial and x.dtype.kind in "fc":
        if type(axis) is int and -x.ndim <= axis < x.ndim:
            return jnp.cumprod(x, axis)
        if axis is None and x.ndim == 1:
            return jnp.cumprod(x, 0)
    # JAX keeps narrow integer dtypes here (int8 stays int8), unlike in prod and cumulative_sum
    dt = _integer_accumulator(x.dtype) if dtype is None else native_dtype(dtype)
    return jnp.cumulative_prod(x, axis=axis, dtype=dt, include_initial=include_initial)
