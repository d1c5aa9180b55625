"""The C hot path of the front functions (``hedera/_fastfront.c``), and its fallbacks.

``_front.py`` passes each generated front through :func:`accelerate` (``@_front``, from
hedera/_front_rows.py). With the extension built (the normal case: ``pip install`` compiles it),
the public ``hd.sin`` becomes a builtin function that looks up the backend function by argument
type and calls it without entering Python; the generated Python function stays as its slow path
and error path. Without the extension (no C
compiler at install, or ``HEDERA_PURE_PYTHON=1`` in the environment at import) ``accelerate``
returns the Python front unchanged: same behaviour, one Python frame more per call.

torch.compile cannot trace into C, so once dynamo is imported each builtin front is registered
with it as a function with a Python polyfill (``torch.compiler.substitute_in_graph``): the
backend function, found at trace time by a function dynamo takes as a constant
(:func:`_trace_polyfill`), so that the compiled code does not guard on the fronts' caches; the
Python front where that cannot decide. No graph break either way. Importing dynamo costs about
a second, so hedera does not import it: the registration runs when something else
(``torch.compile``, ``hd.jit``) imports it (:class:`_AfterImport`).
"""

from __future__ import annotations

import functools
import importlib.machinery
import inspect
import os
import sys
import warnings
from collections.abc import Callable
from types import FunctionType, ModuleType
from typing import Any, TypeVar

from . import _dispatch
from ._argkinds import check_argument
from ._dispatch import function_of, load_backend, traced_backend
from ._error_path import diagnose_call

__all__ = [
    "ACCELERATED",
    "CURRENT",
    "SEQUENCE",
    "VARIADIC",
    "VARIADIC_AFTER_FIRST",
    "accelerate",
    "enabled",
    "python_front",
]

F = TypeVar("F", bound=Callable[..., Any])

EXPECTED_ABI = 16  # FASTFRONT_ABI in _fastfront.c: a stale build (an old .so in place) is not used
SEQUENCE = -1  # the front's arrays are the elements of its first argument (concat, stack)
VARIADIC = -2  # the front's arrays are all its positional arguments (meshgrid, broadcast_arrays)
CURRENT = -3  # the front has no arrays: it runs on the current backend (zeros, arange)
VARIADIC_AFTER_FIRST = -4  # the front's arrays are its positional arguments after the first (einsum)

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
    extension.connect_current_backend(_dispatch.CURRENT_BACKEND_STATE)


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


def _explainer(front: FunctionType, qualname: str) -> Callable[[BaseException, tuple, dict], None]:
    """The error path of the builtin ``front``: ``explain(exception, args, kwargs)``, called by C with
    the exception the backend function raised. It raises hedera's error for the argument at fault
    (:func:`hedera._error_path.diagnose_call`, as the Python front's ``except`` clause does), a
    TypeError for a call that does not fit ``front``'s signature (the one CPython raises for the
    Python front: :func:`_raise_binding_error`), or returns,
    and C re-raises the framework's exception. The call is not run again.
    """

    def explain(exception: BaseException, args: tuple, kwargs: dict) -> None:
        signature = inspect.signature(front)
        if not _fits(signature, args, kwargs):  # CPython's message, as the Python front raises it
            _raise_binding_error(front, signature, args, kwargs)
        diagnose_call(exception, qualname, signature, args, kwargs)

    return explain


def _fits(signature: inspect.Signature, args: tuple, kwargs: dict) -> bool:
    """Whether a call with ``args`` and ``kwargs`` binds to ``signature``."""
    try:
        signature.bind(*args, **kwargs)
    except TypeError:
        return False
    return True


def _raise_binding_error(
    front: FunctionType, signature: inspect.Signature, args: tuple, kwargs: dict
) -> None:
    """Raise the TypeError CPython raises for calling ``front`` with ``args`` and ``kwargs``, which
    do not fit its ``signature`` (``"clip() takes from 1 to 3 positional arguments but 4 were
    given"``), without running ``front``: the call goes to a twin with ``front``'s parameters, names
    and defaults and an empty body, so the message is the one the Python front gives."""
    try:
        _binding_twin(front, signature)(*args, **kwargs)
    except TypeError as error:
        raise error.with_traceback(None) from None


def _binding_twin(front: FunctionType, signature: inspect.Signature) -> FunctionType:
    """A function that binds its arguments as ``front`` does and then does nothing."""
    parameters = [
        p.replace(annotation=p.empty, default=p.empty if p.default is p.empty else None)
        for p in signature.parameters.values()
    ]
    bare = signature.replace(parameters=parameters, return_annotation=inspect.Signature.empty)
    namespace: dict[str, Any] = {}
    exec(f"def twin{bare}: pass", namespace)  # (a signature of hedera's own fronts, names and Nones)
    twin = namespace["twin"]
    twin.__name__, twin.__qualname__ = front.__name__, front.__qualname__
    twin.__defaults__, twin.__kwdefaults__ = front.__defaults__, front.__kwdefaults__
    return twin


