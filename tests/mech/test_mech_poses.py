"""hedera.mech poses and positions against NumPy/scipy references, on every backend."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import hedera as hd
import hedera.mech as mech
from mech_reference import TOL, as_matrix, representation, sample_rotations, to_backend

DTYPES = ("float32", "float64")
ROTATIONS = sample_rotations()
BATCH = len(ROTATIONS)
TRANSLATIONS = np.random.default_rng(21).normal(size=(BATCH, 3)) * 2.0

# pose kind -> rotation representation inside it
POSE_KINDS = {
    "quaternion_pose": "quaternion",
    "euler_pose": "euler",
    "axis_angle_pose": "axis_angle",
    "rot_vec_pose": "rot_vec",
}
CONVENTION = "ZYX"


def homogeneous(rot, trans):
    m = np.zeros((*rot.shape[:-2], 4, 4))
    m[..., :3, :3], m[..., :3, 3], m[..., 3, 3] = rot, trans, 1.0
    return m


def pose_value(kind: str) -> np.ndarray:
    if kind == "mat_pose":
        return homogeneous(ROTATIONS.as_matrix(), TRANSLATIONS)[..., :3, :]
    return np.concatenate([TRANSLATIONS, representation(ROTATIONS, POSE_KINDS[kind], CONVENTION)], axis=-1)


def pose_matrix(value: np.ndarray, kind: str) -> np.ndarray:
    """The 4x4 matrix a pose stands for, by scipy/NumPy."""
    value = np.asarray(value, dtype=np.float64)
    if kind == "mat_pose":
        return homogeneous(value[..., :3, :3], value[..., :3, 3])
    rot = as_matrix(value[..., 3:], POSE_KINDS[kind], CONVENTION)
    return homogeneous(rot, value[..., :3])


def convert(src, dst, x):
    fn = getattr(mech, f"{src}_to_{dst}")
    return fn(x, CONVENTION) if "euler" in src + dst else fn(x)


KINDS = ["mat_pose", *POSE_KINDS]
PAIRS = list(itertools.permutations(KINDS, 2))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("src", "dst"), PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_pose_conversions(backend, src, dst, dtype):
    out = convert(src, dst, to_backend(pose_value(src), backend, dtype))
    got = hd.to_numpy(out)
    assert got.shape == pose_value(dst).shape and hd.dtype(out) == getattr(hd, dtype)
    expected = homogeneous(ROTATIONS.as_matrix(), TRANSLATIONS)
    scale = 30.0 if dtype == "float32" else 1e3
    np.testing.assert_allclose(pose_matrix(got, dst), expected, atol=TOL[dtype]["atol"] * scale, rtol=0)
    np.testing.assert_allclose(
        got[..., :3, 3] if dst == "mat_pose" else got[..., :3], TRANSLATIONS, atol=1e-5
    )


def test_homogeneous_mat_pose_input(backend):
    full = homogeneous(ROTATIONS.as_matrix(), TRANSLATIONS)
    q_pose = hd.to_numpy(mech.mat_pose_to_quaternion_pose(to_backend(full, backend, "float64")))
    np.testing.assert_allclose(pose_matrix(q_pose, "quaternion_pose"), full, atol=1e-12)


@pytest.mark.parametrize("dtype", DTYPES)
def test_compose_and_invert_match_matrix_products(backend, dtype):
    a = homogeneous(ROTATIONS.as_matrix(), TRANSLATIONS)
    b = np.flip(a, axis=0).copy()
    tol = dict(atol=TOL[dtype]["atol"] * 10, rtol=0)
    xa, xb = to_backend(a[..., :3, :], backend, dtype), to_backend(b, backend, dtype)
    np.testing.assert_allclose(hd.to_numpy(mech.compose_mat_poses(xa, xb)), (a @ b)[..., :3, :], **tol)
    np.testing.assert_allclose(hd.to_numpy(mech.invert_mat_pose(xa)), np.linalg.inv(a)[..., :3, :], **tol)
    qa = np.concatenate([a[..., :3, 3], ROTATIONS.as_quat()], axis=-1)
    qb = np.flip(qa, axis=0).copy()
    qa_b, qb_b = to_backend(qa, backend, dtype), to_backend(qb, backend, dtype)
    composed = hd.to_numpy(mech.compose_quaternion_poses(qa_b, qb_b))
    np.testing.assert_allclose(pose_matrix(composed, "quaternion_pose"), a @ b, **tol)
    inverted = hd.to_numpy(mech.invert_quaternion_pose(qa_b))
    np.testing.assert_allclose(pose_matrix(inverted, "quaternion_pose"), np.linalg.inv(a), **tol)


@pytest.mark.parametrize("dtype", DTYPES)
def test_increment_quaternion_pose_with_velocity(backend, dtype):
    rng = np.random.default_rng(22)
    pose = np.concatenate([TRANSLATIONS, ROTATIONS.as_quat()], axis=-1)
    rate = Rotation.from_rotvec(rng.normal(size=(BATCH, 3)))
    velocity = np.concatenate([rng.normal(size=(BATCH, 3)), rate.as_quat()], axis=-1)
    dt = 0.05
    got = hd.to_numpy(
        mech.increment_quaternion_pose_with_velocity(
            to_backend(pose, backend, dtype), to_backend(velocity, backend, dtype), dt
        )
    )
    expected_rot = (ROTATIONS * rate**dt).as_matrix()
    scale = 10.0 if dtype == "float64" else 30.0
    np.testing.assert_allclose(
        got[..., :3], TRANSLATIONS + velocity[..., :3] * dt, atol=TOL[dtype]["atol"] * scale
    )
    np.testing.assert_allclose(
        Rotation.from_quat(got[..., 3:]).as_matrix(), expected_rot, atol=TOL[dtype]["atol"] * scale
    )
    dts = to_backend(np.full(BATCH, dt), backend, dtype)
    again = hd.to_numpy(
        mech.increment_quaternion_pose_with_velocity(
            to_backend(pose, backend, dtype), to_backend(velocity, backend, dtype), dts
        )
    )
    np.testing.assert_allclose(again, got, atol=TOL[dtype]["atol"])


# ---- positions ----------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
def test_homogeneous_coordinates_and_transforms(backend, dtype):
    rng = np.random.default_rng(23)
    points = rng.normal(size=(BATCH, 3))
    x = to_backend(points, backend, dtype)
    hom = hd.to_numpy(mech.make_coordinates_homogeneous(x))
    np.testing.assert_array_equal(hom[..., 3], 1.0)
    np.testing.assert_allclose(hom[..., :3], points, atol=TOL[dtype]["atol"])
    scaled = to_backend(np.concatenate([points * 2.5, np.full((BATCH, 1), 2.5)], axis=-1), backend, dtype)
    np.testing.assert_allclose(
        hd.to_numpy(mech.homogeneous_to_cartesian_coords(scaled)), points, **TOL[dtype]
    )
    mats = homogeneous(ROTATIONS.as_matrix(), TRANSLATIONS)
    full = hd.to_numpy(mech.make_transformation_homogeneous(to_backend(mats[..., :3, :], backend, dtype)))
    np.testing.assert_allclose(full, mats, atol=TOL[dtype]["atol"])
    expected = np.einsum("bij,bj->bi", mats, np.concatenate([points, np.ones((BATCH, 1))], axis=-1))[..., :3]
    for transform in (mats, mats[..., :3, :]):
        got = hd.to_numpy(mech.transform_coords(to_backend(transform, backend, dtype), x))
        np.testing.assert_allclose(got, expected, atol=TOL[dtype]["atol"] * 10)
    # one transform for many points, by broadcasting
    many = hd.to_numpy(mech.transform_coords(to_backend(mats[:1, :3, :], backend, dtype), x))
    np.testing.assert_allclose(
        many, points @ mats[0, :3, :3].T + mats[0, :3, 3], atol=TOL[dtype]["atol"] * 10
    )


@pytest.mark.parametrize("dtype", DTYPES)
def test_polar_cartesian_coordinates(backend, dtype):
    rng = np.random.default_rng(24)
    points = np.concatenate(
        [rng.normal(size=(BATCH - 4, 3)), [[0, 0, 0], [0, 0, 2.0], [0, 0, -1.0], [-1.0, 0, 0]]]
    )
    r = np.linalg.norm(points, axis=-1)
    phi = np.arctan2(points[:, 1], points[:, 0])
    theta = np.arctan2(np.hypot(points[:, 0], points[:, 1]), points[:, 2])
    expected = np.stack([phi, theta, r], axis=-1)  # (phi, theta, r): azimuth, inclination, radius
    got = hd.to_numpy(mech.cartesian_to_polar_coords(to_backend(points, backend, dtype)))
    np.testing.assert_allclose(got, expected, atol=TOL[dtype]["atol"] * 10)
    back = hd.to_numpy(mech.polar_to_cartesian_coords(to_backend(expected, backend, dtype)))
    np.testing.assert_allclose(back, points, atol=TOL[dtype]["atol"] * 10)
    # independent reference: x = r sin(theta) cos(phi), y = r sin(theta) sin(phi), z = r cos(theta)
    sph = np.array([[0.3, 1.1, 2.0], [-2.0, 0.2, 0.5]])
    ref = sph[:, 2:] * np.stack(
        [np.sin(sph[:, 1]) * np.cos(sph[:, 0]), np.sin(sph[:, 1]) * np.sin(sph[:, 0]), np.cos(sph[:, 1])], -1
    )
    np.testing.assert_allclose(
        hd.to_numpy(mech.polar_to_cartesian_coords(to_backend(sph, backend, dtype))), ref, **TOL[dtype]
    )


def test_pose_shape_errors(backend):
    with pytest.raises(hd.ShapeError):
        mech.quaternion_pose_to_mat_pose(to_backend(np.zeros(6), backend, "float64"))
    with pytest.raises(hd.ShapeError):
        mech.mat_pose_to_rot_vec_pose(to_backend(np.zeros((3, 3)), backend, "float64"))
    with pytest.raises(hd.ShapeError):
        mech.make_transformation_homogeneous(to_backend(np.zeros((3, 3)), backend, "float64"))
    with pytest.raises(hd.InvalidArgumentError):
        mech.euler_pose_to_mat_pose(to_backend(np.zeros(6), backend, "float64"), "xyZ")
