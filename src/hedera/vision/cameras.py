"""Cameras: intrinsics, extrinsics and a small camera-geometry container.

Conventions (the whole of :mod:`hedera.vision` follows them):

* **pinhole camera**, no lens distortion;
* **camera frame**: ``x`` right, ``y`` down, ``z`` forward along the optical axis (OpenCV's);
* **pixel coordinates** ``(u, v)``: ``u`` along the image width (column, ``x``),
  ``v`` along the height (row, ``y``); the *centre* of the pixel in row ``i``,
  column ``j`` is ``(u, v) = (j, i)``, so the top-left pixel's centre is the
  origin and an ``H x W`` image covers ``[-0.5, W - 0.5] x [-0.5, H - 0.5]``
  (OpenCV's ``projectPoints`` and ``remap`` convention);
* **calibration matrix** ``K = [[fx, 0, cx], [0, fy, cy], [0, 0, 1]]``, focal
  lengths and principal point in pixels; ``image_dims`` is ``(H, W)``;
* **extrinsic matrix** ``E = [R | t]`` ``(..., 3, 4)`` maps world to camera
  coordinates, ``p_cam = R p_world + t``; the camera centre is ``C = -R^T t``;
  the *inverse* extrinsic matrix ``[R^T | C]`` maps camera to world;
* **full matrix** ``P = K E`` ``(..., 3, 4)``, the world-to-pixel projection;
* angles in radians.

Every function is batched over leading dimensions and takes float32 or float64.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import hedera as hd

from ._helpers import (
    Array,
    check_image_dims,
    check_last_dim,
    check_matrix,
    matrix_from_rows,
    safe_divide,
)

__all__ = [
    "persp_angles_to_focal_lengths",
    "focal_lengths_to_persp_angles",
    "focal_lengths_and_pp_offsets_to_calib_mat",
    "calib_mat_to_focal_lengths_and_pp_offsets",
    "calib_mat_to_inv_calib_mat",
    "rot_mat_and_cam_center_to_ext_mat",
    "ext_mat_to_rot_mat_and_cam_center",
    "ext_mat_to_inv_ext_mat",
    "inv_ext_mat_to_ext_mat",
    "calib_and_ext_to_full_mat",
    "relative_ext_mat",
    "Intrinsics",
    "Extrinsics",
    "CameraGeometry",
]


def _image_dims_like(image_dims: Any, like: Array) -> Array:
    """``(W, H)`` (x first, like focal lengths) as an array of ``like``'s backend, dtype and device."""
    height, width = check_image_dims(image_dims)
    return hd.stack(
        [hd.full_like(like[..., 0], float(width)), hd.full_like(like[..., 0], float(height))], axis=-1
    )


# ---- intrinsics ----------------------------------------------------------------------------


def persp_angles_to_focal_lengths(persp_angles: Array, image_dims: tuple[int, int]) -> Array:
    """Focal lengths from perspective angles (fields of view).

    Parameters
    ----------
    persp_angles : array, shape (..., 2)
        Full horizontal and vertical fields of view ``(theta_x, theta_y)``, radians, in ``(0, pi)``.
    image_dims : (int, int)
        Image size ``(H, W)`` in pixels.

    Returns
    -------
    array, shape (..., 2)
        ``(fx, fy) = (W / (2 tan(theta_x / 2)), H / (2 tan(theta_y / 2)))``, pixels.
    """
    check_last_dim(persp_angles, 2, "persp_angles", "perspective angles")
    return safe_divide(_image_dims_like(image_dims, persp_angles), 2.0 * hd.tan(persp_angles / 2.0))


