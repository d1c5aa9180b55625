"""Serial manipulators from Denavit-Hartenberg parameters: link matrices, forward
kinematics and points sampled along the links.

Two DH conventions are supported, per joint ``i`` (``1..n``), with joint angle ``theta_i``:

* ``"classic"`` (standard, Denavit and Hartenberg 1955; Spong's textbook; Kinova's
  documentation): ``T_{i-1,i} = Rot_z(theta_i) Trans_z(d_i) Trans_x(a_i) Rot_x(alpha_i)``;
* ``"modified"`` (Craig's, 1986; Franka Emika's documentation):
  ``T_{i-1,i} = Rot_x(alpha_{i-1}) Trans_x(a_{i-1}) Rot_z(theta_i) Trans_z(d_i)``; here row
  ``i`` of the table holds ``a_{i-1}``, ``alpha_{i-1}`` and ``d_i``, as in Franka's table.

The DH joint angle is ``theta_i = joint_signs[i] * q_i + joint_offsets[i]`` for the robot's own
joint angles ``q``. Frame ``0`` is the robot's base frame; ``base_pose`` places it in the
world, and a fixed ``tool_pose`` maps frame ``n`` to the end effector. Poses follow
:mod:`hedera.mech`: a matrix pose ``[R | t]`` ``(..., 3, 4)`` maps a frame's coordinates to
the world's, ``p_world = R p + t``. Lengths are in metres, angles in radians.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import hedera as hd
from hedera.helpers import one_of

from ._helpers import Array, check_last_dim, constant_like, homogeneous

__all__ = ["Manipulator", "PandaManipulator", "MicoManipulator"]

_CONVENTIONS = ("classic", "modified")


def _floats(values: Sequence[float] | None, n: int, default: float, name: str) -> tuple[float, ...]:
    if values is None:
        return (float(default),) * n
    out = tuple(float(v) for v in values)
    if len(out) != n:
        raise hd.ShapeError(f"{name}: expected {n} values (one per joint), got {len(out)}")
    return out


def _matrix_or_none(m: Sequence[Sequence[float]] | None, name: str) -> tuple[tuple[float, ...], ...] | None:
    """A fixed 3x4 or 4x4 pose given as nested floats (or any array), kept as a 3x4 tuple."""
    if m is None:
        return None
    rows = [[float(v) for v in row] for row in m]
    if len(rows) not in (3, 4) or any(len(r) != 4 for r in rows):
        raise hd.ShapeError(f"{name}: expected a matrix pose of shape (3, 4) or (4, 4)")
    return tuple(tuple(r) for r in rows[:3])


def _rows_to_matrix(entries: list[list[Array]]) -> Array:
    """Stack arrays of shape ``(...)``, given as rows, into ``(..., rows, cols)``."""
    return hd.stack([hd.stack(row, axis=-1) for row in entries], axis=-2)


class Manipulator:
    """A serial chain of revolute joints described by a Denavit-Hartenberg table.

    Parameters
    ----------
    a, d, alpha : sequence of float, length n_joints
        The DH table: link lengths ``a`` and offsets ``d`` in metres, twists ``alpha`` in
        radians. In the ``"modified"`` convention row ``i`` holds ``a_{i-1}``,
        ``alpha_{i-1}``, ``d_i`` (Craig's and Franka's layout).
    convention : {"classic", "modified"}
        See the module docstring.
    joint_offsets : sequence of float, optional
        Added to the (signed) joint angles to give the DH angles ``theta``; default zeros.
    joint_signs : sequence of float, optional
        ``+1`` or ``-1`` per joint (a joint whose positive direction is the DH ``-z``);
        default all ``+1``.
    base_pose : (3, 4) or (4, 4) nested floats or array, optional
        The base frame (frame 0) in the world; default the identity.
    tool_pose : (3, 4) or (4, 4) nested floats or array, optional
        The end effector in frame ``n``; default the identity.
    name : str, optional

    Notes
    -----
    The object holds Python floats only, so one manipulator serves every backend: each
    method builds its constants in the backend, dtype and device of its ``joint_angles``.
    Every method is batched over leading dimensions and differentiable in the joint angles.
    """

    def __init__(
        self,
        a: Sequence[float],
        d: Sequence[float],
        alpha: Sequence[float],
        *,
        convention: str = "classic",
        joint_offsets: Sequence[float] | None = None,
        joint_signs: Sequence[float] | None = None,
        base_pose: Sequence[Sequence[float]] | None = None,
        tool_pose: Sequence[Sequence[float]] | None = None,
        name: str | None = None,
    ) -> None:
        one_of("Manipulator", "convention", convention, tuple(_CONVENTIONS))
        self.a = tuple(float(v) for v in a)
        n = len(self.a)
        if n < 1:
            raise hd.ShapeError("a: expected at least one joint")
        self.d = _floats(d, n, 0.0, "d")
        self.alpha = _floats(alpha, n, 0.0, "alpha")
        self.convention = convention
        self.joint_offsets = _floats(joint_offsets, n, 0.0, "joint_offsets")
        self.joint_signs = _floats(joint_signs, n, 1.0, "joint_signs")
        self.base_pose = _matrix_or_none(base_pose, "base_pose")
        self.tool_pose = _matrix_or_none(tool_pose, "tool_pose")
        self.name = name or type(self).__name__

    @property
    def num_joints(self) -> int:
        """The number of joints ``n``."""
        return len(self.a)

    def __repr__(self) -> str:
        return f"{self.name}({self.num_joints} joints, {self.convention} DH)"

    # ---------------------------------------------------------------- kinematics

    def _check(self, joint_angles: Array) -> None:
        check_last_dim(joint_angles, self.num_joints, "joint_angles", f"{self.name} joint angles")

    def dh_angles(self, joint_angles: Array) -> Array:
        """The DH angles ``theta = joint_signs * q + joint_offsets``: ``(..., n) -> (..., n)``."""
        self._check(joint_angles)
        signs = constant_like(self.joint_signs, joint_angles)
        offsets = constant_like(self.joint_offsets, joint_angles)
        return joint_angles * signs + offsets

    def link_matrices(self, joint_angles: Array) -> Array:
        """The homogeneous transforms ``T_{i-1,i}`` from each link frame to the previous one.

        Parameters
        ----------
        joint_angles : array, shape (..., n_joints)
            Joint angles in radians.

        Returns
        -------
        array, shape (..., n_joints, 4, 4)
            Row ``i - 1`` maps coordinates in frame ``i`` to frame ``i - 1``.
        """
        theta = self.dh_angles(joint_angles)
        ct, st = hd.cos(theta), hd.sin(theta)
        zero = hd.zeros_like(theta)
        one = hd.ones_like(theta)
        a = constant_like(self.a, theta) + zero
        d = constant_like(self.d, theta) + zero
        ca = constant_like([math.cos(v) for v in self.alpha], theta) + zero
        sa = constant_like([math.sin(v) for v in self.alpha], theta) + zero
        if self.convention == "classic":  # Rz(theta) Tz(d) Tx(a) Rx(alpha)
            rows = [
                [ct, -st * ca, st * sa, a * ct],
                [st, ct * ca, -ct * sa, a * st],
                [zero, sa, ca, d],
            ]
        else:  # Rx(alpha) Tx(a) Rz(theta) Tz(d)
            rows = [
                [ct, -st, zero, a],
                [st * ca, ct * ca, -sa, -sa * d],
                [st * sa, ct * sa, ca, ca * d],
            ]
        rows.append([zero, zero, zero, one])
        return _rows_to_matrix(rows)

    def _fixed(self, pose: tuple | None, like: Array) -> Array | None:
        return None if pose is None else homogeneous(constant_like(pose, like))

    def _frames(self, joint_angles: Array) -> list[Array]:
        """The ``n + 1`` homogeneous frame poses (base, then each link) in the world."""
        links = self.link_matrices(joint_angles)
        base = self._fixed(self.base_pose, joint_angles)
        if base is None:
            eye = hd.zeros_like(links[..., 0, :, :]) + constant_like(
                [[1.0, 0, 0, 0], [0, 1.0, 0, 0], [0, 0, 1.0, 0], [0, 0, 0, 1.0]], joint_angles
            )
            current = eye
        else:
            current = hd.zeros_like(links[..., 0, :, :]) + base
        frames = [current]
        for i in range(self.num_joints):
            current = hd.matmul(current, links[..., i, :, :])
            frames.append(current)
        return frames

    def link_poses(self, joint_angles: Array) -> Array:
        """Forward kinematics: the pose of every frame, base first, in the world.

        Parameters
        ----------
        joint_angles : array, shape (..., n_joints)
            Joint angles in radians.

        Returns
        -------
        array, shape (..., n_joints + 1, 3, 4)
            Matrix poses ``[R | t]`` of frames ``0`` (the base) to ``n`` (the last link), each
            mapping that frame's coordinates to the world's; ``t`` is the frame's origin.
        """
        return hd.stack(self._frames(joint_angles), axis=-3)[..., :3, :]

    def end_effector_pose(self, joint_angles: Array) -> Array:
        """The end effector's matrix pose ``(..., 3, 4)``: frame ``n`` composed with ``tool_pose``."""
        last = self._frames(joint_angles)[-1]
        tool = self._fixed(self.tool_pose, joint_angles)
        pose = last if tool is None else hd.matmul(last, tool)
        return pose[..., :3, :]

    # ---------------------------------------------------------------- link points

    def _segments(self) -> list[tuple[int, str, float]]:
        """The skeleton: per joint ``i`` (1-based), the two straight pieces of the link and
        their lengths, as ``(i, "d" or "a", length)`` in the order they are traversed."""
        out = []
        for i in range(self.num_joints):
            pieces = [("d", abs(self.d[i])), ("a", abs(self.a[i]))]
            if self.convention == "modified":
                pieces.reverse()  # along x_{i-1} by a_{i-1}, then along z_i by d_i
            out += [(i + 1, kind, length) for kind, length in pieces]
        return out

    def sample_links(self, joint_angles: Array, samples_per_metre: float = 25.0) -> Array:
        """Points along the manipulator's DH skeleton, for collision checking.

        The skeleton joins the frame origins ``o_0, ..., o_n`` and the end effector's origin
        through the DH corner points: link ``i`` runs along ``z`` by ``d_i`` then along ``x``
        by ``a_i`` (classic), or along ``x_{i-1}`` by ``a_{i-1}`` then ``z_i`` by ``d_i``
        (modified). Each straight piece of length ``L`` gets ``ceil(L * samples_per_metre)``
        evenly spaced points (its start included, its end excluded), and the end effector's
        origin closes the list; pieces of zero length get none.

        Parameters
        ----------
        joint_angles : array, shape (..., n_joints)
            Joint angles in radians.
        samples_per_metre : float
            Sampling density; the number of points depends only on the DH table, not on the
            joint angles.

        Returns
        -------
        array, shape (..., n_points, 3)
            World coordinates, in metres, from the base to the end effector.
        """
        if not samples_per_metre > 0:
            raise hd.InvalidArgumentError(
                f"samples_per_metre: expected a positive number, got {samples_per_metre!r}"
            )
        frames = self._frames(joint_angles)
        theta = self.dh_angles(joint_angles)
        points = []
        for i, kind, length in self._segments():
            count = math.ceil(length * samples_per_metre - 1e-9)
            if count == 0:
                continue
            start, end = self._piece(frames, theta, i, kind)
            steps = constant_like([k / count for k in range(count)], joint_angles)  # (count,)
            points.append(start[..., None, :] + steps[:, None] * (end - start)[..., None, :])
        ee = self.end_effector_pose(joint_angles)[..., :, 3]
        tool_length = 0.0 if self.tool_pose is None else math.sqrt(sum(v[3] ** 2 for v in self.tool_pose))
        count = math.ceil(tool_length * samples_per_metre - 1e-9)
        if count > 0:
            start = frames[-1][..., :3, 3]
            steps = constant_like([k / count for k in range(count)], joint_angles)
            points.append(start[..., None, :] + steps[:, None] * (ee - start)[..., None, :])
        points.append(ee[..., None, :])
        return hd.concat(points, axis=-2)

    def _piece(self, frames: list[Array], theta: Array, i: int, kind: str) -> tuple[Array, Array]:
        """Start and end (world, ``(..., 3)``) of one straight piece of link ``i``."""
        prev, cur = frames[i - 1], frames[i]
        o_prev, o_cur = prev[..., :3, 3], cur[..., :3, 3]
        if self.convention == "classic":
            corner = o_prev + self.d[i - 1] * prev[..., :3, 2]  # o_{i-1} + d_i z_{i-1}
            return (o_prev, corner) if kind == "d" else (corner, o_cur)
        corner = o_prev + self.a[i - 1] * prev[..., :3, 0]  # o_{i-1} + a_{i-1} x_{i-1}
        return (o_prev, corner) if kind == "a" else (corner, o_cur)


