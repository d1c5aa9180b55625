"""Rigid poses: a rotation plus a translation, in five representations.

A pose maps a point ``p`` (in the pose's own frame) to ``R @ p + t`` (in the
reference frame). All functions are batched over leading dimensions ``...`` and
take float32 or float64; angles in radians, translations in any length unit.

=====================  ===============  ==================================================
name                   shape            layout
=====================  ===============  ==================================================
``mat_pose``           ``(..., 3, 4)``  ``[R | t]``; functions taking a matrix pose also
                                        accept its homogeneous ``(..., 4, 4)`` form
``quaternion_pose``    ``(..., 7)``     ``(tx, ty, tz, qx, qy, qz, qw)``, quaternion scalar-last
``euler_pose``         ``(..., 6)``     ``(tx, ty, tz, e0, e1, e2)``, with a ``convention``
                                        (see :func:`hedera.mech.euler_to_quaternion`)
``axis_angle_pose``    ``(..., 7)``     ``(tx, ty, tz, ax, ay, az, angle)``, unit axis
``rot_vec_pose``       ``(..., 6)``     ``(tx, ty, tz, rx, ry, rz)``, rotation vector
=====================  ===============  ==================================================

Conversions are named ``<from>_pose_to_<to>_pose``; the rotation part follows
:mod:`hedera.mech.rotations` (same ranges and conventions), the translation is
copied.
"""

from __future__ import annotations

from collections.abc import Callable

import hedera as hd
from hedera.typing import Array

from . import rotations as rot
from ._helpers import check_last_dim, check_matrix

__all__ = [
    "quaternion_pose_to_mat_pose",
    "euler_pose_to_mat_pose",
    "axis_angle_pose_to_mat_pose",
    "rot_vec_pose_to_mat_pose",
    "mat_pose_to_quaternion_pose",
    "mat_pose_to_euler_pose",
    "mat_pose_to_axis_angle_pose",
    "mat_pose_to_rot_vec_pose",
    "quaternion_pose_to_euler_pose",
    "quaternion_pose_to_axis_angle_pose",
    "quaternion_pose_to_rot_vec_pose",
    "euler_pose_to_quaternion_pose",
    "euler_pose_to_axis_angle_pose",
    "euler_pose_to_rot_vec_pose",
    "axis_angle_pose_to_quaternion_pose",
    "axis_angle_pose_to_euler_pose",
    "axis_angle_pose_to_rot_vec_pose",
    "rot_vec_pose_to_quaternion_pose",
    "rot_vec_pose_to_euler_pose",
    "rot_vec_pose_to_axis_angle_pose",
    "compose_mat_poses",
    "invert_mat_pose",
    "compose_quaternion_poses",
    "invert_quaternion_pose",
    "increment_quaternion_pose_with_velocity",
]

_SIZES = {"quaternion_pose": 7, "euler_pose": 6, "axis_angle_pose": 7, "rot_vec_pose": 6}


def _check_mat_pose(mat_pose: Array, name: str = "mat_pose") -> None:
    check_matrix(mat_pose, ((3, 4), (4, 4)), name, "a matrix pose")


def _vector_pose_to_mat_pose(pose: Array, kind: str, to_rot_mat: Callable[[Array], Array]) -> Array:
    check_last_dim(pose, _SIZES[kind], kind, f"a {kind.replace('_', ' ')}")
    return hd.concat([to_rot_mat(pose[..., 3:]), pose[..., :3, None]], axis=-1)


def _mat_pose_to_vector_pose(mat_pose: Array, from_rot_mat: Callable[[Array], Array]) -> Array:
    _check_mat_pose(mat_pose)
    return hd.concat([mat_pose[..., :3, 3], from_rot_mat(mat_pose[..., :3, :3])], axis=-1)


def _vector_pose_to_vector_pose(pose: Array, kind: str, convert: Callable[[Array], Array]) -> Array:
    check_last_dim(pose, _SIZES[kind], kind, f"a {kind.replace('_', ' ')}")
    return hd.concat([pose[..., :3], convert(pose[..., 3:])], axis=-1)


# ---- to and from matrix poses --------------------------------------------------------------


