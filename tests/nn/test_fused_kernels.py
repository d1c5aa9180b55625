"""hd.nn_ops' fused kernels. gather_classes: the values of numpy's take_along_axis exactly, where a
backend has the kernel (torch, tensorflow), and cross_entropy through it against torch's.
lstm / gru: torch's own recurrent kernels (torch.lstm / torch.gru, eagerly) give what
hedera's portable hd.scan loop gives, values and gradients, float64: checked against the same layer
on jax (lax.scan under hd.grad) and numpy (the Python loop), from the same weights; where the
kernel does not apply (other backends, mixed dtypes, inside hd.jit and torch.func transforms) the
loop runs.
"""

from __future__ import annotations

import numpy as np
import pytest

import hedera as hd
from conftest import require_backend

F = hd.nn.functional
BATCH, TIME, IN, HIDDEN = 3, 5, 4, 6


def weights(gates: int, biases: str) -> list:
    rng = np.random.default_rng(gates * 10 + len(biases))
    w = [rng.normal(size=(IN, gates * HIDDEN)) * 0.4, rng.normal(size=(HIDDEN, gates * HIDDEN)) * 0.4]
    b = [rng.normal(size=gates * HIDDEN) * 0.1 if k in biases else None for k in ("ih", "hh")]
    return [rng.normal(size=(BATCH, TIME, IN)), rng.normal(size=(BATCH, HIDDEN)) * 0.5, *w, *b]


def on(backend: str, arrays: list) -> list:
    return [None if a is None else hd.asarray(a, dtype=hd.float64, backend=backend) for a in arrays]


def run(layer: str, args: list) -> list:
    x, h, w_ih, w_hh, b_ih, b_hh = args
    if layer == "lstm":
        out, (h, c) = F.lstm(x, (h, hd.multiply(h, 0.5)), w_ih, w_hh, b_ih, b_hh)
        return [out, h, c]
    out, h = F.gru(x, h, w_ih, w_hh, b_ih, b_hh)
    return [out, h]


def loss(layer: str):
    def f(args: list):
        return sum(hd.sum(hd.sin(y)) for y in run(layer, args))

    return f


@pytest.mark.parametrize("biases", ["", "ih", "hh", "ihhh"])
@pytest.mark.parametrize("layer", ["lstm", "gru"])
def test_torch_kernel_matches_the_loop(layer, biases):
    require_backend("torch")
    gates = 4 if layer == "lstm" else 3
    arrays = weights(gates, biases)
    t = on("torch", arrays)
    x, h, w_ih, w_hh, b_ih, b_hh = t
    if layer == "lstm":
        assert hd.nn_ops.lstm(x, h, h, w_ih, w_hh, b_ih, b_hh) is not None  # the fused kernel runs
    else:
        assert hd.nn_ops.gru(x, h, w_ih, w_hh, b_ih, b_hh) is not None
    expected = run(layer, on("numpy", arrays))
    for got, want in zip(run(layer, t), expected, strict=True):
        np.testing.assert_allclose(hd.to_numpy(got), hd.to_numpy(want), rtol=1e-12, atol=1e-12)
    # gradients against the loop on jax (lax.scan differentiated by jax)
    require_backend("jax")  # float64 on jax
    present = [i for i, a in enumerate(arrays) if a is not None]

    def by_index(backend):
        full = on(backend, arrays)

        def f(sub):
            args = list(full)
            for i, a in zip(present, sub, strict=True):
                args[i] = a
            return loss(layer)(args)

        return f, [full[i] for i in present]

    f_t, args_t = by_index("torch")
    f_j, args_j = by_index("jax")
    got, want = hd.grad(f_t)(args_t), hd.grad(f_j)(args_j)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(hd.to_numpy(g), hd.to_numpy(w), rtol=1e-10, atol=1e-12)


