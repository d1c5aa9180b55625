"""hedera.vision functions written directly in PyTorch (baseline (b) of the library benchmark)."""

from __future__ import annotations

import torch


def world_to_pixel_coords(world_coords: torch.Tensor, full_mat: torch.Tensor) -> torch.Tensor:
    ds = (full_mat[..., :3] @ world_coords[..., None])[..., 0] + full_mat[..., 3]
    return ds[..., :2] / ds[..., 2:3]


def depth_to_ds_pixel_coords(depth: torch.Tensor) -> torch.Tensor:
    height, width = depth.shape[-3:-1]
    v, u = torch.meshgrid(
        torch.arange(height, dtype=depth.dtype), torch.arange(width, dtype=depth.dtype), indexing="ij"
    )
    return torch.cat([torch.stack([u, v], dim=-1) * depth, depth], dim=-1)


def sphere_signed_distances(points: torch.Tensor, centers: torch.Tensor, radii: torch.Tensor) -> torch.Tensor:
    offsets = points[..., :, None, :] - centers[..., None, :, :]
    return (torch.linalg.vector_norm(offsets, dim=-1) - radii[..., None, :]).amin(dim=-1)


def calib_and_ext_to_full_mat(calib_mat: torch.Tensor, ext_mat: torch.Tensor) -> torch.Tensor:
    return calib_mat @ ext_mat[..., :3, :]


FUNCTIONS = {
    "world_to_pixel_coords": world_to_pixel_coords,
    "depth_to_ds_pixel_coords": depth_to_ds_pixel_coords,
    "sphere_signed_distances": sphere_signed_distances,
    "calib_and_ext_to_full_mat": calib_and_ext_to_full_mat,
}
