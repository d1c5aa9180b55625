"""hd.interop.from_jax on whole programs: jax.numpy functions, flax models with their parameters,
an optax training step, fancy indexing, control flow; and hd.grad / hd.jit / hd.vmap through them.

Outputs are checked against JAX running the original function (1e-5 in float32); torch gradients
of the converted program against jax.grad of the original.
"""

from __future__ import annotations

import numpy as np
import pytest

import hedera as hd

jax = pytest.importorskip("jax")
jnp = jax.numpy
lax = jax.lax

TOL = {"rtol": 1e-5, "atol": 1e-5}


def _to(backend, tree):
    return jax.tree_util.tree_map(lambda a: hd.asarray(np.asarray(a), backend=backend), tree)


def _assert_tree_close(got, want, **tol):
    got_leaves, want_leaves = jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want)
    assert len(got_leaves) == len(want_leaves)
    for i, (g, w) in enumerate(zip(got_leaves, want_leaves, strict=True)):
        g, w = hd.to_numpy(g), np.asarray(w)
        assert g.shape == w.shape and g.dtype == w.dtype, (i, g.shape, w.shape, g.dtype, w.dtype)
        np.testing.assert_allclose(g, w, err_msg=f"leaf {i}", **(tol or TOL))


def _check_on(backend, fn, *args):
    program = hd.interop.from_jax(fn, *args)
    want = jax.jit(fn)(*args)
    run = hd.jit(program) if backend == "jax" else program  # (one compilation, not one per jax call)
    _assert_tree_close(run(*_to(backend, args)), want)
    return program


def _rng():
    return np.random.default_rng(7)


# ---- jax.numpy functions ------------------------------------------------------------------------


def _layer_norm(x, g, b):
    mu = jnp.mean(x, -1, keepdims=True)
    var = jnp.var(x, -1, keepdims=True)
    return (x - mu) / jnp.sqrt(var + 1e-5) * g + b


def _attention(q, k, v):
    w = jax.nn.softmax(jnp.einsum("bqd,bkd->bqk", q, k) / jnp.sqrt(q.shape[-1]), axis=-1)
    return jnp.einsum("bqk,bkd->bqd", w, v)


def _numerics(x):
    return (
        jax.nn.logsumexp(x, axis=1),
        jnp.linalg.norm(x, axis=0),
        jnp.clip(x, -0.5, 0.5),
        jnp.where(x > 0, jnp.log1p(x * x), jnp.expm1(x)),
        jnp.tril(x[:3, :3]),
        jnp.roll(x, 2, axis=1),
        jnp.tile(x[:1], (2, 1)),
        jnp.stack([x, -x], axis=-1).reshape(x.shape[0], -1),
        jax.nn.gelu(x),
        jax.nn.gelu(x, approximate=False),
        jax.nn.one_hot(jnp.argmax(x, 1), 5),
        jnp.sort(x, axis=0)[::-1],
        jnp.cumsum(x[::-1], axis=0),
        jnp.mean(x**2) + jnp.std(x),
    )


JNP_PROGRAMS = {
    "layer_norm": (_layer_norm, lambda r: (r.normal(size=(4, 6)), r.normal(size=6), r.normal(size=6))),
    "attention": (_attention, lambda r: tuple(r.normal(size=(2, 5, 4)) for _ in range(3))),
    "numerics": (_numerics, lambda r: (r.normal(size=(4, 5)),)),
}


@pytest.mark.parametrize("name", sorted(JNP_PROGRAMS))
def test_jax_numpy_functions(name, backend):
    fn, make = JNP_PROGRAMS[name]
    args = tuple(np.asarray(a, np.float32) for a in make(_rng()))
    _check_on(backend, fn, *args)


def test_fancy_indexing_and_at_add(backend):
    r = _rng()
    x = r.normal(size=(5, 4, 3)).astype(np.float32)
    i = np.array([0, -1, 2, 2], np.int32)
    j = np.array([[1, 0], [3, 3]], np.int32)
    v = r.normal(size=(4, 3)).astype(np.float32)

    def f(x, i, j, v):
        return (
            x[i],
            x[i, 1:, ::2],
            x[j, :, 0],
            x[None, 1:, j[0]],
            x[..., 1],
            x[i[:2], j[0]],
            x.at[i, 0].add(v),
            x.at[i].set(0.0),
            x.at[:, j[1], 2].multiply(3.0),
            jnp.zeros(6).at[jnp.array([1, 1, 4])].add(1.0),
            x.at[i[1:3]].get().sum(),
        )

    _check_on(backend, f, x, i, j, v)


# ---- flax models -----------------------------------------------------------------------------------

flax = pytest.importorskip("flax")
import flax.linen as nn  # noqa: E402


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.gelu(nn.Dense(16)(x))
        x = nn.LayerNorm()(x)
        return nn.Dense(3)(nn.relu(nn.Dense(8)(x)))


