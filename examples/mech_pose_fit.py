"""Recover an unknown rigid pose from noisy 3D point correspondences, by gradient descent through hedera.mech.

The same hedera code runs on PyTorch, JAX and TensorFlow::

    python examples/mech_pose_fit.py                      # every installed autodiff backend
    python examples/mech_pose_fit.py --backend jax --steps 400

The unknown pose is a unit quaternion ``q`` (scalar-last) and a translation ``t``:
target points are ``y_i = R(q) p_i + t + noise``. The fit starts at the identity
and minimises the mean squared residual ``|R(q) p_i + t - y_i|^2`` with
``hd.optim.Adam``, the quaternion left unnormalised:
:func:`hedera.mech.quaternion_to_rot_mat` is the rotation of ``q / |q|``, so any
non-zero ``q`` is a valid parameter. Gradients come from ``hd.value_and_grad``;
the whole step is compiled with ``hd.jit`` on JAX and TensorFlow (``--jit`` /
``--no-jit`` to choose; on PyTorch, ``torch.compile`` takes longer to compile
this small step than the few hundred eager steps take to run).

Prints, per backend, the rotation error (the angle of ``q_est^-1 q_true``) in
degrees, the translation error, the final loss and the time taken.
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

import numpy as np
from _shared import add_backend_argument, add_jit_argument, jit_by_default, selected_backends

import hedera as hd
import hedera.mech as mech


def make_problem(seed: int = 0, n_points: int = 200, noise: float = 0.01) -> dict[str, np.ndarray]:
    """A random pose and noisy correspondences (NumPy arrays, float64)."""
    rng = np.random.default_rng(seed)
    key = hd.random.key(seed, backend="numpy")
    q_true = hd.to_numpy(mech.random_quaternion(key=key, dtype=hd.float64))
    q_true = q_true * np.sign(q_true[3])  # the 'w >= 0' one of q and -q, for printing
    t_true = rng.uniform(-1.0, 1.0, size=3)
    points = rng.uniform(-1.0, 1.0, size=(n_points, 3))
    rot = hd.to_numpy(mech.quaternion_to_rot_mat(q_true))
    targets = points @ rot.T + t_true + rng.normal(scale=noise, size=(n_points, 3))
    return {"points": points, "targets": targets, "q_true": q_true, "t_true": t_true}


def loss_fn(params: hd.Container, points: Any, targets: Any) -> Any:
    """Mean squared residual of the pose ``params`` (quaternion ``q``, translation ``t``)."""
    pose = mech.quaternion_pose_to_mat_pose(hd.concat([params.t, params.q], axis=-1))  # [R | t], (3, 4)
    predicted = mech.transform_coords(pose, points)  # R p + t for every point, (N, 3)
    return hd.mean(hd.sum((predicted - targets) ** 2, axis=-1))


def make_step(optimizer: hd.optim.Optimizer):
    """One optimisation step ``(params, state, points, targets) -> (params, state, loss)``."""

    def step(params, state, points, targets):
        loss, grads = hd.value_and_grad(loss_fn)(params, points, targets)
        params, state = optimizer.update(grads, state, params)
        return params, state, loss

    return step


def rotation_error_degrees(q_est: np.ndarray, q_true: np.ndarray) -> float:
    """The angle of the rotation taking ``q_est`` to ``q_true``, in degrees (hedera.mech on NumPy)."""
    delta = mech.hamilton_product(mech.inverse_quaternion(q_est), q_true)
    return math.degrees(float(mech.quaternion_to_axis_angle(delta)[3]))


def fit(
    backend: str,
    problem: dict[str, np.ndarray],
    steps: int = 200,
    jit: bool | None = None,
    lr: float = 0.05,
) -> dict[str, float]:
    """Fit the pose on ``backend``; return the errors, the final loss and the seconds taken.

    ``jit=None`` compiles the step with ``hd.jit`` except on torch.
    """
    start = time.perf_counter()

    def arr(a: Any) -> Any:
        return hd.asarray(np.asarray(a, dtype=np.float32), backend=backend)

    points, targets = arr(problem["points"]), arr(problem["targets"])
    params = hd.Container(q=arr([0.0, 0.0, 0.0, 1.0]), t=arr([0.0, 0.0, 0.0]))  # the identity pose
    optimizer = hd.optim.Adam(lr)
    state = optimizer.init(params)
    step = make_step(optimizer)
    step = hd.jit(step) if jit_by_default(backend, jit) else step
    loss = None
    for _ in range(steps):
        params, state, loss = step(params, state, points, targets)
    q_est = hd.to_numpy(params.q).astype(np.float64)
    t_est = hd.to_numpy(params.t).astype(np.float64)
    return {
        "rotation_error_deg": rotation_error_degrees(q_est, problem["q_true"]),
        "translation_error": float(np.linalg.norm(t_est - problem["t_true"])),
        "loss": float(hd.to_numpy(loss)),
        "seconds": time.perf_counter() - start,
    }


def main(argv: list[str] | None = None) -> dict[str, dict[str, float]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_backend_argument(parser)
    parser.add_argument("--steps", type=int, default=200, help="gradient steps (default 200)")
    parser.add_argument("--points", type=int, default=200, help="number of correspondences (default 200)")
    parser.add_argument("--noise", type=float, default=0.01, help="noise standard deviation (default 0.01)")
    parser.add_argument("--seed", type=int, default=0, help="random seed of the problem (default 0)")
    add_jit_argument(parser)
    args = parser.parse_args(argv)

    backends = selected_backends(args)
    problem = make_problem(args.seed, args.points, args.noise)
    angle = math.degrees(2 * math.acos(min(1.0, abs(problem["q_true"][3]))))
    print(f"true pose: rotation of {angle:.1f} deg, translation {np.round(problem['t_true'], 3)}")
    print(f"{'backend':<12}{'rotation error (deg)':>22}{'translation error':>20}{'loss':>12}{'time (s)':>10}")
    results = {}
    for backend in backends:
        r = fit(backend, problem, steps=args.steps, jit=args.jit)
        results[backend] = r
        print(
            f"{backend:<12}{r['rotation_error_deg']:>22.4f}{r['translation_error']:>20.5f}"
            f"{r['loss']:>12.2e}{r['seconds']:>10.1f}"
        )
    return results


if __name__ == "__main__":
    main()
