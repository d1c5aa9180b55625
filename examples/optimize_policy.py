"""Train an ``hd.nn`` MLP policy by backpropagation through 100-step rollouts of a batch of environments.

::

    python examples/optimize_policy.py                       # torch, jax and tensorflow (those installed)
    python examples/optimize_policy.py --backend tensorflow

The environment is ``hedera.gym.CartPole`` (gymnasium's CartPole-v1 dynamics with a continuous
force ``10 N * a``, ``a`` in ``[-1, 1]``), run through its functional API without termination:
a pole that falls keeps swinging under the cart. The policy, written once with ``hd.nn``::

    Linear(4, 32) - Tanh - Linear(32, 32) - Tanh - Linear(32, 1) - Tanh

maps the observation to the action. Its initial weights come from ``hd.nn.init`` with one
seed, drawn on the numpy backend and converted, so every backend starts from the same policy.
Each training step rolls out ``--batch`` environments for 100 steps from fresh random start
states (``hd.random`` keys), sums the smooth reward ``cos(theta) - 0.1 (x / 2.4)^2`` (1 per step
with the pole upright over the centre), and takes an Adam step (``hd.optim``, gradients clipped
by global norm) on its negative batch mean, the gradient flowing back through all 100 steps of
the dynamics into the policy's weights (``hd.value_and_grad``). The rollout runs as ten calls
of one ``hd.jit``-compiled 10-step segment (``--chunk``), differentiated as a chain.

Start states are four times wider than gymnasium's (every variable uniform in ``[-0.2, 0.2]``),
so a policy has to catch a falling pole. The trained policy and a uniformly random one
(actions uniform in ``[-1, 1]``) are evaluated on 256 held-out start states, drawn from a key
never used in training. Success (checked by the script and its test): the trained policy's
mean return is above 90 (of a possible 100) and at least 50 more than the random policy's.

Per backend the script prints both returns, the fraction of held-out episodes whose pole stays
within gymnasium's 12 degrees for all 100 steps, and the time per training step; a ``tqdm`` bar
shows progress; the training curves and the held-out pole angles go on one figure, saved as
``examples/out/optimize_policy.png``.
"""

from __future__ import annotations

import argparse
import pathlib
import time
from typing import Any

import numpy as np
from _shared import OUT_DIR, add_backend_argument, save_figure, selected_backends

import hedera as hd
import hedera.gym as hgym

STEPS = 100
START_SCALE = 4.0  # start states: gymnasium's range (+-0.05) times this


def make_policy(seed: int) -> hd.nn.Sequential:
    """The MLP policy, its parameters created on the current backend from ``seed``."""
    k1, k2, k3 = hd.nn.init.split_key(seed, 3)
    return hd.nn.Sequential(
        hd.nn.Linear(4, 32, key=k1),
        hd.nn.Tanh(),
        hd.nn.Linear(32, 32, key=k2),
        hd.nn.Tanh(),
        hd.nn.Linear(32, 1, key=k3),
        hd.nn.Tanh(),
    )


def start_states(env: hgym.CartPole, key: Any, batch: int) -> Any:
    """``batch`` start states, every variable uniform in ``[-0.2, 0.2]``."""
    return START_SCALE * env.initial_state(key, (batch,))


def returns(env: hgym.CartPole, policy: Any, state: Any, steps: int) -> tuple[Any, Any]:
    """``(returns (B,), states (T, B, 4))`` of ``policy`` from ``state`` over ``steps`` steps."""
    states, _, rewards = hgym.policy_rollout(env, policy, state, steps)
    return hd.sum(rewards, axis=0), states


