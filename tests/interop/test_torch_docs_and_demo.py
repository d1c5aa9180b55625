"""docs/interop.md's from_torch coverage table is current, and examples/torch_to_jax.py runs."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import numpy as np
import pytest

from conftest import require_backend

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_coverage_table_is_generated_from_the_op_table():
    pytest.importorskip("torch")
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_interop_docs.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_torch_to_jax_demo(tmp_path, capsys):
    pytest.importorskip("transformers")
    require_backend("jax")
    import torch_to_jax

    result = torch_to_jax.main(["--steps", "6", "--batch", "8", "--out", str(tmp_path)])
    assert result["plot"].exists() and result["checkpoint"].exists()
    assert np.all(np.isfinite(result["losses"])) and len(result["losses"]) == 6
    assert result["max_diff"] < 1e-4  # torch, after load_state_dict, computes what the JAX program does
    out = capsys.readouterr().out
    assert "| step | loss |" in out and "max abs(torch - jax)" in out
