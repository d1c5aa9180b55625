"""Array creation functions (tensorflow backend).

Default dtypes are float32 (floats), complex64 and int64 (integers); TensorFlow's
own integer default (int32) is not used. TF tensors are immutable, so ``copy=False``
only fails where a conversion is needed (a NumPy array or a list is always copied).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import tensorflow as tf

from ..._api import names_in
from ...errors import InvalidArgumentError, ShapeError
from .._common import check_fill_value, check_nested_numbers
from ._core import (
    COMPLEX,
    DEFAULT_COMPLEX,
    DEFAULT_FLOAT,
    DEFAULT_INT,
    INTEGER,
    constant,
    default_dtype_of_scalar,
    is_scalar,
    native_device,
    native_dtype,
    ndim,
    on_device,
    shape_list,
    small_constant,
)
from ._private import EagerTensor, eager_context, gen_array_ops, gen_math_ops

__all__ = names_in("creation")  # the API table's creation rows

# NumPy's default dtypes -> this backend's, for inferring the dtype of Python data
_NUMPY_DEFAULTS = {np.dtype("float64"): DEFAULT_FLOAT, np.dtype("complex128"): DEFAULT_COMPLEX}


def _shape(shape: Any) -> Any:
    return (shape,) if isinstance(shape, int) else shape


def arange(start, /, stop=None, step=1, *, dtype=None, device=None):
    """Evenly spaced values in ``[start, stop)``; int64 for integer arguments, else float32.

    The length is ``ceil((stop - start) / step)``; element ``i`` is ``start + i * step``,
    computed in float64 and then cast (NumPy's rule), or in int64 for integer dtypes.
    """
    if stop is None:
        start, stop = 0, start
    dt = native_dtype(dtype)
    integral = all(isinstance(v, int) for v in (start, stop, step))
    if dt is None:
        dt = DEFAULT_INT if integral else DEFAULT_FLOAT
    if step == 0:
        raise InvalidArgumentError("step: must not be zero")
    with on_device(device):
        if integral and dt in INTEGER:
            n = max(-(-(stop - start) // step), 0)  # ceil division; tf.range raises when empty
            out = start + tf.range(n, dtype=tf.int64) * step
        else:
            n = max(int(np.ceil((stop - start) / step)), 0)
            out = start + tf.range(n, dtype=tf.float64) * step
        return tf.cast(out, dt)


def asarray(obj, /, *, dtype=None, device=None, copy=None):
    """``obj`` as a tensor. Python data takes the backend's defaults (int64, float32, complex64).

    A tensor with no dtype or device change is returned as it is (TF tensors are
    immutable, so sharing is safe); ``copy=True`` makes a real copy of its buffer.

    Raises
    ------
    InvalidArgumentError
        With ``copy=False`` for input that must be converted (NumPy arrays, sequences).
    """
    dt = native_dtype(dtype)
    if isinstance(obj, tf.Variable):
        obj = obj.read_value() if copy is not False else tf.convert_to_tensor(obj)
    if isinstance(obj, tf.Tensor):
        if dt is not None and obj.dtype is not dt:
            if copy is False:
                raise InvalidArgumentError(
                    f"copy=False: converting {obj.dtype.name} to {dt.name} needs a copy"
                )
            obj = tf.cast(obj, dt)
        elif copy is True:
            obj = tf.raw_ops.DeepCopy(x=obj)
        if device is not None:
            with on_device(device):
                obj = tf.identity(obj)
        return obj
    if copy is False:
        raise InvalidArgumentError(
            f"copy=False: a {type(obj).__name__} cannot become a tf.Tensor without a copy"
        )
    with on_device(device):
        return _from_python(obj, dt)


def _from_python(obj: Any, dt: tf.DType | None) -> tf.Tensor:
    if is_scalar(obj):
        dt = dt or default_dtype_of_scalar(obj)
        check_fill_value("asarray", obj, dt, "obj")  # constant() would wrap an int that does not fit
        return constant(obj, dt)
    if isinstance(obj, (list, tuple)) and _contains_tensor(obj):
        out = tf.convert_to_tensor(obj)  # works for symbolic tensors too
        return out if dt is None else tf.cast(out, dt)
    python_data = not isinstance(obj, (np.ndarray, np.generic)) and not hasattr(obj, "__array__")
    arr = np.asarray(obj)
    if arr.dtype.kind in "OU":  # an int beyond 64 bits, or no numbers at all
        check_nested_numbers(obj)
        raise InvalidArgumentError(
            f"asarray: obj is no array of numbers (NumPy made an object array of {obj!r:.60})"
        )
    if python_data and dt is None:  # Python data takes the backend's defaults
        if arr.dtype.kind == "i":
            arr = arr.astype(np.int64)
        dt = _NUMPY_DEFAULTS.get(arr.dtype)
    if python_data and dt is not None and dt.is_integer and arr.dtype.kind in "iu" and arr.size:
        for v in (int(arr.min()), int(arr.max())):  # the cast below would wrap them
            check_fill_value("asarray", v, dt, "obj")
    out = tf.constant(arr)
    return out if dt is None or out.dtype is dt else tf.cast(out, dt)


def _contains_tensor(obj: Any) -> bool:
    return any(
        isinstance(v, (tf.Tensor, tf.Variable)) or (isinstance(v, (list, tuple)) and _contains_tensor(v))
        for v in obj
    )


def empty(shape, *, dtype=None, device=None):
    return zeros(shape, dtype=dtype, device=device)


def empty_like(x, /, *, dtype=None, device=None):
    return zeros_like(x, dtype=dtype, device=device)


def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None):
    """The ``n_rows x n_cols`` matrix with ones on diagonal ``k`` (above the main one for ``k > 0``)."""
    n_cols = n_rows if n_cols is None else n_cols
    dt = native_dtype(dtype) or DEFAULT_FLOAT
    if k == 0 and dt is not tf.bool and device is None and type(n_rows) is int and type(n_cols) is int:
        ones = _filled((min(n_rows, n_cols),), dt, 1) if n_rows >= 0 and n_cols >= 0 else None
        if ones is not None:  # tf.eye's ops (ones on a diagonal) with their operands cached
            rows, cols = (-1, -1) if n_rows == n_cols else (n_rows, n_cols)
            zero = small_constant(0, dt)
            return gen_array_ops.matrix_diag_v3(ones, 0, rows, cols, zero, align="RIGHT_LEFT")
    with on_device(device):
        if k == 0 and dt is not tf.bool:  # the main diagonal: tf.eye (~2 ops, not 6)
            return tf.eye(n_rows, n_cols, dtype=dt)
        offsets = tf.range(n_cols)[None, :] - tf.range(n_rows)[:, None]
        return tf.cast(tf.equal(offsets, k), dt)


# TF kernels assume buffers aligned to EIGEN_MAX_ALIGN_BYTES (64 on AVX-512 builds) and
# abort the process on a misaligned one; DLPack imports do not check, so this module does
_TF_ALIGNMENT = 64


def _data_pointer(x) -> int | None:
    """The address of ``x``'s first element, where the object says (NumPy, torch, JAX), else None."""
    try:
        if isinstance(x, np.ndarray):
            return x.ctypes.data
        if hasattr(x, "data_ptr"):  # torch
            return x.data_ptr()
        if hasattr(x, "unsafe_buffer_pointer"):  # jax
            return x.unsafe_buffer_pointer()
        return x.__array_interface__["data"][0]
    except Exception:
        return None


def from_dlpack(x, /, *, device=None, copy=None):
    """A tensor sharing ``x``'s memory through DLPack (a copy with ``copy=True``).

    ``x`` is any object with ``__dlpack__`` (a torch tensor, a NumPy array, a JAX
    array). Memory TensorFlow cannot use in place (not 64-byte aligned, not
    contiguous, or read-only NumPy memory) is copied, unless ``copy=False``.

    Raises
    ------
    InvalidArgumentError
        With ``copy=False`` when the memory cannot be shared.
    """
    if isinstance(x, (tf.Tensor, tf.Variable)):
        return asarray(x, device=device, copy=copy)
    pointer = _data_pointer(x)
    shareable = pointer is not None and pointer % _TF_ALIGNMENT == 0
    if isinstance(x, np.ndarray):
        shareable = shareable and x.flags.c_contiguous and x.flags.writeable
    if not shareable:
        if copy is False:
            raise InvalidArgumentError("copy=False: x's memory cannot be shared with TensorFlow (alignment)")
        host = x if isinstance(x, np.ndarray) else np.from_dlpack(x)
        with on_device(device or "cpu"):
            out = tf.constant(np.array(host, order="C", copy=True))
    else:
        out = tf.experimental.dlpack.from_dlpack(x.__dlpack__())
        if copy:
            out = tf.raw_ops.DeepCopy(x=out)
    if device is not None:
        with on_device(device):
            out = tf.identity(out)
    return out


def full(shape, fill_value, *, dtype=None, device=None):
    """An array of ``shape`` filled with ``fill_value``; the dtype defaults to the scalar's kind's default."""
    dt = native_dtype(dtype)
    if dt is None:
        dt = default_dtype_of_scalar(fill_value) if is_scalar(fill_value) else None
    check_fill_value("full", fill_value, dt)  # TF would wrap an int that does not fit
    if device is None and dt is not None and is_scalar(fill_value):  # (tf.fill's op, without its wrapper)
        return tf.raw_ops.Fill(dims=_shape(shape), value=constant(fill_value, dt))
    with on_device(device):
        value = (
            constant(fill_value, dt) if is_scalar(fill_value) else tf.cast(fill_value, dt or fill_value.dtype)
        )
        return tf.fill(_shape(shape), value)


def full_like(x, /, fill_value, *, dtype=None, device=None):
    dt = native_dtype(dtype) or x.dtype
    check_fill_value("full_like", fill_value, dt)
    if device is None:  # the 0-d value broadcast (~5 us less than tf.fill's wrapper)
        return tf.raw_ops.BroadcastTo(input=constant(fill_value, dt), shape=tf.shape(x))
    with on_device(device):
        return tf.fill(tf.shape(x), constant(fill_value, dt))


def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True):
    """``num`` evenly spaced values from ``start`` to ``stop`` (included if ``endpoint``).

    Computed in double precision and cast, as NumPy does: ``start + i * step``, with
    the last value exactly ``stop`` when ``endpoint``.
    """
    dt = native_dtype(dtype)
    is_complex = isinstance(start, complex) or isinstance(stop, complex)
    if dt is None:
        dt = DEFAULT_COMPLEX if is_complex else DEFAULT_FLOAT
    work = tf.complex128 if is_complex or dt in COMPLEX else tf.float64
    if num < 0:
        raise InvalidArgumentError(f"num: must be non-negative, got {num}")
    div = (num - 1) if endpoint else num
    with on_device(device):
        start_t = constant(start, work)
        stop_t = constant(stop, work)
        steps = tf.cast(tf.range(num, dtype=tf.float64), work)
        if div > 0:
            out = start_t + steps * ((stop_t - start_t) / div)
            if endpoint and num > 1:
                out = tf.concat([out[:-1], stop_t[None]], axis=0)
        else:
            out = start_t + steps * (stop_t - start_t)
        return tf.cast(out, dt)


