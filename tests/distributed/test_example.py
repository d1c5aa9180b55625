"""examples/train_data_parallel.py runs and agrees with one-device training (a few steps)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import hedera as hd
from conftest import require_backend

ROOT = Path(__file__).resolve().parents[2]


def _run(backend: str, tmp_path: Path) -> str:
    require_backend(backend)
    env = dict(os.environ, OMP_NUM_THREADS="1", TF_CPP_MIN_LOG_LEVEL="2")
    src = str(Path(hd.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join([src, env.get("PYTHONPATH", "")])
    plot = tmp_path / "loss.png"
    cmd = [sys.executable, str(ROOT / "examples" / "train_data_parallel.py"), "--backend", backend,
           "--replicas", "2", "--steps", "4", "--batch-size", "32", "--plot", str(plot)]  # fmt: skip
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=400)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    assert plot.stat().st_size > 0
    return proc.stdout


@pytest.mark.parametrize("backend", ["jax", pytest.param("torch", marks=pytest.mark.slow),
                                     pytest.param("tensorflow", marks=pytest.mark.slow)])  # fmt: skip
def test_example_trains_data_parallel_like_one_device(backend, tmp_path):
    out = _run(backend, tmp_path)
    row = next(line for line in out.splitlines() if line.startswith(backend))
    assert "[16, 16]" in row and " yes " in row, out
