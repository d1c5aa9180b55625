"""Rollouts on ``hd.scan`` against the native loop: compile time and time per step.

::

    python benchmarks/control_flow.py            # full run: table, benchmarks/results/control_flow.json
    python benchmarks/control_flow.py --quick    # smoke mode (10 steps, few repeats)

A Pendulum rollout of T = 10, 100 and 1000 steps (``hd.scan`` over ``env.step_fn``, batch 16,
float32, each step's reward stacked), against the same loop written natively around the same
``env.step_fn``: ``lax.scan`` under ``jax.jit``, ``tf.while_loop`` with ``TensorArray`` s under
``tf.function``, torch's ``while_loop`` operator under ``torch.compile`` (a Python loop would
unroll), and eagerly the Python loop a user writes (``for action in actions``, the rewards
stacked once with ``torch.stack``/``jnp.stack``/``tf.stack``). The compile time is the first
call's. The time per step is the median over rounds of the process CPU time per call divided by
T, each round timing a block of calls of either variant in a random order (benchlib's
``paired_block_times``: other processes' load does not count); the ratio is the median of the
per-round ratios hedera / native. The marginal time per step, (time of 1000 steps - time of 10)
/ 990, leaves out the per-call cost (``hd.jit``'s call, which benchmarks/training_step.py
measures). Targets (issue 15): compile time of 1000 steps under 3x that of 10 on jax and
tensorflow; time per step within 5 % of the native loop.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import benchlib

import hedera as hd
import hedera.gym as hgym

BATCH = 16
#: the longest eager rollout timed: eager per-step times do not depend on the length, and an
#: eager 1000-step rollout takes seconds per call on jax and tensorflow (op by op)
EAGER_MAX_STEPS = 100
#: calls after the first before timing (lazy initialisation, caches)
WARM_CALLS = 3


def native_rollouts(backend: str, env: Any) -> dict[str, Any]:
    """``{"eager": f, "compiled": f}`` of ``(state, actions) -> rewards`` written natively."""
    if backend == "jax":
        import jax

        def scanned(state, actions):
            def step(s, a):
                s, _, r = env.step_fn(s, a)
                return s, r

            return jax.lax.scan(step, state, actions)[1]

        return {"eager": _python_loop(env, backend), "compiled": jax.jit(scanned)}
    if backend == "tensorflow":
        import tensorflow as tf

        def looped(state, actions):
            n = actions.shape[0]
            out = tf.TensorArray(actions.dtype, size=n)

            def body(t, s, out):
                s, _, r = env.step_fn(s, actions[t])
                return t + 1, s, out.write(t, r)

            _, _, out = tf.while_loop(lambda t, *_: t < n, body, (tf.constant(0), state, out))
            return out.stack()

        return {"eager": _python_loop(env, backend), "compiled": tf.function(looped)}
    import torch

    return {"eager": _python_loop(env, backend), "compiled": torch.compile(_torch_while_loop(env))}


def _torch_while_loop(env: Any) -> Any:
    """The rollout as torch's own ``while_loop`` operator over a rewards buffer (a Python loop
    under ``torch.compile`` unrolls: minutes of compiling at 1000 steps)."""
    import torch
    from torch._higher_order_ops.while_loop import while_loop

    def looped(state, actions):
        n = actions.shape[0]
        _, _, r0 = env.step_fn(state, actions[0])
        rewards = r0.new_zeros((n, *r0.shape))

        def body(t, s, rewards):
            s, _, r = env.step_fn(s, actions.index_select(0, t.reshape(1))[0])
            return t + 1, s, rewards.index_copy(0, t.reshape(1), r[None])

        return while_loop(lambda t, *_: t < n, body, (torch.zeros((), dtype=torch.int64), state, rewards))[2]

    return looped


def _python_loop(env: Any, backend: str) -> Any:
    """The eager rollout as a user writes it: a Python loop over the actions, the rewards stacked
    once at the end with the framework's own ``stack`` (``torch.stack``, ``jnp.stack``, ``tf.stack``)."""
    stack = _native_stack(backend)

    def loop(state, actions):
        rewards = []
        for action in actions:
            state, _, r = env.step_fn(state, action)
            rewards.append(r)
        return stack(rewards)

    return loop


def _native_stack(backend: str) -> Any:
    if backend == "jax":
        import jax.numpy as jnp

        return jnp.stack
    if backend == "tensorflow":
        import tensorflow as tf

        return tf.stack
    import torch

    return torch.stack


