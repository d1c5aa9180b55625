"""Two-view geometry: moving points between cameras, the fundamental matrix, triangulation.

Conventions (see :mod:`hedera.vision.cameras`): pinhole cameras; camera frame
``x`` right, ``y`` down, ``z`` forward; pixel ``(u, v) = (column, row)`` with the
top-left pixel's centre at the origin; ``E = [R | t]`` maps world to camera;
``P = K E`` ``(..., 3, 4)`` is a camera's full projection matrix; homogeneous
pixel-depth coordinates are ``(u d, v d, d)``.

Matrices ``(*B, r, c)`` apply to coordinates ``(*B, *S, c)`` (batch dimensions
first, then any point dimensions ``S``). Float32 or float64, differentiable.
"""

from __future__ import annotations

import hedera as hd
from hedera.helpers import one_of

from ._helpers import (
    Array,
    apply_affine,
    apply_matrix,
    check_last_dim,
    check_matrix,
    expand_matrix,
    expand_vector,
    matrix_from_rows,
    safe_divide,
)
from .cameras import calib_and_ext_to_full_mat, calib_mat_to_inv_calib_mat, relative_ext_mat
from .projective import ds_pixel_to_cam_coords

__all__ = [
    "cam_to_cam_coords",
    "ds_pixel_to_ds_pixel_coords",
    "full_mat_to_cam_center",
    "get_fundamental_matrix",
    "closest_mutual_points_along_two_skew_rays",
    "triangulate_points",
    "triangulate_depth",
]


def cam_to_cam_coords(cam_coords1: Array, cam1_to_cam2_ext_mat: Array) -> Array:
    """Coordinates in camera 2's frame ``(*B, *S, 3)`` of points given in camera 1's frame ``(*B, *S, 3)``.

    ``cam1_to_cam2_ext_mat`` ``(*B, 3, 4)`` is ``E2 E1^-1`` (:func:`relative_ext_mat`).
    """
    check_last_dim(cam_coords1, 3, "cam_coords1", "camera coordinates")
    check_matrix(cam1_to_cam2_ext_mat, ((3, 4), (4, 4)), "cam1_to_cam2_ext_mat", "a rigid transform")
    return apply_affine(cam1_to_cam2_ext_mat, cam_coords1)


def ds_pixel_to_ds_pixel_coords(
    ds_pixel_coords1: Array, calib_mat1: Array, ext_mat1: Array, calib_mat2: Array, ext_mat2: Array
) -> Array:
    """Homogeneous pixel-depth coordinates in camera 2 ``(*B, *S, 3)`` of those in camera 1 ``(*B, *S, 3)``.

    ``K2 (E2 E1^-1) K1^-1 (u1 d1, v1 d1, d1)``; ``K`` ``(*B, 3, 3)``, ``E`` ``(*B, 3, 4)`` world to camera.
    """
    cam1 = ds_pixel_to_cam_coords(ds_pixel_coords1, calib_mat_to_inv_calib_mat(calib_mat1))
    full12 = calib_and_ext_to_full_mat(calib_mat2, relative_ext_mat(ext_mat1, ext_mat2))
    return apply_affine(full12, cam1)


def full_mat_to_cam_center(full_mat: Array) -> Array:
    """Camera centre ``C = -M^-1 p4`` ``(..., 3)`` of a projection matrix ``P = [M | p4]`` ``(..., 3, 4)``.

    ``C`` spans the null space of ``P``: ``P (C, 1) = 0``.
    """
    check_matrix(full_mat, ((3, 4),), "full_mat", "a full projection matrix")
    return -hd.linalg.solve(full_mat[..., :3], full_mat[..., 3:4])[..., 0]


def _skew(v: Array) -> Array:
    """The cross-product matrix ``[v]_x`` ``(..., 3, 3)`` of ``v`` ``(..., 3)``."""
    x, y, z = v[..., 0], v[..., 1], v[..., 2]
    zero = hd.zeros_like(x)
    return matrix_from_rows([[zero, -z, y], [z, zero, -x], [-y, x, zero]])


