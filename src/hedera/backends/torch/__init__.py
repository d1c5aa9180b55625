"""``hedera.backends.torch``: an Array API (2024.12) namespace over ``torch.Tensor``.

Functions are torch's own where torch conforms (``sin is torch.sin``) and thin
shims where it does not (each says why). Dtypes are torch's dtype objects
(``float32 is torch.float32``); every function taking a dtype also accepts hedera
dtypes and names. ``uint16``/``uint32``/``uint64`` are torch's own, with a subset of its
kernels: the functions it lacks for them raise ``hd.UnsupportedDtypeError``
(``_core.MISSING_KERNELS``, docs/backends.md).

The default floating dtype is torch's (``torch.get_default_dtype()``, float32
unless changed). Devices are ``"cpu"`` and ``"gpu:i"`` (CUDA device ``i``); torch
device objects are accepted too.
"""

from __future__ import annotations

import math as _math

import torch as _torch

from .. import _common
from . import fft, linalg
from ._core import LIMITATIONS, UNSUPPORTED_DTYPES, default_complex, default_float
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

bool = _torch.bool
int8 = _torch.int8
int16 = _torch.int16
int32 = _torch.int32
int64 = _torch.int64
uint8 = _torch.uint8
# torch has these dtype objects but few kernels for them: hedera treats them as unsupported
uint16 = _torch.uint16
uint32 = _torch.uint32
uint64 = _torch.uint64
float32 = _torch.float32
float64 = _torch.float64
complex64 = _torch.complex64
complex128 = _torch.complex128

e = _math.e
inf = _math.inf
nan = _math.nan
pi = _math.pi
newaxis = None


def _devices() -> list[_torch.device]:
    out = [_torch.device("cpu")]
    if _torch.cuda.is_available():
        out += [_torch.device("cuda", i) for i in range(_torch.cuda.device_count())]
    return out


def _default_device() -> _torch.device:
    return _torch.get_default_device()


class _NamespaceInfo(_common.NamespaceInfo):
    """The inspection API; default dtypes follow ``torch.get_default_dtype()`` when asked."""

    def default_dtypes(self, *, device=None):
        return {
            "real floating": default_float(),
            "complex floating": default_complex(),
            "integral": int64,
            "indexing": int64,
        }


_INFO = _NamespaceInfo(
    native_dtypes={
        "bool": bool,
        "int8": int8,
        "int16": int16,
        "int32": int32,
        "int64": int64,
        "uint8": uint8,
        "uint16": _torch.uint16,
        "uint32": _torch.uint32,
        "uint64": _torch.uint64,
        "float32": float32,
        "float64": float64,
        "complex64": complex64,
        "complex128": complex128,
    },
    default_dtypes={},
    devices=_devices,
    default_device=_default_device,
    capabilities={"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64},
)


def __array_namespace_info__() -> _common.NamespaceInfo:  # noqa: N807
    return _INFO
