"""hedera.vision.cameras: intrinsics, extrinsics and the camera-geometry containers, on every backend.

References: OpenCV (``calibrationMatrixValues`` for fields of view), NumPy linear
algebra on 4x4 homogeneous matrices.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import hedera as hd
import hedera.vision as hv
from vision_reference import (
    TOL,
    check_gradient,
    random_calib_mat,
    random_ext_mat,
    seed_per_test,  # noqa: F401  (an autouse fixture)
    to_backend,
)

RNG = np.random.default_rng(0)


DTYPES = [np.float32, np.float64]


def homogeneous(mat):
    out = np.zeros((*mat.shape[:-2], 4, 4))
    out[..., :3, :] = mat
    out[..., 3, 3] = 1.0
    return out


@pytest.mark.parametrize("dtype", DTYPES)
def test_focal_lengths_and_persp_angles_agree_with_opencv(backend, dtype):
    image_dims = (48, 64)
    calib = random_calib_mat(RNG, (4,))
    calib[..., 0, 2], calib[..., 1, 2] = 32.0, 24.0  # OpenCV's FOV is symmetric about (W / 2, H / 2)
    focal = np.stack([calib[:, 0, 0], calib[:, 1, 1]], -1)
    expected = np.array([np.radians(cv2.calibrationMatrixValues(k, (64, 48), 1.0, 1.0)[:2]) for k in calib])
    angles = hv.focal_lengths_to_persp_angles(to_backend(focal, backend, dtype), image_dims)
    np.testing.assert_allclose(hd.to_numpy(angles), expected, **TOL[dtype])
    back = hv.persp_angles_to_focal_lengths(angles, image_dims)
    np.testing.assert_allclose(hd.to_numpy(back), focal, rtol=TOL[dtype]["rtol"] * 10)
    assert back.dtype == angles.dtype == to_backend(focal, backend, dtype).dtype


@pytest.mark.parametrize("dtype", DTYPES)
def test_calib_mat_and_its_inverse(backend, dtype):
    calib = random_calib_mat(RNG, (2, 3))
    focal = np.stack([calib[..., 0, 0], calib[..., 1, 1]], -1)
    pp = np.stack([calib[..., 0, 2], calib[..., 1, 2]], -1)
    k = hv.focal_lengths_and_pp_offsets_to_calib_mat(
        to_backend(focal, backend, dtype), to_backend(pp, backend, dtype)
    )
    np.testing.assert_allclose(hd.to_numpy(k), calib, **TOL[dtype])
    f2, pp2 = hv.calib_mat_to_focal_lengths_and_pp_offsets(k)
    np.testing.assert_allclose(hd.to_numpy(f2), focal, **TOL[dtype])
    np.testing.assert_allclose(hd.to_numpy(pp2), pp, **TOL[dtype])
    skewed = calib.copy()
    skewed[..., 0, 1] = 0.7  # the closed form handles a skew too
    inv = hv.calib_mat_to_inv_calib_mat(to_backend(skewed, backend, dtype))
    np.testing.assert_allclose(hd.to_numpy(inv), np.linalg.inv(skewed), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("dtype", DTYPES)
def test_extrinsics_round_trip_and_inverse(backend, dtype):
    ext = random_ext_mat(RNG, (2, 3), angle=2.0)
    rot, t = ext[..., :3], ext[..., 3]
    center = -np.einsum("...ji,...j->...i", rot, t)  # C = -R^T t
    e = hv.rot_mat_and_cam_center_to_ext_mat(
        to_backend(rot, backend, dtype), to_backend(center, backend, dtype)
    )
    np.testing.assert_allclose(hd.to_numpy(e), ext, **TOL[dtype])
    rot2, center2 = hv.ext_mat_to_rot_mat_and_cam_center(e)
    np.testing.assert_allclose(hd.to_numpy(rot2), rot, **TOL[dtype])
    np.testing.assert_allclose(hd.to_numpy(center2), center, **TOL[dtype])
    inv = hv.ext_mat_to_inv_ext_mat(e)
    np.testing.assert_allclose(hd.to_numpy(inv), np.linalg.inv(homogeneous(ext))[..., :3, :], **TOL[dtype])
    np.testing.assert_allclose(hd.to_numpy(hv.inv_ext_mat_to_ext_mat(inv)), ext, **TOL[dtype])
    # a 4x4 extrinsic matrix is accepted
    inv4 = hv.ext_mat_to_inv_ext_mat(to_backend(homogeneous(ext), backend, dtype))
    np.testing.assert_allclose(hd.to_numpy(inv4), hd.to_numpy(inv), **TOL[dtype])


def test_full_and_relative_matrices(backend):
    calib = random_calib_mat(RNG, (3,))
    ext1, ext2 = random_ext_mat(RNG, (3,)), random_ext_mat(RNG, (3,))
    full = hv.calib_and_ext_to_full_mat(to_backend(calib, backend), to_backend(ext1, backend))
    np.testing.assert_allclose(hd.to_numpy(full), calib @ ext1, rtol=1e-12)
    rel = hv.relative_ext_mat(to_backend(ext1, backend), to_backend(ext2, backend))
    expected = (homogeneous(ext2) @ np.linalg.inv(homogeneous(ext1)))[..., :3, :]
    np.testing.assert_allclose(hd.to_numpy(rel), expected, rtol=1e-10, atol=1e-12)


def test_broadcasting_batch_dimensions(backend):
    focal = to_backend(np.full((4, 1, 2), 100.0), backend)
    pp = to_backend(np.full((3, 2), 30.0), backend)
    assert tuple(hv.focal_lengths_and_pp_offsets_to_calib_mat(focal, pp).shape) == (4, 3, 3, 3)
    rot = to_backend(np.eye(3), backend)
    centers = to_backend(RNG.normal(size=(5, 3)), backend)
    assert tuple(hv.rot_mat_and_cam_center_to_ext_mat(rot, centers).shape) == (5, 3, 4)


def test_camera_geometry_container(backend):
    calib, ext = random_calib_mat(RNG), random_ext_mat(RNG)
    cam = hv.CameraGeometry.from_calib_and_ext_mats(
        to_backend(calib, backend), to_backend(ext, backend), (48, 64)
    )
    np.testing.assert_allclose(hd.to_numpy(cam.full_mat), calib @ ext, rtol=1e-12)
    np.testing.assert_allclose(hd.to_numpy(cam.inv_calib_mat), np.linalg.inv(calib), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(hd.to_numpy(cam.inv_ext_mat), np.linalg.inv(homogeneous(ext))[:3], atol=1e-12)
    np.testing.assert_allclose(hd.to_numpy(cam.extrinsics.cam_center), -ext[:, :3].T @ ext[:, 3], atol=1e-12)
    intr = hv.Intrinsics.from_persp_angles_and_pp_offsets(
        cam.intrinsics.persp_angles, cam.intrinsics.pp_offsets, (48, 64)
    )
    np.testing.assert_allclose(hd.to_numpy(intr.calib_mat), calib, rtol=1e-10)
    extr = hv.Extrinsics.from_rot_mat_and_cam_center(cam.extrinsics.rot_mat, cam.extrinsics.cam_center)
    np.testing.assert_allclose(hd.to_numpy(extr.ext_mat), ext, atol=1e-12)
    # a pytree: the leaves are the arrays, and it survives a round trip through hd.tree
    leaves, treedef = hd.tree.flatten(cam)
    assert len(leaves) == 5 + 4 + 1
    assert isinstance(hd.tree.unflatten(treedef, leaves), hv.CameraGeometry)


def test_camera_geometry_gradient_has_the_same_structure(autodiff_backend):
    calib, ext = random_calib_mat(RNG), random_ext_mat(RNG)
    cam = hv.CameraGeometry.from_calib_and_ext_mats(
        to_backend(calib, autodiff_backend), to_backend(ext, autodiff_backend), (48, 64)
    )
    points = to_backend(RNG.normal(size=(5, 3)), autodiff_backend)

    def loss(c):
        return hd.sum(hv.world_to_pixel_coords(points, c.full_mat))

    grads = hd.grad(loss)(cam)
    assert isinstance(grads, hv.CameraGeometry)
    assert np.abs(hd.to_numpy(grads.full_mat)).sum() > 0


@pytest.mark.parametrize(
    "name",
    [
        "persp_angles_to_focal_lengths",
        "focal_lengths_to_persp_angles",
        "calib_mat_to_inv_calib_mat",
        "rot_mat_and_cam_center_to_ext_mat",
        "ext_mat_to_inv_ext_mat",
        "relative_ext_mat",
    ],
)
def test_gradients(autodiff_backend, name):
    calib = random_calib_mat(RNG)
    ext = random_ext_mat(RNG)
    cases = {
        "persp_angles_to_focal_lengths": (
            lambda a: hv.persp_angles_to_focal_lengths(a, (48, 64)),
            [0.7, 0.5],
        ),
        "focal_lengths_to_persp_angles": (
            lambda f: hv.focal_lengths_to_persp_angles(f, (48, 64)),
            [90.0, 70.0],
        ),
        "calib_mat_to_inv_calib_mat": (hv.calib_mat_to_inv_calib_mat, calib),
        "rot_mat_and_cam_center_to_ext_mat": (
            lambda r: hv.rot_mat_and_cam_center_to_ext_mat(r, r[..., 0] * 2.0),
            ext[:, :3],
        ),
        "ext_mat_to_inv_ext_mat": (hv.ext_mat_to_inv_ext_mat, ext),
        "relative_ext_mat": (lambda e: hv.relative_ext_mat(e, e * 0.5), ext),
    }
    fn, x = cases[name]
    check_gradient(fn, np.asarray(x, dtype=np.float64), autodiff_backend)


def test_bad_arguments_raise_hedera_errors(backend):
    with pytest.raises(hd.ShapeError):
        hv.calib_mat_to_inv_calib_mat(to_backend(np.eye(4), backend))
    with pytest.raises(hd.ShapeError):
        hv.focal_lengths_to_persp_angles(to_backend(np.ones(3), backend), (4, 4))
    with pytest.raises(hd.InvalidArgumentError):
        hv.focal_lengths_to_persp_angles(to_backend(np.ones(2), backend), (4, 0))
    with pytest.raises(hd.ShapeError):
        hv.ext_mat_to_inv_ext_mat(to_backend(np.ones((3, 3)), backend))