def get_fundamental_matrix(full_mat1: Array, full_mat2: Array) -> Array:
    """Fundamental matrix of two cameras.

    Parameters
    ----------
    full_mat1, full_mat2 : array, shape (..., 3, 4)
        The cameras' projection matrices ``P = K [R | t]``.

    Returns
    -------
    array, shape (..., 3, 3)
        ``F = [e2]_x P2 P1^+`` (Hartley & Zisserman, eq. 9.1), where ``e2 = P2 (C1, 1)``
        is the epipole in image 2 and ``P1^+ = P1^T (P1 P1^T)^-1``. Corresponding
        pixels satisfy ``(u2, v2, 1) F (u1, v1, 1)^T = 0``. ``F`` is defined up to
        scale; this one is normalized to unit Frobenius norm.
    """
    check_matrix(full_mat1, ((3, 4),), "full_mat1", "a full projection matrix")
    check_matrix(full_mat2, ((3, 4),), "full_mat2", "a full projection matrix")
    center1 = full_mat_to_cam_center(full_mat1)
    epipole2 = hd.matmul(full_mat2[..., :3], center1[..., None])[..., 0] + full_mat2[..., 3]
    p1t = hd.matrix_transpose(full_mat1)
    pinv1 = hd.matrix_transpose(hd.linalg.solve(hd.matmul(full_mat1, p1t), full_mat1))  # P1^T (P1 P1^T)^-1
    fund = hd.matmul(_skew(epipole2), hd.matmul(full_mat2, pinv1))
    norm = hd.sqrt(hd.sum(fund * fund, axis=(-2, -1), keepdims=True))
    return fund / norm


def closest_mutual_points_along_two_skew_rays(
    origin1: Array, direction1: Array, origin2: Array, direction2: Array
) -> tuple[Array, Array]:
    """The closest points on two rays (lines) to each other.

    Parameters
    ----------
    origin1, direction1, origin2, direction2 : array, shape (..., 3)
        Each ray is ``origin + s * direction`` (directions need not be unit).

    Returns
    -------
    point1, point2 : array, shape (..., 3)
        The points on ray 1 and ray 2 nearest to each other; their midpoint is the
        "closest mutual point" triangulation. Parallel rays (a singular case) give
        finite, arbitrary points: the denominator is kept away from zero.
    """
    for name, v in (
        ("origin1", origin1),
        ("direction1", direction1),
        ("origin2", origin2),
        ("direction2", direction2),
    ):
        check_last_dim(v, 3, name, "a 3-vector")
    w0 = origin1 - origin2
    a = hd.sum(direction1 * direction1, axis=-1, keepdims=True)
    b = hd.sum(direction1 * direction2, axis=-1, keepdims=True)
    c = hd.sum(direction2 * direction2, axis=-1, keepdims=True)
    d = hd.sum(direction1 * w0, axis=-1, keepdims=True)
    e = hd.sum(direction2 * w0, axis=-1, keepdims=True)
    denom = a * c - b * b
    s = safe_divide(b * e - c * d, denom)
    t = safe_divide(a * e - b * d, denom)
    return origin1 + s * direction1, origin2 + t * direction2


def _homogeneous_pixels(pixel_coords: Array) -> Array:
    return hd.concat([pixel_coords, hd.ones_like(pixel_coords[..., :1])], axis=-1)


def _triangulate_dlt(pixel_coords1: Array, pixel_coords2: Array, full_mat1: Array, full_mat2: Array) -> Array:
    """World points by the homogeneous DLT: the null vector of the 4x4 system ``A X = 0``."""
    p1 = expand_matrix(full_mat1, pixel_coords1)
    p2 = expand_matrix(full_mat2, pixel_coords2)
    rows = [
        pixel_coords1[..., 0:1] * p1[..., 2, :] - p1[..., 0, :],
        pixel_coords1[..., 1:2] * p1[..., 2, :] - p1[..., 1, :],
        pixel_coords2[..., 0:1] * p2[..., 2, :] - p2[..., 0, :],
        pixel_coords2[..., 1:2] * p2[..., 2, :] - p2[..., 1, :],
    ]
    rows = hd.broadcast_arrays(*rows)
    system = hd.stack(rows, axis=-2)  # (..., 4, 4); rows unscaled, as OpenCV's triangulatePoints
    vh = hd.linalg.svd(system, full_matrices=False)[2]
    homogeneous = vh[..., 3, :]
    return safe_divide(homogeneous[..., :3], homogeneous[..., 3:4])


