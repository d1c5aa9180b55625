"""Run every benchmark, then write ``benchmarks/RESULTS.md`` and the charts: ``make bench``.

Each script runs in its own process (a fresh interpreter: no framework state or compiled
cache shared between them), with every framework's thread pool at one thread, so that the
timings measure hedera and the frameworks' per-call work, not thread scheduling on a shared
machine. Results go to ``benchmarks/results/`` (or ``--results``).

Usage::

    python benchmarks/run_all.py                         # everything, ~30-60 min on 2 cores
    python benchmarks/run_all.py --quick --results /tmp/bench   # smoke mode, ~1 min
    python benchmarks/run_all.py --backends torch,jax --skip dispatch_overhead

The library benchmark takes the most time; ``--library-args`` passes options on to it (e.g.
``--library-args="--torch-compile-all"``).
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS = (
    "dispatch_overhead",
    "jit_overhead",
    "library_overhead",
    "lines_of_code",
    "import_time",
    "control_flow",
    "training_step",
    "optimizer_step",
    "distributed",
    "interop",
)

#: one thread per framework (the same settings as scripts/test.sh's workers)
SINGLE_THREAD = {
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "TF_NUM_INTRAOP_THREADS": "1",
    "TF_NUM_INTEROP_THREADS": "1",
    "XLA_FLAGS": (os.environ.get("XLA_FLAGS", "") + " --xla_cpu_multi_thread_eigen=false").strip(),
    "TF_CPP_MIN_LOG_LEVEL": "2",
}


def commands(args: argparse.Namespace) -> list[list[str]]:
    """The command lines, in order: the benchmarks, then the report."""
    out = []
    for name in SCRIPTS:
        if name in args.skip:
            continue
        cmd = [sys.executable, str(HERE / f"{name}.py"), "--output", str(args.results / f"{name}.json")]
        if args.quick:
            cmd.append("--quick")
        if args.backends and name not in ("lines_of_code", "import_time"):
            cmd += ["--backends", args.backends]
        if name == "library_overhead":
            cmd += shlex.split(args.library_args)
        out.append(cmd)
    report = [sys.executable, str(HERE / "report.py"), "--results", str(args.results)]
    report += ["--output", str(args.output or args.results.parent / "RESULTS.md")]
    return [*out, report]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="smoke mode of every script")
    parser.add_argument("--backends", default="", help="comma-separated (default: every installed one)")
    parser.add_argument("--results", type=Path, default=HERE / "results")
    parser.add_argument("--output", type=Path, default=None, help="RESULTS.md path")
    parser.add_argument("--skip", default="", help=f"comma-separated, of {', '.join(SCRIPTS)}")
    parser.add_argument("--library-args", default="", help="extra options for library_overhead.py")
    args = parser.parse_args(argv)
    args.skip = {s for s in args.skip.split(",") if s}
    if args.output is None and args.results == HERE / "results":
        args.output = HERE / "RESULTS.md"
    args.results.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, **SINGLE_THREAD}
    load = os.getloadavg()
    print(f"run_all: load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}", flush=True)
    for cmd in commands(args):
        start = time.perf_counter()
        print("run_all:", " ".join(cmd), flush=True)
        done = subprocess.run(cmd, env=env, check=False)
        print(f"run_all: {Path(cmd[1]).name} took {time.perf_counter() - start:.0f} s", flush=True)
        if done.returncode != 0:
            print(f"run_all: FAILED ({done.returncode}): {' '.join(cmd)}", file=sys.stderr)
            return done.returncode
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
