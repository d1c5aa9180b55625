"""Move a model off MXNet: train it with hedera on MXNet, save it, run it on PyTorch and JAX.

MXNet (1.9.1, retired) needs numpy<=1.23.5 and cannot share an environment with
JAX or TensorFlow, so the two halves run in two environments and the saved file
is the bridge (``hd.save`` writes safetensors, readable by every backend)::

    python examples/mxnet_to_torch.py                 # both halves, each in its own environment
    .venv-mxnet/bin/python examples/mxnet_to_torch.py train --out examples/out/mxnet_to_torch
    .venv/bin/python examples/mxnet_to_torch.py check --out examples/out/mxnet_to_torch

``train`` (the MXNet environment) fits a small MLP classifier (2 -> 32 -> 32 -> 2,
tanh) to two interleaved half-moons with plain gradient descent: the model,
the loss and the update are hedera calls on MXNet arrays, the gradients come
from ``hd.value_and_grad`` (``mx.autograd``). It saves the parameters to
``model.safetensors`` and, in ``reference.safetensors``, held-out inputs with
MXNet's logits for them.

``check`` (any environment) loads both files on every installed backend among
torch, jax and numpy, runs the *same* ``predict`` function there, and compares
the logits with MXNet's (float32: within 1e-5 of the largest logit's
magnitude) and the predicted
classes (identical). Exits 1 if any backend differs.

Without a subcommand the script runs ``train`` with ``.venv-mxnet/bin/python``
and ``check`` with ``.venv/bin/python`` (set up by scripts/setup-mxnet.sh and
scripts/setup.sh).
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import pathlib
import subprocess
import time
from typing import Any

import numpy as np

import hedera as hd

ROOT = pathlib.Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "examples" / "out" / "mxnet_to_torch"
SIZES = (2, 32, 32, 2)


def make_moons(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Two interleaved half-moons with Gaussian noise: ``x`` (n, 2) float32, ``y`` (n,) int64 in {0, 1}."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, size=n)
    angle = rng.uniform(0.0, np.pi, size=n)
    x = np.stack([np.cos(angle), np.sin(angle)], axis=-1)
    x[y == 1] = np.stack([1.0 - np.cos(angle[y == 1]), 0.5 - np.sin(angle[y == 1])], axis=-1)
    x += rng.normal(scale=0.1, size=x.shape)
    return x.astype(np.float32), y.astype(np.int64)


def init_params(seed: int = 0) -> dict[str, np.ndarray]:
    """Glorot-uniform weights and zero biases, as NumPy float32 arrays (``w0``, ``b0``, ``w1``...)."""
    rng = np.random.default_rng(seed)
    params = {}
    for i, (n_in, n_out) in enumerate(itertools.pairwise(SIZES)):
        limit = np.sqrt(6.0 / (n_in + n_out))
        params[f"w{i}"] = rng.uniform(-limit, limit, size=(n_in, n_out)).astype(np.float32)
        params[f"b{i}"] = np.zeros(n_out, dtype=np.float32)
    return params


def predict(params: dict[str, Any], x: Any) -> Any:
    """Logits (n, 2) of the MLP for inputs ``x`` (n, 2): hedera calls only, so any backend runs it."""
    n_layers = len(SIZES) - 1
    h = x
    for i in range(n_layers):
        h = hd.matmul(h, params[f"w{i}"]) + params[f"b{i}"]
        if i < n_layers - 1:
            h = hd.tanh(h)
    return h


def loss_fn(params: dict[str, Any], x: Any, y: Any) -> Any:
    """Mean softmax cross-entropy of the logits against integer labels ``y``."""
    logits = predict(params, x)
    picked = hd.sum(logits * hd.one_hot(y, SIZES[-1], dtype=hd.dtype(logits)), axis=-1)
    return hd.mean(hd.logsumexp(logits, axis=-1) - picked)


def accuracy(params: dict[str, Any], x: Any, y: np.ndarray) -> float:
    return float(np.mean(np.argmax(hd.to_numpy(predict(params, x)), axis=-1) == y))


def train(out: pathlib.Path, steps: int = 300, lr: float = 0.5) -> dict[str, float]:
    """Train on MXNet, save ``model.safetensors`` and ``reference.safetensors`` in ``out``; return metrics."""
    x_train, y_train = make_moons(512, seed=1)
    x_test, y_test = make_moons(256, seed=2)
    with hd.use_backend("mxnet"):
        params = {k: hd.asarray(v, backend="mxnet") for k, v in init_params().items()}
        x, y = hd.asarray(x_train, backend="mxnet"), hd.asarray(y_train, backend="mxnet")
        value_and_grad = hd.value_and_grad(loss_fn)
        start = time.perf_counter()
        first = None
        for _ in range(steps):
            loss, grads = value_and_grad(params, x, y)
            first = float(hd.to_numpy(loss)) if first is None else first
            params = {k: params[k] - lr * grads[k] for k in params}
        seconds = time.perf_counter() - start
        final = float(hd.to_numpy(loss_fn(params, x, y)))
        x_ref = hd.asarray(x_test, backend="mxnet")
        logits = predict(params, x_ref)
        out.mkdir(parents=True, exist_ok=True)
        hd.save(params, out / "model.safetensors")
        hd.save(
            {"x": x_ref, "y": hd.asarray(y_test, dtype=hd.int32, backend="mxnet"), "logits": logits},
            out / "reference.safetensors",
        )
        metrics = {
            "first_loss": first,
            "final_loss": final,
            "test_accuracy": accuracy(params, x_ref, y_test),
            "seconds": seconds,
        }
    print(
        f"train (mxnet): loss {first:.4f} -> {final:.4f} in {steps} steps ({seconds:.1f} s), "
        f"test accuracy {metrics['test_accuracy']:.3f}; saved to {out}"
    )
    return metrics


def check(out: pathlib.Path, backends: list[str] | None = None) -> dict[str, float]:
    """Load the saved model on each backend and compare its logits with MXNet's; {backend: max rel. error}."""
    if backends is None:
        backends = [b for b in ("torch", "jax", "numpy") if importlib.util.find_spec(b) is not None]
    errors = {}
    for backend in backends:
        params = hd.load(out / "model.safetensors", backend=backend)
        ref = hd.load(out / "reference.safetensors", backend=backend)
        logits = hd.to_numpy(predict(params, ref["x"]))
        expected = hd.to_numpy(ref["logits"])
        scale = max(1.0, float(np.max(np.abs(expected))))  # relative to the logits' magnitude
        errors[backend] = float(np.max(np.abs(logits - expected))) / scale
        same_classes = bool(np.all(np.argmax(logits, -1) == np.argmax(expected, -1)))
        ok = errors[backend] <= 1e-5 and same_classes
        print(
            f"check ({backend}): largest difference from MXNet's logits (relative) {errors[backend]:.1e}, "
            f"same predicted classes: {same_classes}, accuracy "
            f"{accuracy(params, ref['x'], hd.to_numpy(ref['y'])):.3f} -> {'OK' if ok else 'DIFFERS'}"
        )
        if not ok:
            raise SystemExit(f"{backend}: the outputs differ from MXNet's")
    return errors


def bridge(out: pathlib.Path, steps: int) -> None:
    """``train`` in .venv-mxnet, then ``check`` in .venv."""
    for venv, command in ((".venv-mxnet", ["train", "--steps", str(steps)]), (".venv", ["check"])):
        python = ROOT / venv / "bin" / "python"
        if not python.exists():
            raise SystemExit(f"{python} not found: run scripts/setup-mxnet.sh and scripts/setup.sh first")
        subprocess.run([str(python), __file__, *command, "--out", str(out)], check=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", nargs="?", choices=("train", "check"), help="one half (default: both)")
    parser.add_argument("--out", type=pathlib.Path, default=DEFAULT_OUT, help="where the files go")
    parser.add_argument("--steps", type=int, default=300, help="gradient steps of train")
    args = parser.parse_args(argv)
    if args.command == "train":
        train(args.out, steps=args.steps)
    elif args.command == "check":
        check(args.out)
    else:
        bridge(args.out, args.steps)


if __name__ == "__main__":
    main()
