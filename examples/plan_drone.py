"""Plan a drone's path around obstacles by gradient descent on spline anchors (hedera.robot).

The same hedera code runs on PyTorch, JAX and TensorFlow::

    python examples/plan_drone.py                     # on torch
    python examples/plan_drone.py --backend jax --steps 400

The drone is a :class:`hedera.robot.RigidMobile`: five points on its body (its centre and
the four rotor hubs, 0.15 m out along its diagonals). Its path is a 6-D polyharmonic
spline (:func:`hedera.robot.sample_spline_path`, a natural cubic spline in time) through
``n`` anchor poses ``(x, y, z, rx, ry, rz)`` (position in metres, rotation vector in
radians); the first anchor is the fixed start pose, the other ``n - 1`` are optimised
with ``hd.optim.Adam`` on gradients from ``hd.value_and_grad`` (the step is compiled
with ``hd.jit`` on jax and tensorflow). The cost of a path is

* ``100 |p(1) - goal|^2``: reach the goal;
* ``sum_k |p(t_{k+1}) - p(t_k)|^2 * n_samples``: short and smooth (the integral of the
  squared speed);
* ``10000 * mean(max(margin - sd, 0)^2)`` over every body point of every sampled pose,
  with ``sd`` the signed distance to the nearest obstacle from
  :func:`hedera.vision.sphere_signed_distances` and
  :func:`hedera.vision.cuboid_signed_distances`, and a 0.15 m margin;
* ``0.1 |r|^2``: stay level.

The initial path is the straight line from start to goal, which runs through a sphere
and a rotated cuboid. The script prints the cost and the minimum clearance (the smallest
signed distance from any body point to any obstacle, on a path sampled 4 times more
densely than during optimisation) before and after, and the distance to the goal; the
clearance after optimisation is positive. A plot of both paths seen from above and from
the side is saved as ``examples/out/plan_drone_<backend>.png``.
"""

from __future__ import annotations

import argparse
import math
import pathlib
import time
from typing import Any

import numpy as np
from _shared import AUTODIFF_BACKENDS, add_jit_argument, add_out_argument, jit_by_default, save_figure

import hedera as hd
import hedera.vision as vision
from hedera.robot import RigidMobile, sample_spline_path

MARGIN = 0.15  # metres kept between body points and obstacles by the cost
BODY = [[0.0, 0.0, 0.0], [0.15, 0.15, 0.0], [0.15, -0.15, 0.0], [-0.15, 0.15, 0.0], [-0.15, -0.15, 0.0]]


def _z_rotation(degrees: float) -> np.ndarray:
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def make_scene() -> dict[str, np.ndarray]:
    """Start and goal, two spheres and two cuboids (NumPy, float64, metres)."""
    pillar = np.concatenate([_z_rotation(30.0), [[2.8], [-0.15], [1.0]]], axis=1)
    box = np.concatenate([_z_rotation(-15.0), [[3.5], [0.5], [0.7]]], axis=1)
    return {
        "start": np.array([0.0, 0.0, 1.0, 0.0, 0.0, 0.0]),  # position, rotation vector
        "goal": np.array([4.2, 0.0, 1.0]),
        "sphere_centers": np.array([[1.2, 0.1, 1.0], [2.1, 0.9, 1.4]]),
        "sphere_radii": np.array([0.5, 0.35]),
        "cuboid_poses": np.stack([pillar, box]),  # cuboid frame -> world, [R | t]
        "cuboid_dims": np.array([[0.6, 0.6, 2.0], [0.5, 0.5, 0.5]]),  # full side lengths
    }


def initial_anchors(scene: dict[str, np.ndarray], n_anchors: int) -> np.ndarray:
    """The free anchors ``(n_anchors - 1, 6)`` of the straight path from start to goal."""
    s = np.linspace(0.0, 1.0, n_anchors)[1:, None]
    positions = scene["start"][:3] + s * (scene["goal"] - scene["start"][:3])
    return np.concatenate([positions, np.zeros_like(positions)], axis=-1)


def times(n: int, like: Any) -> Any:
    """``n`` evenly spaced times in ``[0, 1]``, shape ``(n, 1)``, on ``like``'s backend and dtype."""
    return hd.asarray(np.linspace(0.0, 1.0, n)[:, None], dtype=like.dtype, backend=hd.backend_of(like))


