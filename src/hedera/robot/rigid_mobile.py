"""Rigid mobile robots (a drone, a mobile base): body points at given poses."""

from __future__ import annotations

from typing import Any

import hedera as hd
import hedera.mech as mech

from ._helpers import Array, check_last_dim, constant_like

__all__ = ["RigidMobile"]


class RigidMobile:
    """A rigid body represented by points fixed in its own frame.

    Parameters
    ----------
    rel_body_points : array-like, shape (n_points, 3)
        The points in the body frame, in metres (a NumPy array, nested lists, or an array of
        any backend). They are converted to each call's backend, dtype and device.

    Notes
    -----
    Poses follow :mod:`hedera.mech`: a matrix pose ``[R | t]`` maps body coordinates to world
    coordinates, ``p_world = R p_body + t``; a rotation-vector pose is
    ``(tx, ty, tz, rx, ry, rz)`` with the rotation ``angle * axis`` in radians.

    Examples
    --------
    >>> import numpy as np, hedera as hd
    >>> from hedera.robot import RigidMobile
    >>> drone = RigidMobile([[0.0, 0, 0], [0.15, 0, 0], [-0.15, 0, 0], [0, 0.15, 0], [0, -0.15, 0]])
    >>> poses = np.zeros((10, 6))  # 10 poses: (translation, rotation vector)
    >>> drone.sample_body_at_rot_vec_poses(poses).shape
    (10, 5, 3)
    """

    def __init__(self, rel_body_points: Any) -> None:
        self.rel_body_points = rel_body_points
        shape = tuple(getattr(rel_body_points, "shape", ()))
        if not shape:
            shape = (len(rel_body_points), len(rel_body_points[0])) if len(rel_body_points) else (0,)
        if len(shape) != 2 or shape[1] != 3 or shape[0] < 1:
            raise hd.ShapeError(f"rel_body_points: expected shape (n_points, 3), got {shape}")
        self.num_points = shape[0]

    def __repr__(self) -> str:
        return f"RigidMobile({self.num_points} body points)"

    def sample_body(self, mat_poses: Array) -> Array:
        """The body points in the world at the given matrix poses.

        Parameters
        ----------
        mat_poses : array, shape (..., 3, 4) or (..., 4, 4)
            Body-to-world matrix poses ``[R | t]``.

        Returns
        -------
        array, shape (..., n_points, 3)
            ``R p + t`` for every body point ``p``.
        """
        shape = tuple(mat_poses.shape)
        if len(shape) < 2 or shape[-2:] not in ((3, 4), (4, 4)):
            raise hd.ShapeError(
                f"mat_poses: expected matrix poses of shape (..., 3, 4) or (..., 4, 4), got {shape}"
            )
        points = constant_like(self.rel_body_points, mat_poses)  # (n_points, 3)
        return mech.transform_coords(mat_poses[..., None, :, :], points)

    def sample_body_at_rot_vec_poses(self, rot_vec_poses: Array) -> Array:
        """The body points at rotation-vector poses ``(..., 6)`` = ``(t, angle * axis)``.

        Returns
        -------
        array, shape (..., n_points, 3)
        """
        check_last_dim(rot_vec_poses, 6, "rot_vec_poses", "rotation-vector poses (tx, ty, tz, rx, ry, rz)")
        return self.sample_body(mech.rot_vec_pose_to_mat_pose(rot_vec_poses))

    def sample_body_at_quaternion_poses(self, quaternion_poses: Array) -> Array:
        """The body points at quaternion poses ``(..., 7)`` = ``(t, qx, qy, qz, qw)``.

        Returns
        -------
        array, shape (..., n_points, 3)
        """
        check_last_dim(
            quaternion_poses, 7, "quaternion_poses", "quaternion poses (tx, ty, tz, qx, qy, qz, qw)"
        )
        return self.sample_body(mech.quaternion_pose_to_mat_pose(quaternion_poses))
