"""hedera.vision.rendering on every backend: quantize_to_image, coords_to_voxel_grid, rasterize_triangles.

References: a plain NumPy z-buffer loop, ``numpy.histogramdd`` (voxel counts and
sums), matplotlib's point-in-polygon test (triangle coverage) and ray-plane
intersections (depths).
"""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.path import Path

import hedera as hd
import hedera.vision as hv
from vision_reference import (
    check_gradient,
    seed_per_test,  # noqa: F401  (an autouse fixture)
    to_backend,
)

RNG = np.random.default_rng(5)


H, W = 6, 8


def zbuffer_reference(ds, features, height, width):
    """Nearest point per pixel by a loop over points in order (the first of equal depths wins)."""
    depth = np.zeros((height, width, 1))
    feats = np.zeros((height, width, features.shape[-1]))
    best = np.full((height, width), np.inf)
    for (ud, vd, d), f in zip(ds, features, strict=True):
        if d <= 0:
            continue
        col, row = int(np.floor(ud / d + 0.5)), int(np.floor(vd / d + 0.5))
        if 0 <= row < height and 0 <= col < width and d < best[row, col]:
            best[row, col] = d
            depth[row, col] = d
            feats[row, col] = f
    return depth, feats, np.isfinite(best)[..., None]


def random_ds_points(n):
    pix = np.stack([RNG.uniform(-2, W + 1, n), RNG.uniform(-2, H + 1, n)], -1)
    depth = RNG.uniform(-0.5, 4.0, (n, 1))  # some behind the camera
    depth[:5] = 1e-3  # exact ties in depth, nearer than any other point
    pix[:5] = [3.2, 2.9]  # ... at the same pixel
    return np.concatenate([pix * depth, depth], -1)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_quantize_to_image_is_a_depth_buffer(backend, dtype):
    ds = np.stack([random_ds_points(150), random_ds_points(150)]).astype(dtype).astype(np.float64)
    features = RNG.normal(size=(2, 150, 2)).astype(dtype).astype(np.float64)
    out = hv.quantize_to_image(to_backend(ds, backend, dtype), (H, W), to_backend(features, backend, dtype))
    assert tuple(out.depth.shape) == (2, H, W, 1) and tuple(out.features.shape) == (2, H, W, 2)
    for b in range(2):
        depth, feats, mask = zbuffer_reference(ds[b], features[b], H, W)
        np.testing.assert_array_equal(hd.to_numpy(out.mask)[b], mask)
        np.testing.assert_allclose(hd.to_numpy(out.depth)[b], depth, rtol=1e-6)
        np.testing.assert_allclose(hd.to_numpy(out.features)[b], feats, rtol=1e-6)
    assert hd.to_numpy(out.mask)[:, 3, 3].all()  # the tied points' pixel: the first one's features
    np.testing.assert_allclose(hd.to_numpy(out.features)[:, 3, 3], features[:, 0], rtol=1e-6)


def test_quantize_to_image_fill_values_and_no_features(backend):
    ds = np.array([[[1.0, 1.0, 1.0]]])
    out = hv.quantize_to_image(to_backend(ds, backend), (2, 3), fill_depth=-1.0)
    assert out.features is None
    expected = np.full((1, 2, 3, 1), -1.0)
    expected[0, 1, 1, 0] = 1.0
    np.testing.assert_array_equal(hd.to_numpy(out.depth), expected)
    feats = hv.quantize_to_image(
        to_backend(ds, backend), (2, 3), to_backend(np.ones((1, 1, 1)), backend), fill_features=7.0
    )
    assert hd.to_numpy(feats.features)[0, 0, 0, 0] == 7.0
    with pytest.raises(hd.ShapeError):
        hv.quantize_to_image(to_backend(ds, backend), (2, 3), to_backend(np.ones((1, 2, 1)), backend))


