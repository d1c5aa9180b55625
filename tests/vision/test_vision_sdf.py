"""hedera.vision.sdf on every backend.

References: the sphere distance from its definition, the cuboid distance by
closest-point projection (clip into the box) outside and the nearest face
inside, with scipy rotations; gradients against finite differences.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import hedera as hd
import hedera.vision as hv
from vision_reference import (
    check_gradient,
    compiled_on_jax,
    seed_per_test,  # noqa: F401  (an autouse fixture)
    to_backend,
)

RNG = np.random.default_rng(6)


def cuboid_reference(points, pose, dims):
    """Signed distance from points (N, 3) to one cuboid: clip into the box outside, nearest face inside."""
    local = (points - pose[:, 3]) @ pose[:, :3]  # R^T (p - t)
    half = dims / 2
    closest = np.clip(local, -half, half)
    outside = np.linalg.norm(local - closest, axis=-1)
    inside = np.all(np.abs(local) <= half, axis=-1)
    return np.where(inside, -np.min(half - np.abs(local), axis=-1), outside)


def random_cuboids(n):
    rot = Rotation.random(n, random_state=7).as_matrix()
    poses = np.concatenate([rot, RNG.normal(size=(n, 3, 1))], -1)
    return poses, RNG.uniform(0.5, 2.0, (n, 3))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sphere_signed_distances(backend, dtype):
    points = RNG.normal(size=(2, 30, 3)) * 2
    centers = RNG.normal(size=(2, 4, 3))
    radii = RNG.uniform(0.3, 1.0, (2, 4))
    expected = np.linalg.norm(points[:, :, None] - centers[:, None], axis=-1) - radii[:, None]
    args = [to_backend(a, backend, dtype) for a in (points, centers, radii)]
    tol = dict(rtol=1e-5, atol=1e-5) if dtype is np.float32 else dict(rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(
        hd.to_numpy(hv.sphere_signed_distances(*args, per_object=True)), expected, **tol
    )
    np.testing.assert_allclose(hd.to_numpy(hv.sphere_signed_distances(*args)), expected.min(-1), **tol)
    np.testing.assert_allclose(
        hd.to_numpy(hv.sphere_sdf(args[0][:, :, None], args[1][:, None], args[2][:, None])), expected, **tol
    )


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_cuboid_signed_distances(backend, dtype):
    poses, dims = random_cuboids(3)
    points = RNG.normal(size=(60, 3)) * 1.5
    points[:3] = poses[:, :, 3]  # the centres: deep inside
    expected = np.stack([cuboid_reference(points, poses[i], dims[i]) for i in range(3)], -1)
    args = [to_backend(a, backend, dtype) for a in (points, poses, dims)]
    tol = dict(rtol=1e-5, atol=1e-5) if dtype is np.float32 else dict(rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(
        hd.to_numpy(hv.cuboid_signed_distances(*args, per_object=True)), expected, **tol
    )
    np.testing.assert_allclose(hd.to_numpy(hv.cuboid_signed_distances(*args)), expected.min(-1), **tol)
    assert np.all(
        hd.to_numpy(hv.cuboid_signed_distances(*args, per_object=True))[np.arange(3), np.arange(3)] < 0
    )


def test_batched_cuboids_broadcast(backend):
    poses, dims = random_cuboids(2)
    points = RNG.normal(size=(4, 5, 3))
    out = hv.cuboid_sdf(
        to_backend(points, backend)[:, :, None], to_backend(poses, backend), to_backend(dims, backend)
    )
    assert tuple(out.shape) == (4, 5, 2)
    expected = np.stack([cuboid_reference(points.reshape(-1, 3), poses[i], dims[i]) for i in range(2)], -1)
    np.testing.assert_allclose(hd.to_numpy(out), expected.reshape(4, 5, 2), rtol=1e-12, atol=1e-12)


def test_gradients_are_unit_normals_and_finite_at_kinks(autodiff_backend):
    poses, dims = random_cuboids(2)
    centers, radii = RNG.normal(size=(3, 3)), RNG.uniform(0.3, 1.0, 3)
    points = RNG.normal(size=(10, 3)) * 1.5

    def spheres(p):
        b = hd.backend_of(p)
        return hv.sphere_signed_distances(p, hd.asarray(centers, backend=b), hd.asarray(radii, backend=b))

    def cuboids(p):
        b = hd.backend_of(p)
        return hv.cuboid_signed_distances(
            p, hd.asarray(poses, backend=b), hd.asarray(dims, backend=b), per_object=True
        )

    check_gradient(spheres, points, autodiff_backend)
    check_gradient(cuboids, points, autodiff_backend)

    def cuboid_union(p):
        b = hd.backend_of(p)
        return hv.cuboid_signed_distances(p, hd.asarray(poses, backend=b), hd.asarray(dims, backend=b))

    for fn in (spheres, cuboid_union):  # |grad| = 1 (the eikonal equation) away from kinks
        per_point = hd.vmap(hd.grad(lambda p, fn=fn: hd.sum(fn(p[None])[0])))(
            to_backend(points, autodiff_backend)
        )
        np.testing.assert_allclose(np.linalg.norm(hd.to_numpy(per_point), axis=-1), 1.0, rtol=1e-9)
    # at a sphere's centre and a cuboid's centre (kinks): finite
    kinks = np.concatenate([centers[:1], poses[:1, :, 3]])
    for fn in (spheres, cuboids):
        grad = compiled_on_jax(hd.grad(lambda p, fn=fn: hd.sum(fn(p))), autodiff_backend)(
            to_backend(kinks, autodiff_backend)
        )
        assert np.all(np.isfinite(hd.to_numpy(grad)))


def test_gradients_in_the_shape_parameters(autodiff_backend):
    points = RNG.normal(size=(6, 3)) * 1.5
    poses, dims = random_cuboids(1)

    def by_pose(pose):
        b = hd.backend_of(pose)
        return hv.cuboid_sdf(hd.asarray(points, backend=b), pose, hd.asarray(dims[0], backend=b))

    check_gradient(by_pose, poses[0], autodiff_backend)
    check_gradient(
        lambda r: hv.sphere_sdf(hd.asarray(points, backend=hd.backend_of(r)), r[:3], r[3]),
        np.array([0.1, -0.2, 0.3, 0.8]),
        autodiff_backend,
    )
