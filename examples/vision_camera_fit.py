"""Recover a camera's pose from 2D projections of known 3D points, by gradient descent through hedera.vision.

The same hedera code runs on PyTorch, JAX and TensorFlow::

    python examples/vision_camera_fit.py                      # every installed autodiff backend
    python examples/vision_camera_fit.py --backend torch --steps 400 --lr 0.01

A pinhole camera with known intrinsics ``K`` sees ``N`` known 3D points; their
pixel coordinates are observed with Gaussian noise. The unknown extrinsics are a
rotation vector ``r`` (:func:`hedera.mech.rot_vec_to_rot_mat`) and a translation
``t``, ``E = [R(r) | t]``. Starting from a perturbed guess, ``hd.optim.Adam``
minimises the mean squared reprojection error
``|world_to_pixel_coords(p_i, K E) - x_i|^2`` in pixels^2; gradients come from
``hd.value_and_grad`` and the step is compiled with ``hd.jit`` on JAX and
TensorFlow (``--jit`` / ``--no-jit`` to choose).

Prints, per backend, the rotation error (degrees), the camera-centre error and
the root-mean-square reprojection error before and after, and saves a PNG per
backend, ``examples/out/vision_camera_fit_<backend>.png``, overlaying the
observed pixels and the projections before and after the fit.
"""

from __future__ import annotations

import argparse
import math
import pathlib
import time
from typing import Any

import numpy as np
from _shared import (
    add_backend_argument,
    add_jit_argument,
    add_out_argument,
    jit_by_default,
    save_figure,
    selected_backends,
)

import hedera as hd
import hedera.mech as mech
import hedera.vision as hv

IMAGE_DIMS = (240, 320)  # (H, W)


def make_problem(seed: int = 0, n_points: int = 60, noise: float = 0.5) -> dict[str, np.ndarray]:
    """Known 3D points, the true camera, noisy observed pixels and a perturbed initial guess (float64)."""
    rng = np.random.default_rng(seed)
    calib = np.array([[280.0, 0.0, 159.5], [0.0, 280.0, 119.5], [0.0, 0.0, 1.0]])
    points = rng.uniform(-1.0, 1.0, size=(n_points, 3))  # a cube of points around the world origin
    rot_vec = rng.normal(size=3) * 0.3
    rot = hd.to_numpy(mech.rot_vec_to_rot_mat(rot_vec))
    trans = np.array([*rng.uniform(-0.3, 0.3, 2), rng.uniform(4.5, 5.5)])  # the points ~5 units ahead
    ext = np.concatenate([rot, trans[:, None]], axis=1)
    pixels = hd.to_numpy(hv.world_to_pixel_coords(points, calib @ ext))
    observed = pixels + rng.normal(scale=noise, size=pixels.shape)
    init_rot_vec = rot_vec + rng.normal(size=3) * 0.15  # ~15 degrees off
    init_trans = trans + rng.normal(size=3) * np.array([0.3, 0.3, 0.5])
    return {
        "calib": calib,
        "points": points,
        "observed": observed,
        "rot_vec": rot_vec,
        "trans": trans,
        "init_rot_vec": init_rot_vec,
        "init_trans": init_trans,
    }


def ext_mat(rot_vec: Any, trans: Any) -> Any:
    """``[R(r) | t]`` ``(3, 4)`` of the rotation vector ``r`` ``(3,)`` and the translation ``t`` ``(3,)``."""
    return hd.concat([mech.rot_vec_to_rot_mat(rot_vec), trans[:, None]], axis=-1)


def project(params: hd.Container, calib: Any, points: Any) -> Any:
    """Pixel coordinates ``(N, 2)`` of ``points`` seen by the camera ``params`` (``rot_vec``, ``trans``)."""
    extrinsics = ext_mat(params.rot_vec, params.trans)
    return hv.world_to_pixel_coords(points, hv.calib_and_ext_to_full_mat(calib, extrinsics))


def loss_fn(params: hd.Container, calib: Any, points: Any, observed: Any) -> Any:
    """Mean squared reprojection error, pixels^2."""
    projected = project(params, calib, points)
    return hd.mean(hd.sum((projected - observed) ** 2, axis=-1))


def make_step(optimizer: hd.optim.Optimizer):
    """One optimisation step ``(params, state, calib, points, observed) -> (params, state, loss)``."""

    def step(params, state, calib, points, observed):
        loss, grads = hd.value_and_grad(loss_fn)(params, calib, points, observed)
        params, state = optimizer.update(grads, state, params)
        return params, state, loss

    return step


def rotation_error_degrees(rot_vec_est: np.ndarray, rot_vec_true: np.ndarray) -> float:
    """The angle of ``R_est R_true^T`` in degrees (hedera.mech on NumPy)."""
    delta = (
        hd.to_numpy(mech.rot_vec_to_rot_mat(rot_vec_est))
        @ hd.to_numpy(mech.rot_vec_to_rot_mat(rot_vec_true)).T
    )
    return math.degrees(float(np.linalg.norm(hd.to_numpy(mech.rot_mat_to_rot_vec(delta)))))