def test_quantize_to_image_gradients(autodiff_backend):
    ds = random_ds_points(45)[5:]  # without the exact ties (where the winner is not differentiable)
    features = RNG.normal(size=(40, 3))

    def by_features(f):
        return hv.quantize_to_image(hd.asarray(ds, backend=hd.backend_of(f)), (H, W), f).features

    def by_coords(p):
        return hv.quantize_to_image(p, (H, W)).depth

    check_gradient(by_features, features, autodiff_backend)
    grad = check_gradient(by_coords, ds, autodiff_backend)
    assert np.all(grad[:, :2] == 0)  # piecewise constant in the pixel position


def test_coords_to_voxel_grid_agrees_with_histogramdd(backend):
    coords = RNG.uniform(-1.2, 1.2, (2, 300, 3))
    coords[:, 0] = [1.0, 1.0, 1.0]  # on the upper bound: in the last voxel
    features = RNG.normal(size=(2, 300, 2))
    lower, upper = np.array([-1.0, -1.0, -1.0]), np.array([1.0, 1.0, 1.0])
    shape = (3, 4, 5)
    grid = hv.coords_to_voxel_grid(
        to_backend(coords, backend), shape, to_backend(lower, backend), to_backend(upper, backend),
        to_backend(features, backend),
    )  # fmt: skip
    ranges = list(zip(lower, upper, strict=True))
    for b in range(2):
        counts, _ = np.histogramdd(coords[b], bins=shape, range=ranges)
        np.testing.assert_array_equal(hd.to_numpy(grid.counts)[b, ..., 0], counts)
        safe = np.maximum(counts, 1)
        for k in range(3):
            sums, _ = np.histogramdd(coords[b], bins=shape, range=ranges, weights=coords[b, :, k])
            np.testing.assert_allclose(hd.to_numpy(grid.mean_coords)[b, ..., k], sums / safe, atol=1e-12)
        for k in range(2):
            sums, _ = np.histogramdd(coords[b], bins=shape, range=ranges, weights=features[b, :, k])
            np.testing.assert_allclose(hd.to_numpy(grid.mean_features)[b, ..., k], sums / safe, atol=1e-12)
    np.testing.assert_allclose(hd.to_numpy(grid.voxel_size), np.broadcast_to([2 / 3, 2 / 4, 2 / 5], (2, 3)))


def test_coords_to_voxel_grid_default_bounds(backend):
    coords = RNG.normal(size=(50, 3))
    grid = hv.coords_to_voxel_grid(to_backend(coords, backend), (2, 3, 2))
    counts, _ = np.histogramdd(coords, bins=(2, 3, 2))
    np.testing.assert_array_equal(hd.to_numpy(grid.counts)[..., 0], counts)
    assert grid.mean_features is None
    np.testing.assert_allclose(hd.to_numpy(grid.lower), coords.min(0), rtol=1e-12)
    # float32: every point, the maximum included, lands in the grid
    grid32 = hv.coords_to_voxel_grid(to_backend(coords, backend, np.float32), (3, 3, 3))
    assert grid32.counts.dtype == to_backend(coords, backend, np.float32).dtype
    assert float(hd.to_numpy(hd.sum(grid32.counts))) == 50
    with pytest.raises(hd.InvalidArgumentError):
        hv.coords_to_voxel_grid(to_backend(coords, backend), (2, 0, 2))


def test_coords_to_voxel_grid_gradients(autodiff_backend):
    coords = RNG.uniform(-0.9, 0.9, (20, 3))

    def means(c):
        b = hd.backend_of(c)
        lo, hi = hd.asarray([-1.0] * 3, backend=b), hd.asarray([1.0] * 3, backend=b)
        return hv.coords_to_voxel_grid(c, (2, 2, 2), lo, hi, features=c * c).mean_features

    check_gradient(means, coords, autodiff_backend)


def pixel_centres(height, width):
    vv, uu = np.mgrid[:height, :width]
    return np.stack([uu.ravel(), vv.ravel()], -1).astype(np.float64)


