"""Render a depth image of spheres and cuboids with hedera.vision.quantize_to_image.

The same hedera code runs on NumPy, PyTorch, JAX and TensorFlow::

    python examples/render_scene.py                      # torch, jax and tensorflow (those installed)
    python examples/render_scene.py --backend jax --height 240 --width 320

The scene (world ``z`` up) is a floor slab, three spheres and two rotated
cuboids. Their surfaces are sampled parametrically (a Fibonacci lattice on each
sphere, a regular grid on each cuboid face, about ``--density`` points per unit
area), projected into a pinhole camera with :func:`hedera.vision.world_to_ds_pixel_coords`
and forward-warped into the image with :func:`hedera.vision.quantize_to_image`,
whose depth buffer keeps the nearest point per pixel (so occlusions come out
right). Each point carries its surface normal and object index as features, for
a shaded rendering.

As a cross-check, the same scene is also ray-marched (sphere tracing) through
its signed distance function (:func:`hedera.vision.sphere_signed_distances` and
:func:`hedera.vision.cuboid_signed_distances`) along the rays of
:func:`hedera.vision.pixel_coords_to_world_ray_vectors`; the script prints the
fraction of pixels where both renderings agree to 2%.

Saves ``examples/out/render_scene_<backend>.png`` (the depth image and the
shaded image side by side) and prints the time taken per backend. Depths are
camera ``z`` (not distances along the ray).
"""

from __future__ import annotations

import argparse
import math
import pathlib
import time
from typing import Any

import numpy as np
from _shared import add_backend_argument, add_jit_argument, add_out_argument, save_figure, selected_backends

import hedera as hd
import hedera.mech as mech
import hedera.vision as hv

BACKENDS = ("numpy", "torch", "jax", "tensorflow")

SPHERE_CENTERS = np.array([[-1.0, 0.4, 0.6], [0.9, 1.3, 0.45], [0.3, -1.0, 0.3]])
SPHERE_RADII = np.array([0.6, 0.45, 0.3])
CUBOID_CENTERS = np.array([[0.0, 0.0, -0.05], [1.3, -0.3, 0.4], [-0.5, 1.9, 0.25]])
CUBOID_DIMS = np.array([[5.0, 5.0, 0.1], [0.8, 0.6, 0.8], [1.4, 0.4, 0.5]])
CUBOID_YAWS = np.radians([0.0, 30.0, -20.0])  # rotations about the world z axis
CAMERA_CENTER = np.array([4.2, -3.6, 3.0])
CAMERA_TARGET = np.array([0.0, 0.3, 0.3])


def cuboid_poses() -> np.ndarray:
    """Matrix poses ``[R | t]`` (cuboid frame to world) of the cuboids, ``(C, 3, 4)``."""
    rot = hd.to_numpy(mech.rot_vec_to_rot_mat(np.stack([0 * CUBOID_YAWS, 0 * CUBOID_YAWS, CUBOID_YAWS], -1)))
    return np.concatenate([rot, CUBOID_CENTERS[..., None]], axis=-1)


