"""hd.nn.Module: registration, parameters/buffers/state, train/eval, apply (pure form), lazy building,
state loading with every mismatch reported, gradients through apply against finite differences,
and apply under hd.jit. References: NumPy written out (the MLP), central differences.
"""

from __future__ import annotations

import numpy as np
import pytest

import hedera as hd
from hedera.errors import StateMismatchError, StructureError

RNG = np.random.default_rng(3)


class MLP(hd.nn.Module):
    """A small custom module: two linear layers, a parameter and a buffer of its own."""

    def __init__(self, backend=None, dtype=hd.float32):
        super().__init__()
        place = {"backend": backend, "dtype": dtype}
        self.hidden = hd.nn.Linear(4, 5, key=1, **place)
        self.out = hd.nn.Linear(5, 3, key=2, **place)
        self.scale = hd.nn.init.ones((3,), **place)
        self.register_buffer("offset", hd.nn.init.constant((3,), 0.5, **place))

    def forward(self, x):
        return self.out(hd.tanh(self.hidden(x))) * self.scale + self.offset


def mlp_numpy(state: dict, x: np.ndarray) -> np.ndarray:
    """The MLP written out in NumPy from a flat state dict."""
    h = np.tanh(x @ state["hidden/weight"] + state["hidden/bias"])
    return (h @ state["out/weight"] + state["out/bias"]) * state["scale"] + state["offset"]


def flat_numpy(c) -> dict:
    return {k: hd.to_numpy(v) for k, v in c.flatten_keys().items()}


# ---- registration and traversal ------------------------------------------------------------


def test_registration_and_containers():
    m = MLP(backend="numpy")
    assert sorted(m.parameters().flatten_keys()) == [
        "hidden/bias",
        "hidden/weight",
        "out/bias",
        "out/weight",
        "scale",
    ]
    assert list(m.buffers().flatten_keys()) == ["offset"]
    assert sorted(m.state().flatten_keys()) == sorted([*m.parameters().flatten_keys(), "offset"])
    assert isinstance(m.parameters(), hd.Container)
    assert m.parameters()["hidden/weight"] is m.hidden.weight  # the module's own arrays, not copies
    assert [name for name, _ in m.named_modules()] == ["", "hidden", "out"]
    assert list(m.children()) == [m.hidden, m.out]
    assert m.num_parameters() == 4 * 5 + 5 + 5 * 3 + 3 + 3
    m.offset = np.zeros(3, np.float32)  # assigning to a buffer name updates the buffer
    assert "offset" in m.buffers() and "offset" not in m.parameters()
    del m.scale
    assert "scale" not in m.parameters()


