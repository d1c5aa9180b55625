"""Rotations in 3D: six representations, conversions between every pair, quaternion operations.

Representations (all batched over arbitrary leading dimensions ``...``, float32 or
float64, angles in radians):

==================  ==============  ======================================================
name                shape           convention
==================  ==============  ======================================================
``rot_mat``         ``(..., 3, 3)`` proper orthogonal matrix acting on column vectors:
                                    ``p' = R @ p``
``quaternion``      ``(..., 4)``    scalar-last ``(x, y, z, w)`` as in scipy; Hamilton
                                    convention; ``q`` and ``-q`` are the same rotation
``euler``           ``(..., 3)``    three angles for a ``convention`` of three axis letters:
                                    lower case ``"xyz"`` extrinsic (fixed axes), upper case
                                    ``"XYZ"`` intrinsic (rotating axes), scipy's rule; the
                                    angles are in the order of the letters
``axis_angle``      ``(..., 4)``    ``(ax, ay, az, angle)``: unit axis, right-hand rotation
                                    by ``angle`` about it
``polar_axis_angle`` ``(..., 3)``   ``(theta, phi, angle)``: the axis in spherical angles,
                                    ``theta`` its inclination from ``+z`` (in ``[0, pi]``),
                                    ``phi`` its azimuth from ``+x`` towards ``+y``
``rot_vec``         ``(..., 3)``    rotation vector ``angle * axis``
==================  ==============  ======================================================

Functions are named ``<from>_to_<to>``. Every function is differentiable where the
maths is, and finite (value and gradient) at the identity: small angles use Taylor
branches and every square root, division and ``atan2`` is guarded (see
``hedera.mech._helpers``).

Quaternion inputs need not be unit length: every conversion *from* a quaternion
returns the rotation of ``q / |q|``. Outputs that are quaternions are unit length.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import hedera as hd
from hedera.typing import Array

from ._helpers import (
    check_last_dim,
    check_matrix,
    matrix_3x3,
    parse_convention,
    safe_atan2,
    safe_hypot,
    safe_norm,
    safe_normalize,
    unit_vector_like,
)

__all__ = [
    # rot_mat ->
    "rot_mat_to_quaternion",
    "rot_mat_to_euler",
    "rot_mat_to_axis_angle",
    "rot_mat_to_polar_axis_angle",
    "rot_mat_to_rot_vec",
    # quaternion ->
    "quaternion_to_rot_mat",
    "quaternion_to_euler",
    "quaternion_to_axis_angle",
    "quaternion_to_polar_axis_angle",
    "quaternion_to_rot_vec",
    # euler ->
    "euler_to_rot_mat",
    "euler_to_quaternion",
    "euler_to_axis_angle",
    "euler_to_polar_axis_angle",
    "euler_to_rot_vec",
    # axis_angle ->
    "axis_angle_to_rot_mat",
    "axis_angle_to_quaternion",
    "axis_angle_to_euler",
    "axis_angle_to_polar_axis_angle",
    "axis_angle_to_rot_vec",
    # polar_axis_angle ->
    "polar_axis_angle_to_rot_mat",
    "polar_axis_angle_to_quaternion",
    "polar_axis_angle_to_euler",
    "polar_axis_angle_to_axis_angle",
    "polar_axis_angle_to_rot_vec",
    # rot_vec ->
    "rot_vec_to_rot_mat",
    "rot_vec_to_quaternion",
    "rot_vec_to_euler",
    "rot_vec_to_axis_angle",
    "rot_vec_to_polar_axis_angle",
    # quaternion operations
    "hamilton_product",
    "inverse_quaternion",
    "normalize_quaternion",
    "canonicalize_quaternion",
    "scale_quaternion_rotation_angle",
    "slerp",
    # random rotations
    "random_quaternion",
    "random_rot_mat",
    # construction
    "target_facing_rotation_matrix",
]

# Taylor branches are used below this angle (radians); their truncation error is O(angle**6)
_SMALL_ANGLE = 1e-3
# Euler angles: the middle angle within this of 0 or pi is gimbal lock (scipy's threshold)
_GIMBAL_EPS = 1e-7


# ---- rotation matrices <-> quaternions ----------------------------------------------------


def quaternion_to_rot_mat(quaternion: Array) -> Array:
    """Rotation matrix of a quaternion.

    Parameters
    ----------
    quaternion : array, shape (..., 4)
        Scalar-last ``(x, y, z, w)``; need not be unit length (the rotation of
        ``q / |q|`` is returned), must not be zero.

    Returns
    -------
    array, shape (..., 3, 3)
        ``R`` with ``R @ p`` rotating column vector ``p``.

    Examples
    --------
    >>> import numpy as np, hedera.mech as mech
    >>> q = np.array([0.0, 0.0, np.sin(np.pi / 4), np.cos(np.pi / 4)])  # 90 degrees about z
    >>> np.round(mech.quaternion_to_rot_mat(q) @ np.array([1.0, 0.0, 0.0]), 6)
    array([0., 1., 0.])
    """
    check_last_dim(quaternion, 4, "quaternion", "a quaternion")
    x, y, z, w = quaternion[..., 0], quaternion[..., 1], quaternion[..., 2], quaternion[..., 3]
    s = 2.0 / (x * x + y * y + z * z + w * w)  # 2 / |q|^2: the rotation of q / |q|
    xx, yy, zz = s * x * x, s * y * y, s * z * z
    xy, xz, yz = s * x * y, s * x * z, s * y * z
    xw, yw, zw = s * x * w, s * y * w, s * z * w
    return matrix_3x3(
        [
            [1.0 - (yy + zz), xy - zw, xz + yw],
            [xy + zw, 1.0 - (xx + zz), yz - xw],
            [xz - yw, yz + xw, 1.0 - (xx + yy)],
        ]
    )


def rot_mat_to_quaternion(rot_mat: Array) -> Array:
    """Unit quaternion of a rotation matrix, by the largest-diagonal (Shepperd) method.

    Of the four candidate formulas the one for the largest of ``(R00, R11, R22,
    trace)`` is used, exactly as scipy's ``Rotation.from_matrix`` does for an
    orthogonal matrix (the same quaternion, sign included). Every candidate is a
    polynomial in ``R`` and the chosen one has norm at least 1 before
    normalisation, so values and gradients are finite everywhere (the gradient
    jumps only where the choice switches).

    Parameters
    ----------
    rot_mat : array, shape (..., 3, 3)
        A rotation matrix (orthogonality is assumed, not checked).

    Returns
    -------
    array, shape (..., 4)
        Unit quaternion ``(x, y, z, w)``.
    """
    check_matrix(rot_mat, ((3, 3),), "rot_mat", "a rotation matrix")
    m = rot_mat
    m00, m01, m02 = m[..., 0, 0], m[..., 0, 1], m[..., 0, 2]
    m10, m11, m12 = m[..., 1, 0], m[..., 1, 1], m[..., 1, 2]
    m20, m21, m22 = m[..., 2, 0], m[..., 2, 1], m[..., 2, 2]
    trace = m00 + m11 + m22
    # each candidate is 4 * q_max * q (q_max the largest component's magnitude)
    candidates = [
        hd.stack([1.0 - trace + 2.0 * m00, m10 + m01, m20 + m02, m21 - m12], axis=-1),
        hd.stack([m10 + m01, 1.0 - trace + 2.0 * m11, m21 + m12, m02 - m20], axis=-1),
        hd.stack([m20 + m02, m21 + m12, 1.0 - trace + 2.0 * m22, m10 - m01], axis=-1),
        hd.stack([m21 - m12, m02 - m20, m10 - m01, 1.0 + trace], axis=-1),
    ]
    choice = hd.argmax(hd.stack([m00, m11, m22, trace], axis=-1), axis=-1)[..., None]
    q = candidates[3]
    for k in (2, 1, 0):  # argmax takes the first maximum: the lowest index wins ties
        q = hd.where(choice == k, candidates[k], q)
    return q / hd.sqrt(hd.sum(q * q, axis=-1, keepdims=True))


# ---- quaternion operations ---------------------------------------------------------------


def hamilton_product(quaternion1: Array, quaternion2: Array) -> Array:
    """Hamilton product ``q1 * q2``: the rotation ``q2`` followed by ``q1``.

    ``quaternion_to_rot_mat(hamilton_product(q1, q2)) == R1 @ R2``; the same as
    scipy's ``Rotation(q1) * Rotation(q2)``.

    Parameters
    ----------
    quaternion1, quaternion2 : array, shape (..., 4)
        Scalar-last quaternions; batch dimensions broadcast.

    Returns
    -------
    array, shape (..., 4)
        Their product (unit if both are).
    """
    check_last_dim(quaternion1, 4, "quaternion1", "a quaternion")
    check_last_dim(quaternion2, 4, "quaternion2", "a quaternion")
    x1, y1, z1, w1 = (quaternion1[..., i] for i in range(4))
    x2, y2, z2, w2 = (quaternion2[..., i] for i in range(4))
    return hd.stack(
        [
            w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
            w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
            w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
            w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
        ],
        axis=-1,
    )


def inverse_quaternion(quaternion: Array) -> Array:
    """Multiplicative inverse ``conj(q) / |q|^2``; for a unit quaternion, the inverse rotation.

    Parameters
    ----------
    quaternion : array, shape (..., 4)
        Scalar-last, non-zero.

    Returns
    -------
    array, shape (..., 4)
    """
    check_last_dim(quaternion, 4, "quaternion", "a quaternion")
    conj = hd.concat([-quaternion[..., :3], quaternion[..., 3:]], axis=-1)
    return conj / hd.sum(quaternion * quaternion, axis=-1, keepdims=True)


def normalize_quaternion(quaternion: Array) -> Array:
    """``q / |q|``: the unit quaternion of the same rotation.

    Parameters
    ----------
    quaternion : array, shape (..., 4)
        Non-zero.

    Returns
    -------
    array, shape (..., 4)
    """
    check_last_dim(quaternion, 4, "quaternion", "a quaternion")
    return quaternion / hd.sqrt(hd.sum(quaternion * quaternion, axis=-1, keepdims=True))


def canonicalize_quaternion(quaternion: Array) -> Array:
    """The one of ``q`` and ``-q`` with ``w > 0`` (scipy's ``as_quat(canonical=True)`` rule).

    Where ``w == 0`` the first non-zero of ``x, y, z`` is made positive.

    Parameters
    ----------
    quaternion : array, shape (..., 4)

    Returns
    -------
    array, shape (..., 4)
        The same rotation; ``w >= 0``.
    """
    check_last_dim(quaternion, 4, "quaternion", "a quaternion")
    x, y, z, w = (quaternion[..., i] for i in range(4))
    zero_w = w == 0.0
    zero_wx = hd.logical_and(zero_w, x == 0.0)
    zero_wxy = hd.logical_and(zero_wx, y == 0.0)
    flip = hd.logical_or(
        hd.logical_or(w < 0.0, hd.logical_and(zero_w, x < 0.0)),
        hd.logical_or(hd.logical_and(zero_wx, y < 0.0), hd.logical_and(zero_wxy, z < 0.0)),
    )
    return hd.where(flip[..., None], -quaternion, quaternion)


# ---- quaternions <-> rotation vectors and axis-angle --------------------------------------


def rot_vec_to_quaternion(rot_vec: Array) -> Array:
    """Unit quaternion of a rotation vector.

    Parameters
    ----------
    rot_vec : array, shape (..., 3)
        ``angle * axis`` in radians (any length; angles above pi wrap).

    Returns
    -------
    array, shape (..., 4)
        ``(sin(angle/2) * axis, cos(angle/2))``. Taylor series below 1e-3 rad:
        finite, exact gradient at zero.
    """
    check_last_dim(rot_vec, 3, "rot_vec", "a rotation vector")
    angle2 = hd.sum(rot_vec * rot_vec, axis=-1, keepdims=True)
    small = angle2 < _SMALL_ANGLE**2
    angle = hd.sqrt(hd.where(small, hd.ones_like(angle2), angle2))
    # sin(a/2)/a and cos(a/2): Taylor series in a^2 near zero, closed form elsewhere
    scale = hd.where(small, 0.5 - angle2 / 48.0 + angle2 * angle2 / 3840.0, hd.sin(angle / 2.0) / angle)
    w = hd.where(small, 1.0 - angle2 / 8.0 + angle2 * angle2 / 384.0, hd.cos(angle / 2.0))
    return hd.concat([rot_vec * scale, w], axis=-1)


def quaternion_to_rot_vec(quaternion: Array) -> Array:
    """Rotation vector of a quaternion, with the angle in ``[0, pi]`` (as scipy's ``as_rotvec``).

    Parameters
    ----------
    quaternion : array, shape (..., 4)
        Scalar-last, non-zero (not necessarily unit).

    Returns
    -------
    array, shape (..., 3)
        ``angle * axis`` in radians, ``0 <= angle <= pi``. Taylor series near
        the identity: finite, exact gradient there.
    """
    check_last_dim(quaternion, 4, "quaternion", "a quaternion")
    q = canonicalize_quaternion(quaternion)
    v, w = q[..., :3], q[..., 3:]
    n2 = hd.sum(v * v, axis=-1, keepdims=True)
    # angle/|v| = 2 atan(|v|/w)/|v|; for u = |v|/w < 1e-3, (2/w)(1 - u^2/3 + u^4/5)
    small = n2 < (_SMALL_ANGLE**2) * (w * w)
    w_safe = hd.where(small, w, hd.ones_like(w))
    u2 = n2 / (w_safe * w_safe)
    n = hd.sqrt(hd.where(small, hd.ones_like(n2), n2))
    scale = hd.where(
        small,
        (2.0 / w_safe) * (1.0 - u2 / 3.0 + u2 * u2 / 5.0),
        2.0 * hd.atan2(n, w) / n,
    )
    return v * scale


def quaternion_to_axis_angle(quaternion: Array) -> Array:
    """Axis-angle of a quaternion, with the angle in ``[0, pi]``.

    Parameters
    ----------
    quaternion : array, shape (..., 4)
        Scalar-last, non-zero.

    Returns
    -------
    array, shape (..., 4)
        ``(ax, ay, az, angle)``: unit axis and angle in radians. At the identity
        the axis is arbitrary and returned as ``(0, 0, 1)``.
    """
    check_last_dim(quaternion, 4, "quaternion", "a quaternion")
    q = canonicalize_quaternion(quaternion)
    v, w = q[..., :3], q[..., 3:]
    angle = 2.0 * hd.atan2(safe_norm(v, keepdims=True), w)
    axis = safe_normalize(v, unit_vector_like(v, 2))
    return hd.concat([axis, angle], axis=-1)


def axis_angle_to_quaternion(axis_angle: Array) -> Array:
    """Unit quaternion of an axis-angle.

    Parameters
    ----------
    axis_angle : array, shape (..., 4)
        ``(ax, ay, az, angle)``: unit axis, angle in radians.

    Returns
    -------
    array, shape (..., 4)
        ``(sin(angle/2) * axis, cos(angle/2))``.
    """
    check_last_dim(axis_angle, 4, "axis_angle", "an axis-angle")
    half = axis_angle[..., 3:] / 2.0
    return hd.concat([axis_angle[..., :3] * hd.sin(half), hd.cos(half)], axis=-1)


def axis_angle_to_rot_vec(axis_angle: Array) -> Array:
    """Rotation vector ``angle * axis`` of an axis-angle ``(..., 4) -> (..., 3)`` (unit axis, radians)."""
    check_last_dim(axis_angle, 4, "axis_angle", "an axis-angle")
    return axis_angle[..., :3] * axis_angle[..., 3:]


def rot_vec_to_axis_angle(rot_vec: Array) -> Array:
    """Axis-angle of a rotation vector ``(..., 3) -> (..., 4)``.

    The angle is ``|rot_vec|`` (not wrapped to ``[0, pi]``); the axis is
    ``rot_vec / |rot_vec|``, or ``(0, 0, 1)`` for the zero vector.
    """
    check_last_dim(rot_vec, 3, "rot_vec", "a rotation vector")
    angle = safe_norm(rot_vec, keepdims=True)
    axis = safe_normalize(rot_vec, unit_vector_like(rot_vec, 2))
    return hd.concat([axis, angle], axis=-1)


# ---- axis-angle <-> polar axis-angle ------------------------------------------------------


def axis_angle_to_polar_axis_angle(axis_angle: Array) -> Array:
    """Polar axis-angle of an axis-angle.

    Parameters
    ----------
    axis_angle : array, shape (..., 4)
        ``(ax, ay, az, angle)``, unit axis.

    Returns
    -------
    array, shape (..., 3)
        ``(theta, phi, angle)``: ``theta = atan2(hypot(ax, ay), az)`` in ``[0, pi]``
        (inclination from ``+z``), ``phi = atan2(ay, ax)`` in ``(-pi, pi]``
        (azimuth; 0 for an axis along ``z``), ``angle`` unchanged. Radians.
    """
    check_last_dim(axis_angle, 4, "axis_angle", "an axis-angle")
    x, y, z = axis_angle[..., 0], axis_angle[..., 1], axis_angle[..., 2]
    theta = safe_atan2(safe_hypot(x, y), z)
    phi = safe_atan2(y, x)
    return hd.stack([theta, phi, axis_angle[..., 3]], axis=-1)


def polar_axis_angle_to_axis_angle(polar_axis_angle: Array) -> Array:
    """Axis-angle of a polar axis-angle.

    Parameters
    ----------
    polar_axis_angle : array, shape (..., 3)
        ``(theta, phi, angle)``: axis inclination from ``+z``, axis azimuth from
        ``+x``, rotation angle; radians.

    Returns
    -------
    array, shape (..., 4)
        ``(sin(theta) cos(phi), sin(theta) sin(phi), cos(theta), angle)``.
    """
    check_last_dim(polar_axis_angle, 3, "polar_axis_angle", "a polar axis-angle")
    theta, phi = polar_axis_angle[..., 0], polar_axis_angle[..., 1]
    sin_theta = hd.sin(theta)
    axis = hd.stack([sin_theta * hd.cos(phi), sin_theta * hd.sin(phi), hd.cos(theta)], axis=-1)
    return hd.concat([axis, polar_axis_angle[..., 2:]], axis=-1)


# ---- rotation matrices from axis-angle and rotation vectors --------------------------------


def axis_angle_to_rot_mat(axis_angle: Array) -> Array:
    """Rotation matrix of an axis-angle, by Rodrigues' formula.

    Parameters
    ----------
    axis_angle : array, shape (..., 4)
        ``(ax, ay, az, angle)``: unit axis, angle in radians.

    Returns
    -------
    array, shape (..., 3, 3)
        ``cos(a) I + sin(a) [k]_x + (1 - cos(a)) k k^T``.
    """
    check_last_dim(axis_angle, 4, "axis_angle", "an axis-angle")
    x, y, z, angle = (axis_angle[..., i] for i in range(4))
    c, s = hd.cos(angle), hd.sin(angle)
    t = 2.0 * hd.sin(angle / 2.0) ** 2  # 1 - cos(angle), without cancellation
    return matrix_3x3(
        [
            [c + t * x * x, t * x * y - s * z, t * x * z + s * y],
            [t * x * y + s * z, c + t * y * y, t * y * z - s * x],
            [t * x * z - s * y, t * y * z + s * x, c + t * z * z],
        ]
    )


def rot_vec_to_rot_mat(rot_vec: Array) -> Array:
    """Rotation matrix of a rotation vector, by Rodrigues' formula.

    Parameters
    ----------
    rot_vec : array, shape (..., 3)
        ``angle * axis``, radians.

    Returns
    -------
    array, shape (..., 3, 3)
        ``cos(a) I + (sin(a)/a) [r]_x + ((1 - cos(a))/a^2) r r^T`` with
        ``a = |r|``; Taylor series below 1e-3 rad (finite, exact gradient at zero).
    """
    check_last_dim(rot_vec, 3, "rot_vec", "a rotation vector")
    x, y, z = rot_vec[..., 0], rot_vec[..., 1], rot_vec[..., 2]
    a2 = x * x + y * y + z * z
    small = a2 < _SMALL_ANGLE**2
    a = hd.sqrt(hd.where(small, hd.ones_like(a2), a2))
    sin_a_over_a = hd.where(small, 1.0 - a2 / 6.0 + a2 * a2 / 120.0, hd.sin(a) / a)
    one_minus_cos_over_a2 = hd.where(
        small, 0.5 - a2 / 24.0 + a2 * a2 / 720.0, 2.0 * (hd.sin(a / 2.0) / a) ** 2
    )
    c = 1.0 - one_minus_cos_over_a2 * a2
    s, t = sin_a_over_a, one_minus_cos_over_a2
    return matrix_3x3(
        [
            [c + t * x * x, t * x * y - s * z, t * x * z + s * y],
            [t * x * y + s * z, c + t * y * y, t * y * z - s * x],
            [t * x * z - s * y, t * y * z + s * x, c + t * z * z],
        ]
    )


# ---- Euler angles -------------------------------------------------------------------------


def _elementary_quaternion(axis: int, angle: Array) -> Array:
    """Quaternion of a rotation by ``angle`` (shape ``(...)``) about coordinate axis ``axis``."""
    half = angle / 2.0
    s, c = hd.sin(half), hd.cos(half)
    zero = hd.zeros_like(angle)
    return hd.stack([s if i == axis else zero for i in range(3)] + [c], axis=-1)


def _elementary_rot_mat(axis: int, angle: Array) -> Array:
    """Matrix of a rotation by ``angle`` (shape ``(...)``) about coordinate axis ``axis``."""
    c, s = hd.cos(angle), hd.sin(angle)
    zero, one = hd.zeros_like(angle), hd.ones_like(angle)
    if axis == 0:
        rows = [[one, zero, zero], [zero, c, -s], [zero, s, c]]
    elif axis == 1:
        rows = [[c, zero, s], [zero, one, zero], [-s, zero, c]]
    else:
        rows = [[c, -s, zero], [s, c, zero], [zero, zero, one]]
    return matrix_3x3(rows)


def euler_to_quaternion(euler: Array, convention: str) -> Array:
    """Unit quaternion of Euler angles.

    Parameters
    ----------
    euler : array, shape (..., 3)
        Angles in radians, in the order of the letters of ``convention``.
    convention : str
        Three axis letters, scipy's rule: ``"xyz"`` (lower case) extrinsic,
        rotations about the fixed axes x, then y, then z; ``"XYZ"`` (upper
        case) intrinsic, about the body's x, then its new y, then its new z.
        All 12 sequences (``xyz``, ``zyx``, ``xyx``, ``zxz``, ...) are allowed;
        consecutive letters must differ.

    Returns
    -------
    array, shape (..., 4)
        The same quaternion as ``scipy.spatial.transform.Rotation.from_euler(convention, euler).as_quat()``.

    Raises
    ------
    InvalidArgumentError
        For an invalid ``convention``.
    """
    axes, intrinsic = parse_convention(convention)
    check_last_dim(euler, 3, "euler", "Euler angles")
    q = _elementary_quaternion(axes[0], euler[..., 0])
    for i in (1, 2):
        qi = _elementary_quaternion(axes[i], euler[..., i])
        q = hamilton_product(q, qi) if intrinsic else hamilton_product(qi, q)
    return q


def euler_to_rot_mat(euler: Array, convention: str) -> Array:
    """Rotation matrix of Euler angles.

    Intrinsic ``"ABC"``: ``R = R_A(e0) @ R_B(e1) @ R_C(e2)``; extrinsic ``"abc"``:
    ``R = R_c(e2) @ R_b(e1) @ R_a(e0)`` (``R_a`` the rotation about axis ``a``).

    Parameters
    ----------
    euler : array, shape (..., 3)
        Angles in radians, in the order of the letters of ``convention``.
    convention : str
        Three axis letters; see :func:`euler_to_quaternion`.

    Returns
    -------
    array, shape (..., 3, 3)
    """
    axes, intrinsic = parse_convention(convention)
    check_last_dim(euler, 3, "euler", "Euler angles")
    r = [_elementary_rot_mat(axes[i], euler[..., i]) for i in range(3)]
    if intrinsic:
        return hd.matmul(hd.matmul(r[0], r[1]), r[2])
    return hd.matmul(hd.matmul(r[2], r[1]), r[0])


def quaternion_to_euler(quaternion: Array, convention: str) -> Array:
    """Euler angles of a quaternion, exactly as scipy's ``Rotation.as_euler``.

    Uses the direct quaternion method of Bernardes & Viollet (2022), as scipy
    does. Angles are wrapped to ``[-pi, pi)``; the middle angle lies in
    ``[0, pi]`` for symmetric sequences (``"zxz"``) and ``[-pi/2, pi/2]``
    otherwise. At gimbal lock (middle angle within 1e-7 rad of its limits) the
    first and last angles are not unique: the third angle is set to zero and
    the rotation is carried by the first, as scipy does (scipy also warns;
    hedera cannot warn without synchronising with the device, so it does not).
    Gradients are finite everywhere, including at gimbal lock.

    Parameters
    ----------
    quaternion : array, shape (..., 4)
        Scalar-last, non-zero.
    convention : str
        Three axis letters; see :func:`euler_to_quaternion`.

    Returns
    -------
    array, shape (..., 3)
        Radians, in the order of the letters of ``convention``.
    """
    axes, intrinsic = parse_convention(convention)
    check_last_dim(quaternion, 4, "quaternion", "a quaternion")
    extrinsic = not intrinsic
    i, j, k = axes if extrinsic else axes[::-1]
    symmetric = i == k
    if symmetric:
        k = 3 - i - j
    sign = float((i - j) * (j - k) * (k - i) // 2)  # +1 for a cyclic (i, j, k), else -1
    q = quaternion
    w, qi, qj, qk = q[..., 3], q[..., i], q[..., j], q[..., k] * sign
    if symmetric:
        a, b, c, d = w, qi, qj, qk
    else:
        a, b, c, d = w - qj, qi + qk, qj + w, qk - qi

    half_sum = safe_atan2(b, a)
    half_diff = safe_atan2(d, c)
    middle = 2.0 * hd.atan2(safe_hypot(c, d), safe_hypot(a, b))
    near_zero = hd.abs(middle) <= _GIMBAL_EPS
    near_pi = hd.abs(middle - math.pi) <= _GIMBAL_EPS
    regular = hd.logical_not(hd.logical_or(near_zero, near_pi))
    # at gimbal lock the whole rotation about the (then aligned) outer axes goes to one angle
    locked = hd.where(near_zero, 2.0 * half_sum, (-2.0 if extrinsic else 2.0) * half_diff)
    zero = hd.zeros_like(middle)
    first = hd.where(regular, half_sum - half_diff, zero if intrinsic else locked)
    third = hd.where(regular, half_sum + half_diff, locked if intrinsic else zero)
    if not symmetric:
        third = third * sign
        middle = middle - math.pi / 2.0
    # ``first``/``third`` are the angles of the extrinsic reading; intrinsic reverses them
    angles = [first, middle, third] if extrinsic else [third, middle, first]
    euler = hd.stack(angles, axis=-1)
    return (euler + math.pi) % (2.0 * math.pi) - math.pi


def rot_mat_to_euler(rot_mat: Array, convention: str) -> Array:
    """Euler angles of a rotation matrix, as scipy's ``Rotation.from_matrix(R).as_euler(convention)``.

    Via :func:`rot_mat_to_quaternion` and :func:`quaternion_to_euler` (see there
    for the ranges and the gimbal-lock rule: third angle zero).

    Parameters
    ----------
    rot_mat : array, shape (..., 3, 3)
    convention : str
        Three axis letters; see :func:`euler_to_quaternion`.

    Returns
    -------
    array, shape (..., 3)
        Radians, in the order of the letters of ``convention``.
    """
    parse_convention(convention)
    return quaternion_to_euler(rot_mat_to_quaternion(rot_mat), convention)


# ---- the remaining pairs, composed ---------------------------------------------------------


def rot_mat_to_rot_vec(rot_mat: Array) -> Array:
    """Rotation vector ``(..., 3)`` of a rotation matrix ``(..., 3, 3)``; angle in ``[0, pi]``, radians."""
    return quaternion_to_rot_vec(rot_mat_to_quaternion(rot_mat))


def rot_mat_to_axis_angle(rot_mat: Array) -> Array:
    """Axis-angle ``(..., 4)`` of a rotation matrix ``(..., 3, 3)``.

    Angle in ``[0, pi]``, axis ``(0, 0, 1)`` at the identity.
    """
    return quaternion_to_axis_angle(rot_mat_to_quaternion(rot_mat))


def rot_mat_to_polar_axis_angle(rot_mat: Array) -> Array:
    """Polar axis-angle ``(theta, phi, angle)`` ``(..., 3)`` of a rotation matrix ``(..., 3, 3)``; radians."""
    return axis_angle_to_polar_axis_angle(rot_mat_to_axis_angle(rot_mat))


def quaternion_to_polar_axis_angle(quaternion: Array) -> Array:
    """Polar axis-angle ``(theta, phi, angle)`` ``(..., 3)`` of a quaternion ``(..., 4)``.

    Angle in ``[0, pi]``.
    """
    return axis_angle_to_polar_axis_angle(quaternion_to_axis_angle(quaternion))


def euler_to_axis_angle(euler: Array, convention: str) -> Array:
    """Axis-angle ``(..., 4)`` of Euler angles ``(..., 3)`` (radians.

    ``convention`` as :func:`euler_to_quaternion`).
    """
    return quaternion_to_axis_angle(euler_to_quaternion(euler, convention))


def euler_to_polar_axis_angle(euler: Array, convention: str) -> Array:
    """Polar axis-angle ``(..., 3)`` of Euler angles ``(..., 3)`` (radians.

    ``convention`` as :func:`euler_to_quaternion`).
    """
    return quaternion_to_polar_axis_angle(euler_to_quaternion(euler, convention))


def euler_to_rot_vec(euler: Array, convention: str) -> Array:
    """Rotation vector ``(..., 3)`` of Euler angles ``(..., 3)`` (radians.

    ``convention`` as :func:`euler_to_quaternion`).
    """
    return quaternion_to_rot_vec(euler_to_quaternion(euler, convention))


def axis_angle_to_euler(axis_angle: Array, convention: str) -> Array:
    """Euler angles ``(..., 3)`` of an axis-angle ``(..., 4)``.

    Ranges and gimbal lock as :func:`quaternion_to_euler`.
    """
    return quaternion_to_euler(axis_angle_to_quaternion(axis_angle), convention)


def polar_axis_angle_to_rot_mat(polar_axis_angle: Array) -> Array:
    """Rotation matrix ``(..., 3, 3)`` of a polar axis-angle ``(theta, phi, angle)`` ``(..., 3)``."""
    return axis_angle_to_rot_mat(polar_axis_angle_to_axis_angle(polar_axis_angle))


def polar_axis_angle_to_quaternion(polar_axis_angle: Array) -> Array:
    """Unit quaternion ``(..., 4)`` of a polar axis-angle ``(theta, phi, angle)`` ``(..., 3)``."""
    return axis_angle_to_quaternion(polar_axis_angle_to_axis_angle(polar_axis_angle))


def polar_axis_angle_to_euler(polar_axis_angle: Array, convention: str) -> Array:
    """Euler angles ``(..., 3)`` of a polar axis-angle ``(..., 3)``.

    Ranges and gimbal lock as :func:`quaternion_to_euler`.
    """
    return quaternion_to_euler(polar_axis_angle_to_quaternion(polar_axis_angle), convention)


def polar_axis_angle_to_rot_vec(polar_axis_angle: Array) -> Array:
    """Rotation vector ``angle * axis`` ``(..., 3)`` of a polar axis-angle ``(..., 3)``."""
    return axis_angle_to_rot_vec(polar_axis_angle_to_axis_angle(polar_axis_angle))


def rot_vec_to_euler(rot_vec: Array, convention: str) -> Array:
    """Euler angles ``(..., 3)`` of a rotation vector ``(..., 3)``.

    Ranges and gimbal lock as :func:`quaternion_to_euler`.
    """
    return quaternion_to_euler(rot_vec_to_quaternion(rot_vec), convention)


def rot_vec_to_polar_axis_angle(rot_vec: Array) -> Array:
    """Polar axis-angle ``(theta, phi, angle)`` ``(..., 3)`` of a rotation vector; ``angle = |rot_vec|``."""
    return axis_angle_to_polar_axis_angle(rot_vec_to_axis_angle(rot_vec))


# ---- quaternion interpolation and scaling --------------------------------------------------


def scale_quaternion_rotation_angle(quaternion: Array, scale: float | Array) -> Array:
    """The rotation about the same axis by ``scale`` times the angle: ``q ** scale``.

    The angle is first taken in ``[0, pi]`` (the shorter way round), as scipy's
    ``Rotation.__pow__`` does; a negative ``scale`` reverses the direction.

    Parameters
    ----------
    quaternion : array, shape (..., 4)
        Scalar-last, non-zero.
    scale : float or array of shape (...)
        Broadcasts against the batch dimensions of ``quaternion``.

    Returns
    -------
    array, shape (..., 4)
        Unit quaternion.
    """
    rot_vec = quaternion_to_rot_vec(quaternion)
    if not isinstance(scale, (int, float)):
        scale = scale[..., None]
    return rot_vec_to_quaternion(rot_vec * scale)


def slerp(quaternion0: Array, quaternion1: Array, t: float | Array) -> Array:
    """Spherical linear interpolation from ``q0`` (``t = 0``) to ``q1`` (``t = 1``), the short way.

    ``q0 * (q0^-1 * q1) ** t``: constant angular velocity along the shortest
    arc, as scipy's ``Slerp`` between two key rotations.

    Parameters
    ----------
    quaternion0, quaternion1 : array, shape (..., 4)
        Scalar-last, non-zero; batch dimensions broadcast.
    t : float or array of shape (...)
        Interpolation parameter (extrapolates outside ``[0, 1]``).

    Returns
    -------
    array, shape (..., 4)
        Unit quaternion.
    """
    check_last_dim(quaternion0, 4, "quaternion0", "a quaternion")
    check_last_dim(quaternion1, 4, "quaternion1", "a quaternion")
    q0 = normalize_quaternion(quaternion0)
    delta = hamilton_product(inverse_quaternion(q0), quaternion1)
    return hamilton_product(q0, scale_quaternion_rotation_angle(delta, t))


# ---- random rotations ----------------------------------------------------------------------


def _batch_shape(batch_shape: int | Sequence[int]) -> tuple[int, ...]:
    if isinstance(batch_shape, int):
        return (batch_shape,)
    return tuple(int(s) for s in batch_shape)


def random_quaternion(
    batch_shape: int | Sequence[int] = (),
    *,
    key: Array | None = None,
    dtype: Any = None,
    device: Any = None,
) -> Array:
    """Unit quaternions drawn uniformly on SO(3) (Haar measure), by Shoemake's method.

    Three uniforms ``u1, u2, u3`` give ``(sqrt(1-u1) sin(2 pi u2), sqrt(1-u1)
    cos(2 pi u2), sqrt(u1) sin(2 pi u3), sqrt(u1) cos(2 pi u3))``, which is
    uniform on the unit 3-sphere, hence a uniform rotation.

    Parameters
    ----------
    batch_shape : int or tuple of int, default ()
        Leading shape of the result.
    key : array, optional
        A key from ``hd.random.key`` / ``hd.random.split``: the draw is then a
        pure function of the key (and runs on the key's backend). Without one,
        the backend's stateful generator is used (not allowed under ``hd.jit``).
    dtype : dtype, optional
        Floating dtype (hedera, native or name); the backend's default float if omitted.
    device : device, optional

    Returns
    -------
    array, shape (*batch_shape, 4)
        Scalar-last unit quaternions.
    """
    shape = (*_batch_shape(batch_shape), 3)
    u = hd.random.uniform(shape, dtype=dtype, device=device, key=key)
    u1, u2, u3 = u[..., 0], u[..., 1], u[..., 2]
    r1, r2 = hd.sqrt(1.0 - u1), hd.sqrt(u1)
    a2, a3 = (2.0 * math.pi) * u2, (2.0 * math.pi) * u3
    return hd.stack([r1 * hd.sin(a2), r1 * hd.cos(a2), r2 * hd.sin(a3), r2 * hd.cos(a3)], axis=-1)


def random_rot_mat(
    batch_shape: int | Sequence[int] = (),
    *,
    key: Array | None = None,
    dtype: Any = None,
    device: Any = None,
) -> Array:
    """Rotation matrices drawn uniformly on SO(3); parameters as :func:`random_quaternion`.

    Returns
    -------
    array, shape (*batch_shape, 3, 3)
    """
    return quaternion_to_rot_mat(random_quaternion(batch_shape, key=key, dtype=dtype, device=device))


# ---- construction ---------------------------------------------------------------------------


def target_facing_rotation_matrix(body_pos: Array, target_pos: Array, up: Array | None = None) -> Array:
    """Orientation of a body at ``body_pos`` whose ``+z`` axis points at ``target_pos``.

    The body's axes, as columns of the result (body-to-world: ``p_world = R @
    p_body + body_pos``): ``z`` towards the target, ``x = normalize(up x z)``
    and ``y = z x x``, so ``y`` leans towards ``up`` and ``x`` is horizontal
    (the 2021 library's convention; a look-at matrix, useful to aim cameras).

    Parameters
    ----------
    body_pos, target_pos : array, shape (..., 3)
        World positions; batch dimensions broadcast.
    up : array of shape (..., 3), optional
        World up direction; default ``(0, 0, 1)``.

    Returns
    -------
    array, shape (..., 3, 3)
        A rotation matrix. Undefined (NaN) when the target is at the body or
        straight along ``up``.
    """
    check_last_dim(body_pos, 3, "body_pos", "a position")
    check_last_dim(target_pos, 3, "target_pos", "a position")
    forward = target_pos - body_pos
    if up is None:
        up = unit_vector_like(forward, 2)
    z = forward / hd.sqrt(hd.sum(forward * forward, axis=-1, keepdims=True))
    x = hd.linalg.cross(up + hd.zeros_like(z), z)
    x = x / hd.sqrt(hd.sum(x * x, axis=-1, keepdims=True))
    y = hd.linalg.cross(z, x)
    return hd.stack([x, y, z], axis=-1)
