"""Models that move between backends, and hedera modules inside native training code.

* Train 50 steps on torch (Adam, batch norm updating its buffers), save the model and the
  optimizer state with ``hd.save``, load them on jax and on tensorflow: the same input gives the
  same outputs (float32 tolerance) and training resumes there as it would have on torch.
* A hedera module's parameters handed to ``torch.optim`` and trained by a plain PyTorch loop
  (``loss.backward(); opt.step()``), checked against the same training with ``hd.optim``.
* The same module under ``jax.jit`` with its parameters updated by ``optax``, checked the same way.
"""

from __future__ import annotations

import numpy as np
import pytest

import hedera as hd
from conftest import require_backend

F = hd.nn.functional
RNG = np.random.default_rng(8)
X = RNG.normal(size=(64, 6, 6, 1)).astype(np.float32)
Y = np.argmax(X.reshape(64, -1) @ RNG.normal(size=(36, 3)), axis=-1)


def cnn(backend: str, key: int, batch_norm: bool = True) -> hd.nn.Sequential:
    with hd.use_backend(backend):
        # no convolution bias before batch norm: its gradient is zero up to rounding, which Adam
        # would blow up to steps of size lr in directions that differ between backends
        layers = [hd.nn.Conv2d(1, 4, 3, padding="SAME", bias=not batch_norm, key=key)]
        if batch_norm:
            layers.append(hd.nn.BatchNorm(4))
        layers += [hd.nn.ReLU(), hd.nn.AvgPool2d(2), hd.nn.Flatten(), hd.nn.Linear(36, 3, key=key + 1)]
        return hd.nn.Sequential(*layers)


def batch(backend: str, step: int, size: int = 16) -> tuple:
    i = (step * size) % len(X)
    return hd.asarray(X[i : i + size], backend=backend), hd.asarray(Y[i : i + size], backend=backend)


def make_train_step(model: hd.nn.Module, opt: hd.optim.Optimizer):
    """One pure training step: Adam on the cross-entropy, batch-norm buffers carried through ``aux``."""

    def loss_fn(params, buffers, x, y):
        logits, new_buffers = model.apply(params, x, buffers=buffers, training=True, return_buffers=True)
        return F.cross_entropy(logits, y), new_buffers

    def step(params, buffers, opt_state, x, y):
        (loss, buffers), grads = hd.value_and_grad(loss_fn, has_aux=True)(params, buffers, x, y)
        params, opt_state = opt.update(grads, opt_state, params)
        return params, buffers, opt_state, loss

    return step


@pytest.fixture(scope="module")
def trained_on_torch(tmp_path_factory):
    require_backend("torch")
    model = cnn("torch", key=0)
    opt = hd.optim.Adam(0.01)
    step = make_train_step(model, opt)
    params, buffers, opt_state = model.parameters(), model.buffers(), opt.init(model.parameters())
    losses = []
    for i in range(50):
        params, buffers, opt_state, loss = step(params, buffers, opt_state, *batch("torch", i))
        losses.append(float(loss))
    model.set_parameters(params)
    model.load_state(buffers, strict=False)
    path = tmp_path_factory.mktemp("portability") / "checkpoint.safetensors"
    hd.save({"model": model.state(), "opt": opt_state}, path)
    return model, opt_state, losses, path


def test_torch_training_learns(trained_on_torch):
    _, _, losses, _ = trained_on_torch
    assert np.mean(losses[-5:]) < 0.6 * np.mean(losses[:5])


