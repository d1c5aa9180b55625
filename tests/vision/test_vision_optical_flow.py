"""hedera.vision.optical_flow on every backend.

References: OpenCV's ``projectPoints`` (where points moved by a camera motion
land) and ``undistortPoints`` (unprojection); a NumPy loop for the cost volume.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import hedera as hd
import hedera.vision as hv
from vision_reference import (
    check_gradient,
    cv2_project,
    random_calib_mat,
    random_ext_mat,
    seed_per_test,  # noqa: F401  (an autouse fixture)
    to_backend,
)

RNG = np.random.default_rng(3)


H, W = 5, 7


def unproject(calib, ext, depth):
    """World points of each pixel of a depth image (H, W, 1) via cv2.undistortPoints."""
    vv, uu = np.mgrid[: depth.shape[0], : depth.shape[1]].astype(np.float64)
    normalized = cv2.undistortPoints(np.stack([uu, vv], -1).reshape(-1, 1, 2), calib, None)
    cam = np.concatenate([normalized.reshape(*depth.shape[:2], 2), np.ones_like(depth)], -1) * depth
    return (cam - ext[:, 3]) @ ext[:, :3]


def grid():
    return np.stack(np.meshgrid(np.arange(W), np.arange(H)), -1).astype(np.float64)


def moving_camera():
    calib = random_calib_mat(RNG)
    ext1 = random_ext_mat(RNG)
    ext2 = random_ext_mat(RNG)
    ext2[:, 3] += np.array([0.5, -0.2, 0.1])
    return calib, ext1, ext2


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_flow_matches_points_moved_by_the_pose(backend, dtype):
    calib, ext1, ext2 = moving_camera()
    calib2 = random_calib_mat(RNG)
    depth = RNG.uniform(2.0, 6.0, (H, W, 1))
    world = unproject(calib, ext1, depth)
    expected = cv2_project(world, calib2, ext2) - grid()
    args = [to_backend(a, backend, dtype) for a in (depth, calib, ext1, ext2, calib2)]
    flow = hv.flow_from_depth_and_cam_mats(*args)
    assert tuple(flow.shape) == (H, W, 2)
    tol = dict(atol=2e-3) if dtype is np.float32 else dict(atol=1e-9)
    np.testing.assert_allclose(hd.to_numpy(flow), expected, **tol)
    # the same camera (calib2 omitted) and a batch of two
    flow_same = hv.flow_from_depth_and_cam_mats(
        to_backend(np.stack([depth, depth]), backend, dtype),
        *(to_backend(a, backend, dtype) for a in (calib, ext1, ext2)),
    )
    np.testing.assert_allclose(hd.to_numpy(flow_same)[1], cv2_project(world, calib, ext2) - grid(), **tol)


@pytest.mark.parametrize("method", ["dlt", "cmp"])
def test_depth_from_flow_recovers_depth(backend, method):
    calib, ext1, ext2 = moving_camera()
    depth = RNG.uniform(2.0, 6.0, (2, H, W, 1))
    flow = np.stack([cv2_project(unproject(calib, ext1, d), calib, ext2) - grid() for d in depth])
    recovered = hv.depth_from_flow_and_cam_mats(
        to_backend(flow, backend), *(to_backend(a, backend) for a in (calib, ext1, ext2)), method=method
    )
    np.testing.assert_allclose(hd.to_numpy(recovered), depth, rtol=1e-7)


def test_pixel_cost_volume(backend):
    img1 = RNG.normal(size=(2, H, W, 3))
    img2 = RNG.normal(size=(2, H, W, 3))
    r = 2
    expected = np.zeros((2, H, W, (2 * r + 1) ** 2))
    for i in range(H):
        for j in range(W):
            k = 0
            for dv in range(-r, r + 1):
                for du in range(-r, r + 1):
                    if 0 <= i + dv < H and 0 <= j + du < W:
                        expected[:, i, j, k] = np.mean(img1[:, i, j] * img2[:, i + dv, j + du], -1)
                    k += 1
    cost = hv.pixel_cost_volume(to_backend(img1, backend), to_backend(img2, backend), r)
    np.testing.assert_allclose(hd.to_numpy(cost), expected, rtol=1e-12, atol=1e-14)
    with pytest.raises(hd.InvalidArgumentError):
        hv.pixel_cost_volume(to_backend(img1, backend), to_backend(img2, backend), -1)


def test_velocity_of_a_moving_plane_seen_by_a_moving_camera(backend):
    calib = np.array([[60.0, 0, 3.0], [0, 60.0, 2.0], [0, 0, 1]])
    d0, speed, dt, shift = 3.0, 0.6, 0.1, 0.05
    # camera t-1 at the origin, camera t shifted sideways by `shift`; a frontoparallel plane at z = d0
    # (world) moves towards +z at `speed`. Camera coordinates are linear in (u, v) on such a plane, so
    # the bilinear sampling inside velocity_from_flow... is exact.
    ext_tm1 = np.eye(3, 4)
    ext_t = np.eye(3, 4)
    ext_t[0, 3] = -shift
    depth_t = np.full((H, W, 1), d0 + speed * dt)
    depth_tm1 = np.full((H, W, 1), d0)
    cam_t = unproject(calib, np.eye(3, 4), depth_t)  # camera-t coordinates (pose = identity for unproject)
    cam_tm1 = unproject(calib, np.eye(3, 4), depth_tm1)
    # where each point seen at time t was at t-1: same world x, y, depth d0, seen from camera t-1
    world_t = cam_t + np.array([shift, 0, 0])
    world_tm1 = world_t - np.array([0, 0, speed * dt])
    flow = cv2_project(world_tm1, calib, ext_tm1) - grid()
    rel = (np.vstack([ext_t, [0, 0, 0, 1]]) @ np.linalg.inv(np.vstack([ext_tm1, [0, 0, 0, 1]])))[:3]
    velocity = hv.velocity_from_flow_cam_coords_and_cam_mats(
        *(to_backend(a, backend) for a in (flow, cam_t, cam_tm1, rel)), dt
    )
    coords = grid() + flow
    interior = (
        (coords[..., 0] >= 0) & (coords[..., 0] <= W - 1) & (coords[..., 1] >= 0) & (coords[..., 1] <= H - 1)
    )
    assert interior.sum() > 10
    np.testing.assert_allclose(
        hd.to_numpy(velocity)[interior], np.tile([0, 0, speed], (interior.sum(), 1)), atol=1e-9
    )


def test_flow_gradients(autodiff_backend):
    calib, ext1, ext2 = moving_camera()

    def flow(depth):
        b = hd.backend_of(depth)
        return hv.flow_from_depth_and_cam_mats(
            depth, *(hd.asarray(a, backend=b) for a in (calib, ext1, ext2))
        )

    check_gradient(flow, RNG.uniform(2.0, 6.0, (2, 3, 1)), autodiff_backend, rtol=1e-5, atol=1e-6)

    def cost(img):
        return hv.pixel_cost_volume(img, img * 0.5 + 1.0, 1)

    check_gradient(cost, RNG.normal(size=(3, 3, 2)), autodiff_backend)
