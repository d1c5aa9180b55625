"""The ``fft`` extension (jax backend).

``jax.numpy.fft`` keeps the input's precision, as the standard requires. The
transforms are aliases (JAX's ``norm=None`` default means ``"backward"``); only
the frequency functions need a shim, for ``dtype`` and ``device``.
"""

from __future__ import annotations

import jax.numpy as jnp

from ..._api import names_in
from .._common import native_common_case
from ._core import DTYPE_KEYWORD, native_device, native_dtype

__all__ = names_in("fft", "fft")  # the API table's hd.fft rows

fft = jnp.fft.fft
ifft = jnp.fft.ifft
fftn = jnp.fft.fftn
ifftn = jnp.fft.ifftn
rfft = jnp.fft.rfft
irfft = jnp.fft.irfft
rfftn = jnp.fft.rfftn
irfftn = jnp.fft.irfftn
hfft = jnp.fft.hfft
ihfft = jnp.fft.ihfft
fftshift = jnp.fft.fftshift
ifftshift = jnp.fft.ifftshift


@native_common_case(jnp.fft.fftfreq, 1, forwarded=("d",), translated={"dtype": DTYPE_KEYWORD})
def fftfreq(n, /, *, d=1.0, dtype=None, device=None):
    return jnp.fft.fftfreq(n, d=d, dtype=native_dtype(dtype), device=native_device(device))


@native_common_case(jnp.fft.rfftfreq, 1, forwarded=("d",), translated={"dtype": DTYPE_KEYWORD})
def rfftfreq(n, /, *, d=1.0, dtype=None, device=None):
    return jnp.fft.rfftfreq(n, d=d, dtype=native_dtype(dtype), device=native_device(device))
