"""Rendering and scene: forward-warping points into images, voxel grids, triangle rasterization.

Conventions (see :mod:`hedera.vision.cameras`): pixel ``(u, v) = (column, row)``
with the top-left pixel's *centre* at the origin, so the pixel nearest to
``(u, v)`` is row ``floor(v + 0.5)``, column ``floor(u + 0.5)``; homogeneous
pixel-depth coordinates are ``(u d, v d, d)``, ``d`` the depth (camera ``z``);
images are channels-last ``(..., H, W, C)``. Batched over leading dimensions,
float32 or float64. Pixel and voxel indices are int32 (so fewer than 2**31
pixels or voxels per call).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import hedera as hd
from hedera.helpers import finite_float

from ._helpers import (
    Array,
    arange_like,
    check_floating,
    check_image_dims,
    check_last_dim,
    check_last_dims,
    pixel_grid_like,
    safe_divide,
)

__all__ = [
    "QuantizedImage",
    "quantize_to_image",
    "VoxelGrid",
    "coords_to_voxel_grid",
    "Rasterization",
    "rasterize_triangles",
]


class QuantizedImage(NamedTuple):
    """The result of :func:`quantize_to_image`.

    Attributes
    ----------
    depth : array, shape (*B, H, W, 1)
        Depth of the nearest point in each pixel; ``fill_depth`` where none.
    features : array, shape (*B, H, W, F), or None
        That point's features (``fill_features`` where none); None without features.
    mask : array of bool, shape (*B, H, W, 1)
        Whether any point landed in the pixel.
    """

    depth: Array
    features: Array | None
    mask: Array


def _full_like(shape: tuple[int, ...], value: Any, like: Array, dtype: Any = None) -> Array:
    dtype = like.dtype if dtype is None else dtype
    return hd.full(shape, value, dtype=dtype, device=hd.device(like), backend=hd.backend_of(like))


def _as_array_like(value: Any, like: Array) -> Array:
    """``value`` (an array of any backend, or numbers) as an array of ``like``'s backend, dtype and device."""
    return hd.asarray(value, dtype=like.dtype, device=hd.device(like), backend=hd.backend_of(like))


