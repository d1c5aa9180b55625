"""hedera.vision.projective (single-view geometry) on every backend.

References: OpenCV's ``projectPoints`` (projection) and ``undistortPoints``
(unprojection to normalized rays), and NumPy formulas for sphere coordinates.
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
    cv2_project,
    random_calib_mat,
    random_ext_mat,
    seed_per_test,  # noqa: F401  (an autouse fixture)
    to_backend,
)

RNG = np.random.default_rng(1)


DTYPES = [np.float32, np.float64]
H, W = 6, 8


def world_points(shape):
    return np.concatenate([RNG.uniform(-1, 1, (*shape, 2)), RNG.uniform(-0.5, 0.5, (*shape, 1))], -1)


def cv2_unproject(calib, ext, depth):
    """World points seen at each pixel centre of a depth image (H, W, 1), via cv2.undistortPoints."""
    vv, uu = np.mgrid[: depth.shape[0], : depth.shape[1]].astype(np.float64)
    pix = np.stack([uu, vv], -1).reshape(-1, 1, 2)
    normalized = cv2.undistortPoints(pix, calib, None).reshape(*depth.shape[:2], 2)  # (x/z, y/z)
    cam = np.concatenate([normalized, np.ones_like(depth)], -1) * depth
    return np.einsum("ji,...j->...i", ext[:, :3], cam - ext[:, 3])  # R^T (p - t)


@pytest.mark.parametrize("dtype", DTYPES)
def test_world_to_pixel_coords_agrees_with_opencv(backend, dtype):
    calib, ext = random_calib_mat(RNG, (2,)), random_ext_mat(RNG, (2,))
    points = world_points((2, 3, 5))  # two cameras, a 3 x 5 "image" of points each
    expected = np.stack([cv2_project(points[b], calib[b], ext[b]) for b in range(2)])
    full = hv.calib_and_ext_to_full_mat(to_backend(calib, backend, dtype), to_backend(ext, backend, dtype))
    pixels = hv.world_to_pixel_coords(to_backend(points, backend, dtype), full)
    assert pixels.dtype == full.dtype
    tol = dict(rtol=1e-5, atol=1e-4) if dtype is np.float32 else dict(rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(hd.to_numpy(pixels), expected, **tol)
    # through camera coordinates and homogeneous pixel-depth coordinates: the same
    cam = hv.world_to_cam_coords(to_backend(points, backend, dtype), to_backend(ext, backend, dtype))
    ds = hv.cam_to_ds_pixel_coords(cam, to_backend(calib, backend, dtype))
    np.testing.assert_allclose(hd.to_numpy(hv.ds_pixel_to_pixel_coords(ds)), expected, **tol)
    depth = np.einsum("bij,bnmj->bnmi", ext[:, :, :3], points)[..., 2:] + ext[:, None, None, 2:, 3]
    np.testing.assert_allclose(hd.to_numpy(ds[..., 2:]), depth, **TOL[dtype])


@pytest.mark.parametrize("dtype", DTYPES)
def test_depth_to_world_coords_agrees_with_opencv(backend, dtype):
    calib, ext = random_calib_mat(RNG), random_ext_mat(RNG)
    depth = RNG.uniform(1.0, 5.0, (H, W, 1))
    inv_calib = hv.calib_mat_to_inv_calib_mat(to_backend(calib, backend, dtype))
    inv_ext = hv.ext_mat_to_inv_ext_mat(to_backend(ext, backend, dtype))
    world = hv.depth_to_world_coords(to_backend(depth, backend, dtype), inv_calib, inv_ext)
    assert tuple(world.shape) == (H, W, 3)
    np.testing.assert_allclose(hd.to_numpy(world), cv2_unproject(calib, ext, depth), rtol=1e-5, atol=1e-5)
    # and back: every pixel projects onto its own centre
    back = hv.world_to_pixel_coords(
        world,
        hv.calib_and_ext_to_full_mat(to_backend(calib, backend, dtype), to_backend(ext, backend, dtype)),
    )
    grid = np.stack(np.meshgrid(np.arange(W), np.arange(H)), -1)
    np.testing.assert_allclose(hd.to_numpy(back), grid, atol=1e-3 if dtype is np.float32 else 1e-9)


def test_batched_unprojection_and_ds_pixel_round_trip(backend):
    calib, ext = random_calib_mat(RNG, (2,)), random_ext_mat(RNG, (2,))
    depth = RNG.uniform(1.0, 5.0, (2, H, W, 1))
    ds = hv.depth_to_ds_pixel_coords(to_backend(depth, backend))
    grid = np.stack(np.meshgrid(np.arange(W), np.arange(H)), -1)
    np.testing.assert_allclose(hd.to_numpy(ds), np.concatenate([grid * depth, depth], -1), rtol=1e-12)
    world = hv.ds_pixel_to_world_coords(
        ds, to_backend(np.linalg.inv(calib), backend), hv.ext_mat_to_inv_ext_mat(to_backend(ext, backend))
    )
    for b in range(2):
        np.testing.assert_allclose(
            hd.to_numpy(world[b]), cv2_unproject(calib[b], ext[b], depth[b]), atol=1e-9
        )
    pix = hv.ds_pixel_to_pixel_coords(ds)
    np.testing.assert_allclose(hd.to_numpy(pix), np.broadcast_to(grid, (2, H, W, 2)), atol=1e-12)
    ds2 = hv.pixel_to_ds_pixel_coords(pix, to_backend(depth, backend))
    np.testing.assert_allclose(hd.to_numpy(ds2), hd.to_numpy(ds), rtol=1e-12)
    world_ds = hv.world_to_ds_pixel_coords(
        world, hv.calib_and_ext_to_full_mat(to_backend(calib, backend), to_backend(ext, backend))
    )
    np.testing.assert_allclose(hd.to_numpy(world_ds), hd.to_numpy(ds), rtol=1e-9, atol=1e-9)


def test_ray_vectors_point_at_the_pixels(backend):
    calib, ext = random_calib_mat(RNG), random_ext_mat(RNG)
    pixels = RNG.uniform(0, 40, (7, 2))
    rays = hv.pixel_coords_to_world_ray_vectors(
        to_backend(pixels, backend),
        hv.calib_mat_to_inv_calib_mat(to_backend(calib, backend)),
        hv.ext_mat_to_inv_ext_mat(to_backend(ext, backend)),
    )
    rays = hd.to_numpy(rays)
    np.testing.assert_allclose(np.linalg.norm(rays, axis=-1), 1.0, rtol=1e-12)
    center = -ext[:, :3].T @ ext[:, 3]
    for distance in (0.5, 3.0):
        np.testing.assert_allclose(cv2_project(center + distance * rays, calib, ext), pixels, rtol=1e-9)
    cam_rays = hd.to_numpy(
        hv.pixel_coords_to_cam_ray_vectors(
            to_backend(pixels, backend), to_backend(np.linalg.inv(calib), backend)
        )
    )
    normalized = cv2.undistortPoints(pixels.reshape(-1, 1, 2), calib, None).reshape(-1, 2)
    expected = np.concatenate([normalized, np.ones((7, 1))], -1)
    np.testing.assert_allclose(
        cam_rays, expected / np.linalg.norm(expected, axis=-1, keepdims=True), rtol=1e-9
    )


def test_radial_depth(backend):
    calib = random_calib_mat(RNG)
    depth = RNG.uniform(1.0, 5.0, (2, H, W, 1))
    inv_calib = to_backend(np.linalg.inv(calib), backend)
    radial = hv.depth_to_radial_depth(to_backend(depth, backend), inv_calib)
    vv, uu = np.mgrid[:H, :W]
    rays = np.stack([(uu - calib[0, 2]) / calib[0, 0], (vv - calib[1, 2]) / calib[1, 1], np.ones((H, W))], -1)
    np.testing.assert_allclose(
        hd.to_numpy(radial), depth * np.linalg.norm(rays, axis=-1)[..., None], rtol=1e-12
    )
    np.testing.assert_allclose(hd.to_numpy(hv.radial_depth_to_depth(radial, inv_calib)), depth, rtol=1e-12)


@pytest.mark.parametrize("dtype", DTYPES)
def test_sphere_coords(backend, dtype):
    cam = RNG.normal(size=(4, 5, 3))
    x, y, z = cam[..., 0], cam[..., 1], cam[..., 2]
    r = np.linalg.norm(cam, axis=-1)
    expected = np.stack([np.arctan2(x, z), np.arccos(-y / r), r], -1)
    sphere = hv.cam_to_sphere_coords(to_backend(cam, backend, dtype))
    np.testing.assert_allclose(hd.to_numpy(sphere), expected, **TOL[dtype])
    np.testing.assert_allclose(hd.to_numpy(hv.sphere_to_cam_coords(sphere)), cam, **TOL[dtype])
    # through pixel and world coordinates
    calib, ext = random_calib_mat(RNG), random_ext_mat(RNG)
    k, e = to_backend(calib, backend, dtype), to_backend(ext, backend, dtype)
    ds = hv.sphere_to_ds_pixel_coords(sphere, k)
    np.testing.assert_allclose(hd.to_numpy(ds), cam @ calib.T, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(
        hd.to_numpy(hv.ds_pixel_to_sphere_coords(ds, hv.calib_mat_to_inv_calib_mat(k))),
        expected,
        rtol=1e-4,
        atol=1e-4,
    )
    world = hv.sphere_to_world_coords(sphere, hv.ext_mat_to_inv_ext_mat(e))
    np.testing.assert_allclose(hd.to_numpy(world), (cam - ext[:, 3]) @ ext[:, :3], rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(
        hd.to_numpy(hv.world_to_sphere_coords(world, e)), expected, rtol=1e-4, atol=1e-4
    )


def test_angular_pixel_coords(backend):
    ppd = 2.0  # a 360 x 720 omni image
    # forward, right, up, down and backward (just left of -180 degrees is +180)
    cam = np.array([[0, 0, 1.0], [2.0, 0, 0], [0, -1.0, 0], [0, 3.0, 0], [-1e-9, 0, -1.0]])
    angular = hd.to_numpy(
        hv.sphere_to_angular_pixel_coords(hv.cam_to_sphere_coords(to_backend(cam, backend)), ppd)
    )
    expected = np.array(
        [[359.5, 179.5, 1], [539.5, 179.5, 2], [-0.5, -0.5, 1], [-0.5, 359.5, 3], [-0.5, 179.5, 1]]
    )
    np.testing.assert_allclose(angular[:, 1:], expected[:, 1:], atol=1e-9)
    np.testing.assert_allclose(angular[[0, 1, 4], 0], expected[[0, 1, 4], 0], atol=1e-6)
    sphere = hv.angular_pixel_to_sphere_coords(to_backend(angular, backend), ppd)
    np.testing.assert_allclose(hd.to_numpy(hv.sphere_to_cam_coords(sphere)), cam, atol=1e-6)


@pytest.mark.parametrize("dtype", DTYPES)
def test_create_uniform_pixel_coords_image(backend, dtype):
    with hd.use_backend(backend):
        img = hv.create_uniform_pixel_coords_image((3, 4), (2,), dtype=dtype)
        flat = hv.create_uniform_pixel_coords_image((3, 4), homogeneous=False, normalized=True)
    assert hd.backend_of(img) == backend and hd.dtype(img) == hd.dtype(
        to_backend(np.zeros(1), backend, dtype)
    )
    vv, uu = np.mgrid[:3, :4]
    np.testing.assert_array_equal(
        hd.to_numpy(img), np.broadcast_to(np.stack([uu, vv, np.ones((3, 4))], -1), (2, 3, 4, 3))
    )
    np.testing.assert_allclose(hd.to_numpy(flat), np.stack([uu / 4, vv / 3], -1), rtol=1e-6)
    assert hd.dtype(flat) == hd.float32


def test_zero_depth_is_finite(autodiff_backend):
    ds = np.array([[0.3, -0.2, 0.0], [1.0, 2.0, 1e-14], [2.0, 4.0, 2.0]])
    pix = hd.to_numpy(hv.ds_pixel_to_pixel_coords(to_backend(ds, autodiff_backend)))
    assert np.all(np.isfinite(pix))
    np.testing.assert_allclose(pix[2], [1.0, 2.0])
    grad = hd.grad(lambda x: hd.sum(hv.ds_pixel_to_pixel_coords(x)))(to_backend(ds, autodiff_backend))
    assert np.all(np.isfinite(hd.to_numpy(grad)))
    origin = hd.grad(lambda x: hd.sum(hv.cam_to_sphere_coords(x)))(
        to_backend(np.zeros((1, 3)), autodiff_backend)
    )
    assert np.all(np.isfinite(hd.to_numpy(origin)))


def test_gradients(autodiff_backend):
    calib, ext = random_calib_mat(RNG), random_ext_mat(RNG)
    full = calib @ ext
    points = world_points((4,))
    check_gradient(
        lambda p: hv.world_to_pixel_coords(p, hd.asarray(full, backend=hd.backend_of(p))),
        points,
        autodiff_backend,
        rtol=1e-5,
        atol=1e-5,
    )
    check_gradient(
        lambda f: hv.world_to_pixel_coords(hd.asarray(points, backend=hd.backend_of(f)), f),
        full,
        autodiff_backend,
        rtol=1e-5,
        atol=1e-5,
    )
    inv_calib, inv_ext = np.linalg.inv(calib), np.linalg.inv(np.vstack([ext, [0, 0, 0, 1]]))[:3]

    def unproject(depth):
        b = hd.backend_of(depth)
        return hv.depth_to_world_coords(
            depth, hd.asarray(inv_calib, backend=b), hd.asarray(inv_ext, backend=b)
        )

    check_gradient(unproject, RNG.uniform(1, 3, (2, 3, 1)), autodiff_backend)
    check_gradient(hv.cam_to_sphere_coords, RNG.normal(size=(4, 3)), autodiff_backend)
    check_gradient(hv.sphere_to_cam_coords, np.array([[0.3, 1.2, 2.0], [-2.0, 0.4, 1.0]]), autodiff_backend)


def test_bad_shapes_raise(backend):
    with pytest.raises(hd.ShapeError):
        hv.world_to_pixel_coords(to_backend(np.ones((4, 2)), backend), to_backend(np.ones((3, 4)), backend))
    with pytest.raises(hd.ShapeError):
        hv.world_to_pixel_coords(to_backend(np.ones((4, 3)), backend), to_backend(np.ones((3, 3)), backend))
    with pytest.raises(hd.ShapeError):
        hv.depth_to_ds_pixel_coords(to_backend(np.ones((4, 3, 2)), backend))