#: Franka Emika Panda, modified (Craig) DH: Franka's "Robot and interface specifications"
#: (frankaemika.github.io/docs/control_parameters.html), rows a_{i-1}, d_i, alpha_{i-1}.
PANDA_DH = {
    "a": (0.0, 0.0, 0.0, 0.0825, -0.0825, 0.0, 0.088),
    "d": (0.333, 0.0, 0.316, 0.0, 0.384, 0.0, 0.0),
    "alpha": (0.0, -math.pi / 2, math.pi / 2, math.pi / 2, -math.pi / 2, math.pi / 2, math.pi / 2),
}
#: the flange in frame 7 (Franka: d = 0.107 m along z_7)
PANDA_FLANGE = ((1.0, 0.0, 0.0, 0.0), (0.0, 1.0, 0.0, 0.0), (0.0, 0.0, 1.0, 0.107))
#: the Franka Hand's tool centre point in frame 7: flange, then 0.1034 m along z and -pi/4 about z
_c, _s = math.cos(-math.pi / 4), math.sin(-math.pi / 4)
PANDA_HAND = ((_c, -_s, 0.0, 0.0), (_s, _c, 0.0, 0.0), (0.0, 0.0, 1.0, 0.107 + 0.1034))


class PandaManipulator(Manipulator):
    """The Franka Emika Panda (7 joints), with Franka's published modified-DH parameters.

    ============  ============  ==========  ============
    joint         a_{i-1} (m)   d_i (m)     alpha_{i-1}
    ============  ============  ==========  ============
    1             0             0.333       0
    2             0             0           -pi/2
    3             0             0.316       pi/2
    4             0.0825        0           pi/2
    5             -0.0825       0.384       -pi/2
    6             0             0           pi/2
    7             0.088         0           pi/2
    flange        0             0.107       0
    ============  ============  ==========  ============

    Joint angles are Franka's (no offsets). Source: Franka Emika, "Robot and interface
    specifications", Denavit-Hartenberg parameters (Craig's convention).

    Parameters
    ----------
    hand : bool
        End effector at the Franka Hand's tool centre point (0.1034 m beyond the flange,
        rotated by -pi/4 about ``z``) instead of at the flange.
    base_pose : (3, 4) or (4, 4), optional
        The robot's base in the world.

    Examples
    --------
    >>> import numpy as np
    >>> from hedera.robot import PandaManipulator
    >>> panda = PandaManipulator()
    >>> q = np.zeros((2, 7))  # a batch of 2 configurations (radians)
    >>> panda.link_poses(q).shape, panda.end_effector_pose(q).shape  # frames 0..7, the flange
    ((2, 8, 3, 4), (2, 3, 4))
    >>> [round(float(v), 3) + 0.0 for v in panda.end_effector_pose(q[0])[:, 3]]  # flange position (m)
    [0.088, 0.0, 0.926]
    >>> panda.sample_links(q, samples_per_metre=25.0).shape  # points along the DH skeleton
    (2, 40, 3)
    """

    def __init__(self, *, hand: bool = False, base_pose: Sequence[Sequence[float]] | None = None) -> None:
        super().__init__(
            **PANDA_DH,
            convention="modified",
            base_pose=base_pose,
            tool_pose=PANDA_HAND if hand else PANDA_FLANGE,
            name="PandaManipulator",
        )


