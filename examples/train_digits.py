"""Train one hedera CNN on scikit-learn's digits, on every autodiff backend, from one script.

::

    python examples/train_digits.py                        # torch, jax and tensorflow (those installed)
    python examples/train_digits.py --backend jax --epochs 30

The data set is scikit-learn's bundled 8x8 handwritten digits (1797 images, no
download), split 80/20 into training and test sets. The model, written once with
``hd.nn``::

    Conv2d(1, 16, 3, "SAME") - ReLU - MaxPool2d(2) - Conv2d(16, 32, 3, "SAME") - ReLU - MaxPool2d(2)
    - Flatten - Linear(128, 64) - ReLU - Linear(64, 10)

(channels last: images are ``(batch, 8, 8, 1)``). Its initial weights come from
``hd.nn.init`` with one seed: they are drawn on the numpy backend and converted,
so they are identical on every backend (the script checks it). Training is
Adam on the cross-entropy with a cosine learning-rate schedule after a short
warmup, the batches in the same order on every backend.

Per backend the script prints the test accuracy, whether the initial weights
were identical to NumPy's, and the time per training step eager and compiled
with ``hd.jit`` (with the compile time). It trains in the mode given by
``--jit`` (default: compiled on jax and tensorflow, eager on torch, whose
``torch.compile`` takes longer to compile this small step than the eager
training takes to run) and times the other mode over ``--timing-steps`` steps.
A ``tqdm`` bar shows progress; the loss curves of all backends go on one
matplotlib figure, saved as ``examples/out/train_digits_loss.png``.
"""

from __future__ import annotations

import argparse
import pathlib
import time
from typing import Any

import numpy as np
from _shared import OUT_DIR, add_backend_argument, save_figure, selected_backends

import hedera as hd

F = hd.nn.functional


def load_data(seed: int = 0) -> dict[str, np.ndarray]:
    """scikit-learn's digits as float32 images ``(n, 8, 8, 1)`` in [0, 1] and int64 labels, split 80/20."""
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    digits = load_digits()
    images = (digits.images / 16.0).astype(np.float32)[..., None]
    x_train, x_test, y_train, y_test = train_test_split(
        images, digits.target.astype(np.int64), test_size=0.2, random_state=seed, stratify=digits.target
    )
    return {"x_train": x_train, "y_train": y_train, "x_test": x_test, "y_test": y_test}


def make_model(seed: int) -> hd.nn.Sequential:
    """The CNN, its parameters created on the current backend from ``seed``."""
    k1, k2, k3, k4 = hd.nn.init.split_key(seed, 4)
    return hd.nn.Sequential(
        hd.nn.Conv2d(1, 16, 3, padding="SAME", key=k1),
        hd.nn.ReLU(),
        hd.nn.MaxPool2d(2),
        hd.nn.Conv2d(16, 32, 3, padding="SAME", key=k2),
        hd.nn.ReLU(),
        hd.nn.MaxPool2d(2),
        hd.nn.Flatten(),
        hd.nn.Linear(2 * 2 * 32, 64, key=k3),
        hd.nn.ReLU(),
        hd.nn.Linear(64, 10, key=k4),
    )


