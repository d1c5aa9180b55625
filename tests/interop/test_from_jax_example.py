"""examples/jax_to_torch.py runs (short): flax on JAX, every backend agreeing, fine-tuned in torch."""

from __future__ import annotations

import importlib

import pytest


def test_example_runs_and_agrees(capsys):
    for name in ("jax", "flax", "optax", "torch"):
        pytest.importorskip(name)
    example = importlib.import_module("jax_to_torch")  # examples/ is on pytest's pythonpath
    assert example.main(["--steps", "60", "--finetune", "5"]) == 0
    out = capsys.readouterr().out
    for backend in ("jax", "torch", "tensorflow", "numpy"):
        assert f"| {backend:10} |" in out
    assert "all backends agree" in out
