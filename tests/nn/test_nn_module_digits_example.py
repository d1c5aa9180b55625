"""examples/train_digits.py: the real script on jax (>= 95% test accuracy), a short run on torch and
tensorflow (the loss falls); identical initial weights on every backend, a PNG of the loss curves."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from conftest import require_backend

pytest.importorskip("sklearn")
pytest.importorskip("tqdm")


@pytest.fixture(scope="module")
def train_digits():
    return importlib.import_module("train_digits")  # examples/ is on pytest's pythonpath


def test_full_training_on_jax_reaches_95_percent(train_digits, tmp_path, capsys):
    require_backend("jax")
    png = tmp_path / "loss.png"
    results = train_digits.main(["--backend", "jax", "--timing-steps", "3", "--plot", str(png), "--quiet"])
    r = results["jax"]
    assert r["test_accuracy"] >= 0.95
    assert r["initial_weights_identical"]
    assert r["trained_with"] == "hd.jit" and r["eager_ms_per_step"] > 0 and r["jit_ms_per_step"] > 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    out = capsys.readouterr().out
    assert "jax" in out and "eager ms/step" in out and "jit ms/step" in out


@pytest.mark.parametrize(("backend", "jit"), [("torch", "off"), ("tensorflow", "on")])
def test_short_training_on_the_other_backends(train_digits, backend, jit, tmp_path):
    require_backend(backend)
    args = ["--backend", backend, "--jit", jit, "--max-steps", "60", "--timing-steps", "0", "--quiet"]
    r = train_digits.main([*args, "--plot", str(tmp_path / "loss.png")])[backend]
    assert r["initial_weights_identical"]
    assert np.mean(r["losses"][-10:]) < 0.6 * np.mean(r["losses"][:10])
    assert r["steps"] == 60
