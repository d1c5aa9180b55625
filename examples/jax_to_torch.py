"""A flax model trained on JAX, converted with ``hd.interop.from_jax``, run on every backend, then
fine-tuned with ``torch.optim`` through ``hd.interop.to_torch``.

::

    python examples/jax_to_torch.py            # --steps N (JAX training), --finetune N (torch)

1. **JAX.** A flax MLP classifier (2 -> 32 -> 32 -> 2, gelu, layer norm) learns two interleaved
   half-moons with optax's Adam, under ``jax.jit``.
2. **Every backend.** ``from_jax(model.apply, params, x)`` turns the trained model's jaxpr into a
   hedera program. The table shows, per backend, the largest difference of its logits from JAX
   running the flax model itself, its accuracy, and the time per call (eager).
3. **torch.** ``JaxModule(program, params)`` makes the program and its parameters a hedera
   module, ``to_torch`` a ``torch.nn.Module`` whose ``nn.Parameter``\\ s are its arrays, and
   ``torch.optim.SGD`` fine-tunes it on moons that have drifted (shifted and rotated). The
   fine-tuned parameters, fed back to the flax model on JAX, give the torch module's outputs.

Exits 1 if a backend's logits differ from JAX's by more than 1e-5 of their magnitude, or the
fine-tuned parameters do not reproduce the torch outputs on JAX.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import hedera as hd

BACKENDS = ("jax", "torch", "tensorflow", "numpy")


def moons(n: int, seed: int, shift: float = 0.0, angle: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Two interleaved half-moons (``n`` points, labels 0/1), optionally shifted and rotated."""
    rng = np.random.default_rng(seed)
    t = rng.uniform(0, np.pi, n)
    label = rng.integers(0, 2, n)
    x = np.where(
        label[:, None] == 0,
        np.stack([np.cos(t), np.sin(t)], 1),
        np.stack([1 - np.cos(t), 0.5 - np.sin(t)], 1),
    )
    x = x + rng.normal(scale=0.1, size=x.shape) + shift
    c, s = np.cos(angle), np.sin(angle)
    return (x @ np.array([[c, -s], [s, c]])).astype(np.float32), label.astype(np.int32)


def build_model():
    import flax.linen as nn

    class Classifier(nn.Module):
        @nn.compact
        def __call__(self, x):
            x = nn.gelu(nn.Dense(32)(x))
            x = nn.LayerNorm()(x)
            x = nn.gelu(nn.Dense(32)(x))
            return nn.Dense(2)(x)

    return Classifier()


def train_on_jax(model, x: np.ndarray, y: np.ndarray, steps: int):
    """Adam on the cross-entropy, full batch, under jax.jit; returns the parameters and final loss."""
    import jax
    import optax

    params = model.init(jax.random.key(0), x)
    tx = optax.adam(1e-2)

    @jax.jit
    def step(params, state):
        def loss_fn(p):
            return optax.softmax_cross_entropy_with_integer_labels(model.apply(p, x), y).mean()

        loss, grads = jax.value_and_grad(loss_fn)(params)
        updates, state = tx.update(grads, state, params)
        return optax.apply_updates(params, updates), state, loss

    state = tx.init(params)
    for _ in range(steps):
        params, state, loss = step(params, state)
    return params, float(loss)


def on_backend(tree, backend: str):
    import jax

    return jax.tree_util.tree_map(lambda a: hd.asarray(np.array(a), backend=backend), tree)


def backend_table(
    program, params, x: np.ndarray, y: np.ndarray, reference: np.ndarray
) -> tuple[list[str], bool]:
    """One row per installed backend: logits' largest difference from JAX, accuracy, time per call."""
    rows, ok = [], True
    scale = float(np.abs(reference).max())
    for backend in BACKENDS:
        if backend not in hd.available_backends():
            continue
        p, xb = on_backend(params, backend), hd.asarray(x, backend=backend)
        logits = program(p, xb)  # (warm-up: the first call imports and caches)
        start = time.perf_counter()
        for _ in range(5):
            logits = program(p, xb)
        per_call = (time.perf_counter() - start) / 5
        out = hd.to_numpy(logits)
        diff = float(np.abs(out - reference).max())
        accuracy = float(np.mean(out.argmax(1) == y))
        ok &= diff <= 1e-5 * scale
        kind = type(logits).__module__.split(".")[0]
        rows.append(f"| {backend:10} | {kind:10} | {diff:9.2e} | {accuracy:8.3f} | {per_call * 1e3:8.2f} |")
    head = [
        "| backend    | array type | max diff  | accuracy | ms/call  |",
        "| --- | --- | --- | --- | --- |",
    ]
    return head + rows, ok


def finetune_on_torch(program, params, x: np.ndarray, y: np.ndarray, steps: int):
    """SGD with momentum through to_torch(JaxModule(...)); returns the torch module and its losses."""
    import torch

    net = hd.interop.to_torch(hd.interop.JaxModule(program, params, backend="torch"))
    opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    xt, yt = torch.from_numpy(x), torch.from_numpy(y.astype(np.int64))
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(net(xt), yt)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return net, losses


def torch_params_as_flax(net) -> dict:
    """The torch module's parameters as the nested dict flax expects (``"params.Dense_0.kernel"``)."""
    out: dict = {}
    for name, p in net.named_parameters():
        *path, leaf = name.split(".")
        node = out
        for part in path:
            node = node.setdefault(part, {})
        node[leaf] = p.detach().numpy().copy()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300, help="Adam steps on JAX (default 300)")
    parser.add_argument("--finetune", type=int, default=40, help="SGD steps on torch (default 40)")
    args = parser.parse_args(argv)

    import jax
    import jax.numpy as jnp

    model = build_model()
    x, y = moons(512, seed=0)
    params, loss = train_on_jax(model, x, y, args.steps)
    reference = np.asarray(jax.jit(model.apply)(params, x))
    print(
        f"1. JAX: {args.steps} Adam steps, loss {loss:.4f}, accuracy {np.mean(reference.argmax(1) == y):.3f}"
    )

    program = hd.interop.from_jax(model.apply, params, x)
    print(f"\n2. {program}\n")
    table, same = backend_table(program, params, x, y, reference)
    print("\n".join(table))

    x2, y2 = moons(512, seed=1, shift=0.3, angle=0.5)
    before = float(np.mean(hd.to_numpy(program(params, jnp.asarray(x2))).argmax(1) == y2))
    net, losses = finetune_on_torch(program, params, x2, y2, args.finetune)
    import torch

    with torch.no_grad():
        tuned = net(torch.from_numpy(x2)).numpy()
    after = float(np.mean(tuned.argmax(1) == y2))
    print(
        f"\n3. torch: {args.finetune} torch.optim.SGD steps on drifted moons through to_torch: "
        f"loss {losses[0]:.4f} -> {losses[-1]:.4f}, accuracy {before:.3f} -> {after:.3f}"
    )
    back = np.asarray(model.apply(jax.tree_util.tree_map(jnp.asarray, torch_params_as_flax(net)), x2))
    roundtrip = float(np.abs(back - tuned).max())
    print(f"   the fine-tuned parameters on the flax model (JAX): max diff from torch {roundtrip:.2e}")
    ok = same and roundtrip <= 1e-5 * float(np.abs(tuned).max())
    print("\nall backends agree" if ok else "\nMISMATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