def quaternion_pose_to_mat_pose(quaternion_pose: Array) -> Array:
    """Matrix pose ``[R | t]`` ``(..., 3, 4)`` of a quaternion pose ``(t, q)`` ``(..., 7)``.

    ``q`` need not be unit length.
    """
    return _vector_pose_to_mat_pose(quaternion_pose, "quaternion_pose", rot.quaternion_to_rot_mat)


def euler_pose_to_mat_pose(euler_pose: Array, convention: str) -> Array:
    """Matrix pose ``(..., 3, 4)`` of an Euler pose ``(t, euler)`` ``(..., 6)``.

    ``convention`` as :func:`~hedera.mech.euler_to_quaternion`.
    """
    return _vector_pose_to_mat_pose(euler_pose, "euler_pose", lambda e: rot.euler_to_rot_mat(e, convention))


def axis_angle_pose_to_mat_pose(axis_angle_pose: Array) -> Array:
    """Matrix pose ``(..., 3, 4)`` of an axis-angle pose ``(t, axis, angle)`` ``(..., 7)``."""
    return _vector_pose_to_mat_pose(axis_angle_pose, "axis_angle_pose", rot.axis_angle_to_rot_mat)


def rot_vec_pose_to_mat_pose(rot_vec_pose: Array) -> Array:
    """Matrix pose ``(..., 3, 4)`` of a rotation-vector pose ``(t, rot_vec)`` ``(..., 6)``."""
    return _vector_pose_to_mat_pose(rot_vec_pose, "rot_vec_pose", rot.rot_vec_to_rot_mat)


def mat_pose_to_quaternion_pose(mat_pose: Array) -> Array:
    """Quaternion pose ``(t, q)`` ``(..., 7)`` of a matrix pose ``(..., 3, 4)`` or ``(..., 4, 4)``.

    ``q`` unit, as :func:`~hedera.mech.rot_mat_to_quaternion`.
    """
    return _mat_pose_to_vector_pose(mat_pose, rot.rot_mat_to_quaternion)


def mat_pose_to_euler_pose(mat_pose: Array, convention: str) -> Array:
    """Euler pose ``(t, euler)`` ``(..., 6)`` of a matrix pose.

    Angles as :func:`~hedera.mech.rot_mat_to_euler`.
    """
    return _mat_pose_to_vector_pose(mat_pose, lambda r: rot.rot_mat_to_euler(r, convention))


def mat_pose_to_axis_angle_pose(mat_pose: Array) -> Array:
    """Axis-angle pose ``(t, axis, angle)`` ``(..., 7)`` of a matrix pose; angle in ``[0, pi]``."""
    return _mat_pose_to_vector_pose(mat_pose, rot.rot_mat_to_axis_angle)


def mat_pose_to_rot_vec_pose(mat_pose: Array) -> Array:
    """Rotation-vector pose ``(t, rot_vec)`` ``(..., 6)`` of a matrix pose; angle in ``[0, pi]``."""
    return _mat_pose_to_vector_pose(mat_pose, rot.rot_mat_to_rot_vec)


# ---- between vector poses ------------------------------------------------------------------


def quaternion_pose_to_euler_pose(quaternion_pose: Array, convention: str) -> Array:
    """Euler pose ``(..., 6)`` of a quaternion pose ``(..., 7)``.

    Angles as :func:`~hedera.mech.quaternion_to_euler`.
    """
    return _vector_pose_to_vector_pose(
        quaternion_pose, "quaternion_pose", lambda q: rot.quaternion_to_euler(q, convention)
    )


def quaternion_pose_to_axis_angle_pose(quaternion_pose: Array) -> Array:
    """Axis-angle pose ``(..., 7)`` of a quaternion pose ``(..., 7)``; angle in ``[0, pi]``."""
    return _vector_pose_to_vector_pose(quaternion_pose, "quaternion_pose", rot.quaternion_to_axis_angle)


def quaternion_pose_to_rot_vec_pose(quaternion_pose: Array) -> Array:
    """Rotation-vector pose ``(..., 6)`` of a quaternion pose ``(..., 7)``; angle in ``[0, pi]``."""
    return _vector_pose_to_vector_pose(quaternion_pose, "quaternion_pose", rot.quaternion_to_rot_vec)


