"""Array creation functions (jax backend).

Shims only convert ``dtype`` (hedera dtypes, names, the x64 check) and ``device``
(``"gpu:0"``), and give Python-scalar inputs their standard default dtype where
JAX would make a *weakly typed* array (which promotes like a Python scalar).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ..._api import names_in
from ...errors import InvalidArgumentError
from .._common import check_fill_value, native_common_case
from ._core import (
    DTYPE_KEYWORD,
    KeywordTranslation,
    check_copy,
    compiled_common_case,
    native_device,
    native_dtype,
    scalar_dtype,
)

__all__ = names_in("creation")  # the API table's creation rows

tril = jnp.tril
triu = jnp.triu


def _steps_exactly(dt) -> bool:
    """Whether integers in ``dt`` are the same computed with or without jnp.arange's unit step:
    integer dtypes and floats of 32 bits or more (narrower floats are stepped in float32)."""
    return dt is None or dt.kind in "iu" or (dt.kind in "fc" and dt.itemsize >= 4)


#: arange's dtypes in which jnp.arange(n, dtype=dt) is the shim's answer for an int n (which drops the
#: unit step; bool: jnp.arange counts in it, which the shim leaves to jnp.arange's step)
_UNIT_STEP_DTYPE = KeywordTranslation({d: dt for d, dt in DTYPE_KEYWORD.values.items() if _steps_exactly(dt)})


@native_common_case(jnp.arange, 1, arg_types=((int,),), translated={"dtype": _UNIT_STEP_DTYPE})
def arange(start, /, stop=None, step=1, *, dtype=None, device=None):
    dt = native_dtype(dtype)
    if type(step) is int and step == 1 and _integer_bounds(start, stop) and _steps_exactly(dt):
        # jnp.arange with a step computes start + step * iota (4 ops, ~70 us); without one, iota (plus
        # start), the same integers
        step = None
    return jnp.arange(start, stop, step, dtype=dt, device=native_device(device))


def _integer_bounds(start, stop) -> bool:
    return type(start) is int and (stop is None or type(stop) is int)


def _is_jax_array(obj) -> bool:
    return isinstance(obj, jax.Array)


def asarray(obj, /, *, dtype=None, device=None, copy=None):
    """``obj`` as a JAX array. JAX arrays are immutable, so ``copy=None`` never copies one.

    ``copy=False`` raises :class:`~hedera.errors.InvalidArgumentError` when the
    result cannot share memory with ``obj``: anything but a JAX array already of
    the requested dtype and device.
    """
    if dtype is None and device is None and copy is None and type(obj) not in _PY_SCALARS:
        return jnp.asarray(obj)  # what the steps below come to for these arguments (~1.3 us less)
    check_copy(copy)
    dt = native_dtype(dtype)
    dev = native_device(device)
    if _is_jax_array(obj):
        if copy is False and (
            (dt is not None and dt != obj.dtype) or (dev is not None and dev not in _devices_of(obj))
        ):
            raise InvalidArgumentError("copy=False: asarray would need to copy obj (another dtype or device)")
    elif copy is False:
        raise InvalidArgumentError(
            f"copy=False: a jax array cannot share memory with a {type(obj).__name__}; asarray must copy"
        )
    elif dt is None:
        dt = scalar_dtype(obj)  # Python scalars: a strongly typed default-dtype array, not a weak one
    return jnp.asarray(obj, dtype=dt, copy=copy, device=dev)


def _devices_of(x):
    try:
        return x.devices()
    except Exception:  # a tracer: no concrete placement
        return ()


@native_common_case(jnp.empty, 1, translated={"dtype": DTYPE_KEYWORD})
def empty(shape, *, dtype=None, device=None):
    return jnp.empty(shape, dtype=native_dtype(dtype), device=native_device(device))


@native_common_case(jnp.empty_like, 1, translated={"dtype": DTYPE_KEYWORD})
def empty_like(x, /, *, dtype=None, device=None):
    return jnp.empty_like(x, dtype=native_dtype(dtype), device=native_device(device))


@native_common_case(jnp.eye, (1, 2), forwarded=("k",), translated={"dtype": DTYPE_KEYWORD})
def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None):
    return jnp.eye(n_rows, n_cols, k=k, dtype=native_dtype(dtype), device=native_device(device))


@native_common_case(jnp.from_dlpack, 1)  # (jax raises for the buffers the shim copies first)
def from_dlpack(x, /, *, device=None, copy=None):
    check_copy(copy)
    if isinstance(x, np.ndarray) and not x.flags.c_contiguous:
        # JAX imports only compact (C-order) buffers and raises a JaxRuntimeError on others
        if copy is False:
            raise BufferError("from_dlpack: jax imports only C-contiguous buffers; this one needs a copy")
        x = np.ascontiguousarray(x)
    return jnp.from_dlpack(x, device=native_device(device), copy=copy)


def full(shape, fill_value, *, dtype=None, device=None):
    dt = native_dtype(dtype)
    if dt is None:
        dt = scalar_dtype(fill_value)  # not weakly typed
    check_fill_value("full", fill_value, dt)  # jnp.full wraps an int that does not fit
    if device is None and dt is not None and dt.kind in _CASTS_AS_XLA.get(type(fill_value), ""):
        # a NumPy scalar of dt broadcast: what jnp.full does for a scalar fill (same value, same default
        # placement), without its conversion through a weakly typed constant (~10 us)
        value = np.array(fill_value, dt)
        if type(shape) is tuple and not shape:  # (lax.broadcast to () costs ~5 us more)
            return lax.stage(value)
        return lax.broadcast(value, (shape,) if type(shape) is int else shape)
    return jnp.full(shape, fill_value, dtype=dt, device=native_device(device))


def full_like(x, /, fill_value, *, dtype=None, device=None):
    dt = native_dtype(dtype)
    check_fill_value("full_like", fill_value, x.dtype if dt is None else dt)
    if device is None and type(fill_value) in _PY_SCALARS:
        # jnp.full_like's own call for a scalar fill (x's sharding kept), without its ~3-7 us of
        # argument handling; the dtype given, so that a weakly typed x gives a strongly typed result
        return lax.full_like(x, fill_value, x.dtype if dt is None else dt)
    return jnp.full_like(x, fill_value, dtype=x.dtype if dt is None else dt, device=native_device(device))


_PY_SCALARS = frozenset((bool, int, float, complex))

#: Python scalar type -> the dtype kinds it converts to alike in NumPy and XLA (not float to int:
#: NaN and inf differ; an int that does not fit an integer dtype is refused before)
_CASTS_AS_XLA = {bool: "biufc", int: "biufc", float: "fc", complex: "c"}


# (compiled: jnp.linspace's num defaults to 50, where a call without num must fail, as the compiled shim
# does; jnp.linspace compiles its program per num and endpoint too)
@compiled_common_case(2, ("num", "endpoint", "dtype"), ("num", "endpoint", "dtype"))
def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True):
    if dtype is None and device is None:
        return jnp.linspace(start, stop, num, endpoint)
    return jnp.linspace(
        start, stop, num, endpoint=endpoint, dtype=native_dtype(dtype), device=native_device(device)
    )


@compiled_common_case((1, 15), ("indexing",), ("indexing",))  # (the C front forwards 16 arguments)
def meshgrid(*arrays, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise InvalidArgumentError(f"indexing: expected 'xy' or 'ij', got {indexing!r}")
    return tuple(jnp.meshgrid(*arrays, indexing=indexing))


@native_common_case(jnp.ones, 1, translated={"dtype": DTYPE_KEYWORD})
def ones(shape, *, dtype=None, device=None):
    return jnp.ones(shape, dtype=native_dtype(dtype), device=native_device(device))


@native_common_case(jnp.ones_like, 1, translated={"dtype": DTYPE_KEYWORD})
def ones_like(x, /, *, dtype=None, device=None):
    return jnp.ones_like(x, dtype=native_dtype(dtype), device=native_device(device))


@native_common_case(jnp.zeros, 1, translated={"dtype": DTYPE_KEYWORD})
def zeros(shape, *, dtype=None, device=None):
    return jnp.zeros(shape, dtype=native_dtype(dtype), device=native_device(device))


@native_common_case(jnp.zeros_like, 1, translated={"dtype": DTYPE_KEYWORD})
def zeros_like(x, /, *, dtype=None, device=None):
    return jnp.zeros_like(x, dtype=native_dtype(dtype), device=native_device(device))