def quantize_to_image(
    ds_pixel_coords: Array,
    image_dims: tuple[int, int],
    features: Array | None = None,
    *,
    fill_depth: float = 0.0,
    fill_features: float = 0.0,
) -> QuantizedImage:
    """Render points into an image with a depth buffer (forward warping, "splatting" one pixel per point).

    Each point goes to the pixel whose centre is nearest to its projection; in
    each pixel the point with the smallest depth wins (among equal depths, the
    one with the lowest index).

    Parameters
    ----------
    ds_pixel_coords : array, shape (*B, N, 3)
        Homogeneous pixel-depth coordinates ``(u d, v d, d)`` of ``N`` points
        (e.g. :func:`world_to_ds_pixel_coords`). Points with ``d <= 0`` (behind
        the camera) or projecting outside the image are dropped.
    image_dims : (int, int)
        ``(H, W)`` of the image to render.
    features : array, shape (*B, N, F), optional
        Per-point features (colours, normals, ...) to render alongside the depth.
    fill_depth, fill_features : float
        Values of pixels no point lands in.

    Returns
    -------
    QuantizedImage
        ``(depth (*B, H, W, 1), features (*B, H, W, F) or None, mask (*B, H, W, 1))``.
        Differentiable in the winners' depths and features; piecewise constant
        (zero gradient) in the pixel positions.

    Examples
    --------
    >>> import numpy as np, hedera.vision as hv
    >>> points = np.array([[1.0 * 2, 0.0, 2.0], [1.0 * 3, 0.0, 3.0]])  # both at pixel (u, v) = (1, 0)
    >>> hv.quantize_to_image(points, (2, 3)).depth[..., 0]
    array([[0., 2., 0.],
           [0., 0., 0.]])
    """
    check_last_dim(ds_pixel_coords, 3, "ds_pixel_coords", "homogeneous pixel-depth coordinates")
    check_floating(ds_pixel_coords, "ds_pixel_coords")
    height, width = check_image_dims(image_dims)
    fill_depth = finite_float("quantize_to_image", "fill_depth", fill_depth)
    fill_features = finite_float("quantize_to_image", "fill_features", fill_features)
    batch = tuple(ds_pixel_coords.shape)[:-2]
    n_points = tuple(ds_pixel_coords.shape)[-2]
    if features is not None:
        if len(tuple(features.shape)) < 2 or tuple(features.shape)[-2] != n_points:
            raise hd.ShapeError(
                f"features: expected shape (*B, {n_points}, F) for {n_points} points, "
                f"got {tuple(features.shape)}"
            )
        features = hd.broadcast_to(features, (*batch, n_points, tuple(features.shape)[-1]))
    nb = math.prod(batch)
    n_pixels = height * width
    coords = hd.reshape(ds_pixel_coords, (nb, n_points, 3))
    depth = coords[..., 2]
    pixels = safe_divide(hd.stop_gradient(coords[..., :2]), hd.stop_gradient(depth)[..., None])
    col = hd.floor(pixels[..., 0] + 0.5)
    row = hd.floor(pixels[..., 1] + 0.5)
    valid = (depth > 0) & (col >= 0) & (col < width) & (row >= 0) & (row < height)
    col = hd.astype(hd.where(valid, col, 0.0), hd.int32)
    row = hd.astype(hd.where(valid, row, 0.0), hd.int32)
    batch_offset = arange_like(nb, col, hd.int32)[:, None] * n_pixels
    dump = nb * n_pixels  # one extra slot collects the dropped points
    index = hd.where(valid, batch_offset + row * width + col, dump)
    index = hd.reshape(index, (nb * n_points,))

    # depth buffer: the smallest depth per pixel (no gradient: the winner's depth is gathered below)
    z = hd.reshape(hd.stop_gradient(depth), (nb * n_points,))
    zbuffer = hd.at(_full_like((dump + 1,), math.inf, z))[index].min(z)
    # the winner: the lowest point index among the points at the buffer's depth
    point = hd.reshape(arange_like(n_points, index, hd.int32)[None, :] + hd.zeros_like(col), (nb * n_points,))
    candidate = hd.take(zbuffer, index, axis=0) == z
    winner = hd.at(_full_like((dump + 1,), n_points, index))[index].min(hd.where(candidate, point, n_points))
    winner = hd.reshape(winner[:dump], (nb, n_pixels))
    mask = winner < n_points

    fill = hd.full_like(depth[:, :1], fill_depth)
    depth_image = hd.take_along_axis(hd.concat([depth, fill], axis=-1), winner, axis=-1)
    depth_image = hd.reshape(depth_image, (*batch, height, width, 1))
    mask = hd.reshape(mask, (*batch, height, width, 1))
    feature_image = None
    if features is not None:
        n_feat = tuple(features.shape)[-1]
        feats = hd.reshape(features, (nb, n_points, n_feat))
        feats = hd.concat([feats, hd.full_like(feats[:, :1, :], fill_features)], axis=-2)
        gathered = hd.take_along_axis(
            feats, hd.broadcast_to(winner[..., None], (nb, n_pixels, n_feat)), axis=-2
        )
        feature_image = hd.reshape(gathered, (*batch, height, width, n_feat))
    return QuantizedImage(depth_image, feature_image, mask)


class VoxelGrid(NamedTuple):
    """The result of :func:`coords_to_voxel_grid`.

    Attributes
    ----------
    counts : array, shape (*B, X, Y, Z, 1)
        Number of points in each voxel (in the coordinates' float dtype).
    mean_coords : array, shape (*B, X, Y, Z, 3)
        Mean of the points in each voxel; 0 in empty voxels.
    mean_features : array, shape (*B, X, Y, Z, F), or None
        Mean of the points' features in each voxel; 0 in empty voxels.
    lower : array, shape (*B, 3)
        The grid's lower corner.
    voxel_size : array, shape (*B, 3)
        Each voxel's side lengths: voxel ``(a, b, c)`` spans
        ``lower + (a, b, c) * voxel_size`` to ``lower + (a + 1, b + 1, c + 1) * voxel_size``.
    """

    counts: Array
    mean_coords: Array
    mean_features: Array | None
    lower: Array
    voxel_size: Array