def test_the_loop_runs_where_the_kernel_does_not_apply(backend):
    x, h, w_ih, w_hh, b_ih, b_hh = on(backend, weights(4, "ih"))
    has_kernel = backend == "torch"
    assert (hd.nn_ops.lstm(x, h, h, w_ih, w_hh, b_ih, b_hh) is not None) is has_kernel
    if backend == "torch":
        mixed = hd.astype(x, hd.float32)  # torch.lstm takes one dtype: hedera's loop promotes
        assert hd.nn_ops.lstm(mixed, h, h, w_ih, w_hh, b_ih, b_hh) is None
        out, _ = F.lstm(mixed, (h, h), w_ih, w_hh, b_ih, b_hh)
        assert hd.dtype(out) == hd.float64
        # under hd.grad of hd.grad (torch.func) the kernel steps aside, and the loop composes
        seen = []

        def inner(w):
            seen.append(hd.nn_ops.lstm(x, h, h, w, w_hh, b_ih, b_hh))
            return hd.sum(F.lstm(x, (h, h), w, w_hh, b_ih, b_hh)[0])

        hd.grad(lambda w: hd.sum(hd.grad(inner)(w)))(w_ih)
        assert seen and all(s is None for s in seen)


def test_compiled_gradient_of_recurrent_layers_matches_the_loop():
    """hd.jit of hd.value_and_grad through an LSTM and a GRU on torch: torch.compile cannot trace
    hd.scan's while_loop inside torch.func, so there the layers are written out over time (one graph:
    ``fullgraph=True``); values and gradients are the loop's (jax's lax.scan under hd.grad)."""
    require_backend("torch")
    require_backend("jax")
    import torch

    names = ["lstm_ih", "lstm_hh", "lstm_bih", "lstm_bhh", "gru_ih", "gru_hh", "gru_bih", "gru_bhh"]

    def inputs(backend):
        x, h, *lstm = on(backend, weights(4, "ihhh"))
        return dict(zip(names, lstm + on(backend, weights(3, "ihhh"))[2:], strict=True)), x, h

    def f(w, x, h):
        out, (h1, c) = F.lstm(
            x, (h, hd.multiply(h, 0.5)), w["lstm_ih"], w["lstm_hh"], w["lstm_bih"], w["lstm_bhh"]
        )
        out2, h2 = F.gru(x, h1, w["gru_ih"], w["gru_hh"], w["gru_bih"], w["gru_bhh"])
        return hd.sum(hd.sin(out)) + hd.sum(hd.cos(c)) + hd.sum(hd.sin(out2)) + hd.sum(h2)

    torch._dynamo.reset()
    # fullgraph: a graph break is an error; aot_eager: dynamo's and AOTAutograd's trace without
    # inductor's code generation (minutes on a loaded CPU; the benchmark runs inductor)
    options = {"torch": {"fullgraph": True, "backend": "aot_eager"}}
    value_t, grads_t = hd.jit(hd.value_and_grad(f), backend_options=options)(*inputs("torch"))
    value_j, grads_j = hd.value_and_grad(f)(*inputs("jax"))
    np.testing.assert_allclose(hd.to_numpy(value_t), hd.to_numpy(value_j), rtol=1e-10)
    for k in names:
        np.testing.assert_allclose(hd.to_numpy(grads_t[k]), hd.to_numpy(grads_j[k]), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("shape", [(6, 5), (2, 3, 5)])
def test_gather_classes_is_take_along_axis(backend, shape):
    rng = np.random.default_rng(len(shape))
    x, t = rng.normal(size=shape), rng.integers(0, shape[-1], size=shape[:-1])
    expected = np.take_along_axis(x, t[..., None], axis=-1)[..., 0]
    for dtype in (hd.int32, hd.int64):
        xs, ts = hd.asarray(x, backend=backend), hd.asarray(t, dtype=dtype, backend=backend)
        got = hd.nn_ops.gather_classes(xs, ts)
        has_kernel = backend == "tensorflow" or (backend == "torch" and dtype == hd.int64)
        assert (got is not None) is has_kernel
        if got is not None:
            np.testing.assert_array_equal(hd.to_numpy(got), expected)
        loss = hd.nn.functional.cross_entropy(xs, ts, reduction="none")
        torch = pytest.importorskip("torch")
        ref = torch.nn.functional.cross_entropy(
            torch.tensor(x.reshape(-1, shape[-1])), torch.tensor(t.reshape(-1)), reduction="none"
        )
        np.testing.assert_allclose(hd.to_numpy(loss), ref.numpy().reshape(shape[:-1]), rtol=1e-12)


# ---- attention: torch's scaled_dot_product_attention against the written-out softmax ----------------


def _attention_inputs(shapes):
    rng = np.random.default_rng(7)
    return [rng.normal(size=s) for s in shapes]


def _numpy_attention(q, k, v, scale):
    s = q @ np.swapaxes(k, -1, -2) * scale
    w = np.exp(s - s.max(-1, keepdims=True))
    return (w / w.sum(-1, keepdims=True)) @ v


def test_torch_attention_kernel_matches_the_written_out_softmax_values_and_gradients():
    """Unmasked attention on torch eager is one F.scaled_dot_product_attention: the values of
    NumPy's softmax(q k^T s) v, and the gradients of jax's hedera attention (the written-out form)."""
    require_backend("torch")
    require_backend("jax")
    q, k, v = _attention_inputs([(2, 3, 5, 4), (2, 3, 6, 4), (2, 3, 6, 7)])
    tq, tk, tv = on("torch", [q, k, v])
    assert hd.nn_ops.attention(tq, tk, tv, 0.5) is not None  # the fused kernel runs
    out = F.scaled_dot_product_attention(tq, tk, tv)
    np.testing.assert_allclose(hd.to_numpy(out), _numpy_attention(q, k, v, 0.5), rtol=1e-12, atol=1e-13)

    def f(args):
        return hd.sum(hd.sin(F.scaled_dot_product_attention(*args)))

    grads_torch = hd.grad(f)(on("torch", [q, k, v]))
    grads_jax = hd.grad(f)(on("jax", [q, k, v]))
    assert hd.nn_ops.attention(*on("jax", [q, k, v]), 0.5) is None  # jax: the written-out form
    for a, b in zip(grads_torch, grads_jax, strict=True):
        np.testing.assert_allclose(hd.to_numpy(a), hd.to_numpy(b), rtol=1e-10, atol=1e-12)


def test_torch_attention_kernel_does_not_apply_to_broadcasts_masks_or_transforms():
    require_backend("torch")
    q, k, v = on("torch", _attention_inputs([(2, 5, 4), (1, 6, 4), (1, 6, 3)]))
    assert hd.nn_ops.attention(q, k, v, 0.5) is None  # broadcast leading axes: the written-out form
    out = F.scaled_dot_product_attention(q, k, v)
    expected = _numpy_attention(*(hd.to_numpy(a) for a in (q, k, v)), 0.5)
    np.testing.assert_allclose(hd.to_numpy(out), expected, rtol=1e-12, atol=1e-13)
    q2, k2, v2 = on("torch", _attention_inputs([(2, 5, 4), (2, 6, 4), (2, 6, 3)]))
    seen = []

    def inside(q):
        seen.append(hd.nn_ops.attention(q, k2, v2, 0.5))
        return hd.sum(F.scaled_dot_product_attention(q, k2, v2))

    hd.grad(lambda q: hd.sum(hd.grad(inside)(q) ** 2))(q2)  # the inner gradient: torch.func
    assert seen and all(s is None for s in seen)  # inside torch.func transforms: no kernel


# ---- layer_norm: torch's F.layer_norm against the written-out normalisation ---------------------------


@pytest.mark.parametrize("affine", [True, False])
def test_torch_layer_norm_kernel_matches_the_written_out_form(affine):
    """Values against NumPy's written-out mean / variance / scale, gradients against jax's written-out
    form (hedera's own formula, which jax runs), float64; elsewhere (and under hd.grad of hd.grad) None."""
    require_backend("torch")
    require_backend("jax")
    rng = np.random.default_rng(3)
    x, w, b = rng.normal(size=(3, 4, 5)), rng.normal(size=(4, 5)), rng.normal(size=(4, 5))
    mean = x.mean(axis=(1, 2), keepdims=True)
    var = ((x - mean) ** 2).mean(axis=(1, 2), keepdims=True)
    expected = (x - mean) / np.sqrt(var + 1e-5) * (w if affine else 1) + (b if affine else 0)

    def f(args):
        x, w, b = args
        return hd.sum(hd.sin(F.layer_norm(x, (4, 5), w if affine else None, b if affine else None)))

    t, j = on("torch", [x, w, b]), on("jax", [x, w, b])
    assert hd.nn_ops.layer_norm(t[0], (4, 5), *(t[1:] if affine else (None, None)), 1e-5) is not None
    assert hd.nn_ops.layer_norm(j[0], (4, 5), None, None, 1e-5) is None
    got = F.layer_norm(t[0], (4, 5), *(t[1:] if affine else (None, None)))
    np.testing.assert_allclose(hd.to_numpy(got), expected, rtol=1e-12, atol=1e-12)
    for g, want in zip(hd.grad(f)(t), hd.grad(f)(j), strict=True):
        np.testing.assert_allclose(hd.to_numpy(g), hd.to_numpy(want), rtol=1e-10, atol=1e-12)
    seen = []

    def inner(x):
        seen.append(hd.nn_ops.layer_norm(x, (4, 5), None, None, 1e-5))
        return f([x, *t[1:]])

    hd.grad(lambda x: hd.sum(hd.grad(inner)(x)))(t[0])
    assert seen and all(s is None for s in seen)


# ---- linear and cross_entropy: torch.addmm and F.cross_entropy against NumPy, jax and torch.nn --------


@pytest.mark.parametrize("shape", [(6, 4), (2, 3, 4)])
def test_torch_linear_kernel_matches_the_written_out_form(shape):
    """``x @ weight + bias`` on torch eager is one torch.addmm: NumPy's values, jax's gradients (the
    written-out matmul and add), float64; without a bias, on other backends and under hd.grad of
    hd.grad (torch.func) the written-out form runs."""
    require_backend("torch")
    require_backend("jax")
    rng = np.random.default_rng(11)
    x, w, b = rng.normal(size=shape), rng.normal(size=(4, 3)), rng.normal(size=3)
    t, j = on("torch", [x, w, b]), on("jax", [x, w, b])
    assert hd.nn_ops.linear(*t) is not None
    assert hd.nn_ops.linear(t[0], t[1], None) is None
    assert hd.nn_ops.linear(*j) is None
    assert hd.nn_ops.linear(hd.astype(t[0], hd.float32), t[1], t[2]) is None  # mixed dtypes: promoted
    np.testing.assert_allclose(hd.to_numpy(F.linear(*t)), x @ w + b, rtol=1e-12, atol=1e-12)

    def f(args):
        return hd.sum(hd.sin(F.linear(*args)))

    for g, want in zip(hd.grad(f)(t), hd.grad(f)(j), strict=True):
        np.testing.assert_allclose(hd.to_numpy(g), hd.to_numpy(want), rtol=1e-10, atol=1e-12)
    seen = []

    def inner(w):
        seen.append(hd.nn_ops.linear(t[0], w, t[2]))
        return f([t[0], w, t[2]])

    hd.grad(lambda w: hd.sum(hd.grad(inner)(w) ** 2))(t[1])
    assert seen and all(s is None for s in seen)


CE_CASES = [
    ((6, 5), -1, {}),
    ((6, 5), -1, {"reduction": "sum"}),
    ((6, 5), -1, {"reduction": "none"}),
    ((6, 5), -1, {"label_smoothing": 0.2}),
    ((6, 5), -1, {"ignore_index": 2}),
    ((6, 5), -1, {"ignore_index": 2, "label_smoothing": 0.1, "reduction": "sum"}),
    ((2, 3, 5), -1, {"reduction": "none"}),
    ((2, 3, 5), -1, {"ignore_index": 1}),
    ((2, 5, 3), 1, {"reduction": "none"}),
    ((5,), -1, {}),
]


@pytest.mark.parametrize(("shape", "axis", "kw"), CE_CASES)
def test_torch_cross_entropy_kernel_matches_torch_nn_and_the_written_out_gradients(shape, axis, kw):
    """Integer-target cross-entropy on torch eager is one F.cross_entropy: the values of
    torch.nn.CrossEntropyLoss (classes moved to axis 1), and the gradients of jax's hedera loss (the
    written-out log-softmax and pick), float64."""
    torch = pytest.importorskip("torch")
    require_backend("jax")
    rng = np.random.default_rng(len(shape) + len(kw))
    x = rng.normal(size=shape)
    target_shape = shape[: axis % len(shape)] + shape[axis % len(shape) + 1 :]
    t = rng.integers(0, shape[axis], size=target_shape)
    xt, tt = hd.asarray(x, backend="torch"), hd.asarray(t, dtype=hd.int64, backend="torch")
    xj, tj = hd.asarray(x, backend="jax"), hd.asarray(t, dtype=hd.int32, backend="jax")
    assert hd.nn_ops.cross_entropy(xt, tt, axis % len(shape), "mean", 0.0, -100) is not None
    assert hd.nn_ops.cross_entropy(xj, tj, axis % len(shape), "mean", 0.0, -100) is None
    got = F.cross_entropy(xt, tt, axis=axis, **kw)
    classes_at_1 = torch.tensor(np.moveaxis(x, axis, 1) if len(shape) > 1 else x)
    want = torch.nn.CrossEntropyLoss(**kw)(classes_at_1, torch.tensor(t))
    np.testing.assert_allclose(hd.to_numpy(got), want.numpy(), rtol=1e-12, atol=1e-13)

    def f(x, targets):
        return hd.sum(hd.sin(F.cross_entropy(x, targets, axis=axis, **kw)))

    np.testing.assert_allclose(
        hd.to_numpy(hd.grad(f)(xt, tt)), hd.to_numpy(hd.grad(f)(xj, tj)), rtol=1e-10, atol=1e-12
    )


def test_torch_cross_entropy_kernel_steps_aside_for_bad_targets_int32_and_transforms():
    """A target out of range still raises hedera's error (torch's own check finds it, then the
    written-out form raises); int32 targets (F.cross_entropy takes int64) and hd.grad of hd.grad
    (torch.func) run the written-out form, with the same values."""
    torch = pytest.importorskip("torch")
    x = torch.randn(4, 3, dtype=torch.float64)
    for bad in ([0, 1, 3, 2], [0, -1, 1, 2]):
        with pytest.raises(hd.InvalidArgumentError, match=r"cross_entropy: target .* is out of bounds"):
            F.cross_entropy(x, torch.tensor(bad))
    t32 = torch.tensor([0, 1, 2, 1], dtype=torch.int32)
    assert hd.nn_ops.cross_entropy(x, t32, 1, "mean", 0.0, -100) is None
    want = torch.nn.functional.cross_entropy(x, t32.long())
    np.testing.assert_allclose(hd.to_numpy(F.cross_entropy(x, t32)), want.numpy(), rtol=1e-12)
    seen = []

    def inner(x):
        seen.append(hd.nn_ops.cross_entropy(x, t32.long(), 1, "mean", 0.0, -100))
        return F.cross_entropy(x, t32.long())

    hd.grad(lambda x: hd.sum(hd.grad(inner)(x) ** 2))(x)
    assert seen and all(s is None for s in seen)


@pytest.mark.parametrize("layer", ["lstm", "gru"])
def test_torch_recurrent_kernels_make_the_zero_state(layer):
    """With no state (None) the torch kernel starts from zeros, as the loop does from hedera's zeros
    (numpy, the Python loop), values and gradients (jax's lax.scan)."""
    require_backend("torch")
    require_backend("jax")
    x, _, w_ih, w_hh, b_ih, _ = weights(4 if layer == "lstm" else 3, "ih")

    def run_zero(args):
        x, w_ih, w_hh, b_ih = args
        if layer == "lstm":
            out, (h, c) = F.lstm(x, None, w_ih, w_hh, b_ih, None)
            return [out, h, c]
        return list(F.gru(x, None, w_ih, w_hh, b_ih, None))

    args = [x, w_ih, w_hh, b_ih]
    t = on("torch", args)
    kernel = (
        hd.nn_ops.lstm(t[0], None, None, t[1], t[2], t[3], None)
        if layer == "lstm"
        else (hd.nn_ops.gru(t[0], None, t[1], t[2], t[3], None))
    )
    assert kernel is not None
    for got, want in zip(run_zero(t), run_zero(on("numpy", args)), strict=True):
        np.testing.assert_allclose(hd.to_numpy(got), hd.to_numpy(want), rtol=1e-12, atol=1e-12)

    def f(args):
        return sum(hd.sum(hd.sin(y)) for y in run_zero(args))

    for g, want in zip(hd.grad(f)(t), hd.grad(f)(on("jax", args)), strict=True):
        np.testing.assert_allclose(hd.to_numpy(g), hd.to_numpy(want), rtol=1e-10, atol=1e-12)


def test_compiled_training_gradient_through_modules_is_one_graph_and_matches_eager():
    """hd.jit of hd.value_and_grad of ``model.apply`` and cross-entropy on torch: one graph
    (``fullgraph=True``: Module.apply's binding, value_and_grad's checks and the doors' tests trace
    without a graph break), the value and gradients of the eager step (where the linear,
    cross-entropy and LSTM doors run torch's fused kernels)."""
    require_backend("torch")
    import torch

    nn = hd.nn

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.lstm = nn.LSTM(4, 6, key=1, dtype=hd.float64, backend="torch")
            self.mlp = nn.Sequential(
                nn.Linear(6, 8, key=2, dtype=hd.float64, backend="torch"),
                nn.ReLU(),
                nn.Linear(8, 3, key=3, dtype=hd.float64, backend="torch"),
            )

        def forward(self, x):
            _, (h, _) = self.lstm(x)
            return self.mlp(h[-1])

    model = Net()
    x = hd.asarray(np.random.default_rng(5).normal(size=(2, 5, 4)), dtype=hd.float64, backend="torch")
    y = hd.asarray(np.array([2, 0]), dtype=hd.int64, backend="torch")

    def loss(params, x, y):
        return F.cross_entropy(model.apply(params, x), y)

    value, grads = hd.value_and_grad(loss)(model.parameters(), x, y)
    opt = hd.optim.SGD(0.1)

    def step(params, state, x, y):
        value, grads = hd.value_and_grad(loss)(params, x, y)
        params, state = opt.update(grads, state, params)
        return params, state, value, grads

    torch._dynamo.reset()
    options = {"torch": {"fullgraph": True, "backend": "aot_eager"}}
    compiled_step = hd.jit(step, backend_options=options)
    params = model.parameters()
    state = opt.init(params)
    for _ in range(2):  # the second call takes the Containers the first one returned
        c_params, state, c_value, c_grads = compiled_step(params, state, x, y)
        value, grads = hd.value_and_grad(loss)(params, x, y)
        np.testing.assert_allclose(hd.to_numpy(c_value), hd.to_numpy(value), rtol=1e-12)
        eager, compiled = grads.flatten_keys(), c_grads.flatten_keys()
        assert sorted(eager) == sorted(compiled)
        for k in eager:
            np.testing.assert_allclose(hd.to_numpy(compiled[k]), hd.to_numpy(eager[k]), rtol=1e-9, atol=1e-12)
        params = c_params
