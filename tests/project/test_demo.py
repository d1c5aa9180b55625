"""The README's demo (examples/demo.py) runs and every installed backend agrees with NumPy."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import hedera as hd

DEMO = pathlib.Path(__file__).resolve().parents[2] / "examples" / "demo.py"


def test_demo_runs_on_every_installed_backend():
    proc = subprocess.run([sys.executable, str(DEMO), "--quick"], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    for name in hd.available_backends():
        if name == "mxnet":
            continue
        assert f"  {name:<11} -> " in proc.stdout, f"{name} missing from the demo's output"
    assert "DIFFERS" not in proc.stdout
    assert "overhead" in proc.stdout
