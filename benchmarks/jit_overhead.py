"""Per-call overhead of ``hd.jit`` against the framework's own compiler.

For each installed backend and a few small functions, times in one process:

* the native compiled function: ``jax.jit(f)``, ``torch.compile(f)``, ``tf.function(f)`` (with
  the options ``hd.jit`` uses by default), or ``f`` itself on NumPy (no compiler);
* ``hd.jit(f)`` on the same arguments, after the same warm-up calls.

Both run the same compiled program, so the difference is what ``hd.jit`` adds to every call:
finding the backend of the arguments and the compiled function for it. The functions are tiny on
purpose (the compiled work is a few microseconds), so that difference is visible:

* ``trivial``: ``f(x) = x * 2``;
* ``pytree``: a dict of three arrays in and out;
* ``static``: ``f(x, n)`` with ``n`` static (``static_argnums=1``);
* ``kwargs``: ``f(x, *, scale)`` with an array passed by keyword;
* ``two_args``: ``f(x, y) = x * y + 1``.

Results are nanoseconds per call, the minimum over repeats (process CPU time by default, like
``dispatch_overhead.py``; ``--clock wall`` for wall time), each call waiting for its result
(``jax.block_until_ready``). The variants of one case are timed in alternation, so that a burst
of load on a shared machine hits both.

Usage::

    python benchmarks/jit_overhead.py            # full run: table, benchmarks/results/jit_overhead.json
    python benchmarks/jit_overhead.py --quick    # smoke mode (used by the tests)

``--quick`` compiles with torch's ``"eager"`` dynamo backend (the same guards and wrapper per call,
no inductor code generation). Performance is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import timeit
import types
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import benchlib
import numpy as np

import hedera as hd

CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}
COMPILED = ("jax", "torch", "tensorflow", "numpy")


@dataclass
class Row:
    backend: str
    case: str
    native_min_ns: float
    hd_jit_min_ns: float
    native_median_ns: float
    hd_jit_median_ns: float

    @property
    def added_ns(self) -> float:
        return self.hd_jit_min_ns - self.native_min_ns


# ---- the functions ------------------------------------------------------------------------------


def trivial(x: Any) -> Any:
    return x * 2


def pytree(p: dict) -> dict:
    return {"a": p["a"] * 2, "b": p["b"] + p["c"], "c": p["c"]}


def static(x: Any, n: int) -> Any:
    return x * n


def kwargs(x: Any, *, scale: Any) -> Any:
    return x * scale


def two_args(x: Any, y: Any) -> Any:
    return x * y + 1


def cases(backend: str) -> dict[str, tuple[Callable, dict[str, Any], tuple, dict]]:
    """name -> (function, hd.jit/native keyword options, args, kwargs), on ``backend``'s arrays."""

    def arr(value: float) -> Any:
        return hd.asarray(np.full(3, value, np.float32), backend=backend)

    x, y, z = arr(1.0), arr(2.0), arr(3.0)
    return {
        "trivial": (trivial, {}, (x,), {}),
        "pytree": (pytree, {}, ({"a": x, "b": y, "c": z},), {}),
        "static": (static, {"static_argnums": 1}, (x, 3), {}),
        "kwargs": (kwargs, {}, (x,), {"scale": y}),
        "two_args": (two_args, {}, (x, y), {}),
    }


def fresh_copy(f: Callable) -> Callable:
    """``f`` with a code object of its own: torch.compile keeps its compiled code per code object,
    so that two compilations of one ``f`` (native and hd.jit) would share one cache, and the one
    compiled second would pay for checking the other's guards on every call."""
    return types.FunctionType(f.__code__.replace(), f.__globals__, f.__name__, f.__defaults__, f.__closure__)


def native_compile(backend: str, f: Callable, static_argnums: int | None, torch_options: dict) -> Callable:
    """The framework's compiler on ``f``, as ``hd.jit`` calls it by default."""
    if backend == "jax":
        import jax

        return jax.jit(f, static_argnums=static_argnums)
    if backend == "tensorflow":
        import tensorflow as tf

        return tf.function(f)
    if backend == "torch":
        import torch

        return torch.compile(f, **torch_options)
    return f