def focal_lengths_to_persp_angles(focal_lengths: Array, image_dims: tuple[int, int]) -> Array:
    """Perspective angles (fields of view) from focal lengths; see :func:`persp_angles_to_focal_lengths`.

    Parameters
    ----------
    focal_lengths : array, shape (..., 2)
        ``(fx, fy)``, pixels, positive.
    image_dims : (int, int)
        Image size ``(H, W)`` in pixels.

    Returns
    -------
    array, shape (..., 2)
        ``(theta_x, theta_y) = (2 atan(W / (2 fx)), 2 atan(H / (2 fy)))``, radians.
    """
    check_last_dim(focal_lengths, 2, "focal_lengths", "focal lengths")
    return 2.0 * hd.atan(safe_divide(_image_dims_like(image_dims, focal_lengths), 2.0 * focal_lengths))


def focal_lengths_and_pp_offsets_to_calib_mat(focal_lengths: Array, pp_offsets: Array) -> Array:
    """Calibration matrix from focal lengths and principal point.

    Parameters
    ----------
    focal_lengths : array, shape (..., 2)
        ``(fx, fy)``, pixels.
    pp_offsets : array, shape (..., 2)
        Principal point ``(cx, cy)`` in pixel coordinates (origin at the top-left pixel's centre).

    Returns
    -------
    array, shape (..., 3, 3)
        ``K = [[fx, 0, cx], [0, fy, cy], [0, 0, 1]]``. Batch dimensions broadcast.
    """
    check_last_dim(focal_lengths, 2, "focal_lengths", "focal lengths")
    check_last_dim(pp_offsets, 2, "pp_offsets", "principal-point offsets")
    focal_lengths, pp_offsets = hd.broadcast_arrays(focal_lengths, pp_offsets)
    fx, fy = focal_lengths[..., 0], focal_lengths[..., 1]
    cx, cy = pp_offsets[..., 0], pp_offsets[..., 1]
    zero = hd.zeros_like(fx)
    one = hd.ones_like(fx)
    return matrix_from_rows([[fx, zero, cx], [zero, fy, cy], [zero, zero, one]])


def calib_mat_to_focal_lengths_and_pp_offsets(calib_mat: Array) -> tuple[Array, Array]:
    """``(focal_lengths, pp_offsets)``: ``(fx, fy)``, ``(cx, cy)`` ``(..., 2)`` of ``K`` ``(..., 3, 3)``."""
    check_matrix(calib_mat, ((3, 3),), "calib_mat", "a calibration matrix")
    focal = hd.stack([calib_mat[..., 0, 0], calib_mat[..., 1, 1]], axis=-1)
    pp = hd.stack([calib_mat[..., 0, 2], calib_mat[..., 1, 2]], axis=-1)
    return focal, pp


def calib_mat_to_inv_calib_mat(calib_mat: Array) -> Array:
    """Inverse of an upper-triangular calibration matrix, in closed form.

    Parameters
    ----------
    calib_mat : array, shape (..., 3, 3)
        ``K = [[fx, s, cx], [0, fy, cy], [0, 0, 1]]`` (skew ``s`` allowed).

    Returns
    -------
    array, shape (..., 3, 3)
        ``K^-1 = [[1/fx, -s/(fx fy), (s cy - cx fy)/(fx fy)], [0, 1/fy, -cy/fy], [0, 0, 1]]``:
        it maps homogeneous pixel coordinates ``(u, v, 1)`` to the camera ray ``(x/z, y/z, 1)``.
    """
    check_matrix(calib_mat, ((3, 3),), "calib_mat", "a calibration matrix")
    fx, s, cx = calib_mat[..., 0, 0], calib_mat[..., 0, 1], calib_mat[..., 0, 2]
    fy, cy = calib_mat[..., 1, 1], calib_mat[..., 1, 2]
    zero = hd.zeros_like(fx)
    one = hd.ones_like(fx)
    fxfy = fx * fy
    return matrix_from_rows(
        [
            [1.0 / fx, -s / fxfy, (s * cy - cx * fy) / fxfy],
            [zero, 1.0 / fy, -cy / fy],
            [zero, zero, one],
        ]
    )


# ---- extrinsics ----------------------------------------------------------------------------


