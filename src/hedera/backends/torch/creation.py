"""Array creation functions (torch backend).

Default dtypes follow torch: ``torch.get_default_dtype()`` (float32 unless changed)
for floating point, int64 for integers.
"""

from __future__ import annotations

import builtins

import numpy as np
import torch

from ..._api import names_in
from ...errors import InvalidArgumentError
from .._common import check_fill_value, native_common_case
from ._core import (
    DEVICE_KEYWORD,
    INEXACT_DTYPE_KEYWORD,
    TORCH_DTYPES,
    default_complex,
    default_float,
    native_device,
    native_dtype,
)

__all__ = names_in("creation")  # the API table's creation rows

_NOT_INTEGER = tuple(
    d for d in TORCH_DTYPES.values() if d.is_floating_point or d.is_complex or d is torch.bool
)


def _shape(shape):
    return (shape,) if isinstance(shape, int) else tuple(shape)


def _filled(make, shape, dtype, device):
    """``make(shape)`` (torch.zeros, ones, empty) with the shape passed as separate sizes and no
    dtype/device keywords unless given: torch's argument parser takes ~500 ns longer for a
    tuple than for separate sizes, and ~300 ns more for each keyword, even ``None``
    (benchmarks: 1 µs over ``torch.zeros(3)`` before this, for a 3-element array)."""
    dims = _shape(shape)
    if dtype is None and device is None:
        return make(*dims) if dims else make(())
    return make(*dims or ((),), dtype=native_dtype(dtype), device=native_device(device))


@native_common_case(torch.arange, 1, arg_types=((int,),))  # (a negative n: torch raises, this shim answers)
def arange(start, /, stop=None, step=1, *, dtype=None, device=None):
    # torch.arange rejects empty ranges (stop on the wrong side of start)
    if (
        stop is None
        and type(start) is int
        and start >= 0
        and type(step) is int
        and step == 1
        and dtype is None
        and device is None
    ):
        return torch.arange(start)  # the common case: arange(n), nothing to check or convert
    if stop is None:
        start, stop = 0, start
    dt, dev = native_dtype(dtype), native_device(device)
    if step == 0:
        raise InvalidArgumentError("step: must not be zero")
    if (stop - start) / step <= 0:
        if dt is None:
            ints = builtins.all(isinstance(v, int) for v in (start, stop, step))
            dt = torch.int64 if ints else default_float()
        return torch.empty(0, dtype=dt, device=dev)
    if dt is None and dev is None:  # keywords cost torch's parser ~300 ns each, even None
        return torch.arange(start, stop, step)
    return torch.arange(start, stop, step, dtype=dt, device=dev)


def asarray(obj, /, *, dtype=None, device=None, copy=None):
    # the classes of objects the common case hands to torch.asarray as they are: an exact class test
    # (isinstance(obj, torch.Tensor) costs ~0.1 us, torch's metaclass __instancecheck__), against a
    # tuple written here (dynamo's guard on a module-level frozenset's membership failed on the frame
    # that made it: "Guard failed on the same frame it was created", torch 2.13)
    if (
        obj.__class__ in (list, tuple, bool, int, float, complex)
        and dtype is None
        and device is None
        and copy is None
    ):
        try:  # the common case: torch's parser takes ~0.3 us for each keyword, even None
            return torch.asarray(obj)
        except OverflowError as e:
            raise InvalidArgumentError(f"obj: a value does not fit any torch integer dtype ({e})") from e
    dt, dev = native_dtype(dtype), native_device(device)
    if isinstance(obj, torch.Tensor):
        if dev is None:
            dev = obj.device  # torch.asarray would use the default device
        if copy is False and (dt not in (None, obj.dtype) or dev != obj.device):
            raise InvalidArgumentError("copy=False: asarray would need to copy obj (another dtype or device)")
        return torch.asarray(obj, dtype=dt, device=dev, copy=copy)
    try:
        out = torch.asarray(obj, dtype=dt, device=dev, copy=copy)
    except ValueError as e:
        if copy is False:
            raise InvalidArgumentError(f"copy=False: asarray would need to copy obj ({e})") from e
        raise
    except OverflowError as e:
        raise InvalidArgumentError(f"obj: a value does not fit any torch integer dtype ({e})") from e
    return out


@native_common_case(torch.empty, 1, arg_types=((int,),))
def empty(shape, *, dtype=None, device=None):
    if type(shape) is int and dtype is None and device is None:  # the common case, inline
        return torch.empty(shape)
    return _filled(torch.empty, shape, dtype, device)


@native_common_case(torch.empty_like, 1)
def empty_like(x, /, *, dtype=None, device=None):
    return torch.empty_like(x, dtype=native_dtype(dtype), device=native_device(device))


def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None):
    # torch.eye has no k
    n_cols = n_rows if n_cols is None else n_cols
    out = torch.zeros((n_rows, n_cols), dtype=native_dtype(dtype), device=native_device(device))
    if -n_rows < k < n_cols:
        out.diagonal(k).fill_(1)
    return out


