"""Signed distance functions (SDFs) of spheres and cuboids.

A signed distance is negative inside a shape, zero on its surface and positive
outside, in the units of the coordinates. The functions are batched, take
float32 or float64, and are differentiable everywhere with finite gradients
(the gradient is the unit outward normal almost everywhere; at a sphere's centre
and on a cuboid's medial planes, where the distance has a kink, it is a finite
one-sided value), so they serve as smooth-enough collision costs.

Cuboid poses follow :mod:`hedera.mech`: a matrix pose ``[R | t]`` ``(..., 3, 4)``
maps the cuboid's own frame (origin at its centre, axes along its edges) to the
world, ``p_world = R p_local + t``.
"""

from __future__ import annotations

import hedera as hd

from ._helpers import Array, check_last_dim, check_matrix, safe_norm

__all__ = ["sphere_sdf", "cuboid_sdf", "sphere_signed_distances", "cuboid_signed_distances"]


def sphere_sdf(points: Array, centers: Array, radii: Array) -> Array:
    """Signed distance from points to spheres, element by element.

    Parameters
    ----------
    points : array, shape (..., 3)
    centers : array, shape (..., 3)
    radii : array, shape (...)
        All three broadcast (over the leading dimensions).

    Returns
    -------
    array, shape (...)
        ``|p - c| - r``.
    """
    check_last_dim(points, 3, "points", "points")
    check_last_dim(centers, 3, "centers", "sphere centres")
    return safe_norm(points - centers) - radii


def cuboid_sdf(points: Array, cuboid_poses: Array, cuboid_dims: Array) -> Array:
    """Signed distance from points to (rotated, translated) cuboids, element by element.

    Parameters
    ----------
    points : array, shape (..., 3)
        World points.
    cuboid_poses : array, shape (..., 3, 4)
        Each cuboid's matrix pose ``[R | t]``: cuboid frame to world, ``t`` its centre.
    cuboid_dims : array, shape (..., 3)
        Full side lengths along the cuboid's own ``x``, ``y``, ``z`` axes.
        All three arguments broadcast (over the leading dimensions).

    Returns
    -------
    array, shape (...)
        With ``q = |R^T (p - t)| - dims / 2`` (per axis): ``|max(q, 0)| + min(max_i q_i, 0)``,
        the exact Euclidean distance outside and minus the distance to the nearest face inside.
    """
    check_last_dim(points, 3, "points", "points")
    check_matrix(cuboid_poses, ((3, 4), (4, 4)), "cuboid_poses", "a matrix pose")
    check_last_dim(cuboid_dims, 3, "cuboid_dims", "cuboid side lengths")
    rot = cuboid_poses[..., :3, :3]
    rel = points - cuboid_poses[..., :3, 3]
    local = hd.matmul(hd.matrix_transpose(rot), rel[..., None])[..., 0]  # R^T (p - t)
    q = hd.abs(local) - cuboid_dims / 2.0
    outside = safe_norm(hd.maximum(q, hd.zeros_like(q)))
    inside = hd.minimum(hd.max(q, axis=-1), hd.zeros_like(q[..., 0]))
    return outside + inside


def sphere_signed_distances(
    points: Array, centers: Array, radii: Array, *, per_object: bool = False
) -> Array:
    """Signed distances from ``N`` query points to a scene of ``S`` spheres.

    Parameters
    ----------
    points : array, shape (*B, N, 3)
    centers : array, shape (*B, S, 3)
    radii : array, shape (*B, S)
    per_object : bool
        Return the distance to every sphere instead of to their union.

    Returns
    -------
    array, shape (*B, N) or (*B, N, S)
        The distance to the union of the spheres (the minimum over spheres), or
        to each sphere.
    """
    check_last_dim(points, 3, "points", "points")
    check_last_dim(centers, 3, "centers", "sphere centres")
    distances = sphere_sdf(points[..., :, None, :], centers[..., None, :, :], radii[..., None, :])
    return distances if per_object else hd.min(distances, axis=-1)


def cuboid_signed_distances(
    points: Array, cuboid_poses: Array, cuboid_dims: Array, *, per_object: bool = False
) -> Array:
    """Signed distances from ``N`` query points to a scene of ``S`` cuboids.

    Parameters
    ----------
    points : array, shape (*B, N, 3)
    cuboid_poses : array, shape (*B, S, 3, 4)
        Matrix poses ``[R | t]``, cuboid frame to world.
    cuboid_dims : array, shape (*B, S, 3)
        Full side lengths.
    per_object : bool
        Return the distance to every cuboid instead of to their union.

    Returns
    -------
    array, shape (*B, N) or (*B, N, S)
        The distance to the union of the cuboids (the minimum over cuboids), or
        to each cuboid.
    """
    check_last_dim(points, 3, "points", "points")
    check_matrix(cuboid_poses, ((3, 4), (4, 4)), "cuboid_poses", "matrix poses")
    distances = cuboid_sdf(
        points[..., :, None, :], cuboid_poses[..., None, :, :, :], cuboid_dims[..., None, :, :]
    )
    return distances if per_object else hd.min(distances, axis=-1)
