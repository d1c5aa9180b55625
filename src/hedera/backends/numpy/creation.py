"""Array creation functions (numpy backend)."""

from __future__ import annotations

import numpy as np

from ..._api import names_in
from ...errors import InvalidArgumentError, ShapeError
from .._common import check_fill_value, check_nested_numbers, native_common_case
from ._core import check_device, native_dtype

__all__ = names_in("creation")  # the API table's creation rows


@native_common_case(np.arange, 1)
def arange(start, /, stop=None, step=1, *, dtype=None, device=None):
    if dtype is None and device is None:  # the common case: nothing to check or convert
        return np.arange(start, stop, step)
    check_device(device)
    return np.arange(start, stop, step, dtype=native_dtype(dtype))


def asarray(obj, /, *, dtype=None, device=None, copy=None):
    if dtype is None and device is None and copy is None:  # the common case: nothing to convert or check
        out = np.asarray(obj)
        if out.dtype.kind in "OU" and not (isinstance(obj, np.ndarray) and obj.dtype == out.dtype):
            _not_numbers(obj)
        return out
    check_device(device)
    dt = native_dtype(dtype)
    if dt is not None and dt.kind in "iu" and not isinstance(obj, (np.ndarray, np.generic)):
        _check_ints_fit(obj, dt)  # numpy < 2 wraps Python ints that do not fit (300 as uint8 is 44)
    out = np.array(obj, dtype=dt, copy=True) if copy is True else np.asarray(obj, dtype=dt)
    if out.dtype.kind in "OU" and not (isinstance(obj, np.ndarray) and obj.dtype == out.dtype):
        _not_numbers(obj)
    if copy is False and out is not obj and not (isinstance(obj, np.ndarray) and np.shares_memory(out, obj)):
        raise InvalidArgumentError("copy=False: asarray would need to copy obj")
    return out


def _not_numbers(obj):
    """NumPy made an array of objects or of strings: a ragged nesting or an item of another kind
    (check_nested_numbers), else ints beyond 64 bits."""
    check_nested_numbers(obj)
    raise InvalidArgumentError(
        f"asarray: obj is no array of numbers (NumPy made an object array of {obj!r:.60})"
    )


def _check_ints_fit(obj, dt):
    values = np.asarray(obj)
    if values.dtype.kind in "iu" and values.size:
        for v in (int(values.min()), int(values.max())):
            check_fill_value("asarray", v, dt, "obj")


@native_common_case(np.empty, 1)
def empty(shape, *, dtype=None, device=None):
    if dtype is None and device is None:
        return np.empty(shape)
    check_device(device)
    return np.empty(shape, dtype=native_dtype(dtype) or np.float64)


@native_common_case(np.empty_like, 1)
def empty_like(x, /, *, dtype=None, device=None):
    check_device(device)
    return np.empty_like(x, dtype=native_dtype(dtype))


@native_common_case(np.eye, (1, 2))
def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None):
    if dtype is None and device is None:
        return np.eye(n_rows, n_cols, k)
    check_device(device)
    return np.eye(n_rows, n_cols, k=k, dtype=native_dtype(dtype) or np.float64)


def from_dlpack(x, /, *, device=None, copy=None):
    check_device(device)
    try:
        out = np.from_dlpack(x)
    except TypeError:  # numpy < 1.25 cannot import bool arrays through DLPack
        if str(getattr(x, "dtype", "")).rpartition(".")[2] != "bool":
            raise
        out = np.asarray(x)
    return out.copy() if copy else out


if np.lib.NumpyVersion(np.__version__) >= "1.25.0":  # (older ones cannot import bool arrays: above)
    from_dlpack = native_common_case(np.from_dlpack, 1)(from_dlpack)


#: Python scalar class -> the dtype kinds into which ``out.fill(value)`` writes what np.full's
#: ``copyto(out, value, casting="unsafe")`` writes, warnings included (checked on every value
#: class against every dtype; a float into an integer dtype, a complex into a real one, a huge
#: int into bool differ: they stay with np.full)
_FILLS_AS_COPYTO = {float: "fc", complex: "c", bool: "b", int: "iufc"}

#: a Python scalar's dtype in np.full without a dtype (``np.asarray(fill_value).dtype``); an int
#: is int64 (np.asarray(2**70) would be an object array), its range checked
_DEFAULT_FILL_DTYPE = {
    float: np.dtype(np.float64),
    complex: np.dtype(np.complex128),
    bool: np.dtype(np.bool_),
    int: np.dtype(np.int64),
}