def _mico_dh() -> dict[str, tuple[float, ...]]:
    """Kinova's classic DH table of the Mico (6 DOF, 60-degree wrist), from its lengths."""
    d1, d2, d3, d4, d5, d6, e2 = 0.2755, 0.2900, 0.1233, 0.0741, 0.0741, 0.1600, 0.0070
    aa = math.pi / 6  # half the wrist angle (30 degrees)
    ratio = math.sin(aa) / math.sin(2 * aa)
    d4b = d3 + ratio * d4
    d5b = ratio * d4 + ratio * d5
    d6b = ratio * d5 + d6
    return {
        "a": (0.0, d2, 0.0, 0.0, 0.0, 0.0),
        "d": (d1, 0.0, -e2, -d4b, -d5b, -d6b),
        "alpha": (math.pi / 2, math.pi, math.pi / 2, 2 * aa, 2 * aa, math.pi),
    }


MICO_DH = _mico_dh()
#: Kinova's table maps the robot's joint angles q to DH angles: theta = (-q1, q2 - 90 deg,
#: q3 + 90 deg, q4, q5 - 180 deg, q6 + 100 deg)
MICO_JOINT_SIGNS = (-1.0, 1.0, 1.0, 1.0, 1.0, 1.0)
MICO_JOINT_OFFSETS = tuple(math.radians(v) for v in (0.0, -90.0, 90.0, 0.0, -180.0, 100.0))


