"""The ``fft`` extension (tensorflow backend), over ``tf.signal``.

``tf.signal`` transforms the innermost axis only, takes complex input for the
complex transforms and ``fft_length`` for the real ones, and always scales the
inverse by ``1/n``. Here each transform moves ``axis`` last (and back), pads or
crops to ``n``, and rescales for ``norm`` (``"backward"``: ``1/n`` on the inverse;
``"ortho"``: ``1/sqrt(n)`` both ways; ``"forward"``: ``1/n`` on the forward
transform). N-dimensional transforms are 1-d transforms over each axis in turn.
Real input becomes complex64 (float32) or complex128 (float64); integers
transform as float32.
"""

from __future__ import annotations

import math

import numpy as np
import tensorflow as tf

from ..._api import names_in
from ...errors import DtypeError, InvalidArgumentError
from .._common import native_common_case, normalize_axes, normalize_axis
from ._core import (
    _COMPLEX_ENUMS,
    _EAGER,
    COMPLEX,
    COMPLEX_OF,
    DEFAULT_FLOAT,
    REAL_FLOAT,
    native_dtype,
    ndim,
    on_device,
)
from ._private import gen_spectral_ops as _gs

__all__ = names_in("fft", "fft")  # the API table's hd.fft rows

_NORMS = ("backward", "ortho", "forward")


def _check_norm(norm):
    if norm not in _NORMS:
        raise InvalidArgumentError(f"norm: expected one of {_NORMS}, got {norm!r}")


def _as_complex(x):
    if x.dtype in COMPLEX:
        return x
    return tf.cast(x, COMPLEX_OF.get(x.dtype, tf.complex64))


def _as_real(x):
    if x.dtype in REAL_FLOAT:
        return x if x.dtype in (tf.float32, tf.float64) else tf.cast(x, tf.float32)
    if x.dtype in COMPLEX:
        raise DtypeError(f"x: expected a real array, got {x.dtype.name}")
    return tf.cast(x, DEFAULT_FLOAT)


def _fit(x, n):
    """``x`` cropped or zero-padded to length ``n`` along its last axis."""
    if not isinstance(n, int):  # the axis's own (run-time) length
        return x
    size = x.shape[-1]
    if size is not None:
        if size == n:
            return x
        if size > n:
            return x[..., :n]
        widths = [[0, 0]] * (ndim(x) - 1) + [[0, n - size]]
        return tf.pad(x, widths)
    x = x[..., :n]
    widths = tf.concat([tf.zeros([ndim(x) - 1, 2], tf.int32), [[0, n - tf.shape(x)[-1]]]], 0)
    return tf.pad(x, widths)


def _last(x, axis):
    """``(x with axis last, function moving the last axis back to axis)``."""
    rank = ndim(x)
    axis = normalize_axis(axis, rank)
    if axis == rank - 1:
        return x, lambda out: out
    perm = list(range(rank))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    return tf.transpose(x, perm), lambda out: tf.transpose(out, perm)


def _scale(out, factor):
    if isinstance(factor, (int, float)):
        return out if factor == 1 else out * tf.constant(factor, out.dtype)
    return out * tf.cast(factor, out.dtype)  # a float64 tensor: the length is known only at run time


def _length(x, n, default=None):
    """The transform length: ``n``, else ``default``, else the size of the last axis (a tensor if unknown)."""
    if n is None:
        n = default if default is not None else x.shape[-1]
        if n is None:
            return tf.shape(x)[-1]
    if n < 1:
        raise InvalidArgumentError(f"n: must be at least 1, got {n}")
    return n


def _factor(n, norm, inverse):
    """The scale to apply after TF's transform of length ``n`` (an int, or a tensor at run time)."""
    if norm == "backward":
        return 1
    if isinstance(n, int):
        size = math.sqrt(n) if norm == "ortho" else n
    else:
        size = tf.cast(n, tf.float64)
        size = tf.sqrt(size) if norm == "ortho" else size
    # TF's inverse transforms already divide by n
    return size if inverse else 1 / size


def _forward_factor(n, norm):
    return _factor(n, norm, inverse=False)


def _inverse_factor(n, norm):
    return _factor(n, norm, inverse=True)


def _plain(x, n, axis, norm) -> bool:
    """Whether a 1-d transform is TF's op on ``x`` as it is: complex ``x`` of rank 1 or more (eager),
    the last axis, its own length, no scaling (the common case: no checks, casts or moves to run)."""
    return (
        n is None
        and axis == -1
        and norm == "backward"
        and type(x) is _EAGER
        and x._datatype_enum() in _COMPLEX_ENUMS
        and x._rank() > 0
    )


