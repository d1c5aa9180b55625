"""hedera: one functional API over NumPy, PyTorch, JAX and TensorFlow.

Native arrays in, native arrays out. A call with array arguments runs on their
framework; a call without (creation, random) runs on the current backend::

    import hedera as hd
    y = hd.sin(torch_tensor) * 2          # a torch.Tensor
    with hd.use_backend("jax"):
        z = hd.linspace(0, 1, 5)          # a jax.Array

Importing hedera imports NumPy only; each framework is imported the first time
it is used or named. See docs/dispatch.md.
"""

from __future__ import annotations

import math as _math

from . import errors
from ._dispatch import (
    available_backends,
    backend_of,
    current_backend,
    namespace,
    set_backend,
    use_backend,
)
from ._front import *  # noqa: F403
from ._front import __all__ as _front_all
from ._front_manual import asarray, at, can_cast, dtype, finfo, iinfo, isdtype, result_type
from .dtypes import (
    DType,
    bfloat16,
    bool,
    complex64,
    complex128,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
)
from .errors import (
    BackendMismatchError,
    BackendNotInstalledError,
    BroadcastError,
    DtypeError,
    HederaError,
    InvalidArgumentError,
    InvalidAxisError,
    NoAutodiffError,
    NotAnArrayError,
    ShapeError,
    UnknownBackendError,
    UnsupportedDtypeError,
    UnsupportedError,
)
from . import fft, linalg  # noqa: E402  (after the front they re-export)
from . import tree
from .container import Container
from .io import load, save
from .autodiff import execute_with_gradients, grad, jacobian, jvp, stop_gradient, value_and_grad, vjp, vmap
from .jit import jit
from . import random
from . import nn_ops
from . import nn
from . import optim
from . import interop  # imports no framework until a converter is used

__version__ = "0.1.0"
__array_api_version__ = "2024.12"

e = _math.e
inf = _math.inf
nan = _math.nan
pi = _math.pi
newaxis = None

__all__ = [
    *_front_all,
    "asarray", "at", "can_cast", "dtype", "finfo", "iinfo", "isdtype", "result_type",
    "available_backends", "backend_of", "current_backend", "namespace", "set_backend", "use_backend",
    "DType", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "bfloat16", "float32", "float64", "complex64", "complex128",
    "HederaError", "BackendMismatchError", "BackendNotInstalledError", "BroadcastError", "DtypeError",
    "InvalidArgumentError", "InvalidAxisError", "NoAutodiffError", "NotAnArrayError", "ShapeError",
    "UnknownBackendError", "UnsupportedDtypeError", "UnsupportedError",
    "e", "inf", "nan", "pi", "newaxis", "errors", "fft", "linalg",
    "tree", "Container", "save", "load",
    "grad", "value_and_grad", "jacobian", "vjp", "jvp", "vmap", "stop_gradient", "execute_with_gradients",
    "jit", "random", "nn", "nn_ops", "optim", "interop",
]  # fmt: skip