def camera_center(rot_vec: np.ndarray, trans: np.ndarray) -> np.ndarray:
    return hd.to_numpy(hv.ext_mat_to_rot_mat_and_cam_center(ext_mat(rot_vec, trans))[1])


def fit(
    backend: str, problem: dict[str, np.ndarray], steps: int = 200, jit: bool | None = None, lr: float = 0.02
) -> dict[str, Any]:
    """Fit the extrinsics on ``backend``; return errors, projections before/after and the seconds taken."""
    start = time.perf_counter()

    def arr(a: Any) -> Any:
        return hd.asarray(np.asarray(a, dtype=np.float32), backend=backend)

    calib, points, observed = arr(problem["calib"]), arr(problem["points"]), arr(problem["observed"])
    params = hd.Container(rot_vec=arr(problem["init_rot_vec"]), trans=arr(problem["init_trans"]))
    optimizer = hd.optim.Adam(lr)
    state = optimizer.init(params)

    def projected(p: hd.Container) -> np.ndarray:
        return hd.to_numpy(project(p, calib, points))

    before = projected(params)
    step = make_step(optimizer)
    step = hd.jit(step) if jit_by_default(backend, jit) else step
    for _ in range(steps):
        params, state, _ = step(params, state, calib, points, observed)
    after = projected(params)
    rot_vec, trans = (hd.to_numpy(p).astype(np.float64) for p in (params.rot_vec, params.trans))
    truth = camera_center(problem["rot_vec"], problem["trans"])
    return {
        "rotation_error_deg": rotation_error_degrees(rot_vec, problem["rot_vec"]),
        "initial_rotation_error_deg": rotation_error_degrees(problem["init_rot_vec"], problem["rot_vec"]),
        "center_error": float(np.linalg.norm(camera_center(rot_vec, trans) - truth)),
        "rms_before": float(np.sqrt(np.mean(np.sum((before - problem["observed"]) ** 2, -1)))),
        "rms_after": float(np.sqrt(np.mean(np.sum((after - problem["observed"]) ** 2, -1)))),
        "rot_vec": rot_vec,
        "trans": trans,
        "before": before,
        "after": after,
        "seconds": time.perf_counter() - start,
    }


def save_plot(
    path: pathlib.Path, problem: dict[str, np.ndarray], result: dict[str, Any], backend: str
) -> None:
    """Overlay the observed pixels and the projections before and after the fit (matplotlib, Agg)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.8), dpi=100)
    ax.scatter(*problem["observed"].T, s=40, facecolors="none", edgecolors="k", label="observed")
    ax.scatter(*result["before"].T, s=12, c="tab:red", marker="x", label="before fit")
    ax.scatter(*result["after"].T, s=12, c="tab:green", label="after fit")
    for a, b in zip(result["before"], result["after"], strict=True):
        ax.plot([a[0], b[0]], [a[1], b[1]], c="0.8", lw=0.5, zorder=0)
    height, width = IMAGE_DIMS
    ax.set(xlim=(-0.5, width - 0.5), ylim=(height - 0.5, -0.5), xlabel="u (pixels)", ylabel="v (pixels)")
    ax.set_title(
        f"{backend}: RMS reprojection {result['rms_before']:.1f} -> {result['rms_after']:.2f} px, "
        f"rotation error {result['rotation_error_deg']:.2f} deg"
    )
    ax.set_aspect("equal")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    save_figure(fig, path)


def main(argv: list[str] | None = None) -> dict[str, dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_backend_argument(parser)
    parser.add_argument("--steps", type=int, default=200, help="gradient steps (default 200)")
    parser.add_argument("--lr", type=float, default=0.02, help="Adam learning rate (default 0.02)")
    parser.add_argument("--points", type=int, default=60, help="number of 3D points (default 60)")
    parser.add_argument(
        "--noise", type=float, default=0.5, help="pixel noise standard deviation (default 0.5)"
    )
    parser.add_argument("--seed", type=int, default=0, help="random seed of the problem (default 0)")
    add_jit_argument(parser)
    add_out_argument(parser)
    args = parser.parse_args(argv)

    backends = selected_backends(args)
    problem = make_problem(args.seed, args.points, args.noise)
    print(
        f"{len(problem['points'])} points, pixel noise {args.noise}; "
        f"initial guess {rotation_error_degrees(problem['init_rot_vec'], problem['rot_vec']):.1f} deg off"
    )
    print(
        f"{'backend':<12}{'rotation error (deg)':>22}{'centre error':>14}{'RMS before (px)':>17}"
        f"{'RMS after (px)':>16}{'time (s)':>10}"
    )
    results = {}
    for backend in backends:
        r = fit(backend, problem, steps=args.steps, jit=args.jit, lr=args.lr)
        r["png"] = args.out / f"vision_camera_fit_{backend}.png"
        save_plot(r["png"], problem, r, backend)
        results[backend] = r
        print(
            f"{backend:<12}{r['rotation_error_deg']:>22.4f}{r['center_error']:>14.4f}{r['rms_before']:>17.2f}"
            f"{r['rms_after']:>16.3f}{r['seconds']:>10.1f}"
        )
    return results


if __name__ == "__main__":
    main()
