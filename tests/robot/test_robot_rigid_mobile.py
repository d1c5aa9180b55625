"""hedera.robot.RigidMobile against scipy.spatial.transform.Rotation, and its gradients."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import hedera as hd
from hedera.robot import RigidMobile
from robot_reference import central_difference

RNG = np.random.default_rng(23)
BODY = np.array(
    [[0.0, 0.0, 0.0], [-0.15, 0.0, -0.15], [-0.15, 0.0, 0.15], [0.15, 0.0, -0.15], [0.15, 0.0, 0.15]]
)


def arr(x, backend, dtype=np.float64):
    return hd.asarray(np.asarray(x, dtype=dtype), backend=backend)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_body_points_match_scipy(backend, dtype):
    rot_vecs = RNG.normal(size=(2, 4, 3))
    rot_vecs[0, 0] = 0.0  # the identity rotation
    trans = RNG.normal(size=(2, 4, 3))
    expected = np.stack(
        [
            Rotation.from_rotvec(r).apply(BODY) + t
            for r, t in zip(rot_vecs.reshape(-1, 3), trans.reshape(-1, 3), strict=True)
        ]
    ).reshape(2, 4, 5, 3)
    drone = RigidMobile(BODY)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    rv_poses = arr(np.concatenate([trans, rot_vecs], axis=-1), backend, dtype)
    out = drone.sample_body_at_rot_vec_poses(rv_poses)
    assert tuple(out.shape) == (2, 4, 5, 3) and hd.dtype(out) == hd.dtype(rv_poses)
    np.testing.assert_allclose(hd.to_numpy(out), expected, atol=tol)
    quats = Rotation.from_rotvec(rot_vecs.reshape(-1, 3)).as_quat().reshape(2, 4, 4)
    out = drone.sample_body_at_quaternion_poses(arr(np.concatenate([trans, quats], axis=-1), backend, dtype))
    np.testing.assert_allclose(hd.to_numpy(out), expected, atol=tol)
    mats = np.concatenate(
        [Rotation.from_rotvec(rot_vecs.reshape(-1, 3)).as_matrix().reshape(2, 4, 3, 3), trans[..., None]], -1
    )
    np.testing.assert_allclose(hd.to_numpy(drone.sample_body(arr(mats, backend, dtype))), expected, atol=tol)
    # body points given as an array of the same backend work too
    out = RigidMobile(arr(BODY, backend)).sample_body(arr(mats, backend, dtype))
    np.testing.assert_allclose(hd.to_numpy(out), expected, atol=tol)


def test_gradients_match_finite_differences(autodiff_backend):
    poses = np.concatenate([RNG.normal(size=(3, 3)), RNG.normal(size=(3, 3))], axis=-1)
    poses[1, 3:] = 1e-4  # near the identity rotation (mech's Taylor branch)
    weights = RNG.normal(size=(3, 5, 3))
    drone = RigidMobile(BODY)

    def scalar(x, backend):
        return hd.sum(drone.sample_body_at_rot_vec_poses(x) * arr(weights, backend))

    grad = hd.grad(lambda x: scalar(x, autodiff_backend))(arr(poses, autodiff_backend))
    expected = central_difference(lambda x: float(scalar(x, "numpy")), poses)
    np.testing.assert_allclose(hd.to_numpy(grad), expected, atol=1e-7, rtol=1e-6)
    at_identity = hd.grad(lambda x: scalar(x, autodiff_backend))(arr(np.zeros((3, 6)), autodiff_backend))
    assert np.all(np.isfinite(hd.to_numpy(at_identity)))


def test_bad_inputs(backend):
    with pytest.raises(hd.ShapeError, match="rel_body_points"):
        RigidMobile(np.zeros((4, 2)))
    drone = RigidMobile(BODY)
    with pytest.raises(hd.ShapeError, match="rot_vec_poses"):
        drone.sample_body_at_rot_vec_poses(arr(np.zeros((2, 7)), backend))
    with pytest.raises(hd.ShapeError, match="mat_poses"):
        drone.sample_body(arr(np.zeros((2, 3, 3)), backend))