def camera(image_dims: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """``K`` and the extrinsic matrix ``[R | t]`` of a camera looking at the scene."""
    height, width = image_dims
    focal = 0.9 * width
    calib = np.array([[focal, 0.0, (width - 1) / 2], [0.0, focal, (height - 1) / 2], [0.0, 0.0, 1.0]])
    # hedera.mech's look-at frame has z towards the target; with "up" = -z its x is right and its y down,
    # which is the camera frame (x right, y down, z forward); its columns are the camera axes in the world
    axes = hd.to_numpy(
        mech.target_facing_rotation_matrix(CAMERA_CENTER, CAMERA_TARGET, np.array([0.0, 0, -1]))
    )
    ext = hd.to_numpy(hv.rot_mat_and_cam_center_to_ext_mat(axes.T, CAMERA_CENTER))
    return calib, ext


def fibonacci_sphere(n: int, like: Any) -> Any:
    """``n`` nearly uniform unit vectors ``(n, 3)`` (a Fibonacci lattice), in ``like``'s backend and dtype."""
    with hd.use_backend(hd.backend_of(like)):
        i = hd.arange(n, dtype=like.dtype) + 0.5
    z = 1.0 - 2.0 * i / n
    r = hd.sqrt(hd.clip(1.0 - z * z, 0.0, 1.0))
    phi = i * (math.pi * (3.0 - math.sqrt(5.0)))
    return hd.stack([r * hd.cos(phi), r * hd.sin(phi), z], axis=-1)


def sample_spheres(centers: Any, radii: Any, counts: list[int]) -> tuple[Any, Any, Any]:
    """Points, normals and object indices on the spheres' surfaces, ``counts[k]`` points on sphere ``k``."""
    points, normals, ids = [], [], []
    for k, n in enumerate(counts):
        dirs = fibonacci_sphere(n, centers)
        points.append(centers[k] + radii[k] * dirs)
        normals.append(dirs)
        ids.append(hd.full_like(dirs[:, 0], float(k)))
    return hd.concat(points, axis=0), hd.concat(normals, axis=0), hd.concat(ids, axis=0)


def sample_cuboids(poses: Any, dims: np.ndarray, density: float, first_id: int) -> tuple[Any, Any, Any]:
    """Points, normals and object indices on the cuboids' faces: a regular grid on each face."""
    points, normals, ids = [], [], []
    step = 1.0 / math.sqrt(density)
    for k in range(dims.shape[0]):
        half = dims[k] / 2
        for axis in range(3):
            a, b = [i for i in range(3) if i != axis]
            na, nb = (max(2, math.ceil(dims[k][i] / step)) for i in (a, b))
            with hd.use_backend(hd.backend_of(poses)):
                ua = hd.linspace(-half[a], half[a], na, dtype=poses.dtype)
                ub = hd.linspace(-half[b], half[b], nb, dtype=poses.dtype)
            ga, gb = (hd.reshape(g, (-1,)) for g in hd.meshgrid(ua, ub, indexing="ij"))
            for sign in (-1.0, 1.0):
                coords = [None, None, None]
                coords[a], coords[b], coords[axis] = ga, gb, hd.full_like(ga, sign * half[axis])
                local = hd.stack(coords, axis=-1)
                normal_local = hd.stack(
                    [hd.full_like(ga, sign if i == axis else 0.0) for i in range(3)], axis=-1
                )
                points.append(mech.transform_coords(poses[k], local))
                normals.append(hd.matmul(normal_local, hd.matrix_transpose(poses[k][:, :3])))
                ids.append(hd.full_like(ga, float(first_id + k)))
    return hd.concat(points, axis=0), hd.concat(normals, axis=0), hd.concat(ids, axis=0)


def cuboid_point_count(density: float) -> int:
    """How many points :func:`sample_cuboids` puts on the cuboids."""
    step = 1.0 / math.sqrt(density)
    total = 0
    for dims in CUBOID_DIMS:
        for axis in range(3):
            a, b = [i for i in range(3) if i != axis]
            total += 2 * max(2, math.ceil(dims[a] / step)) * max(2, math.ceil(dims[b] / step))
    return total


def scene_sdf(points: Any, scene: dict[str, Any]) -> Any:
    """Signed distance ``(N,)`` from points ``(N, 3)`` to the union of all the objects."""
    spheres = hv.sphere_signed_distances(points, scene["sphere_centers"], scene["sphere_radii"])
    cuboids = hv.cuboid_signed_distances(points, scene["cuboid_poses"], scene["cuboid_dims"])
    return hd.minimum(spheres, cuboids)


def march_step(t: Any, origin: Any, rays: Any, scene: dict[str, Any]) -> Any:
    """One sphere-tracing step: advance each ray by the scene's signed distance at its current point."""
    return hd.minimum(t + scene_sdf(origin + t[:, None] * rays, scene), 100.0)


def ray_march(
    scene: dict[str, Any], calib: Any, ext: Any, image_dims: tuple[int, int], steps: int, jit: bool
) -> Any:
    """Depth image ``(H, W)`` by sphere tracing the scene's SDF; 0 where a ray hits nothing."""
    with hd.use_backend(hd.backend_of(calib)):
        pixels = hv.create_uniform_pixel_coords_image(image_dims, homogeneous=False, dtype=calib.dtype)
    inv_ext = hv.ext_mat_to_inv_ext_mat(ext)
    rays = hv.pixel_coords_to_world_ray_vectors(pixels, hv.calib_mat_to_inv_calib_mat(calib), inv_ext)
    rays = hd.reshape(rays, (-1, 3))
    origin = inv_ext[:, 3]
    step = hd.jit(march_step) if jit else march_step
    t = hd.zeros_like(rays[:, 0])
    for _ in range(steps):
        t = step(t, origin, rays, scene)
    hit_points = origin + t[:, None] * rays
    hit = hd.abs(scene_sdf(hit_points, scene)) < 1e-3
    depth = hv.world_to_cam_coords(hit_points, ext)[:, 2]
    return hd.reshape(hd.where(hit, depth, 0.0), image_dims)


def splat_surfaces(
    scene: dict[str, Any], calib: Any, ext: Any, image_dims: tuple[int, int], density: float
) -> hv.QuantizedImage:
    """Sample the objects' surfaces and render them with :func:`hedera.vision.quantize_to_image`.

    Features per pixel: the surface normal (3) and the object index (1).
    """
    counts = [max(16, int(density * 4 * math.pi * r**2)) for r in SPHERE_RADII]
    sp, sn, si = sample_spheres(scene["sphere_centers"], scene["sphere_radii"], counts)
    cp, cn, ci = sample_cuboids(scene["cuboid_poses"], CUBOID_DIMS, density, first_id=len(SPHERE_RADII))
    points = hd.concat([sp, cp], axis=0)
    features = hd.concat([hd.concat([sn, cn], axis=0), hd.concat([si, ci], axis=0)[:, None]], axis=-1)
    ds_pixels = hv.world_to_ds_pixel_coords(points, hv.calib_and_ext_to_full_mat(calib, ext))
    return hv.quantize_to_image(ds_pixels, image_dims, features)


def render(
    backend: str,
    image_dims: tuple[int, int] = (120, 160),
    density: float = 2500.0,
    march_steps: int = 80,
    jit: bool | None = None,
) -> dict[str, Any]:
    """Render the scene on ``backend``: depth and shading by point splatting, and a ray-marched depth.

    ``jit=None`` compiles the splatting and the marching step with ``hd.jit`` on jax and
    tensorflow (where it saves most of the time) but not on torch.
    """
    start = time.perf_counter()
    if jit is None:
        jit = backend in ("jax", "tensorflow")

    def arr(a: Any) -> Any:
        return hd.asarray(np.asarray(a, dtype=np.float32), backend=backend)

    calib_np, ext_np = camera(image_dims)
    calib, ext = arr(calib_np), arr(ext_np)
    scene = {
        "sphere_centers": arr(SPHERE_CENTERS),
        "sphere_radii": arr(SPHERE_RADII),
        "cuboid_poses": arr(cuboid_poses()),
        "cuboid_dims": arr(CUBOID_DIMS),
    }
    splat = hd.jit(splat_surfaces, static_argnums=(3, 4)) if jit else splat_surfaces
    image = splat(scene, calib, ext, image_dims, density)
    marched = hd.to_numpy(ray_march(scene, calib, ext, image_dims, march_steps, jit)).astype(np.float64)
    depth = hd.to_numpy(image.depth)[..., 0].astype(np.float64)
    mask = hd.to_numpy(image.mask)[..., 0]
    feats = hd.to_numpy(image.features)
    both = mask & (marched > 0)
    agree = np.abs(depth - marched) <= 0.02 * marched
    return {
        "depth": depth,
        "mask": mask,
        "normals": feats[..., :3],
        "object": np.where(mask, np.rint(feats[..., 3]).astype(int), -1),
        "marched_depth": marched,
        "agreement": float(np.mean(agree[both])) if both.any() else 0.0,
        "n_points": sum(max(16, int(density * 4 * math.pi * r**2)) for r in SPHERE_RADII)
        + cuboid_point_count(density),
        "calib": calib_np,
        "ext": ext_np,
        "seconds": time.perf_counter() - start,
    }


def save_png(path: pathlib.Path, result: dict[str, Any], backend: str) -> None:
    """The depth image and a Lambert-shaded image, side by side (matplotlib, Agg)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    light_world = np.array([0.4, -0.6, 1.0]) / np.linalg.norm([0.4, -0.6, 1.0])
    shade = np.clip(result["normals"] @ light_world, 0.0, 1.0) * 0.75 + 0.25
    colours = plt.get_cmap("tab10")(np.maximum(result["object"], 0) % 10)[..., :3] * shade[..., None]
    colours[~result["mask"]] = 1.0
    depth = np.where(result["mask"], result["depth"], np.nan)
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), dpi=100)
    im = axes[0].imshow(depth, cmap="viridis")
    fig.colorbar(im, ax=axes[0], label="depth (camera z)")
    axes[0].set_title(f"depth, quantize_to_image ({backend})")
    axes[1].imshow(colours)
    axes[1].set_title(f"{result['n_points']} points; ray marching agrees: {result['agreement']:.1%}")
    for ax in axes:
        ax.set_xticks([])
        ax.set_yticks([])
    fig.tight_layout()
    save_figure(fig, path)


def main(argv: list[str] | None = None) -> dict[str, dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_backend_argument(parser, BACKENDS)
    parser.add_argument("--height", type=int, default=120, help="image height in pixels (default 120)")
    parser.add_argument("--width", type=int, default=160, help="image width in pixels (default 160)")
    parser.add_argument(
        "--density", type=float, default=2500.0, help="surface points per unit area (default 2500)"
    )
    parser.add_argument("--march-steps", type=int, default=80, help="sphere-tracing steps (default 80)")
    add_jit_argument(parser)
    add_out_argument(parser)
    args = parser.parse_args(argv)

    results = {}
    print(
        f"{'backend':<12}{'points':>10}{'covered pixels':>16}{'agreement with ray marching':>30}"
        f"{'time (s)':>10}"
    )
    for backend in selected_backends(args):
        r = render(backend, (args.height, args.width), args.density, args.march_steps, args.jit)
        r["png"] = args.out / f"render_scene_{backend}.png"
        save_png(r["png"], r, backend)
        results[backend] = r
        print(
            f"{backend:<12}{r['n_points']:>10}{r['mask'].mean():>16.1%}{r['agreement']:>30.1%}"
            f"{r['seconds']:>10.1f}"
        )
    return results


if __name__ == "__main__":
    main()