def meshgrid(*arrays, indexing="xy"):
    """Coordinate arrays from 1-d arrays; ``indexing`` is ``"xy"`` (Cartesian) or ``"ij"`` (matrix).

    Built with reshapes and broadcasts (``tf.meshgrid`` multiplies by ones, which
    aborts the process for booleans).
    """
    if indexing not in ("xy", "ij"):
        raise InvalidArgumentError(f"indexing: expected 'xy' or 'ij', got {indexing!r}")
    n = len(arrays)
    sizes = [tf.size(a) if a.shape.num_elements() is None else a.shape.num_elements() for a in arrays]
    axes = list(range(n))
    if indexing == "xy" and n > 1:
        axes[0], axes[1] = 1, 0
    shape = [sizes[axes.index(i)] for i in range(n)]
    out = []
    for a, axis in zip(arrays, axes, strict=True):
        target = [1] * n
        target[axis] = -1
        out.append(tf.broadcast_to(tf.reshape(a, target), shape))
    return tuple(out)


def ones(shape, *, dtype=None, device=None):
    dt = native_dtype(dtype) or DEFAULT_FLOAT
    if device is None:
        filled = _filled(shape, dt, 1)
        if filled is not None:
            return filled
    with on_device(device):
        return tf.ones(_shape(shape), dtype=dt)


