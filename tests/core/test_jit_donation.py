"""hd.jit(donate_argnums=...): a training step whose parameters and state the call takes over.

jax donates the buffers (the arrays given are deleted); TensorFlow keeps them in tf.Variables
the tf.Function updates in place (returned in place of the outputs that replace them); torch and
numpy run as without it. On every backend the values are the eager ones, step after step,
whatever the caller passes back in.
"""

from __future__ import annotations

import numpy as np
import pytest

import hedera as hd
from conftest import require_backend

EAGER_TORCH = {"torch": {"backend": "eager"}}


def npy(x):
    return np.asarray(hd.to_numpy(x))


def _start(backend):
    rng = np.random.default_rng(3)
    params = hd.Container(
        {
            "layer": {"w": hd.asarray(rng.normal(size=(4, 3)), backend=backend)},
            "b": hd.asarray(rng.normal(size=(3,)), backend=backend),
        }
    )
    x = hd.asarray(rng.normal(size=(5, 4)), backend=backend)
    return params, x


def _step(params, state, x, lr):
    """One step of gradient descent with momentum on ``sum((x @ w + b) ** 2)``; returns the loss too."""

    def loss(p):
        return hd.sum((x @ p["layer"]["w"] + p["b"]) ** 2)

    value, grads = hd.value_and_grad(loss)(params)
    state = hd.Container(
        velocity=hd.tree.map(lambda v, g: 0.5 * v + g, state["velocity"], grads), count=state["count"] + 1
    )
    params = hd.tree.map(lambda p, v: p - lr * v, params, state["velocity"])
    return params, state, value


def _eager_run(backend, steps):
    params, x = _start(backend)
    state = hd.Container(velocity=params.map(hd.zeros_like), count=hd.asarray(0, backend=backend))
    out = []
    for _ in range(steps):
        params, state, value = _step(params, state, x, 0.01)
        out.append((params.map(npy), state.map(npy), float(value)))
    return out