def sync_for(backend: str) -> Callable[[Any], Any]:
    """Waits for an (asynchronous) jax result, leaves in a pytree included."""
    if backend == "jax":
        import jax

        return jax.block_until_ready
    return lambda out: out


# ---- timing -------------------------------------------------------------------------------------


def time_pair(
    fns: dict[str, Callable[[], Any]], repeat: int, target_s: float, clock: Callable[[], float]
) -> dict[str, tuple[float, float]]:
    """``{name: (min, median)}`` ns per call; the variants alternate inside every repeat."""
    timers = {name: timeit.Timer(fn, timer=clock) for name, fn in fns.items()}
    number = 1
    while min(t.timeit(number) for t in timers.values()) < target_s and number < 1_000_000:
        number *= 2
    runs: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(repeat):
        for name, timer in timers.items():
            runs[name].append(timer.timeit(number) / number * 1e9)
    return {name: (min(r), statistics.median(r)) for name, r in runs.items()}


def measure(
    backends: list[str], repeat: int, target_s: float, clock: Callable[[], float], quick: bool
) -> list[Row]:
    torch_options = {"backend": "eager"} if quick else {}
    rows = []
    for backend in backends:
        sync = sync_for(backend)
        for name, (f, options, args, kw) in cases(backend).items():
            static_argnums = options.get("static_argnums")
            native = native_compile(backend, fresh_copy(f), static_argnums, torch_options)
            ours = hd.jit(fresh_copy(f), **options, backend_options={"torch": torch_options})
            for _ in range(3):  # compile, and settle torch's guards
                sync(native(*args, **kw)), sync(ours(*args, **kw))
            times = time_pair(
                {
                    "native": lambda: sync(native(*args, **kw)),  # noqa: B023 (called in this iteration)
                    "hd.jit": lambda: sync(ours(*args, **kw)),  # noqa: B023
                },
                repeat,
                target_s,
                clock,
            )
            rows.append(Row(backend, name, times["native"][0], times["hd.jit"][0],
                            times["native"][1], times["hd.jit"][1]))  # fmt: skip
    return rows


# ---- output -------------------------------------------------------------------------------------


def table(rows: list[Row]) -> str:
    lines = [
        "| backend | case | native (ns) | hd.jit (ns) | added (ns) | ratio |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r.backend} | {r.case} | {r.native_min_ns:.0f} | {r.hd_jit_min_ns:.0f} | "
            f"{r.added_ns:+.0f} | {r.hd_jit_min_ns / r.native_min_ns:.2f} |"
        )
    return "\n".join(lines)


def summary(rows: list[Row]) -> dict[str, dict[str, float]]:
    out = {}
    for backend in dict.fromkeys(r.backend for r in rows):
        mine = [r for r in rows if r.backend == backend]
        out[backend] = {
            "median_added_ns": statistics.median(r.added_ns for r in mine),
            "max_added_ns": max(r.added_ns for r in mine),
            "median_ratio": statistics.median(r.hd_jit_min_ns / r.native_min_ns for r in mine),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    installed = [b for b in COMPILED if b in hd.available_backends()]
    parser.add_argument("--backends", default=",".join(installed))
    parser.add_argument("--quick", action="store_true", help="smoke mode: tiny timings, torch eager")
    parser.add_argument("--output", type=Path, default=benchlib.RESULTS / "jit_overhead.json")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu", help="default: process CPU time")
    parser.add_argument("--repeat", type=int, default=None)
    args = parser.parse_args(argv)
    backends = [b for b in args.backends.split(",") if b in COMPILED]
    repeat, target_s = (2, 1e-4) if args.quick else (15, 0.02)
    rows = measure(backends, args.repeat or repeat, target_s, CLOCKS[args.clock], args.quick)
    result = {
        **benchlib.header(args.quick),
        "clock": args.clock,
        "summary": summary(rows),
        "rows": [{**asdict(r), "added_ns": r.added_ns} for r in rows],
    }
    print(table(rows))
    benchlib.write_json(args.output, result)
    print(f"\nwrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
