"""Plan a Franka Panda's joint-space path around obstacles by gradient descent on spline anchors.

The same hedera code runs on PyTorch, JAX and TensorFlow::

    python examples/plan_manipulator.py                 # on torch
    python examples/plan_manipulator.py --backend jax --steps 400

The arm is :class:`hedera.robot.PandaManipulator` (Franka's modified DH parameters, end
effector at the Franka Hand's tool centre point). Its path is a 7-D polyharmonic spline
(:func:`hedera.robot.sample_spline_path`, a natural cubic spline in time) through ``n``
joint-space anchors (radians); the first is the fixed start configuration, the other
``n - 1`` are optimised with ``hd.optim.Adam`` on gradients from ``hd.value_and_grad``
(the step is compiled with ``hd.jit`` on jax and tensorflow). The task: move the hand
from the start to a goal position (the hand's position at a goal configuration, a
quarter turn of the base joint away) without touching a sphere and a cuboid that the
straight joint-space path runs through. The cost of a path is

* ``100 |x_ee(q(1)) - goal|^2``: the hand reaches the goal position (metres);
* ``0.1 sum_k |q(t_{k+1}) - q(t_k)|^2 * n_samples``: short and smooth in joint space;
* ``10000 * mean(max(margin - (sd - r), 0)^2)`` over points sampled along the arm's DH
  skeleton (:meth:`hedera.robot.Manipulator.sample_links`, 20 per metre) at every sampled
  configuration: ``sd`` is the signed distance to the nearest obstacle from
  :func:`hedera.vision.sphere_signed_distances` and
  :func:`hedera.vision.cuboid_signed_distances`, ``r = 0.05`` m the links' radius (the arm
  is modelled as capsules around its skeleton) and the margin 0.05 m;
* ``100 sum max(|q - centre| - half_range, 0)^2``: stay within Franka's joint limits.

The script prints the cost, the minimum clearance (the smallest signed distance from the
capsules to any obstacle, ``min(sd) - r``, on a path sampled 4 times more densely than
during optimisation) before and after, and the distance from the hand to the goal; the
clearance after optimisation is positive. A plot of the arm along both paths is saved as
``examples/out/plan_manipulator_<backend>.png``.
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
from hedera.robot import PandaManipulator, sample_spline_path

LINK_RADIUS = 0.05  # metres: the arm as capsules around its DH skeleton
MARGIN = 0.05  # metres kept between the capsules and the obstacles by the cost
SAMPLES_PER_METRE = 20.0
#: Franka's joint limits (radians), from its "Robot and interface specifications"
Q_MIN = np.array([-2.8973, -1.7628, -2.8973, -3.0718, -2.8973, -0.0175, -2.8973])
Q_MAX = np.array([2.8973, 1.7628, 2.8973, -0.0698, 2.8973, 3.7525, 2.8973])


def make_scene(panda: PandaManipulator) -> dict[str, np.ndarray]:
    """Start and goal configurations, the goal position, a sphere and a cuboid (NumPy, float64)."""
    q_start = np.array([0.0, -0.5, 0.0, -2.3, 0.0, 1.9, math.pi / 4])
    q_goal = q_start + np.array([1.6, 0, 0, 0, 0, 0, 0])
    angle = 1.1  # the cuboid sits on the hand's arc at this base angle, turned to face the base
    c, s = math.cos(angle), math.sin(angle)
    cuboid = np.array([[c, -s, 0.0, 0.36 * c], [s, c, 0.0, 0.36 * s], [0.0, 0.0, 1.0, 0.55]])
    return {
        "q_start": q_start,
        "q_goal": q_goal,
        "goal": np.asarray(panda.end_effector_pose(q_goal))[:, 3],
        "sphere_centers": np.array([[0.42 * math.cos(0.5), 0.42 * math.sin(0.5), 0.46]]),
        "sphere_radii": np.array([0.08]),
        "cuboid_poses": cuboid[None],
        "cuboid_dims": np.array([[0.12, 0.12, 0.12]]),
    }


def times(n: int, like: Any) -> Any:
    """``n`` evenly spaced times in ``[0, 1]``, shape ``(n, 1)``, on ``like``'s backend and dtype."""
    return hd.asarray(np.linspace(0.0, 1.0, n)[:, None], dtype=like.dtype, backend=hd.backend_of(like))


def sample_path(q_start: Any, free_anchors: Any, n_samples: int) -> Any:
    """Joint angles ``(n_samples, 7)`` along the spline through ``q_start`` and the free anchors."""
    anchors = hd.concat([q_start[None, :], free_anchors], axis=0)
    return sample_spline_path(times(anchors.shape[0], anchors), anchors, times(n_samples, anchors))


