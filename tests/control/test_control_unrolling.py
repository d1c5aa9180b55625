"""A 1000-step hd.scan under hd.jit stays one loop: in the jaxpr, the TF graph, torch's FX graph."""

from __future__ import annotations

import numpy as np

import hedera as hd
import hedera.gym as hgym
from conftest import require_backend

STEPS = 1000


def _rollout_inputs(backend):
    env = hgym.Pendulum(backend=backend)
    state = hd.asarray(np.zeros((4, 2)), dtype=hd.float32, backend=backend)
    actions = hd.asarray(np.zeros((STEPS, 4, 1)), dtype=hd.float32, backend=backend)
    return env, state, actions


def test_jax_rollout_is_one_scan_in_the_jaxpr():
    require_backend("jax")
    import jax

    env, state, actions = _rollout_inputs("jax")
    jaxpr = jax.make_jaxpr(lambda s, a: hgym.rollout(env, s, a))(state, actions).jaxpr
    names = [eqn.primitive.name for eqn in jaxpr.eqns]
    assert names.count("scan") == 1, names
    assert len(jaxpr.eqns) < 20, names  # the 1000 steps are inside the scan, not beside it
    body = next(eqn for eqn in jaxpr.eqns if eqn.primitive.name == "scan").params["jaxpr"].jaxpr
    assert len(body.eqns) < 100  # one step's operations


def test_jax_gradient_of_a_rollout_is_one_scan_each_way():
    require_backend("jax")
    import jax

    env, state, actions = _rollout_inputs("jax")
    grad = hd.grad(lambda a, s: hd.sum(hgym.rollout(env, s, a)[2]))
    names = [e.primitive.name for e in jax.make_jaxpr(grad)(actions, state).jaxpr.eqns]
    assert names.count("scan") == 2, names  # forward and backward
    assert len(names) < 40, names


def test_jax_hd_jit_traces_one_scan():
    require_backend("jax")
    env, state, actions = _rollout_inputs("jax")
    compiled = hd.jit(lambda s, a: hgym.rollout(env, s, a)[2])
    text = compiled.compiled_for("jax").lower(state, actions).as_text()
    assert text.count("stablehlo.while") == 1


def _tf_ops(concrete):
    return [op.type for op in concrete.graph.get_operations()]


def test_tensorflow_rollout_is_one_while_op_in_the_graph():
    require_backend("tensorflow")
    import tensorflow as tf

    env, state, actions = _rollout_inputs("tensorflow")
    concrete = tf.function(lambda s, a: hgym.rollout(env, s, a)).get_concrete_function(state, actions)
    ops = _tf_ops(concrete)
    whiles = [t for t in ops if t in ("While", "StatelessWhile")]
    assert len(whiles) == 1, whiles
    assert len(ops) < 300, len(ops)  # one step outside the loop (it gives the outputs' dtypes), one inside


def test_tensorflow_hd_jit_of_a_gradient_keeps_loops():
    require_backend("tensorflow")
    env, state, actions = _rollout_inputs("tensorflow")
    step = hd.jit(hd.grad(lambda a, s: hd.sum(hgym.rollout(env, s, a)[2])))
    concrete = step.compiled_for("tensorflow").get_concrete_function(actions, state)
    ops = _tf_ops(concrete)
    assert 1 <= sum(t in ("While", "StatelessWhile") for t in ops) <= 3  # forward and backward loops
    assert len(ops) < 1500, len(ops)


def _torch_graphs(fn, *args):
    """The FX graphs torch.compile captures for ``fn(*args)``."""
    import torch

    graphs = []

    def backend(gm, example_inputs):
        graphs.append(gm)
        return gm.forward

    torch._dynamo.reset()
    torch.compile(fn, backend=backend, fullgraph=True)(*args)
    return graphs


def test_torch_while_loop_and_cond_stay_operators_under_torch_compile():
    require_backend("torch")
    import torch

    x = torch.tensor([1.0, 2.0])

    def f(x):
        _, y = hd.while_loop(lambda c: c[0] < STEPS, lambda c: (c[0] + 1, c[1] * 0.999 + 0.001), (0, x))
        return hd.cond(hd.sum(y) > 0, lambda v: v * 2, lambda v: -v, y)

    (graph,) = _torch_graphs(f, x)
    targets = [str(n.target) for n in graph.graph.nodes if n.op == "call_function"]
    assert sum("while_loop" in t for t in targets) == 1, targets
    assert sum("cond" in t for t in targets) == 1, targets
    assert len(graph.graph.nodes) < 40
    np.testing.assert_allclose(f(x).numpy(), torch.compile(f)(x).numpy(), rtol=1e-5)


def _loop_count(graph):
    return sum("while_loop" in str(n.target) for n in graph.graph.nodes if n.op == "call_function")


def test_torch_rollout_is_one_while_loop_under_torch_compile():
    """1000 steps of a gym rollout: one while_loop operator in the FX graph, a step's nodes in its body."""
    require_backend("torch")
    import torch

    env, state, actions = _rollout_inputs("torch")
    (graph,) = _torch_graphs(lambda s, a: hgym.rollout(env, s, a)[2], state, actions)
    assert _loop_count(graph) == 1
    assert len(graph.graph.nodes) < 150, len(graph.graph.nodes)  # one step outside the loop, no more
    body = next(m for name, m in graph.named_children() if "body" in name)
    assert len(body.graph.nodes) < 150, len(body.graph.nodes)
    torch._dynamo.reset()
    want = hgym.rollout(env, state, actions)[2]
    got = hd.jit(lambda s, a: hgym.rollout(env, s, a)[2])(state, actions)
    np.testing.assert_allclose(got, want, rtol=1e-5)


def test_torch_scan_fori_loop_and_map_are_one_loop_under_torch_compile():
    require_backend("torch")
    import torch

    xs = torch.linspace(-1.0, 1.0, STEPS * 2).reshape(STEPS, 2)
    programs = {
        "scan": lambda c, xs: hd.scan(lambda c, x: (c * 0.9 + x, hd.sin(c)), c, xs),
        "fori_loop": lambda c, xs: hd.fori_loop(0, STEPS, lambda i, c: c * 0.9 + 1.0, c),
        "map": lambda c, xs: hd.map(lambda x: hd.sum(x * c), xs),
    }
    for name, program in programs.items():
        (graph,) = _torch_graphs(program, torch.tensor([0.5, -0.5]), xs)
        assert _loop_count(graph) == 1, name
        assert len(graph.graph.nodes) < 40, (name, len(graph.graph.nodes))
