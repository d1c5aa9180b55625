"""Backend selection: which framework a call runs on.

Two rules decide it:

* A call with array arguments runs on the framework those arrays belong to. The
  framework is read off ``type(x)`` (its class's module), cached per type, so
  deciding never imports a framework.
* A call without array arguments (creation, random) runs on the *current*
  backend: the innermost :func:`use_backend` context, else :func:`set_backend`,
  else the ``HEDERA_BACKEND`` environment variable (read when hedera is
  imported, and again by ``set_backend(None)``), else ``"numpy"``.
"""

from __future__ import annotations

import contextlib
import contextvars
import importlib
import importlib.util
import os
from collections.abc import Callable, Iterator, Sequence
from types import ModuleType
from typing import Any

from . import backends as _backends_package
from ._api import SEQUENCE_PARAMS
from .errors import (
    ArgumentTypeError,
    BackendMismatchError,
    BackendNotInstalledError,
    NotAnArrayError,
    UnknownBackendError,
    UnsupportedError,
)

__all__ = [
    "BACKENDS",
    "available_backends",
    "backend_mismatch",
    "backend_module",
    "backend_of",
    "backend_of_leaves",
    "current_backend",
    "is_array",
    "load_backend",
    "namespace",
    "set_backend",
    "use_backend",
]

# backend name -> (framework module to import, pip requirement that installs it)
BACKENDS: dict[str, tuple[str, str]] = {
    "numpy": ("numpy", "numpy"),
    "torch": ("torch", "hedera[torch]  (or: pip install torch)"),
    "jax": ("jax", "hedera[jax]  (or: pip install jax)"),
    "tensorflow": ("tensorflow", "hedera[tensorflow]  (or: pip install tensorflow)"),
    "mxnet": ("mxnet", "mxnet==1.9.1 numpy==1.23.5  (a separate environment; see docs/backends.md)"),
}

# top-level package of an array's class -> backend name
_ROOT_TO_BACKEND: dict[str, str] = {
    "numpy": "numpy",
    "torch": "torch",
    "jax": "jax",
    "jaxlib": "jax",
    "tensorflow": "tensorflow",
    "keras": "tensorflow",
    "mxnet": "mxnet",
}

_LOADED: dict[str, ModuleType] = {}
_ON_LOAD: dict[str, list[Callable[[], None]]] = {}  # backend name -> callbacks (on_backend_load)
_TYPE_TO_BACKEND: dict[type, str | None] = {}


def load_backend(name: str) -> ModuleType:
    """Import and return the namespace ``hedera.backends.<name>``, importing its framework.

    Raises
    ------
    UnknownBackendError
        If ``name`` is not a backend hedera knows.
    BackendNotInstalledError
        If the framework is not installed; the message says how to install it.
    """
    try:
        return _LOADED[name]
    except (KeyError, TypeError):
        pass
    _import_backend(name)
    return getattr(_backends_package, name)  # (not _LOADED[name]: see _import_backend)


def _import_backend(name: str) -> None:
    """Import ``hedera.backends.<name>`` into ``_LOADED`` and run its on-load callbacks.

    Returns None so that torch.compile can treat it as a constant-result function: when a
    backend is first used inside a trace, dynamo runs the import for real instead of tracing
    importlib (which it cannot). load_backend then reads the module off the package, which
    dynamo sees fresh, rather than from the ``_LOADED`` dict it has already looked into.
    """
    if name not in BACKENDS:
        raise UnknownBackendError(f"backend: unknown backend {name!r}; expected one of {sorted(BACKENDS)}")
    framework, requirement = BACKENDS[name]
    if importlib.util.find_spec(framework) is None:
        raise BackendNotInstalledError(
            f"backend {name!r} needs the {framework!r} package, which is not installed; "
            f"install it with: pip install {requirement}"
        )
    module = importlib.import_module(f"hedera.backends.{name}")
    _LOADED[name] = module
    for callback in _ON_LOAD.pop(name, ()):
        callback()


