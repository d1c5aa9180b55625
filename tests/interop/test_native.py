"""hd.interop.to_torch / to_keras / to_flax: hedera models trained in their hosts' own loops.

Each wrapper trains a few steps the host's way (torch.optim, Keras Model.fit on the TensorFlow and
JAX backends, an optax loop); the losses must equal the same steps taken with hd.optim.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import native_models as nm  # (tests/interop is on sys.path: pytest puts test folders there)
import numpy as np
import pytest

import hedera as hd

torch = pytest.importorskip("torch")

HERE = pathlib.Path(__file__).resolve().parent
STEPS = 5


def _close(got, want, what=""):
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=2e-5, atol=1e-6, err_msg=what)


# ---- to_torch --------------------------------------------------------------------------------------


def test_to_torch_parameters_are_the_hedera_arrays():
    model = nm.model("torch")
    net = hd.interop.to_torch(model)
    assert isinstance(net, torch.nn.Module)
    assert sorted(net.state_dict()) == [
        "0.bias",
        "0.weight",
        "1.bias",
        "1.running_mean",
        "1.running_var",
        "1.weight",
        "3.bias",
        "3.weight",
    ]
    assert sorted(n for n, _ in net.named_buffers()) == ["1.running_mean", "1.running_var"]
    for path, value in model.parameters().flatten_keys().items():
        p = net.get_parameter(path.replace("/", "."))
        assert isinstance(p, torch.nn.Parameter) and p.requires_grad
        assert value is p
    for path, value in model.buffers().flatten_keys().items():
        assert value is net.get_buffer(path.replace("/", "."))


@pytest.mark.parametrize("opt", ["sgd", "adam"])
def test_to_torch_trains_with_torch_optim_like_hd_optim(opt):
    model = nm.model("torch")
    net = hd.interop.to_torch(model)
    x, y = (torch.from_numpy(a) for a in nm.data())
    if opt == "sgd":
        optimizer, reference = (
            torch.optim.SGD(net.parameters(), lr=nm.LR, momentum=0.9),
            hd.optim.SGD(nm.LR, momentum=0.9),
        )
    else:
        optimizer, reference = torch.optim.Adam(net.parameters(), lr=nm.LR), hd.optim.Adam(nm.LR)
    losses = []
    for _ in range(STEPS):
        optimizer.zero_grad()
        loss = torch.nn.functional.mse_loss(net(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    _close(losses, nm.hedera_losses(reference, STEPS))
    assert losses[-1] < losses[0]
    # the steps changed the hedera module too (same objects), running statistics included
    fresh = nm.model("torch")
    assert not torch.allclose(model.parameters()["0"]["weight"], fresh.parameters()["0"]["weight"])
    assert not torch.allclose(model.buffers()["1"]["running_mean"], fresh.buffers()["1"]["running_mean"])
    model.eval()
    net.eval()
    with torch.no_grad():
        _close(net(x), model(x))


def test_to_torch_state_dict_round_trip_and_dtype_moves():
    model = nm.model("torch")
    net = hd.interop.to_torch(model)
    other = hd.interop.to_torch(nm.model("torch"))
    with torch.no_grad():
        for p in other.parameters():
            p.add_(1.0)
    net.load_state_dict(other.state_dict())
    _close(model.parameters()["3"]["bias"].detach(), other.get_parameter("3.bias").detach())
    net.double()
    assert model.parameters()["0"]["weight"].dtype == torch.float64
    assert model.parameters()["0"]["weight"] is net.get_parameter("0.weight")
    net.eval()
    x = torch.from_numpy(nm.data()[0]).double()
    assert net(x).dtype == torch.float64


def test_to_torch_compile_matches_eager():
    net = hd.interop.to_torch(nm.model("torch")).eval()
    x = torch.from_numpy(nm.data()[0])
    compiled = torch.compile(net, backend="aot_eager", fullgraph=True)
    _close(compiled(x).detach(), net(x).detach())
    loss = compiled(x).square().mean()
    loss.backward()
    assert net.get_parameter("0.weight").grad is not None


def test_to_torch_functional_call():
    net = hd.interop.to_torch(nm.model("torch")).eval()
    x = torch.from_numpy(nm.data()[0])
    params = {k: torch.zeros_like(v) for k, v in net.named_parameters()}
    out = torch.func.functional_call(net, params, (x,))
    assert torch.count_nonzero(out) == 0


def test_to_torch_pull_adopts_replaced_arrays():
    model = nm.model("torch")
    net = hd.interop.to_torch(model).eval()
    model.eval()
    new = model.parameters().map(lambda p: p.detach() * 0.5)
    model.set_parameters(new)
    assert model.parameters()["0"]["weight"] is not net.get_parameter("0.weight")
    net.pull()
    assert model.parameters()["0"]["weight"] is net.get_parameter("0.weight")
    x = torch.from_numpy(nm.data()[0])
    _close(net(x).detach(), model(x).detach())


def test_to_torch_rejects_other_backends_and_unbuilt_modules():
    with pytest.raises(hd.InvalidArgumentError, match=r"to_torch.*numpy.*to_backend"):
        hd.interop.to_torch(nm.model("numpy"))
    with pytest.raises(hd.InvalidArgumentError, match="not built"):
        hd.interop.to_torch(hd.nn.Linear(None, 3))
    with pytest.raises(hd.InvalidArgumentError, match=r"hedera\.nn\.Module"):
        hd.interop.to_torch(torch.nn.Linear(2, 3))


# ---- to_keras --------------------------------------------------------------------------------------


def _keras_losses_in_subprocess(backend: str) -> list[float]:
    # the hedera under test (its source folder), and nothing else of this process's path
    source = str(pathlib.Path(hd.__file__).resolve().parents[1])
    env = dict(os.environ, KERAS_BACKEND=backend, PYTHONPATH=os.pathsep.join([source, str(HERE)]))
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    done = subprocess.run(
        [sys.executable, str(HERE / "native_models.py"), "keras", str(STEPS)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["backend"] == backend
    return result["losses"]


@pytest.mark.parametrize("keras_backend", ["tensorflow", "jax"])
def test_to_keras_trains_in_model_fit_like_hd_optim(keras_backend):
    keras = pytest.importorskip("keras")
    if keras.backend.backend() == keras_backend:
        losses = nm.keras_fit_losses(STEPS)
    else:
        losses = _keras_losses_in_subprocess(keras_backend)
    _close(losses, nm.hedera_losses(hd.optim.SGD(nm.LR), STEPS))
    assert losses[-1] < losses[0]


def test_to_keras_weights_and_write_back():
    keras = pytest.importorskip("keras")
    model = nm.model()
    layer = hd.interop.to_keras(model)
    assert sorted(w.name for w in layer.trainable_weights) == [
        "0.bias",
        "0.weight",
        "1.bias",
        "1.weight",
        "3.bias",
        "3.weight",
    ]
    assert sorted(w.name for w in layer.non_trainable_weights) == ["1.running_mean", "1.running_var"]
    for w in layer.weights:
        w.assign(keras.ops.ones(w.shape))
    layer.write_to(model)
    assert all(np.all(hd.to_numpy(v) == 1) for v in hd.tree.leaves(model.state()))


# ---- to_flax ---------------------------------------------------------------------------------------


def test_to_flax_trains_with_optax_like_hd_optim():
    jax = pytest.importorskip("jax")
    optax = pytest.importorskip("optax")
    jnp = jax.numpy
    module = hd.interop.to_flax(nm.model())
    x, y = (jnp.asarray(a) for a in nm.data())
    variables = module.init(jax.random.key(0), x)
    assert set(variables) == {"params", "batch_stats"}
    _close(variables["params"]["0"]["weight"], hd.to_numpy(nm.model().parameters()["0"]["weight"]))

    def loss_fn(params, stats):
        out, updates = module.apply(
            {"params": params, "batch_stats": stats}, x, training=True, mutable=["batch_stats"]
        )
        return jnp.mean((out - y) ** 2), updates["batch_stats"]

    tx = optax.adam(nm.LR)

    @jax.jit
    def step(params, stats, opt_state):
        (loss, stats), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, stats)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), stats, opt_state, loss

    params, stats = variables["params"], variables["batch_stats"]
    opt_state = tx.init(params)
    losses = []
    for _ in range(STEPS):
        params, stats, opt_state, loss = step(params, stats, opt_state)
        losses.append(float(loss))
    _close(losses, nm.hedera_losses(hd.optim.Adam(nm.LR), STEPS))
    # eval mode uses the running statistics; written back, the hedera module computes the same
    target = hd.interop.native.flax_variables_to(nm.model(), {"params": params, "batch_stats": stats})
    target.eval()
    _close(module.apply({"params": params, "batch_stats": stats}, x), target(np.asarray(x)), "eval")


def test_to_flax_inside_a_linen_model_and_nnx_bridge():
    jax = pytest.importorskip("jax")
    pytest.importorskip("flax")
    import flax.linen as nn
    import flax.nnx

    jnp = jax.numpy
    linear = hd.nn.Linear(3, 4, key=0)

    class Outer(nn.Module):
        @nn.compact
        def __call__(self, x):
            return nn.Dense(2)(jnp.tanh(hd.interop.to_flax(linear)(x)))

    x = jnp.ones((5, 3))
    variables = Outer().init(jax.random.key(1), x)
    assert set(variables["params"]) == {"HederaFlaxModule_0", "Dense_0"}
    grads = jax.grad(lambda v: Outer().apply(v, x).sum())(variables)
    assert float(jnp.abs(grads["params"]["HederaFlaxModule_0"]["weight"]).sum()) > 0
    bridged = flax.nnx.bridge.ToNNX(hd.interop.to_flax(linear), rngs=flax.nnx.Rngs(0))
    flax.nnx.bridge.lazy_init(bridged, x)
    _close(bridged(x), hd.to_numpy(hd.nn.Linear(3, 4, key=0)(np.ones((5, 3), np.float32))))
