"""Train the digits CNN data-parallel with ``hd.distributed``, and check it against one device.

::

    python examples/train_data_parallel.py --backend jax --replicas 4
    python examples/train_data_parallel.py --backend torch --replicas 4       # 4 gloo processes
    python examples/train_data_parallel.py --backend tensorflow --replicas 4  # MirroredStrategy

The model, data, initial weights and batches are those of ``train_digits.py``. The
data-parallel step is the one-device step plus two ``pmean`` calls (gradients and loss)::

    step = hd.distributed.data_parallel(per_replica_step, mesh, "data", batch_argnums=(2, 3))

On jax the ``--replicas`` devices are CPU devices that XLA is told to make
(``--xla_force_host_platform_device_count``, set here before jax starts); on tensorflow they
are logical CPU devices; on torch they are ``--replicas`` processes started by
``hd.distributed.launch`` (gloo on 127.0.0.1, one CPU thread each). Every batch is split into
``--replicas`` equal parts; the script prints each replica's part size (from an
``all_gather`` of the replicas' own counts), the loss, and the largest difference between
the parameters trained data-parallel and those trained on one device with whole batches
from the same start, which must stay within ``--tolerance``. The loss curves go to
``examples/out/train_data_parallel_loss.png``.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sys
import time
from typing import Any

import numpy as np
from _shared import AUTODIFF_BACKENDS, OUT_DIR, save_figure
from train_digits import batches, load_data, make_model

import hedera as hd

F = hd.nn.functional
D, P = hd.distributed, hd.distributed.P


def prepare_devices(backend: str, replicas: int) -> None:
    """Give jax or tensorflow ``replicas`` CPU devices; must run before that framework starts."""
    if backend == "jax":
        flag = f"--xla_force_host_platform_device_count={replicas}"
        if "jax" in sys.modules:
            raise RuntimeError("jax started before its CPU devices could be set")
        os.environ["XLA_FLAGS"] = f"{os.environ.get('XLA_FLAGS', '')} {flag}".strip()
    elif backend == "tensorflow":
        import tensorflow as tf

        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * replicas)


def make_steps(model: hd.nn.Module, opt: hd.optim.Optimizer) -> tuple[Any, Any]:
    """``(one_device_step, per_replica_step)``: the same update; the second averages over ``"data"``."""

    def loss_fn(params: hd.Container, x: Any, y: Any) -> Any:
        return F.cross_entropy(model.apply(params, x), y)

    def one_device(params: hd.Container, opt_state: hd.Container, x: Any, y: Any) -> tuple:
        loss, grads = hd.value_and_grad(loss_fn)(params, x, y)
        params, opt_state = opt.update(grads, opt_state, params)
        return params, opt_state, loss, hd.reshape(hd.sum(hd.ones_like(y)), (1,))

    def per_replica(params: hd.Container, opt_state: hd.Container, x: Any, y: Any) -> tuple:
        loss, grads = hd.value_and_grad(loss_fn)(params, x, y)
        grads = D.pmean(grads, "data")  # the replicas' mean gradient: the whole batch's
        params, opt_state = opt.update(grads, opt_state, params)
        own = hd.sum(hd.ones_like(y))  # this replica's part of the batch
        return params, opt_state, D.pmean(loss, "data"), D.all_gather(own, "data")

    return one_device, per_replica


def train(backend: str, replicas: int, args: argparse.Namespace) -> dict[str, Any]:
    """Train data-parallel and on one device from the same start; losses, part sizes, differences."""
    data = load_data(args.seed)
    with hd.use_backend("numpy"):
        init = make_model(args.seed).parameters()
    model = make_model(args.seed)
    opt = hd.optim.Adam(args.lr)
    one_device, per_replica = make_steps(model, opt)
    mesh = D.Mesh(replicas, "data", backend=backend)
    steps = {
        "one device": one_device,
        "data-parallel": D.data_parallel(per_replica, mesh, "data", batch_argnums=(2, 3)),
    }
    order = batches(len(data["x_train"]), args.batch_size, args.epochs, args.seed)[: args.steps]
    x_all = hd.asarray(data["x_train"], backend=backend)
    y_all = hd.asarray(data["y_train"], backend=backend)
    out: dict[str, Any] = {"losses": {}, "params": {}, "seconds": {}}
    for name, step in steps.items():
        params = init.to_backend(backend)
        parallel = name == "data-parallel"
        opt_state = opt.init(params)
        if parallel:  # parameters and optimizer state replicated on every device
            params, opt_state = D.shard_params(params, mesh), D.shard_params(opt_state, mesh)
        run = hd.jit(step) if backend != "torch" else step
        losses, start = [], time.perf_counter()
        for idx in order:
            i = hd.asarray(idx, backend=backend)
            x, y = hd.take(x_all, i, axis=0), hd.take(y_all, i, axis=0)
            if parallel:
                x, y = D.shard(x, mesh, P("data")), D.shard(y, mesh, P("data"))
            params, opt_state, loss, parts = run(params, opt_state, x, y)
            losses.append(float(hd.to_numpy(D.gather(loss))))
        out["seconds"][name] = time.perf_counter() - start
        out["losses"][name] = losses
        out["params"][name] = hd.tree.to_numpy(D.gather_params(params))
        if parallel:
            out["parts"] = [int(p) for p in hd.to_numpy(D.gather(parts))]
    one, dp = (hd.tree.leaves(out["params"][k]) for k in ("one device", "data-parallel"))
    out["max_difference"] = max(float(np.max(np.abs(a - b))) for a, b in zip(one, dp, strict=True))
    del out["params"]
    return out


def torch_rank(replicas: int, args: argparse.Namespace) -> dict[str, Any]:
    """One torch process of the job: every rank trains (each step is a collective)."""
    import torch

    torch.set_num_threads(1)
    result = train("torch", replicas, args)
    result["rank"] = D.process_index()
    return result


def plot(results: dict[str, dict], replicas: int, path: pathlib.Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for backend, r in results.items():
        ax.plot(r["losses"]["one device"], "-", linewidth=4, alpha=0.35, label=f"{backend}, one device")
        ax.plot(r["losses"]["data-parallel"], "--", linewidth=1.5, label=f"{backend}, {replicas} replicas")
    ax.set_xlabel("training step")
    ax.set_ylabel("cross-entropy")
    ax.set_yscale("log")
    ax.set_title(f"Digits CNN, data-parallel on {replicas} replicas vs one device")
    ax.legend(fontsize=8)
    fig.tight_layout()
    save_figure(fig, path, dpi=120)


def main(argv: list[str] | None = None) -> dict[str, dict]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--backend", action="append", choices=AUTODIFF_BACKENDS,
                        help="repeatable; default: jax, torch and tensorflow")  # fmt: skip
    parser.add_argument("--replicas", type=int, default=4)
    parser.add_argument("--steps", type=int, default=60, help="training steps")
    parser.add_argument("--batch-size", type=int, default=64, help="global batch (split over the replicas)")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tolerance", type=float, default=1e-5, help="largest parameter difference allowed")
    parser.add_argument("--plot", type=pathlib.Path, default=OUT_DIR / "train_data_parallel_loss.png")
    args = parser.parse_args(argv)
    if args.batch_size % args.replicas:
        parser.error(f"--batch-size {args.batch_size} must be divisible by --replicas {args.replicas}")
    backends = args.backend or [b for b in AUTODIFF_BACKENDS if b in hd.available_backends()]
    for b in backends:
        if b != "torch":
            prepare_devices(b, args.replicas)

    results = {}
    for b in backends:
        if b == "torch":
            ranks = D.launch(torch_rank, args.replicas, args=(args.replicas, args), timeout=900)
            results[b] = ranks[0]
            results[b]["ranks_agree"] = all(r["losses"] == ranks[0]["losses"] for r in ranks)
        else:
            results[b] = train(b, args.replicas, args)

    print(f"digits CNN, {args.steps} Adam steps, global batch {args.batch_size}, {args.replicas} replicas")
    print(f"{'backend':<11} {'per-replica batch':<18} {'first loss':>10} {'last loss':>10} "
          f"{'max |dp - one|':>14} {'same':>5} {'dp s':>6} {'one s':>6}")  # fmt: skip
    ok = True
    for b, r in results.items():
        same = r["max_difference"] <= args.tolerance
        ok &= same
        dp_losses = r["losses"]["data-parallel"]
        print(f"{b:<11} {r['parts']!s:<18} {dp_losses[0]:>10.4f} {dp_losses[-1]:>10.4f} "
              f"{r['max_difference']:>14.2e} {'yes' if same else 'NO':>5} "
              f"{r['seconds']['data-parallel']:>6.1f} {r['seconds']['one device']:>6.1f}")  # fmt: skip
    every = max(args.steps // 6, 1)
    for b, r in results.items():
        for name, losses in r["losses"].items():
            shown = " ".join(f"{losses[i]:.4f}" for i in range(0, len(losses), every))
            print(f"{b:<11} loss every {every} steps, {name:<13}: {shown}")
    if results:
        plot(results, args.replicas, args.plot)
        print(f"loss curves: {args.plot}")
    if not ok:
        raise SystemExit(f"data-parallel training differs from one device by more than {args.tolerance}")
    return results


if __name__ == "__main__":
    main()