_SUBMODULES: dict[tuple[str, str], ModuleType] = {}


def _import_backend_module(name: str, submodule: str) -> None:
    """Import ``hedera.backends.<name>.<submodule>`` (after its backend) into ``_SUBMODULES``.

    Returns None so that torch.compile treats it as a constant-result function and runs the
    import for real at trace time (as :func:`_import_backend`).
    """
    if (name, submodule) not in _SUBMODULES:
        load_backend(name)  # checks the name and that the framework is installed
        _SUBMODULES[name, submodule] = importlib.import_module(f"hedera.backends.{name}.{submodule}")


_import_backend_module._dynamo_marked_constant = True  # type: ignore[attr-defined]


def backend_module(name: str, submodule: str) -> ModuleType:
    """The backend's module ``hedera.backends.<name>.<submodule>`` (``"autodiff"``, ``"random"``,
    ``"nn"``), importing the backend and the module on first use.

    Raises
    ------
    UnknownBackendError, BackendNotInstalledError
        As :func:`load_backend`.
    """
    _import_backend_module(name, submodule)
    return getattr(load_backend(name), submodule)  # (the package's attribute: see _import_backend)


def on_backend_load(name: str, callback: Callable[[], None]) -> None:
    """Call ``callback()`` once backend ``name`` is loaded: now if it already is, else right after.

    Lets hedera modules register with a framework (pytree nodes, say) without
    importing it before it is used.
    """
    if name in _LOADED:
        callback()
    else:
        _ON_LOAD.setdefault(name, []).append(callback)


# ---- torch.compile (dynamo) --------------------------------------------------------------
#
# Dynamo cannot trace importlib or ContextVar.get/set, and it guards on every dict it reads.
# Three small measures keep dispatch inside one graph, compiled once (docs/dispatch.md):
#
# * _import_backend, _ambient_backend and backend_name_of_type are constant-result functions
#   to dynamo: it calls them at trace time and uses the result as a constant. Setting
#   ``_dynamo_marked_constant`` is all ``torch.compiler.assume_constant_result`` does; it is
#   set here, without importing torch, so it is in place when the torch backend is first
#   loaded inside a trace.
# * While dynamo traces, use_backend keeps its stack in a plain list instead of the context
#   variable, and miss leaves the front's caches as dynamo read them.

_TRACE_STACK: list[str] = []  # use_backend names entered inside a torch.compile trace


def _not_tracing() -> bool:
    return False


#: torch.compiler.is_compiling once hedera's torch backend or torch._dynamo is loaded (the import
#: hook of hedera._fastpath)
_is_tracing: Callable[[], bool] = _not_tracing


def _use_torch_compiling_check() -> None:
    global _is_tracing
    import torch

    _is_tracing = torch.compiler.is_compiling


on_backend_load("torch", _use_torch_compiling_check)
_import_backend._dynamo_marked_constant = True  # type: ignore[attr-defined]
# Loading the tensorflow backend loads its autodiff module, which keeps AutoGraph out of hedera's code.
on_backend_load("tensorflow", lambda: _import_backend_module("tensorflow", "autodiff"))


def available_backends() -> list[str]:
    """Names of the backends whose frameworks are installed (found without importing them)."""
    return [n for n, (fw, _) in BACKENDS.items() if importlib.util.find_spec(fw) is not None]


def backend_name_of_type(t: type) -> str | None:
    """The backend name for arrays of type ``t``, or ``None`` if ``t`` is not a known array type."""
    try:
        return _TYPE_TO_BACKEND[t]
    except KeyError:
        pass
    name = None
    for cls in t.__mro__:
        name = _ROOT_TO_BACKEND.get(cls.__module__.partition(".")[0])
        if name is not None:
            break
    _TYPE_TO_BACKEND[t] = name
    return name


backend_name_of_type._dynamo_marked_constant = True  # type: ignore[attr-defined]  # see _import_backend

