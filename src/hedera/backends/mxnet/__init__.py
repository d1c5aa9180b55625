"""``hedera.backends.mxnet``: an Array API (2024.12) namespace over MXNet's ``mxnet.numpy.ndarray``.

MXNet (1.9.1, its last release) needs ``numpy<=1.23.5``, so it runs in an
environment of its own (``.venv-mxnet``; see docs/mxnet.md).

* Built on ``mxnet.numpy`` (NumPy-compatible arrays, 0-d and empty shapes,
  NumPy broadcasting), not the legacy ``mx.nd``. Importing the backend turns on
  MXNet's NumPy shape semantics for the whole process.
* dtypes are MXNet's (NumPy scalar types: ``float32 is numpy.float32``):
  ``bool``, ``int8``, ``int32``, ``int64``, ``uint8``, ``float32``, ``float64``
  (and ``float16``). ``int16``, ``uint16``/``uint32``/``uint64`` and complex
  dtypes do not exist in MXNet: asking for one raises ``UnsupportedDtypeError``.
* The default floating dtype is float32 (MXNet's); integers default to int64.
* Floating-point math runs on MXNet's kernels and is differentiable through
  ``mx.autograd`` (``hd.grad``). What MXNet lacks or gets wrong is computed
  exactly on the host through NumPy (``_core.host``); those functions raise
  ``UnsupportedError`` under ``mx.autograd.record()`` instead of cutting the
  gradient. ``_core.LIMITATIONS`` lists them.
* Devices: ``"cpu"``, ``"gpu:i"`` or ``mx.Context`` objects.
"""

from __future__ import annotations

import math as _math

import mxnet as _mx
import numpy as _np

from .. import _common
from . import fft, linalg
from ._core import CAPABILITIES, DEFAULT_DTYPES, LIMITATIONS, MX_DTYPES, UNSUPPORTED_DTYPES
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

# NumPy dtype objects (``x.dtype`` of an MXNet array is the scalar type ``numpy.float32``, which
# compares equal to these)
bool = _np.dtype("bool")
int8 = _np.dtype("int8")
int32 = _np.dtype("int32")
int64 = _np.dtype("int64")
uint8 = _np.dtype("uint8")
float16 = _np.dtype("float16")
float32 = _np.dtype("float32")
float64 = _np.dtype("float64")

e = _math.e
inf = _math.inf
nan = _math.nan
pi = _math.pi
newaxis = None


def _devices() -> list:
    return [_mx.cpu()] + [_mx.gpu(i) for i in range(_mx.context.num_gpus())]


_INFO = _common.NamespaceInfo(
    native_dtypes={n: _np.dtype(d) for n, d in MX_DTYPES.items() if n != "float16"},
    default_dtypes={kind: _np.dtype(name) for kind, name in DEFAULT_DTYPES.items()},
    devices=_devices,
    default_device=_mx.context.current_context,
    capabilities=CAPABILITIES,
)


def __array_namespace_info__() -> _common.NamespaceInfo:  # noqa: N807
    return _INFO