def signed_distances(points: Any, obstacles: dict[str, Any]) -> Any:
    """Signed distance ``(N,)`` from points ``(N, 3)`` to the nearest obstacle."""
    to_spheres = vision.sphere_signed_distances(
        points, obstacles["sphere_centers"], obstacles["sphere_radii"]
    )
    to_cuboids = vision.cuboid_signed_distances(points, obstacles["cuboid_poses"], obstacles["cuboid_dims"])
    return hd.minimum(to_spheres, to_cuboids)


def arm_clearances(panda: PandaManipulator, q_path: Any, consts: dict[str, Any]) -> Any:
    """Clearance of the arm's capsules ``(n_samples * n_points,)`` along the path, in metres."""
    points = hd.reshape(panda.sample_links(q_path, samples_per_metre=SAMPLES_PER_METRE), (-1, 3))
    return signed_distances(points, consts) - LINK_RADIUS


def path_cost(params: hd.Container, consts: dict[str, Any], panda: PandaManipulator, n_samples: int) -> Any:
    """The scalar cost of the path through ``params["anchors"]`` (see the module docstring)."""
    q = sample_path(consts["q_start"], params["anchors"], n_samples)
    ee = panda.end_effector_pose(q[-1])[:, 3]
    goal = hd.sum((ee - consts["goal"]) ** 2)
    length = hd.sum((q[1:] - q[:-1]) ** 2) * float(n_samples)
    clearance = arm_clearances(panda, q, consts)
    collision = hd.mean(hd.maximum(MARGIN - clearance, hd.zeros_like(clearance)) ** 2)
    half, centre = (consts["q_max"] - consts["q_min"]) / 2.0, (consts["q_max"] + consts["q_min"]) / 2.0
    over = hd.maximum(hd.abs(q - centre) - half, hd.zeros_like(q))
    return 100.0 * goal + 0.1 * length + 10000.0 * collision + 100.0 * hd.sum(over**2)


def report(params: hd.Container, consts: dict[str, Any], panda: PandaManipulator, n_samples: int) -> tuple:
    """``(cost, minimum clearance, joint path)`` with the path and clearance on ``4 * n_samples``
    configurations (a denser sampling than the optimisation's)."""
    q = sample_path(consts["q_start"], params["anchors"], 4 * n_samples)
    return path_cost(params, consts, panda, n_samples), hd.min(arm_clearances(panda, q, consts)), q


def plan(
    backend: str,
    steps: int = 300,
    n_anchors: int = 5,
    n_samples: int = 32,
    lr: float = 0.03,
    jit: bool | None = None,
    quiet: bool = False,
) -> dict[str, Any]:
    """Optimise the path on ``backend``; returns costs, clearances, goal error, paths (NumPy), time."""
    from tqdm import tqdm

    jit = jit_by_default(backend, jit)
    panda = PandaManipulator(hand=True)
    scene = make_scene(panda)
    consts = {k: hd.asarray(v, dtype=hd.float32, backend=backend) for k, v in scene.items()}
    consts["q_min"] = hd.asarray(Q_MIN, dtype=hd.float32, backend=backend)
    consts["q_max"] = hd.asarray(Q_MAX, dtype=hd.float32, backend=backend)
    s = np.linspace(0.0, 1.0, n_anchors)[1:, None]
    straight = scene["q_start"] + s * (scene["q_goal"] - scene["q_start"])  # (n_anchors - 1, 7)
    params = hd.Container({"anchors": hd.asarray(straight, dtype=hd.float32, backend=backend)})
    opt = hd.optim.Adam(lr)

    def step(params: hd.Container, opt_state: hd.Container) -> tuple:
        cost, grads = hd.value_and_grad(path_cost)(params, consts, panda, n_samples)
        params, opt_state = opt.update(grads, opt_state, params)
        return params, opt_state, cost

    step_fn = hd.jit(step) if jit else step

    def report_fn(params: hd.Container) -> tuple:
        return report(params, consts, panda, n_samples)

    report_fn = hd.jit(report_fn) if jit else report_fn  # one compilation, not one per eager op
    initial = [hd.to_numpy(x) for x in report_fn(params)]
    start = time.perf_counter()
    opt_state = opt.init(params)
    costs = []
    for _ in tqdm(
        range(steps), desc=f"plan_manipulator {backend:<10}", unit="step", leave=False, disable=quiet
    ):
        params, opt_state, cost = step_fn(params, opt_state)
        costs.append(cost)
    costs = [float(c) for c in hd.to_numpy(hd.stack(costs))] if costs else []
    seconds = time.perf_counter() - start
    final = [hd.to_numpy(x) for x in report_fn(params)]
    final_path = final[2]
    ee = hd.to_numpy(panda.end_effector_pose(hd.asarray(final_path[-1], backend="numpy")))[:, 3]
    return {
        "initial_cost": float(initial[0]),
        "final_cost": float(final[0]),
        "initial_clearance": float(initial[1]),
        "final_clearance": float(final[1]),
        "goal_error": float(np.linalg.norm(ee - scene["goal"])),
        "within_limits": bool(np.all((final_path >= Q_MIN - 1e-3) & (final_path <= Q_MAX + 1e-3))),
        "costs": costs,
        "initial_path": initial[2],
        "final_path": final_path,
        "scene": scene,
        "seconds": seconds,
    }