#: what a front's signature admits (:func:`_signature_bounds`): (the most positional arguments or -1:
#: ``*args``, the names a keyword may have or None: ``**kwargs``, the position of the first of
#: them, how many of them are positional too)
SignatureBounds = tuple[int, "tuple[str, ...] | None", int, int]

_VARARGS, _VARKEYWORDS = inspect.CO_VARARGS, inspect.CO_VARKEYWORDS


def _signature_bounds(
    front: Callable[..., Any], left_to_python: tuple[str, ...] = ()
) -> SignatureBounds | None:
    """What calls ``front``'s signature can bind, read off its code object (cheaper than
    :func:`inspect.signature` for 180 fronts at import), for C to send any other call to the Python
    front, which raises CPython's TypeError: else a backend function that takes more arguments
    runs it (numpy's ``sin(x, x)`` writes into x). The keyword-only parameters named in
    ``left_to_python`` are left out, so that a call passing one goes to the Python front too.
    None for a function without its own code (a wrapper): every call may bind."""
    if type(front) is not FunctionType or hasattr(front, "__wrapped__"):
        return None
    code = front.__code__
    names = code.co_varnames
    positional, positional_only = code.co_argcount, code.co_posonlyargcount
    keywords = None
    if not code.co_flags & _VARKEYWORDS:
        keywords = names[positional_only : positional + code.co_kwonlyargcount]
        keywords = tuple(name for name in keywords if name not in left_to_python)
    most = -1 if code.co_flags & _VARARGS else positional
    return most, keywords, positional_only, positional - positional_only


def _binds(bounds: SignatureBounds | None, args: tuple, kwargs: dict) -> bool:
    """Whether a call may bind to the signature ``bounds`` describes, as C's fits_signature
    decides: not too many positional arguments; each keyword a parameter not also given by
    position."""
    if bounds is None:
        return True
    most, keywords, base, positional = bounds
    if 0 <= most < len(args):
        return False
    if keywords is None or not kwargs:
        return True
    for name in kwargs:
        if name not in keywords:
            return False
        index = keywords.index(name)
        if index < positional and base + index < len(args):
            return False
    return True


def accelerate(
    front: F,
    cache: dict,
    arity: int,
    qualname: str,
    text_signature: str | None = None,
    checks: tuple[tuple[str, int, int, bool, int | None], ...] = (),
    optional: tuple[str, ...] = (),
    left_to_python: tuple[str, ...] = (),
) -> F:
    """``front`` as a builtin with the C hot path (see the module docstring), or ``front`` itself.

    ``cache`` is the front's dict from argument type(s) to backend function; ``arity`` says where
    its arrays are: the first ``arity`` positional arguments, :data:`SEQUENCE`, :data:`VARIADIC`
    or :data:`VARIADIC_AFTER_FIRST`; or :data:`CURRENT` for a front without arrays, whose
    ``cache`` maps backend names to functions; ``qualname`` is the function's name in a backend
    namespace (``"linalg.inv"``). The builtin has ``front``'s name, module, docstring and signature:
    ``text_signature``, the parameters without annotations (``"x, /, *, axis=None"``), where the
    caller has it (the generated fronts: their row's), then ``front``'s docstring is taken as not
    indented; both are cheaper to have than to read off ``front`` for 180 fronts at import.
    ``checks`` are the up-front argument checks (:func:`hedera._argkinds.front_checks`): C runs
    their fast tests and calls :func:`hedera._argkinds.check_argument` where one fails.
    ``optional`` names the last of the ``arity`` arrays where they default to None (clip's
    ``("min", "max")``): C completes a call that omits them or passes them by keyword to the
    positional call the Python front makes (:func:`_completed_arguments`). ``left_to_python`` names
    keyword-only parameters whose calls the Python front decides (``searchsorted``'s ``sorter``, an
    array C does not look at; ``asarray``'s ``backend``).
    """
    if _extension is None:
        return front
    name = front.__name__
    if text_signature is None:
        doc = f"{name}{_text_signature(front)}\n--\n\n{inspect.cleandoc(front.__doc__ or '')}"
    else:
        doc = f"{name}({text_signature})\n--\n\n{front.__doc__}"
    explain = _explainer(front, qualname)
    check = functools.partial(check_argument, qualname)
    bounds = _signature_bounds(front, left_to_python)
    fast = _extension.make_front(
        front,
        explain,
        cache,
        arity,
        name.encode(),
        doc.encode(),
        front.__module__,
        checks,
        check,
        optional,
        bounds,
    )
    ACCELERATED[fast] = front
    _POLYFILLS[fast] = _trace_polyfill(front, qualname, arity, optional, bounds)
    if "torch._dynamo" in sys.modules:  # else the import hook at the end of this module does it
        _register_with_dynamo(fast, _POLYFILLS[fast])
    return fast


def python_front(front: Callable[..., Any]) -> Callable[..., Any]:
    """The Python function behind a front (the front itself when it is not accelerated)."""
    return ACCELERATED.get(front, front)