def hedera_rollout(env: Any) -> Any:
    """The rollout on ``hd.scan``, the same work as the native loops: each step's reward stacked.

    (``hedera.gym.rollout`` also stacks the states and observations, which the compiled loops
    carry as buffers: more work than the native loops do.)
    """

    def rewards(state, actions):
        def step(s, a):
            s, _, r = env.step_fn(s, a)
            return s, r

        return hd.scan(step, state, actions)[1]

    return rewards


def measure(backend: str, steps: int, rounds: int, block_s: float) -> list[dict]:
    env = hgym.Pendulum(backend=backend)
    key = hd.random.key(0, backend=backend)
    state = env.initial_state(key, (BATCH,))
    actions = hd.random.uniform((steps, BATCH, 1), -1.0, 1.0, dtype=hd.float32, key=hd.random.split(key)[0])
    sync = benchlib.sync_for(backend)
    hedera_fns = {"eager": hedera_rollout(env), "compiled": hd.jit(hedera_rollout(env))}
    native = native_rollouts(backend, env)
    rows = []
    for mode in ("eager", "compiled"):
        if mode == "eager" and steps > EAGER_MAX_STEPS and backend != "torch":
            continue
        compile_s = {}
        for who, fn in (("hedera", hedera_fns[mode]), ("native", native[mode])):
            start = time.perf_counter()
            sync(fn(state, actions))
            compile_s[who] = time.perf_counter() - start
            for _ in range(WARM_CALLS):  # (paired_block_times sizes its blocks by one call's time)
                sync(fn(state, actions))
        times = benchlib.paired_block_times(
            {
                who: (lambda fn=fn: sync(fn(state, actions)))
                for who, fn in (("hedera", hedera_fns[mode]), ("native", native[mode]))
            },
            rounds,
            block_s,
        )
        h, n = times["hedera"] / steps, times["native"] / steps
        rows.append(
            {
                "backend": backend,
                "mode": mode,
                "steps": steps,
                "hedera_first_call_s": compile_s["hedera"],
                "native_first_call_s": compile_s["native"],
                "hedera_us_per_step": h * 1e6,
                "native_us_per_step": n * 1e6,
                "ratio": times["ratio_hedera_native"],
            }
        )
    return rows


def summarize(rows: list[dict]) -> dict:
    out: dict[str, dict] = {}
    for backend in sorted({r["backend"] for r in rows}):
        compiled = {r["steps"]: r for r in rows if r["backend"] == backend and r["mode"] == "compiled"}
        if 10 in compiled and 1000 in compiled:
            short, long = compiled[10], compiled[1000]
            marginal = {
                who: (long[f"{who}_us_per_step"] * 1000 - short[f"{who}_us_per_step"] * 10) / 990
                for who in ("hedera", "native")
            }
            out[backend] = {
                "compile_1000_over_10": long["hedera_first_call_s"] / short["hedera_first_call_s"],
                "marginal_us_per_step": marginal,
                "marginal_ratio": marginal["hedera"] / marginal["native"],
            }
    return out


def table(rows: list[dict]) -> str:
    lines = [
        "| backend | mode | steps | hedera first call (s) | native first call (s) | hedera µs/step "
        "| native µs/step | ratio |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['backend']} | {r['mode']} | {r['steps']} | {r['hedera_first_call_s']:.2f} | "
            f"{r['native_first_call_s']:.2f} | {r['hedera_us_per_step']:.1f} | "
            f"{r['native_us_per_step']:.1f} | {r['ratio']:.3f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    installed = [b for b in ("torch", "jax", "tensorflow") if b in hd.available_backends()]
    parser.add_argument("--backends", default=",".join(installed))
    parser.add_argument("--quick", action="store_true", help="smoke mode: 10 steps, few repeats")
    parser.add_argument("--output", type=Path, default=benchlib.RESULTS / "control_flow.json")
    args = parser.parse_args(argv)
    backends = [b for b in args.backends.split(",") if b and b != "numpy"]
    lengths = (10,) if args.quick else (10, 100, 1000)
    # 31 rounds: the median of the per-round ratios resolves a 5 % target at 10 steps, where a
    # compiled call lasts microseconds (jax) and one round's ratio varies by a few per cent
    rounds, block_s = (2, 0.01) if args.quick else (31, 0.05)
    rows = []
    for b in backends:
        for n in lengths:
            for row in measure(b, n, rounds, block_s):
                rows.append(row)
                print(table([row]).splitlines()[-1], flush=True)
    result = {**benchlib.header(args.quick), "rows": rows, "summary": summarize(rows)}
    benchlib.write_json(args.output, result)
    print(table(rows))
    for backend, s in result["summary"].items():
        print(
            f"{backend}: compile time of 1000 steps / 10 steps = {s['compile_1000_over_10']:.2f}; "
            f"marginal time per step, hedera / native (compiled) = {s['marginal_ratio']:.3f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
