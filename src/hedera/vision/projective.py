"""Single-view geometry: pixel, camera, world and sphere coordinates of one camera.

Conventions (see :mod:`hedera.vision.cameras`): pinhole camera; camera frame ``x``
right, ``y`` down, ``z`` forward; pixel ``(u, v) = (column, row)`` with the
top-left pixel's *centre* at the origin; ``K = [[fx, 0, cx], [0, fy, cy], [0, 0, 1]]``;
``E = [R | t]`` maps world to camera, ``[R^T | C]`` camera to world; ``P = K E``.

* **Homogeneous pixel-depth coordinates** ("ds pixel", depth-scaled) of a point
  at pixel ``(u, v)`` and depth ``d`` (its camera ``z``) are ``(u d, v d, d)``:
  ``K`` maps camera coordinates to them and ``K^-1`` back, both linearly.
* **Depth images** are channels-last ``(..., H, W, 1)``; coordinate images
  ``(..., H, W, 2 or 3)``.
* **Sphere coordinates** (omni-directional cameras) of a camera-frame point are
  ``(azimuth, inclination, radius)``: the azimuth is the angle about the camera's
  vertical axis from the optical axis (``+z``) towards ``+x`` (right), in
  ``(-pi, pi]``; the inclination is the angle from the *up* direction (``-y``),
  in ``[0, pi]`` (``pi / 2`` on the horizon); the radius is the distance from
  the camera centre.
* **Angular pixel coordinates** address an equirectangular (360 x 180 degree)
  omni image of ``(180 ppd, 360 ppd)`` pixels, ``ppd`` pixels per degree: the
  pixel in row ``i``, column ``j`` covers azimuths ``[j, j + 1] / ppd - 180``
  degrees and inclinations ``[i, i + 1] / ppd`` degrees, and its centre is
  ``(u, v) = (j, i)`` as for every image: ``u = (azimuth_deg + 180) ppd - 0.5``,
  ``v = inclination_deg ppd - 0.5``. Row 0 touches the zenith, column 0 the
  backward direction (azimuth -180 degrees). :func:`pad_omni_image` pads such images.

Matrices ``(*B, r, c)`` apply to coordinates ``(*B, *S, c)``: their batch
dimensions line up with the coordinates' leading ones, followed by any number of
point dimensions ``S`` (an image's ``H, W``). Every function takes float32 or
float64 and is differentiable; divisions by depth use a denominator kept at
least ``1e-12`` away from zero, so values and gradients stay finite at zero depth.
"""

from __future__ import annotations

import math
from typing import Any

import hedera as hd
import hedera.mech as mech
from hedera.helpers import finite_float

from ._helpers import (
    Array,
    apply_affine,
    apply_matrix,
    check_image,
    check_image_dims,
    check_last_dim,
    check_matrix,
    pixel_grid_like,
    safe_divide,
    safe_norm,
)

__all__ = [
    "create_uniform_pixel_coords_image",
    "pixel_to_ds_pixel_coords",
    "ds_pixel_to_pixel_coords",
    "depth_to_ds_pixel_coords",
    "ds_pixel_to_cam_coords",
    "cam_to_ds_pixel_coords",
    "cam_to_world_coords",
    "world_to_cam_coords",
    "ds_pixel_to_world_coords",
    "world_to_ds_pixel_coords",
    "world_to_pixel_coords",
    "depth_to_cam_coords",
    "depth_to_world_coords",
    "pixel_coords_to_cam_ray_vectors",
    "pixel_coords_to_world_ray_vectors",
    "depth_to_radial_depth",
    "radial_depth_to_depth",
    "cam_to_sphere_coords",
    "sphere_to_cam_coords",
    "ds_pixel_to_sphere_coords",
    "sphere_to_ds_pixel_coords",
    "world_to_sphere_coords",
    "sphere_to_world_coords",
    "sphere_to_angular_pixel_coords",
    "angular_pixel_to_sphere_coords",
]


# ---- pixel coordinates ------------------------------------------------------------------------


