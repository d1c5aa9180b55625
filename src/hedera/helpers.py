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
    "finite_float",
    "int_tuple",
    "integer",
    "one_of",
    "positive_int",
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


def _array_parameters(fn: Callable[..., Any]) -> tuple[tuple[int | None, str, bool], ...]:
    """``(position or None for keyword-only, name, optional)`` of ``fn``'s parameters annotated
    ``Array`` or ``Array | None``."""
    out = []
    for i, p in enumerate(inspect.signature(fn).parameters.values()):
        if p.annotation in ("Array", "Array | None"):
            position = i if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) else None
            out.append((position, p.name, p.annotation == "Array | None"))
    return tuple(out)


def checked(fn: F) -> F:
    """``fn`` with the kind of its array arguments checked, and its errors naming it.

    Before the call (Python-type checks only, no device sync): each parameter annotated
    ``Array`` must be an array (:class:`hedera.NotAnArrayError` otherwise; ``Array | None`` may
    also be ``None``), and all of them of one backend (:class:`hedera.BackendMismatchError`): a
    framework's operators would otherwise mix a NumPy array into a torch or JAX computation
    silently. After a failure: a hedera error raised inside ``fn`` that does not name it is
    raised again, of the same class, with ``fn``'s name in front (chained to the original).
    """
    arrays = _array_parameters(fn)
    op = fn.__name__

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        first_name, first_backend = None, None
        for position, name, optional in arrays:
            if position is not None and position < len(args):
                value = args[position]
            elif name in kwargs:
                value = kwargs[name]
            else:
                continue
            if value is None and optional:
                continue
            if not hd.is_array(value):
                raise hd.NotAnArrayError(
                    f"{op}: {name} must be an array (convert it with hd.asarray), got {_kind_text(value)}"
                )
            backend = hd.backend_of(value)
            if first_backend is None:
                first_name, first_backend = name, backend
            elif backend != first_backend:
                raise hd.BackendMismatchError(
                    f"{op}: {first_name} is a {first_backend} array but {name} is a {backend} array; "
                    f"convert one with hd.asarray(..., backend=...)"
                )
        try:
            return fn(*args, **kwargs)
        except hd.HederaError as e:
            if op in str(e) or isinstance(e, ImportError):
                raise
            raise type(e)(f"{op}: {e}") from e

    return wrapper  # type: ignore[return-value]


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
    try:
        return tuple(None if d is None else int(d) for d in x.shape)
    except TypeError:  # a symbolic size
        return tuple(x.shape)