def coords_to_voxel_grid(
    coords: Array,
    grid_shape: tuple[int, int, int],
    lower: Array | None = None,
    upper: Array | None = None,
    features: Array | None = None,
) -> VoxelGrid:
    """Bin 3D points into a regular voxel grid: counts, mean positions and mean features per voxel.

    Parameters
    ----------
    coords : array, shape (*B, N, 3)
        Points ``(x, y, z)``, any length unit.
    grid_shape : (int, int, int)
        Number of voxels ``(X, Y, Z)`` along ``x``, ``y``, ``z``.
    lower, upper : array, shape (*B, 3) or (3,), optional
        The grid's bounds; default the per-batch minimum and maximum of ``coords``.
        Voxels are half-open ``[lo, hi)`` except the last along each axis, which
        includes its upper face (as ``numpy.histogramdd``); points outside are dropped.
    features : array, shape (*B, N, F), optional
        Per-point features to average per voxel.

    Returns
    -------
    VoxelGrid
        ``(counts, mean_coords, mean_features, lower, voxel_size)``. The means are
        differentiable in ``coords`` and ``features``.
    """
    check_last_dim(coords, 3, "coords", "points")
    check_floating(coords, "coords")
    try:
        shape = tuple(int(s) for s in grid_shape)
    except (TypeError, ValueError):
        shape = ()
    if len(shape) != 3 or min(shape) < 1:
        raise hd.InvalidArgumentError(f"grid_shape: expected three positive ints, got {grid_shape!r}")
    batch = tuple(coords.shape)[:-2]
    n_points = tuple(coords.shape)[-2]
    lower = hd.min(coords, axis=-2) if lower is None else _as_array_like(lower, coords)
    upper = hd.max(coords, axis=-2) if upper is None else _as_array_like(upper, coords)
    lower = hd.broadcast_to(hd.stop_gradient(lower), (*batch, 3))
    upper = hd.broadcast_to(hd.stop_gradient(upper), (*batch, 3))
    dims = _as_array_like([float(s) for s in shape], coords)
    voxel_size = (upper - lower) / dims
    fixed = hd.stop_gradient(coords)
    rel = safe_divide(fixed - lower[..., None, :], voxel_size[..., None, :])
    # inside by comparing with the bounds themselves (rel may round past dims at the upper bound)
    inside = hd.all((fixed >= lower[..., None, :]) & (fixed <= upper[..., None, :]), axis=-1)
    cell = hd.astype(hd.clip(hd.floor(hd.where(inside[..., None], rel, 0.0)), 0.0, dims - 1.0), hd.int32)
    nb = math.prod(batch)
    n_voxels = math.prod(shape)
    cell = hd.reshape(cell, (nb, n_points, 3))
    flat = (cell[..., 0] * shape[1] + cell[..., 1]) * shape[2] + cell[..., 2]
    flat = flat + arange_like(nb, flat, hd.int32)[:, None] * n_voxels
    dump = nb * n_voxels
    index = hd.reshape(hd.where(hd.reshape(inside, (nb, n_points)), flat, dump), (nb * n_points,))

    values = [hd.ones_like(coords[..., :1]), coords]
    if features is not None:
        check_floating(features, "features")
        values.append(hd.broadcast_to(features, (*batch, n_points, tuple(features.shape)[-1])))
    stacked = hd.reshape(hd.concat(values, axis=-1), (nb * n_points, -1))
    sums = hd.at(_full_like((dump + 1, tuple(stacked.shape)[-1]), 0.0, stacked))[index].add(stacked)
    sums = hd.reshape(sums[:dump], (*batch, *shape, tuple(stacked.shape)[-1]))
    counts = sums[..., :1]
    means = safe_divide(sums[..., 1:], hd.maximum(counts, hd.ones_like(counts)))
    mean_features = means[..., 3:] if features is not None else None
    return VoxelGrid(counts, means[..., :3], mean_features, lower, voxel_size)


class Rasterization(NamedTuple):
    """The result of :func:`rasterize_triangles`.

    Attributes
    ----------
    mask : array of bool, shape (*B, H, W)
        Whether a triangle covers the pixel centre.
    triangle_index : array of int32, shape (*B, H, W)
        Index of the visible triangle; -1 where none.
    barycentric : array, shape (*B, H, W, 3)
        Barycentric coordinates of the pixel centre in the visible triangle, weights
        of its three vertices (perspective-correct when depths are given); 0 where none.
    depth : array, shape (*B, H, W)
        Interpolated depth of the visible triangle at the pixel centre; 0 where
        none, and 0 everywhere without depths.
    """

    mask: Array
    triangle_index: Array
    barycentric: Array
    depth: Array