def create_uniform_pixel_coords_image(
    image_dims: tuple[int, int],
    batch_shape: tuple[int, ...] = (),
    *,
    homogeneous: bool = True,
    normalized: bool = False,
    dtype: Any = None,
    device: Any = None,
) -> Array:
    """The image of every pixel's own coordinates, on the current backend (:func:`hedera.use_backend`).

    Parameters
    ----------
    image_dims : (int, int)
        ``(H, W)``.
    batch_shape : tuple of int, optional
        Leading dimensions to broadcast the image to.
    homogeneous : bool, optional
        Append a third coordinate 1 (default): ``(u, v, 1)``, the homogeneous
        pixel-depth coordinates of depth 1. Scaling it by a depth image gives
        that image's homogeneous pixel-depth coordinates.
    normalized : bool, optional
        Divide ``u`` by ``W`` and ``v`` by ``H`` (so they lie in ``[0, 1)``).
    dtype, device
        Default ``hd.float32`` and the backend's default device.

    Returns
    -------
    array, shape (*batch_shape, H, W, 3) or (*batch_shape, H, W, 2)
        ``out[..., i, j, :] = (j, i, 1)``: pixel centres, origin at the top-left pixel's centre.

    Examples
    --------
    >>> import hedera as hd, hedera.vision as hv
    >>> hd.to_numpy(hv.create_uniform_pixel_coords_image((2, 3), homogeneous=False))[1, 2]
    array([2., 1.], dtype=float32)
    """
    height, width = check_image_dims(image_dims)
    dtype = hd.float32 if dtype is None else dtype
    u = hd.arange(width, dtype=dtype, device=device)
    v = hd.arange(height, dtype=dtype, device=device)
    if normalized:
        u, v = u / float(width), v / float(height)
    uu, vv = hd.meshgrid(u, v, indexing="xy")
    parts = [uu, vv, hd.ones_like(uu)] if homogeneous else [uu, vv]
    out = hd.stack(parts, axis=-1)
    return hd.broadcast_to(out, (*tuple(batch_shape), *tuple(out.shape)))


def pixel_to_ds_pixel_coords(pixel_coords: Array, depth: Array) -> Array:
    """Homogeneous pixel-depth coordinates ``(u d, v d, d)`` ``(..., 3)`` of pixels and depths.

    ``pixel_coords`` ``(u, v)`` ``(..., 2)`` and ``depth`` ``d`` ``(..., 1)`` broadcast.
    """
    check_last_dim(pixel_coords, 2, "pixel_coords", "pixel coordinates")
    check_last_dim(depth, 1, "depth", "depths")
    return hd.concat([pixel_coords * depth, depth + hd.zeros_like(pixel_coords[..., :1])], axis=-1)


def ds_pixel_to_pixel_coords(ds_pixel_coords: Array) -> Array:
    """Pixel coordinates ``(u, v)`` ``(..., 2)`` of homogeneous pixel-depth coordinates ``(..., 3)``.

    The depth is kept at least 1e-12 away from zero, so points at zero depth give
    large but finite coordinates (and gradients).
    """
    check_last_dim(ds_pixel_coords, 3, "ds_pixel_coords", "homogeneous pixel-depth coordinates")
    return safe_divide(ds_pixel_coords[..., :2], ds_pixel_coords[..., 2:3])


def depth_to_ds_pixel_coords(depth: Array) -> Array:
    """Homogeneous pixel-depth coordinates image of a depth image.

    Parameters
    ----------
    depth : array, shape (..., H, W, 1)
        Depth (camera ``z``) of each pixel.

    Returns
    -------
    array, shape (..., H, W, 3)
        ``(j d, i d, d)`` at row ``i``, column ``j``.
    """
    check_image(depth, "depth")
    check_last_dim(depth, 1, "depth", "a depth image")
    height, width = tuple(depth.shape)[-3:-1]
    grid = pixel_grid_like(height, width, depth)
    return hd.concat([grid * depth, depth], axis=-1)


# ---- pixel <-> camera <-> world ----------------------------------------------------------------


def ds_pixel_to_cam_coords(ds_pixel_coords: Array, inv_calib_mat: Array) -> Array:
    """Camera coordinates of homogeneous pixel-depth coordinates: ``K^-1 (u d, v d, d)``.

    Parameters
    ----------
    ds_pixel_coords : array, shape (*B, *S, 3)
        ``(u d, v d, d)``.
    inv_calib_mat : array, shape (*B, 3, 3)
        ``K^-1``.

    Returns
    -------
    array, shape (*B, *S, 3)
        ``(x, y, z)`` in the camera frame (``z = d``).
    """
    check_last_dim(ds_pixel_coords, 3, "ds_pixel_coords", "homogeneous pixel-depth coordinates")
    check_matrix(inv_calib_mat, ((3, 3),), "inv_calib_mat", "an inverse calibration matrix")
    return apply_matrix(inv_calib_mat, ds_pixel_coords)


