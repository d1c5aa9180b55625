"""Swing a pendulum up by gradient descent on its per-step actions, through the compiled rollout.

::

    python examples/optimize_trajectory.py                       # torch, jax and tensorflow (those installed)
    python examples/optimize_trajectory.py --backend jax

The environment is ``hedera.gym.Pendulum`` (gymnasium's Pendulum-v1 dynamics), started
hanging straight down and at rest, the hardest start. The 200 actions (torques ``2 tanh(u)``,
within the torque limit) are found by receding-horizon trajectory optimisation (model
predictive control by gradient descent): before every step the next ``--horizon`` actions are
improved by ``--iterations`` Adam steps on the negative smooth reward of their rollout, the
gradient taken through ``hedera.gym.rollout`` by ``hd.value_and_grad`` and the whole
optimiser step compiled with ``hd.jit`` (the plan's rollout is one ``hd.scan``, so each plan
compiles as one loop, forward and backward, not as ``--horizon`` unrolled steps); the first
action is executed and the rest of the plan, shifted, warm-starts the next one. (Optimising all
200 actions at once from rest stalls: the gradient through 200 steps of a chaotic system is
too rough, and a swing that does not reach the top costs more than hanging still.) Both the
environment's smooth reward and gymnasium's reward of the 200 executed steps are reported.

Success (checked by the script and its test): within 200 steps the pendulum is swung up and
balanced: over the last 50 steps the wrapped angle stays within 0.5 rad of upright and the
speed under 2 rad/s.

Per backend the script prints the cumulative rewards and timings; a ``tqdm`` bar shows
progress; the angle, speed and torque of every backend's trajectory go on one figure, saved as
``examples/out/optimize_trajectory.png``.
"""

from __future__ import annotations

import argparse
import math
import pathlib
import time
from typing import Any

import numpy as np
from _shared import OUT_DIR, add_backend_argument, save_figure, selected_backends

import hedera as hd
import hedera.gym as hgym

STEPS = 200


def make_improve(env: hgym.Pendulum, opt: hd.optim.Optimizer, u_penalty: float):
    """One optimiser step on a plan: ``(params, opt_state, state) -> (params, opt_state, objective)``.

    The objective is the negative smooth reward of the planned rollout plus ``u_penalty *
    sum(u^2)``, which keeps the torques' ``tanh`` out of saturation (where gradients vanish).
    """

    def objective(params: hd.Container, state: Any) -> Any:
        actions = env.max_torque * hd.tanh(params["u"])[:, None]
        _, _, rewards = hgym.rollout(env, state, actions)
        return -hd.sum(rewards) + u_penalty * hd.sum(params["u"] ** 2)

    def improve(params: hd.Container, opt_state: hd.Container, state: Any) -> tuple:
        value, grads = hd.value_and_grad(objective)(params, state)
        params, opt_state = opt.update(grads, opt_state, params)
        return params, opt_state, value

    return improve