def sample_path(start: Any, free_anchors: Any, n_samples: int) -> Any:
    """Poses ``(n_samples, 6)`` along the spline through ``start`` and the free anchors."""
    anchors = hd.concat([start[None, :], free_anchors], axis=0)
    return sample_spline_path(times(anchors.shape[0], anchors), anchors, times(n_samples, anchors))


def signed_distances(points: Any, obstacles: dict[str, Any]) -> Any:
    """Signed distance ``(N,)`` from points ``(N, 3)`` to the nearest obstacle."""
    to_spheres = vision.sphere_signed_distances(
        points, obstacles["sphere_centers"], obstacles["sphere_radii"]
    )
    to_cuboids = vision.cuboid_signed_distances(points, obstacles["cuboid_poses"], obstacles["cuboid_dims"])
    return hd.minimum(to_spheres, to_cuboids)


def body_points(drone: RigidMobile, poses: Any) -> Any:
    """Every body point of every pose, ``(n_poses * 5, 3)``."""
    return hd.reshape(drone.sample_body_at_rot_vec_poses(poses), (-1, 3))


def path_cost(params: hd.Container, consts: dict[str, Any], drone: RigidMobile, n_samples: int) -> Any:
    """The scalar cost of the path through ``params["anchors"]`` (see the module docstring)."""
    poses = sample_path(consts["start"], params["anchors"], n_samples)
    positions = poses[:, :3]
    goal = hd.sum((positions[-1] - consts["goal"]) ** 2)
    length = hd.sum((positions[1:] - positions[:-1]) ** 2) * float(n_samples)
    sd = signed_distances(body_points(drone, poses), consts)
    collision = hd.mean(hd.maximum(MARGIN - sd, hd.zeros_like(sd)) ** 2)
    level = hd.sum(poses[:, 3:] ** 2) / float(n_samples)
    return 100.0 * goal + length + 10000.0 * collision + 0.1 * level


def report(params: hd.Container, consts: dict[str, Any], drone: RigidMobile, n_samples: int) -> tuple:
    """``(cost, minimum clearance, poses)`` with the poses and clearance on ``4 * n_samples``
    poses (a denser sampling than the optimisation's)."""
    poses = sample_path(consts["start"], params["anchors"], 4 * n_samples)
    clearance = hd.min(signed_distances(body_points(drone, poses), consts))
    return path_cost(params, consts, drone, n_samples), clearance, poses


def plan(
    backend: str,
    steps: int = 300,
    n_anchors: int = 6,
    n_samples: int = 48,
    lr: float = 0.05,
    jit: bool | None = None,
    quiet: bool = False,
) -> dict[str, Any]:
    """Optimise the path on ``backend``; returns costs, clearances, goal error, paths (NumPy), time."""
    from tqdm import tqdm

    jit = jit_by_default(backend, jit)
    scene = make_scene()
    drone = RigidMobile(BODY)
    consts = {k: hd.asarray(v, dtype=hd.float32, backend=backend) for k, v in scene.items()}
    params = hd.Container(
        {"anchors": hd.asarray(initial_anchors(scene, n_anchors), dtype=hd.float32, backend=backend)}
    )
    opt = hd.optim.Adam(lr)

    def step(params: hd.Container, opt_state: hd.Container) -> tuple:
        cost, grads = hd.value_and_grad(path_cost)(params, consts, drone, n_samples)
        params, opt_state = opt.update(grads, opt_state, params)
        return params, opt_state, cost

    step_fn = hd.jit(step) if jit else step

    def report_fn(params: hd.Container) -> tuple:
        return report(params, consts, drone, n_samples)

    report_fn = hd.jit(report_fn) if jit else report_fn  # one compilation, not one per eager op
    initial = [hd.to_numpy(x) for x in report_fn(params)]
    start = time.perf_counter()
    opt_state = opt.init(params)
    costs = []
    for _ in tqdm(range(steps), desc=f"plan_drone {backend:<10}", unit="step", leave=False, disable=quiet):
        params, opt_state, cost = step_fn(params, opt_state)
        costs.append(cost)
    costs = [float(c) for c in hd.to_numpy(hd.stack(costs))] if costs else []
    seconds = time.perf_counter() - start
    final = [hd.to_numpy(x) for x in report_fn(params)]
    return {
        "initial_cost": float(initial[0]),
        "final_cost": float(final[0]),
        "initial_clearance": float(initial[1]),
        "final_clearance": float(final[1]),
        "goal_error": float(np.linalg.norm(final[2][-1, :3] - scene["goal"])),
        "costs": costs,
        "initial_path": initial[2],
        "final_path": final[2],
        "scene": scene,
        "seconds": seconds,
    }


