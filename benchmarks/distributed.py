"""What ``hd.distributed`` adds to a data-parallel training step, against the same step written natively.

For each backend, one data-parallel SGD step of an MLP on 2 replicas, written twice with the
same per-replica body (hedera ops: forward, ``hd.value_and_grad``, SGD update):

* **native**: the framework's own data-parallel machinery around it:
  jax: ``jax.jit(jax.shard_map(...))`` with ``jax.lax.pmean`` on the gradients;
  torch: each of 2 gloo processes takes its slice of the batch and averages the gradients with
  ``torch.distributed.all_reduce`` (what DDP's reducer does, without its bucketing);
  tensorflow: ``tf.function`` around ``MirroredStrategy.run`` with ``ReplicaContext.all_reduce``;
* **hedera**: ``hd.jit(hd.distributed.data_parallel(step, mesh, "data", batch_argnums=(2, 3)))``
  with ``hd.distributed.pmean`` (torch: eager, ``data_parallel`` alone).

The two variants are timed in alternation (rounds of a fixed number of steps, the same on every
torch rank, since each step is a collective), wall-clock; the result is the median over rounds
of the per-round ratio hedera / native. On 2 shared CPU cores, speed-up over one device means
nothing, so only that overhead is reported. Every backend runs in its own process (jax with 2
forced CPU devices, tensorflow with 2 logical CPUs; torch as 2 ranks of ``hd.distributed.launch``).

Usage::

    python benchmarks/distributed.py             # full run: table, benchmarks/results/distributed.json
    python benchmarks/distributed.py --quick     # smoke mode (used by the tests)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import benchlib
import numpy as np

import hedera as hd

BACKENDS = ("jax", "torch", "tensorflow")
REPLICAS = 2
SIZES = {"full": (256, 512, 10, 512), "quick": (16, 32, 4, 32)}  # in, hidden, out, global batch
LR = 0.05


def problem(quick: bool) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray]:
    n_in, hidden, n_out, batch = SIZES["quick" if quick else "full"]
    rng = np.random.default_rng(0)
    params = {
        "w1": (rng.normal(size=(n_in, hidden)) / np.sqrt(n_in)).astype(np.float32),
        "b1": np.zeros(hidden, np.float32),
        "w2": (rng.normal(size=(hidden, hidden)) / np.sqrt(hidden)).astype(np.float32),
        "b2": np.zeros(hidden, np.float32),
        "w3": (rng.normal(size=(hidden, n_out)) / np.sqrt(hidden)).astype(np.float32),
        "b3": np.zeros(n_out, np.float32),
    }
    x = rng.normal(size=(batch, n_in)).astype(np.float32)
    y = rng.integers(0, n_out, size=batch).astype(np.int64)
    return params, x, y


def make_step(pmean: Any) -> Any:
    """The per-replica step; ``pmean(tree)`` averages a tree over the replicas."""

    def loss_fn(p: Any, x: Any, y: Any) -> Any:
        h = hd.tanh(hd.matmul(x, p["w1"]) + p["b1"])
        h = hd.tanh(hd.matmul(h, p["w2"]) + p["b2"])
        return hd.nn.functional.cross_entropy(hd.matmul(h, p["w3"]) + p["b3"], y)

    def step(params: Any, x: Any, y: Any) -> tuple:
        loss, grads = hd.value_and_grad(loss_fn)(params, x, y)
        grads = pmean(grads)
        return hd.tree.map(lambda p, g: p - LR * g, params, grads), pmean(loss)

    return step


def hedera_step(backend: str, mesh: Any) -> Any:
    D = hd.distributed  # noqa: N806 - the module's usual short name
    step = D.data_parallel(make_step(lambda t: D.pmean(t, "data")), mesh, "data", batch_argnums=(1, 2))
    return step if backend == "torch" else hd.jit(step)


# ---- native variants -----------------------------------------------------------------------------


def native_jax(mesh: Any) -> Any:
    import jax
    from jax.sharding import PartitionSpec as JaxP

    step = make_step(lambda t: jax.lax.pmean(t, "data"))
    mapped = jax.shard_map(step, mesh=mesh.native, in_specs=(JaxP(), JaxP("data"), JaxP("data")),
                           out_specs=JaxP(), check_vma=False)  # fmt: skip
    return jax.jit(mapped)


def native_torch() -> Any:
    import torch.distributed as dist

    world, rank = dist.get_world_size(), dist.get_rank()

    def pmean(tree: Any) -> Any:
        def one(g: Any) -> Any:
            g = g.clone()
            dist.all_reduce(g)
            return g / world

        return hd.tree.map(one, tree)

    inner = make_step(pmean)

    def step(params: Any, x: Any, y: Any) -> tuple:
        b = x.shape[0] // world
        return inner(params, x.narrow(0, rank * b, b), y.narrow(0, rank * b, b))

    return step


def native_tensorflow(mesh: Any) -> Any:
    import tensorflow as tf

    strategy = mesh.native

    def pmean(tree: Any) -> Any:
        ctx = tf.distribute.get_replica_context()
        return hd.tree.map(lambda g: ctx.all_reduce(tf.distribute.ReduceOp.MEAN, g), tree)

    inner = make_step(pmean)

    @tf.function
    def step(params: Any, x: Any, y: Any) -> tuple:
        n = strategy.num_replicas_in_sync
        b = x.shape[0] // n

        def part(t: Any) -> Any:
            return strategy.experimental_distribute_values_from_function(
                lambda ctx: t[ctx.replica_id_in_sync_group * b : (ctx.replica_id_in_sync_group + 1) * b]
            )

        flat, treedef = hd.tree.flatten(params)

        def replica(flat_params: Any, xs: Any, ys: Any) -> Any:
            new, loss = inner(hd.tree.unflatten(treedef, list(flat_params)), xs, ys)
            return tuple(hd.tree.leaves(new)), loss

        new, loss = strategy.run(replica, args=(tuple(flat), part(x), part(y)))
        first = strategy.experimental_local_results
        return hd.tree.unflatten(treedef, [first(v)[0] for v in new]), first(loss)[0]

    return step


# ---- timing ---------------------------------------------------------------------------------------


def _sync(backend: str, out: Any) -> None:
    hd.to_numpy(hd.distributed.gather(out[1]))  # waits for jax's asynchronous dispatch too


def measure(backend: str, variants: dict[str, Any], inputs: tuple, rounds: int, steps: int) -> dict:
    """Wall seconds per step of each variant, rounds alternating; the per-round ratio's median."""
    state = {name: inputs[0] for name in variants}
    for name, fn in variants.items():  # compile / warm up
        for _ in range(2):
            out = fn(state[name], *inputs[1:])
            state[name] = out[0]
        _sync(backend, out)
    per_step: dict[str, list[float]] = {name: [] for name in variants}
    cpu: dict[str, list[float]] = {name: [] for name in variants}
    for r in range(rounds):
        order = list(variants) if r % 2 == 0 else list(reversed(variants))
        for name in order:
            fn = variants[name]
            start, start_cpu = time.perf_counter(), time.process_time()
            for _ in range(steps):
                out = fn(state[name], *inputs[1:])
                state[name] = out[0]
            _sync(backend, out)
            per_step[name].append((time.perf_counter() - start) / steps)
            cpu[name].append((time.process_time() - start_cpu) / steps)

    def added(times: dict[str, list[float]]) -> float:
        ratios = [h / n for h, n in zip(times["hedera"], times["native"], strict=True)]
        return 100 * (statistics.median(ratios) - 1)

    return {
        "native_ms": 1e3 * statistics.median(per_step["native"]),
        "hedera_ms": 1e3 * statistics.median(per_step["hedera"]),
        "added_pct": added(per_step),
        "added_pct_cpu": added(cpu),  # this process's CPU time: less exposed to the other processes
        "added_pct_min_ratio": 100 * (min(per_step["hedera"]) / min(per_step["native"]) - 1),
        "rounds": rounds,
        "steps_per_round": steps,
    }