def optimize(backend: str, args: argparse.Namespace) -> dict:
    """Plan and execute the 200 steps on ``backend``; returns the trajectory, rewards and timings."""
    from tqdm import tqdm

    env = hgym.Pendulum(backend=backend)
    opt = hd.optim.Adam(args.lr)
    improve = make_improve(env, opt, args.u_penalty)
    use_jit = args.jit == "on" or (args.jit == "auto" and backend != "torch")
    step = hd.jit(improve) if use_jit else improve

    start = hd.asarray([math.pi, 0.0], dtype=hd.float32, backend=backend)
    state = start
    params = hd.Container({"u": hd.asarray(np.zeros(args.horizon, np.float32), backend=backend)})
    executed, objectives = [], []
    steps = min(args.steps, STEPS)
    first_call = None
    begin = time.perf_counter()
    for t in tqdm(range(0, steps, args.replan), desc=f"{backend:<10}", unit="plan", disable=args.quiet):
        opt_state = opt.init(params)
        for i in range(args.iterations):
            params, opt_state, value = step(params, opt_state, state)
            if first_call is None:
                hd.to_numpy(value)
                first_call = time.perf_counter() - begin
            if i == 0 or i == args.iterations - 1:
                objectives.append(float(value))
        n = min(args.replan, steps - t)
        actions = env.max_torque * hd.tanh(params["u"][:n])[:, None]
        states, _, _ = hgym.rollout(env, state, actions)
        state = states[-1]
        executed.append(actions)
        # warm start: shift the plan, repeating its last action
        tail = params["u"][n:]
        params = hd.Container({"u": hd.concat([tail, hd.broadcast_to(tail[-1:], (n,))])})
    seconds = time.perf_counter() - begin

    actions = hd.concat(executed)
    states, _, rewards = hgym.rollout(env, start, actions)
    previous = hd.concat([start[None], states[:-1]])
    gym_rewards = env.gym_reward_fn(previous, actions, states)
    theta = hd.to_numpy(states[:, 0])
    wrapped = (theta + np.pi) % (2 * np.pi) - np.pi
    speed = hd.to_numpy(states[:, 1])
    last = slice(-50, None)
    upright = np.abs(wrapped) < 0.5
    return {
        "reward": float(hd.sum(rewards)),
        "gym_reward": float(hd.sum(gym_rewards)),
        "balanced": bool(len(theta) == STEPS and np.all(upright[last]) and np.all(np.abs(speed[last]) < 2.0)),
        "max_final_angle": float(np.max(np.abs(wrapped[last]))),
        "first_upright_step": int(np.argmax(upright)) if upright.any() else None,
        "theta": wrapped,
        "speed": speed,
        "torque": hd.to_numpy(actions[:, 0]),
        "objectives": objectives,
        "compiled": use_jit,
        "first_call_s": first_call,
        "seconds": seconds,
    }


def plot(results: dict[str, dict], path: pathlib.Path) -> None:
    """Angle, speed and torque over time, one line per backend."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(3, 1, figsize=(7, 7), sharex=True)
    for backend, r in results.items():
        t = np.arange(len(r["theta"]))
        label = f"{backend} (reward {r['reward']:.0f}, gymnasium's {r['gym_reward']:.0f})"
        axes[0].plot(t, r["theta"], label=label)
        axes[1].plot(t, r["speed"])
        axes[2].plot(t, r["torque"])
    axes[0].axhspan(-0.5, 0.5, color="0.9")
    axes[0].set_ylabel("angle from upright (rad)")
    axes[1].set_ylabel("angular speed (rad/s)")
    axes[2].set_ylabel("torque (N m)")
    axes[2].set_xlabel("step (0.05 s)")
    axes[0].set_title("Pendulum swing-up: actions optimised through the compiled rollout")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    save_figure(fig, path, dpi=110)


def main(argv: list[str] | None = None) -> dict[str, dict]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_backend_argument(parser)
    parser.add_argument("--horizon", type=int, default=30, help="planned steps")
    parser.add_argument("--replan", type=int, default=1, help="steps executed between plans")
    parser.add_argument("--iterations", type=int, default=5, help="Adam steps per plan")
    parser.add_argument("--lr", type=float, default=0.3)
    parser.add_argument("--u-penalty", type=float, default=0.05)
    parser.add_argument("--steps", type=int, default=STEPS, help="executed steps (200 for the real task)")
    parser.add_argument("--jit", choices=("auto", "on", "off"), default="auto", help="auto: eager on torch")
    parser.add_argument("--plot", type=pathlib.Path, default=OUT_DIR / "optimize_trajectory.png")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)

    backends = selected_backends(args)
    results = {b: optimize(b, args) for b in backends}
    print(f"Pendulum swing-up from hanging at rest, {args.steps} steps; success: |angle| < 0.5 rad, "
          f"|speed| < 2 rad/s over the last 50")  # fmt: skip
    print(
        f"{'backend':<11} {'reward':>8} {'gym reward':>10} {'balanced':>8} {'max angle':>9} "
        f"{'compiled':>8} {'1st call s':>10} {'total s':>8}"
    )
    for b, r in results.items():
        print(
            f"{b:<11} {r['reward']:>8.1f} {r['gym_reward']:>10.1f} {'yes' if r['balanced'] else 'NO':>8} "
            f"{r['max_final_angle']:>9.3f} {'hd.jit' if r['compiled'] else 'eager':>8} "
            f"{r['first_call_s']:>10.1f} {r['seconds']:>8.1f}"
        )
    if results:
        plot(results, args.plot)
        print(f"plot: {args.plot}")
    return results


if __name__ == "__main__":
    main()
