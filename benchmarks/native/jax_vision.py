"""hedera.vision functions written directly in JAX (baseline (b) of the library benchmark)."""

from __future__ import annotations

import jax.numpy as jnp


def world_to_pixel_coords(world_coords: jnp.ndarray, full_mat: jnp.ndarray) -> jnp.ndarray:
    ds = (full_mat[..., :3] @ world_coords[..., None])[..., 0] + full_mat[..., 3]
    return ds[..., :2] / ds[..., 2:3]


def depth_to_ds_pixel_coords(depth: jnp.ndarray) -> jnp.ndarray:
    height, width = depth.shape[-3:-1]
    u, v = jnp.meshgrid(jnp.arange(width, dtype=depth.dtype), jnp.arange(height, dtype=depth.dtype))
    return jnp.concatenate([jnp.stack([u, v], axis=-1) * depth, depth], axis=-1)


def sphere_signed_distances(points: jnp.ndarray, centers: jnp.ndarray, radii: jnp.ndarray) -> jnp.ndarray:
    offsets = points[..., :, None, :] - centers[..., None, :, :]
    return (jnp.linalg.norm(offsets, axis=-1) - radii[..., None, :]).min(axis=-1)


def calib_and_ext_to_full_mat(calib_mat: jnp.ndarray, ext_mat: jnp.ndarray) -> jnp.ndarray:
    return calib_mat @ ext_mat[..., :3, :]


FUNCTIONS = {
    "world_to_pixel_coords": world_to_pixel_coords,
    "depth_to_ds_pixel_coords": depth_to_ds_pixel_coords,
    "sphere_signed_distances": sphere_signed_distances,
    "calib_and_ext_to_full_mat": calib_and_ext_to_full_mat,
}