def ones_like(x, /, *, dtype=None, device=None):
    if dtype is None:
        if device is None:
            return gen_array_ops.ones_like(x)  # tf.ones_like's value, one op (TF's: Shape and Fill)
        if type(x) is EagerTensor:
            # the op, where it runs on the device asked for (x's, as a rule), without a tf.device
            # context (~10 us a call on the shared 2-core machine)
            want = native_device(device)
            out = gen_array_ops.ones_like(x)
            if native_device(out.device) == want:
                return out
    with on_device(device):
        return tf.ones_like(x, dtype=native_dtype(dtype))


# ---- eager zeros and ones as one op, their operands cached ---------------------------------------
#
# tf.zeros(shape) makes its value from NumPy on every call (~20 us for a small shape); TF's Fill op
# with the shape and the value cached as tensors gives the same tensor for a third of that.

_FILL_DIMS: dict[tuple[int, ...], tf.Tensor] = {}
_FILL_CACHE_SIZE = 256


def _filled(shape: Any, dt: tf.DType, value: int) -> tf.Tensor | None:
    """An eager tensor of ``shape`` (ints) filled with ``value`` (0 or 1) in ``dt``; None where
    ``shape`` is not a sequence of non-negative ints, or inside ``tf.function``."""
    key = (shape,) if type(shape) is int else tuple(shape) if type(shape) in (tuple, list) else None
    if key is None or not all(type(d) is int and d >= 0 for d in key):
        return None
    ctx = eager_context()
    if ctx is None or not ctx.executing_eagerly():
        return None
    dims = _FILL_DIMS.get(key)
    if dims is None:
        with tf.device("/CPU:0"):
            dims = tf.constant(np.array(key, np.int64))
        if len(_FILL_DIMS) < _FILL_CACHE_SIZE:
            _FILL_DIMS[key] = dims
    return gen_array_ops.fill(dims, small_constant(value, dt))


