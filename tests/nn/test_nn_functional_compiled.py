"""hd.nn.functional in compiled code: hd.jit (jax.jit, tf.function, torch.compile) gives the eager results.

Also ``tf.function`` with an unknown batch size (``input_signature`` with ``None``),
the way Keras traces models.
"""

from __future__ import annotations

import doctest
import importlib
import subprocess
import sys

import numpy as np
import pytest

import hedera as hd
from nn_reference import assert_close, to_backend

F = hd.nn.functional
RNG = np.random.default_rng(8)
X = RNG.normal(size=(2, 8, 8, 3))
W = RNG.normal(size=(3, 3, 3, 4)) * 0.3
WT = RNG.normal(size=(3, 3, 2, 4)) * 0.3
SEQ = RNG.normal(size=(2, 5, 4))
W_IH, W_HH = RNG.normal(size=(4, 12)) * 0.5, RNG.normal(size=(3, 12)) * 0.5


def model(x, w, wt, seq, w_ih, w_hh):
    """A little of everything: conv, pooling, batch norm, transposed conv, attention, LSTM, a loss."""
    y = F.relu(F.conv2d(x, w, stride=2, padding="SAME"))
    y = F.max_pool2d(y, 2, 1, "SAME")
    y = F.batch_norm(y, training=True).output
    y = F.conv_transpose2d(y, wt, stride=2, padding="SAME", groups=2)  # 4 -> 4 channels
    y = F.group_norm(F.gelu(y), 2)
    pooled = hd.reshape(F.adaptive_avg_pool2d(y, 1), (-1, 4))
    attended = F.scaled_dot_product_attention(seq, seq, seq, is_causal=True)
    out, (h, _) = F.lstm(attended, None, w_ih, w_hh)
    logits = hd.concat([pooled, h], axis=-1)
    return F.cross_entropy(logits, hd.asarray(np.array([1, 5]), backend=hd.backend_of(x))), out


def _inputs(backend):
    return [to_backend(a, backend) for a in (X, W, WT, SEQ, W_IH, W_HH)]


def test_hd_jit_matches_eager(autodiff_backend):
    args = _inputs(autodiff_backend)
    loss, out = model(*args)
    jitted = hd.jit(model)
    for _ in range(2):
        jloss, jout = jitted(*args)
        assert_close(jloss, hd.to_numpy(loss), rtol=1e-9, atol=1e-9)
        assert_close(jout, hd.to_numpy(out), rtol=1e-9, atol=1e-9)


def test_jit_of_gradient(autodiff_backend):
    args = _inputs(autodiff_backend)
    grad = hd.grad(lambda w, wt: model(args[0], w, wt, *args[3:])[0], argnums=(0, 1))
    eager = grad(args[1], args[2])
    compiled = hd.jit(grad)(args[1], args[2])
    for e, c in zip(eager, compiled, strict=True):
        assert_close(c, hd.to_numpy(e), rtol=1e-8, atol=1e-10)


def test_tf_function_with_unknown_batch():
    tf = pytest.importorskip("tensorflow")
    spec = tf.TensorSpec([None, 8, 8, 3], tf.float64)

    @tf.function(input_signature=[spec])
    def f(x):
        y = F.conv2d(x, tf.constant(W), stride=2, padding="SAME")
        y = F.batch_norm(y, tf.zeros(4, tf.float64), tf.ones(4, tf.float64), training=True)
        z = F.conv_transpose2d(y.output, tf.constant(WT), stride=2, groups=2, output_shape=(9, 9))
        z = F.conv_transpose2d(z, tf.constant(WT), stride=2, padding=1)
        return F.avg_pool2d(F.group_norm(z, 2), 3, 2, "SAME"), y.running_var

    got, var = f(tf.constant(X))
    x = to_backend(X, "tensorflow")
    y = F.conv2d(x, tf.constant(W), stride=2, padding="SAME")
    y = F.batch_norm(y, tf.zeros(4, tf.float64), tf.ones(4, tf.float64), training=True)
    z = F.conv_transpose2d(y.output, tf.constant(WT), stride=2, groups=2, output_shape=(9, 9))
    z = F.conv_transpose2d(z, tf.constant(WT), stride=2, padding=1)
    assert_close(got, hd.to_numpy(F.avg_pool2d(F.group_norm(z, 2), 3, 2, "SAME")))
    assert_close(var, hd.to_numpy(y.running_var))


@pytest.mark.parametrize(
    "name",
    ["hedera.nn_ops", "hedera.nn.functional.activations", "hedera.nn.functional.conv", "hedera.nn.losses",
     "hedera.nn.functional.normalization", "hedera.nn.functional.attention"],
)  # fmt: skip
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


_COLD_COMPILE = """
import torch, hedera as hd
F = hd.nn.functional
def f(x, w):
    return F.relu(F.max_pool2d(F.conv2d(x, w, padding="SAME"), 2)).sum()
x, w = torch.randn(1, 8, 8, 3), torch.randn(3, 3, 3, 4)
compiled = torch.compile(f, fullgraph=True)  # before any eager call: kernels load inside the trace
assert torch.allclose(compiled(x, w), f(x, w))
"""


@pytest.mark.slow
def test_torch_compile_fullgraph_cold_start():
    pytest.importorskip("torch")
    result = subprocess.run(
        [sys.executable, "-c", _COLD_COMPILE], capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stderr[-3000:]