def euler_pose_to_quaternion_pose(euler_pose: Array, convention: str) -> Array:
    """Quaternion pose ``(..., 7)`` of an Euler pose ``(..., 6)``.

    ``convention`` as :func:`~hedera.mech.euler_to_quaternion`.
    """
    return _vector_pose_to_vector_pose(
        euler_pose, "euler_pose", lambda e: rot.euler_to_quaternion(e, convention)
    )


def euler_pose_to_axis_angle_pose(euler_pose: Array, convention: str) -> Array:
    """Axis-angle pose ``(..., 7)`` of an Euler pose ``(..., 6)``."""
    return _vector_pose_to_vector_pose(
        euler_pose, "euler_pose", lambda e: rot.euler_to_axis_angle(e, convention)
    )


def euler_pose_to_rot_vec_pose(euler_pose: Array, convention: str) -> Array:
    """Rotation-vector pose ``(..., 6)`` of an Euler pose ``(..., 6)``."""
    return _vector_pose_to_vector_pose(
        euler_pose, "euler_pose", lambda e: rot.euler_to_rot_vec(e, convention)
    )


def axis_angle_pose_to_quaternion_pose(axis_angle_pose: Array) -> Array:
    """Quaternion pose ``(..., 7)`` of an axis-angle pose ``(..., 7)``."""
    return _vector_pose_to_vector_pose(axis_angle_pose, "axis_angle_pose", rot.axis_angle_to_quaternion)


def axis_angle_pose_to_euler_pose(axis_angle_pose: Array, convention: str) -> Array:
    """Euler pose ``(..., 6)`` of an axis-angle pose ``(..., 7)``.

    Angles as :func:`~hedera.mech.quaternion_to_euler`.
    """
    return _vector_pose_to_vector_pose(
        axis_angle_pose, "axis_angle_pose", lambda a: rot.axis_angle_to_euler(a, convention)
    )


def axis_angle_pose_to_rot_vec_pose(axis_angle_pose: Array) -> Array:
    """Rotation-vector pose ``(..., 6)`` of an axis-angle pose ``(..., 7)``."""
    return _vector_pose_to_vector_pose(axis_angle_pose, "axis_angle_pose", rot.axis_angle_to_rot_vec)


def rot_vec_pose_to_quaternion_pose(rot_vec_pose: Array) -> Array:
    """Quaternion pose ``(..., 7)`` of a rotation-vector pose ``(..., 6)``."""
    return _vector_pose_to_vector_pose(rot_vec_pose, "rot_vec_pose", rot.rot_vec_to_quaternion)


def rot_vec_pose_to_euler_pose(rot_vec_pose: Array, convention: str) -> Array:
    """Euler pose ``(..., 6)`` of a rotation-vector pose ``(..., 6)``.

    Angles as :func:`~hedera.mech.quaternion_to_euler`.
    """
    return _vector_pose_to_vector_pose(
        rot_vec_pose, "rot_vec_pose", lambda r: rot.rot_vec_to_euler(r, convention)
    )


def rot_vec_pose_to_axis_angle_pose(rot_vec_pose: Array) -> Array:
    """Axis-angle pose ``(..., 7)`` of a rotation-vector pose ``(..., 6)``; ``angle = |rot_vec|``."""
    return _vector_pose_to_vector_pose(rot_vec_pose, "rot_vec_pose", rot.rot_vec_to_axis_angle)


# ---- composition, inversion, integration ----------------------------------------------------


def compose_mat_poses(mat_pose1: Array, mat_pose2: Array) -> Array:
    """The pose ``mat_pose2`` followed by ``mat_pose1``: ``p -> R1 (R2 p + t2) + t1``.

    Parameters
    ----------
    mat_pose1, mat_pose2 : array, shape (..., 3, 4) or (..., 4, 4)
        Batch dimensions broadcast.

    Returns
    -------
    array, shape (..., 3, 4)
        ``[R1 R2 | R1 t2 + t1]`` (the product of the homogeneous matrices).
    """
    _check_mat_pose(mat_pose1, "mat_pose1")
    _check_mat_pose(mat_pose2, "mat_pose2")
    r1, t1 = mat_pose1[..., :3, :3], mat_pose1[..., :3, 3:]
    r2, t2 = mat_pose2[..., :3, :3], mat_pose2[..., :3, 3:]
    return hd.concat([hd.matmul(r1, r2), hd.matmul(r1, t2) + t1], axis=-1)


