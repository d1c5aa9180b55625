"""Array creation functions (mxnet backend).

MXNet's own creation functions default to float32 even for Python integers and
booleans (``mx.np.array([1, 2])`` and ``mx.np.arange(3)`` are float32); the
shims here give the standard's defaults: ``bool`` for booleans, ``int64`` for
integers, float32 (MXNet's default floating dtype) for floats.
"""

from __future__ import annotations

import mxnet as mx
import numpy as np

from ... import dtypes as _hd
from ..._api import names_in
from ...errors import InvalidArgumentError
from .._common import check_nested_numbers
from ._core import MX_DTYPES, check_numpy_dtype, native_device, native_dtype

__all__ = names_in("creation")  # the API table's creation rows

_mnp = mx.np


def _default_of(value):
    """The standard's default dtype for a Python scalar (MXNet's float32 for floats)."""
    if isinstance(value, bool):
        return np.bool_
    if isinstance(value, int):
        return np.int64
    if isinstance(value, complex):
        raise _hd.unsupported("mxnet", "complex64")
    return np.float32


def arange(start, /, stop=None, step=1, *, dtype=None, device=None):
    dt = native_dtype(dtype)
    if dt is None:
        ints = all(isinstance(v, int) for v in (start, stop, step) if v is not None)
        dt = np.int64 if ints else np.float32
    # computed by NumPy: MXNet's arange rounds the length differently for some float steps
    return _mnp.array(np.arange(start, stop, step, dtype=dt), dtype=dt, ctx=native_device(device))


def _host_array(obj, dtype):
    """``obj`` (not an MXNet array) as a NumPy array of the dtype the standard gives it."""
    if dtype is None and isinstance(obj, (bool, int, float, complex, list, tuple)):
        a = np.asarray(obj)
        if a.dtype.kind == "f":
            a = a.astype(np.float32)  # Python floats: the default floating dtype, float32
        elif a.dtype.kind == "c":
            raise _hd.unsupported("mxnet", "complex64")
        return a
    return np.asarray(obj, dtype=dtype)


def asarray(obj, /, *, dtype=None, device=None, copy=None):
    dt = native_dtype(dtype)
    ctx = native_device(device)
    if isinstance(obj, _mnp.ndarray):
        same = (dt is None or obj.dtype == dt) and (ctx is None or obj.ctx == ctx)
        if same and not copy:
            return obj
        if copy is False:
            raise InvalidArgumentError("copy=False: asarray would need to copy obj (a new dtype or device)")
        out = obj.astype(dt or obj.dtype, copy=True)
        return out.as_in_ctx(ctx) if ctx is not None else out
    if copy is False:
        raise InvalidArgumentError("copy=False: MXNet always copies data it did not create")
    if isinstance(obj, (list, tuple)) and any(isinstance(v, _mnp.ndarray) for v in obj):
        obj = [v.asnumpy() if isinstance(v, _mnp.ndarray) else v for v in obj]
    a = _host_array(obj, dt)
    if a.dtype.kind in "OU" and not isinstance(obj, np.ndarray):
        check_nested_numbers(obj)  # (a ragged nesting, an item of another kind: the other backends' errors)
    check_numpy_dtype(a)
    return _mnp.array(a, dtype=a.dtype, ctx=ctx)


def _shape(shape):
    return (shape,) if isinstance(shape, int) else tuple(shape)


def empty(shape, *, dtype=None, device=None):
    return _mnp.empty(_shape(shape), dtype=native_dtype(dtype) or np.float32, ctx=native_device(device))


def empty_like(x, /, *, dtype=None, device=None):
    return empty(x.shape, dtype=dtype or x.dtype, device=device or x.ctx)


def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None):
    dt = native_dtype(dtype) or np.float32  # (built on the host: MXNet's eye has no bool)
    return _mnp.array(np.eye(n_rows, n_cols, k=k, dtype=dt), dtype=dt, ctx=native_device(device))