class CNN(nn.Module):
    pool: str = "max"

    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Conv(4, (3, 3))(x))
        pool = nn.max_pool if self.pool == "max" else nn.avg_pool
        x = pool(x, (2, 2), strides=(2, 2))
        x = nn.relu(nn.Conv(6, (3, 3), strides=(2, 2), padding="VALID", feature_group_count=2)(x))
        x = x.reshape(x.shape[0], -1)
        return nn.Dense(5)(x)


def _flax_model(name):
    r = _rng()
    if name == "mlp":
        model, x = MLP(), r.normal(size=(6, 5)).astype(np.float32)
    else:
        model, x = CNN(pool=name.split("_")[1]), r.normal(size=(2, 10, 10, 3)).astype(np.float32)
    params = model.init(jax.random.key(0), x)
    return model, params, x


@pytest.mark.parametrize("name", ["mlp", "cnn_max"])
def test_flax_models(name, backend):
    model, params, x = _flax_model(name)
    _check_on(backend, model.apply, params, x)


@pytest.mark.parametrize("name", ["mlp", "cnn_max"])
def test_flax_models_torch_gradients_match_jax_grad(name):
    torch = pytest.importorskip("torch")
    model, params, x = _flax_model(name)

    def loss(params, x):
        return jnp.mean(jnp.tanh(model.apply(params, x)) ** 2)

    program = hd.interop.from_jax(loss, params, x)
    want = jax.grad(loss)(params, x)
    got = hd.grad(program)(_to("torch", params), torch.from_numpy(x))
    assert isinstance(jax.tree_util.tree_leaves(got)[0], torch.Tensor)
    _assert_tree_close(got, want)


def test_optax_training_step(backend):
    optax = pytest.importorskip("optax")
    model, params, x = _flax_model("cnn_avg")
    y = np.eye(5, dtype=np.float32)[[1, 3]]
    tx = optax.adam(1e-2)
    opt_state = tx.init(params)

    def train_step(params, opt_state, x, y):
        def loss_fn(p):
            return optax.softmax_cross_entropy(model.apply(p, x), y).mean()

        loss, grads = jax.value_and_grad(loss_fn)(params)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    program = hd.interop.from_jax(train_step, params, opt_state, x, y)
    state = _to(backend, (params, opt_state))
    want = (params, opt_state)
    for _ in range(3):  # three steps, each program output fed back in
        state_out = program(*state, *_to(backend, (x, y)))
        want_out = jax.jit(train_step)(*want, x, y)
        _assert_tree_close(state_out, want_out, rtol=1e-5, atol=2e-5)
        state, want = state_out[:2], want_out[:2]


# ---- control flow ------------------------------------------------------------------------------------

CONTROL = {"scan": "scan", "while": "while_loop", "cond": "switch"}


def _rnn(params, xs, h0):
    def cell(h, x):
        h = jnp.tanh(x @ params["wx"] + h @ params["wh"] + params["b"])
        return h, h.sum(-1)

    return lax.scan(cell, h0, xs)


def _rnn_args():
    r = _rng()
    params = {
        k: r.normal(size=s).astype(np.float32) * 0.5 for k, s in (("wx", (3, 4)), ("wh", (4, 4)), ("b", (4,)))
    }
    return params, r.normal(size=(6, 2, 3)).astype(np.float32), np.zeros((2, 4), np.float32)


def _newton_sqrt(a):
    return lax.while_loop(lambda s: jnp.max(jnp.abs(s * s - a)) > 1e-6, lambda s: 0.5 * (s + a / s), a)


def _piecewise(x, i):
    return lax.cond(x.sum() > 0, jnp.sin, jnp.cos, x), lax.switch(i, [jnp.tanh, jnp.exp, lambda v: -v], x)


CONTROL_PROGRAMS = {
    "scan": (_rnn, _rnn_args),
    "while": (_newton_sqrt, lambda: (np.linspace(1, 5, 6, dtype=np.float32),)),
    "cond": (_piecewise, lambda: (np.linspace(-1, 1, 5, dtype=np.float32) + 0.1, np.int32(1))),
}


@pytest.mark.parametrize("name", sorted(CONTROL_PROGRAMS))
def test_control_flow(name, backend):
    fn, make = CONTROL_PROGRAMS[name]
    args = make()
    if not hasattr(hd, CONTROL[name]):  # hd's control flow (issue 15) is not in this hedera yet
        with pytest.raises(hd.UnsupportedError, match=rf"'{name}' needs hd\.{CONTROL[name]}"):
            hd.interop.from_jax(fn, *args)
        return
    _check_on(backend, fn, *args)