def _edge(a: Array, b: Array, p: Array) -> Array:
    """Twice the signed area of triangle ``(a, b, p)``: ``(b - a) x (p - a)``, 2D points ``(..., 2)``."""
    return (b[..., 0] - a[..., 0]) * (p[..., 1] - a[..., 1]) - (b[..., 1] - a[..., 1]) * (
        p[..., 0] - a[..., 0]
    )


def rasterize_triangles(
    pixel_coords_triangles: Array, image_dims: tuple[int, int], depths: Array | None = None
) -> Rasterization:
    """Rasterize image-space triangles with a depth test.

    A triangle covers a pixel if the pixel's centre lies inside it or on its
    boundary (either winding). Where triangles overlap, the nearest (smallest
    interpolated depth) wins, and among equal depths, or without depths, the one
    with the lowest index. Memory is ``O(H W T)``: meant for small scenes.

    Parameters
    ----------
    pixel_coords_triangles : array, shape (*B, T, 3, 2)
        The ``(u, v)`` pixel coordinates of each triangle's three vertices.
    image_dims : (int, int)
        ``(H, W)``.
    depths : array, shape (*B, T, 3), optional
        Each vertex's depth (camera ``z``, positive); the depth is interpolated
        perspective-correctly, ``1 / sum(b_i / d_i)`` for screen-space barycentric
        coordinates ``b``. Triangles with a vertex at depth ``<= 0`` are skipped
        (there is no near-plane clipping).

    Returns
    -------
    Rasterization
        ``(mask, triangle_index, barycentric, depth)``, see :class:`Rasterization`.
        Barycentric coordinates and depths are differentiable in the vertices.
    """
    check_last_dims(
        pixel_coords_triangles, (3, 2), "pixel_coords_triangles", "triangles of pixel coordinates"
    )
    check_floating(pixel_coords_triangles, "pixel_coords_triangles")
    height, width = check_image_dims(image_dims)
    tris = pixel_coords_triangles
    batch = tuple(tris.shape)[:-3]
    n_tris = tuple(tris.shape)[-3]
    grid = hd.reshape(pixel_grid_like(height, width, tris), (height * width, 1, 2))  # (P, 1, 2)
    a = tris[..., None, :, 0, :]  # (*B, 1, T, 2)
    b = tris[..., None, :, 1, :]
    c = tris[..., None, :, 2, :]
    area = _edge(a, b, c)  # (*B, 1, T)
    w_a = safe_divide(_edge(b, c, grid), area)  # (*B, P, T)
    w_b = safe_divide(_edge(c, a, grid), area)
    w_c = safe_divide(_edge(a, b, grid), area)
    inside = (w_a >= 0) & (w_b >= 0) & (w_c >= 0) & (hd.abs(area) > 0)
    bary = hd.stack([w_a, w_b, w_c], axis=-1)  # (*B, P, T, 3)
    if depths is not None:
        check_last_dim(depths, 3, "depths", "vertex depths")
        depths = hd.broadcast_to(depths, (*batch, n_tris, 3))[..., None, :, :]  # (*B, 1, T, 3)
        inside = inside & hd.all(depths > 0, axis=-1)
        inv_depth = bary * safe_divide(hd.ones_like(depths), depths)
        inv_sum = hd.sum(inv_depth, axis=-1)
        depth = safe_divide(hd.ones_like(inv_sum), inv_sum)
        bary = safe_divide(inv_depth, inv_sum[..., None])  # perspective-correct
    else:
        depth = hd.zeros_like(w_a)
    key = hd.where(inside, hd.stop_gradient(depth), math.inf)
    winner = hd.argmin(key, axis=-1, keepdims=True)  # (*B, P, 1): the first of equal minima
    mask = hd.any(inside, axis=-1)
    vis_depth = hd.take_along_axis(depth, winner, axis=-1)[..., 0]
    vis_bary = hd.take_along_axis(
        bary, hd.broadcast_to(winner[..., None], (*batch, height * width, 1, 3)), axis=-2
    )
    vis_bary = vis_bary[..., 0, :]
    zero = hd.zeros_like(vis_depth)
    vis_depth = hd.where(mask, vis_depth, zero)
    vis_bary = hd.where(mask[..., None], vis_bary, zero[..., None])
    index = hd.where(mask, hd.astype(winner[..., 0], hd.int32), -1)
    return Rasterization(
        hd.reshape(mask, (*batch, height, width)),
        hd.reshape(index, (*batch, height, width)),
        hd.reshape(vis_bary, (*batch, height, width, 3)),
        hd.reshape(vis_depth, (*batch, height, width)),
    )