def layer_cost_us(backend: str, mesh: Any, inputs: tuple, quick: bool) -> float | None:
    """Microseconds ``data_parallel`` adds per call around a step that does nothing (torch, where
    the layer runs every step; on jax and tensorflow it runs only while ``hd.jit`` traces)."""
    if backend != "torch":
        return None
    import timeit

    def nothing(params: Any, x: Any, y: Any) -> tuple:
        return params, x

    wrapped = hd.distributed.data_parallel(nothing, mesh, "data", batch_argnums=(1, 2))
    number, repeat = (50, 3) if quick else (2000, 7)
    bare = min(timeit.repeat(lambda: nothing(*inputs), number=number, repeat=repeat))
    layered = min(timeit.repeat(lambda: wrapped(*inputs), number=number, repeat=repeat))
    return 1e6 * (layered - bare) / number


def run_backend(backend: str, quick: bool) -> dict:
    """Both variants on this process's 2-replica mesh (torch: this rank of the job)."""
    D = hd.distributed  # noqa: N806
    mesh = D.Mesh(REPLICAS, "data", backend=backend)
    init, x_np, y_np = problem(quick)
    params = {k: hd.asarray(v, backend=backend) for k, v in init.items()}
    x, y = hd.asarray(x_np, backend=backend), hd.asarray(y_np, backend=backend)
    native = {"jax": lambda: native_jax(mesh), "torch": native_torch,
              "tensorflow": lambda: native_tensorflow(mesh)}[backend]()  # fmt: skip
    hedera = hedera_step(backend, mesh)
    if backend == "jax":
        params, x, y = (
            D.shard_params(params, mesh),
            D.shard(x, mesh, D.P("data")),
            D.shard(y, mesh, D.P("data")),
        )
    # the two variants compute the same step
    a, b = native(params, x, y), hedera(params, x, y)
    same = max(
        float(np.max(np.abs(hd.to_numpy(D.gather(a[0][k])) - hd.to_numpy(D.gather(b[0][k]))))) for k in init
    )
    rounds, steps = (3, 2) if quick else (15, 20)
    row = measure(backend, {"native": native, "hedera": hedera}, (params, x, y), rounds, steps)
    row.update(
        backend=backend,
        replicas=REPLICAS,
        max_param_difference=same,
        sizes=SIZES["quick" if quick else "full"],
    )
    row["layer_us_per_call"] = layer_cost_us(backend, mesh, (params, x, y), quick)
    return row


