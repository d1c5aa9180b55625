"""``hedera.backends.jax``: an Array API (2024.12) namespace over JAX arrays.

``jax.numpy`` implements the standard itself (JAX >= 0.4.32), so most functions
here are ``jax.numpy``'s own; the rest are thin shims, each saying why. Native
dtypes are NumPy dtype objects, which is what ``x.dtype`` of a JAX array is.

* 64-bit dtypes need ``jax.config.update("jax_enable_x64", True)``; hedera never
  turns it on. Requesting one while it is off raises
  :class:`~hedera.errors.UnsupportedDtypeError` instead of JAX's silent
  truncation, and default dtypes (``__array_namespace_info__().default_dtypes()``)
  follow the setting at call time. An array that already has a 64-bit dtype (a
  NumPy ``float64`` or ``int64`` array, a torch tensor) still becomes 32-bit when
  ``asarray``/``from_dlpack`` bring it to JAX with the mode off, as in JAX itself:
  only a dtype that is asked for raises.
* Everything traces under ``jax.jit`` except the functions whose output shape
  depends on the data (``nonzero``, ``unique_*``, boolean-mask indexing).

Known differences from NumPy that hedera does not paper over (each would need a
data-dependent check, which ``jit`` cannot do):

* XLA flushes subnormal floats to zero (``log2`` of the smallest float32 is
  ``-inf``, not ``-149``).
* Out-of-bounds integer indices are clamped (``x[i]``) or give NaN (``take``)
  instead of raising; the standard leaves them undefined.
* ``linalg.inv``/``solve`` of a singular matrix and ``cholesky`` of an
  indefinite one return ``inf``/``nan`` entries instead of raising.
* Complex ``mean`` and ``expm1`` follow the standard where NumPy does not
  (``mean([nanj])`` is ``0+nanj``; ``expm1(inf+0j)`` is ``inf+0j``).
"""

from __future__ import annotations

import math as _math

import numpy as _np

from ..._api import DTYPE_NAMES
from .. import _common
from . import fft, linalg
from ._core import all_devices as _all_devices
from ._core import default_complex as _default_complex
from ._core import default_device as _default_device
from ._core import default_float as _default_float
from ._core import default_int as _default_int
from ._core import x64_enabled as _x64_enabled
from .creation import *
from .data_type import *
from .device import *
from .elementwise import *
from .extras import *
from .indexing import *
from .main_linalg import *
from .manipulation import *
from .searching import *
from .set import *
from .sorting import *
from .statistical import *
from .utility import *

__array_api_version__ = "2024.12"

bool = _np.dtype("bool")
int8 = _np.dtype("int8")
int16 = _np.dtype("int16")
int32 = _np.dtype("int32")
int64 = _np.dtype("int64")
uint8 = _np.dtype("uint8")
uint16 = _np.dtype("uint16")
uint32 = _np.dtype("uint32")
uint64 = _np.dtype("uint64")
float32 = _np.dtype("float32")
float64 = _np.dtype("float64")
complex64 = _np.dtype("complex64")
complex128 = _np.dtype("complex128")

e = _math.e
inf = _math.inf
nan = _math.nan
pi = _math.pi
newaxis = None

_WIDE_NAMES = ("int64", "uint64", "float64", "complex128")


class _JaxNamespaceInfo(_common.NamespaceInfo):
    """The inspection API; dtypes and default dtypes follow JAX's x64 setting at call time."""

    def default_dtypes(self, *, device=None):
        return {
            "real floating": _default_float(),
            "complex floating": _default_complex(),
            "integral": _default_int(),
            "indexing": _default_int(),
        }

    def dtypes(self, *, device=None, kind=None):
        out = super().dtypes(device=device, kind=kind)
        if not _x64_enabled():
            for name in _WIDE_NAMES:
                out.pop(name, None)
        return out


_INFO = _JaxNamespaceInfo(
    native_dtypes={n: _np.dtype(n) for n in DTYPE_NAMES},
    default_dtypes={},
    devices=_all_devices,
    default_device=_default_device,
    # as JAX's own answer: neither works under jit (both do eagerly)
    capabilities={"boolean indexing": False, "data-dependent shapes": False, "max dimensions": 64},
)


def __array_namespace_info__() -> _common.NamespaceInfo:  # noqa: N807
    return _INFO
