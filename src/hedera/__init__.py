"""hedera: one functional API over NumPy, PyTorch, JAX and TensorFlow.

Native arrays in, native arrays out. A call with array arguments runs on their
framework; a call without (creation, random) runs on the current backend::

    import hedera as hd
    y = hd.sin(torch_tensor) * 2          # a torch.Tensor
    with hd.use_backend("jax"):
        z = hd.linspace(0, 1, 5)          # a jax.Array

Importing hedera imports NumPy only; each framework is imported the first time
it is used or named, and hedera's own packages (``hd.nn``, ``hd.optim``, ``hd.grad``,
``hd.jit``, ``hd.tree``, ``hd.mech``...) the first time they are named. See docs/dispatch.md.
"""

from __future__ import annotations

import importlib as _importlib
import math as _math
import typing as _typing

from . import errors
from ._dispatch import (
    available_backends,
    backend_of,
    current_backend,
    is_array,
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
    CheckpointError,
    DtypeError,
    HederaError,
    InvalidArgumentError,
    InvalidAxisError,
    NoAutodiffError,
    NotAnArrayError,
    ShapeError,
    StateMismatchError,
    StructureError,
    UnknownBackendError,
    UnsupportedDtypeError,
    UnsupportedError,
)
from . import fft, linalg  # noqa: E402  (after the front they re-export)

# Eager, not lazy: importing the submodule hedera.jit (``from hedera.jit import in_jit``) binds it
# as this package's attribute ``jit``, which must stay the function. (A module subclass could undo
# that binding, but a module of a subclass type loses CPython's fast path for ``hd.sin`` lookups.)
from .jit import jit  # noqa: E402

# Loaded on first attribute access (PEP 562), so that ``import hedera`` stays cheap: public name ->
# (module, attribute), attribute None for the module itself. ``import hedera.nn`` works as ever.
_LAZY: dict[str, tuple[str, str | None]] = {
    **{name: (f"hedera.{name}", None) for name in (
        "tree", "io", "autodiff", "random", "nn_ops", "nn", "optim", "typing",
        "mech", "vision", "robot", "gym", "interop", "distributed", "helpers",
    )},
    "Container": ("hedera.container", "Container"),
    "save": ("hedera.io", "save"),
    "load": ("hedera.io", "load"),
    **{name: ("hedera.autodiff", name) for name in (
        "execute_with_gradients", "grad", "jacobian", "jvp", "stop_gradient", "value_and_grad", "vjp", "vmap",
    )},
}  # fmt: skip

if _typing.TYPE_CHECKING:  # what __getattr__ gives, for type checkers and editors
    from . import (
        autodiff,
        gym,
        helpers,
        interop,
        io,
        mech,
        nn,
        nn_ops,
        optim,
        random,
        robot,
        tree,
        typing,
        vision,
    )
    from .autodiff import (
        execute_with_gradients,
        grad,
        jacobian,
        jvp,
        stop_gradient,
        value_and_grad,
        vjp,
        vmap,
    )
    from .container import Container
    from .io import load, save


def __getattr__(name: str) -> _typing.Any:
    try:
        module_name, attribute = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'hedera' has no attribute {name!r}") from None
    try:
        module = _importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:  # a module it imports is missing: that error is the news
            raise
        raise AttributeError(
            f"module 'hedera' has no attribute {name!r} ({module_name} is missing)"
        ) from error
    value = module if attribute is None else getattr(module, attribute)
    globals()[name] = value  # later accesses skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


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
    "available_backends", "backend_of", "current_backend", "is_array", "namespace", "set_backend",
    "use_backend",
    "DType", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "bfloat16", "float32", "float64", "complex64", "complex128",
    "HederaError", "BackendMismatchError", "BackendNotInstalledError", "BroadcastError", "DtypeError",
    "InvalidArgumentError", "InvalidAxisError", "NoAutodiffError", "NotAnArrayError", "ShapeError",
    "UnknownBackendError", "UnsupportedDtypeError", "UnsupportedError",
    "StructureError", "StateMismatchError", "CheckpointError",
    "e", "inf", "nan", "pi", "newaxis", "errors", "fft", "linalg",
    "tree", "Container", "save", "load",
    "grad", "value_and_grad", "jacobian", "vjp", "jvp", "vmap", "stop_gradient", "execute_with_gradients",
    "jit", "random", "nn", "nn_ops", "optim", "typing",
    "mech", "vision", "robot", "gym", "interop", "helpers",
]  # fmt: skip