# The C front calls TF's op itself (no shim frame) for a call with every keyword at its default:
# the op takes complex input only (a real or integer x raises: the shim casts it) of rank 1 or
# more (a 0-d x raises: the shim names the problem), and transforms the last axis at its own
# length without scaling, which is then the shim's answer too (eager, variables and tf.function;
# inside tf.function a tensor of unknown rank, which the shim refuses, gets the op's answer).
@native_common_case(_gs.fft, 1)
def fft(x, /, *, n=None, axis=-1, norm="backward"):
    """The 1-d discrete Fourier transform along ``axis``, of length ``n`` (crops or zero-pads)."""
    if _plain(x, n, axis, norm):
        return tf.signal.fft(x)
    _check_norm(norm)
    x, back = _last(_as_complex(x), axis)
    n = _length(x, n)
    return back(_scale(tf.signal.fft(_fit(x, n)), _forward_factor(n, norm)))


@native_common_case(_gs.ifft, 1)  # (as fft's)
def ifft(x, /, *, n=None, axis=-1, norm="backward"):
    """The inverse of :func:`fft`."""
    if _plain(x, n, axis, norm):
        return tf.signal.ifft(x)
    _check_norm(norm)
    x, back = _last(_as_complex(x), axis)
    n = _length(x, n)
    return back(_scale(tf.signal.ifft(_fit(x, n)), _inverse_factor(n, norm)))


def rfft(x, /, *, n=None, axis=-1, norm="backward"):
    """The 1-d transform of real ``x``: the ``n // 2 + 1`` non-negative frequency terms."""
    if n is None and type(axis) is int and norm == "backward" and type(x) is _EAGER:
        enum = x._datatype_enum()
        if enum in _RFFT_OF:  # the common case: tf.signal.rfft's op, its length cached
            shape = x.shape.as_list()
            if shape and (axis == -1 or axis == len(shape) - 1) and shape[-1] >= 1:
                return _gs.rfft(x, _fft_length(shape[-1]), Tcomplex=_RFFT_OF[enum])
    _check_norm(norm)
    x, back = _last(_as_real(x), axis)
    n = _length(x, n)
    out = tf.signal.rfft(_fit(x, n), fft_length=[n])
    return back(_scale(out, _forward_factor(n, norm)))