def _band_mask(x, k, upper):
    shape = shape_list(x)
    rows = tf.range(shape[-2])[:, None]
    cols = tf.range(shape[-1])[None, :]
    return cols - rows >= k if upper else cols - rows <= k


_BAND_MASKS: dict[tuple[int, int, int, bool], tf.Tensor] = {}


def _eager_band_mask(x, k, upper):
    """``_band_mask`` of an eager ``x`` (with an int ``k``) as a host constant from NumPy, cached for
    small matrices; None otherwise (its 5 ops and TF's conversions of their operands: ~0.6 ms)."""
    if type(x) is not EagerTensor or type(k) is not int:
        return None
    rows, cols = x.shape[-2], x.shape[-1]
    key = (rows, cols, k, upper)
    found = _BAND_MASKS.get(key)
    if found is None:
        # np.tri: col - row <= k; its complement at k - 1: col - row >= k
        mask = ~np.tri(rows, cols, k - 1, dtype=bool) if upper else np.tri(rows, cols, k, dtype=bool)
        with tf.device("/CPU:0"):
            found = tf.constant(mask)
        if rows * cols <= 4096 and len(_BAND_MASKS) < 64:
            _BAND_MASKS[key] = found
    return found


def _triangle(x, k, upper):
    mask = _eager_band_mask(x, k, upper)
    if mask is None:
        return tf.where(_band_mask(x, k, upper), x, tf.zeros((), x.dtype))
    return gen_math_ops.select_v2(mask, x, small_constant(0, x.dtype))


def tril(x, /, *, k=0):
    """The lower triangle of (each matrix in) ``x``: elements with ``col - row <= k``; zeros above."""
    if ndim(x) < 2:
        raise ShapeError("tril: x must have at least two dimensions")
    return _triangle(x, k, upper=False)


def triu(x, /, *, k=0):
    """The upper triangle of (each matrix in) ``x``: elements with ``col - row >= k``; zeros below."""
    if ndim(x) < 2:
        raise ShapeError("triu: x must have at least two dimensions")
    return _triangle(x, k, upper=True)


def zeros(shape, *, dtype=None, device=None):
    dt = native_dtype(dtype) or DEFAULT_FLOAT
    if device is None:
        filled = _filled(shape, dt, 0)
        if filled is not None:
            return filled
    with on_device(device):
        return tf.zeros(_shape(shape), dtype=dt)


def zeros_like(x, /, *, dtype=None, device=None):
    if dtype is None and device is None and type(x) is EagerTensor and x.device.endswith("CPU:0"):
        if _only_cpus():  # tf.zeros_like's op, without its placement on x's device (~6 us)
            return gen_array_ops.zeros_like(x)
    with on_device(device):
        return tf.zeros_like(x, dtype=native_dtype(dtype))


_ONLY_CPUS: list[bool] = []


def _only_cpus() -> bool:
    """Whether TF sees no device but CPUs (then every op runs where an eager CPU tensor is)."""
    if not _ONLY_CPUS:
        _ONLY_CPUS.append(all(d.device_type == "CPU" for d in tf.config.list_logical_devices()))
    return _ONLY_CPUS[0]