#: ``backend_name_of_type``'s cache alone: the backend name of a type already seen, None for
#: non-arrays and for types not seen yet (the per-call walk of hd.jit, which must not allocate)
backend_name_if_cached: Callable[[type], str | None] = _TYPE_TO_BACKEND.get


def is_array(x: Any) -> bool:
    """Whether ``x`` is a native array of a framework hedera knows (``hd.is_array``).

    Python numbers, ``None``, containers and modules are not; tracers of jax, torch and
    TensorFlow are.
    """
    return backend_name_of_type(type(x)) is not None and hasattr(x, "dtype") and hasattr(x, "shape")


def _path_text(root: str, path: tuple) -> str:
    """``args[0]['w'][1]`` for root ``args`` and path ``(0, 'w', 1)``."""
    return root + "".join(f"[{k!r}]" for k in path)


def backend_of_leaves(
    fname: str,
    leaves: Sequence[Any],
    paths: Sequence[Any],
    *,
    describe: Callable[[Any], str] = repr,
    where: str = "in one call",
    advice: str = "convert them with hd.asarray(x, backend=...)",
    non_arrays: str | None = None,
) -> str | None:
    """The one backend of the arrays among ``leaves`` (None if there are none): the check that
    every tree-taking function (``hd.grad``, ``hd.jit``, ``hd.save``, ``hd.tree``...) makes.

    ``paths[i]`` locates ``leaves[i]``; ``describe(path)`` writes it for messages. A leaf that is
    not an array is skipped, or, with ``non_arrays`` (the expected kind, as ``"an array of a known
    framework"``), raises NotAnArrayError naming its path.

    Raises
    ------
    NotAnArrayError
        For a non-array leaf, when ``non_arrays`` is given.
    BackendMismatchError
        If leaves of two backends are mixed, naming a path of each:
        ``"{fname}: arrays of different backends {where} (...); {advice}"``.
    """
    found: dict[str, Any] = {}
    for leaf, path in zip(leaves, paths, strict=True):
        name = backend_name_of_type(type(leaf))
        if name is None:
            if non_arrays is None:
                continue
            raise NotAnArrayError(
                f"{fname}: {describe(path)} must be {non_arrays}, got {type(leaf).__name__}"
            )
        found.setdefault(name, path)
    if len(found) > 1:
        raise backend_mismatch(
            fname, ", ".join(f"{describe(p)} is {n}" for n, p in found.items()), where=where, advice=advice
        )
    return next(iter(found), None)


def backend_mismatch(
    fname: str, parts: str, *, where: str = "in one call", advice: str | None = None
) -> BackendMismatchError:
    """The error for arrays of two backends mixed in one call, the one place its message is
    written: ``"{fname}: arrays of different backends {where} ({parts}); {advice}"``, ``parts``
    naming an argument of each backend (``"'x1' is numpy, 'x2' is torch"``)."""
    return BackendMismatchError(
        f"{fname}: arrays of different backends {where} ({parts})" + (f"; {advice}" if advice else "")
    )


def path_describer(root: str) -> Callable[[tuple], str]:
    """``describe`` for :func:`backend_of_leaves`: paths under the argument ``root`` (``args[0]['w']``)."""
    return lambda path: _path_text(root, path)


def backend_of(x: Any) -> str:
    """The name of the backend ``x`` belongs to (``"torch"`` for a ``torch.Tensor``).

    Raises
    ------
    NotAnArrayError
        If ``x`` is not an array of a known framework.
    """
    name = backend_name_of_type(type(x))
    if name is None:
        raise NotAnArrayError(f"x: expected an array of a known framework, got {type(x).__name__}")
    return name


def namespace(x_or_name: Any) -> ModuleType:
    """The backend namespace for an array, or for a backend name.

    ``hd.namespace(torch.ones(2))`` and ``hd.namespace("torch")`` both return
    ``hedera.backends.torch``, a complete Array API namespace over torch tensors.
    """
    if isinstance(x_or_name, str):
        return load_backend(x_or_name)
    return load_backend(backend_of(x_or_name))