def make_train_step(env: hgym.CartPole, model: hd.nn.Module, opt: hd.optim.Optimizer, chunk: int, jit: bool):
    """``(params, opt_state, start) -> (params, opt_state, mean return)``: one Adam step through the rollout.

    The 100-step rollout runs as ``100 / chunk`` calls of one compiled ``chunk``-step segment
    (``hd.jit``); ``hd.value_and_grad`` differentiates through the chain of compiled segments.
    Compiling the whole unrolled rollout at once is slow with XLA (minutes on jax for 100
    steps and their gradient) and torch.compile; a short segment compiles in seconds and is
    reused ``100 / chunk`` times per step.
    """

    def segment(params: hd.Container, state: Any) -> tuple[Any, Any]:
        states, _, rewards = hgym.policy_rollout(env, lambda obs: model.apply(params, obs), state, chunk)
        return states[-1], hd.sum(rewards, axis=0)

    compiled = hd.jit(segment) if jit else segment

    def loss(params: hd.Container, start: Any, steps: int) -> Any:
        state, total = start, 0.0
        for _ in range(steps // chunk):
            state, reward = compiled(params, state)
            total = total + reward
        return -hd.mean(total)

    # The gradient of the start state too (and dropped): then every segment sees a state in the
    # graph, and torch.compile compiles one segment (forward and backward) instead of a second one
    # for the first call, whose state is not (its guards check requires_grad).
    value_and_grad = hd.value_and_grad(loss, argnums=(0, 1))

    def train_step(params: hd.Container, opt_state: hd.Container, start: Any, steps: int = STEPS) -> tuple:
        value, (grads, _) = value_and_grad(params, start, steps)
        params, opt_state = opt.update(grads, opt_state, params)
        return params, opt_state, -value

    return train_step


def evaluate(env: hgym.CartPole, model: hd.nn.Module, params: hd.Container, backend: str, seed: int) -> dict:
    """Trained and random policies on 256 held-out start states (a key not used in training)."""
    key = hd.random.key(10_000 + seed, backend=backend)
    k_start, k_random = hd.random.split(key)
    start = start_states(env, k_start, 256)
    trained, trained_states = returns(env, lambda obs: model.apply(params, obs), start, STEPS)
    noise = hd.random.uniform((STEPS, 256, 1), -1.0, 1.0, dtype=hd.float32, key=k_random)
    random_states, _, random_rewards = hgym.rollout(env, start, noise)
    upright = hd.to_numpy(hd.all(hd.abs(trained_states[..., 2]) < env.theta_threshold_radians, axis=0))
    random_upright = hd.to_numpy(hd.all(hd.abs(random_states[..., 2]) < env.theta_threshold_radians, axis=0))
    return {
        "trained_return": float(hd.mean(trained)),
        "random_return": float(hd.mean(hd.sum(random_rewards, axis=0))),
        "trained_upright": float(np.mean(upright)),
        "random_upright": float(np.mean(random_upright)),
        "trained_theta": hd.to_numpy(trained_states[:, :16, 2]),
        "random_theta": hd.to_numpy(random_states[:, :16, 2]),
    }


def train(backend: str, args: argparse.Namespace, reference: hd.Container) -> dict:
    """Train the policy on ``backend``; returns the curve, the held-out evaluation and timings."""
    from tqdm import tqdm

    env = hgym.CartPole(backend=backend)
    with hd.use_backend(backend):
        model = make_policy(args.seed)
    identical = model.state().all_equal(reference)
    opt = hd.optim.Adam(args.lr, clip_global_norm=args.clip)
    use_jit = args.jit == "on"
    step = make_train_step(env, model, opt, args.chunk, use_jit)
    params = model.parameters()
    opt_state = opt.init(params)
    key = hd.random.key(args.seed, backend=backend)
    curve = []
    first = None
    begin = time.perf_counter()
    for n in tqdm(range(args.iterations), desc=f"{backend:<10}", unit="step", disable=args.quiet):
        key, k = hd.random.split(key)
        steps = args.chunk * 2 if n < args.warmup else STEPS  # curriculum: short rollouts first
        params, opt_state, mean_return = step(params, opt_state, start_states(env, k, args.batch), steps)
        curve.append(float(mean_return) * STEPS / steps)
        if n == 0:
            first = time.perf_counter() - begin
            begin = time.perf_counter()
    per_step = (time.perf_counter() - begin) / max(args.iterations - 1, 1)
    result = evaluate(env, model, params, backend, args.seed)
    result.update(
        curve=curve,
        initial_weights_identical=identical,
        compiled=use_jit,
        first_step_s=first,
        ms_per_step=1e3 * per_step,
    )
    result["success"] = (
        result["trained_return"] > 90 and result["trained_return"] - result["random_return"] >= 50
    )
    return result


def plot(results: dict[str, dict], path: pathlib.Path) -> None:
    """Training curves, and held-out pole angles of the trained and the random policy."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax0, ax1) = plt.subplots(1, 2, figsize=(11, 4))
    for backend, r in results.items():
        ax0.plot(
            r["curve"],
            label=f"{backend}: held-out {r['trained_return']:.1f} vs random {r['random_return']:.1f}",
        )
    ax0.axhline(STEPS, color="0.7", linestyle=":")
    ax0.set_xlabel("training step")
    ax0.set_ylabel(f"mean return over {STEPS} steps")
    ax0.set_title("Backpropagation through 100-step rollouts")
    ax0.legend(fontsize=8)
    r = next(iter(results.values()))
    t = np.arange(r["trained_theta"].shape[0]) * 0.02
    ax1.plot(t, np.degrees(r["random_theta"]), color="tab:red", alpha=0.4, linewidth=0.8)
    ax1.plot(t, np.degrees(r["trained_theta"]), color="tab:blue", linewidth=1.0)
    ax1.axhspan(-12, 12, color="0.9")
    ax1.set_ylim(-90, 90)
    ax1.set_xlabel("time (s)")
    ax1.set_ylabel("pole angle (deg)")
    ax1.set_title(f"16 held-out starts ({next(iter(results))}): trained (blue), random (red)")
    fig.tight_layout()
    save_figure(fig, path, dpi=110)


def main(argv: list[str] | None = None) -> dict[str, dict]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_backend_argument(parser)
    parser.add_argument("--iterations", type=int, default=80, help="training steps")
    parser.add_argument("--batch", type=int, default=64, help="environments per rollout")
    parser.add_argument("--lr", type=float, default=1e-2)
    parser.add_argument("--clip", type=float, default=10.0, help="global gradient-norm clip")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--warmup", type=int, default=30, help="first steps on 20-step rollouts")
    parser.add_argument("--chunk", type=int, default=10, help="steps per compiled segment (divides 100)")
    parser.add_argument("--jit", choices=("on", "off"), default="on", help="compile the segments with hd.jit")
    parser.add_argument("--plot", type=pathlib.Path, default=OUT_DIR / "optimize_policy.png")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)

    backends = selected_backends(args)
    with hd.use_backend("numpy"):
        reference = make_policy(args.seed).state()
    results = {b: train(b, args, reference) for b in backends}
    print(f"CartPole, {STEPS}-step returns on 256 held-out starts (every variable uniform in +-0.2); "
          "success: trained > 90 and >= random + 50")  # fmt: skip
    print(f"{'backend':<11} {'trained':>8} {'random':>8} {'upright':>8} {'rand upr':>8} {'same init':>9} "
          f"{'compiled':>8} {'ms/step':>8} {'success':>7}")  # fmt: skip
    for b, r in results.items():
        print(
            f"{b:<11} {r['trained_return']:>8.1f} {r['random_return']:>8.1f} "
            f"{100 * r['trained_upright']:>7.0f}% {100 * r['random_upright']:>7.0f}% "
            f"{'yes' if r['initial_weights_identical'] else 'NO':>9} "
            f"{'hd.jit' if r['compiled'] else 'eager':>8} {r['ms_per_step']:>8.1f} "
            f"{'yes' if r['success'] else 'NO':>7}"
        )
    if results:
        plot(results, args.plot)
        print(f"plot: {args.plot}")
    return results


if __name__ == "__main__":
    main()
