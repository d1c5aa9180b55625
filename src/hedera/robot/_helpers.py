"""Shared building blocks of the ``hedera.robot`` modules (not public API).

Every ``hd.where`` that guards a singular case keeps both branches finite, so
gradients stay finite too (``where`` selects values, but the gradient of the
branch it does not take is multiplied by zero, and ``0 * inf`` is NaN).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import hedera as hd
from hedera.helpers import TINY, check_last_dim, safe_sqrt  # noqa: F401  (re-exported)
from hedera.typing import Array


def constant_like(value: Any, like: Array) -> Array:
    """``value`` (a Python number, nested list or array of any backend) as an array of
    ``like``'s backend, dtype and device."""
    return hd.asarray(value, dtype=like.dtype, device=hd.device(like), backend=hd.backend_of(like))


def safe_log(x: Array) -> Array:
    """``log(x)`` for ``x > TINY``, and 0 (with a zero gradient) at ``x <= TINY``."""
    ok = x > TINY
    return hd.where(ok, hd.log(hd.where(ok, x, hd.ones_like(x))), hd.zeros_like(x))


def check_min_ndim(x: Array, ndim: int, name: str, what: str) -> None:
    """Raise :class:`hedera.ShapeError` unless ``x`` has at least ``ndim`` dimensions."""
    if len(tuple(x.shape)) < ndim:
        raise hd.ShapeError(f"{name}: expected {what}, got shape {tuple(x.shape)}")


def broadcast_batch(shapes: Sequence[tuple[int, ...]], names: Sequence[str]) -> tuple[int, ...]:
    """The broadcast of batch shapes (NumPy's rule), or a :class:`hedera.ShapeError` naming them."""
    ndim = max(len(s) for s in shapes)
    out = []
    for i in range(ndim):
        sizes = {s[len(s) - ndim + i] for s in shapes if len(s) - ndim + i >= 0} - {1}
        if len(sizes) > 1:
            listed = ", ".join(f"{n} {tuple(s)}" for n, s in zip(names, shapes, strict=True))
            raise hd.ShapeError(f"batch dimensions do not broadcast: {listed}")
        out.append(sizes.pop() if sizes else 1)
    return tuple(out)


def homogeneous(mat_pose: Array) -> Array:
    """A matrix pose ``(..., 3, 4)`` (or already ``(..., 4, 4)``) as a 4x4 homogeneous matrix."""
    if tuple(mat_pose.shape)[-2] == 4:
        return mat_pose
    zero = hd.zeros_like(mat_pose[..., 0, 0])
    last = hd.stack([zero, zero, zero, hd.ones_like(zero)], axis=-1)
    return hd.concat([mat_pose, last[..., None, :]], axis=-2)