# ---- current backend ---------------------------------------------------------------

_context_backend: contextvars.ContextVar[str | None] = contextvars.ContextVar("hedera_backend", default=None)


def _environment_default() -> str:
    return os.environ.get("HEDERA_BACKEND") or "numpy"


# set_backend's setting, else the environment's default, as the one item of a list (which
# set_backend changes in place). The environment is read at import and by set_backend(None), not
# per call: os.environ.get costs more than a whole numpy creation call.
_process_backend: list[str] = [_environment_default()]

#: what the C hot path of the creation fronts reads the current backend from
#: (hedera._fastpath hands it to hedera._fastfront.connect_current_backend): use_backend's context
#: variable, set_backend's one-item list, and the use_backend stack of a torch.compile trace
CURRENT_BACKEND_STATE = (_context_backend, _process_backend, _TRACE_STACK)


def current_backend() -> str:
    """The backend that calls without array arguments run on.

    Precedence: the innermost :func:`use_backend` context, then
    :func:`set_backend`, then the ``HEDERA_BACKEND`` environment variable (as read at
    import or by ``set_backend(None)``), then ``"numpy"``.
    """
    if _TRACE_STACK:  # only inside a use_backend block in code torch.compile is tracing
        return _TRACE_STACK[-1]
    return _ambient_backend()


def _ambient_backend() -> str:
    """The current backend outside compiled code. A constant to dynamo (read at trace time)."""
    return _context_backend.get() or _process_backend[0]


_ambient_backend._dynamo_marked_constant = True  # type: ignore[attr-defined]


def current_namespace() -> ModuleType:
    """The namespace of :func:`current_backend`."""
    return load_backend(current_backend())


def set_backend(name: str | None) -> None:
    """Set the process-wide default backend.

    ``None`` restores the default: ``$HEDERA_BACKEND`` (read again now), else ``"numpy"``. The
    framework is imported now, so a bad name fails here rather than at first use.
    """
    if name is None:
        _process_backend[0] = _environment_default()
        return
    load_backend(name)
    _process_backend[0] = name


@contextlib.contextmanager
def use_backend(name: str) -> Iterator[ModuleType]:
    """Run the body with ``name`` as the current backend; yields its namespace.

    Uses a :class:`contextvars.ContextVar`, so threads and asyncio tasks each see
    their own setting.
    """
    module = load_backend(name)
    if _is_tracing():  # torch.compile is tracing this block: dynamo cannot trace ContextVar.set
        _TRACE_STACK.append(name)
        try:
            yield module
        finally:
            _TRACE_STACK.pop()
        return
    token = _context_backend.set(name)
    try:
        yield module
    finally:
        _context_backend.reset(token)


# ---- resolving a call's namespace from its arguments ----------------------------------


def resolve(fname: str, args: tuple[Any, ...], argnames: tuple[str, ...]) -> ModuleType:
    """The namespace for a call whose array-capable arguments are ``args``.

    Python scalars and ``None`` take the arrays' backend. Sequences (``concat``'s
    ``arrays``) are looked into.

    Raises
    ------
    NotAnArrayError
        If no argument is an array of a known framework.
    BackendMismatchError
        If arrays of two frameworks are mixed; the message names both.
    """
    found: dict[str, str] = {}
    for arg, argname in zip(args, argnames, strict=False):
        items = arg if argname in SEQUENCE_PARAMS and isinstance(arg, (list, tuple)) else (arg,)
        for item in items:
            if item is None or (isinstance(item, (int, float, complex)) and not hasattr(item, "dtype")):
                continue
            name = backend_name_of_type(type(item))
            if name is None:
                raise NotAnArrayError(
                    f"{fname}: {argname} must be an array of a known framework or a Python scalar, "
                    f"got {type(item).__name__}"
                )
            found.setdefault(name, argname)
    if not found:
        described = ", ".join(f"{n}={type(a).__name__}" for a, n in zip(args, argnames, strict=False))
        raise NotAnArrayError(
            f"{fname}: expected at least one array argument of a known framework, got {described}"
        )
    if len(found) > 1:
        parts = ", ".join(f"{arg!r} is {name}" for name, arg in found.items())
        raise backend_mismatch(fname, parts, advice="convert one with hd.asarray(x, backend=...)")
    return load_backend(next(iter(found)))