def _turn(o: tuple, a: tuple, b: tuple) -> float:
    """The z-component of ``(a - o) x (b - o)``: positive for a left turn."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def convex_hull(points: np.ndarray) -> np.ndarray:
    """The convex hull of 2-D points, counter-clockwise (Andrew's monotone chain)."""
    pts = sorted(map(tuple, points))

    def half(seq: list) -> list:
        out: list = []
        for p in seq:
            while len(out) >= 2 and _turn(out[-2], out[-1], p) <= 0:
                out.pop()
            out.append(p)
        return out[:-1]

    return np.array(half(pts) + half(pts[::-1]))


def plot(result: dict[str, Any], backend: str, path: pathlib.Path) -> None:
    """Top and side views of the initial and optimised paths with the obstacles, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Circle, Polygon

    scene = result["scene"]
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    for ax, (i, j), name in zip(axes, [(0, 1), (0, 2)], ["top view (x, y)", "side view (x, z)"], strict=True):
        for c, r in zip(scene["sphere_centers"], scene["sphere_radii"], strict=True):
            ax.add_patch(Circle((c[i], c[j]), r, color="tab:red", alpha=0.35))
        for pose, dims in zip(scene["cuboid_poses"], scene["cuboid_dims"], strict=True):
            corners = (
                np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]) * dims / 2
            )
            world = corners @ pose[:, :3].T + pose[:, 3]
            ax.add_patch(Polygon(convex_hull(world[:, [i, j]]), color="tab:orange", alpha=0.35))
        for key, style, label in [("initial_path", "--", "before"), ("final_path", "-", "after")]:
            ax.plot(result[key][:, i], result[key][:, j], style, color="tab:blue", label=label)
        ax.plot(*scene["start"][[i, j]], "go", label="start")
        ax.plot(*scene["goal"][[i, j]], "k*", markersize=12, label="goal")
        ax.set_aspect("equal")
        ax.set_xlim(-0.5, 4.7)
        ax.set_ylim(-1.3, 2.0)
        ax.set_title(name)
        ax.set_xlabel("x (m)")
    axes[0].legend(loc="lower right")
    fig.suptitle(
        f"plan_drone on {backend}: minimum clearance {result['initial_clearance']:.3f} m before, "
        f"{result['final_clearance']:.3f} m after"
    )
    fig.tight_layout()
    save_figure(fig, path, dpi=100)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--backend", choices=AUTODIFF_BACKENDS, default="torch", help="backend (default torch)"
    )
    parser.add_argument("--steps", type=int, default=300, help="Adam steps (default 300)")
    parser.add_argument("--anchors", type=int, default=6, help="spline anchors, start included (default 6)")
    parser.add_argument("--lr", type=float, default=0.05, help="Adam learning rate (default 0.05)")
    add_jit_argument(parser)
    add_out_argument(parser)
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)

    result = plan(
        args.backend, steps=args.steps, n_anchors=args.anchors, lr=args.lr, jit=args.jit, quiet=args.quiet
    )
    out = args.out / f"plan_drone_{args.backend}.png"
    plot(result, args.backend, out)
    print(f"backend {args.backend}: {args.steps} steps in {result['seconds']:.1f} s")
    print(f"  cost              {result['initial_cost']:10.4f} -> {result['final_cost']:.4f}")
    print(f"  min clearance (m) {result['initial_clearance']:10.4f} -> {result['final_clearance']:.4f}")
    print(f"  distance to goal  {result['goal_error']:.4f} m")
    print(f"  plot: {out}")
    return result


if __name__ == "__main__":
    main()
