"""The ``fft`` extension (torch backend): ``torch.fft``, with ``axis``/``axes`` for torch's ``dim``."""

from __future__ import annotations

import torch

from ..._api import names_in
from .._common import native_common_case
from ._core import default_float, native_device, native_dtype

__all__ = names_in("fft", "fft")  # the API table's hd.fft rows


@native_common_case(torch.fft.fft, 1, forwarded=("n", "norm"))
def fft(x, /, *, n=None, axis=-1, norm="backward"):
    return torch.fft.fft(x, n, axis, norm)


@native_common_case(torch.fft.ifft, 1, forwarded=("n", "norm"))
def ifft(x, /, *, n=None, axis=-1, norm="backward"):
    return torch.fft.ifft(x, n, axis, norm)


@native_common_case(torch.fft.fftn, 1, forwarded=("s", "norm"))
def fftn(x, /, *, s=None, axes=None, norm="backward"):
    return torch.fft.fftn(x, s, axes, norm)


@native_common_case(torch.fft.ifftn, 1, forwarded=("s", "norm"))
def ifftn(x, /, *, s=None, axes=None, norm="backward"):
    return torch.fft.ifftn(x, s, axes, norm)


@native_common_case(torch.fft.rfft, 1, forwarded=("n", "norm"))
def rfft(x, /, *, n=None, axis=-1, norm="backward"):
    return torch.fft.rfft(x, n, axis, norm)


@native_common_case(torch.fft.irfft, 1, forwarded=("n", "norm"))
def irfft(x, /, *, n=None, axis=-1, norm="backward"):
    return torch.fft.irfft(x, n, axis, norm)


@native_common_case(torch.fft.rfftn, 1, forwarded=("s", "norm"))
def rfftn(x, /, *, s=None, axes=None, norm="backward"):
    return torch.fft.rfftn(x, s, axes, norm)


@native_common_case(torch.fft.irfftn, 1, forwarded=("s", "norm"))
def irfftn(x, /, *, s=None, axes=None, norm="backward"):
    return torch.fft.irfftn(x, s, axes, norm)


@native_common_case(torch.fft.hfft, 1, forwarded=("n", "norm"))
def hfft(x, /, *, n=None, axis=-1, norm="backward"):
    return torch.fft.hfft(x, n, axis, norm)


@native_common_case(torch.fft.ihfft, 1, forwarded=("n", "norm"))
def ihfft(x, /, *, n=None, axis=-1, norm="backward"):
    return torch.fft.ihfft(x, n, axis, norm)


@native_common_case(torch.fft.fftfreq, 1)
def fftfreq(n, /, *, d=1.0, dtype=None, device=None):
    dt = native_dtype(dtype) or default_float()
    return torch.fft.fftfreq(n, d, dtype=dt, device=native_device(device))


@native_common_case(torch.fft.rfftfreq, 1)
def rfftfreq(n, /, *, d=1.0, dtype=None, device=None):
    dt = native_dtype(dtype) or default_float()
    return torch.fft.rfftfreq(n, d, dtype=dt, device=native_device(device))


def _shift(x, axes, sign):
    # torch.fft.fftshift takes floating point only; it is a roll by half of each axis
    axes = tuple(range(x.ndim)) if axes is None else (axes,) if isinstance(axes, int) else tuple(axes)
    if not axes:
        return x.clone()
    return torch.roll(x, [sign * (x.shape[a] // 2) for a in axes], axes)


#: the dtypes torch.fft.fftshift takes (it refuses integers and booleans)
_SHIFTABLE = frozenset({torch.float32, torch.float64, torch.complex64, torch.complex128})


@native_common_case(torch.fft.fftshift, 1, tuple(_SHIFTABLE))  # (a 0-d x: torch raises, this shim answers)
def fftshift(x, /, *, axes=None):
    # the common case: torch's own (the same roll, fewer steps; it cannot roll a 0-d tensor)
    if x.dtype in _SHIFTABLE and (axes is None or type(axes) is int) and x.ndim:
        return torch.fft.fftshift(x, axes)
    return _shift(x, axes, 1)


@native_common_case(torch.fft.ifftshift, 1, tuple(_SHIFTABLE))
def ifftshift(x, /, *, axes=None):
    if x.dtype in _SHIFTABLE and (axes is None or type(axes) is int) and x.ndim:
        return torch.fft.ifftshift(x, axes)
    return _shift(x, axes, -1)