def torch_rank(quick: bool) -> dict:
    import torch

    torch.set_num_threads(1)
    return run_backend("torch", quick)


def _worker(backend: str, quick: bool, out: Path) -> None:
    if backend == "tensorflow":
        import tensorflow as tf

        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * REPLICAS)
    out.write_text(json.dumps(run_backend(backend, quick)))


def run_in_process(backend: str, quick: bool) -> dict:
    if backend == "torch":
        return hd.distributed.launch(torch_rank, REPLICAS, args=(quick,), timeout=900)[0]
    env = dict(os.environ, OMP_NUM_THREADS="1", TF_NUM_INTRAOP_THREADS="1", TF_NUM_INTEROP_THREADS="1",
               TF_CPP_MIN_LOG_LEVEL="2")  # fmt: skip
    if backend == "jax":
        env["XLA_FLAGS"] = f"{env.get('XLA_FLAGS', '')} --xla_force_host_platform_device_count={REPLICAS}"
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "row.json"
        cmd = [sys.executable, __file__, "--worker", backend, "--worker-output", str(out)]
        proc = subprocess.run(cmd + (["--quick"] if quick else []), env=env, capture_output=True, text=True,
                              timeout=900)  # fmt: skip
        if proc.returncode != 0:
            raise RuntimeError(f"distributed benchmark on {backend} failed:\n{proc.stderr[-3000:]}")
        return json.loads(out.read_text())


def table(rows: list[dict]) -> str:
    lines = ["| backend | replicas | native ms/step | hedera ms/step | added (wall) | added (CPU) | "
             "layer us/call | same result |", "|---|---:|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
    for r in rows:
        layer = "trace only" if r["layer_us_per_call"] is None else f"{r['layer_us_per_call']:.0f}"
        lines.append(f"| {r['backend']} | {r['replicas']} | {r['native_ms']:.3f} | {r['hedera_ms']:.3f} | "
                     f"{r['added_pct']:+.1f} % | {r['added_pct_cpu']:+.1f} % | {layer} | "
                     f"{r['max_param_difference']:.1e} |")  # fmt: skip
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="smoke mode: tiny sizes, few rounds")
    parser.add_argument("--backends", default=",".join(BACKENDS))
    parser.add_argument("--output", type=Path, default=benchlib.RESULTS / "distributed.json")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--worker-output", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        _worker(args.worker, args.quick, args.worker_output)
        return 0
    chosen = [b for b in args.backends.split(",") if b in BACKENDS]
    rows = [run_in_process(b, args.quick) for b in chosen if b in hd.available_backends()]
    data = {**benchlib.header(args.quick), "rows": rows}
    benchlib.write_json(args.output, data)
    print(table(rows))
    print(f"load average {os.getloadavg()}; wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