def _types_of(arrays: tuple[Any, ...]) -> Any:
    if len(arrays) == 1 and not isinstance(arrays[0], (list, tuple)):
        return type(arrays[0])
    key: list[type] = []
    for a in arrays:
        if isinstance(a, (list, tuple)):
            key.append(type(a))
            key.extend(type(item) for item in a)
        else:
            key.append(type(a))
    return tuple(key)


def _is_one_typed_sequence(key: Any, arrays: tuple[Any, ...]) -> bool:
    """Whether ``arrays`` is one non-empty list or tuple whose elements all have one type."""
    return (
        len(arrays) == 1
        and type(key) is tuple
        and len(key) > 1
        and key[0] in (list, tuple)
        and all(k is key[1] for k in key[2:])
    )


def function_of(ns: ModuleType, qualname: str) -> Any:
    """``ns``'s function ``qualname`` (``"linalg.inv"``: ``ns.linalg.inv``)."""
    target: Any = ns
    for part in qualname.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise UnsupportedError(
                f"{qualname} is not available on the {ns.__name__.rsplit('.', 1)[-1]} backend"
            ) from None
    return target


def traced_backend(types: tuple[type, ...], qualname: str) -> str | None:
    """The backend of a call whose array arguments have these types, or None where the Python
    front must decide (no array type, an unknown type, mixed backends): :func:`resolve`'s rules,
    on types (``None`` and Python scalars follow the arrays).

    What torch.compile's trace of a C front calls (hedera._fastpath._trace_polyfill): a
    constant-result function to dynamo, run once at trace time, so that the compiled code
    guards on no hedera cache.
    """
    names = set()
    for t in types:
        if t is type(None) or (issubclass(t, (int, float, complex)) and not hasattr(t, "dtype")):
            continue
        name = backend_name_of_type(t)
        if name is None:
            return None
        names.add(name)
    if len(names) != 1:
        return None
    name = names.pop()
    try:
        function_of(load_backend(name), qualname)
    except Exception:
        return None
    return name


traced_backend._dynamo_marked_constant = True  # type: ignore[attr-defined]  # see _import_backend


def current_function(cache: dict, qualname: str) -> Any:
    """The current backend's function ``qualname``: the lookup of a front without array arguments
    (``zeros``, ``arange``), caching it in ``cache`` by backend name for the C hot path.

    While torch.compile traces, the cache is neither read nor filled (see miss).
    """
    # current_backend(), inlined: a call less on the Python creation fronts' every call
    name = _TRACE_STACK[-1] if _TRACE_STACK else _ambient_backend()
    if _is_tracing():
        return function_of(load_backend(name), qualname)
    try:
        return cache[name]
    except KeyError:
        target = cache[name] = function_of(load_backend(name), qualname)
        return target


def named_function(cache: dict, qualname: str, backend: Any) -> Any:
    """Backend ``backend``'s function ``qualname``: the lookup of a front without array arguments
    called with ``backend=`` (``hd.zeros(3, backend="torch")``), cached in ``cache`` as
    :func:`current_function` does.

    Raises
    ------
    ArgumentTypeError
        ``backend`` is not a str.
    UnknownBackendError, BackendNotInstalledError
        As :func:`load_backend`.
    """
    if not isinstance(backend, str):  # (not `type(backend) is str`: dynamo cannot trace that)
        raise ArgumentTypeError(
            f"{qualname}: backend must be a backend name (str) or None, got {type(backend).__name__}"
        )
    if _is_tracing():
        return function_of(load_backend(backend), qualname)
    try:
        return cache[backend]
    except KeyError:
        target = cache[backend] = function_of(load_backend(backend), qualname)
        return target