def test_scan_rnn_torch_gradients_match_jax_grad():
    pytest.importorskip("torch")
    if not hasattr(hd, "scan"):
        with pytest.raises(hd.UnsupportedError, match=r"needs hd\.scan"):
            hd.interop.from_jax(_rnn, *_rnn_args())
        return
    params, xs, h0 = _rnn_args()

    def loss(params, xs, h0):
        h, ys = _rnn(params, xs, h0)
        return jnp.sum(h**2) + jnp.sum(ys)

    program = hd.interop.from_jax(loss, params, xs, h0)
    _assert_tree_close(hd.grad(program)(*_to("torch", (params, xs, h0))), jax.grad(loss)(params, xs, h0))


# ---- hd.grad, hd.jit, hd.vmap through a program -----------------------------------------------------


def _mlp_loss():
    model, params, x = _flax_model("mlp")

    def loss(params, x):
        return jnp.mean(model.apply(params, x) ** 2)

    return loss, params, x


@pytest.mark.parametrize("backend_name", ["torch", "tensorflow", "jax"])
def test_grad_and_jit_through_a_program(backend_name):
    pytest.importorskip(backend_name)
    loss, params, x = _mlp_loss()
    program = hd.interop.from_jax(loss, params, x)
    p, xb = _to(backend_name, (params, x))
    want_value, want_grad = jax.value_and_grad(loss)(params, x)
    value, grads = hd.jit(hd.value_and_grad(program))(p, xb)
    assert hd.backend_of(value) == backend_name
    _assert_tree_close(value, want_value)
    _assert_tree_close(grads, want_grad)


@pytest.mark.parametrize("backend_name", ["numpy", "torch", "tensorflow", "jax"])
def test_vmap_through_a_program(backend_name):
    pytest.importorskip(backend_name)
    model, params, x = _flax_model("mlp")
    program = hd.interop.from_jax(model.apply, params, x[0])  # traced for one example
    p, xb = _to(backend_name, (params, x))
    got = hd.vmap(program, in_axes=(None, 0))(p, xb)
    _assert_tree_close(got, jax.vmap(model.apply, in_axes=(None, 0))(params, x))


# ---- calling errors ---------------------------------------------------------------------------------


def test_shape_dtype_and_structure_errors():
    program = hd.interop.from_jax(lambda a, b: a @ b, np.ones((2, 3), np.float32), np.ones((3,), np.float32))
    with pytest.raises(hd.ShapeError, match=r"traced with \(2, 3\)"):
        program(np.ones((3, 3), np.float32), np.ones(3, np.float32))
    with pytest.raises(hd.DtypeError, match="float64"):
        program(np.ones((2, 3)), np.ones(3, np.float32))
    with pytest.raises(hd.InvalidArgumentError, match="expected 2 arguments"):
        program(np.ones((2, 3), np.float32))
    with pytest.raises(hd.BackendMismatchError, match="argument leaf 1 is a jax array"):
        program(np.ones((2, 3), np.float32), jnp.ones(3))


def test_static_arguments():
    program = hd.interop.from_jax(lambda x, n: jnp.sum(x**n), np.ones(3, np.float32), 3, static_argnums=1)
    assert "integer_pow" in program.primitives
    np.testing.assert_allclose(program(np.full(3, 2.0, np.float32), 3), 24.0)
    with pytest.raises(hd.InvalidArgumentError, match="static argument 1"):
        program(np.ones(3, np.float32), 2)


def test_examples_from_other_backends():
    torch = pytest.importorskip("torch")
    program = hd.interop.from_jax(lambda x: jnp.sin(x) * 2, torch.ones(4))
    out = program(torch.arange(4.0))
    assert isinstance(out, torch.Tensor)
    np.testing.assert_allclose(out.numpy(), np.sin(np.arange(4.0)) * 2, rtol=1e-6)


# ---- a JAX model fine-tuned in torch ---------------------------------------------------------------


def test_jax_module_fine_tunes_with_torch_optim_like_optax():
    torch = pytest.importorskip("torch")
    optax = pytest.importorskip("optax")
    model, params, x = _flax_model("mlp")
    y = np.tanh(x[:, :3]).astype(np.float32)
    program = hd.interop.from_jax(model.apply, params, x)
    net = hd.interop.to_torch(hd.interop.JaxModule(program, params, backend="torch"))
    opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    losses = []
    for _ in range(4):
        opt.zero_grad()
        loss = torch.mean((net(torch.from_numpy(x)) - torch.from_numpy(y)) ** 2)
        loss.backward()
        opt.step()
        losses.append(loss.item())

    def loss_fn(p):
        return jnp.mean((model.apply(p, x) - y) ** 2)

    tx, want, p = optax.sgd(0.1, momentum=0.9), [], params
    state = tx.init(p)
    for _ in range(4):
        value, grads = jax.value_and_grad(loss_fn)(p)
        updates, state = tx.update(grads, state, p)
        p = optax.apply_updates(p, updates)
        want.append(float(value))
    np.testing.assert_allclose(losses, want, rtol=2e-5)