class MicoManipulator(Manipulator):
    """The Kinova Mico (6 joints, 60-degree wrist), with Kinova's published classic DH parameters.

    Lengths ``D1..D6 = 0.2755, 0.2900, 0.1233, 0.0741, 0.0741, 0.1600`` m, ``e2 = 0.0070`` m,
    wrist half-angle ``aa = 30`` degrees, ``d4b = D3 + sin(aa)/sin(2aa) D4``,
    ``d5b = sin(aa)/sin(2aa) (D4 + D5)``, ``d6b = sin(aa)/sin(2aa) D5 + D6``:

    =====  =======  ======  ======  =================
    joint  alpha_i  a_i     d_i     theta_i
    =====  =======  ======  ======  =================
    1      pi/2     0       D1      -q1
    2      pi       D2      0       q2 - pi/2
    3      pi/2     0       -e2     q3 + pi/2
    4      2 aa     0       -d4b    q4
    5      2 aa     0       -d5b    q5 - pi
    6      pi       0       -d6b    q6 + 100 deg
    =====  =======  ======  ======  =================

    Source: Kinova, "DH Parameters of Mico", version 1.0.8 (July 2013). Joint angles ``q``
    are Kinova's physical ones; ``kinova_angles=False`` takes the DH angles ``theta`` directly.

    Parameters
    ----------
    kinova_angles : bool
        Apply Kinova's joint signs and offsets (default) or take DH angles.
    base_pose : (3, 4) or (4, 4), optional
        The robot's base in the world.
    """

    def __init__(
        self, *, kinova_angles: bool = True, base_pose: Sequence[Sequence[float]] | None = None
    ) -> None:
        super().__init__(
            **MICO_DH,
            convention="classic",
            joint_signs=MICO_JOINT_SIGNS if kinova_angles else None,
            joint_offsets=MICO_JOINT_OFFSETS if kinova_angles else None,
            base_pose=base_pose,
            name="MicoManipulator",
        )
