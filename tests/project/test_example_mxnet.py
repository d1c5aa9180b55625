"""examples/mxnet_to_torch.py: trained on MXNet, saved, loaded and run elsewhere with the same outputs.

Runs in the MXNet environment (scripts/test-mxnet.sh); skipped where mxnet is not installed.
The second test drives the whole bridge: ``train`` here, ``check`` in the main environment
(``.venv``, torch and jax), when that environment exists.
"""

from __future__ import annotations

import importlib
import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("mxnet")

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "mxnet_to_torch.py"
MAIN_PYTHON = ROOT / ".venv" / "bin" / "python"


def load_example():
    return importlib.import_module("mxnet_to_torch")  # examples/ is on pytest's pythonpath


def test_trains_on_mxnet_and_reloads_identically(tmp_path):
    example = load_example()
    metrics = example.train(tmp_path, steps=150)
    assert metrics["final_loss"] < metrics["first_loss"] / 5
    assert metrics["test_accuracy"] >= 0.95
    errors = example.check(tmp_path, backends=["mxnet", "numpy"])
    assert errors["mxnet"] == 0.0  # the same backend reads back the same bits
    assert errors["numpy"] <= 1e-5


@pytest.mark.skipif(not MAIN_PYTHON.exists(), reason="the main environment .venv is not set up")
def test_bridge_to_torch_and_jax(tmp_path):
    subprocess.run(
        [sys.executable, str(EXAMPLE), "train", "--steps", "100", "--out", str(tmp_path)], check=True
    )
    proc = subprocess.run(
        [str(MAIN_PYTHON), str(EXAMPLE), "check", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for backend in ("torch", "jax"):
        assert f"check ({backend})" in proc.stdout and "DIFFERS" not in proc.stdout