def miss(cache: dict, qualname: str, arrays: tuple[Any, ...], argnames: tuple[str, ...]) -> Any:
    """Slow path of a front function: find (and cache by argument types) the backend function.

    Called when the per-function cache has no entry for these argument types, and
    on every call of functions taking sequences of arrays (``concat``), whose key
    includes each element's type.
    """
    key = _types_of(arrays)
    try:
        return cache[key]
    except KeyError:
        pass
    except TypeError:  # an unhashable type object: resolve without caching
        key = None
    if any(a is None for a in arrays):
        # None follows the arrays for optional array parameters (clip's bounds) only: NumPy took
        # it where an array is required (equal(x, None) all False); raising here, the types of
        # such a call are never cached, so every such call comes back here
        from ._diagnose import check_required_arrays

        check_required_arrays(qualname, dict(zip(argnames, arrays, strict=False)))
    target = function_of(resolve(qualname, arrays, argnames), qualname)
    # Not while torch.compile traces: dynamo guards on the cache as it read it, so filling it
    # there would fail those guards at the next call and recompile (docs/dispatch.md).
    if key is not None and not _is_tracing():
        cache[key] = target
        given = _without_trailing_none(key)  # the C front's key where a call omits optional arrays
        if given is not key:
            cache[given] = target
            key = given
        if type(key) is tuple and all(k is key[0] for k in key):
            cache[key[0]] = target  # the front's fast path looks up the common type alone
        elif _is_one_typed_sequence(key, arrays):
            cache[key[1]] = target  # a sequence front's fast path looks up its elements' type
    return target


def _without_trailing_none(key: Any) -> Any:
    """A tuple key without the types of trailing None arguments (``(T, T, NoneType)`` as ``(T, T)``),
    the key the C front looks up where a call omits optional arrays (``searchsorted(x1, x2)``): the
    backend function is the same, since None does not take part in choosing the backend."""
    if type(key) is not tuple:
        return key
    end = len(key)
    while end > 1 and key[end - 1] is _NONE_TYPE:
        end -= 1
    return key if end == len(key) else key[:end]


_NONE_TYPE = type(None)


def _is_python_scalar(v: Any) -> bool:
    return isinstance(v, (int, float, complex)) and not hasattr(v, "dtype")  # (bool is an int)


def miss_operands(cache: dict, qualname: str, operands: tuple[Any, ...], argname: str) -> tuple[Any, tuple]:
    """:func:`miss` for a front whose variadic arrays may be Python scalars (einsum's operands,
    which frameworks do not all take: torch and TensorFlow need tensors, and NumPy promotes
    ``float32 x 2.0`` to float64): the backend function and the operands to call it with.

    With a Python scalar among them, every operand is made of the dtype the standard's promotion
    gives them all (``hd.result_type``: float32 for float32 arrays and 2.0; beyond the standard,
    the backend's rule, as ``hd.multiply`` has it: int64 for a bool array and 2): each scalar a
    0-d array of the arrays' backend and device, an array of another dtype cast to it. The slow
    path only: a call of arrays of one type does not come here twice."""
    f = miss(cache, qualname, (operands,), (argname,))
    if not any(_is_python_scalar(o) or o is None for o in operands):
        return f, operands
    for i, o in enumerate(operands):
        if o is None:
            raise NotAnArrayError(f"{qualname}: {argname}[{i}] must be an array or a Python scalar, got None")
    arrays = tuple(o for o in operands if not _is_python_scalar(o))
    ns = resolve(qualname, (arrays,), (argname,))
    dtype = ns.result_type(*operands)
    device = ns.device(arrays[0])
    return f, tuple(
        ns.asarray(o, dtype=dtype, device=device)
        if _is_python_scalar(o)
        else o
        if o.dtype == dtype
        else ns.astype(o, dtype)
        for o in operands
    )