def _triangulate_cmp(pixel_coords1: Array, pixel_coords2: Array, full_mat1: Array, full_mat2: Array) -> Array:
    """World points as the midpoints of the closest mutual points of the two pixel rays."""
    centers, directions = [], []
    for pix, full in ((pixel_coords1, full_mat1), (pixel_coords2, full_mat2)):
        center = full_mat_to_cam_center(full)
        inv_m = hd.linalg.inv(full[..., :3])
        directions.append(apply_matrix(inv_m, _homogeneous_pixels(pix)))  # M^-1 (u, v, 1)
        centers.append(expand_vector(center, pix))
    point1, point2 = closest_mutual_points_along_two_skew_rays(
        centers[0], directions[0], centers[1], directions[1]
    )
    return (point1 + point2) / 2.0


_METHODS = {"dlt": _triangulate_dlt, "cmp": _triangulate_cmp}


def triangulate_points(
    pixel_coords1: Array, pixel_coords2: Array, full_mat1: Array, full_mat2: Array, *, method: str = "dlt"
) -> Array:
    """World points seen at corresponding pixels of two cameras.

    Parameters
    ----------
    pixel_coords1, pixel_coords2 : array, shape (*B, *S, 2)
        ``(u, v)`` of each point in image 1 and image 2.
    full_mat1, full_mat2 : array, shape (*B, 3, 4)
        ``P = K [R | t]`` of the two cameras.
    method : {"dlt", "cmp"}
        ``"dlt"``: the homogeneous direct linear transform (Hartley & Zisserman
        12.2; what OpenCV's ``triangulatePoints`` computes), by SVD.
        ``"cmp"``: the midpoint of the closest mutual points of the two pixel rays.

    Returns
    -------
    array, shape (*B, *S, 3)
        World coordinates. Both methods agree for exact correspondences.
    """
    check_last_dim(pixel_coords1, 2, "pixel_coords1", "pixel coordinates")
    check_last_dim(pixel_coords2, 2, "pixel_coords2", "pixel coordinates")
    check_matrix(full_mat1, ((3, 4),), "full_mat1", "a full projection matrix")
    check_matrix(full_mat2, ((3, 4),), "full_mat2", "a full projection matrix")
    one_of("triangulate_points", "method", method, tuple(_METHODS))
    return _METHODS[method](pixel_coords1, pixel_coords2, full_mat1, full_mat2)


def triangulate_depth(
    pixel_coords1: Array, pixel_coords2: Array, full_mat1: Array, full_mat2: Array, *, method: str = "dlt"
) -> Array:
    """Depth in camera 1 of points seen at corresponding pixels of two cameras.

    Parameters
    ----------
    pixel_coords1, pixel_coords2 : array, shape (*B, *S, 2)
        ``(u, v)`` of each point in image 1 and image 2.
    full_mat1, full_mat2 : array, shape (*B, 3, 4)
        ``P = K [R | t]`` of the two cameras.
    method : {"dlt", "cmp"}
        As in :func:`triangulate_points`.

    Returns
    -------
    array, shape (*B, *S, 1)
        Each point's depth (``z``) in camera 1's frame: the last component of
        ``P1 (X, 1)``. Multiply ``(u1, v1, 1)`` by it for homogeneous pixel-depth coordinates.
    """
    world = triangulate_points(pixel_coords1, pixel_coords2, full_mat1, full_mat2, method=method)
    return apply_affine(full_mat1, world)[..., 2:3]