def cam_to_ds_pixel_coords(cam_coords: Array, calib_mat: Array) -> Array:
    """Homogeneous pixel-depth coordinates ``K (x, y, z) = (u z, v z, z)`` of camera points.

    ``cam_coords`` ``(*B, *S, 3)``, ``calib_mat`` ``K`` ``(*B, 3, 3)``; returns ``(*B, *S, 3)``.
    """
    check_last_dim(cam_coords, 3, "cam_coords", "camera coordinates")
    check_matrix(calib_mat, ((3, 3),), "calib_mat", "a calibration matrix")
    return apply_matrix(calib_mat, cam_coords)


def cam_to_world_coords(cam_coords: Array, inv_ext_mat: Array) -> Array:
    """World coordinates ``R^T p + C`` of camera points ``p``.

    ``cam_coords`` ``(*B, *S, 3)``, ``inv_ext_mat`` ``[R^T | C]`` ``(*B, 3, 4)``; returns ``(*B, *S, 3)``.
    """
    check_last_dim(cam_coords, 3, "cam_coords", "camera coordinates")
    check_matrix(inv_ext_mat, ((3, 4), (4, 4)), "inv_ext_mat", "an inverse extrinsic matrix")
    return apply_affine(inv_ext_mat, cam_coords)


def world_to_cam_coords(world_coords: Array, ext_mat: Array) -> Array:
    """Camera coordinates ``R p + t`` of world points ``p``.

    ``world_coords`` ``(*B, *S, 3)``, ``ext_mat`` ``[R | t]`` ``(*B, 3, 4)``; returns ``(*B, *S, 3)``.
    """
    check_last_dim(world_coords, 3, "world_coords", "world coordinates")
    check_matrix(ext_mat, ((3, 4), (4, 4)), "ext_mat", "an extrinsic matrix")
    return apply_affine(ext_mat, world_coords)


def ds_pixel_to_world_coords(ds_pixel_coords: Array, inv_calib_mat: Array, inv_ext_mat: Array) -> Array:
    """World coordinates ``(*B, *S, 3)`` of homogeneous pixel-depth coordinates ``(*B, *S, 3)``.

    ``inv_calib_mat`` is ``K^-1`` ``(*B, 3, 3)``, ``inv_ext_mat`` the camera-to-world
    ``[R^T | C]`` ``(*B, 3, 4)``.
    """
    return cam_to_world_coords(ds_pixel_to_cam_coords(ds_pixel_coords, inv_calib_mat), inv_ext_mat)


def world_to_ds_pixel_coords(world_coords: Array, full_mat: Array) -> Array:
    """Homogeneous pixel-depth coordinates ``P (x, y, z, 1) = (u d, v d, d)`` of world points.

    ``world_coords`` ``(*B, *S, 3)``, ``full_mat`` ``P = K [R | t]`` ``(*B, 3, 4)``
    (:func:`calib_and_ext_to_full_mat`); returns ``(*B, *S, 3)``;
    ``d`` is the point's depth in the camera (negative behind it).
    """
    check_last_dim(world_coords, 3, "world_coords", "world coordinates")
    check_matrix(full_mat, ((3, 4),), "full_mat", "a full projection matrix")
    return apply_affine(full_mat, world_coords)


def world_to_pixel_coords(world_coords: Array, full_mat: Array) -> Array:
    """Project world points to pixels, as OpenCV's ``projectPoints`` without distortion.

    Parameters
    ----------
    world_coords : array, shape (*B, *S, 3)
    full_mat : array, shape (*B, 3, 4)
        ``P = K [R | t]``.

    Returns
    -------
    array, shape (*B, *S, 2)
        ``(u, v)``, origin at the top-left pixel's centre. Depths are kept at least
        1e-12 away from zero (finite values and gradients there).
    """
    return ds_pixel_to_pixel_coords(world_to_ds_pixel_coords(world_coords, full_mat))


def depth_to_cam_coords(depth: Array, inv_calib_mat: Array) -> Array:
    """Camera coordinates ``(*B, H, W, 3)`` of a depth image ``(*B, H, W, 1)``; ``K^-1`` ``(*B, 3, 3)``."""
    return ds_pixel_to_cam_coords(depth_to_ds_pixel_coords(depth), inv_calib_mat)