def from_dlpack(x, /, *, device=None, copy=None):
    dev = native_device(device)
    if isinstance(x, torch.Tensor):
        out = x
    elif isinstance(x, np.ndarray) and torch.compiler.is_compiling():
        # dynamo traces NumPy as tensors and cannot read an ndarray's strides (a graph break
        # whose resumed frame then fails to build its guards); as_tensor is what it traces
        out = torch.as_tensor(x)
    elif isinstance(x, np.ndarray) and any(s < 0 for s in x.strides):
        # torch.from_dlpack aborts the process (a C++ error it cannot raise) on negative strides
        if copy is False:
            raise BufferError("from_dlpack: torch cannot import negative strides (x[::-1]) without a copy")
        out, copy = torch.from_numpy(np.ascontiguousarray(x)), None
    else:
        try:
            out = torch.from_dlpack(x)
        except BufferError:
            if copy is False:
                raise
            # a read-only NumPy array cannot be exported: copy it instead
            out = torch.asarray(x, copy=True)
            copy = None
    if dev is not None and out.device != dev:
        if copy is False:
            raise InvalidArgumentError("copy=False: from_dlpack would need a copy to change device")
        return out.to(dev)
    return out.clone() if copy else out


_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


@native_common_case(
    torch.full,
    2,
    arg_types=((tuple, list), (int, float, bool, complex)),  # (a 0-d tensor's dtype is the shim's)
    translated={"dtype": INEXACT_DTYPE_KEYWORD, "device": DEVICE_KEYWORD},
)  # (an int outside int64: torch raises, this shim explains)
def full(shape, fill_value, *, dtype=None, device=None):
    kind = type(fill_value)
    if dtype is None and device is None and (kind is float or kind is complex or kind is bool):
        # torch reads the dtype from a Python value as below (torch's parser charges ~250 ns for
        # None keywords)
        return torch.full(shape if type(shape) is tuple or type(shape) is list else _shape(shape), fill_value)
    if dtype is None and device is None and kind is int and _INT64_MIN <= fill_value <= _INT64_MAX:
        # torch reads an int as int64, as below, where this one fits (the keyword-free call: ~500 ns)
        return torch.full(shape if type(shape) is tuple or type(shape) is list else _shape(shape), fill_value)
    dt = native_dtype(dtype)
    if dt is None and isinstance(fill_value, torch.Tensor):
        dt = fill_value.dtype
    check_fill_value("full", fill_value, torch.int64 if dt is None else dt)
    dev = native_device(device)
    if dt is None and dev is None:
        return torch.full(_shape(shape), fill_value)
    return torch.full(_shape(shape), fill_value, dtype=dt, device=dev)


@native_common_case(  # (only ints can fail to fit, in integers: x's dtype, or dtype's)
    torch.full_like, 2, _NOT_INTEGER, translated={"dtype": INEXACT_DTYPE_KEYWORD, "device": DEVICE_KEYWORD}
)
def full_like(x, /, fill_value, *, dtype=None, device=None):
    if dtype is None and device is None and type(fill_value) is not int:
        return torch.full_like(x, fill_value)  # (torch's parser charges ~250 ns for None keywords)
    dt = native_dtype(dtype)
    check_fill_value("full_like", fill_value, x.dtype if dt is None else dt)
    dev = native_device(device)
    if (dt is None or dt is x.dtype) and (dev is None or dev == x.device):
        return torch.full_like(x, fill_value)  # x's own dtype and device: no keywords (~250 ns each)
    return torch.full_like(x, fill_value, dtype=dt, device=dev)


def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True):
    dt = native_dtype(dtype)
    if dt is None:
        cplx = isinstance(start, complex) or isinstance(stop, complex)
        dt = default_complex() if cplx else default_float()
    dev = native_device(device)
    if not endpoint:  # torch.linspace has no endpoint
        if num == 0:
            return torch.empty(0, dtype=dt, device=dev)
        step = (stop - start) / num
        return (torch.arange(num, dtype=torch.float64, device=dev) * step + start).to(dt)
    return torch.linspace(start, stop, num, dtype=dt, device=dev)


def meshgrid(*arrays, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise InvalidArgumentError(f"indexing: expected 'xy' or 'ij', got {indexing!r}")
    return tuple(torch.meshgrid(*arrays, indexing=indexing)) if arrays else ()


@native_common_case(torch.ones, 1, arg_types=((int,),))
def ones(shape, *, dtype=None, device=None):
    if type(shape) is int and dtype is None and device is None:  # the common case, inline
        return torch.ones(shape)
    return _filled(torch.ones, shape, dtype, device)


@native_common_case(torch.ones_like, 1)
def ones_like(x, /, *, dtype=None, device=None):
    return torch.ones_like(x, dtype=native_dtype(dtype), device=native_device(device))


@native_common_case(torch.tril, 1)
def tril(x, /, *, k=0):
    return torch.tril(x, k)


@native_common_case(torch.triu, 1)
def triu(x, /, *, k=0):
    return torch.triu(x, k)


@native_common_case(torch.zeros, 1, arg_types=((int,),))
def zeros(shape, *, dtype=None, device=None):
    if type(shape) is int and dtype is None and device is None:  # the common case, inline
        return torch.zeros(shape)
    return _filled(torch.zeros, shape, dtype, device)


@native_common_case(torch.zeros_like, 1)
def zeros_like(x, /, *, dtype=None, device=None):
    return torch.zeros_like(x, dtype=native_dtype(dtype), device=native_device(device))
