"""The ``fft`` extension (numpy backend).

numpy < 2 computes in double precision; results are cast back so that the
dtype follows the input, as the standard requires.
"""

from __future__ import annotations

import numpy as np

from ..._api import names_in
from ...errors import DtypeError
from .._common import native_common_case
from ._core import check_device, native_dtype

__all__ = names_in("fft", "fft")  # the API table's hd.fft rows

_COMPLEX_OF = {np.dtype("float32"): np.complex64, np.dtype("complex64"): np.complex64}
_REAL_OF = {np.dtype("float32"): np.float32, np.dtype("complex64"): np.float32}


def _complex(x, out):
    return out.astype(_COMPLEX_OF.get(np.asarray(x).dtype, np.complex128), copy=False)


def _real_input(fname, x):
    if np.iscomplexobj(x):  # numpy < 2 drops the imaginary part (with a warning)
        raise DtypeError(f"fft.{fname}: x must be real, got {np.asarray(x).dtype}")
    return x


#: numpy >= 2 computes in the input's precision: for these dtypes the shims below are NumPy's own function
#: (the C front calls it directly); numpy < 2 computes in double precision (the casts above)
_OWN_PRECISION = np.lib.NumpyVersion(np.__version__) >= "2.0.0"
_INEXACT = tuple(np.dtype(t) for t in "fdFD")
_FLOATING = tuple(np.dtype(t) for t in "fd")


def _native(fn, dtypes, forwarded):
    return native_common_case(fn, 1, dtypes, forwarded) if _OWN_PRECISION else (lambda shim: shim)


def _real(x, out):
    return out.astype(_REAL_OF.get(np.asarray(x).dtype, np.float64), copy=False)


@_native(np.fft.fft, _INEXACT, ("n", "axis", "norm"))
def fft(x, /, *, n=None, axis=-1, norm="backward"):
    return _complex(x, np.fft.fft(x, n=n, axis=axis, norm=norm))


@_native(np.fft.ifft, _INEXACT, ("n", "axis", "norm"))
def ifft(x, /, *, n=None, axis=-1, norm="backward"):
    return _complex(x, np.fft.ifft(x, n=n, axis=axis, norm=norm))


@_native(np.fft.fftn, _INEXACT, ("s", "axes", "norm"))
def fftn(x, /, *, s=None, axes=None, norm="backward"):
    return _complex(x, np.fft.fftn(x, s=s, axes=axes, norm=norm))


@_native(np.fft.ifftn, _INEXACT, ("s", "axes", "norm"))
def ifftn(x, /, *, s=None, axes=None, norm="backward"):
    return _complex(x, np.fft.ifftn(x, s=s, axes=axes, norm=norm))


@_native(np.fft.rfft, _FLOATING, ("n", "axis", "norm"))
def rfft(x, /, *, n=None, axis=-1, norm="backward"):
    return _complex(x, np.fft.rfft(_real_input("rfft", x), n=n, axis=axis, norm=norm))


@_native(np.fft.irfft, _INEXACT, ("n", "axis", "norm"))
def irfft(x, /, *, n=None, axis=-1, norm="backward"):
    return _real(x, np.fft.irfft(x, n=n, axis=axis, norm=norm))


@_native(np.fft.rfftn, _FLOATING, ("s", "axes", "norm"))
def rfftn(x, /, *, s=None, axes=None, norm="backward"):
    return _complex(x, np.fft.rfftn(_real_input("rfftn", x), s=s, axes=axes, norm=norm))


@_native(np.fft.irfftn, _INEXACT, ("s", "axes", "norm"))
def irfftn(x, /, *, s=None, axes=None, norm="backward"):
    return _real(x, np.fft.irfftn(x, s=s, axes=axes, norm=norm))


@_native(np.fft.hfft, _INEXACT, ("n", "axis", "norm"))
def hfft(x, /, *, n=None, axis=-1, norm="backward"):
    return _real(x, np.fft.hfft(x, n=n, axis=axis, norm=norm))


@_native(np.fft.ihfft, _FLOATING, ("n", "axis", "norm"))
def ihfft(x, /, *, n=None, axis=-1, norm="backward"):
    return _complex(x, np.fft.ihfft(_real_input("ihfft", x), n=n, axis=axis, norm=norm))


@native_common_case(np.fft.fftfreq, 1)
def fftfreq(n, /, *, d=1.0, dtype=None, device=None):
    check_device(device)
    return np.fft.fftfreq(n, d=d).astype(native_dtype(dtype) or np.float64, copy=False)


@native_common_case(np.fft.rfftfreq, 1)
def rfftfreq(n, /, *, d=1.0, dtype=None, device=None):
    check_device(device)
    return np.fft.rfftfreq(n, d=d).astype(native_dtype(dtype) or np.float64, copy=False)


def fftshift(x, /, *, axes=None):
    return np.fft.fftshift(x, axes=axes)


def ifftshift(x, /, *, axes=None):
    return np.fft.ifftshift(x, axes=axes)
