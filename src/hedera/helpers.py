"""Building blocks shared by libraries written on hedera (``hd.nn``, ``hd.mech``, ``hd.vision``,
``hd.robot``, ``hd.gym``...): numerically safe functions and argument checks.

Written on hedera's public API only, like the libraries themselves (the import contract in
``.importlinter`` checks this module as one of them), so a library's ``_helpers`` module imports
from here instead of keeping its own copy.

The safe functions keep *both* branches of every ``hd.where`` finite, values and gradients alike:
``where`` selects values, but the gradient of the branch it does not take is still multiplied by
zero, and ``0 * inf`` is NaN (the "double where" pattern).
"""

from __future__ import annotations

import functools
import inspect
import math
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import hedera as hd
from hedera.typing import Array

__all__ = [
    "TINY",
    "check_last_dim",
    "check_matrix",
    "check_public",
    "checked",
    "explain_failure",
    "finite_float",
    "int_tuple",
    "integer",
    "one_of",
    "positive_int",
    "shape_tuple",
    "safe_norm",
    "safe_sqrt",
    "shape_of",
]

F = TypeVar("F", bound=Callable[..., Any])

#: squared lengths at or below this count as zero (a length of 1e-15: fine in float32 and float64)
TINY = 1e-30


def safe_sqrt(x: Array) -> Array:
    """``sqrt(x)`` for ``x >= 0`` with a zero (not infinite) gradient at ``x <= TINY``."""
    ok = x > TINY
    return hd.where(ok, hd.sqrt(hd.where(ok, x, hd.ones_like(x))), hd.zeros_like(x))


def safe_norm(v: Array, axis: int = -1, keepdims: bool = False) -> Array:
    """Euclidean norm along ``axis``; its gradient at the zero vector is zero instead of NaN."""
    return safe_sqrt(hd.sum(v * v, axis=axis, keepdims=keepdims))


def check_last_dim(x: Array, size: int, name: str, what: str) -> None:
    """Raise :class:`hedera.ShapeError` unless ``x`` has shape ``(..., size)``.

    ``name`` is the function's name, ``what`` the argument in words (``"quaternions"``).
    """
    shape = tuple(x.shape)
    if len(shape) < 1 or shape[-1] != size:
        raise hd.ShapeError(f"{name}: expected {what} of shape (..., {size}), got shape {shape}")


