"""``hedera.backends.numpy``: an Array API (2024.12) namespace over NumPy arrays.

Works on numpy 1.23 and later. Reductions and ufuncs on 0-d arrays return NumPy
scalars (``np.float64``), which behave as 0-d arrays; that is NumPy's own rule.
"""

from __future__ import annotations

import math as _math

import numpy as _np

from .. import _common
from . import fft, linalg
from .creation import *  # noqa: F403
from .data_type import *  # noqa: F403
from .device import *  # noqa: F403
from .elementwise import *  # noqa: F403
from .extras import *  # noqa: F403
from .indexing import *  # noqa: F403
from .linear_algebra import *  # noqa: F403
from .manipulation import *  # noqa: F403
from .searching import *  # noqa: F403
from .set import *  # noqa: F403
from .sorting import *  # noqa: F403
from .statistical import *  # noqa: F403
from .utility import *  # noqa: F403

__array_api_version__ = "2024.12"

bool = _np.dtype("bool")  # noqa: A001
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
    native_dtypes={
        n: _np.dtype(n)
        for n in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                  "float32", "float64", "complex64", "complex128")
    },  # fmt: skip
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


def __array_namespace_info__() -> _common.NamespaceInfo:
    return _INFO
