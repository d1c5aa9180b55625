"""The native baselines of benchmarks/training_step.py compute hedera's loss curve (equal work).

Every model of the benchmark (MLP, CNN, transformer encoder, LSTM), trained for three Adam steps
from the same weights and batch by hedera and by the native code (torch.nn + torch.optim; plain
jax.numpy + optax under jax.jit; Keras 3 + keras.optimizers.Adam in a tf.function), gives the same
losses within float32 tolerance, and the loss decreases. Timings are not measured here.
"""

from __future__ import annotations

import importlib.util
import json
import os
import pathlib
import subprocess
import sys

import pytest

from conftest import require_backend

ROOT = pathlib.Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"
MODELS = ("mlp", "cnn", "transformer", "lstm")


def _benchmark():
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location("training_step", BENCHMARKS / "training_step.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("training_step", module)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("stateful", [True, False], ids=["opt.step", "opt.update"])
@pytest.mark.parametrize("model", MODELS)
def test_torch_eager_baseline_has_hedera_losses(model, stateful):
    require_backend("torch")
    ours, theirs = _benchmark().check_same_losses(model, "torch", 4, compiled=False, stateful=stateful)
    assert len(ours) == len(theirs) == 3


@pytest.mark.parametrize("model", MODELS)
def test_jax_jit_baseline_has_hedera_losses(model):
    require_backend("jax")
    _benchmark().check_same_losses(model, "jax", 4, compiled=True)


@pytest.mark.slow
def test_torch_compiled_baseline_has_hedera_losses():
    """One model: torch.compile takes tens of seconds per model (the benchmark checks all four)."""
    require_backend("torch")
    _benchmark().check_same_losses("mlp", "torch", 4, compiled=True)


def test_keras_baselines_have_hedera_losses():
    """In a subprocess: Keras reads KERAS_BACKEND once, at import."""
    require_backend("tensorflow")
    if importlib.util.find_spec("keras") is None:
        pytest.fail("keras is not installed (the tensorflow baseline of the training benchmark needs it)")
    code = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); import training_step as ts; "
        "curves = {m: ts.check_same_losses(m, 'tensorflow', 4, compiled=True) for m in sys.argv[2:]}; "
        "print(json.dumps(curves))"
    )
    env = {**os.environ, "KERAS_BACKEND": "tensorflow", "TF_CPP_MIN_LOG_LEVEL": "2"}
    done = subprocess.run(
        [sys.executable, "-c", code, str(BENCHMARKS), *MODELS],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    curves = json.loads(done.stdout.strip().splitlines()[-1])
    assert sorted(curves) == sorted(MODELS)
