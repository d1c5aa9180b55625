"""hedera.robot functions written directly in JAX (baseline (b) of the library benchmark)."""

from __future__ import annotations

import jax.numpy as jnp

#: the body of the RigidMobile benchmarked (library_inputs: a 6-point drone)
DRONE = [[0.0, 0, 0], [0.15, 0, 0], [-0.15, 0, 0], [0, 0.15, 0], [0, -0.15, 0], [0, 0, 0.05]]


def _sq_distances(x: jnp.ndarray, y: jnp.ndarray) -> jnp.ndarray:
    return ((x[..., :, None, :] - y[..., None, :, :]) ** 2).sum(-1)


def _with_ones(points: jnp.ndarray) -> jnp.ndarray:
    return jnp.concatenate([jnp.ones_like(points[..., :1]), points], axis=-1)


def fit_spline(anchor_points: jnp.ndarray, anchor_vals: jnp.ndarray) -> jnp.ndarray:
    d_in = anchor_points.shape[-1]
    kernel = _sq_distances(anchor_points, anchor_points) ** 1.5  # polyharmonic r^3
    affine = _with_ones(anchor_points)
    zeros = jnp.zeros((d_in + 1, d_in + 1), anchor_points.dtype)
    system = jnp.block([[kernel, affine], [affine.T, zeros]])
    rhs = jnp.concatenate([anchor_vals, jnp.zeros((d_in + 1, anchor_vals.shape[-1]), anchor_vals.dtype)])
    return jnp.linalg.solve(system, rhs)


def evaluate_spline(
    anchor_points: jnp.ndarray, coefficients: jnp.ndarray, sample_points: jnp.ndarray
) -> jnp.ndarray:
    n = anchor_points.shape[-2]
    kernel = _sq_distances(sample_points, anchor_points) ** 1.5
    return kernel @ coefficients[:n] + _with_ones(sample_points) @ coefficients[n:]


def sample_body(mat_poses: jnp.ndarray) -> jnp.ndarray:
    body = jnp.asarray(DRONE, dtype=mat_poses.dtype)
    return jnp.einsum("pj,...ij->...pi", body, mat_poses[..., :3, :3]) + mat_poses[..., None, :3, 3]


def sample_body_at_quaternion_poses(quaternion_poses: jnp.ndarray) -> jnp.ndarray:
    x, y, z, w = (quaternion_poses[..., 3 + i] for i in range(4))
    s = 2.0 / (x * x + y * y + z * z + w * w)
    rot = jnp.stack(
        [
            1 - s * (y * y + z * z), s * (x * y - z * w), s * (x * z + y * w),
            s * (x * y + z * w), 1 - s * (x * x + z * z), s * (y * z - x * w),
            s * (x * z - y * w), s * (y * z + x * w), 1 - s * (x * x + y * y),
        ],
        axis=-1,
    ).reshape(*x.shape, 3, 3)  # fmt: skip
    return sample_body(jnp.concatenate([rot, quaternion_poses[..., :3, None]], axis=-1))


FUNCTIONS = {
    "fit_spline": fit_spline,
    "evaluate_spline": evaluate_spline,
    "RigidMobile.sample_body": sample_body,
    "RigidMobile.sample_body_at_quaternion_poses": sample_body_at_quaternion_poses,
}
