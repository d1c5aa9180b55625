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
import sys as _sys
import types as _types
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
    ArgumentTypeError,
    BackendMismatchError,
    BackendNotInstalledError,
    BroadcastError,
    CheckpointError,
    CheckpointFileError,
    CheckpointIsADirectoryError,
    CheckpointNotFoundError,
    CheckpointPermissionError,
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
from . import fft, linalg, typing  # noqa: E402  (after the front they re-export)

# The functions and classes of hedera's own modules, imported now (they are cheap next to the
# front); jit eagerly in any case, since importing the submodule hedera.jit (``from hedera.jit
# import in_jit``) binds it as this package's attribute ``jit``, which must stay the function.
from .jit import jit  # noqa: E402
from . import tree  # noqa: E402
from .container import Container  # noqa: E402
from .io import load, save  # noqa: E402
from .autodiff import (  # noqa: E402
    execute_with_gradients,
    grad,
    jacobian,
    jvp,
    stop_gradient,
    value_and_grad,
    vjp,
    vmap,
)
from .control import cond, fori_loop, map, scan, switch, while_loop  # noqa: E402, A004


class _Unloaded(_types.ModuleType):
    """``hedera.<name>`` before its first use: bound as this package's attribute, not imported.

    The first attribute it lacks imports the real module (``importlib.import_module``, which also
    rebinds ``hedera.<name>`` to it), copies the real namespace in and reads the attribute there,
    so a reference taken early (``from hedera import nn``) reads like the module from then on.

    Neither a module ``__getattr__`` (PEP 562) on hedera, since CPython does not specialise
    attribute loads on a module with one (every ``hd.sin`` would pay), nor
    :class:`importlib.util.LazyLoader`: a lazy module in ``sys.modules`` imports a submodule twice
    when that submodule is imported first (``from hedera.nn.module import Module`` before any
    ``hd.nn``: the import system reads the package's ``__path__``, which runs its ``__init__``
    and so imports the submodule, then imports the submodule again: two ``Module`` classes).
    """

    def __getattr__(self, attr: str) -> _typing.Any:
        module = _importlib.import_module(self.__name__)
        vars(self).update(vars(module))
        return getattr(module, attr)


# hedera's packages, imported on first use: ``hd.nn.Linear`` imports hedera.nn then, as
# ``import hedera.nn`` would (and does: that import finds nothing of hedera.nn in sys.modules and
# runs normally). The private ones were bound by the eager imports of earlier versions.
for _name in ("nn", "optim", "random", "nn_ops", "mech", "vision", "robot", "gym", "interop",
              "distributed", "helpers", "_diagnose"):  # fmt: skip
    _module = _sys.modules.get(f"{__name__}.{_name}")
    globals()[_name] = _Unloaded(f"{__name__}.{_name}") if _module is None else _module
del _name, _module

if _typing.TYPE_CHECKING:  # the lazy modules, for type checkers and editors
    from . import distributed, gym, helpers, interop, mech, nn, nn_ops, optim, random, robot, vision


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
    "StructureError", "StateMismatchError", "CheckpointError", "CheckpointFileError",
    "CheckpointIsADirectoryError", "CheckpointNotFoundError", "CheckpointPermissionError",
    "ArgumentTypeError",
    "e", "inf", "nan", "pi", "newaxis", "errors", "fft", "linalg",
    "tree", "Container", "save", "load",
    "grad", "value_and_grad", "jacobian", "vjp", "jvp", "vmap", "stop_gradient", "execute_with_gradients",
    "jit", "random", "nn", "nn_ops", "optim", "typing",
    "mech", "vision", "robot", "gym", "interop", "helpers",
    "cond", "switch", "while_loop", "fori_loop", "scan", "map",
]  # fmt: skip