def _assert_same(got, expected):
    for (p, s, v), (ep, es, ev) in zip(got, expected, strict=True):
        assert p.all_close(ep, rtol=1e-12, atol=1e-12) and s.all_close(es, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(v, ev, rtol=1e-12)


def test_donated_steps_equal_eager_steps(autodiff_backend):
    backend = autodiff_backend
    compiled = hd.jit(_step, donate_argnums=(0, 1), backend_options=EAGER_TORCH)
    params, x = _start(backend)
    state = hd.Container(velocity=params.map(hd.zeros_like), count=hd.asarray(0, backend=backend))
    got = []
    for _ in range(4):
        params, state, value = compiled(params, state, x, 0.01)
        got.append((params.map(npy), state.map(npy), float(value)))
    _assert_same(got, _eager_run(backend, 4))
    assert hd.backend_of(hd.tree.leaves(params)[0]) == backend


def test_tensorflow_keeps_the_donated_arrays_in_variables_updated_in_place():
    require_backend("tensorflow")
    import tensorflow as tf

    compiled = hd.jit(_step, donate_argnums=(0, 1))
    params, x = _start("tensorflow")
    state = hd.Container(velocity=params.map(hd.zeros_like), count=hd.asarray(0, backend="tensorflow"))
    given = params
    params, state, value = compiled(params, state, x, 0.01)
    leaves = hd.tree.leaves((params, state))
    assert all(isinstance(v, tf.Variable) for v in leaves)
    assert isinstance(value, tf.Tensor) and not isinstance(value, tf.Variable)
    assert given.all_close(_start("tensorflow")[0])  # the arrays given first were copied, not written
    params, state, _ = compiled(params, state, x, 0.01)
    # the same variables again, holding the second step's values
    assert all(a is b for a, b in zip(hd.tree.leaves((params, state)), leaves, strict=True))
    assert params.map(npy).all_close(_eager_run("tensorflow", 2)[1][0], rtol=1e-12, atol=1e-12)


def test_tensorflow_takes_other_arrays_and_structures_between_donated_calls():
    """Arrays that are not the variables (older values, new shapes, another structure) are taken
    as given: assigned to the variables, or new variables made."""
    require_backend("tensorflow")
    compiled = hd.jit(_step, donate_argnums=(0, 1))
    params, x = _start("tensorflow")
    state = hd.Container(velocity=params.map(hd.zeros_like), count=hd.asarray(0, backend="tensorflow"))
    eager = _eager_run("tensorflow", 2)
    first = compiled(params, state, x, 0.01)
    second = compiled(*first[:2], x, 0.01)
    assert second[0].map(npy).all_close(eager[1][0], rtol=1e-12, atol=1e-12)
    again = compiled(params, state, x, 0.01)  # the start values again: the first step again
    assert again[0].map(npy).all_close(eager[0][0], rtol=1e-12, atol=1e-12)
    assert float(again[2]) == float(first[2])
    ones = {"backend": "tensorflow", "dtype": hd.float64}
    wider = hd.Container(layer={"w": hd.ones((4, 6), **ones)}, b=hd.ones(6, **ones))
    wide_state = hd.Container(velocity=wider.map(hd.zeros_like), count=hd.asarray(0, backend="tensorflow"))
    out = compiled(wider, wide_state, x, 0.01)
    expected = _step(wider, wide_state, x, 0.01)
    assert out[0].map(npy).all_close(expected[0].map(npy), rtol=1e-12)


def test_tensorflow_outputs_that_replace_no_donated_argument_come_back_as_tensors():
    require_backend("tensorflow")
    import tensorflow as tf

    compiled = hd.jit(lambda p, x: (hd.sum(p["w"] * x), p["w"] * 2.0), donate_argnums=0)
    p = hd.Container(w=hd.asarray(np.arange(3.0), backend="tensorflow"))
    for _ in range(2):
        total, doubled = compiled(p, hd.ones(3, backend="tensorflow", dtype=hd.float64))
        assert not isinstance(doubled, tf.Variable)
        np.testing.assert_allclose(npy(doubled), [0.0, 2.0, 4.0])
        assert float(total) == 3.0


def test_tensorflow_steady_calls_walk_no_nest(monkeypatch):
    """From the second call on (the variables passed back in) a call neither walks the nests to
    find their backend nor flattens them with optree: one generated flattener and the variables'
    identity decide (hedera._nests.flattener, DonatingFunction.call_flat); the values stay the
    eager ones. Other arrays, or arrays of another backend, still take the walk."""
    require_backend("tensorflow")
    import sys

    import optree

    jit_module = sys.modules["hedera.jit"]
    compiled = hd.jit(_step, donate_argnums=(0, 1))
    params, x = _start("tensorflow")
    state = hd.Container(velocity=params.map(hd.zeros_like), count=hd.asarray(0, backend="tensorflow"))
    eager = _eager_run("tensorflow", 4)
    params, state, _ = compiled(params, state, x, 0.01)
    params, state, _ = compiled(params, state, x, 0.01)

    def no_walk(*args, **kwargs):
        raise AssertionError("a steady call walked its nests")

    with monkeypatch.context() as m:
        m.setattr(jit_module._nests, "flatten_args", no_walk)
        m.setattr(jit_module, "_nest_backend", no_walk)
        m.setattr(optree, "tree_flatten", no_walk)
        for _ in range(2):
            params, state, value = compiled(params, state, x, 0.01)
    assert params.map(npy).all_close(eager[3][0], rtol=1e-12, atol=1e-12)
    assert float(value) == pytest.approx(eager[3][2], rel=1e-12)
    with pytest.raises(hd.BackendMismatchError):
        compiled(params, state, np.asarray(npy(x)), 0.01)
    start, _ = _start("tensorflow")
    start_state = hd.Container(velocity=start.map(hd.zeros_like), count=hd.asarray(0, backend="tensorflow"))
    again = compiled(start, start_state, x, 0.01)  # not the variables: taken as given
    assert again[0].map(npy).all_close(eager[0][0], rtol=1e-12, atol=1e-12)


def test_jax_deletes_the_donated_arrays():
    require_backend("jax")
    compiled = hd.jit(_step, donate_argnums=(0, 1))
    params, x = _start("jax")
    state = hd.Container(velocity=params.map(hd.zeros_like), count=hd.asarray(0, backend="jax"))
    given = hd.tree.leaves(params)
    new_params, _, _ = compiled(params, state, x, 0.01)
    assert all(a.is_deleted() for a in given)
    assert not any(a.is_deleted() for a in hd.tree.leaves(new_params))


@pytest.mark.parametrize(
    "kwargs",
    [{"donate_argnums": -1}, {"donate_argnums": (0, 1), "static_argnums": 1}, {"donate_argnums": "0"}],
)
def test_bad_donate_argnums(kwargs):
    with pytest.raises(hd.InvalidArgumentError, match="jit: donate_argnums"):
        hd.jit(_step, **kwargs)