def from_dlpack(x, /, *, device=None, copy=None):
    """``x`` (an MXNet array, or any object with ``__dlpack__``) as an MXNet array, sharing memory.

    MXNet imports compact (C-contiguous) tensors only; others raise ``BufferError``
    (``hd.asarray(x, backend="mxnet")`` copies them). A dtype MXNet lacks raises
    ``UnsupportedDtypeError``.
    """
    if isinstance(x, _mnp.ndarray):
        return asarray(x, device=device, copy=copy)
    if not hasattr(x, "__dlpack__"):
        raise TypeError(f"from_dlpack: expected an array with __dlpack__, got {type(x).__name__}")
    name = str(getattr(x, "dtype", "")).rpartition(".")[2]
    if name and name not in MX_DTYPES:
        raise _hd.unsupported("mxnet", name)
    try:
        out = mx.nd.from_dlpack(x.__dlpack__()).as_np_ndarray()
    except mx.base.MXNetError as error:
        raise BufferError(f"from_dlpack: MXNet cannot import this tensor ({error})") from None
    return asarray(out, device=device, copy=copy)


def full(shape, fill_value, *, dtype=None, device=None):
    dt = native_dtype(dtype) or _default_of(fill_value)
    # MXNet passes the value as a string of 15 significant digits, which also loses the sign of -0.0
    if np.dtype(dt) == np.float64 or (type(fill_value) is float and fill_value == 0.0):
        return _mnp.array(np.full(_shape(shape), fill_value, dtype=dt), dtype=dt, ctx=native_device(device))
    return _mnp.full(_shape(shape), fill_value, dtype=dt, ctx=native_device(device))


def full_like(x, /, fill_value, *, dtype=None, device=None):
    return full(x.shape, fill_value, dtype=dtype or x.dtype, device=device or x.ctx)


def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True):
    if isinstance(start, complex) or isinstance(stop, complex):
        raise _hd.unsupported("mxnet", "complex64")
    dt = native_dtype(dtype) or np.float32
    # computed by NumPy in float64, then cast: MXNet's float32 linspace drifts at the end point
    a = np.linspace(start, stop, num, endpoint=endpoint, dtype=np.float64).astype(dt)
    return _mnp.array(a, dtype=dt, ctx=native_device(device))


def meshgrid(*arrays, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise InvalidArgumentError(f"indexing: expected 'xy' or 'ij', got {indexing!r}")
    if not arrays:
        return ()
    return tuple(_mnp.meshgrid(*arrays, indexing=indexing))


def ones(shape, *, dtype=None, device=None):
    return _mnp.ones(_shape(shape), dtype=native_dtype(dtype) or np.float32, ctx=native_device(device))


def ones_like(x, /, *, dtype=None, device=None):
    return ones(x.shape, dtype=dtype or x.dtype, device=device or x.ctx)


def _triangle(keep, x, k):
    # MXNet has no triu, and its tril neither broadcasts over stacks nor takes every dtype
    n, m = x.shape[-2:]
    mask = keep(np.ones((n, m), dtype=bool), k)
    if x.dtype in (np.float16, np.float32, np.float64) and x.size and x.ndim <= 5:
        return x * _mnp.array(mask, dtype=x.dtype, ctx=x.ctx)  # differentiable
    return _mnp.array(np.where(mask, x.asnumpy(), np.zeros((), x.dtype)), dtype=x.dtype, ctx=x.ctx)


def tril(x, /, *, k=0):
    return _triangle(np.tril, x, k)


def triu(x, /, *, k=0):
    return _triangle(np.triu, x, k)


def zeros(shape, *, dtype=None, device=None):
    return _mnp.zeros(_shape(shape), dtype=native_dtype(dtype) or np.float32, ctx=native_device(device))


def zeros_like(x, /, *, dtype=None, device=None):
    return zeros(x.shape, dtype=dtype or x.dtype, device=device or x.ctx)
