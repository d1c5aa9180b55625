"""The optimizer step alone on torch: ``hd.optim.Adam``'s ``opt.step`` against ``torch.optim.Adam.step()``.

On the parameter sets of ``benchmarks/training_step.py``'s four models (the same shapes), with
fixed gradients, CPU time per step, paired in random order per round (``benchlib.paired_block_times``):

* ``hedera``: ``opt.step(model, grads)`` (on torch eager, ``torch._fused_adam_`` through
  ``hd.nn_ops.fused_adam``), and ``opt.update(grads, state, params)`` (pure: it copies the
  parameters and the state first);
* ``native``: ``torch.optim.Adam(params, lr)`` with its CPU default (the single-tensor loop of
  ``lerp_``/``addcmul_``/``addcdiv_``), what ``training_step.py``'s native torch step runs, and
  ``torch.optim.Adam(..., fused=True)``, the kernel hedera calls.

Run::

    python benchmarks/optimizer_step.py            # all four models
    python benchmarks/optimizer_step.py --quick    # smoke mode (the MLP and the LSTM, few rounds)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import benchlib

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


def run(models: tuple[str, ...], rounds: int) -> list[dict[str, Any]]:
    rows = []
    for name in models:
        fns = sides(name)
        params = fns.pop("parameters")
        for fn in fns.values():  # warm up (the first steps allocate the state)
            for _ in range(3):
                fn()
        t = benchlib.paired_block_times(fns, rounds, block_s=0.02)
        rows.append(
            {
                "model": name,
                "tensors": len(params),
                "elements": int(sum(p.numel() for p in params)),
                **{f"{k}_us": t[k] * 1e6 for k in fns},
                "ratio_step_default": t["ratio_hedera_step_torch_default"],
                "ratio_step_fused": t["hedera_step"] / t["torch_fused"],
                "ratio_update_default": t["hedera_update"] / t["torch_default"],
            }
        )
    return rows


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
    parser.add_argument("--backends", default="torch", help="only torch is timed (others: nothing to do)")
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
    benchlib.write_json(args.output, data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
