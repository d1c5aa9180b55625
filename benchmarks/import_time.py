"""What ``import hedera`` costs: ``python -X importtime`` and whole processes, beside ``import numpy``.

hedera imports NumPy and its own front at ``import hedera``; every framework, and hedera's own
packages (``hd.nn``, ``hd.optim``, ``hd.grad``, ``hd.jit``...), load on first use. This script
measures, in fresh interpreters started one after another (``import hedera`` and
``import numpy`` alternated, so that a drift in the machine's speed touches both):

* ``-X importtime``: the cumulative microseconds of the ``hedera`` module (NumPy included), and the
  largest of its direct imports;
* whole processes: wall and CPU (user + system) seconds of ``python -c "import hedera"`` against
  ``python -c "import numpy"``, start-up of the interpreter included.

Bytecode is written on a warm-up run (as an installed package has it), so no run compiles.

Usage::

    python benchmarks/import_time.py            # 21 runs of each
    python benchmarks/import_time.py --quick    # smoke mode (3 runs)
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import benchlib

SRC = benchlib.HERE.parent / "src"


def _environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), *filter(None, [env.get("PYTHONPATH")])])
    return env


def _run(code: str, env: dict[str, str], *flags: str) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (the child's user + system) and stderr of one interpreter."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, *flags, "-c", code], capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{code!r} failed: {done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stderr


def parse_importtime(stderr: str) -> dict[str, tuple[int, int, int]]:
    """``-X importtime``'s lines: module -> (self us, cumulative us, depth)."""
    out = {}
    for line in stderr.splitlines():
        if not line.startswith("import time:") or "[us]" in line:
            continue
        own, cumulative, name = line[len("import time:") :].split("|")
        depth = (len(name) - len(name.lstrip(" "))) // 2
        out.setdefault(name.strip(), (int(own), int(cumulative), depth))
    return out


def measure(runs: int) -> dict:
    env = _environment()
    _run("import hedera", env)  # warm-up: writes bytecode
    _run("import numpy", env)
    hedera_wall, hedera_cpu, numpy_wall, numpy_cpu, cumulative = [], [], [], [], []
    children: dict[str, list[int]] = {}
    for _ in range(runs):
        wall, cpu, _ = _run("import hedera", env)
        hedera_wall.append(wall)
        hedera_cpu.append(cpu)
        wall, cpu, _ = _run("import numpy", env)
        numpy_wall.append(wall)
        numpy_cpu.append(cpu)
        table = parse_importtime(_run("import hedera", env, "-X", "importtime")[2])
        cumulative.append(table["hedera"][1])
        for name, (_, cum, depth) in table.items():
            if depth == 1:  # a direct import of hedera's (numpy arrives through hedera.dtypes)
                children.setdefault(name, []).append(cum)
    median = statistics.median
    largest = sorted(((median(v), k) for k, v in children.items()), reverse=True)[:8]
    return {
        "runs": runs,
        "importtime_hedera_us_median": median(cumulative),
        "importtime_hedera_us_min": min(cumulative),
        "importtime_largest_direct_imports_us": {name: us for us, name in largest},
        "process_hedera_wall_s_median": median(hedera_wall),
        "process_hedera_cpu_s_median": median(hedera_cpu),
        "process_numpy_wall_s_median": median(numpy_wall),
        "process_numpy_cpu_s_median": median(numpy_cpu),
        "process_cpu_ratio_median": median(h / n for h, n in zip(hedera_cpu, numpy_cpu, strict=True)),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="smoke mode: 3 runs")
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--backends", default="", help="ignored (no backend is imported)")
    parser.add_argument("--output", type=Path, default=benchlib.RESULTS / "import_time.json")
    args = parser.parse_args(argv)
    result = {**benchlib.header(args.quick), **measure(3 if args.quick else args.runs)}
    benchlib.write_json(args.output, result)
    print("| measure | import hedera | import numpy |")
    print("|---|---:|---:|")
    print(f"| -X importtime, cumulative (median) | {result['importtime_hedera_us_median'] / 1e3:.1f} ms | |")
    for kind in ("wall", "cpu"):
        print(
            f"| whole process, {kind} (median) | {result[f'process_hedera_{kind}_s_median']:.3f} s "
            f"| {result[f'process_numpy_{kind}_s_median']:.3f} s |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