@pytest.mark.parametrize("target", ["jax", "tensorflow"])
def test_load_on_another_backend_gives_the_same_outputs_and_resumes(trained_on_torch, target):
    require_backend(target)
    source, source_opt_state, losses, path = trained_on_torch
    checkpoint = hd.load(path)
    model = cnn(target, key=100)  # other initial weights: everything must come from the checkpoint
    model.load_state(checkpoint["model"])
    assert {hd.backend_of(v) for v in hd.tree.leaves(model.state())} == {target}
    assert model.state().all_equal(source.state())

    x = X[:20]
    for mode in ("eval", "train"):
        getattr(model, mode)(), getattr(source, mode)()
        ours = model.apply(model.parameters(), hd.asarray(x, backend=target))
        theirs = source.apply(source.parameters(), hd.asarray(x, backend="torch"))
        np.testing.assert_allclose(hd.to_numpy(ours), hd.to_numpy(theirs), rtol=1e-4, atol=1e-5, err_msg=mode)

    # resume: 5 more steps here and on torch, from the same parameters, buffers and Adam state
    opt = hd.optim.Adam(0.01)
    here = (model.parameters(), model.buffers(), hd.load(path, backend=target)["opt"])
    there = (source.parameters(), source.buffers(), source_opt_state)
    step_here, step_there = make_train_step(model, opt), make_train_step(source, opt)
    resumed = []
    for i in range(50, 55):
        *here, loss = step_here(*here, *batch(target, i))
        *there, _ = step_there(*there, *batch("torch", i))
        resumed.append(float(loss))
    assert int(hd.to_numpy(here[2]["step"])) == 55
    assert hd.tree.all_close(here[0], there[0], rtol=1e-3, atol=1e-4)
    assert hd.tree.all_close(here[1], there[1], rtol=1e-3, atol=1e-4)
    assert np.mean(resumed) < np.mean(losses[:5])


def hedera_reference(model: hd.nn.Module, opt: hd.optim.Optimizer, steps: int, backend: str) -> hd.Container:
    """The parameters after ``steps`` steps of ``opt`` with hd.grad (the reference for native loops)."""
    params, state = model.parameters(), opt.init(model.parameters())

    def loss_fn(p, x, y):
        return F.cross_entropy(model.apply(p, x), y)

    for i in range(steps):
        grads = hd.grad(loss_fn)(params, *batch(backend, i))
        params, state = opt.update(grads, state, params)
    return params


def test_parameters_trained_by_a_plain_torch_loop():
    require_backend("torch")
    import torch

    model = cnn("torch", key=3, batch_norm=False)
    reference = hedera_reference(model, hd.optim.SGD(0.1, momentum=0.9), 20, "torch")
    params = hd.tree.leaves(model.parameters())
    for p in params:  # the module's own tensors: leaves, made trainable in place
        assert p.is_leaf
        p.requires_grad_()
    opt = torch.optim.SGD(params, lr=0.1, momentum=0.9)
    losses = []
    for i in range(20):
        opt.zero_grad()
        loss = F.cross_entropy(model(*batch("torch", i)[:1]), batch("torch", i)[1])
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < losses[0]
    trained = model.parameters()
    assert all(a is b for a, b in zip(hd.tree.leaves(trained), params, strict=True))  # updated in place
    assert hd.tree.all_close(trained.map(lambda p: p.detach()), reference, rtol=1e-4, atol=1e-5)


def test_module_under_jax_jit_with_optax():
    require_backend("jax")
    import jax
    import optax

    model = cnn("jax", key=5, batch_norm=False)
    reference = hedera_reference(model, hd.optim.Adam(0.01), 20, "jax")
    tx = optax.adam(0.01)

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(lambda p: F.cross_entropy(model.apply(p, x), y))(params)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    params = model.parameters()
    opt_state = tx.init(params)
    losses = []
    for i in range(20):
        params, opt_state, loss = step(params, opt_state, *batch("jax", i))
        losses.append(float(loss))
    assert isinstance(params, hd.Container) and losses[-1] < losses[0]
    assert hd.tree.all_close(params, reference, rtol=1e-4, atol=1e-5)
    model.set_parameters(params)
    np.testing.assert_allclose(
        hd.to_numpy(model(batch("jax", 0)[0])),
        hd.to_numpy(model.apply(reference, batch("jax", 0)[0])),
        atol=1e-4,
    )
