"""The ``fft`` extension (mxnet backend).

MXNet has no complex dtypes, so every transform with a complex input or
result raises ``UnsupportedDtypeError`` (through the host path, which refuses to
bring a complex array back). ``fftshift``/``ifftshift``/``fftfreq``/``rfftfreq``
work (on the host); the frequencies default to float32.
"""

from __future__ import annotations

import numpy as np

from ..._api import names_in
from ..numpy import fft as _ref
from ._core import host, native_dtype

__all__ = names_in("fft", "fft")  # the API table's hd.fft rows

fft = host(_ref.fft, "fft.fft")
fftn = host(_ref.fftn, "fft.fftn")
fftshift = host(_ref.fftshift, "fft.fftshift")
hfft = host(_ref.hfft, "fft.hfft")
ifft = host(_ref.ifft, "fft.ifft")
ifftn = host(_ref.ifftn, "fft.ifftn")
ifftshift = host(_ref.ifftshift, "fft.ifftshift")
ihfft = host(_ref.ihfft, "fft.ihfft")
irfft = host(_ref.irfft, "fft.irfft")
irfftn = host(_ref.irfftn, "fft.irfftn")
rfft = host(_ref.rfft, "fft.rfft")
rfftn = host(_ref.rfftn, "fft.rfftn")
_fftfreq = host(_ref.fftfreq, "fftfreq")
_rfftfreq = host(_ref.rfftfreq, "rfftfreq")


def fftfreq(n, /, *, d=1.0, dtype=None, device=None):
    return _fftfreq(n, d=d, dtype=native_dtype(dtype) or np.float32, device=device)


def rfftfreq(n, /, *, d=1.0, dtype=None, device=None):
    return _rfftfreq(n, d=d, dtype=native_dtype(dtype) or np.float32, device=device)
