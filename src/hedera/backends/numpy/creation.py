"""Array creation functions (numpy backend)."""

from __future__ import annotations

import numpy as np

from ..._api import names_in
from ...errors import InvalidArgumentError, ShapeError
from .._common import check_fill_value, native_common_case
from ._core import check_device, native_dtype

__all__ = names_in("creation")  # the API table's creation rows


@native_common_case(np.arange, 1)
def arange(start, /, stop=None, step=1, *, dtype=None, device=None):
    if dtype is None and device is None:  # the common case: nothing to check or convert
        return np.arange(start, stop, step)
    check_device(device)
    return np.arange(start, stop, step, dtype=native_dtype(dtype))


def asarray(obj, /, *, dtype=None, device=None, copy=None):
    check_device(device)
    dt = native_dtype(dtype)
    if dt is not None and dt.kind in "iu" and not isinstance(obj, (np.ndarray, np.generic)):
        _check_ints_fit(obj, dt)  # numpy < 2 wraps Python ints that do not fit (300 as uint8 is 44)
    out = np.array(obj, dtype=dt, copy=True) if copy is True else np.asarray(obj, dtype=dt)
    if out.dtype == object and not (isinstance(obj, np.ndarray) and obj.dtype == object):
        raise InvalidArgumentError(
            f"asarray: obj is no array of numbers (NumPy made an object array of {obj!r:.60})"
        )
    if copy is False and out is not obj and not (isinstance(obj, np.ndarray) and np.shares_memory(out, obj)):
        raise InvalidArgumentError("copy=False: asarray would need to copy obj")
    return out


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


def full(shape, fill_value, *, dtype=None, device=None):
    kind = type(fill_value)
    if dtype is None and device is None and (kind is float or kind is complex or kind is bool):
        return np.full(shape, fill_value)  # (np.full reads the dtype as below: np.asarray(fill_value))
    check_device(device)
    dt = native_dtype(dtype)
    if dt is None and type(fill_value) is int:
        dt = np.dtype(np.int64)  # (np.asarray(2**70) would be an object array)
    elif dt is None and isinstance(fill_value, (bool, float, complex)):
        dt = np.asarray(fill_value).dtype  # Python scalar -> the default dtype of its kind
    check_fill_value("full", fill_value, dt)
    return np.full(shape, fill_value, dtype=dt)


def full_like(x, /, fill_value, *, dtype=None, device=None):
    if dtype is None and device is None and (type(fill_value) is not int or x.dtype.kind not in "iu"):
        return np.full_like(x, fill_value)  # nothing to check (only ints can fail to fit, in integers)
    check_device(device)
    dt = native_dtype(dtype)
    check_fill_value("full_like", fill_value, x.dtype if dt is None else dt)
    return np.full_like(x, fill_value, dtype=dt)


def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True):
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


@native_common_case(np.ones_like, 1)
def ones_like(x, /, *, dtype=None, device=None):
    check_device(device)
    return np.ones_like(x, dtype=native_dtype(dtype))


def tril(x, /, *, k=0):
    _check_matrices("tril", x)
    return np.tril(x, k)


def triu(x, /, *, k=0):
    _check_matrices("triu", x)
    return np.triu(x, k)


def _check_matrices(fname, x):
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
