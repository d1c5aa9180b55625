"""Per-call dispatch overhead of hedera against the native framework call.

For about 30 representative functions on each installed backend, times in one
process:

* the native call (``torch.sin(x)``),
* ``hd.f(...)`` (the dispatching front),
* ``hd.namespace(backend).f(...)`` (the backend namespace, no dispatch),

on inputs of 1 and of 1000 elements, and reports nanoseconds per call (min and
median of repeats) and the overhead added by hedera. It also times
``array_api_compat.array_namespace(x)`` (where installed), the per-call cost of
the closest peer's namespace lookup, to compare with hedera's dispatch cost
(front minus namespace).

Usage::

    python benchmarks/dispatch_overhead.py            # full run, prints tables, writes JSON
    python benchmarks/dispatch_overhead.py --quick    # smoke mode (used by the tests)

Performance is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import timeit
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

import hedera as hd

RESULTS = Path(__file__).resolve().parent / "results"

# name -> (hedera call, {backend: native call}, one_to_one)
# one_to_one: the backend function is the native function (or a trivial alias), so the
# whole difference is dispatch; the others include a conformance shim by design.
CASES: dict[str, tuple[str, dict[str, str], bool]] = {
    "abs": ("hd.abs(x)", {"numpy": "np.abs(x)", "torch": "torch.abs(x)", "jax": "jnp.abs(x)", "tensorflow": "tf.math.abs(x)"}, True),
    "sin": ("hd.sin(x)", {"numpy": "np.sin(x)", "torch": "torch.sin(x)", "jax": "jnp.sin(x)", "tensorflow": "tf.math.sin(x)"}, True),
    "exp": ("hd.exp(x)", {"numpy": "np.exp(x)", "torch": "torch.exp(x)", "jax": "jnp.exp(x)", "tensorflow": "tf.math.exp(x)"}, True),
    "log": ("hd.log(x)", {"numpy": "np.log(x)", "torch": "torch.log(x)", "jax": "jnp.log(x)", "tensorflow": "tf.math.log(x)"}, True),
    "sqrt": ("hd.sqrt(x)", {"numpy": "np.sqrt(x)", "torch": "torch.sqrt(x)", "jax": "jnp.sqrt(x)", "tensorflow": "tf.math.sqrt(x)"}, True),
    "tanh": ("hd.tanh(x)", {"numpy": "np.tanh(x)", "torch": "torch.tanh(x)", "jax": "jnp.tanh(x)", "tensorflow": "tf.math.tanh(x)"}, True),
    "negative": ("hd.negative(x)", {"numpy": "np.negative(x)", "torch": "torch.negative(x)", "jax": "jnp.negative(x)", "tensorflow": "tf.math.negative(x)"}, True),
    "square": ("hd.square(x)", {"numpy": "np.square(x)", "torch": "torch.square(x)", "jax": "jnp.square(x)", "tensorflow": "tf.math.square(x)"}, True),
    "isnan": ("hd.isnan(x)", {"numpy": "np.isnan(x)", "torch": "torch.isnan(x)", "jax": "jnp.isnan(x)", "tensorflow": "tf.math.is_nan(x)"}, True),
    "add": ("hd.add(x, y)", {"numpy": "np.add(x, y)", "torch": "torch.add(x, y)", "jax": "jnp.add(x, y)", "tensorflow": "tf.math.add(x, y)"}, True),
    "subtract": ("hd.subtract(x, y)", {"numpy": "np.subtract(x, y)", "torch": "torch.subtract(x, y)", "jax": "jnp.subtract(x, y)", "tensorflow": "tf.math.subtract(x, y)"}, True),
    "multiply": ("hd.multiply(x, y)", {"numpy": "np.multiply(x, y)", "torch": "torch.multiply(x, y)", "jax": "jnp.multiply(x, y)", "tensorflow": "tf.math.multiply(x, y)"}, True),
    "divide": ("hd.divide(x, y)", {"numpy": "np.divide(x, y)", "torch": "torch.divide(x, y)", "jax": "jnp.divide(x, y)", "tensorflow": "tf.math.truediv(x, y)"}, True),
    "maximum": ("hd.maximum(x, y)", {"numpy": "np.maximum(x, y)", "torch": "torch.maximum(x, y)", "jax": "jnp.maximum(x, y)", "tensorflow": "tf.math.maximum(x, y)"}, True),
    "equal": ("hd.equal(x, y)", {"numpy": "np.equal(x, y)", "torch": "torch.eq(x, y)", "jax": "jnp.equal(x, y)", "tensorflow": "tf.math.equal(x, y)"}, True),
    "less": ("hd.less(x, y)", {"numpy": "np.less(x, y)", "torch": "torch.lt(x, y)", "jax": "jnp.less(x, y)", "tensorflow": "tf.math.less(x, y)"}, True),
    "logical_and": ("hd.logical_and(c, c)", {"numpy": "np.logical_and(c, c)", "torch": "torch.logical_and(c, c)", "jax": "jnp.logical_and(c, c)", "tensorflow": "tf.math.logical_and(c, c)"}, True),
    "where": ("hd.where(c, x, y)", {"numpy": "np.where(c, x, y)", "torch": "torch.where(c, x, y)", "jax": "jnp.where(c, x, y)", "tensorflow": "tf.where(c, x, y)"}, True),
    "sum": ("hd.sum(x)", {"numpy": "np.sum(x)", "torch": "torch.sum(x)", "jax": "jnp.sum(x)", "tensorflow": "tf.math.reduce_sum(x)"}, True),
    "mean": ("hd.mean(x)", {"numpy": "np.mean(x)", "torch": "torch.mean(x)", "jax": "jnp.mean(x)", "tensorflow": "tf.math.reduce_mean(x)"}, True),
    "max": ("hd.max(x)", {"numpy": "np.max(x)", "torch": "torch.amax(x)", "jax": "jnp.max(x)", "tensorflow": "tf.math.reduce_max(x)"}, True),
    "argmax": ("hd.argmax(x)", {"numpy": "np.argmax(x)", "torch": "torch.argmax(x)", "jax": "jnp.argmax(x)", "tensorflow": "tf.math.argmax(x)"}, True),
    "matmul": ("hd.matmul(m, m)", {"numpy": "np.matmul(m, m)", "torch": "torch.matmul(m, m)", "jax": "jnp.matmul(m, m)", "tensorflow": "tf.linalg.matmul(m, m)"}, True),
    "reshape": ("hd.reshape(x, (-1, 1))", {"numpy": "np.reshape(x, (-1, 1))", "torch": "torch.reshape(x, (-1, 1))", "jax": "jnp.reshape(x, (-1, 1))", "tensorflow": "tf.reshape(x, (-1, 1))"}, True),
    "permute_dims": ("hd.permute_dims(m, (1, 0))", {"numpy": "np.transpose(m, (1, 0))", "torch": "torch.permute(m, (1, 0))", "jax": "jnp.transpose(m, (1, 0))", "tensorflow": "tf.transpose(m, (1, 0))"}, True),
    "expand_dims": ("hd.expand_dims(x, 0)", {"numpy": "np.expand_dims(x, 0)", "torch": "torch.unsqueeze(x, 0)", "jax": "jnp.expand_dims(x, 0)", "tensorflow": "tf.expand_dims(x, 0)"}, True),
    "concat": ("hd.concat([x, y])", {"numpy": "np.concatenate([x, y])", "torch": "torch.cat([x, y])", "jax": "jnp.concatenate([x, y])", "tensorflow": "tf.concat([x, y], 0)"}, True),
    "stack": ("hd.stack([x, y])", {"numpy": "np.stack([x, y])", "torch": "torch.stack([x, y])", "jax": "jnp.stack([x, y])", "tensorflow": "tf.stack([x, y])"}, True),
    "astype": ("hd.astype(x, hd.float64)", {"numpy": "x.astype(np.float64)", "torch": "x.to(torch.float64)", "jax": "x.astype(jnp.float64)", "tensorflow": "tf.cast(x, tf.float64)"}, False),
    "cumulative_sum": ("hd.cumulative_sum(x, axis=0)", {"numpy": "np.cumsum(x, axis=0)", "torch": "torch.cumsum(x, 0)", "jax": "jnp.cumsum(x, axis=0)", "tensorflow": "tf.math.cumsum(x, 0)"}, False),
    "sort": ("hd.sort(x)", {"numpy": "np.sort(x)", "torch": "torch.sort(x).values", "jax": "jnp.sort(x)", "tensorflow": "tf.sort(x)"}, False),
    "zeros": ("hd.zeros(n)", {"numpy": "np.zeros(n)", "torch": "torch.zeros(n)", "jax": "jnp.zeros(n)", "tensorflow": "tf.zeros(n)"}, False),
    "linalg.inv": ("hd.linalg.inv(m)", {"numpy": "np.linalg.inv(m)", "torch": "torch.linalg.inv(m)", "jax": "jnp.linalg.inv(m)", "tensorflow": "tf.linalg.inv(m)"}, True),
}  # fmt: skip


@dataclass
class Row:
    backend: str
    function: str
    size: int
    one_to_one: bool
    native_min_ns: float
    native_median_ns: float
    hedera_min_ns: float
    hedera_median_ns: float
    namespace_min_ns: float
    added_ns: float  # hedera min - native min
    dispatch_ns: float  # hedera min - namespace min: the front's own cost
    ratio: float  # hedera min / native min


def _environment(backend: str, size: int) -> dict:
    """Globals for the timed statements: arrays x, y (float32, ``size`` elements), c (bool), m (matrix)."""
    rng = np.random.default_rng(0)
    side = max(1, int(round(size**0.5)))
    data = {
        "x": rng.uniform(0.5, 2.0, size).astype(np.float32),
        "y": rng.uniform(0.5, 2.0, size).astype(np.float32),
        "c": rng.uniform(size=size) > 0.5,
        "m": (np.eye(side) * 2 + rng.uniform(0, 0.1, (side, side))).astype(np.float32),
    }
    env = {"hd": hd, "np": np, "n": size}
    for name, value in data.items():
        env[name] = hd.asarray(value, backend=backend)
    if backend == "torch":
        import torch

        env["torch"] = torch
    elif backend == "jax":
        import jax.numpy as jnp

        env["jnp"] = jnp
    elif backend == "tensorflow":
        import tensorflow as tf

        env["tf"] = tf
    return env


def _time(stmt: str, env: dict, repeat: int, target_s: float) -> tuple[float, float]:
    """(min, median) nanoseconds per call of ``stmt``."""
    timer = timeit.Timer(stmt, globals=env)
    number = 1
    while timer.timeit(number) < target_s and number < 1_000_000:
        number *= 4
    runs = [t / number * 1e9 for t in timer.repeat(repeat=repeat, number=number)]
    return min(runs), statistics.median(runs)


def measure(backends: list[str], sizes: list[int], repeat: int, target_s: float) -> list[Row]:
    rows = []
    for backend in backends:
        for size in sizes:
            env = _environment(backend, size)
            env["ns"] = hd.namespace(backend)
            with hd.use_backend(backend):
                for name, (front, natives, one_to_one) in CASES.items():
                    native = natives[backend]
                    namespace_stmt = front.replace("hd.", "ns.", 1)
                    for stmt in (native, front, namespace_stmt):
                        eval(stmt, env)  # warm up: caches, jit dispatch tables, lazy imports
                    n_min, n_med = _time(native, env, repeat, target_s)
                    h_min, h_med = _time(front, env, repeat, target_s)
                    s_min, _ = _time(namespace_stmt, env, repeat, target_s)
                    rows.append(
                        Row(backend, name, size, one_to_one, n_min, n_med, h_min, h_med, s_min,
                            h_min - n_min, h_min - s_min, h_min / n_min)
                    )  # fmt: skip
    return rows


def peer_lookup_ns(backends: list[str], repeat: int, target_s: float) -> dict[str, float]:
    """Per-call cost of ``array_api_compat.array_namespace(x)`` on each backend it supports."""
    try:
        import array_api_compat
    except ImportError:
        return {}
    out = {}
    for backend in backends:
        if backend == "tensorflow":
            continue  # array-api-compat has no TensorFlow support
        env = _environment(backend, 1)
        env["array_namespace"] = array_api_compat.array_namespace
        out[backend] = _time("array_namespace(x)", env, repeat, target_s)[0]
    return out


def _table(rows: list[Row], size: int) -> str:
    lines = [
        f"\n## {size}-element inputs (ns per call, min of repeats)\n",
        "| backend | function | native | hd.f | namespace.f | added | dispatch | ratio |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        if r.size != size:
            continue
        star = "" if r.one_to_one else " *"
        lines.append(
            f"| {r.backend} | {r.function}{star} | {r.native_min_ns:.0f} | {r.hedera_min_ns:.0f} | "
            f"{r.namespace_min_ns:.0f} | {r.added_ns:+.0f} | {r.dispatch_ns:+.0f} | {r.ratio:.2f} |"
        )
    return "\n".join(lines)


def summary(rows: list[Row], peers: dict[str, float]) -> dict:
    out = {}
    for backend in sorted({r.backend for r in rows}):
        mine = [r for r in rows if r.backend == backend and r.one_to_one]
        dispatch = statistics.median(r.dispatch_ns for r in rows if r.backend == backend)
        entry = {
            "median_added_ns_one_to_one": statistics.median(r.added_ns for r in mine),
            "median_dispatch_ns": dispatch,
        }
        if backend in peers:
            entry["array_api_compat_lookup_ns"] = peers[backend]
            entry["compat_over_hedera_dispatch"] = peers[backend] / max(dispatch, 1.0)
        out[backend] = entry
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backends", default=",".join(hd.available_backends()))
    parser.add_argument("--quick", action="store_true", help="smoke mode: few functions, tiny timings")
    parser.add_argument("--output", type=Path, default=RESULTS / "dispatch_overhead.json")
    args = parser.parse_args(argv)
    backends = [b for b in args.backends.split(",") if b and b != "mxnet"]
    if args.quick:
        global CASES
        CASES = {k: CASES[k] for k in ("sin", "add", "sum", "zeros")}
        sizes, repeat, target_s = [1], 2, 1e-4
    else:
        sizes, repeat, target_s = [1, 1000], 7, 0.02
    if "jax" in backends:
        import jax

        jax.config.update("jax_enable_x64", True)  # so astype(float64) means the same everywhere
    rows = measure(backends, sizes, repeat, target_s)
    peers = peer_lookup_ns(backends, repeat, target_s)
    result = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": {"platform": platform.platform(), "processor": platform.processor(), "cpus": os.cpu_count(),
                    "python": sys.version.split()[0]},
        "versions": _versions(backends),
        "quick": args.quick,
        "summary": summary(rows, peers),
        "rows": [asdict(r) for r in rows],
    }  # fmt: skip
    for size in sizes:
        print(_table(rows, size))
    print("\n* includes a conformance shim by design (not a one-to-one mapping)\n")
    print(json.dumps(result["summary"], indent=2))
    args.output.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.output.with_suffix(".tmp")
    tmp.write_text(json.dumps(result, indent=2))
    os.replace(tmp, args.output)
    print(f"\nwrote {args.output}")
    return 0


def _versions(backends: list[str]) -> dict[str, str]:
    import importlib.metadata as md

    names = {"numpy": "numpy", "torch": "torch", "jax": "jax", "tensorflow": "tensorflow-cpu"}
    out = {"hedera": hd.__version__}
    for b in backends:
        try:
            out[b] = md.version(names[b])
        except md.PackageNotFoundError:
            out[b] = md.version(b) if b != "tensorflow" else md.version("tensorflow")
    return out


if __name__ == "__main__":
    raise SystemExit(main())
