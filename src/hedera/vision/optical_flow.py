"""Optical flow: flow from depth and camera motion, depth from flow, cost volumes, scene velocity.

Conventions (see :mod:`hedera.vision.cameras`): pinhole cameras; camera frame
``x`` right, ``y`` down, ``z`` forward; pixel ``(u, v) = (column, row)`` with the
top-left pixel's centre at the origin; ``K = [[fx, 0, cx], [0, fy, cy], [0, 0, 1]]``;
``E = [R | t]`` maps world to camera. Images are channels-last ``(..., H, W, C)``;
depth images ``(..., H, W, 1)``.

**Flow** ``(..., H, W, 2)`` from image 1 to image 2 holds, at each pixel ``(u1, v1)``
of image 1, the displacement ``(u2 - u1, v2 - v1)`` to where the same scene point
appears in image 2.
"""

from __future__ import annotations

import hedera as hd
from hedera.helpers import integer

from ._helpers import (
    Array,
    apply_affine,
    check_floating,
    check_image,
    check_last_dim,
    check_matrix,
    pixel_grid_like,
)
from .cameras import calib_and_ext_to_full_mat, calib_mat_to_inv_calib_mat, ext_mat_to_inv_ext_mat
from .images import bilinear_resample
from .projective import depth_to_world_coords, world_to_pixel_coords
from .two_view import triangulate_depth

__all__ = [
    "flow_from_depth_and_cam_mats",
    "depth_from_flow_and_cam_mats",
    "pixel_cost_volume",
    "velocity_from_flow_cam_coords_and_cam_mats",
]


def flow_from_depth_and_cam_mats(
    depth1: Array, calib_mat1: Array, ext_mat1: Array, ext_mat2: Array, calib_mat2: Array | None = None
) -> Array:
    """Optical flow induced on a static scene by a camera motion.

    Parameters
    ----------
    depth1 : array, shape (*B, H, W, 1)
        Depth (camera ``z``) image of camera 1.
    calib_mat1 : array, shape (*B, 3, 3)
        ``K1``.
    ext_mat1, ext_mat2 : array, shape (*B, 3, 4)
        World-to-camera ``[R | t]`` of camera 1 and camera 2.
    calib_mat2 : array, shape (*B, 3, 3), optional
        ``K2``; default ``K1``.

    Returns
    -------
    array, shape (*B, H, W, 2)
        At each pixel ``(u1, v1)`` of image 1: ``(u2 - u1, v2 - v1)``, where
        ``(u2, v2)`` is the projection into camera 2 of the point that pixel sees.
        Differentiable in the depths and in all camera matrices.
    """
    check_image(depth1, "depth1")
    check_last_dim(depth1, 1, "depth1", "a depth image")
    calib_mat2 = calib_mat1 if calib_mat2 is None else calib_mat2
    world = depth_to_world_coords(
        depth1, calib_mat_to_inv_calib_mat(calib_mat1), ext_mat_to_inv_ext_mat(ext_mat1)
    )
    pixels2 = world_to_pixel_coords(world, calib_and_ext_to_full_mat(calib_mat2, ext_mat2))
    height, width = tuple(depth1.shape)[-3:-1]
    return pixels2 - pixel_grid_like(height, width, depth1)


def depth_from_flow_and_cam_mats(
    flow: Array,
    calib_mat1: Array,
    ext_mat1: Array,
    ext_mat2: Array,
    calib_mat2: Array | None = None,
    *,
    method: str = "dlt",
) -> Array:
    """Depth image of camera 1 triangulated from the optical flow to camera 2.

    Parameters
    ----------
    flow : array, shape (*B, H, W, 2)
        Flow from image 1 to image 2 (see the module docstring).
    calib_mat1 : array, shape (*B, 3, 3)
        ``K1``.
    ext_mat1, ext_mat2 : array, shape (*B, 3, 4)
        World-to-camera ``[R | t]`` of camera 1 and camera 2 (they must not share a centre).
    calib_mat2 : array, shape (*B, 3, 3), optional
        ``K2``; default ``K1``.
    method : {"dlt", "cmp"}
        Triangulation method, see :func:`triangulate_points`.

    Returns
    -------
    array, shape (*B, H, W, 1)
        Depth (camera-1 ``z``) at each pixel of image 1.
    """
    check_image(flow, "flow")
    check_last_dim(flow, 2, "flow", "a flow image")
    calib_mat2 = calib_mat1 if calib_mat2 is None else calib_mat2
    height, width = tuple(flow.shape)[-3:-1]
    pixels1 = pixel_grid_like(height, width, flow) + hd.zeros_like(flow)
    full1 = calib_and_ext_to_full_mat(calib_mat1, ext_mat1)
    full2 = calib_and_ext_to_full_mat(calib_mat2, ext_mat2)
    return triangulate_depth(pixels1, pixels1 + flow, full1, full2, method=method)


