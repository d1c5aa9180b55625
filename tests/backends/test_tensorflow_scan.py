"""``hd.scan`` inside a TensorFlow graph: the loop pops its inputs from TensorLists.

The gradient of a scan whose inputs depend on what is differentiated (an LSTM's input projection,
``x @ w`` for all steps at once) must not build, per step, a list of every step's cotangent (zeros
but one) and add those lists up (what reading step ``t`` of a shared TensorList costs in TF's
gradient): T lists of T slices, a tenth of an LSTM's training step at batch 64. The values are the
eager ones (Python loops) in both directions.
"""

from __future__ import annotations

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")

import hedera as hd  # noqa: E402

STEPS, BATCH, FEATURES = 6, 3, 4


def _loss(w, x, reverse):
    """A recurrence over ``x @ w`` (steps first), its carry and outputs both in the loss."""

    def step(carry, z_t):
        h = hd.tanh(carry + z_t)
        return h, 2.0 * h

    z = hd.reshape(hd.reshape(x, (STEPS * BATCH, FEATURES)) @ w, (STEPS, BATCH, FEATURES))
    h, ys = hd.scan(
        step, hd.zeros((BATCH, FEATURES), dtype=hd.float64, backend="tensorflow"), z, reverse=reverse
    )
    return hd.sum(h**2) + hd.sum(ys[1] * ys[-1])


def _inputs():
    rng = np.random.default_rng(0)
    w = hd.asarray(rng.normal(size=(FEATURES, FEATURES)) * 0.5, backend="tensorflow")
    x = hd.asarray(rng.normal(size=(STEPS, BATCH, FEATURES)), backend="tensorflow")
    return w, x


@pytest.mark.parametrize("reverse", [False, True])
def test_scan_gradient_in_a_graph_equals_the_eager_one(reverse):
    w, x = _inputs()
    grad = hd.grad(lambda w, x: _loss(w, x, reverse), argnums=(0, 1))
    eager = grad(w, x)
    compiled = hd.jit(grad)(w, x)
    for got, want in zip(compiled, eager, strict=True):
        np.testing.assert_allclose(hd.to_numpy(got), hd.to_numpy(want), rtol=1e-12, atol=1e-12)


def _variant_additions(graph_def) -> int:
    """The AddN ops over variants (TensorLists) in a graph and its function library."""
    nodes = list(graph_def.node)
    for function in graph_def.library.function:
        nodes += function.node_def
    return sum(1 for n in nodes if n.op == "AddN" and n.attr["T"].type == tf.variant.as_datatype_enum)


@pytest.mark.parametrize("reverse", [False, True])
def test_scan_gradient_adds_no_lists_of_step_inputs(reverse):
    w, x = _inputs()
    grad = hd.jit(hd.grad(lambda w: _loss(w, x, reverse)))
    function = grad.compiled_for("tensorflow")
    graph_def = function.get_concrete_function(w).graph.as_graph_def()
    assert _variant_additions(graph_def) == 0