def _filled(out, fill_value):
    """``out`` (new, uninitialised) filled with ``fill_value``: np.full's and np.full_like's
    answer without their ~300-400 ns of Python (``out.fill`` where it matches their copyto:
    :data:`_FILLS_AS_COPYTO`)."""
    if out.dtype.kind in _FILLS_AS_COPYTO.get(type(fill_value), ""):
        out.fill(fill_value)
    else:
        np.copyto(out, fill_value, casting="unsafe")
    return out


def full(shape, fill_value, *, dtype=None, device=None):
    check_device(device)
    dt = _DEFAULT_FILL_DTYPE.get(type(fill_value)) if dtype is None else native_dtype(dtype)
    if dt is None:  # a NumPy scalar or 0-d array fill_value: np.full reads its dtype
        dt = np.asarray(fill_value).dtype
    check_fill_value("full", fill_value, dt)
    return _filled(np.empty(shape, dt), fill_value)


def full_like(x, /, fill_value, *, dtype=None, device=None):
    if device is not None:
        check_device(device)
    dt = None if dtype is None else native_dtype(dtype)
    if type(fill_value) is int:  # (only ints can fail to fit, in integers)
        check_fill_value("full_like", fill_value, x.dtype if dt is None else dt)
    if type(x) is not np.ndarray:  # (a subclass's own fill rules: np.full_like's)
        return np.full_like(x, fill_value, dtype=dt)
    return _filled(np.empty_like(x, dt), fill_value)


def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True):
    if dtype is None and device is None:
        t1, t2 = start.__class__, stop.__class__
        if (t1 is float or t1 is int) and (t2 is float or t2 is int):
            # np.linspace's own dtype for Python reals is float64, the one below; without dtype= it
            # skips its np.issubdtype test of it (~0.5 us), and positional arguments parse faster
            return np.linspace(start, stop, num, endpoint)
    check_device(device)
    dt = native_dtype(dtype)
    if dt is None:
        dt = np.complex128 if isinstance(start, complex) or isinstance(stop, complex) else np.float64
    return np.linspace(start, stop, num, endpoint=endpoint, dtype=dt)


def meshgrid(*arrays, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise InvalidArgumentError(f"indexing: expected 'xy' or 'ij', got {indexing!r}")
    return tuple(np.meshgrid(*arrays, indexing=indexing))


@native_common_case(np.ones, 1)
def ones(shape, *, dtype=None, device=None):
    if dtype is None and device is None:
        return np.ones(shape)
    check_device(device)
    return np.ones(shape, dtype=native_dtype(dtype) or np.float64)


def ones_like(x, /, *, dtype=None, device=None):
    if device is not None:
        check_device(device)
    dt = None if dtype is None else native_dtype(dtype)
    if x.__class__ is np.ndarray:
        # np.ones_like's answer (np.empty_like, then copyto(out, 1, casting="unsafe"), which writes what
        # fill(1) writes into these kinds) without its ~0.5 us of Python
        out = np.empty_like(x, dt)
        if out.dtype.kind in "biufc":
            out.fill(1)
            return out
    return np.ones_like(x, dtype=dt)


def tril(x, /, *, k=0):
    _check_matrices("tril", x)
    return np.tril(x, k)


def triu(x, /, *, k=0):
    _check_matrices("triu", x)
    return np.triu(x, k)


def _check_matrices(fname, x):
    if x.__class__ is np.ndarray and x.ndim > 1:  # (np.ndim: ~0.15 us)
        return
    if np.ndim(x) < 2:  # np.tril reads a 1-d x as a row repeated into a square matrix
        raise ShapeError(f"{fname}: x must have at least two dimensions, got shape {np.shape(x)}")


@native_common_case(np.zeros, 1)
def zeros(shape, *, dtype=None, device=None):
    if dtype is None and device is None:
        return np.zeros(shape)
    check_device(device)
    return np.zeros(shape, dtype=native_dtype(dtype) or np.float64)


@native_common_case(np.zeros_like, 1)
def zeros_like(x, /, *, dtype=None, device=None):
    check_device(device)
    return np.zeros_like(x, dtype=native_dtype(dtype))
