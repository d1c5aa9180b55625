"""Shared helpers of the benchmark scripts: timing, the machine/versions header, JSON output.

Imported by the scripts in this folder (``python benchmarks/<script>.py`` puts the folder on
``sys.path``; the smoke tests add it themselves).
"""

from __future__ import annotations

import datetime
import importlib.metadata as md
import json
import os
import platform
import random
import statistics
import sys
import time
import timeit
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"

#: distribution names whose versions the header records, where installed
_DISTRIBUTIONS = (
    "hedera", "numpy", "torch", "jax", "jaxlib", "tensorflow", "tensorflow-cpu",
    "keras", "eagerpy", "array-api-compat", "pygount", "matplotlib",
)  # fmt: skip


def versions() -> dict[str, str]:
    """Installed versions of hedera, the frameworks and the peers."""
    out = {}
    for name in _DISTRIBUTIONS:
        try:
            out[name] = md.version(name)
        except md.PackageNotFoundError:
            pass
    return out


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def header(quick: bool) -> dict[str, Any]:
    """Date, machine, load average and versions, for the top of every results file."""
    try:
        load = list(os.getloadavg())
    except OSError:
        load = None
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": {
            "platform": platform.platform(),
            "cpu": _cpu_model(),
            "cpus": os.cpu_count(),
            "python": sys.version.split()[0],
            "load_average": load,
        },
        "versions": versions(),
        "quick": quick,
    }


def write_json(path: Path, data: dict) -> None:
    """Write ``data`` atomically (a reader never sees half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=2, default=str))
    os.replace(tmp, path)


def calibrate(fn: Callable[[], Any], target_s: float) -> int:
    """How many calls of ``fn`` make one timing run of at least ``target_s`` seconds."""
    number = 1
    while number < 1_000_000:
        start = time.perf_counter()
        for _ in range(number):
            fn()
        if time.perf_counter() - start >= target_s:
            break
        number *= 2
    return number


def time_interleaved(
    fns: dict[str, Callable[[], Any]], repeat: int, target_s: float
) -> dict[str, tuple[float, float]]:
    """``{name: (min, median)}`` seconds per call, the variants timed in alternation.

    Alternating the variants inside every repeat exposes them to the same load on a shared
    machine, so a burst of noise hits all of them rather than one; the minimum over repeats is
    the least disturbed run.
    """
    number = min(calibrate(fn, target_s) for fn in fns.values())
    runs: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(repeat):
        for name, fn in fns.items():
            runs[name].append(timeit.timeit(fn, number=number) / number)
    return {name: (min(r), statistics.median(r)) for name, r in runs.items()}


def sync_for(backend: str) -> Callable[[Any], Any]:
    """A function that waits for a backend's asynchronous results (jax dispatches asynchronously)."""
    if backend == "jax":
        import jax

        return jax.block_until_ready
    return lambda out: out


def median_of_present(values: Iterable[float | None]) -> float | None:
    """The median of the values that are not None (None when there are none)."""
    present = [v for v in values if v is not None]
    return statistics.median(present) if present else None


_PAIRED_LOOP = """
def _paired_loop(_order, _clock):
    _out = []
    _append = _out.append
    for _a_first in _order:
        if _a_first:
            _t0 = _clock(); {a}; _t1 = _clock(); {b}; _t2 = _clock()
            _append((_t1 - _t0) - (_t2 - _t1))
        else:
            _t0 = _clock(); {b}; _t1 = _clock(); {a}; _t2 = _clock()
            _append((_t2 - _t1) - (_t1 - _t0))
    return _out
"""


def paired_call_difference_ns(a: str, b: str, env: dict, pairs: int, seed: int = 0) -> tuple[float, float]:
    """(estimate, standard error) of the ns that one call of ``a`` costs more than one of ``b``.

    Times ``pairs`` pairs of single calls back to back, in an order drawn at random per pair,
    and returns the 10%-trimmed mean of the within-pair differences. This resolves a few ns on
    calls that take microseconds and vary by hundreds of ns from one block of calls to the
    next (JAX, TensorFlow), where differences of block timings cannot: both calls of a pair
    see the same state of the machine and the framework. The order must be random, not
    alternating: JAX and TensorFlow calls have period-2 effects (measured: alternation put
    -45 ns between two calls of the same function). Trimming drops pairs hit by a context
    switch or a collection. Wall clock (``perf_counter_ns``): a CPU-time clock costs a system
    call per read here, and a pair is too short to be descheduled in more than a few cases.
    """
    scope = dict(env)
    exec(_PAIRED_LOOP.format(a=a, b=b), scope)
    loop = scope["_paired_loop"]
    rng = random.Random(seed)
    loop([rng.random() < 0.5 for _ in range(min(pairs, 200))], time.perf_counter_ns)  # warm up
    diffs = sorted(loop([rng.random() < 0.5 for _ in range(pairs)], time.perf_counter_ns))
    cut = len(diffs) // 10
    kept = diffs[cut : len(diffs) - cut] or diffs
    mean = statistics.fmean(kept)
    error = statistics.pstdev(kept) / len(kept) ** 0.5 if len(kept) > 1 else float("nan")
    return mean, error


def paired_block_times(
    fns: dict[str, Callable[[], Any]], rounds: int, block_s: float = 0.01, seed: int = 0
) -> dict[str, float]:
    """Median CPU seconds per call of each variant, and the median per-round ratio of the first two.

    Each round times one block of calls of every variant (a block lasts about ``block_s`` of CPU
    time, so that ``time.process_time``'s resolution does not matter), in an order drawn at random
    per round. CPU time of this process does not count the time other processes take on a loaded
    machine, and both variants of a round see the same state of the machine and the framework, so
    the per-round ratio ``ratio_<first>_<second>`` is robust where differences of minima are not.
    """
    names = list(fns)
    clock = time.process_time
    start = clock()
    fns[names[0]]()
    calls = max(1, int(block_s / max(clock() - start, 1e-6)))
    rng = random.Random(seed)
    per_call: dict[str, list[float]] = {name: [] for name in names}
    ratios = []
    for _ in range(rounds):
        order = list(names)
        rng.shuffle(order)
        for name in order:
            fn = fns[name]
            t0 = clock()
            for _ in range(calls):
                fn()
            per_call[name].append((clock() - t0) / calls)
        ratios.append(per_call[names[0]][-1] / per_call[names[1]][-1])
    out = {name: statistics.median(v) for name, v in per_call.items()}
    out[f"ratio_{names[0]}_{names[1]}"] = statistics.median(ratios)
    return out
