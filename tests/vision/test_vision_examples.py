"""The hedera.vision demos, small: examples/vision_camera_fit.py and examples/render_scene.py.

* the camera fit recovers the extrinsics (and agrees with OpenCV's ``solvePnP``
  on the same observations) and saves its PNG, on every autodiff backend;
* the rendered depth image matches an independent NumPy ray caster (analytic
  ray-sphere and ray-box intersections) at known pixels, and the PNG exists.
"""

from __future__ import annotations

import importlib
import math

import cv2
import numpy as np
import pytest


def load(name):
    return importlib.import_module(name)  # examples/ is on pytest's pythonpath


@pytest.fixture(scope="module")
def camera_fit():
    return load("vision_camera_fit")


@pytest.fixture(scope="module")
def render_scene():
    return load("render_scene")


def test_camera_fit_recovers_the_extrinsics(autodiff_backend, camera_fit, tmp_path, capsys):
    results = camera_fit.main(["--backend", autodiff_backend, "--steps", "150", "--out", str(tmp_path)])
    r = results[autodiff_backend]
    assert r["initial_rotation_error_deg"] > 5.0
    assert r["rotation_error_deg"] < 1.0
    assert r["center_error"] < 0.1
    assert r["rms_after"] < 1.0 < r["rms_before"]
    assert r["png"].exists() and r["png"].stat().st_size > 10_000
    assert autodiff_backend in capsys.readouterr().out
    # OpenCV's PnP on the same observations reaches the same least-squares pose
    problem = camera_fit.make_problem(seed=0)
    ok, rvec, tvec = cv2.solvePnP(
        problem["points"], problem["observed"], problem["calib"], None, flags=cv2.SOLVEPNP_ITERATIVE
    )
    assert ok
    rot_cv = cv2.Rodrigues(rvec)[0]
    rot_fit = cv2.Rodrigues(r["rot_vec"])[0]
    angle = math.degrees(np.linalg.norm(cv2.Rodrigues(rot_fit @ rot_cv.T)[0]))
    assert angle < 0.1
    np.testing.assert_allclose(r["trans"], tvec[:, 0], atol=0.01)


def ray_cast(module, calib, ext, image_dims):
    """Depth (camera z) image by analytic ray-sphere and ray-box (slab) intersections; 0 for misses."""
    height, width = image_dims
    vv, uu = np.mgrid[:height, :width].astype(np.float64)
    cam_rays = np.stack([uu, vv, np.ones_like(uu)], -1) @ np.linalg.inv(calib).T  # z = 1: t is the depth
    rot, trans = ext[:, :3], ext[:, 3]
    origin = -rot.T @ trans
    rays = cam_rays @ rot  # world directions, R^T d
    best = np.full((height, width), np.inf)
    for c, r in zip(module.SPHERE_CENTERS, module.SPHERE_RADII, strict=True):
        oc = origin - c
        a = np.sum(rays * rays, -1)
        b = 2 * rays @ oc
        disc = b * b - 4 * a * (oc @ oc - r * r)
        t = (-b - np.sqrt(np.maximum(disc, 0))) / (2 * a)
        best = np.where((disc >= 0) & (t > 0), np.minimum(best, t), best)
    for pose, dims in zip(module.cuboid_poses(), module.CUBOID_DIMS, strict=True):
        o_local = pose[:, :3].T @ (origin - pose[:, 3])
        d_local = rays @ pose[:, :3]
        with np.errstate(divide="ignore", invalid="ignore"):
            t1 = (-dims / 2 - o_local) / d_local
            t2 = (dims / 2 - o_local) / d_local
        t_near = np.max(np.minimum(t1, t2), -1)
        t_far = np.min(np.maximum(t1, t2), -1)
        hit = (t_near <= t_far) & (t_near > 0)
        best = np.where(hit, np.minimum(best, t_near), best)
    return np.where(np.isfinite(best), best, 0.0)


def test_render_scene_depth_at_known_pixels(backend, render_scene, tmp_path):
    image_dims = (60, 80)
    results = render_scene.main(
        [
            "--backend",
            backend,
            "--height",
            "60",
            "--width",
            "80",
            "--density",
            "800",
            "--march-steps",
            "60",
            "--out",
            str(tmp_path),
        ]
    )
    r = results[backend]
    assert r["png"].exists() and r["png"].stat().st_size > 5_000
    assert r["depth"].shape == image_dims
    expected = ray_cast(render_scene, r["calib"], r["ext"], image_dims)
    # the pixels at the projected sphere centres see the spheres' near surfaces
    rvec = cv2.Rodrigues(r["ext"][:, :3])[0]
    centres, _ = cv2.projectPoints(render_scene.SPHERE_CENTERS, rvec, r["ext"][:, 3].copy(), r["calib"], None)
    for u, v in np.rint(centres[:, 0]).astype(int):
        assert r["mask"][v, u]
        np.testing.assert_allclose(r["depth"][v, u], expected[v, u], rtol=0.01)
    # a pixel of the floor near the bottom of the image, and one of the background in the top corner
    assert r["mask"][55, 40] and not r["mask"][0, 0] and expected[0, 0] == 0
    np.testing.assert_allclose(r["depth"][55, 40], expected[55, 40], rtol=0.01)
    # everywhere: the same coverage and depths, but for a few pixels on silhouettes
    covered = expected > 0
    assert np.mean(r["mask"] == covered) > 0.97
    both = r["mask"] & covered
    assert np.mean(np.abs(r["depth"][both] - expected[both]) <= 0.02 * expected[both]) > 0.95
    assert r["agreement"] > 0.95  # the SDF ray marching inside the demo agrees too
