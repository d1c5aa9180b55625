"""hedera.robot manipulators: forward kinematics against roboticstoolbox-python and a
hand-written NumPy DH chain, link points, gradients against finite differences.

References:

* Panda: ``roboticstoolbox.models.DH.Panda`` (modified DH; its joint 7 carries the
  flange's ``d = 0.107``, and its tool is the Franka Hand, at ``0.103`` m where Franka's
  documentation says ``0.1034``: the test sets the documented value);
* Mico: a NumPy chain of classic DH matrices written out below from Kinova's published
  lengths ("DH Parameters of Mico", v1.0.8), and ``roboticstoolbox.models.DH.Mico``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import hedera as hd
from hedera.robot import Manipulator, MicoManipulator, PandaManipulator
from robot_reference import central_difference

rtb = pytest.importorskip("roboticstoolbox")
from spatialmath import SE3  # noqa: E402  (installed with roboticstoolbox)

RNG = np.random.default_rng(17)


def arr(x, backend, dtype=np.float64):
    return hd.asarray(np.asarray(x, dtype=dtype), backend=backend)


# ---------------------------------------------------------------- independent NumPy chain


def classic_dh(theta, d, a, alpha):
    """Rz(theta) Tz(d) Tx(a) Rx(alpha), composed from elementary matrices."""

    def rz(t):
        c, s = math.cos(t), math.sin(t)
        return np.array([[c, -s, 0, 0], [s, c, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]])

    def rx(t):
        c, s = math.cos(t), math.sin(t)
        return np.array([[1, 0, 0, 0], [0, c, -s, 0], [0, s, c, 0], [0, 0, 0, 1.0]])

    def trans(x, y, z):
        m = np.eye(4)
        m[:3, 3] = [x, y, z]
        return m

    return rz(theta) @ trans(0, 0, d) @ trans(a, 0, 0) @ rx(alpha)


def mico_reference_frames(q):
    """Kinova's Mico table, written out from the published lengths (classic DH)."""
    D1, D2, D3, D4, D5, D6, e2 = 0.2755, 0.2900, 0.1233, 0.0741, 0.0741, 0.1600, 0.0070  # noqa: N806 (Kinova's names)
    aa = math.radians(30.0)
    d4b = D3 + math.sin(aa) / math.sin(2 * aa) * D4
    d5b = math.sin(aa) / math.sin(2 * aa) * (D4 + D5)
    d6b = math.sin(aa) / math.sin(2 * aa) * D5 + D6
    table = [  # (alpha, a, d, theta) per Kinova
        (math.pi / 2, 0.0, D1, -q[0]),
        (math.pi, D2, 0.0, q[1] - math.pi / 2),
        (math.pi / 2, 0.0, -e2, q[2] + math.pi / 2),
        (2 * aa, 0.0, -d4b, q[3]),
        (2 * aa, 0.0, -d5b, q[4] - math.pi),
        (math.pi, 0.0, -d6b, q[5] + math.radians(100.0)),
    ]
    frames = [np.eye(4)]
    for alpha, a, d, theta in table:
        frames.append(frames[-1] @ classic_dh(theta, d, a, alpha))
    return np.stack(frames)


# ---------------------------------------------------------------- Panda


def panda_reference():
    robot = rtb.models.DH.Panda()
    return robot


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_panda_forward_kinematics_matches_roboticstoolbox(backend, dtype):
    q = RNG.uniform(-2.5, 2.5, size=(2, 3, 7))
    robot = panda_reference()
    tol = 2e-5 if dtype == np.float32 else 1e-12
    flange = PandaManipulator()
    poses = hd.to_numpy(flange.link_poses(arr(q, backend, dtype)))
    ee = hd.to_numpy(flange.end_effector_pose(arr(q, backend, dtype)))
    hand = hd.to_numpy(PandaManipulator(hand=True).end_effector_pose(arr(q, backend, dtype)))
    assert poses.shape == (2, 3, 8, 3, 4) and ee.shape == (2, 3, 3, 4)
    robot.tool = SE3.Tz(0.1034) * SE3.Rz(-math.pi / 4)  # Franka's documented hand offset
    for idx in np.ndindex(2, 3):
        frames = robot.fkine_all(q[idx])  # base, then links 1..7 (link 7 includes the flange)
        for j in range(7):
            np.testing.assert_allclose(poses[idx][j], frames[j].A[:3], atol=tol)
        np.testing.assert_allclose(ee[idx], frames[7].A[:3], atol=tol)
        np.testing.assert_allclose(hand[idx], robot.fkine(q[idx]).A[:3], atol=tol)


