"""Gradients of hedera.mech against central finite differences (float64), on every autodiff backend.

Each function is reduced to a scalar with fixed random weights; ``hd.grad`` on the
backend is compared with central differences of the same function evaluated
through NumPy. Points: generic rotations, both sides of the small-angle Taylor
switch, and the identity itself. Where the maths has no derivative (the axis of
the identity rotation, the origin in polar coordinates, gimbal lock) the
gradient must still be finite.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import hedera as hd
import hedera.mech as mech
from mech_reference import central_difference, to_backend, unit

RNG = np.random.default_rng(11)
QUATS = Rotation.random(3, random_state=12).as_quat() * np.array([[1.0], [-0.7], [1.6]])
MATS = Rotation.random(3, random_state=13).as_matrix()
ROTVECS = RNG.normal(size=(3, 3))
AXIS_ANGLES = np.concatenate([unit(RNG.normal(size=(3, 3))), RNG.uniform(0.2, 3.0, size=(3, 1))], axis=-1)
POINTS = RNG.normal(size=(3, 3))
QPOSES = np.concatenate([RNG.normal(size=(3, 3)), QUATS], axis=-1)
MPOSES = np.concatenate([MATS, RNG.normal(size=(3, 3, 1))], axis=-1)

# name -> (function of one array, input)
SMOOTH = {
    "quaternion_to_rot_mat": (mech.quaternion_to_rot_mat, QUATS),
    "rot_mat_to_quaternion": (mech.rot_mat_to_quaternion, MATS),
    "quaternion_to_euler_xyz": (lambda q: mech.quaternion_to_euler(q, "xyz"), QUATS),
    "quaternion_to_euler_ZXZ": (lambda q: mech.quaternion_to_euler(q, "ZXZ"), QUATS),
    "rot_mat_to_euler_YZX": (lambda m: mech.rot_mat_to_euler(m, "YZX"), MATS),
    "euler_to_quaternion": (lambda e: mech.euler_to_quaternion(e, "zyz"), ROTVECS),
    "euler_to_rot_mat": (lambda e: mech.euler_to_rot_mat(e, "XZY"), ROTVECS),
    "rot_vec_to_quaternion": (mech.rot_vec_to_quaternion, ROTVECS),
    "rot_vec_to_rot_mat": (mech.rot_vec_to_rot_mat, ROTVECS),
    "quaternion_to_rot_vec": (mech.quaternion_to_rot_vec, QUATS),
    "quaternion_to_axis_angle": (mech.quaternion_to_axis_angle, QUATS),
    "rot_mat_to_rot_vec": (mech.rot_mat_to_rot_vec, MATS),
    "axis_angle_to_rot_mat": (mech.axis_angle_to_rot_mat, AXIS_ANGLES),
    "axis_angle_to_polar_axis_angle": (mech.axis_angle_to_polar_axis_angle, AXIS_ANGLES),
    "polar_axis_angle_to_rot_mat": (mech.polar_axis_angle_to_rot_mat, ROTVECS),
    "rot_vec_to_axis_angle": (mech.rot_vec_to_axis_angle, ROTVECS),
    "scale_quaternion_rotation_angle": (lambda q: mech.scale_quaternion_rotation_angle(q, 0.4), QUATS),
    "slerp": (lambda q: mech.slerp(q, hd.flip(q, axis=0), 0.3), QUATS),
    "hamilton_product": (lambda q: mech.hamilton_product(q, hd.flip(q, axis=0)), QUATS),
    "inverse_quaternion": (mech.inverse_quaternion, QUATS),
    "target_facing_rotation_matrix": (
        lambda p: mech.target_facing_rotation_matrix(p, hd.flip(p, axis=0) * 2.0),
        POINTS,
    ),
    "quaternion_pose_to_mat_pose": (mech.quaternion_pose_to_mat_pose, QPOSES),
    "mat_pose_to_quaternion_pose": (mech.mat_pose_to_quaternion_pose, MPOSES),
    "compose_mat_poses": (lambda m: mech.compose_mat_poses(m, hd.flip(m, axis=0)), MPOSES),
    "invert_quaternion_pose": (mech.invert_quaternion_pose, QPOSES),
    "increment_quaternion_pose_with_velocity": (
        lambda p: mech.increment_quaternion_pose_with_velocity(p, hd.flip(p, axis=0), 0.1),
        QPOSES,
    ),
    "cartesian_to_polar_coords": (mech.cartesian_to_polar_coords, POINTS),
    "polar_to_cartesian_coords": (mech.polar_to_cartesian_coords, POINTS),
    "transform_coords": (
        lambda p: mech.transform_coords(mech.quaternion_pose_to_mat_pose(p), p[..., :3]),
        QPOSES,
    ),
}

_AXIS = unit(np.array([0.3, -0.5, 0.8]))
# points at and around the identity where the functions are smooth (both sides of the Taylor switch)
AT_IDENTITY = {
    "rot_vec_to_quaternion": (mech.rot_vec_to_quaternion, np.stack([0 * _AXIS, 1e-4 * _AXIS, 2e-3 * _AXIS])),
    "rot_vec_to_rot_mat": (mech.rot_vec_to_rot_mat, np.stack([0 * _AXIS, 1e-4 * _AXIS, 2e-3 * _AXIS])),
    "quaternion_to_rot_vec": (
        mech.quaternion_to_rot_vec,
        np.array([[0, 0, 0, 1.0], [*(2e-5 * _AXIS), 1.0], [*(2e-3 * _AXIS), 1.0]]),
    ),
    "quaternion_to_rot_mat": (mech.quaternion_to_rot_mat, np.array([[0, 0, 0, 1.0]] * 3)),
    "rot_mat_to_quaternion": (mech.rot_mat_to_quaternion, np.stack([np.eye(3)] * 3)),
    "rot_mat_to_rot_vec": (mech.rot_mat_to_rot_vec, np.stack([np.eye(3)] * 3)),
    "rot_mat_to_euler_xyz": (lambda m: mech.rot_mat_to_euler(m, "xyz"), np.stack([np.eye(3)] * 3)),
    "slerp_same": (lambda q: mech.slerp(q, q, 0.3), QUATS),
    "scale_identity": (
        lambda q: mech.scale_quaternion_rotation_angle(q, 2.0),
        np.array([[0, 0, 0, 1.0], [*(1e-5 * _AXIS), 1.0], [0, 0, 0, -1.0]]),
    ),
}

# functions without a derivative at these points: the gradient must be finite
SINGULAR = {
    "quaternion_to_axis_angle": (mech.quaternion_to_axis_angle, np.array([[0, 0, 0, 1.0]] * 2)),
    "rot_vec_to_axis_angle": (mech.rot_vec_to_axis_angle, np.zeros((2, 3))),
    "quaternion_to_polar_axis_angle": (mech.quaternion_to_polar_axis_angle, np.array([[0, 0, 0, 1.0]] * 2)),
    "rot_mat_to_euler_zxz_identity": (lambda m: mech.rot_mat_to_euler(m, "zxz"), np.stack([np.eye(3)] * 2)),
    "euler_gimbal_lock": (
        lambda e: mech.quaternion_to_euler(mech.euler_to_quaternion(e, "XYZ"), "XYZ"),
        np.array([[0.3, np.pi / 2, -0.2], [0.1, -np.pi / 2, 0.4]]),
    ),
    "cartesian_to_polar_origin_and_axis": (
        mech.cartesian_to_polar_coords,
        np.array([[0.0, 0, 0], [0, 0, 2.0]]),
    ),
    "axis_angle_to_polar_on_z": (
        mech.axis_angle_to_polar_axis_angle,
        np.array([[0, 0, 1.0, 0.5], [0, 0, -1.0, 0]]),
    ),
}


def _weights(f, x):
    out = hd.to_numpy(f(np.asarray(x, dtype=np.float64)))
    return np.random.default_rng(0).normal(size=out.shape)


def _grad(backend, loss):
    """``hd.grad(loss)``; compiled on jax, where one compilation beats compiling every op eagerly."""
    g = hd.grad(loss)
    return hd.jit(g) if backend == "jax" else g


def _check_gradient(backend, f, x0, atol=1e-6):
    w = _weights(f, x0)
    w_b = to_backend(w, backend, "float64")
    grad = hd.to_numpy(_grad(backend, lambda x: hd.sum(f(x) * w_b))(to_backend(x0, backend, "float64")))
    assert np.all(np.isfinite(grad))
    expected = central_difference(lambda x: float(np.sum(hd.to_numpy(f(x)) * w)), x0)
    np.testing.assert_allclose(grad, expected, rtol=1e-5, atol=atol)


@pytest.mark.parametrize("name", list(SMOOTH))
def test_gradient_matches_finite_differences(autodiff_backend, name):
    f, x0 = SMOOTH[name]
    _check_gradient(autodiff_backend, f, x0)


@pytest.mark.parametrize("name", list(AT_IDENTITY))
def test_gradient_at_identity_matches_finite_differences(autodiff_backend, name):
    f, x0 = AT_IDENTITY[name]
    _check_gradient(autodiff_backend, f, x0)


@pytest.mark.parametrize("name", list(SINGULAR))
def test_gradient_is_finite_at_singular_points(autodiff_backend, name):
    f, x0 = SINGULAR[name]
    x = to_backend(x0, autodiff_backend, "float64")
    value = hd.to_numpy(f(x))
    grad = hd.to_numpy(_grad(autodiff_backend, lambda x: hd.sum(f(x)))(x))
    assert np.all(np.isfinite(value)) and np.all(np.isfinite(grad))


def test_float32_gradients_are_finite_at_identity(autodiff_backend):
    x = to_backend(np.eye(3), autodiff_backend, "float32")
    for f in (mech.rot_mat_to_quaternion, mech.rot_mat_to_rot_vec, lambda m: mech.rot_mat_to_euler(m, "ZYX")):
        grad = hd.to_numpy(_grad(autodiff_backend, lambda m, f=f: hd.sum(f(m)))(x))
        assert grad.dtype == np.float32 and np.all(np.isfinite(grad))