def _sphere_wire(ax: Any, centre: np.ndarray, radius: float) -> None:
    u, v = np.meshgrid(np.linspace(0, 2 * np.pi, 16), np.linspace(0, np.pi, 9))
    x = centre[0] + radius * np.cos(u) * np.sin(v)
    y = centre[1] + radius * np.sin(u) * np.sin(v)
    z = centre[2] + radius * np.cos(v)
    ax.plot_wireframe(x, y, z, color="tab:red", linewidth=0.6)


def _cuboid_edges(ax: Any, pose: np.ndarray, dims: np.ndarray) -> None:
    signs = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
    corners = (signs * dims / 2) @ pose[:, :3].T + pose[:, 3]
    for i in range(8):
        for j in range(i + 1, 8):
            if np.sum(signs[i] != signs[j]) == 1:
                ax.plot(*corners[[i, j]].T, color="tab:orange", linewidth=1.0)


def plot(result: dict[str, Any], backend: str, path: pathlib.Path) -> None:
    """The arm's skeleton along the initial and the optimised paths, with the obstacles, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panda = PandaManipulator(hand=True)
    scene = result["scene"]
    fig = plt.figure(figsize=(12, 5.5))
    for k, (key, title) in enumerate([("initial_path", "before"), ("final_path", "after")]):
        ax = fig.add_subplot(1, 2, k + 1, projection="3d")
        q_path = result[key]
        skeletons = panda.sample_links(
            q_path[:: max(len(q_path) // 8, 1)], samples_per_metre=SAMPLES_PER_METRE
        )
        for n, skeleton in enumerate(skeletons):
            ax.plot(*skeleton.T, color=plt.cm.viridis(n / max(len(skeletons) - 1, 1)), linewidth=1.5)
        hand = panda.end_effector_pose(q_path)[:, :, 3]
        ax.plot(*hand.T, "k--", linewidth=1.0, label="hand path")
        for c, r in zip(scene["sphere_centers"], scene["sphere_radii"], strict=True):
            _sphere_wire(ax, c, r)
        for pose, dims in zip(scene["cuboid_poses"], scene["cuboid_dims"], strict=True):
            _cuboid_edges(ax, pose, dims)
        ax.scatter(*scene["goal"], marker="*", s=120, color="k", label="goal")
        clearance = result["initial_clearance" if k == 0 else "final_clearance"]
        ax.set_title(f"{title}: minimum clearance {clearance:.3f} m")
        ax.set_xlim(-0.4, 0.6)
        ax.set_ylim(-0.3, 0.7)
        ax.set_zlim(0.0, 1.0)
        ax.set_xlabel("x (m)")
        ax.set_ylabel("y (m)")
        ax.set_zlabel("z (m)")
        ax.view_init(elev=40, azim=-110)
        ax.legend(loc="upper left")
    fig.suptitle(f"plan_manipulator on {backend} (Franka Panda, colour: time)")
    fig.tight_layout()
    save_figure(fig, path, dpi=100)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--backend", choices=AUTODIFF_BACKENDS, default="torch", help="backend (default torch)"
    )
    parser.add_argument("--steps", type=int, default=300, help="Adam steps (default 300)")
    parser.add_argument("--anchors", type=int, default=5, help="spline anchors, start included (default 5)")
    parser.add_argument("--lr", type=float, default=0.03, help="Adam learning rate (default 0.03)")
    add_jit_argument(parser)
    add_out_argument(parser)
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)

    result = plan(
        args.backend, steps=args.steps, n_anchors=args.anchors, lr=args.lr, jit=args.jit, quiet=args.quiet
    )
    out = args.out / f"plan_manipulator_{args.backend}.png"
    plot(result, args.backend, out)
    print(f"backend {args.backend}: {args.steps} steps in {result['seconds']:.1f} s")
    print(f"  cost              {result['initial_cost']:10.4f} -> {result['final_cost']:.4f}")
    print(f"  min clearance (m) {result['initial_clearance']:10.4f} -> {result['final_clearance']:.4f}")
    print(f"  hand to goal      {result['goal_error']:.4f} m; within joint limits: {result['within_limits']}")
    print(f"  plot: {out}")
    return result


if __name__ == "__main__":
    main()