def depth_to_world_coords(depth: Array, inv_calib_mat: Array, inv_ext_mat: Array) -> Array:
    """World coordinates of every pixel of a depth image (unprojection).

    Parameters
    ----------
    depth : array, shape (*B, H, W, 1)
        Depth (camera ``z``) per pixel.
    inv_calib_mat : array, shape (*B, 3, 3)
        ``K^-1``.
    inv_ext_mat : array, shape (*B, 3, 4)
        Camera-to-world ``[R^T | C]``.

    Returns
    -------
    array, shape (*B, H, W, 3)
        The world point seen at each pixel centre.
    """
    return cam_to_world_coords(depth_to_cam_coords(depth, inv_calib_mat), inv_ext_mat)


def pixel_coords_to_cam_ray_vectors(pixel_coords: Array, inv_calib_mat: Array) -> Array:
    """Unit ray directions in the camera frame through pixels.

    ``pixel_coords`` ``(u, v)`` ``(*B, *S, 2)``, ``inv_calib_mat`` ``K^-1`` ``(*B, 3, 3)``; returns
    ``K^-1 (u, v, 1)`` normalized, ``(*B, *S, 3)``.
    """
    check_last_dim(pixel_coords, 2, "pixel_coords", "pixel coordinates")
    homogeneous = hd.concat([pixel_coords, hd.ones_like(pixel_coords[..., :1])], axis=-1)
    rays = ds_pixel_to_cam_coords(homogeneous, inv_calib_mat)
    return rays / safe_norm(rays, keepdims=True)  # z = 1 > 0: never zero


def pixel_coords_to_world_ray_vectors(pixel_coords: Array, inv_calib_mat: Array, inv_ext_mat: Array) -> Array:
    """Unit ray directions in the world frame through pixel centres.

    Parameters
    ----------
    pixel_coords : array, shape (*B, *S, 2)
        ``(u, v)``.
    inv_calib_mat : array, shape (*B, 3, 3)
        ``K^-1``.
    inv_ext_mat : array, shape (*B, 3, 4)
        Camera-to-world ``[R^T | C]``; the rays start at the camera centre ``C``.

    Returns
    -------
    array, shape (*B, *S, 3)
        ``R^T K^-1 (u, v, 1)``, normalized.
    """
    check_matrix(inv_ext_mat, ((3, 4), (4, 4)), "inv_ext_mat", "an inverse extrinsic matrix")
    rays = pixel_coords_to_cam_ray_vectors(pixel_coords, inv_calib_mat)
    return apply_matrix(inv_ext_mat[..., :3, :3], rays)


def depth_to_radial_depth(depth: Array, inv_calib_mat: Array) -> Array:
    """Radial depth (distance from the camera centre) image of a depth (camera ``z``) image.

    ``depth`` ``(*B, H, W, 1)``, ``inv_calib_mat`` ``K^-1`` ``(*B, 3, 3)``; returns ``(*B, H, W, 1)``.
    """
    return safe_norm(depth_to_cam_coords(depth, inv_calib_mat), keepdims=True)


def radial_depth_to_depth(radial_depth: Array, inv_calib_mat: Array) -> Array:
    """Depth (camera ``z``) image of a radial depth (distance from the camera centre) image.

    ``radial_depth`` ``(*B, H, W, 1)``, ``inv_calib_mat`` ``K^-1`` ``(*B, 3, 3)``; returns
    ``d = r / |K^-1 (u, v, 1)|`` at each pixel centre ``(u, v)``, ``(*B, H, W, 1)``.
    """
    check_image(radial_depth, "radial_depth")
    check_last_dim(radial_depth, 1, "radial_depth", "a radial depth image")
    rays = depth_to_cam_coords(hd.ones_like(radial_depth), inv_calib_mat)  # z = 1
    return radial_depth / safe_norm(rays, keepdims=True)


# ---- sphere (omni-directional) coordinates ------------------------------------------------------


def cam_to_sphere_coords(cam_coords: Array) -> Array:
    """Sphere coordinates ``(azimuth, inclination, radius)`` ``(..., 3)`` of camera points ``(..., 3)``.

    Azimuth ``atan2(x, z)`` in ``(-pi, pi]`` (0 forward, ``pi / 2`` right);
    inclination from up (``-y``), ``atan2(hypot(x, z), -y)`` in ``[0, pi]``;
    radius ``|p|``. Finite gradients everywhere (zero at the origin and on the vertical axis).
    """
    check_last_dim(cam_coords, 3, "cam_coords", "camera coordinates")
    x, y, z = cam_coords[..., 0], cam_coords[..., 1], cam_coords[..., 2]
    # hedera.mech's polar coordinates (azimuth about +z' from +x', inclination from +z')
    # of the frame x' = forward (z), y' = right (x), z' = up (-y)
    return mech.cartesian_to_polar_coords(hd.stack([z, x, -y], axis=-1))


