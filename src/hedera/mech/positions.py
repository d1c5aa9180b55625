"""Positions: homogeneous coordinates and transforms, spherical polar <-> Cartesian coordinates.

Spherical polar coordinates are ``(phi, theta, r)`` (the 2021 library's order):
``phi`` the azimuth about ``+z`` measured from ``+x`` towards ``+y``, ``theta``
the inclination from ``+z`` (in ``[0, pi]``), ``r`` the radius; angles in
radians, ``r`` in the units of the Cartesian coordinates.
"""

from __future__ import annotations

import hedera as hd
from hedera.typing import Array

from ._helpers import check_last_dim, check_matrix, safe_atan2, safe_hypot, safe_norm

__all__ = [
    "make_coordinates_homogeneous",
    "homogeneous_to_cartesian_coords",
    "make_transformation_homogeneous",
    "transform_coords",
    "polar_to_cartesian_coords",
    "cartesian_to_polar_coords",
]


def make_coordinates_homogeneous(coords: Array) -> Array:
    """Append a 1 to each coordinate vector: ``(..., n) -> (..., n + 1)``.

    Examples
    --------
    >>> import numpy as np, hedera.mech as mech
    >>> mech.make_coordinates_homogeneous(np.array([2.0, 3.0, 4.0]))
    array([2., 3., 4., 1.])
    """
    return hd.concat([coords, hd.ones_like(coords[..., :1])], axis=-1)


def homogeneous_to_cartesian_coords(coords: Array) -> Array:
    """Divide by the last component and drop it: ``(..., n + 1) -> (..., n)``.

    Points at infinity (last component 0) give infinities or NaN.
    """
    shape = tuple(coords.shape)
    if len(shape) < 1 or shape[-1] < 2:
        raise hd.ShapeError(
            f"coords: expected homogeneous coordinates of shape (..., n + 1) with n >= 1, got shape {shape}"
        )
    return coords[..., :-1] / coords[..., -1:]


def make_transformation_homogeneous(matrices: Array) -> Array:
    """Append the row ``(0, ..., 0, 1)`` to affine transforms: ``(..., n, n + 1) -> (..., n + 1, n + 1)``.

    A 3x4 pose ``[R | t]`` becomes the 4x4 matrix that maps homogeneous
    coordinates ``(p, 1)`` to ``(R p + t, 1)``.
    """
    shape = tuple(matrices.shape)
    if len(shape) < 2 or shape[-1] != shape[-2] + 1:
        raise hd.ShapeError(f"matrices: expected shape (..., n, n + 1), got shape {shape}")
    zeros = hd.zeros_like(matrices[..., :1, :])
    last = hd.concat([zeros[..., :-1], hd.ones_like(zeros[..., -1:])], axis=-1)
    return hd.concat([matrices, last], axis=-2)


def transform_coords(transform: Array, coords: Array) -> Array:
    """Apply affine transforms to 3D points: ``R @ p + t``.

    Parameters
    ----------
    transform : array, shape (..., 3, 4) or (..., 4, 4)
        ``[R | t]`` (a matrix pose), or its homogeneous 4x4 form (the last
        row is ignored). Batch dimensions broadcast against those of ``coords``;
        for one transform per batch of ``N`` points use ``transform[..., None, :, :]``.
    coords : array, shape (..., 3)
        Cartesian points.

    Returns
    -------
    array, shape (..., 3)
    """
    check_matrix(transform, ((3, 4), (4, 4)), "transform", "an affine transform")
    check_last_dim(coords, 3, "coords", "points")
    rot, trans = transform[..., :3, :3], transform[..., :3, 3]
    # R p as a broadcast multiply-and-sum: many tiny batched matmuls are slower on every backend
    return hd.sum(rot * coords[..., None, :], axis=-1) + trans


def polar_to_cartesian_coords(polar_coords: Array) -> Array:
    """Cartesian coordinates of spherical polar coordinates.

    Parameters
    ----------
    polar_coords : array, shape (..., 3)
        ``(phi, theta, r)``: azimuth from ``+x``, inclination from ``+z``
        (radians), radius.

    Returns
    -------
    array, shape (..., 3)
        ``(r sin(theta) cos(phi), r sin(theta) sin(phi), r cos(theta))``.
    """
    check_last_dim(polar_coords, 3, "polar_coords", "polar coordinates")
    phi, theta, r = polar_coords[..., 0], polar_coords[..., 1], polar_coords[..., 2]
    r_sin_theta = r * hd.sin(theta)
    return hd.stack([r_sin_theta * hd.cos(phi), r_sin_theta * hd.sin(phi), r * hd.cos(theta)], axis=-1)


def cartesian_to_polar_coords(cartesian_coords: Array) -> Array:
    """Spherical polar coordinates of Cartesian coordinates.

    Parameters
    ----------
    cartesian_coords : array, shape (..., 3)

    Returns
    -------
    array, shape (..., 3)
        ``(phi, theta, r)``: ``phi = atan2(y, x)`` in ``(-pi, pi]`` (0 on the
        z-axis), ``theta = atan2(hypot(x, y), z)`` in ``[0, pi]`` (0 at the
        origin), ``r = |p|``. Finite gradients everywhere, the origin and
        the z-axis included (zero there).
    """
    check_last_dim(cartesian_coords, 3, "cartesian_coords", "points")
    x, y, z = cartesian_coords[..., 0], cartesian_coords[..., 1], cartesian_coords[..., 2]
    phi = safe_atan2(y, x)
    theta = safe_atan2(safe_hypot(x, y), z)
    return hd.stack([phi, theta, safe_norm(cartesian_coords)], axis=-1)
