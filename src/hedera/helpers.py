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

from collections.abc import Sequence
from typing import Any

import hedera as hd
from hedera.typing import Array

__all__ = [
    "TINY",
    "check_last_dim",
    "check_matrix",
    "int_tuple",
    "positive_int",
    "safe_norm",
    "safe_sqrt",
    "shape_of",
]

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


def int_tuple(op: str, name: str, value: int | Sequence[int], nd: int, minimum: int = 1) -> tuple[int, ...]:
    """``value`` (an int, repeated, or a sequence of ``nd`` ints) as a tuple of ``nd`` ints ``>= minimum``.

    Raises :class:`hedera.InvalidArgumentError` naming ``op`` and the argument ``name`` otherwise.
    """
    items = (value,) * nd if _is_int(value) else value
    try:
        out = tuple(items)  # type: ignore[arg-type]
    except TypeError:
        out = ()
    if len(out) != nd or not all(_is_int(v) and v >= minimum for v in out):
        raise hd.InvalidArgumentError(
            f"{op}: {name} must be an int >= {minimum} or a sequence of {nd} such ints, got {value!r}"
        )
    return tuple(int(v) for v in out)


def positive_int(op: str, name: str, value: Any, *, allow_none: bool = False) -> int | None:
    """``value`` checked to be a positive int (or ``None`` when ``allow_none``: a size found later).

    Raises :class:`hedera.InvalidArgumentError` naming ``op`` and the argument ``name`` otherwise.
    """
    if value is None and allow_none:
        return None
    if not _is_int(value) or value < 1:
        raise hd.InvalidArgumentError(f"{op}: {name} must be a positive int, got {value!r}")
    return int(value)


def shape_of(x: Array) -> tuple[Any, ...]:
    """``x.shape`` as a tuple of ints (``None`` for a size unknown while tracing; a symbolic size as
    the framework gives it)."""
    try:
        return tuple(None if d is None else int(d) for d in x.shape)
    except TypeError:  # a symbolic size
        return tuple(x.shape)
