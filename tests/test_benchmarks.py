"""The benchmark scripts run (``--quick`` smoke mode), so they cannot rot. Timings are not asserted."""

from __future__ import annotations

import importlib.util
import json
import pathlib
import sys

from conftest import require_backend

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_dispatch_overhead_quick(backend, tmp_path, capsys):
    require_backend(backend)
    bench = _load("dispatch_overhead")
    output = tmp_path / "dispatch.json"
    assert bench.main(["--quick", "--backends", backend, "--output", str(output)]) == 0
    result = json.loads(output.read_text())
    functions = {row["function"] for row in result["rows"] if row["backend"] == backend}
    assert functions == {"sin", "add", "sum", "zeros"}
    assert all(row["native_min_ns"] > 0 and row["hedera_min_ns"] > 0 for row in result["rows"])
    assert "median_added_ns_one_to_one" in result["summary"][backend]
    assert "| function |" in capsys.readouterr().out
