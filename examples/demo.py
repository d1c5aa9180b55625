"""hedera's main demo: one piece of hedera code, run on every installed backend.

``features`` below is written once against hedera's functional API. It runs on NumPy
arrays, torch tensors, JAX arrays and TensorFlow tensors alike, returning arrays of the same
framework, and all backends agree with NumPy. The demo then measures what hedera's dispatch
costs per call: ``hd.sin(x)`` against the framework's own ``sin(x)`` on a one-element array,
where the call overhead is everything.

Run it with ``./scripts/demo.sh`` (which sets up ``.venv`` first) or, in a set-up
environment, ``python examples/demo.py [--quick]``.
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

import hedera as hd

BACKENDS = ("numpy", "torch", "jax", "tensorflow")


def features(x, w):
    """Pure hedera: a linear layer, a stable softmax, and some statistics of it.

    Parameters
    ----------
    x : array, shape (n, d)
    w : array, shape (d, k)

    Returns
    -------
    probs : array, shape (n, k)
        Row-wise softmax of ``x @ w``.
    entropy : array, shape (n,)
        Entropy of each row of ``probs``, in nats.
    norm : array, shape ()
        Frobenius norm of ``probs``.
    """
    logits = hd.matmul(x, w)
    z = logits - hd.max(logits, axis=-1, keepdims=True)
    probs = hd.exp(z) / hd.sum(hd.exp(z), axis=-1, keepdims=True)
    entropy = -hd.sum(probs * hd.log(probs), axis=-1)
    return probs, entropy, hd.linalg.matrix_norm(probs)


def native_calls(backend: str) -> dict[str, tuple]:
    """The framework's own functions for the calls whose overhead is measured."""
    if backend == "numpy":
        return {"sin": np.sin, "add": np.add, "sum": np.sum}
    if backend == "torch":
        import torch

        return {"sin": torch.sin, "add": torch.add, "sum": torch.sum}
    if backend == "jax":
        import jax.numpy as jnp

        return {"sin": jnp.sin, "add": jnp.add, "sum": jnp.sum}
    import tensorflow as tf

    return {"sin": tf.math.sin, "add": tf.math.add, "sum": tf.math.reduce_sum}


def paired_ns(native: Callable, front: Callable, args: tuple, pairs: int) -> tuple[float, float]:
    """(native ns per call, ns ``front`` adds to it), from ``pairs`` pairs of single calls.

    Each pair times one call of each back to back, in an order drawn at random, and the added
    cost is the trimmed mean of the within-pair differences: JAX and TensorFlow calls vary by
    hundreds of ns from one batch of calls to the next, so differences of batch timings are
    noise at this scale (the benchmark, benchmarks/dispatch_overhead.py, does the same).
    """
    clock = time.perf_counter_ns
    native(*args), front(*args)  # warm up (first-call caches, kernels)
    rng = random.Random(0)
    natives, diffs = [], []
    for _ in range(pairs):
        first, second = (native, front) if rng.random() < 0.5 else (front, native)
        t0 = clock()
        first(*args)
        t1 = clock()
        second(*args)
        t2 = clock()
        native_ns, front_ns = (t1 - t0, t2 - t1) if first is native else (t2 - t1, t1 - t0)
        natives.append(native_ns)
        diffs.append(front_ns - native_ns)
    diffs.sort()
    cut = len(diffs) // 10
    return statistics.median(natives), statistics.fmean(diffs[cut : len(diffs) - cut] or diffs)


def usable_backends() -> list[str]:
    out = []
    for name in BACKENDS:
        if name not in hd.available_backends():
            print(f"  {name:<11} not installed: skipped (pip install hedera[{name}])")
            continue
        try:
            hd.namespace(name)
        except Exception as e:  # a backend that fails to load is reported, not hidden
            print(f"  {name:<11} failed to load: {type(e).__name__}: {e}")
            continue
        out.append(name)
    return out


def run_features(backends: list[str]) -> bool:
    rng = np.random.default_rng(0)
    x_np = rng.standard_normal((5, 3)).astype(np.float32)
    w_np = rng.standard_normal((3, 4)).astype(np.float32)
    reference = [hd.to_numpy(a) for a in features(x_np, w_np)]
    print("features(x, w) on each backend (float32 inputs of shape (5, 3) and (3, 4)):")
    all_agree = True
    for name in backends:
        x, w = hd.asarray(x_np, backend=name), hd.asarray(w_np, backend=name)
        probs, entropy, norm = features(x, w)
        agree = all(
            np.allclose(hd.to_numpy(a), r, rtol=1e-5, atol=1e-6)
            for a, r in zip(features(x, w), reference, strict=True)
        )
        all_agree &= agree
        kind = f"{type(probs).__module__.partition('.')[0]}.{type(probs).__name__}"
        print(
            f"  {name:<11} -> {kind:<28} dtype={hd.dtype(probs)!s:<8} "
            f"entropy={np.round(hd.to_numpy(entropy), 4)} norm={float(hd.to_numpy(norm)):.4f} "
            f"{'agrees with numpy' if agree else 'DIFFERS FROM NUMPY'}"
        )
    print("\nCreation functions run on the current backend (hd.use_backend):")
    for name in backends:
        with hd.use_backend(name):
            grid = hd.linspace(0.0, 1.0, 5)
        print(f"  with hd.use_backend({name!r}): hd.linspace(0, 1, 5) -> {type(grid).__name__:<12} {grid}")
    return all_agree


def run_overhead(backends: list[str], quick: bool) -> None:
    print("\nDispatch overhead: hd.f(x) vs the framework's f(x) on a 1-element float32 array")
    print("(ns per call; 'added' from pairs of single calls in random order, see paired_ns;")
    print(" hd.sin is the framework's sin behind the dispatch; add and sum also run hedera's")
    print(" conformance code (the standard's type promotion), cheaper or dearer than the native)")
    print(f"  {'backend':<11} {'call':<5} {'native':>10} {'added':>10}")
    for name in backends:
        x = hd.asarray(np.ones(1, dtype=np.float32), backend=name)
        for fname, native in native_calls(name).items():
            args = (x, x) if fname == "add" else (x,)
            t_native, added = paired_ns(native, getattr(hd, fname), args, 300 if quick else 20000)
            print(f"  {name:<11} {fname:<5} {t_native:>10.0f} {added:>+10.0f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short timing loops (a smoke test)")
    args = parser.parse_args(argv)

    print(f"hedera {hd.__version__}, Python {sys.version.split()[0]}")
    for name in BACKENDS:
        try:
            version = importlib.import_module(name).__version__
        except ImportError:
            continue
        print(f"  {name:<11} {version}")
    backends = usable_backends()
    print()
    ok = run_features(backends)
    run_overhead(backends, args.quick)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
