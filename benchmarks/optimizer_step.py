"""The optimizer step alone: ``hd.optim.Adam`` against ``torch.optim.Adam`` and ``keras.optimizers.Adam``.

On the parameter sets of ``benchmarks/training_step.py``'s four models (the same shapes), with
fixed gradients, CPU time per step, paired in random order per round (``benchlib.paired_block_times``):

* ``hedera``: ``opt.step(model, grads)`` (on torch eager, ``torch._fused_adam_`` through
  ``hd.nn_ops.fused_adam``), and ``opt.update(grads, state, params)`` (pure: it copies the
  parameters and the state first);
* ``native``: ``torch.optim.Adam(params, lr)`` with its CPU default (the single-tensor loop of
  ``lerp_``/``addcmul_``/``addcdiv_``), what ``training_step.py``'s native torch step runs, and
  ``torch.optim.Adam(..., fused=True)``, the kernel hedera calls.

On TensorFlow (``--backends tensorflow``), each inside a ``tf.function`` as the training step runs it:

* ``hedera``: ``opt.update(grads, state, params)`` under ``hd.jit(..., donate_argnums=(0, 1))`` as
  ``training_step.py``'s step (``hd.nn_ops.fused_adam``: TensorFlow's ``ResourceApplyAdam`` on the
  donated variables, in place, ``eps`` scaled to torch.optim's placement);
* ``keras``: ``keras.optimizers.Adam.apply(grads, variables)``, the optimizer of
  ``training_step.py``'s Keras step (in-place ``assign`` on variables).

Run::

    python benchmarks/optimizer_step.py            # all four models
    python benchmarks/optimizer_step.py --quick    # smoke mode (the MLP and the LSTM, few rounds)
    python benchmarks/optimizer_step.py --backends torch,tensorflow
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import benchlib
import numpy as np

MODELS = ("mlp", "cnn", "transformer", "lstm")


def sides(name: str) -> dict[str, Any]:
    """The four steps to time on ``name``'s parameters: hedera's step and update, torch.optim's two."""
    import torch
    import training_step as ts

    import hedera as hd

    model = ts.hedera_model(name, "torch")
    gen = torch.Generator().manual_seed(0)
    grads = model.parameters().map(lambda p: torch.randn(p.shape, generator=gen) * 1e-2)
    opt = hd.optim.Adam(ts.LR, betas=ts.BETAS, eps=ts.EPS)
    functional = hd.optim.Adam(ts.LR, betas=ts.BETAS, eps=ts.EPS)
    box = {"params": model.parameters().map(torch.clone)}
    box["state"] = functional.init(box["params"])

    def update() -> None:
        box["params"], box["state"] = functional.update(grads, box["state"], box["params"])

    def torch_optimizer(**options: Any) -> Any:
        params = [torch.nn.Parameter(p.detach().clone()) for p in hd.tree.leaves(model.parameters())]
        for p, g in zip(params, hd.tree.leaves(grads), strict=True):
            p.grad = g.clone()
        return torch.optim.Adam(params, lr=ts.LR, betas=ts.BETAS, eps=ts.EPS, **options)

    return {
        "hedera_step": lambda: opt.step(model, grads),
        "torch_default": torch_optimizer().step,
        "hedera_update": update,
        "torch_fused": torch_optimizer(fused=True).step,
        "parameters": hd.tree.leaves(model.parameters()),
    }


def timed_sides(name: str, fns: dict[str, Any], rounds: int, warmups: int) -> tuple[dict, dict]:
    """``(times, row)``: each side's seconds per call (:func:`benchlib.paired_block_times`, after
    ``warmups`` calls of each) and the row's model, tensor and element counts."""
    params = fns.pop("parameters")
    for fn in fns.values():
        for _ in range(warmups):
            fn()
    times = benchlib.paired_block_times(fns, rounds, block_s=0.02)
    elements = int(sum(int(np.prod(p.shape)) for p in params))
    return times, {"model": name, "tensors": len(params), "elements": elements}


def run(models: tuple[str, ...], rounds: int) -> list[dict[str, Any]]:
    rows = []
    for name in models:
        fns = sides(name)
        t, row = timed_sides(name, fns, rounds, warmups=3)  # (the first steps allocate the state)
        rows.append(
            {
                **row,
                **{f"{k}_us": t[k] * 1e6 for k in fns},
                "ratio_step_default": t["ratio_hedera_step_torch_default"],
                "ratio_step_fused": t["hedera_step"] / t["torch_fused"],
                "ratio_update_default": t["hedera_update"] / t["torch_default"],
            }
        )
    return rows