def rot_mat_and_cam_center_to_ext_mat(rot_mat: Array, cam_center: Array) -> Array:
    """Extrinsic matrix from the camera's rotation and centre.

    Parameters
    ----------
    rot_mat : array, shape (..., 3, 3)
        ``R``, the world-to-camera rotation (its rows are the camera axes in world coordinates).
    cam_center : array, shape (..., 3)
        ``C``, the camera centre in world coordinates.

    Returns
    -------
    array, shape (..., 3, 4)
        ``E = [R | -R C]``, mapping world to camera coordinates. Batch dimensions broadcast.
    """
    check_matrix(rot_mat, ((3, 3),), "rot_mat", "a rotation matrix")
    check_last_dim(cam_center, 3, "cam_center", "a camera centre")
    t = -hd.matmul(rot_mat, cam_center[..., None])
    rot_mat = hd.broadcast_to(rot_mat, (*tuple(t.shape[:-2]), 3, 3))
    return hd.concat([rot_mat, t], axis=-1)


def ext_mat_to_rot_mat_and_cam_center(ext_mat: Array) -> tuple[Array, Array]:
    """Rotation ``R`` ``(..., 3, 3)`` and camera centre ``-R^T t`` ``(..., 3)`` of ``[R | t]``."""
    check_matrix(ext_mat, ((3, 4), (4, 4)), "ext_mat", "an extrinsic matrix")
    rot = ext_mat[..., :3, :3]
    center = -hd.matmul(hd.matrix_transpose(rot), ext_mat[..., :3, 3:4])[..., 0]
    return rot, center


def ext_mat_to_inv_ext_mat(ext_mat: Array) -> Array:
    """Inverse of a rigid transform ``[R | t]``: ``[R^T | -R^T t]``.

    Parameters
    ----------
    ext_mat : array, shape (..., 3, 4) or (..., 4, 4)
        World-to-camera extrinsic matrix ``E = [R | t]`` (a 4x4 one's last row is ignored).

    Returns
    -------
    array, shape (..., 3, 4)
        The camera-to-world matrix ``[R^T | C]``, ``C`` the camera centre. Applied to an
        inverse extrinsic matrix it gives the extrinsic matrix back (the same maths).
    """
    check_matrix(ext_mat, ((3, 4), (4, 4)), "ext_mat", "an extrinsic matrix")
    rot_t = hd.matrix_transpose(ext_mat[..., :3, :3])
    return hd.concat([rot_t, -hd.matmul(rot_t, ext_mat[..., :3, 3:4])], axis=-1)


def inv_ext_mat_to_ext_mat(inv_ext_mat: Array) -> Array:
    """Extrinsic matrix ``[R | t]`` ``(..., 3, 4)`` of a camera-to-world ``[R^T | C]`` ``(..., 3, 4)``."""
    check_matrix(inv_ext_mat, ((3, 4), (4, 4)), "inv_ext_mat", "an inverse extrinsic matrix")
    return ext_mat_to_inv_ext_mat(inv_ext_mat)


def calib_and_ext_to_full_mat(calib_mat: Array, ext_mat: Array) -> Array:
    """Full projection matrix ``P = K E`` ``(..., 3, 4)`` of ``K`` ``(..., 3, 3)`` and ``E`` ``(..., 3, 4)``.

    ``P @ (x, y, z, 1)`` is the homogeneous pixel-depth vector ``(u d, v d, d)`` of
    world point ``(x, y, z)``, ``d`` its depth (camera ``z``).
    """
    check_matrix(calib_mat, ((3, 3),), "calib_mat", "a calibration matrix")
    check_matrix(ext_mat, ((3, 4), (4, 4)), "ext_mat", "an extrinsic matrix")
    return hd.matmul(calib_mat, ext_mat[..., :3, :])


