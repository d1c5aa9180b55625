"""Shared building blocks of the ``hedera.vision`` modules (not public API).

Conventions used throughout the package:

* matrices of shape ``(*B, r, c)`` apply to coordinates of shape ``(*B, *S, c)``:
  the matrices' batch dimensions ``B`` line up with the *leading* dimensions of
  the coordinates, and any number of point dimensions ``S`` (an image's
  ``H, W``, a list of ``N`` points) follow; both broadcast as usual;
* every ``hd.where`` that guards a singular case keeps both branches finite, so
  gradients stay finite too (the gradient of the branch ``where`` does not take
  is multiplied by zero, and ``0 * inf`` is NaN).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import hedera as hd
from hedera.helpers import TINY, check_last_dim, check_matrix, int_tuple, safe_norm, safe_sqrt  # noqa: F401  (re-exported)
from hedera.typing import Array

#: the smallest magnitude a depth (or any projective denominator) is divided by
MIN_DENOMINATOR = 1e-12


def safe_denominator(den: Array, eps: float = MIN_DENOMINATOR) -> Array:
    """``den`` with magnitudes below ``eps`` replaced by ``+-eps`` (keeping the sign; ``+eps`` at 0)."""
    small = hd.abs(den) < eps
    return hd.where(small, hd.where(den < 0, -eps * hd.ones_like(den), eps * hd.ones_like(den)), den)


def safe_divide(num: Array, den: Array, eps: float = MIN_DENOMINATOR) -> Array:
    """``num / den`` with ``den`` kept at least ``eps`` away from zero: finite values and gradients."""
    return num / safe_denominator(den, eps)


def check_last_dims(x: Array, sizes: tuple[int, ...], name: str, what: str) -> None:
    """Raise :class:`hedera.ShapeError` unless ``x`` has shape ``(..., *sizes)``."""
    shape = tuple(x.shape)
    n = len(sizes)
    if len(shape) < n or tuple(shape[-n:]) != tuple(sizes):
        wanted = ", ".join(str(s) for s in sizes)
        raise hd.ShapeError(f"{name}: expected {what} of shape (..., {wanted}), got shape {shape}")


def check_image(image: Array, name: str = "image") -> None:
    """Raise :class:`hedera.ShapeError` unless ``image`` is channels-last ``(..., H, W, C)``."""
    if len(tuple(image.shape)) < 3:
        raise hd.ShapeError(
            f"{name}: expected a channels-last image of shape (..., H, W, C), got shape {tuple(image.shape)}"
        )


def check_image_dims(image_dims: Any, name: str = "image_dims") -> tuple[int, int]:
    """``(H, W)`` as Python ints: :class:`hedera.ArgumentTypeError` unless a pair of ints (no float,
    str or array), :class:`hedera.InvalidArgumentError` unless two of them, positive."""
    if (
        hd.is_array(image_dims)
        or isinstance(image_dims, (int, str, bytes))
        or not isinstance(image_dims, Sequence)
    ):
        raise hd.ArgumentTypeError(f"{name}: expected (height, width), a pair of ints, got {image_dims!r}")
    height, width = (
        int_tuple(name, "(height, width)", image_dims, len(image_dims)) if len(image_dims) == 2 else (0, 0)
    )
    if len(image_dims) != 2:
        raise hd.InvalidArgumentError(f"{name}: expected (height, width), a pair of ints, got {image_dims!r}")
    return height, width


def broadcast_shapes(
    shape1: tuple[int, ...], shape2: tuple[int, ...], name1: str, name2: str
) -> tuple[int, ...]:
    """The broadcast of two shapes; :class:`hedera.ShapeError`, naming the arguments, if none."""
    n = max(len(shape1), len(shape2))
    a = (1,) * (n - len(shape1)) + tuple(shape1)
    b = (1,) * (n - len(shape2)) + tuple(shape2)
    out = []
    for x, y in zip(a, b, strict=True):
        if x != y and 1 not in (x, y):
            raise hd.ShapeError(
                f"{name1} and {name2}: batch shapes {tuple(shape1)} and {tuple(shape2)} do not broadcast"
            )
        out.append(y if x == 1 else x)
    return tuple(out)


def expand_matrix(mat: Array, coords: Array) -> Array:
    """``mat`` ``(*B, r, c)`` with a singleton axis before its last two per point dim of ``coords``.

    ``coords`` has shape ``(*B, *S, c)``; the result ``(*B, 1, ..., 1, r, c)`` broadcasts against it.
    """
    extra = len(tuple(coords.shape)) - 1 - (len(tuple(mat.shape)) - 2)
    for _ in range(extra):
        mat = hd.expand_dims(mat, axis=-3)
    return mat


def expand_vector(vec: Array, coords: Array) -> Array:
    """``vec`` ``(*B, c)`` with singleton axes inserted before its last, one per point dim of ``coords``."""
    extra = len(tuple(coords.shape)) - len(tuple(vec.shape))
    for _ in range(extra):
        vec = hd.expand_dims(vec, axis=-2)
    return vec


def apply_matrix(mat: Array, coords: Array) -> Array:
    """``mat @ p`` for every point: ``mat`` ``(*B, r, c)``, ``coords`` ``(*B, *S, c)`` -> ``(*B, *S, r)``."""
    return hd.matmul(expand_matrix(mat, coords), coords[..., None])[..., 0]


def apply_affine(mat: Array, coords: Array) -> Array:
    """``R @ p + t`` for ``mat = [R | t]`` ``(*B, r, c + 1)``, ``coords`` ``(*B, *S, c)``: ``(*B, *S, r)``.

    A homogeneous ``(*B, c + 1, c + 1)`` matrix is accepted too; its last row is ignored.
    """
    cols = tuple(mat.shape)[-1] - 1
    rows = cols if tuple(mat.shape)[-2] == cols + 1 else tuple(mat.shape)[-2]
    mat = expand_matrix(mat[..., :rows, :], coords)
    return hd.matmul(mat[..., :cols], coords[..., None])[..., 0] + mat[..., cols]


def matrix_from_rows(rows: list[list[Array]]) -> Array:
    """Stack arrays of shape ``(...)``, given row by row, into ``(..., rows, cols)``."""
    return hd.stack([hd.stack(row, axis=-1) for row in rows], axis=-2)


def arange_like(n: int, like: Array, dtype: Any = None) -> Array:
    """``arange(n)`` on ``like``'s backend and device, in ``dtype`` (default: ``like``'s dtype)."""
    dtype = like.dtype if dtype is None else dtype
    return hd.arange(n, dtype=dtype, device=hd.device(like), backend=hd.backend_of(like))


def pixel_grid_like(height: int, width: int, like: Array) -> Array:
    """The ``(H, W, 2)`` image of pixel coordinates ``(u, v) = (column, row)``, in ``like``'s dtype."""
    u = arange_like(width, like)
    v = arange_like(height, like)
    uu, vv = hd.meshgrid(u, v, indexing="xy")
    return hd.stack([uu, vv], axis=-1)


def is_floating(x: Array) -> bool:
    """Whether ``x`` has a real floating dtype."""
    return hd.isdtype(x.dtype, "real floating")


def check_floating(x: Array, name: str) -> None:
    """Raise :class:`hedera.DtypeError` unless ``x`` has a real floating dtype."""
    if not is_floating(x):
        raise hd.DtypeError(f"{name}: expected a real floating array (float32 or float64), got {x.dtype}")
