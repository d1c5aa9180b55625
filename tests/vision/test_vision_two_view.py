"""hedera.vision.two_view on every backend.

References: OpenCV's ``findFundamentalMat`` (8-point, on exact correspondences)
and ``triangulatePoints`` (homogeneous DLT), NumPy least squares and 4x4
homogeneous matrices.
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

RNG = np.random.default_rng(2)


def two_cameras():
    calib1, calib2 = random_calib_mat(RNG), random_calib_mat(RNG)
    ext1, ext2 = random_ext_mat(RNG), random_ext_mat(RNG)
    ext2[:, 3] += np.array([0.8, 0.1, 0.0])  # a proper baseline
    return calib1, ext1, calib2, ext2


def scene_points(n):
    return np.concatenate([RNG.uniform(-1, 1, (n, 2)), RNG.uniform(-0.8, 0.8, (n, 1))], -1)


def homogeneous(mat):
    return np.vstack([mat, [0, 0, 0, 1]])


def test_fundamental_matrix_agrees_with_opencv(backend):
    calib1, ext1, calib2, ext2 = two_cameras()
    points = scene_points(20)
    pix1, pix2 = cv2_project(points, calib1, ext1), cv2_project(points, calib2, ext2)
    expected, _ = cv2.findFundamentalMat(pix1, pix2, cv2.FM_8POINT)
    expected /= np.linalg.norm(expected)
    fund = hd.to_numpy(
        hv.get_fundamental_matrix(to_backend(calib1 @ ext1, backend), to_backend(calib2 @ ext2, backend))
    )
    np.testing.assert_allclose(np.linalg.norm(fund), 1.0, rtol=1e-12)
    sign = np.sign(np.sum(fund * expected))
    np.testing.assert_allclose(fund, sign * expected, atol=1e-6)
    h1 = np.concatenate([pix1, np.ones((20, 1))], -1)
    h2 = np.concatenate([pix2, np.ones((20, 1))], -1)
    np.testing.assert_allclose(np.einsum("ni,ij,nj->n", h2, fund, h1), 0.0, atol=1e-9)


def test_cam_center_of_full_mat(backend):
    calib1, ext1, _, _ = two_cameras()
    center = hd.to_numpy(hv.full_mat_to_cam_center(to_backend(calib1 @ ext1, backend)))
    null = np.linalg.svd(calib1 @ ext1)[2][-1]
    np.testing.assert_allclose(center, null[:3] / null[3], rtol=1e-9)


def test_triangulation_agrees_with_opencv_on_noisy_points(backend):
    calib1, ext1, calib2, ext2 = two_cameras()
    points = scene_points(12)
    pix1 = cv2_project(points, calib1, ext1) + RNG.normal(0, 0.5, (12, 2))
    pix2 = cv2_project(points, calib2, ext2) + RNG.normal(0, 0.5, (12, 2))
    homog = cv2.triangulatePoints(calib1 @ ext1, calib2 @ ext2, pix1.T.copy(), pix2.T.copy())
    expected = (homog[:3] / homog[3]).T
    full1, full2 = to_backend(calib1 @ ext1, backend), to_backend(calib2 @ ext2, backend)
    world = hv.triangulate_points(to_backend(pix1, backend), to_backend(pix2, backend), full1, full2)
    np.testing.assert_allclose(hd.to_numpy(world), expected, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("method", ["dlt", "cmp"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_triangulate_depth_recovers_known_depths(backend, method, dtype):
    cams = [two_cameras() for _ in range(2)]  # a batch of two camera pairs
    points = np.stack([scene_points(6).reshape(2, 3, 3) for _ in range(2)])  # (2, 2, 3, 3)
    pix1 = np.stack([cv2_project(points[b], c[0], c[1]) for b, c in enumerate(cams)])
    pix2 = np.stack([cv2_project(points[b], c[2], c[3]) for b, c in enumerate(cams)])
    depth1 = np.einsum("bij,bnmj->bnmi", np.stack([c[1][:, :3] for c in cams]), points)[..., 2:]
    depth1 += np.stack([c[1][2, 3] for c in cams])[:, None, None, None]
    full1 = np.stack([c[0] @ c[1] for c in cams])
    full2 = np.stack([c[2] @ c[3] for c in cams])
    args = [to_backend(a, backend, dtype) for a in (pix1, pix2, full1, full2)]
    depth = hv.triangulate_depth(*args, method=method)
    assert tuple(depth.shape) == (2, 2, 3, 1)
    tol = dict(rtol=2e-3) if dtype is np.float32 else dict(rtol=1e-8)
    np.testing.assert_allclose(hd.to_numpy(depth), depth1, **tol)
    world = hv.triangulate_points(*args, method=method)
    np.testing.assert_allclose(hd.to_numpy(world), points, atol=2e-3 if dtype is np.float32 else 1e-8)


def test_closest_mutual_points(backend):
    o1, d1, o2, d2 = (RNG.normal(size=(5, 3)) for _ in range(4))
    p1, p2 = hv.closest_mutual_points_along_two_skew_rays(*(to_backend(a, backend) for a in (o1, d1, o2, d2)))
    for i in range(5):  # min |o1 + s d1 - o2 - t d2| by least squares
        (s, t), *_ = np.linalg.lstsq(np.stack([d1[i], -d2[i]], -1), o2[i] - o1[i], rcond=None)
        np.testing.assert_allclose(hd.to_numpy(p1)[i], o1[i] + s * d1[i], rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(hd.to_numpy(p2)[i], o2[i] + t * d2[i], rtol=1e-9, atol=1e-12)
    # parallel rays: finite
    par = hv.closest_mutual_points_along_two_skew_rays(
        *(to_backend(a, backend) for a in (o1, d1, o2, 2 * d1))
    )
    assert np.all(np.isfinite(hd.to_numpy(par[0])))


def test_cam_to_cam_and_ds_pixel_to_ds_pixel(backend):
    calib1, ext1, calib2, ext2 = two_cameras()
    points = scene_points(7)
    cam1 = points @ ext1[:, :3].T + ext1[:, 3]
    rel = hv.relative_ext_mat(to_backend(ext1, backend), to_backend(ext2, backend))
    cam2 = hv.cam_to_cam_coords(to_backend(cam1, backend), rel)
    np.testing.assert_allclose(hd.to_numpy(cam2), points @ ext2[:, :3].T + ext2[:, 3], rtol=1e-10, atol=1e-12)
    ds1 = cam1 @ calib1.T
    ds2 = hv.ds_pixel_to_ds_pixel_coords(
        to_backend(ds1, backend), *(to_backend(a, backend) for a in (calib1, ext1, calib2, ext2))
    )
    pix2 = hd.to_numpy(hv.ds_pixel_to_pixel_coords(ds2))
    np.testing.assert_allclose(pix2, cv2_project(points, calib2, ext2), rtol=1e-9)


@pytest.mark.parametrize("method", ["dlt", "cmp"])
def test_triangulation_gradients(autodiff_backend, method):
    calib1, ext1, calib2, ext2 = two_cameras()
    points = scene_points(3)
    pix = np.stack([cv2_project(points, calib1, ext1), cv2_project(points, calib2, ext2)])

    def depth(p):
        b = hd.backend_of(p)
        f1, f2 = hd.asarray(calib1 @ ext1, backend=b), hd.asarray(calib2 @ ext2, backend=b)
        return hv.triangulate_depth(p[0], p[1], f1, f2, method=method)

    check_gradient(depth, pix, autodiff_backend, eps=1e-5, rtol=1e-4, atol=1e-7)


def test_fundamental_matrix_gradient(autodiff_backend):
    calib1, ext1, calib2, ext2 = two_cameras()
    full2 = calib2 @ ext2

    def fund(f1):
        return hv.get_fundamental_matrix(f1, hd.asarray(full2, backend=hd.backend_of(f1)))

    check_gradient(fund, calib1 @ ext1, autodiff_backend, eps=1e-5, rtol=1e-4, atol=1e-8)


def test_bad_method(backend):
    x = to_backend(np.zeros((1, 2)), backend)
    p = to_backend(np.eye(3, 4), backend)
    with pytest.raises(hd.InvalidArgumentError):
        hv.triangulate_depth(x, x, p, p, method="svd")
