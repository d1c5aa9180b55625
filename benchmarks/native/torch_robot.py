"""hedera.robot functions written directly in PyTorch (baseline (b) of the library benchmark)."""

from __future__ import annotations

import torch

#: the body of the RigidMobile benchmarked (library_inputs: a 6-point drone)
DRONE = [[0.0, 0, 0], [0.15, 0, 0], [-0.15, 0, 0], [0, 0.15, 0], [0, -0.15, 0], [0, 0, 0.05]]


def _sq_distances(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return ((x[..., :, None, :] - y[..., None, :, :]) ** 2).sum(-1)


def _with_ones(points: torch.Tensor) -> torch.Tensor:
    return torch.cat([torch.ones_like(points[..., :1]), points], dim=-1)


def fit_spline(anchor_points: torch.Tensor, anchor_vals: torch.Tensor) -> torch.Tensor:
    d_in = anchor_points.shape[-1]
    kernel = _sq_distances(anchor_points, anchor_points) ** 1.5  # polyharmonic r^3
    affine = _with_ones(anchor_points)
    zeros = anchor_points.new_zeros(d_in + 1, d_in + 1)
    system = torch.cat([torch.cat([kernel, affine], -1), torch.cat([affine.T, zeros], -1)], -2)
    rhs = torch.cat([anchor_vals, anchor_vals.new_zeros(d_in + 1, anchor_vals.shape[-1])], -2)
    return torch.linalg.solve(system, rhs)


def evaluate_spline(
    anchor_points: torch.Tensor, coefficients: torch.Tensor, sample_points: torch.Tensor
) -> torch.Tensor:
    n = anchor_points.shape[-2]
    kernel = _sq_distances(sample_points, anchor_points) ** 1.5
    return kernel @ coefficients[:n] + _with_ones(sample_points) @ coefficients[n:]


def sample_body(mat_poses: torch.Tensor) -> torch.Tensor:
    body = torch.tensor(DRONE, dtype=mat_poses.dtype)
    return body @ mat_poses[..., None, :3, :3].transpose(-1, -2)[..., 0, :, :] + mat_poses[..., None, :3, 3]


def sample_body_at_quaternion_poses(quaternion_poses: torch.Tensor) -> torch.Tensor:
    x, y, z, w = quaternion_poses[..., 3:].unbind(-1)
    s = 2.0 / (x * x + y * y + z * z + w * w)
    rot = torch.stack(
        [
            1 - s * (y * y + z * z), s * (x * y - z * w), s * (x * z + y * w),
            s * (x * y + z * w), 1 - s * (x * x + z * z), s * (y * z - x * w),
            s * (x * z - y * w), s * (y * z + x * w), 1 - s * (x * x + y * y),
        ],
        dim=-1,
    ).reshape(*x.shape, 3, 3)  # fmt: skip
    return sample_body(torch.cat([rot, quaternion_poses[..., :3, None]], dim=-1))


FUNCTIONS = {
    "fit_spline": fit_spline,
    "evaluate_spline": evaluate_spline,
    "RigidMobile.sample_body": sample_body,
    "RigidMobile.sample_body_at_quaternion_poses": sample_body_at_quaternion_poses,
}