def relative_ext_mat(ext_mat1: Array, ext_mat2: Array) -> Array:
    """The camera-1-to-camera-2 transform ``E2 E1^-1`` ``(..., 3, 4)`` of two extrinsic matrices.

    It maps a point's coordinates in camera 1's frame to camera 2's:
    ``R12 = R2 R1^T``, ``t12 = t2 - R12 t1``.
    """
    check_matrix(ext_mat1, ((3, 4), (4, 4)), "ext_mat1", "an extrinsic matrix")
    check_matrix(ext_mat2, ((3, 4), (4, 4)), "ext_mat2", "an extrinsic matrix")
    rot12 = hd.matmul(ext_mat2[..., :3, :3], hd.matrix_transpose(ext_mat1[..., :3, :3]))
    t12 = ext_mat2[..., :3, 3:4] - hd.matmul(rot12, ext_mat1[..., :3, 3:4])
    return hd.concat([rot12, t12], axis=-1)


# ---- containers ----------------------------------------------------------------------------


class Intrinsics(NamedTuple):
    """A camera's intrinsic parameters in every form (a pytree: it passes through ``hd.grad``, ``hd.jit``).

    Attributes
    ----------
    focal_lengths : array, shape (..., 2)
        ``(fx, fy)``, pixels.
    persp_angles : array, shape (..., 2)
        Fields of view ``(theta_x, theta_y)``, radians.
    pp_offsets : array, shape (..., 2)
        Principal point ``(cx, cy)``, pixels.
    calib_mat : array, shape (..., 3, 3)
        ``K``.
    inv_calib_mat : array, shape (..., 3, 3)
        ``K^-1``.
    """

    focal_lengths: Array
    persp_angles: Array
    pp_offsets: Array
    calib_mat: Array
    inv_calib_mat: Array

    @classmethod
    def from_focal_lengths_and_pp_offsets(
        cls, focal_lengths: Array, pp_offsets: Array, image_dims: tuple[int, int]
    ) -> Intrinsics:
        """Intrinsics of focal lengths ``(..., 2)`` and principal point ``(..., 2)``, ``(H, W)`` image."""
        calib_mat = focal_lengths_and_pp_offsets_to_calib_mat(focal_lengths, pp_offsets)
        return cls(
            focal_lengths,
            focal_lengths_to_persp_angles(focal_lengths, image_dims),
            pp_offsets,
            calib_mat,
            calib_mat_to_inv_calib_mat(calib_mat),
        )

    @classmethod
    def from_persp_angles_and_pp_offsets(
        cls, persp_angles: Array, pp_offsets: Array, image_dims: tuple[int, int]
    ) -> Intrinsics:
        """Intrinsics of fields of view ``(..., 2)`` (radians) and principal point ``(..., 2)``."""
        focal_lengths = persp_angles_to_focal_lengths(persp_angles, image_dims)
        calib_mat = focal_lengths_and_pp_offsets_to_calib_mat(focal_lengths, pp_offsets)
        return cls(focal_lengths, persp_angles, pp_offsets, calib_mat, calib_mat_to_inv_calib_mat(calib_mat))

    @classmethod
    def from_calib_mat(cls, calib_mat: Array, image_dims: tuple[int, int]) -> Intrinsics:
        """Intrinsics of a calibration matrix ``(..., 3, 3)`` for an ``(H, W)`` image."""
        focal_lengths, pp_offsets = calib_mat_to_focal_lengths_and_pp_offsets(calib_mat)
        return cls(
            focal_lengths,
            focal_lengths_to_persp_angles(focal_lengths, image_dims),
            pp_offsets,
            calib_mat,
            calib_mat_to_inv_calib_mat(calib_mat),
        )