# ---- torch.compile ------------------------------------------------------------------------------

_REGISTERED: set[int] = set()  # id() of the builtin fronts registered with dynamo
#: the builtin front -> the function dynamo traces in its place (_trace_polyfill)
_POLYFILLS: dict[Callable[..., Any], Callable[..., Any]] = {}


def _argument_types(args: tuple[Any, ...], arity: int) -> tuple[type, ...] | None:
    """The types of a call's array arguments, found as the C front finds them, or None."""
    if arity == SEQUENCE:
        if not args or type(args[0]) not in (list, tuple) or not args[0]:
            return None
        return tuple(type(a) for a in args[0])
    if arity == VARIADIC:
        return tuple(type(a) for a in args) if args else None
    if arity == VARIADIC_AFTER_FIRST:
        return tuple(type(a) for a in args[1:]) if len(args) > 1 else None
    return tuple(type(a) for a in args[:arity]) if len(args) >= arity else None


def _completed_arguments(
    args: tuple[Any, ...], kwargs: dict[str, Any], arity: int, optional: tuple[str, ...]
) -> tuple[Any, ...] | None:
    """A call's arguments completed as the C front completes them (``complete_optional_arrays``):
    where fewer than ``arity`` positional arguments are given, the missing arrays are all in
    ``optional`` (the last of the arity, which default to None) and every keyword names one of
    them, the positional arguments the Python front passes on (``clip(x, max=1.0)``: ``(x, None,
    1.0)``); else None (the call is left as it is)."""
    first_optional = arity - len(optional)
    if not optional or not first_optional <= len(args) < arity:
        return None
    missing = optional[len(args) - first_optional :]
    if not set(kwargs) <= set(missing):
        return None
    return (*args, *(kwargs.get(name) for name in missing))


def _trace_polyfill(
    python: FunctionType,
    qualname: str,
    arity: int,
    optional: tuple[str, ...] = (),
    bounds: SignatureBounds | None = None,
) -> Callable[..., Any]:
    """What torch.compile traces for a builtin front: the function of the backend that
    :func:`hedera._dispatch.traced_backend` names, which dynamo runs once at trace time and takes
    as a constant. The Python front would do, but dynamo guards its cache dicts with a Python lambda
    per dict key (a type), which it evaluates at *every* call of the compiled function: measured
    +1.5 µs per call for five fronts on a 21 µs compiled call. Anything traced_backend cannot
    decide (no array, mixed backends, arrays by keyword) goes to the Python front. Fronts
    without arrays trace their Python front, which reads no cache while tracing. A call that
    omits optional arrays is completed first, as C does (:func:`_completed_arguments`); one that
    does not fit the Python front's signature (``bounds``: :func:`_binds`) goes to the Python front,
    which raises CPython's TypeError.
    """
    if arity == CURRENT:
        return python

    def polyfill(*args: Any, **kwargs: Any) -> Any:
        if not _binds(bounds, args, kwargs):
            return python(*args, **kwargs)
        completed = _completed_arguments(args, kwargs, arity, optional)
        if completed is not None:
            args, kwargs = completed, {}
        types = _argument_types(args, arity)
        backend = None if types is None else traced_backend(types, qualname)
        if backend is None:
            return python(*args, **kwargs)
        return function_of(load_backend(backend), qualname)(*args, **kwargs)

    polyfill.__name__ = polyfill.__qualname__ = python.__name__
    return polyfill


def _register_with_dynamo(fast: Callable[..., Any], polyfill: Callable[..., Any]) -> None:
    """Make ``polyfill`` what dynamo inlines for the builtin front ``fast`` (idempotent)."""
    if id(fast) in _REGISTERED:
        return
    from torch.compiler import substitute_in_graph

    substitute_in_graph(fast, skip_signature_check=True)(polyfill)
    _REGISTERED.add(id(fast))


def _register_all_with_dynamo() -> None:
    for fast, polyfill in _POLYFILLS.items():
        _register_with_dynamo(fast, polyfill)


class _AfterImport:
    """Runs a callback right after a module is first imported (by anyone), then removes itself.

    A meta path finder by its ``find_spec`` alone: subclassing ``importlib.abc.MetaPathFinder``
    would import ``importlib.abc``, which imports ``importlib.resources``, ``pathlib``,
    ``tempfile`` and ``shutil`` (several milliseconds of ``import hedera``)."""

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


def _after_dynamo_import() -> None:
    """What dynamo's arrival changes: hedera's dispatch asks torch whether it is tracing (also
    where hedera's torch backend was never loaded, as in a trace of NumPy-backend code: else the
    creation fronts fill their caches inside the trace, which dynamo guarded on, and the next call
    recompiles), and the builtin fronts get their polyfills."""
    _dispatch._use_torch_compiling_check()
    if _extension is not None:
        _register_all_with_dynamo()


if "torch._dynamo" in sys.modules:
    _dispatch._use_torch_compiling_check()
else:
    sys.meta_path.insert(0, _AfterImport("torch._dynamo", _after_dynamo_import))
