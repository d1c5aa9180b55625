"""``hedera.backends.numpy``: an Array API (2024.12) namespace over NumPy arrays.

Works on numpy 1.23 and later. Reductions and ufuncs on 0-d arrays return NumPy
scalars (``np.float64``), which behave as 0-d arrays; that is NumPy's own rule.

``asarray`` of Python data with an inexact ``dtype`` takes None as NaN and reads numeric strings,
as ``np.asarray`` does: telling them apart would cost a second conversion on every such call.
Without a ``dtype`` they are hedera's NotAnArrayError, as on every backend.
"""

from __future__ import annotations

import math as _math

import numpy as _np

from ..._api import DTYPE_NAMES
from .. import _common
from . import fft, linalg
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

_INFO = _common.NamespaceInfo(
    native_dtypes={n: _np.dtype(n) for n in DTYPE_NAMES},
    default_dtypes={
        "real floating": float64,
        "complex floating": complex128,
        "integral": int64,
        "indexing": int64,
    },
    devices=lambda: ["cpu"],
    default_device=lambda: "cpu",
    capabilities={"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64},
)


def __array_namespace_info__() -> _common.NamespaceInfo:  # noqa: N807
    return _INFO