def test_panda_zero_pose_by_hand():
    # q = 0, worked by hand from Franka's table: d1 + d3 + d5 up the z axis, the a's
    # (0.0825 - 0.0825 + 0.088) along x, then the flange's 0.107 m pointing down (z_7 = -z_0)
    ee = PandaManipulator().end_effector_pose(np.zeros(7))
    np.testing.assert_allclose(ee[:, 3], [0.088, 0.0, 0.333 + 0.316 + 0.384 - 0.107], atol=1e-12)
    np.testing.assert_allclose(ee[:, :3], np.diag([1.0, -1.0, -1.0]), atol=1e-12)


# ---------------------------------------------------------------- Mico


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_mico_forward_kinematics_matches_kinova_table(backend, dtype):
    q = RNG.uniform(-math.pi, math.pi, size=(5, 6))
    mico = MicoManipulator()
    poses = hd.to_numpy(mico.link_poses(arr(q, backend, dtype)))
    tol = 2e-5 if dtype == np.float32 else 1e-12
    robot = rtb.models.DH.Mico()
    for k in range(5):
        np.testing.assert_allclose(poses[k], mico_reference_frames(q[k])[:, :3], atol=tol)
        frames = robot.fkine_all(q[k])
        for j in range(7):
            np.testing.assert_allclose(poses[k, j], frames[j].A[:3], atol=tol)


def test_dh_angles_option(backend):
    theta = RNG.uniform(-1, 1, size=(4, 6))
    q = (theta - np.radians([0, -90, 90, 0, -180, 100])) * np.array([-1, 1, 1, 1, 1, 1])
    direct = MicoManipulator(kinova_angles=False).link_poses(arr(theta, backend))
    via_q = MicoManipulator().link_poses(arr(q, backend))
    np.testing.assert_allclose(hd.to_numpy(direct), hd.to_numpy(via_q), atol=1e-12)


# ---------------------------------------------------------------- generic chain


def test_link_matrices_compose_to_link_poses_with_base_and_tool(backend):
    base = np.eye(4)[:3]
    base[:, 3] = [0.5, -0.2, 0.1]
    c, s = math.cos(0.3), math.sin(0.3)
    base[:2, :2] = [[c, -s], [s, c]]
    tool = np.eye(4)
    tool[:3, 3] = [0.0, 0.05, 0.2]
    robot = Manipulator(
        [0.1, 0.4, 0.0], [0.3, 0.0, 0.1], [math.pi / 2, 0.0, -math.pi / 2], base_pose=base, tool_pose=tool
    )
    q = RNG.normal(size=(4, 3))
    links = hd.to_numpy(robot.link_matrices(arr(q, backend)))
    poses = hd.to_numpy(robot.link_poses(arr(q, backend)))
    ee = hd.to_numpy(robot.end_effector_pose(arr(q, backend)))
    assert links.shape == (4, 3, 4, 4) and poses.shape == (4, 4, 3, 4)
    for k in range(4):
        current = np.vstack([base, [0, 0, 0, 1]])
        np.testing.assert_allclose(poses[k, 0], base, atol=1e-12)
        for i in range(3):
            np.testing.assert_allclose(
                links[k, i], classic_dh(q[k, i], robot.d[i], robot.a[i], robot.alpha[i]), atol=1e-12
            )
            current = current @ links[k, i]
            np.testing.assert_allclose(poses[k, i + 1], current[:3], atol=1e-12)
        np.testing.assert_allclose(ee[k], (current @ tool)[:3], atol=1e-12)