def test_lists_of_modules_and_none_parameters():
    class Stack(hd.nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = [hd.nn.Linear(2, 2, key=i, backend="numpy") for i in range(3)]
            self.extra = hd.nn.Linear(2, 2, bias=False, key=9, backend="numpy")

        def forward(self, x):
            for layer in self.layers:
                x = layer(x)
            return self.extra(x)

    s = Stack()
    assert isinstance(s.layers, hd.nn.ModuleList) and len(s.layers) == 3
    assert sorted(s.parameters().flatten_keys()) == [
        "extra/weight",
        *[f"layers/{i}/{n}" for i in range(3) for n in ("bias", "weight")],
    ]
    assert s.extra.bias is None
    assert s(np.ones((1, 2), np.float32)).shape == (1, 2)


def test_assignment_before_init_is_explained():
    class Bad(hd.nn.Module):
        def __init__(self):
            self.w = np.ones(2)

    with pytest.raises(AttributeError, match=r"super\(\).__init__\(\)"):
        Bad()


def test_train_eval_recurse_and_repr():
    model = hd.nn.Sequential(
        hd.nn.Linear(3, 3, key=0), hd.nn.Dropout(0.5), hd.nn.Sequential(hd.nn.BatchNorm(3))
    )
    assert all(m.training for m in model.modules())
    assert model.eval() is model
    assert not any(m.training for m in model.modules())
    model.train()
    assert all(m.training for m in model.modules())
    text = repr(model)
    assert "(0): Linear(in_features=3, out_features=3, bias=True)" in text
    assert "(1): Dropout(rate=0.5)" in text and "BatchNorm(3" in text


# ---- forward, apply ---------------------------------------------------------------------------


def test_forward_matches_numpy_on_every_backend(backend):
    model = MLP(backend=backend)
    x = RNG.normal(size=(6, 4)).astype(np.float32)
    y = model(hd.asarray(x, backend=backend))
    assert hd.backend_of(y) == backend
    np.testing.assert_allclose(hd.to_numpy(y), mlp_numpy(flat_numpy(model.state()), x), rtol=1e-5, atol=1e-6)


def test_apply_uses_the_given_parameters_and_changes_nothing(backend):
    model = MLP(backend=backend)
    before = flat_numpy(model.state())
    params = model.parameters().map(lambda p: hd.multiply(p, 2.0))
    x = RNG.normal(size=(2, 4)).astype(np.float32)
    y = model.apply(params, hd.asarray(x, backend=backend))
    expected = mlp_numpy({**{k: 2 * v for k, v in before.items()}, "offset": before["offset"]}, x)
    np.testing.assert_allclose(hd.to_numpy(y), expected, rtol=1e-5, atol=1e-6)
    after = flat_numpy(model.state())
    assert all(np.array_equal(before[k], after[k]) for k in before)


def test_apply_checks_the_names():
    model = MLP(backend="numpy")
    params = model.parameters()
    del params["hidden/bias"]
    params["out/extra"] = np.zeros(1)
    with pytest.raises(StructureError, match=r"'hidden': missing \['bias'\]") as info:
        model.apply(params, np.ones((1, 4), np.float32))
    assert isinstance(info.value, hd.HederaError)


def test_apply_buffers_and_training_mode_batch_norm(backend):
    with hd.use_backend(backend):
        bn = hd.nn.BatchNorm(3)
    x = RNG.normal(loc=2.0, size=(8, 3)).astype(np.float32)
    xb = hd.asarray(x, backend=backend)
    y, buffers = bn.apply(bn.parameters(), xb, training=True, return_buffers=True)
    np.testing.assert_allclose(hd.to_numpy(buffers["running_mean"]), 0.1 * x.mean(0), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(hd.to_numpy(buffers["running_var"]), 0.9 + 0.1 * x.var(0, ddof=1), rtol=1e-5)
    np.testing.assert_allclose(hd.to_numpy(bn.running_mean), 0.0)  # apply left the module alone
    ref = (x - x.mean(0)) / np.sqrt(x.var(0) + 1e-5)
    np.testing.assert_allclose(hd.to_numpy(y), ref, rtol=1e-4, atol=1e-5)
    bn(xb)  # the eager call updates the module's own buffers
    np.testing.assert_allclose(hd.to_numpy(bn.running_mean), 0.1 * x.mean(0), rtol=1e-5, atol=1e-6)
    y_eval = bn.apply(bn.parameters(), xb, training=False, buffers=buffers)
    ref_eval = (x - hd.to_numpy(buffers["running_mean"])) / np.sqrt(
        hd.to_numpy(buffers["running_var"]) + 1e-5
    )
    np.testing.assert_allclose(hd.to_numpy(y_eval), ref_eval, rtol=1e-4, atol=1e-5)


def test_apply_rng_makes_dropout_a_function_of_the_key(backend):
    model = hd.nn.Sequential(hd.nn.Dropout(0.5))
    x = hd.asarray(np.ones((64,), np.float32), backend=backend)
    k1, k2 = hd.random.key(1, backend=backend), hd.random.key(2, backend=backend)
    a = hd.to_numpy(model.apply(hd.Container(), x, rng=k1))
    b = hd.to_numpy(model.apply(hd.Container(), x, rng=k1))
    c = hd.to_numpy(model.apply(hd.Container(), x, rng=k2))
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
    assert set(np.unique(a)) <= {0.0, 2.0}
    np.testing.assert_array_equal(hd.to_numpy(model.apply(hd.Container(), x, training=False, rng=k1)), 1.0)


def central_difference(f, params: dict, h: float = 1e-6) -> dict:
    grads = {}
    for name, value in params.items():
        g = np.zeros_like(value)
        for i in np.ndindex(value.shape):
            plus, minus = dict(params), dict(params)
            plus[name] = value.copy()
            minus[name] = value.copy()
            plus[name][i] += h
            minus[name][i] -= h
            g[i] = (f(plus) - f(minus)) / (2 * h)
        grads[name] = g
    return grads


def test_gradients_through_apply_match_finite_differences(autodiff_backend):
    model = MLP(backend=autodiff_backend, dtype=hd.float64)
    x = RNG.normal(size=(3, 4))
    target = RNG.normal(size=(3, 3))
    xb, tb = hd.asarray(x, backend=autodiff_backend), hd.asarray(target, backend=autodiff_backend)

    def loss(params):
        return hd.mean(hd.square(model.apply(params, xb) - tb))

    grads = hd.grad(loss)(model.parameters())
    assert isinstance(grads, hd.Container)
    state = flat_numpy(model.state())
    params = {k: v for k, v in state.items() if k != "offset"}
    ref = central_difference(
        lambda p: np.mean((mlp_numpy({**p, "offset": state["offset"]}, x) - target) ** 2), params
    )
    for name, g in flat_numpy(grads).items():
        np.testing.assert_allclose(g, ref[name], rtol=1e-6, atol=1e-8, err_msg=name)


def test_apply_under_jit_matches_eager(autodiff_backend):
    place = {"backend": autodiff_backend}
    model = hd.nn.Sequential(
        hd.nn.Linear(4, 8, key=0, **place),
        hd.nn.ReLU(),
        hd.nn.Dropout(0.25),
        hd.nn.Linear(8, 2, key=1, **place),
    )
    x = hd.asarray(RNG.normal(size=(5, 4)).astype(np.float32), backend=autodiff_backend)
    key = hd.random.key(7, backend=autodiff_backend)
    compiled = hd.jit(lambda p, x, k: model.apply(p, x, rng=k))
    eager = model.apply(model.parameters(), x, rng=key)
    np.testing.assert_allclose(
        hd.to_numpy(compiled(model.parameters(), x, key)), hd.to_numpy(eager), rtol=1e-5, atol=1e-6
    )


# ---- lazy building --------------------------------------------------------------------------------


def test_lazy_layers_build_on_first_call_from_the_input(backend):
    model = hd.nn.Sequential(hd.nn.Linear(None, 3, key=0), hd.nn.ReLU(), hd.nn.Linear(None, 2, key=1))
    assert not model[0].built
    with pytest.raises(StructureError, match="not built yet"):
        model.apply(model.parameters(), np.ones((1, 5), np.float64))
    x = hd.asarray(RNG.normal(size=(2, 5)), backend=backend)  # float64 input: float64 parameters
    model.initialize(x)
    assert model[0].in_features == 5 and model[2].in_features == 3
    for p in hd.tree.leaves(model.parameters()):
        assert hd.backend_of(p) == backend and hd.dtype(p) == hd.float64
    eager = hd.nn.Sequential(hd.nn.Linear(5, 3, key=0, backend="numpy", dtype=hd.float64), hd.nn.ReLU(),
                             hd.nn.Linear(3, 2, key=1, backend="numpy", dtype=hd.float64))  # fmt: skip
    assert model.parameters().all_equal(eager.parameters())  # same keys, same weights, lazy or not


# ---- state: save, load, mismatches ------------------------------------------------------------


@pytest.mark.parametrize("source", ["numpy", "torch", "jax", "tensorflow"])
def test_state_round_trip_through_safetensors_between_backends(source, backend, tmp_path):
    from conftest import require_backend

    require_backend(source)
    with hd.use_backend(source):
        src = hd.nn.Sequential(hd.nn.Conv2d(2, 3, 3, key=4), hd.nn.BatchNorm(3))
    x = RNG.normal(size=(2, 5, 5, 2)).astype(np.float32)
    src(hd.asarray(x, backend=source))  # training mode: running statistics move
    path = tmp_path / "model.safetensors"
    hd.save(src.state(), path)
    with hd.use_backend(backend):
        dst = hd.nn.Sequential(hd.nn.Conv2d(2, 3, 3, key=5), hd.nn.BatchNorm(3))
    assert dst.load_state(hd.load(path)) is dst
    assert dst.state().all_equal(src.state())
    assert {hd.backend_of(v) for v in hd.tree.leaves(dst.state())} == {backend}
    src.eval(), dst.eval()
    np.testing.assert_allclose(
        hd.to_numpy(dst(hd.asarray(x, backend=backend))), hd.to_numpy(src(hd.asarray(x, backend=source))),
        rtol=1e-5, atol=1e-5,
    )  # fmt: skip


def test_load_state_reports_every_mismatch_at_once():
    model = hd.nn.Sequential(hd.nn.Linear(3, 4, key=0, backend="numpy"), hd.nn.BatchNorm(4, backend="numpy"))
    state = model.state()
    state["0/weight"] = np.zeros((4, 3), np.float32)  # wrong shape
    state["0/bias"] = np.zeros(4, np.float64)  # wrong dtype
    del state["1/running_var"]  # missing
    state["2/weight"] = np.zeros(2, np.float32)  # unexpected
    with pytest.raises(StateMismatchError) as info:
        model.load_state(state)
    message = str(info.value)
    assert "4 problems" in message
    assert "missing '1/running_var' (float32[4])" in message
    assert "unexpected '2/weight'" in message
    assert "'0/weight': shape (4, 3) in the state, (3, 4) in the module" in message
    assert "'0/bias': dtype float64 in the state, float32 in the module" in message
    assert isinstance(info.value, (hd.HederaError, ValueError))
    # non-strict: names may differ, shapes and dtypes are still checked
    partial = hd.Container({"0": {"bias": np.ones(4, np.float32)}})
    model.load_state(partial, strict=False)
    np.testing.assert_array_equal(model[0].bias, 1.0)


def test_load_state_into_an_unbuilt_model_says_so():
    model = hd.nn.Sequential(hd.nn.Linear(None, 2, key=0))
    with pytest.raises(StateMismatchError, match="not built yet"):
        model.load_state({"0": {"weight": np.zeros((3, 2), np.float32), "bias": np.zeros(2, np.float32)}})


def test_to_backend_and_astype(backend):
    model = MLP(backend="numpy")
    x = RNG.normal(size=(2, 4)).astype(np.float32)
    ref = hd.to_numpy(model(x))
    model.to_backend(backend)
    assert {hd.backend_of(v) for v in hd.tree.leaves(model.state())} == {backend}
    np.testing.assert_allclose(hd.to_numpy(model(hd.asarray(x, backend=backend))), ref, rtol=1e-5, atol=1e-6)
    model.astype(hd.float64)
    assert {hd.dtype(v) for v in hd.tree.leaves(model.state())} == {hd.float64}


def test_set_parameters_checks_names():
    model = MLP(backend="numpy")
    params = model.parameters().map(lambda p: p * 0)
    model.set_parameters(params)
    assert float(np.abs(model.hidden.weight).sum()) == 0.0
    del params["scale"]
    with pytest.raises(StructureError, match=r"missing \['scale'\]"):
        model.set_parameters(params)


DOCTEST_MODULES = [
    "hedera.nn.module",
    "hedera.nn.init",
    "hedera.nn.layers.linear",
    "hedera.nn.layers.activations",
    "hedera.optim.base",
    "hedera.optim.optimizers",
    "hedera.optim.schedules",
]


@pytest.mark.parametrize("name", DOCTEST_MODULES)
def test_docstring_examples(name):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0