class Extrinsics(NamedTuple):
    """A camera's pose, in every form at once (a pytree).

    Attributes
    ----------
    rot_mat : array, shape (..., 3, 3)
        ``R``, world-to-camera rotation.
    cam_center : array, shape (..., 3)
        ``C``, camera centre in world coordinates.
    ext_mat : array, shape (..., 3, 4)
        ``E = [R | -R C]``, world to camera.
    inv_ext_mat : array, shape (..., 3, 4)
        ``[R^T | C]``, camera to world.
    """

    rot_mat: Array
    cam_center: Array
    ext_mat: Array
    inv_ext_mat: Array

    @classmethod
    def from_rot_mat_and_cam_center(cls, rot_mat: Array, cam_center: Array) -> Extrinsics:
        """Extrinsics of a world-to-camera rotation ``(..., 3, 3)`` and a camera centre ``(..., 3)``."""
        ext_mat = rot_mat_and_cam_center_to_ext_mat(rot_mat, cam_center)
        return cls(
            ext_mat[..., :3],
            hd.broadcast_to(cam_center, (*tuple(ext_mat.shape[:-2]), 3)),
            ext_mat,
            ext_mat_to_inv_ext_mat(ext_mat),
        )

    @classmethod
    def from_ext_mat(cls, ext_mat: Array) -> Extrinsics:
        """Extrinsics of an extrinsic matrix ``[R | t]`` ``(..., 3, 4)``."""
        rot_mat, cam_center = ext_mat_to_rot_mat_and_cam_center(ext_mat)
        ext_mat = ext_mat[..., :3, :]
        return cls(rot_mat, cam_center, ext_mat, ext_mat_to_inv_ext_mat(ext_mat))


class CameraGeometry(NamedTuple):
    """Everything about one (batch of) pinhole camera(s): intrinsics, extrinsics and projection (a pytree).

    Attributes
    ----------
    intrinsics : Intrinsics
    extrinsics : Extrinsics
    full_mat : array, shape (..., 3, 4)
        ``P = K E``, world point to homogeneous pixel-depth coordinates ``(u d, v d, d)``.

    Examples
    --------
    >>> import numpy as np, hedera.vision as hv
    >>> cam = hv.CameraGeometry.from_calib_and_ext_mats(
    ...     np.array([[100.0, 0, 32], [0, 100, 24], [0, 0, 1]]), np.eye(3, 4), image_dims=(48, 64))
    >>> cam.intrinsics.focal_lengths
    array([100., 100.])
    >>> hv.world_to_pixel_coords(np.array([0.1, 0.0, 2.0]), cam.full_mat)
    array([37., 24.])
    """

    intrinsics: Intrinsics
    extrinsics: Extrinsics
    full_mat: Array

    @property
    def calib_mat(self) -> Array:
        """``K`` ``(..., 3, 3)``."""
        return self.intrinsics.calib_mat

    @property
    def inv_calib_mat(self) -> Array:
        """``K^-1`` ``(..., 3, 3)``."""
        return self.intrinsics.inv_calib_mat

    @property
    def ext_mat(self) -> Array:
        """``E = [R | t]`` ``(..., 3, 4)``, world to camera."""
        return self.extrinsics.ext_mat

    @property
    def inv_ext_mat(self) -> Array:
        """``[R^T | C]`` ``(..., 3, 4)``, camera to world."""
        return self.extrinsics.inv_ext_mat

    @classmethod
    def from_intrinsics_and_extrinsics(cls, intrinsics: Intrinsics, extrinsics: Extrinsics) -> CameraGeometry:
        """Camera geometry of an :class:`Intrinsics` and an :class:`Extrinsics`."""
        return cls(
            intrinsics, extrinsics, calib_and_ext_to_full_mat(intrinsics.calib_mat, extrinsics.ext_mat)
        )

    @classmethod
    def from_calib_and_ext_mats(
        cls, calib_mat: Array, ext_mat: Array, image_dims: tuple[int, int]
    ) -> CameraGeometry:
        """Camera geometry of ``K`` ``(..., 3, 3)``, ``E`` ``(..., 3, 4)`` and the image size ``(H, W)``."""
        return cls.from_intrinsics_and_extrinsics(
            Intrinsics.from_calib_mat(calib_mat, image_dims), Extrinsics.from_ext_mat(ext_mat)
        )
