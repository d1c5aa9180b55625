"""hedera.mech functions written directly in PyTorch (baseline (b) of the library benchmark)."""

from __future__ import annotations

import torch


def quaternion_to_rot_mat(quaternion: torch.Tensor) -> torch.Tensor:
    x, y, z, w = quaternion.unbind(-1)
    s = 2.0 / (x * x + y * y + z * z + w * w)
    xx, yy, zz = s * x * x, s * y * y, s * z * z
    xy, xz, yz = s * x * y, s * x * z, s * y * z
    xw, yw, zw = s * x * w, s * y * w, s * z * w
    rows = [
        1.0 - (yy + zz), xy - zw, xz + yw,
        xy + zw, 1.0 - (xx + zz), yz - xw,
        xz - yw, yz + xw, 1.0 - (xx + yy),
    ]  # fmt: skip
    return torch.stack(rows, dim=-1).reshape(*quaternion.shape[:-1], 3, 3)


def hamilton_product(quaternion1: torch.Tensor, quaternion2: torch.Tensor) -> torch.Tensor:
    x1, y1, z1, w1 = quaternion1.unbind(-1)
    x2, y2, z2, w2 = quaternion2.unbind(-1)
    return torch.stack(
        [
            w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
            w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
            w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
            w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
        ],
        dim=-1,
    )


def transform_coords(transform: torch.Tensor, coords: torch.Tensor) -> torch.Tensor:
    return (transform[..., :3, :3] @ coords[..., None])[..., 0] + transform[..., :3, 3]


def invert_mat_pose(mat_pose: torch.Tensor) -> torch.Tensor:
    r_t = mat_pose[..., :3, :3].transpose(-1, -2)
    return torch.cat([r_t, -(r_t @ mat_pose[..., :3, 3:])], dim=-1)


def quaternion_pose_to_mat_pose(quaternion_pose: torch.Tensor) -> torch.Tensor:
    rot = quaternion_to_rot_mat(quaternion_pose[..., 3:])
    return torch.cat([rot, quaternion_pose[..., :3, None]], dim=-1)


FUNCTIONS = {
    "quaternion_to_rot_mat": quaternion_to_rot_mat,
    "hamilton_product": hamilton_product,
    "transform_coords": transform_coords,
    "invert_mat_pose": invert_mat_pose,
    "quaternion_pose_to_mat_pose": quaternion_pose_to_mat_pose,
}