def tensorflow_sides(name: str) -> dict[str, Any]:
    """hedera's ``opt.update`` and Keras' ``Adam.apply`` on ``name``'s parameters, each a ``tf.function``
    of one step (the result fetched to the host)."""
    import keras
    import tensorflow as tf
    import training_step as ts

    import hedera as hd

    model = ts.hedera_model(name, "tensorflow")
    rng = np.random.default_rng(0)
    grads = model.parameters().map(
        lambda p: tf.constant(rng.standard_normal(p.shape).astype(np.float32) * 1e-2)
    )
    opt = hd.optim.Adam(ts.LR, betas=ts.BETAS, eps=ts.EPS)
    box = {"params": model.parameters()}
    box["state"] = opt.init(box["params"])

    # as training_step.py's hedera step: hd.jit (a tf.function over variables, updated in place)
    def update_of(params: Any, state: Any) -> Any:
        return opt.update(grads, state, params)

    update = hd.jit(update_of, donate_argnums=(0, 1))

    def hedera_update() -> None:
        box["params"], box["state"] = update(box["params"], box["state"])
        hd.tree.leaves(box["params"])[0].numpy()

    variables = [tf.Variable(p) for p in hd.tree.leaves(model.parameters())]
    keras_opt = keras.optimizers.Adam(
        learning_rate=ts.LR, beta_1=ts.BETAS[0], beta_2=ts.BETAS[1], epsilon=ts.EPS
    )
    keras_opt.build(variables)
    grad_list = hd.tree.leaves(grads)

    @tf.function
    def apply() -> None:
        keras_opt.apply(grad_list, variables)

    def keras_apply() -> None:
        apply()
        variables[0].numpy()

    return {"hedera_update": hedera_update, "keras": keras_apply, "parameters": hd.tree.leaves(box["params"])}


def run_tensorflow(models: tuple[str, ...], rounds: int) -> list[dict[str, Any]]:
    rows = []
    for name in models:
        # (warm-up: tracing, XLA compilation, the variables' first reads)
        t, row = timed_sides(name, tensorflow_sides(name), rounds, warmups=10)
        rows.append(
            {
                **row,
                "hedera_update_us": t["hedera_update"] * 1e6,
                "keras_us": t["keras"] * 1e6,
                "ratio_update_keras": t["ratio_hedera_update_keras"],
            }
        )
    return rows


def tensorflow_table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| model (tensorflow, tf.function) | tensors | elements | hd update us | keras Adam us "
        "| update / keras |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['model']} | {r['tensors']} | {r['elements']} | {r['hedera_update_us']:.1f} | "
            f"{r['keras_us']:.1f} | {r['ratio_update_keras']:.2f} |"
        )
    return "\n".join(lines)


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| model | tensors | elements | hd step us | hd update us | torch.optim us | fused=True us "
        "| step / torch.optim | step / fused | update / torch.optim |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['model']} | {r['tensors']} | {r['elements']} | {r['hedera_step_us']:.1f} | "
            f"{r['hedera_update_us']:.1f} | {r['torch_default_us']:.1f} | {r['torch_fused_us']:.1f} | "
            f"{r['ratio_step_default']:.2f} | {r['ratio_step_fused']:.2f} | {r['ratio_update_default']:.2f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smoke mode: the MLP and the LSTM, few rounds")
    parser.add_argument("--backends", default="torch", help="torch and/or tensorflow (others: nothing to do)")
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--output", type=Path, default=benchlib.RESULTS / "optimizer_step.json")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    data = benchlib.header(args.quick)
    rows: list[dict[str, Any]] = []
    if "torch" in args.backends.split(","):
        import torch

        torch.set_num_threads(1)
        models = ("mlp", "lstm") if args.quick else tuple(args.models.split(","))
        rows = run(models, 3 if args.quick else args.rounds)
        print(table(rows))
    data["rows"] = rows
    if "tensorflow" in args.backends.split(","):
        import tensorflow as tf

        tf.config.threading.set_intra_op_parallelism_threads(1)
        models = ("mlp", "lstm") if args.quick else tuple(args.models.split(","))
        data["tensorflow_rows"] = run_tensorflow(models, 3 if args.quick else args.rounds)
        print(tensorflow_table(data["tensorflow_rows"]))
    benchlib.write_json(args.output, data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