def irfft(x, /, *, n=None, axis=-1, norm="backward"):
    """The inverse of :func:`rfft`: a real signal of length ``n`` (default ``2 * (m - 1)``)."""
    if n is None and type(axis) is int and norm == "backward" and type(x) is _EAGER:
        enum = x._datatype_enum()
        if enum in _IRFFT_OF:  # the common case: tf.signal.irfft's op, its length cached
            shape = x.shape.as_list()
            if shape and (axis == -1 or axis == len(shape) - 1) and shape[-1] >= 2:
                return _gs.irfft(x, _fft_length(2 * (shape[-1] - 1)), Treal=_IRFFT_OF[enum])
    _check_norm(norm)
    x, back = _last(_as_complex(x), axis)
    m = x.shape[-1]
    if n is None and m is None:
        n = 2 * (tf.shape(x)[-1] - 1)
        out = tf.signal.irfft(x, fft_length=[n])
        return back(_scale(out, _inverse_factor(n, norm)))
    n = _length(x, n, default=None if m is None else 2 * (m - 1))
    out = tf.signal.irfft(_fit(x, n // 2 + 1), fft_length=[n])
    return back(_scale(out, _inverse_factor(n, norm)))


_RFFT_OF = {tf.float32.as_datatype_enum: tf.complex64, tf.float64.as_datatype_enum: tf.complex128}
_IRFFT_OF = {tf.complex64.as_datatype_enum: tf.float32, tf.complex128.as_datatype_enum: tf.float64}
_FFT_LENGTHS: dict[int, tf.Tensor] = {}


def _fft_length(n: int) -> tf.Tensor:
    """``[n]`` as the cached int32 tensor TF's real transforms take (tf.signal makes it each call)."""
    found = _FFT_LENGTHS.get(n)
    if found is None:
        with tf.device("/CPU:0"):
            found = tf.constant([n], tf.int32)
        if len(_FFT_LENGTHS) < 256:
            _FFT_LENGTHS[n] = found
    return found


_SWAP = {"backward": "forward", "ortho": "ortho", "forward": "backward"}


def hfft(x, /, *, n=None, axis=-1, norm="backward"):
    """The transform of a Hermitian-symmetric signal given by its first half: real, length ``n``."""
    _check_norm(norm)
    return irfft(tf.math.conj(_as_complex(x)), n=n, axis=axis, norm=_SWAP[norm])


def ihfft(x, /, *, n=None, axis=-1, norm="backward"):
    """The inverse of :func:`hfft`, for real ``x``."""
    _check_norm(norm)
    return tf.math.conj(rfft(x, n=n, axis=axis, norm=_SWAP[norm]))


def _axes_and_sizes(x, s, axes):
    rank = ndim(x)
    if axes is None:
        axes = list(range(rank)) if s is None else list(range(rank - len(s), rank))
    else:
        axes = [normalize_axis(a, rank, "axes") for a in axes]
    if s is None:
        s = [None] * len(axes)
    if len(s) != len(axes):
        raise InvalidArgumentError("s and axes must have the same length")
    return axes, [None if v == -1 else v for v in s]


def fftn(x, /, *, s=None, axes=None, norm="backward"):
    """The n-d transform over ``axes`` (all by default), with lengths ``s``."""
    axes, sizes = _axes_and_sizes(x, s, axes)
    out = _as_complex(x)
    for axis, n in zip(axes, sizes, strict=False):
        out = fft(out, n=n, axis=axis, norm=norm)
    return out


def ifftn(x, /, *, s=None, axes=None, norm="backward"):
    """The inverse of :func:`fftn`."""
    axes, sizes = _axes_and_sizes(x, s, axes)
    out = _as_complex(x)
    for axis, n in zip(axes, sizes, strict=False):
        out = ifft(out, n=n, axis=axis, norm=norm)
    return out


def rfftn(x, /, *, s=None, axes=None, norm="backward"):
    """The n-d transform of real ``x``: :func:`rfft` over the last of ``axes``, :func:`fft` over the rest."""
    axes, sizes = _axes_and_sizes(x, s, axes)
    out = rfft(x, n=sizes[-1], axis=axes[-1], norm=norm)
    for axis, n in zip(axes[:-1], sizes[:-1], strict=False):
        out = fft(out, n=n, axis=axis, norm=norm)
    return out


def irfftn(x, /, *, s=None, axes=None, norm="backward"):
    """The inverse of :func:`rfftn`: real; the last axis has length ``s[-1]`` (default ``2 * (m - 1)``)."""
    axes, sizes = _axes_and_sizes(x, s, axes)
    out = _as_complex(x)
    for axis, n in zip(axes[:-1], sizes[:-1], strict=False):
        out = ifft(out, n=n, axis=axis, norm=norm)
    return irfft(out, n=sizes[-1], axis=axes[-1], norm=norm)


def _freq_dtype(dtype):
    dt = native_dtype(dtype) or DEFAULT_FLOAT
    if dt not in REAL_FLOAT:
        raise DtypeError(f"dtype: expected a real floating dtype, got {dt.name}")
    return dt


def fftfreq(n, /, *, d=1.0, dtype=None, device=None):
    """The sample frequencies of an ``n``-point transform with sample spacing ``d`` (NumPy's order)."""
    dt = _freq_dtype(dtype)
    with on_device(device):
        return tf.constant(np.fft.fftfreq(n, d=d), dtype=dt)


def rfftfreq(n, /, *, d=1.0, dtype=None, device=None):
    """The non-negative sample frequencies of an ``n``-point real transform."""
    dt = _freq_dtype(dtype)
    with on_device(device):
        return tf.constant(np.fft.rfftfreq(n, d=d), dtype=dt)


def _shift(x, axes, sign):
    axes = list(normalize_axes(axes, ndim(x)))
    if not axes:
        return x
    shape = x.shape.as_list()
    dynamic = tf.shape(x)
    shifts = [sign * (shape[a] // 2) if shape[a] is not None else sign * (dynamic[a] // 2) for a in axes]
    return tf.roll(x, shifts, axes)


def fftshift(x, /, *, axes=None):
    """``x`` with the zero-frequency term moved to the centre of ``axes`` (all by default)."""
    return _shift(x, axes, 1)


def ifftshift(x, /, *, axes=None):
    """The inverse of :func:`fftshift`."""
    return _shift(x, axes, -1)