def pixel_cost_volume(image1: Array, image2: Array, search_range: int) -> Array:
    """Correlation cost volume between two feature images (as in PWC-Net).

    Parameters
    ----------
    image1, image2 : array, shape (..., H, W, C)
        Feature images; batch dimensions broadcast.
    search_range : int
        ``r >= 0``: displacements ``dv, du`` in ``[-r, r]`` are compared.

    Returns
    -------
    array, shape (..., H, W, (2r + 1)**2)
        ``out[..., i, j, k] = mean_c image1[..., i, j, c] * image2[..., i + dv, j + du, c]``
        with ``k = (dv + r) (2r + 1) + (du + r)`` (row displacement major); pixels
        of ``image2`` outside the image count as zero.
    """
    check_image(image1, "image1")
    check_image(image2, "image2")
    check_floating(image1, "image1")
    if search_range.__class__ is not int:
        integer("pixel_cost_volume", "search_range", search_range)
    if search_range < 0:
        raise hd.InvalidArgumentError(f"search_range: expected an int >= 0, got {search_range!r}")
    r = search_range
    height, width = tuple(image2.shape)[-3:-1]
    pad = [(0, 0)] * (len(tuple(image2.shape)) - 3) + [(r, r), (r, r), (0, 0)]
    padded = hd.pad(image2, pad)
    costs = []
    for dv in range(-r, r + 1):
        for du in range(-r, r + 1):
            shifted = padded[..., r + dv : r + dv + height, r + du : r + du + width, :]
            costs.append(hd.mean(image1 * shifted, axis=-1))
    return hd.stack(costs, axis=-1)


def velocity_from_flow_cam_coords_and_cam_mats(
    flow_t_to_tm1: Array,
    cam_coords_t: Array,
    cam_coords_tm1: Array,
    cam_tm1_to_t_ext_mat: Array,
    delta_t: float | Array,
) -> Array:
    """Velocity of the scene points seen in frame ``t``, in camera ``t``'s frame.

    Parameters
    ----------
    flow_t_to_tm1 : array, shape (*B, H, W, 2)
        Flow from image ``t`` back to image ``t - 1``.
    cam_coords_t : array, shape (*B, H, W, 3)
        Camera coordinates image at time ``t`` (e.g. :func:`depth_to_cam_coords`).
    cam_coords_tm1 : array, shape (*B, H, W, 3)
        Camera coordinates image at time ``t - 1``, in camera ``t - 1``'s frame.
    cam_tm1_to_t_ext_mat : array, shape (*B, 3, 4)
        Camera ``t - 1`` to camera ``t`` transform ``E_t E_{t-1}^-1`` (:func:`relative_ext_mat`).
    delta_t : float or array broadcastable to (*B, 1, 1, 1)
        Time between the frames.

    Returns
    -------
    array, shape (*B, H, W, 3)
        ``(p_t - T p_{t-1}) / delta_t``: ``p_{t-1}`` is ``cam_coords_tm1`` sampled
        bilinearly at ``(u, v) + flow`` (edge pixels repeat beyond the border),
        ``T`` the camera motion. Static points have zero velocity, whatever the camera does.
    """
    for name, image, size in (
        ("flow_t_to_tm1", flow_t_to_tm1, 2),
        ("cam_coords_t", cam_coords_t, 3),
        ("cam_coords_tm1", cam_coords_tm1, 3),
    ):
        check_image(image, name)
        check_last_dim(image, size, name, "an image")
    check_matrix(cam_tm1_to_t_ext_mat, ((3, 4), (4, 4)), "cam_tm1_to_t_ext_mat", "a rigid transform")
    height, width = tuple(flow_t_to_tm1.shape)[-3:-1]
    coords_tm1 = pixel_grid_like(height, width, flow_t_to_tm1) + flow_t_to_tm1
    previous = bilinear_resample(cam_coords_tm1, coords_tm1)
    previous_in_t = apply_affine(cam_tm1_to_t_ext_mat, previous)
    return (cam_coords_t - previous_in_t) / delta_t