def invert_mat_pose(mat_pose: Array) -> Array:
    """The inverse pose ``[R^T | -R^T t]``.

    Parameters
    ----------
    mat_pose : array, shape (..., 3, 4) or (..., 4, 4)
        ``R`` must be a rotation (the transpose is its inverse).

    Returns
    -------
    array, shape (..., 3, 4)
    """
    _check_mat_pose(mat_pose)
    r_t = hd.matrix_transpose(mat_pose[..., :3, :3])
    return hd.concat([r_t, -hd.matmul(r_t, mat_pose[..., :3, 3:])], axis=-1)


def compose_quaternion_poses(quaternion_pose1: Array, quaternion_pose2: Array) -> Array:
    """The pose ``quaternion_pose2`` followed by ``quaternion_pose1`` (as :func:`compose_mat_poses`).

    Parameters
    ----------
    quaternion_pose1, quaternion_pose2 : array, shape (..., 7)
        ``(t, q)`` with unit quaternions; batch dimensions broadcast.

    Returns
    -------
    array, shape (..., 7)
        ``(R1 t2 + t1, q1 * q2)``.
    """
    check_last_dim(quaternion_pose1, 7, "quaternion_pose1", "a quaternion pose")
    check_last_dim(quaternion_pose2, 7, "quaternion_pose2", "a quaternion pose")
    q1, q2 = quaternion_pose1[..., 3:], quaternion_pose2[..., 3:]
    r1 = rot.quaternion_to_rot_mat(q1)
    t = hd.sum(r1 * quaternion_pose2[..., None, :3], axis=-1) + quaternion_pose1[..., :3]
    return hd.concat([t, rot.hamilton_product(q1, q2)], axis=-1)


def invert_quaternion_pose(quaternion_pose: Array) -> Array:
    """The inverse pose ``(-R^T t, q^-1)`` of a quaternion pose ``(..., 7)``."""
    check_last_dim(quaternion_pose, 7, "quaternion_pose", "a quaternion pose")
    q_inv = rot.inverse_quaternion(quaternion_pose[..., 3:])
    r_inv = rot.quaternion_to_rot_mat(q_inv)
    t = -hd.sum(r_inv * quaternion_pose[..., None, :3], axis=-1)
    return hd.concat([t, q_inv], axis=-1)


def increment_quaternion_pose_with_velocity(
    quaternion_pose: Array, quaternion_velocity: Array, delta_t: float | Array
) -> Array:
    """Integrate a quaternion pose over one time step at constant velocity.

    ``t' = t + v dt`` and ``q' = q * w**dt``: the rotation rate ``w`` (the
    rotation made in one second, about axes of the body frame) scaled to the
    step by :func:`~hedera.mech.scale_quaternion_rotation_angle` and applied on
    the right, as the 2021 library does.

    Parameters
    ----------
    quaternion_pose : array, shape (..., 7)
        ``(t, q)``.
    quaternion_velocity : array, shape (..., 7)
        ``(v, w)``: linear velocity (length units per second) and angular
        velocity as a quaternion (the rotation per second).
    delta_t : float or array of shape (...)
        Time step in seconds.

    Returns
    -------
    array, shape (..., 7)
        The pose after ``delta_t``.
    """
    check_last_dim(quaternion_pose, 7, "quaternion_pose", "a quaternion pose")
    check_last_dim(quaternion_velocity, 7, "quaternion_velocity", "a quaternion velocity")
    dt = delta_t if isinstance(delta_t, (int, float)) else delta_t[..., None]
    t = quaternion_pose[..., :3] + quaternion_velocity[..., :3] * dt
    step = rot.scale_quaternion_rotation_angle(quaternion_velocity[..., 3:], delta_t)
    return hd.concat([t, rot.hamilton_product(quaternion_pose[..., 3:], step)], axis=-1)