def test_rasterize_coverage_agrees_with_matplotlib(backend):
    tris = RNG.uniform(-1, 9, (2, 5, 3, 2))
    tris[..., 1] *= 0.7
    tris[0, 1] = tris[0, 1, ::-1]  # both windings
    out = hv.rasterize_triangles(to_backend(tris, backend), (H, W))
    centres = pixel_centres(H, W)
    for b in range(2):
        inside = np.stack([Path(t).contains_points(centres) for t in tris[b]], -1)  # (P, T)
        np.testing.assert_array_equal(hd.to_numpy(out.mask)[b].ravel(), inside.any(-1))
        first = np.where(inside.any(-1), inside.argmax(-1), -1)  # without depths: the lowest index wins
        np.testing.assert_array_equal(hd.to_numpy(out.triangle_index)[b].ravel(), first)
        # screen-space barycentric coordinates reproduce the pixel centre
        bary = hd.to_numpy(out.barycentric)[b].reshape(-1, 3)
        covered = first >= 0
        rebuilt = np.einsum("pk,pkd->pd", bary[covered], tris[b][first[covered]])
        np.testing.assert_allclose(rebuilt, centres[covered], atol=1e-9)
    assert out.triangle_index.dtype == to_backend(np.zeros(1, np.int32), backend, None).dtype


def test_rasterize_depth_is_the_nearest_surface(backend):
    calib = np.array([[6.0, 0, 3.5], [0, 6.0, 2.5], [0, 0, 1]])
    verts = np.concatenate(
        [RNG.uniform(-2.5, 2.5, (4, 3, 2)), RNG.uniform(2.0, 5.0, (4, 3, 1))], -1
    )  # camera frame
    proj = verts @ calib.T
    pix = proj[..., :2] / proj[..., 2:]
    out = hv.rasterize_triangles(to_backend(pix, backend), (H, W), to_backend(verts[..., 2], backend))
    centres = pixel_centres(H, W)
    rays = np.concatenate([centres, np.ones((H * W, 1))], -1) @ np.linalg.inv(calib).T  # z = 1
    normals = np.cross(verts[:, 1] - verts[:, 0], verts[:, 2] - verts[:, 0])
    plane_depth = np.sum(normals * verts[:, 0], -1) / (rays @ normals.T)  # (P, T): ray-plane intersections
    inside = np.stack([Path(t).contains_points(centres) for t in pix], -1)
    nearest = np.where(inside, plane_depth, np.inf)
    np.testing.assert_array_equal(hd.to_numpy(out.mask).ravel(), inside.any(-1))
    covered = inside.any(-1)
    np.testing.assert_allclose(hd.to_numpy(out.depth).ravel()[covered], nearest.min(-1)[covered], rtol=1e-9)
    np.testing.assert_array_equal(
        hd.to_numpy(out.triangle_index).ravel()[covered], nearest.argmin(-1)[covered]
    )
    np.testing.assert_array_equal(hd.to_numpy(out.depth).ravel()[~covered], 0.0)
    # perspective-correct barycentric coordinates interpolate the 3D vertices to the surface point
    bary = hd.to_numpy(out.barycentric).reshape(-1, 3)[covered]
    idx = nearest.argmin(-1)[covered]
    surface = np.einsum("pk,pkd->pd", bary, verts[idx])
    np.testing.assert_allclose(
        surface, rays[covered] * nearest.min(-1)[covered][:, None], rtol=1e-9, atol=1e-12
    )


def test_rasterize_skips_triangles_behind_the_camera(backend):
    tri = np.array([[[0.0, 0.0], [7.0, 0.0], [0.0, 5.0]]])
    out = hv.rasterize_triangles(
        to_backend(tri, backend), (H, W), to_backend(np.array([[1.0, -1.0, 1.0]]), backend)
    )
    assert not hd.to_numpy(out.mask).any()
    assert np.all(hd.to_numpy(out.triangle_index) == -1)


def test_rasterize_gradients(autodiff_backend):
    tri = np.array([[[-0.7, -0.4], [5.3, 0.2], [0.6, 4.9]]])
    depths = np.array([[1.5, 2.0, 3.0]])

    def raster(t):
        out = hv.rasterize_triangles(t, (4, 5), hd.asarray(depths, backend=hd.backend_of(t)))
        return hd.concat([out.depth[..., None], out.barycentric], axis=-1)

    check_gradient(raster, tri, autodiff_backend, rtol=1e-5, atol=1e-7)
