"""The C hot path of the front functions (``hedera/_fastfront.c``), and its fallbacks.

``_front.py`` passes each generated front through :func:`accelerate`. With the extension built
(the normal case: ``pip install`` compiles it), the public ``hd.sin`` becomes a builtin function
that looks up the backend function by argument type and calls it without entering Python; the
generated Python function stays as its slow path and error path. Without the extension (no C
compiler at install, or ``HEDERA_PURE_PYTHON=1`` in the environment at import) ``accelerate``
returns the Python front unchanged: same behaviour, one Python frame more per call.

torch.compile cannot trace into C, so once dynamo is imported each builtin front is registered
with it as a function whose Python polyfill is the Python front
(``torch.compiler.substitute_in_graph``); dynamo then inlines the Python front as before, with no
graph break. Importing dynamo costs about a second, so hedera does not import it: the registration
runs when something else (``torch.compile``, ``hd.jit``) imports it (:class:`_AfterImport`).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import inspect
import os
import sys
import warnings
from collections.abc import Callable
from types import FunctionType, ModuleType
from typing import Any, TypeVar

__all__ = ["ACCELERATED", "CURRENT", "SEQUENCE", "VARIADIC", "accelerate", "enabled", "python_front"]

F = TypeVar("F", bound=Callable[..., Any])

EXPECTED_ABI = 3  # FASTFRONT_ABI in _fastfront.c: a stale build (an old .so in place) is not used
SEQUENCE = -1  # the front's arrays are the elements of its first argument (concat, stack)
VARIADIC = -2  # the front's arrays are all its positional arguments (meshgrid, broadcast_arrays)
CURRENT = -3  # the front has no arrays: it runs on the current backend (zeros, arange)

#: the builtin front -> the Python front it accelerates
ACCELERATED: dict[Callable[..., Any], FunctionType] = {}


def _load_extension() -> ModuleType | None:
    if os.environ.get("HEDERA_PURE_PYTHON", "") not in ("", "0"):
        return None
    try:
        from . import _fastfront
    except ImportError:
        return None
    if getattr(_fastfront, "ABI", None) != EXPECTED_ABI:
        warnings.warn(
            "hedera._fastfront is a stale build (reinstall hedera to rebuild it); "
            "using the pure-Python fronts",
            RuntimeWarning,
            stacklevel=2,
        )
        return None
    return _fastfront


def _connect_current_backend(extension: ModuleType) -> None:
    """Hand the C fronts of arity CURRENT what hedera._dispatch.current_backend reads."""
    from . import _dispatch

    extension.connect_current_backend(
        _dispatch._context_backend, vars(_dispatch), "_process_backend", _dispatch._TRACE_STACK
    )


_extension = _load_extension()
if _extension is not None:
    _connect_current_backend(_extension)


def enabled() -> bool:
    """Whether the fronts use the C hot path (False: pure Python, see the module docstring)."""
    return _extension is not None


def _text_signature(front: FunctionType) -> str:
    """``front``'s signature without annotations, in the form builtins carry it (``(x, /)``)."""
    signature = inspect.signature(front)
    plain = [p.replace(annotation=inspect.Parameter.empty) for p in signature.parameters.values()]
    return str(signature.replace(parameters=plain, return_annotation=inspect.Signature.empty))


def accelerate(front: F, cache: dict, arity: int) -> F:
    """``front`` as a builtin with the C hot path (see the module docstring), or ``front`` itself.

    ``cache`` is the front's dict from argument type(s) to backend function; ``arity`` says where
    its arrays are: the first ``arity`` positional arguments, :data:`SEQUENCE` or
    :data:`VARIADIC`; or :data:`CURRENT` for a front without arrays, whose ``cache`` maps backend
    names to functions. The builtin has ``front``'s name, module, docstring and signature.
    """
    if _extension is None:
        return front
    name = front.__name__
    doc = f"{name}{_text_signature(front)}\n--\n\n{inspect.cleandoc(front.__doc__ or '')}"
    fast = _extension.make_front(front, cache, arity, name.encode(), doc.encode(), front.__module__)
    ACCELERATED[fast] = front
    if "torch._dynamo" in sys.modules:  # else the import hook at the end of this module does it
        _register_with_dynamo(fast, front)
    return fast


def python_front(front: Callable[..., Any]) -> Callable[..., Any]:
    """The Python function behind a front (the front itself when it is not accelerated)."""
    return ACCELERATED.get(front, front)


# ---- torch.compile ------------------------------------------------------------------------------

_REGISTERED: set[int] = set()  # id() of the builtin fronts registered with dynamo


def _register_with_dynamo(fast: Callable[..., Any], python: FunctionType) -> None:
    """Make ``python`` the polyfill dynamo inlines for the builtin front ``fast`` (idempotent)."""
    if id(fast) in _REGISTERED:
        return
    from torch.compiler import substitute_in_graph

    substitute_in_graph(fast, skip_signature_check=True)(python)
    _REGISTERED.add(id(fast))


def _register_all_with_dynamo() -> None:
    for fast, python in ACCELERATED.items():
        _register_with_dynamo(fast, python)


class _AfterImport(importlib.abc.MetaPathFinder):
    """Runs a callback right after a module is first imported (by anyone), then removes itself."""

    def __init__(self, fullname: str, callback: Callable[[], None]) -> None:
        self.fullname = fullname
        self.callback = callback

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname != self.fullname:
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        loader_exec_module = spec.loader.exec_module
        callback = self.callback

        def exec_module(module: ModuleType) -> None:
            loader_exec_module(module)
            try:
                callback()
            except Exception as error:  # never break the import of the module itself
                warnings.warn(
                    f"hedera: could not register its fronts with {fullname} ({error!r}); "
                    "torch.compile will break the graph at hedera calls",
                    RuntimeWarning,
                    stacklevel=2,
                )

        spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


if _extension is not None and "torch._dynamo" not in sys.modules:
    sys.meta_path.insert(0, _AfterImport("torch._dynamo", _register_all_with_dynamo))
