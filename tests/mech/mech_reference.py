"""Reference data and helpers for the hedera.mech tests: scipy as ground truth.

Rotations come from ``scipy.spatial.transform.Rotation``; every representation is
built from scipy's output with plain NumPy formulas, independently of hedera.
"""

from __future__ import annotations

import numpy as np
from scipy.spatial.transform import Rotation

import hedera as hd

REPRESENTATIONS = ("rot_mat", "quaternion", "euler", "axis_angle", "polar_axis_angle", "rot_vec")

SEQUENCES = ("xyz", "xzy", "yxz", "yzx", "zxy", "zyx", "xyx", "xzx", "yxy", "yzy", "zxz", "zyz")
CONVENTIONS = SEQUENCES + tuple(s.upper() for s in SEQUENCES)

TOL = {"float32": dict(rtol=2e-5, atol=5e-5), "float64": dict(rtol=1e-10, atol=1e-10)}


def to_backend(a, backend: str, dtype: str):
    """``a`` (NumPy) as an array of ``backend`` with ``dtype``."""
    return hd.asarray(np.asarray(a, dtype=dtype), backend=backend)


def unit(v):
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def sample_rotations(n_random: int = 24, seed: int = 0) -> Rotation:
    """Random rotations plus near-singular ones: identity, tiny angles, the Taylor switch, near and at pi."""
    rng = np.random.default_rng(seed)
    axes = unit(rng.normal(size=(12, 3)))
    coord_axes = np.eye(3)
    special = [np.zeros((1, 3))]
    for angle in (1e-12, 1e-7, 1e-4, 1e-3 * (1 - 1e-6), 1e-3 * (1 + 1e-6), 0.5):
        special.append(axes[:2] * angle)
    for angle in (np.pi / 2, np.pi - 1e-6, np.pi):
        special.append(coord_axes * angle)
        special.append(axes[2:4] * angle)
    special.append(-coord_axes * (np.pi - 1e-4))
    rotvecs = np.concatenate(special, axis=0)
    return Rotation.concatenate([Rotation.from_rotvec(rotvecs), Rotation.random(n_random, random_state=seed)])


def gimbal_euler(convention: str) -> np.ndarray:
    """Euler angles at and near gimbal lock for ``convention`` (middle angle at its limits)."""
    symmetric = convention[0].lower() == convention[2].lower()
    limits = (0.0, np.pi) if symmetric else (-np.pi / 2, np.pi / 2)
    rows = []
    for mid in limits:
        for offset in (0.0, 1e-9, -1e-9, 1e-5, -1e-5):
            m = mid + offset
            if symmetric and not 0.0 <= m <= np.pi:
                continue
            rows.append([0.3, m, -0.7])
            rows.append([-2.5, m, 1.1])
    return np.array(rows)


def representation(r: Rotation, name: str, convention: str = "xyz") -> np.ndarray:
    """``r`` in representation ``name``, by scipy (and NumPy for the axis forms)."""
    if name == "rot_mat":
        return r.as_matrix()
    if name == "quaternion":
        return r.as_quat()
    if name == "euler":
        return r.as_euler(convention, suppress_warnings=True)
    if name == "rot_vec":
        return r.as_rotvec()
    rv = r.as_rotvec()
    angle = np.linalg.norm(rv, axis=-1, keepdims=True)
    axis = np.where(angle > 0, rv / np.where(angle > 0, angle, 1.0), np.array([0.0, 0.0, 1.0]))
    if name == "axis_angle":
        return np.concatenate([axis, angle], axis=-1)
    if name == "polar_axis_angle":
        theta = np.arccos(np.clip(axis[..., 2], -1, 1))
        on_z = np.hypot(axis[..., 0], axis[..., 1]) == 0
        phi = np.where(on_z, 0.0, np.arctan2(axis[..., 1], axis[..., 0]))  # the azimuth of +-z is 0
        return np.stack([theta, phi, angle[..., 0]], axis=-1)
    raise ValueError(name)


def as_matrix(value: np.ndarray, name: str, convention: str = "xyz") -> np.ndarray:
    """The rotation matrix that representation ``name`` of ``value`` stands for, by scipy/NumPy."""
    value = np.array(value, dtype=np.float64)  # a writable copy: scipy's Cython rejects read-only views
    if name == "rot_mat":
        return value
    if name == "quaternion":
        return Rotation.from_quat(value).as_matrix()
    if name == "euler":
        return Rotation.from_euler(convention, value).as_matrix()
    if name == "rot_vec":
        return Rotation.from_rotvec(value).as_matrix()
    if name == "axis_angle":
        return Rotation.from_rotvec(value[..., :3] * value[..., 3:]).as_matrix()
    if name == "polar_axis_angle":
        theta, phi, angle = value[..., 0], value[..., 1], value[..., 2:]
        axis = np.stack([np.sin(theta) * np.cos(phi), np.sin(theta) * np.sin(phi), np.cos(theta)], axis=-1)
        return Rotation.from_rotvec(axis * angle).as_matrix()
    raise ValueError(name)


def wrapped_difference(a, b):
    """Angle differences in ``[-pi, pi)``."""
    return (np.asarray(a) - np.asarray(b) + np.pi) % (2 * np.pi) - np.pi


def central_difference(f, x: np.ndarray, h: float = 1e-6) -> np.ndarray:
    """Gradient of scalar ``f`` at ``x`` by central finite differences (float64)."""
    x = np.asarray(x, dtype=np.float64)
    g = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[idx] = h
        g[idx] = (f(x + e) - f(x - e)) / (2 * h)
    return g