def sphere_to_cam_coords(sphere_coords: Array) -> Array:
    """Camera points ``(..., 3)`` of sphere coordinates ``(azimuth, inclination, radius)`` ``(..., 3)``.

    ``(r sin(inc) sin(az), -r cos(inc), r sin(inc) cos(az))``.
    """
    check_last_dim(sphere_coords, 3, "sphere_coords", "sphere coordinates")
    p = mech.polar_to_cartesian_coords(sphere_coords)  # forward, right, up
    return hd.stack([p[..., 1], -p[..., 2], p[..., 0]], axis=-1)


def ds_pixel_to_sphere_coords(ds_pixel_coords: Array, inv_calib_mat: Array) -> Array:
    """Sphere coordinates ``(*B, *S, 3)`` of homogeneous pixel-depth coordinates ``(*B, *S, 3)``, ``K^-1``."""
    return cam_to_sphere_coords(ds_pixel_to_cam_coords(ds_pixel_coords, inv_calib_mat))


def sphere_to_ds_pixel_coords(sphere_coords: Array, calib_mat: Array) -> Array:
    """Homogeneous pixel-depth coordinates ``(*B, *S, 3)`` of sphere coordinates ``(*B, *S, 3)``, ``K``."""
    return cam_to_ds_pixel_coords(sphere_to_cam_coords(sphere_coords), calib_mat)


def world_to_sphere_coords(world_coords: Array, ext_mat: Array) -> Array:
    """Sphere coordinates about the camera ``(*B, *S, 3)`` of world points ``(*B, *S, 3)``, ``E``."""
    return cam_to_sphere_coords(world_to_cam_coords(world_coords, ext_mat))


def sphere_to_world_coords(sphere_coords: Array, inv_ext_mat: Array) -> Array:
    """World points ``(*B, *S, 3)`` of sphere coordinates about the camera ``(*B, *S, 3)``; ``[R^T | C]``."""
    return cam_to_world_coords(sphere_to_cam_coords(sphere_coords), inv_ext_mat)


def _pixels_per_degree(op: str, value: Any) -> float:
    return finite_float(op, "pixels_per_degree", value, minimum=0.0, exclusive_min=True)  # type: ignore[return-value]


def sphere_to_angular_pixel_coords(sphere_coords: Array, pixels_per_degree: float) -> Array:
    """Angular pixel coordinates with radius ``(u, v, r)`` ``(..., 3)`` of sphere coordinates ``(..., 3)``.

    ``u = (azimuth_deg + 180) ppd - 0.5``, ``v = inclination_deg ppd - 0.5``: the
    pixel coordinates (origin at the top-left pixel's centre) in an
    equirectangular omni image of ``(180 ppd, 360 ppd)`` pixels (see the module
    docstring); the radius is passed through.
    """
    check_last_dim(sphere_coords, 3, "sphere_coords", "sphere coordinates")
    scale = 180.0 / math.pi * _pixels_per_degree("sphere_to_angular_pixel_coords", pixels_per_degree)
    u = (sphere_coords[..., 0:1] + math.pi) * scale - 0.5
    v = sphere_coords[..., 1:2] * scale - 0.5
    return hd.concat([u, v, sphere_coords[..., 2:3]], axis=-1)


def angular_pixel_to_sphere_coords(angular_pixel_coords: Array, pixels_per_degree: float) -> Array:
    """Sphere coordinates ``(..., 3)`` of angular pixel coordinates with radius ``(u, v, r)`` ``(..., 3)``.

    The inverse of :func:`sphere_to_angular_pixel_coords`: ``azimuth = (u + 0.5) / ppd - 180``
    degrees, ``inclination = (v + 0.5) / ppd`` degrees (returned in radians).
    """
    check_last_dim(angular_pixel_coords, 3, "angular_pixel_coords", "angular pixel coordinates")
    scale = math.pi / 180.0 / _pixels_per_degree("angular_pixel_to_sphere_coords", pixels_per_degree)
    azimuth = (angular_pixel_coords[..., 0:1] + 0.5) * scale - math.pi
    inclination = (angular_pixel_coords[..., 1:2] + 0.5) * scale
    return hd.concat([azimuth, inclination, angular_pixel_coords[..., 2:3]], axis=-1)
