"""Numerically safe building blocks shared by the ``hedera.mech`` modules.

Each helper keeps *both* branches of every ``hd.where`` finite, values and
gradients alike: ``where`` selects values, but the gradient of the branch it
does not take is still multiplied by zero, and ``0 * inf`` is NaN. So a
square root, division or ``atan2`` only ever sees an argument made safe by an
inner ``where`` (the "double where" pattern).
"""

from __future__ import annotations

import hedera as hd
from hedera.helpers import TINY, check_last_dim, check_matrix, safe_norm, safe_sqrt  # noqa: F401  (re-exported)
from hedera.typing import Array


def safe_hypot(x: Array, y: Array) -> Array:
    """``sqrt(x**2 + y**2)`` with a zero gradient at the origin."""
    return safe_sqrt(x * x + y * y)


def safe_atan2(y: Array, x: Array) -> Array:
    """``atan2(y, x)``, 0 at the origin, with a zero (not NaN) gradient there."""
    ok = (x * x + y * y) > TINY
    ys = hd.where(ok, y, hd.zeros_like(y))
    xs = hd.where(ok, x, hd.ones_like(x))
    return hd.where(ok, hd.atan2(ys, xs), hd.zeros_like(y))


def safe_normalize(v: Array, default: Array, axis: int = -1) -> Array:
    """``v / |v|`` along ``axis``; ``default`` (broadcast) where ``|v|`` is zero."""
    n2 = hd.sum(v * v, axis=axis, keepdims=True)
    ok = n2 > TINY
    n = hd.sqrt(hd.where(ok, n2, hd.ones_like(n2)))
    return hd.where(ok, v / n, default + hd.zeros_like(v))


def unit_vector_like(x: Array, index: int) -> Array:
    """The unit vector ``e_index`` of shape ``(3,)`` (broadcastable), in ``x``'s backend and dtype."""
    zero = hd.zeros_like(x[..., 0])
    one = hd.ones_like(zero)
    parts = [one if i == index else zero for i in range(3)]
    return hd.stack(parts, axis=-1)


def matrix_3x3(rows: list[list[Array]]) -> Array:
    """Stack nine arrays of shape ``(...)``, given as three rows, into ``(..., 3, 3)``."""
    return hd.stack([hd.stack(row, axis=-1) for row in rows], axis=-2)


def skew(v: Array) -> Array:
    """The cross-product matrix ``[v]_x`` (``skew(v) @ p == cross(v, p)``): ``(..., 3) -> (..., 3, 3)``."""
    x, y, z = v[..., 0], v[..., 1], v[..., 2]
    zero = hd.zeros_like(x)
    return matrix_3x3([[zero, -z, y], [z, zero, -x], [-y, x, zero]])


_AXIS_INDEX = {"x": 0, "y": 1, "z": 2}


def parse_convention(convention: str) -> tuple[tuple[int, int, int], bool]:
    """``(axis indices, intrinsic)`` of an Euler convention, by scipy's rule.

    Three letters from ``xyz`` (extrinsic: rotations about the fixed frame's
    axes) or from ``XYZ`` (intrinsic: about the rotating frame's axes), no
    mixed case, no two consecutive letters equal.

    Raises
    ------
    InvalidArgumentError
        For any other string.
    """
    if not isinstance(convention, str):
        raise hd.ArgumentTypeError(
            f"convention: expected 3 axis letters such as 'xyz' (extrinsic) or 'XYZ' (intrinsic), "
            f"got {convention!r}"
        )
    if len(convention) != 3:
        raise hd.InvalidArgumentError(
            f"convention: expected 3 axis letters such as 'xyz' (extrinsic) or 'XYZ' (intrinsic), "
            f"got {convention!r}"
        )
    intrinsic = all(c in "XYZ" for c in convention)
    extrinsic = all(c in "xyz" for c in convention)
    if not (intrinsic or extrinsic):
        raise hd.InvalidArgumentError(
            f"convention: expected letters all from 'xyz' (extrinsic) or all from 'XYZ' (intrinsic), "
            f"got {convention!r}"
        )
    if convention[0] == convention[1] or convention[1] == convention[2]:
        raise hd.InvalidArgumentError(f"convention: consecutive axes must differ, got {convention!r}")
    axes = tuple(_AXIS_INDEX[c] for c in convention.lower())
    return axes, intrinsic  # type: ignore[return-value]
