"""Fine-tune a PyTorch transformers model on JAX, then load the weights back into torch.

1. Build a small ``BertForSequenceClassification`` (random initialisation, nothing downloaded)
   and convert it with ``hd.interop.from_torch``: a hedera program of the Core ATen graph.
2. Fine-tune it a few steps on JAX: ``hd.grad`` of a cross-entropy loss through the program, an
   ``hd.optim.Adam`` update, the whole step compiled by ``hd.jit`` (``jax.jit``). The task is
   synthetic: does the sequence contain token 7?
3. ``hd.save`` the fine-tuned parameters (safetensors, named like the module's ``state_dict``),
   ``hd.load`` them and ``load_state_dict`` them into the original torch module.
4. Check that torch now computes what the fine-tuned JAX program computes.

Prints a table of the loss and the final comparison, and saves a plot of the loss as
``examples/out/torch_to_jax_loss.png``.

Run: ``.venv/bin/python examples/torch_to_jax.py`` (``--steps``, ``--out``; ``--help``).
"""

from __future__ import annotations

import argparse
import pathlib
import time

import numpy as np
import torch
from _shared import add_out_argument, save_figure
from transformers import BertConfig, BertForSequenceClassification

import hedera as hd

TOKEN = 7  # the label: does this token occur in the sequence?
VOCAB, LENGTH = 50, 12


def make_model() -> BertForSequenceClassification:
    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=VOCAB,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=64,
        max_position_embeddings=LENGTH,
        num_labels=2,
        hidden_dropout_prob=0.0,
        attention_probs_dropout_prob=0.0,
    )
    return BertForSequenceClassification(config).eval()


def make_batch(rng: np.random.Generator, batch: int) -> tuple[np.ndarray, np.ndarray]:
    ids = rng.integers(0, VOCAB, (batch, LENGTH))
    ids[ids == TOKEN] = TOKEN + 1
    labels = rng.integers(0, 2, batch)
    where = rng.integers(0, LENGTH, batch)
    ids[labels == 1, where[labels == 1]] = TOKEN
    return ids.astype(np.int64), labels.astype(np.int64)


def cross_entropy(logits: hd.Array, labels: hd.Array) -> hd.Array:
    logp = hd.nn.functional.log_softmax(logits, axis=-1)
    picked = hd.take_along_axis(logp, hd.expand_dims(labels, axis=-1), axis=-1)
    return -hd.mean(picked)


def fine_tune(
    prog: hd.interop.torch.TorchProgram, steps: int, batch: int, lr: float
) -> tuple[hd.Container, list]:
    """``steps`` Adam steps on JAX, compiled; the fine-tuned parameters and the loss per step."""
    opt = hd.optim.Adam(lr)
    params = prog.parameters(backend="jax")
    opt_state = opt.init(params)

    def loss_fn(p: hd.Container, ids: hd.Array, labels: hd.Array) -> hd.Array:
        return cross_entropy(prog(p, ids).logits, labels)

    @hd.jit
    def step(p: hd.Container, state: hd.Container, ids: hd.Array, labels: hd.Array) -> tuple:
        loss, grads = hd.value_and_grad(loss_fn)(p, ids, labels)
        p, state = opt.update(grads, state, p)
        return p, state, loss

    rng = np.random.default_rng(0)
    losses = []
    for _ in range(steps):
        ids, labels = make_batch(rng, batch)
        ids_j, labels_j = hd.asarray(ids, backend="jax"), hd.asarray(labels, backend="jax")
        params, opt_state, loss = step(params, opt_state, ids_j, labels_j)
        losses.append(float(loss))
    return params, losses


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--lr", type=float, default=3e-3)
    add_out_argument(parser)
    args = parser.parse_args(argv)

    model = make_model()
    example = torch.from_numpy(make_batch(np.random.default_rng(1), args.batch)[0])
    start = time.perf_counter()
    prog = hd.interop.from_torch(model, (example,))
    convert_s = time.perf_counter() - start

    start = time.perf_counter()
    params, losses = fine_tune(prog, args.steps, args.batch, args.lr)
    train_s = time.perf_counter() - start

    path = pathlib.Path(args.out) / "torch_to_jax.safetensors"
    path.parent.mkdir(parents=True, exist_ok=True)
    hd.save(params, path)
    loaded = hd.load(path, backend="numpy")
    state = {name: torch.from_numpy(np.asarray(loaded[name])) for name in loaded.keys()}
    missing, unexpected = model.load_state_dict(state, strict=False)
    assert not unexpected and set(missing) <= set(prog.buffer_names), (missing, unexpected)

    ids, labels = make_batch(np.random.default_rng(2), args.batch)
    with torch.no_grad():
        torch_logits = model(torch.from_numpy(ids)).logits.numpy()
    jax_logits = hd.to_numpy(prog(params, hd.asarray(ids, backend="jax")).logits)
    max_diff = float(np.abs(torch_logits - jax_logits).max())
    accuracy = float((torch_logits.argmax(-1) == labels).mean())

    print(
        f"from_torch: {len(prog.parameter_names)} parameters, {prog.code.count(chr(10))} lines of hedera, "
        f"converted in {convert_s:.1f} s; {args.steps} steps on jax in {train_s:.1f} s (hd.jit)\n"
    )
    print("| step | loss |\n|---:|---:|")
    for i in sorted({0, len(losses) // 4, len(losses) // 2, 3 * len(losses) // 4, len(losses) - 1}):
        print(f"| {i + 1} | {losses[i]:.4f} |")
    print(
        "\n| check | value |\n|---|---:|\n"
        f"| max abs(torch - jax) logits, after load_state_dict | {max_diff:.2e} |"
        f"\n| accuracy of the reloaded torch model (held-out batch) | {accuracy:.2f} |"
    )

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 3))
    ax.plot(np.arange(1, len(losses) + 1), losses)
    ax.set_xlabel("step (JAX, hd.jit)")
    ax.set_ylabel("cross-entropy")
    ax.set_title("BertForSequenceClassification fine-tuned on JAX")
    fig.tight_layout()
    plot = save_figure(fig, pathlib.Path(args.out) / "torch_to_jax_loss.png")
    print(f"\nwrote {plot} and {path}")
    return {"losses": losses, "max_diff": max_diff, "accuracy": accuracy, "plot": plot, "checkpoint": path}


if __name__ == "__main__":
    main()