def check_matrix(x: Array, shapes: tuple[tuple[int, int], ...], name: str, what: str) -> None:
    """Raise :class:`hedera.ShapeError` unless the last two dimensions of ``x`` are one of ``shapes``."""
    shape = tuple(x.shape)
    if len(shape) < 2 or tuple(shape[-2:]) not in shapes:
        wanted = " or ".join(f"(..., {r}, {c})" for r, c in shapes)
        raise hd.ShapeError(f"{name}: expected {what} of shape {wanted}, got shape {shape}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _kind_text(value: Any) -> str:
    return (
        f"{type(value).__name__} {value!r}"
        if not hd.is_array(value)
        else f"an array of shape {tuple(value.shape)}"
    )


def int_tuple(op: str, name: str, value: int | Sequence[int], nd: int, minimum: int = 1) -> tuple[int, ...]:
    """``value`` (an int, repeated, or a sequence of ``nd`` ints) as a tuple of ``nd`` ints ``>= minimum``.

    Raises :class:`hedera.ArgumentTypeError` for something else than ints (a float, a str, a bool,
    None, an array), :class:`hedera.InvalidArgumentError` for ints out of range or the wrong count;
    both name ``op`` and the argument ``name``.
    """
    expected = f"an int >= {minimum} or a sequence of {nd} such ints"
    items = (value,) * nd if _is_int(value) else value
    if hd.is_array(value) or isinstance(value, (str, bytes)) or not isinstance(items, Sequence):
        raise hd.ArgumentTypeError(f"{op}: {name} must be {expected}, got {_kind_text(value)}")
    out = tuple(items)
    if not all(_is_int(v) for v in out):
        raise hd.ArgumentTypeError(f"{op}: {name} must be {expected}, got {value!r}")
    if len(out) != nd or not all(v >= minimum for v in out):
        raise hd.InvalidArgumentError(f"{op}: {name} must be {expected}, got {value!r}")
    return tuple(int(v) for v in out)


def shape_tuple(op: str, name: str, value: int | Sequence[int]) -> tuple[int, ...]:
    """``value`` (an int, or a sequence of ints) as a shape: a tuple of ints ``>= 0``.

    Raises :class:`hedera.ArgumentTypeError` for something else than ints (a float, a str, a
    bool, None, an array), :class:`hedera.InvalidArgumentError` for a negative size; both name
    ``op`` and the argument ``name``.
    """
    items = (value,) if _is_int(value) else value
    if hd.is_array(value) or isinstance(value, (str, bytes)) or not isinstance(items, Sequence):
        raise hd.ArgumentTypeError(f"{op}: {name} must be an int or a tuple of ints, got {_kind_text(value)}")
    if not all(_is_int(s) for s in items):
        raise hd.ArgumentTypeError(f"{op}: {name} must be an int or a tuple of ints, got {value!r}")
    if not all(s >= 0 for s in items):
        raise hd.InvalidArgumentError(f"{op}: {name} must be non-negative ints, got {value!r}")
    return tuple(int(s) for s in items)


def positive_int(op: str, name: str, value: Any, *, allow_none: bool = False, minimum: int = 1) -> int | None:
    """``value`` checked to be an int ``>= minimum`` (1 unless given; or ``None`` when ``allow_none``:
    a size found later).

    Raises :class:`hedera.ArgumentTypeError` for a value that is not an int (a float, a str, a
    bool, an array), :class:`hedera.InvalidArgumentError` for an int out of range; both name ``op``
    and the argument ``name``.
    """
    if value is None and allow_none:
        return None
    what = "a positive int" if minimum == 1 else f"an int >= {minimum}"
    if not _is_int(value):
        raise hd.ArgumentTypeError(f"{op}: {name} must be {what}, got {_kind_text(value)}")
    if value < minimum:
        raise hd.InvalidArgumentError(f"{op}: {name} must be {what}, got {value!r}")
    return int(value)


def integer(op: str, name: str, value: Any, *, allow_none: bool = False) -> int | None:
    """``value`` checked to be an int (any sign: an axis, an offset), or ``None`` when ``allow_none``.

    Raises :class:`hedera.ArgumentTypeError` naming ``op`` and the argument ``name`` otherwise
    (a float, a str, a bool, an array).
    """
    if value is None and allow_none:
        return None
    if not _is_int(value):
        raise hd.ArgumentTypeError(f"{op}: {name} must be an int, got {_kind_text(value)}")
    return int(value)


def finite_float(
    op: str,
    name: str,
    value: Any,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    exclusive_min: bool = False,
    exclusive_max: bool = False,
    allow_none: bool = False,
) -> float | None:
    """``value`` checked to be a finite real number (an int or a float, not a bool) in the range given.

    Raises :class:`hedera.ArgumentTypeError` for something else than a number (a str, None, an
    array), :class:`hedera.InvalidArgumentError` for a NaN, an infinity or a number out of range;
    both name ``op`` and the argument ``name``.
    """
    if value is None and allow_none:
        return None
    low = "" if minimum is None else f"{'>' if exclusive_min else '>='} {minimum}"
    high = "" if maximum is None else f"{'<' if exclusive_max else '<='} {maximum}"
    what = (
        "a finite number"
        + (f" {low}" if low else "")
        + (" and" if low and high else "")
        + (f" {high}" if high else "")
    )
    if isinstance(value, bool) or not isinstance(value, (int, float)) or hd.is_array(value):
        raise hd.ArgumentTypeError(f"{op}: {name} must be {what}, got {_kind_text(value)}")
    v = float(value)
    bad = not math.isfinite(v)
    if minimum is not None:
        bad = bad or (v <= minimum if exclusive_min else v < minimum)
    if maximum is not None:
        bad = bad or (v >= maximum if exclusive_max else v > maximum)
    if bad:
        raise hd.InvalidArgumentError(f"{op}: {name} must be {what}, got {value!r}")
    return v


def one_of(op: str, name: str, value: Any, options: Sequence[str]) -> str:
    """``value`` checked to be one of the strings ``options``.

    Raises :class:`hedera.ArgumentTypeError` for a value that is not a str,
    :class:`hedera.InvalidArgumentError` for an unknown one; both name ``op``, the argument
    ``name`` and the options.
    """
    if not isinstance(value, str):
        raise hd.ArgumentTypeError(f"{op}: {name} must be one of {list(options)}, got {_kind_text(value)}")
    if value not in options:
        raise hd.InvalidArgumentError(f"{op}: {name} must be one of {list(options)}, got {value!r}")
    return value


#: annotations (as ``from __future__ import annotations`` leaves them) -> the check
#: :func:`checked` runs on such a parameter after a failure
_ARRAY_ANNOTATIONS = {"Array": False, "Array | None": True}
_NUMBER_ANNOTATIONS = {"float": False, "float | None": True, "int": False, "int | None": True}


def _explain_failure(fn: Callable[..., Any], op: str, args: tuple, kwargs: dict) -> None:
    """Raise the hedera error that names what is wrong with a call of ``fn`` that failed, if its
    arguments show it: a non-array where an ``Array`` goes (:class:`hedera.NotAnArrayError`),
    arrays of several backends (:class:`hedera.BackendMismatchError`), a value that is not a
    number where an ``int``/``float`` goes (:class:`hedera.ArgumentTypeError`). Returns if none
    does (the caller then raises the original error)."""
    signature = inspect.signature(fn)
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError:
        return  # a wrong call (too many arguments...): Python's own message says it
    arrays: list[tuple[str, Any, bool]] = []  # the array arguments so far, in parameter order
    for name, value in bound.arguments.items():
        annotation = signature.parameters[name].annotation
        if annotation in _ARRAY_ANNOTATIONS:
            arrays.append((name, value, _ARRAY_ANNOTATIONS[annotation]))
            _check_arrays(op, tuple(arrays))  # raises for this argument, if it is at fault
        elif annotation in _NUMBER_ANNOTATIONS:
            if value is None and _NUMBER_ANNOTATIONS[annotation]:
                continue
            if value is None or isinstance(value, (str, bytes)):
                what = "an int" if annotation.startswith("int") else "a number"
                raise hd.ArgumentTypeError(f"{op}: {name} must be {what}, got {_kind_text(value)}")


def explain_failure(fn: Callable[..., Any], op: str, error: Exception, args: tuple, kwargs: dict) -> None:
    """After ``fn(*args, **kwargs)`` raised ``error``: raise the hedera error that names ``op``
    and the argument at fault (:func:`_explain_failure`), chained to ``error``; or ``error``'s
    own class with ``op`` in front, for a hedera error that does not name it; else return (the
    caller re-raises ``error``). What :func:`checked` and a layer's call run on a failure."""
    if isinstance(error, ImportError):
        return
    try:
        _explain_failure(fn, op, args, kwargs)
    except hd.HederaError as diagnosed:
        raise diagnosed from error
    if isinstance(error, hd.HederaError) and op not in str(error):
        raise type(error)(f"{op}: {error}") from error


#: type -> the backend name of its arrays, or None for a type that is no array (what the
#: wrapper of :func:`checked` reads per array argument: one dict lookup instead of
#: ``hd.is_array`` + ``hd.backend_of``; filled by :func:`_check_arrays` on a miss)
_BACKEND_OF_TYPE: dict[type, str | None] = {}


def _check_arrays(op: str, arrays: tuple[tuple[str, Any, bool], ...]) -> None:
    """The slow path of the wrapper's array check (a type not seen yet, a non-array, several
    backends): raise :class:`hedera.NotAnArrayError` or :class:`hedera.BackendMismatchError`, or
    return (after learning the new types) when the arrays are fine."""
    first: tuple[str, str] | None = None
    for name, value, optional in arrays:
        if value is None and optional:
            continue
        kind = type(value)
        if kind not in _BACKEND_OF_TYPE:
            _BACKEND_OF_TYPE[kind] = hd.backend_of(value) if hd.is_array(value) else None
        backend = _BACKEND_OF_TYPE[kind]
        if backend is None:
            raise hd.NotAnArrayError(
                f"{op}: {name} must be an array (convert it with hd.asarray), got {_kind_text(value)}"
            )
        if first is None:
            first = (name, backend)
        elif backend != first[1]:
            raise hd.BackendMismatchError(
                f"{op}: {first[0]} is a {first[1]} array but {name} is a {backend} array; "
                f"convert one with hd.asarray(..., backend=...)"
            )


def checked(fn: F) -> F:
    """``fn`` whose errors name it and the argument at fault, at the cost of a few type lookups.

    Before the call, only what a framework would accept *silently*: each parameter annotated
    ``Array`` must be an array (:class:`hedera.NotAnArrayError`; ``Array | None`` may also be
    ``None``), and all of one backend (:class:`hedera.BackendMismatchError`: jax and torch mix a
    NumPy array into their computation without a word). That is one dict lookup of each array
    argument's type, no device sync. Everything else is diagnosed after a failure: the call
    runs first, and only when it raises are its arguments looked at (:func:`explain_failure`).

    The wrapper has ``fn``'s own parameters (generated from its signature), so a call costs one
    Python frame, a ``try`` and the lookups: no tuple or dict of arguments is built on the way in.
    """
    op = fn.__name__

    def explain(error: Exception, arguments: dict[str, Any]) -> None:
        explain_failure(fn, op, error, (), arguments)

    wrapper = _signature_wrapper(fn, op, explain)
    return functools.wraps(fn)(wrapper)  # type: ignore[return-value]


def _signature_wrapper(
    fn: Callable[..., Any], op: str, explain: Callable[[Exception, dict[str, Any]], None]
) -> Any:
    """A function with ``fn``'s parameters (and defaults) that checks the kind of its ``Array``
    arguments (:func:`_check_arrays` when a type lookup does not settle it), returns ``fn(...)``
    and, when that raises, calls ``explain(exception, {parameter: value})`` before the
    exception propagates."""
    parameters = list(inspect.signature(fn).parameters.values())
    arrays = [
        (p.name, _ARRAY_ANNOTATIONS[p.annotation]) for p in parameters if p.annotation in _ARRAY_ANNOTATIONS
    ]
    simple = all(p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) for p in parameters)
    if not simple:  # *args, **kwargs or positional-only: the generic wrapper

        def generic(*args: Any, **kwargs: Any) -> Any:
            try:
                bound = inspect.signature(fn).bind(*args, **kwargs).arguments
            except TypeError:
                bound = None
            if bound is not None:
                _check_arrays(op, tuple((n, bound[n], o) for n, o in arrays if n in bound))
            try:
                return fn(*args, **kwargs)
            except Exception as e:
                if bound is not None:
                    explain(e, dict(bound))
                raise

        return generic
    namespace: dict[str, Any] = {
        "_hedera_fn_": fn,
        "_hedera_explain_": explain,
        "_hedera_check_arrays_": _check_arrays,
        "_hedera_get_": _BACKEND_OF_TYPE.get,
        "_hedera_op_": op,
    }
    declared, passed, star = [], [], False
    for i, p in enumerate(parameters):
        if p.kind is p.KEYWORD_ONLY and not star:
            declared.append("*")
            star = True
        if p.default is p.empty:
            declared.append(p.name)
        else:
            namespace[f"_hedera_default_{i}_"] = p.default
            declared.append(f"{p.name}=_hedera_default_{i}_")
        passed.append(p.name if p.kind is p.POSITIONAL_OR_KEYWORD else f"{p.name}={p.name}")
    lines = [f"def {fn.__name__}({', '.join(declared)}):"]
    if arrays:
        (first, first_optional), rest = arrays[0], arrays[1:]
        tests = ["_b is None" + (f" and {first} is not None" if first_optional else "")]
        for name, optional in rest:
            test = f"_hedera_get_({name}.__class__) != _b"
            tests.append(f"({name} is not None and {test})" if optional else test)
        everything_arrays = ", ".join(f"({n!r}, {n}, {o})" for n, o in arrays)
        lines += [
            f"    _b = _hedera_get_({first}.__class__)",
            f"    if {' or '.join(tests)}:",
            f"        _hedera_check_arrays_(_hedera_op_, ({everything_arrays},))",
        ]
    everything = ", ".join(f"{p.name!r}: {p.name}" for p in parameters)
    lines += [
        "    try:",
        f"        return _hedera_fn_({', '.join(passed)})",
        "    except Exception as _hedera_error_:",
        f"        _hedera_explain_(_hedera_error_, {{{everything}}})",
        "        raise",
    ]
    exec(compile("\n".join(lines) + "\n", f"<hedera.helpers.checked {fn.__qualname__}>", "exec"), namespace)
    return namespace[fn.__name__]


def check_public(namespace: dict[str, Any], names: Sequence[str], package: str | None = None) -> None:
    """Replace each function of ``names`` in a library package's ``namespace`` (its ``__init__``) by
    :func:`checked` of it: the public entry points check their arguments, calls inside the package
    do not pay for it again. One line at the end of the package instead of a decorator on every
    public function. ``package``: the functions' package, if not the namespace's own."""
    package = package or namespace["__name__"]
    for name in names:
        obj = namespace[name]
        if inspect.isfunction(obj) and obj.__module__.startswith(package) and not hasattr(obj, "__wrapped__"):
            namespace[name] = checked(obj)


def shape_of(x: Array) -> tuple[Any, ...]:
    """``x.shape`` as a tuple of ints (``None`` for a size unknown while tracing; a symbolic size as
    the framework gives it)."""
    shape = tuple(x.shape)
    for d in shape:  # the common case, sizes that are ints already (numpy, jax, torch eagerly), as is
        if type(d) is not int:
            break
    else:
        return shape
    try:
        return tuple(None if d is None else int(d) for d in shape)
    except TypeError:  # a symbolic size
        return tuple(x.shape)
