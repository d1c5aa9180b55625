"""``hedera.backends.tensorflow``: an Array API (2024.12) namespace over TensorFlow tensors.

Works on TensorFlow 2.16 and later, without
``tf.experimental.numpy.experimental_enable_numpy_behavior()`` (hedera never changes
TensorFlow's global behaviour). Every function works on eager tensors, on
``tf.Variable``s, and, inside ``tf.function``, on symbolic tensors: sizes unknown at
trace time are read with ``tf.shape`` (ranks must be known; ``unstack`` needs the
static size of its axis, and ``allclose`` returns a bool tensor instead of a Python bool).

Conventions (see ``_core.py``): default dtypes float32, complex64 and int64; the
standard's type promotion, applied by the shims because TF ops refuse mixed dtypes;
all 13 standard dtypes supported (unsigned ones through exact bit-casts where TF
lacks kernels); NumPy's results where TF differs (NaN ordering in sorts, complex
special values, integer division by zero, ``floor_divide`` of floats). Devices are
spelled ``"cpu"``, ``"gpu:0"``; a device the machine lacks raises instead of TF's
silent fallback to the CPU. ``from_dlpack`` copies memory TF cannot use in place
(not 64-byte aligned), on which TF kernels would abort the process.

Functions TF computes as the standard says are TF's own generated op functions
(``sin`` is ``tf.math.sin``); binary functions call the raw op (``AddV2``, not
``tf.math.add``, which adds a name scope), so ``hd.add`` is faster than ``tf.add``.
The price: arguments of dtypes the standard leaves out for a function, which NumPy,
torch and JAX promote or accept (``sin`` of integers, ``add`` of booleans,
``logical_and`` of floats), raise :class:`~hedera.errors.DtypeError` here, TF having no
kernel for them; cast first (``hd.astype``) to run the same code on every backend.
"""

from __future__ import annotations

import math as _math

import tensorflow as _tf

from ..._api import DTYPE_NAMES
from .. import _common
from . import fft, linalg
from ._core import DEFAULT_FLOAT as _DEFAULT_FLOAT
from ._core import device_name as _device_name
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

bool = _tf.bool
int8 = _tf.int8
int16 = _tf.int16
int32 = _tf.int32
int64 = _tf.int64
uint8 = _tf.uint8
uint16 = _tf.uint16
uint32 = _tf.uint32
uint64 = _tf.uint64
float32 = _tf.float32
float64 = _tf.float64
complex64 = _tf.complex64
complex128 = _tf.complex128

e = _math.e
inf = _math.inf
nan = _math.nan
pi = _math.pi
newaxis = None


def _devices() -> list[str]:
    return [
        _device_name(d.name) for d in _tf.config.list_logical_devices() if d.device_type in ("CPU", "GPU")
    ]


def _default_device() -> str:
    return "gpu:0" if _tf.config.list_logical_devices("GPU") else "cpu"


_INFO = _common.NamespaceInfo(
    native_dtypes={n: getattr(_tf, n) for n in DTYPE_NAMES},
    default_dtypes={
        "real floating": _DEFAULT_FLOAT,
        "complex floating": complex64,
        "integral": int64,
        "indexing": int64,
    },
    devices=_devices,
    default_device=_default_device,
    capabilities={"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 254},
)


def __array_namespace_info__() -> _common.NamespaceInfo:  # noqa: N807
    return _INFO