def batches(n: int, batch_size: int, epochs: int, seed: int) -> list[np.ndarray]:
    """The index batches of every epoch (reshuffled each epoch, the same on every backend)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(epochs):
        order = rng.permutation(n)
        out += [order[i : i + batch_size] for i in range(0, n - batch_size + 1, batch_size)]
    return out


def make_step(model: hd.nn.Module, opt: hd.optim.Optimizer):
    """One training step, a pure function: ``(params, opt_state, x, y) -> (params, opt_state, loss)``."""

    def loss_fn(params: hd.Container, x: Any, y: Any) -> Any:
        return F.cross_entropy(model.apply(params, x), y)

    def step(params: hd.Container, opt_state: hd.Container, x: Any, y: Any) -> tuple:
        loss, grads = hd.value_and_grad(loss_fn)(params, x, y)
        params, opt_state = opt.update(grads, opt_state, params)
        return params, opt_state, loss

    return step


def accuracy(model: hd.nn.Module, params: hd.Container, x: Any, y: np.ndarray) -> float:
    logits = model.apply(params, x, training=False)
    return float(np.mean(hd.to_numpy(hd.argmax(logits, axis=-1)) == y))


def time_steps(step, params, opt_state, data: list[tuple[Any, Any]]) -> tuple[float, float]:
    """``(first call in seconds, mean seconds per later call)`` of ``step`` over ``data``."""
    start = time.perf_counter()
    params, opt_state, loss = step(params, opt_state, *data[0])
    hd.to_numpy(loss)  # wait for the result (jax dispatches asynchronously)
    first = time.perf_counter() - start
    start = time.perf_counter()
    for x, y in data[1:]:
        params, opt_state, loss = step(params, opt_state, x, y)
    hd.to_numpy(loss)
    return first, (time.perf_counter() - start) / max(len(data) - 1, 1)


def train(
    backend: str, data: dict[str, np.ndarray], args: argparse.Namespace, reference: hd.Container
) -> dict:
    """Train the CNN on ``backend``; returns the losses, the test accuracy, the timings."""
    from tqdm import tqdm

    with hd.use_backend(backend):
        model = make_model(args.seed)
    identical = model.state().all_equal(reference)
    total = len(batches(len(data["x_train"]), args.batch_size, args.epochs, args.seed))
    schedule = hd.optim.linear_warmup(hd.optim.cosine_decay(args.lr, max(total - 20, 1)), 20)
    opt = hd.optim.Adam(schedule)
    eager = make_step(model, opt)
    compiled = hd.jit(eager)
    use_jit = args.jit == "on" or (args.jit == "auto" and backend != "torch")

    x_train = hd.asarray(data["x_train"], backend=backend)
    y_train = hd.asarray(data["y_train"], backend=backend)
    order = batches(len(data["x_train"]), args.batch_size, args.epochs, args.seed)
    if args.max_steps:
        order = order[: args.max_steps]
    params, opt_state = model.parameters(), opt.init(model.parameters())
    step = compiled if use_jit else eager
    losses = []
    start = time.perf_counter()
    for n, idx in enumerate(tqdm(order, desc=f"{backend:<10}", unit="step", leave=False, disable=args.quiet)):
        i = hd.asarray(idx, backend=backend)
        params, opt_state, loss = step(
            params, opt_state, hd.take(x_train, i, axis=0), hd.take(y_train, i, axis=0)
        )
        losses.append(float(loss))
        if n == 0:  # the first step compiles (hd.jit): timed apart
            first_seconds = time.perf_counter() - start
            start = time.perf_counter()
    per_step = (time.perf_counter() - start) / max(len(order) - 1, 1)
    model.set_parameters(params)

    # time the other mode on the first batches (from the initial weights; the results are discarded)
    other_first = other_per_step = None
    if args.timing_steps:
        timing_data = [
            (hd.take(x_train, j, axis=0), hd.take(y_train, j, axis=0))
            for j in (hd.asarray(idx, backend=backend) for idx in order[: args.timing_steps + 1])
        ]
        fresh = (reference.to_backend(backend), opt.init(reference.to_backend(backend)))
        other_first, other_per_step = time_steps(eager if use_jit else compiled, *fresh, timing_data)
    return {
        "losses": losses,
        "test_accuracy": accuracy(model, params, hd.asarray(data["x_test"], backend=backend), data["y_test"]),
        "initial_weights_identical": identical,
        "trained_with": "hd.jit" if use_jit else "eager",
        "eager_ms_per_step": _ms(other_per_step if use_jit else per_step),
        "jit_ms_per_step": _ms(per_step if use_jit else other_per_step),
        "jit_first_call_s": first_seconds if use_jit else other_first,
        "steps": len(order),
    }


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else 1e3 * seconds


def _text(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def plot(results: dict[str, dict], path: pathlib.Path) -> None:
    """The loss curves of every backend on one figure (a moving average over 10 steps)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    styles = [("-", 4.0), ("--", 2.5), (":", 1.5)]  # the curves overlap: same weights, same batches
    for n, (backend, r) in enumerate(results.items()):
        losses = np.asarray(r["losses"])
        window = min(10, len(losses))
        smooth = np.convolve(losses, np.ones(window) / window, mode="valid")
        style, width = styles[n % len(styles)]
        label = f"{backend} ({100 * r['test_accuracy']:.1f}% test)"
        ax.plot(np.arange(window - 1, len(losses)), smooth, style, linewidth=width, label=label)
    ax.set_xlabel("training step")
    ax.set_ylabel("cross-entropy (moving average)")
    ax.set_yscale("log")
    ax.set_title("The same hedera CNN on scikit-learn's digits")
    ax.legend()
    fig.tight_layout()
    save_figure(fig, path, dpi=120)


def main(argv: list[str] | None = None) -> dict[str, dict]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_backend_argument(parser)
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--jit", choices=("auto", "on", "off"), default="auto", help="how to train (see above)"
    )
    parser.add_argument(
        "--timing-steps", type=int, default=20, help="steps timed in the other mode (0: none)"
    )
    parser.add_argument("--max-steps", type=int, default=0, help="stop after this many steps (0: all epochs)")
    parser.add_argument("--plot", type=pathlib.Path, default=OUT_DIR / "train_digits_loss.png")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)

    backends = selected_backends(args)
    data = load_data(args.seed)
    with hd.use_backend("numpy"):
        reference = make_model(args.seed).state()
    results = {b: train(b, data, args, reference) for b in backends}

    print(f"digits: {len(data['x_train'])} training and {len(data['x_test'])} test images, 8x8")
    print(f"{'backend':<11} {'test acc':>8} {'same init':>9} {'trained':>8} {'eager ms/step':>13} "
          f"{'jit ms/step':>11} {'jit 1st call s':>14}")  # fmt: skip
    for b, r in results.items():
        same = "yes" if r["initial_weights_identical"] else "NO"
        eager, jitted, first = r["eager_ms_per_step"], r["jit_ms_per_step"], r["jit_first_call_s"]
        print(
            f"{b:<11} {100 * r['test_accuracy']:>7.1f}% {same:>9} {r['trained_with']:>8} "
            f"{_text(eager, 2):>13} {_text(jitted, 2):>11} {_text(first, 1):>14}"
        )
    if results:
        plot(results, args.plot)
        print(f"loss curves: {args.plot}")
    return results


if __name__ == "__main__":
    main()