def segment_distance(p, a, b):
    ab = b - a
    t = np.clip(np.dot(p - a, ab) / max(np.dot(ab, ab), 1e-300), 0.0, 1.0)
    return np.linalg.norm(p - (a + t * ab))


@pytest.mark.parametrize("which", ["panda", "mico"])
def test_sample_links_lie_on_the_skeleton(backend, which):
    spm = 20.0
    q = RNG.uniform(-2, 2, size=(3, 7 if which == "panda" else 6))
    if which == "panda":
        robot, reference = PandaManipulator(hand=True), panda_reference()
        reference.tool = SE3.Tz(0.1034) * SE3.Rz(-math.pi / 4)
    else:
        robot, reference = MicoManipulator(), rtb.models.DH.Mico()
    points = hd.to_numpy(robot.sample_links(arr(q, backend), samples_per_metre=spm))
    for k in range(3):
        frames = [f.A for f in reference.fkine_all(q[k])]
        # the skeleton from the reference frames: origin, DH corner, next origin, ... end effector
        corners = [frames[0][:3, 3]]
        for i in range(1, len(frames)):
            prev = frames[i - 1]
            if which == "panda":  # modified DH: along x_{i-1} by a_{i-1}, then along z_i
                corners.append(prev[:3, 3] + reference.links[i - 1].a * prev[:3, 0])
            else:  # classic DH: along z_{i-1} by d_i, then along x_i
                corners.append(prev[:3, 3] + reference.links[i - 1].d * prev[:3, 2])
            corners.append(frames[i][:3, 3])
        corners.append(reference.fkine(q[k]).A[:3, 3])
        pts = points[k]
        np.testing.assert_allclose(pts[0], corners[0], atol=1e-12)
        np.testing.assert_allclose(pts[-1], corners[-1], atol=1e-12)
        for p in pts:
            assert (
                min(segment_distance(p, corners[i], corners[i + 1]) for i in range(len(corners) - 1)) < 1e-9
            )
        assert np.max(np.linalg.norm(np.diff(pts, axis=0), axis=-1)) <= 1 / spm + 1e-9
        skeleton_length = sum(np.linalg.norm(corners[i + 1] - corners[i]) for i in range(len(corners) - 1))
        assert len(pts) >= skeleton_length * spm


@pytest.mark.parametrize("method", ["link_poses", "end_effector_pose", "sample_links"])
@pytest.mark.parametrize("which", ["panda", "mico"])
def test_gradients_match_finite_differences(autodiff_backend, method, which):
    robot = PandaManipulator(hand=True) if which == "panda" else MicoManipulator()
    q = RNG.uniform(-2, 2, size=(2, robot.num_joints))
    out_shape = np.shape(getattr(robot, method)(q))
    weights = RNG.normal(size=out_shape)

    def scalar(x, backend):
        return hd.sum(getattr(robot, method)(x) * arr(weights, backend))

    grad = hd.grad(lambda x: scalar(x, autodiff_backend))(arr(q, autodiff_backend))
    expected = central_difference(lambda x: float(scalar(x, "numpy")), q)
    np.testing.assert_allclose(hd.to_numpy(grad), expected, atol=1e-7, rtol=1e-6)


def test_bad_inputs(backend):
    with pytest.raises(hd.ShapeError, match="joint_angles"):
        PandaManipulator().link_poses(arr(np.zeros((2, 6)), backend))
    with pytest.raises(hd.InvalidArgumentError, match="convention"):
        Manipulator([0.1], [0.0], [0.0], convention="craig")
    with pytest.raises(hd.ShapeError, match="d"):
        Manipulator([0.1, 0.2], [0.0], [0.0, 0.0])
    with pytest.raises(hd.InvalidArgumentError, match="samples_per_metre"):
        MicoManipulator().sample_links(arr(np.zeros(6), backend), samples_per_metre=0)
