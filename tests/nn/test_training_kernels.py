"""Kernels that make a training step cost what the native one does (issue 14).

``hd.nn_ops.softmax_cross_entropy``, the fused cross-entropy kernel that ``F.cross_entropy`` uses
where a backend has one (TensorFlow's ``sparse_softmax_cross_entropy_with_logits``): its values
against NumPy's written-out ``-log_softmax[target]``; on TensorFlow, that a compiled
cross-entropy is that one op (no gather, no log-softmax), and that its gradients compose (second
order, forward mode, vmap) as the written-out form's do, with jax's transforms of the
written-out loss and torch's ``F.cross_entropy`` as references. TensorFlow's convolution with
``"SAME"`` padding: the kernel's own padding (no ``tf.pad``), against torch.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as TF  # noqa: N812

import hedera as hd
from conftest import require_backend
from nn_reference import assert_close, to_backend

F = hd.nn.functional
RNG = np.random.default_rng(14)


def _numpy_cross_entropy(logits: np.ndarray, targets: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(-1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(-1, keepdims=True))
    return -np.take_along_axis(log_probs, targets[..., None], -1)[..., 0]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(6, 5), (2, 3, 5), (5,)])
def test_kernel_is_the_written_out_loss_or_none(backend, shape, dtype):
    logits = RNG.normal(size=shape) * 3
    targets = RNG.integers(0, shape[-1], size=shape[:-1])
    got = hd.nn_ops.softmax_cross_entropy(to_backend(logits, backend, dtype), to_backend(targets, backend))
    if backend == "tensorflow":  # the backend that has the kernel
        assert got is not None
    if got is not None:
        assert hd.dtype(got) == hd.dtype(to_backend(logits, backend, dtype))
        assert_close(got, _numpy_cross_entropy(logits, targets), dtype)


def test_kernel_does_not_apply_to_other_targets_or_empty_classes():
    require_backend("tensorflow")
    logits = to_backend(RNG.normal(size=(4, 3)), "tensorflow")
    assert hd.nn_ops.softmax_cross_entropy(logits, to_backend(np.zeros(4, np.uint8), "tensorflow")) is None
    empty = to_backend(np.zeros((4, 0)), "tensorflow")
    assert hd.nn_ops.softmax_cross_entropy(empty, to_backend(np.zeros(4, int), "tensorflow")) is None


def _graph_op_types(fn, *args) -> set[str]:
    import tensorflow as tf

    graph = tf.function(fn).get_concrete_function(*args).graph
    return {op.type for op in graph.get_operations()}


def test_compiled_tensorflow_cross_entropy_is_one_fused_op():
    """Inside a tf.function, the loss and its gradient are Keras' one op, not log-softmax and a
    gather (whose gradient alone is some fifty ops)."""
    require_backend("tensorflow")
    import tensorflow as tf

    logits = to_backend(RNG.normal(size=(8, 10)), "tensorflow", "float32")
    targets = to_backend(RNG.integers(0, 10, size=8), "tensorflow", "int32")

    def loss_and_grad(x, t):
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = F.cross_entropy(x, t)
        return loss, tape.gradient(loss, x)

    types = _graph_op_types(loss_and_grad, logits, targets)
    assert "SparseSoftmaxCrossEntropyWithLogits" in types
    assert not types & {"GatherV2", "LogSoftmax", "UnsortedSegmentSum"}, types
    # label smoothing needs the log-probabilities: the written-out form
    smoothed = _graph_op_types(lambda x, t: F.cross_entropy(x, t, label_smoothing=0.1), logits, targets)
    assert "LogSoftmax" in smoothed and "SparseSoftmaxCrossEntropyWithLogits" not in smoothed


@pytest.mark.parametrize("ignore_index", [-100, 2])
def test_tensorflow_gradients_match_torch_eager_and_compiled(ignore_index):
    require_backend("tensorflow")
    logits = RNG.normal(size=(6, 4))
    targets = np.array([0, 2, 3, -100, 1, 2]) if ignore_index == -100 else np.array([0, 2, 3, 1, 1, 2])
    x = to_backend(logits, "tensorflow")
    t = to_backend(targets, "tensorflow")
    xt = torch.from_numpy(logits).requires_grad_(True)
    TF.cross_entropy(xt, torch.from_numpy(targets), ignore_index=ignore_index).backward()

    def loss(v, t):
        return F.cross_entropy(v, t, ignore_index=ignore_index)

    assert_close(hd.grad(loss)(x, t), xt.grad.numpy())
    assert_close(hd.jit(hd.grad(loss))(x, t), xt.grad.numpy())


def test_tensorflow_second_order_forward_mode_and_vmap_compose():
    """``hd.grad(hd.grad)`` (a Hessian-vector product), ``hd.jvp`` and ``hd.vmap`` through the
    fused op, against jax's transforms of the written-out loss."""
    require_backend("tensorflow")
    require_backend("jax")
    import jax
    import jax.numpy as jnp

    logits = RNG.normal(size=(5, 4))
    targets = RNG.integers(0, 4, size=5)
    direction = RNG.normal(size=(5, 4))

    def reference(v):
        log_probs = jax.nn.log_softmax(v, axis=-1)
        return -jnp.take_along_axis(log_probs, jnp.asarray(targets)[:, None], -1).mean()

    x, t, d = (to_backend(a, "tensorflow") for a in (logits, targets, direction))

    def loss(v):
        return F.cross_entropy(v, t)

    hvp = hd.grad(lambda v: hd.sum(hd.multiply(hd.grad(loss)(v), d)))(x)
    expected_hvp = jax.grad(lambda v: jnp.sum(jax.grad(reference)(v) * direction))(jnp.asarray(logits))
    assert_close(hvp, np.asarray(expected_hvp))

    _, tangent = hd.jvp(loss, (x,), (d,))
    _, expected_tangent = jax.jvp(reference, (jnp.asarray(logits),), (jnp.asarray(direction),))
    assert_close(tangent, np.asarray(expected_tangent))

    per_row = hd.vmap(lambda row, target: F.cross_entropy(row, target))(x, t)
    assert_close(per_row, _numpy_cross_entropy(logits, targets))


@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
@pytest.mark.parametrize(
    ("nd", "sizes", "kernel", "stride"),
    [
        (2, (16, 16), (3, 3), (1, 1)),
        (2, (7, 6), (2, 3), (2, 1)),
        (1, (9,), (4,), (2,)),
        (3, (5, 4, 6), (3, 2, 2), (1, 2, 3)),
    ],
)
def test_tensorflow_same_padding_is_the_kernels_own(nd, sizes, kernel, stride, data_format):
    """``padding="SAME"`` (and the equal explicit pairs) pad inside TensorFlow's kernel, as Keras'
    ``Conv2D(padding="same")``: no ``Pad`` op (nor its gradient's slice); values and gradients as
    torch's convolution of the padded input."""
    require_backend("tensorflow")

    from nn_reference import flat_pad, same_pads, torch_conv

    last = data_format == "channels_last"
    x = RNG.normal(size=(2, *sizes, 3) if last else (2, 3, *sizes))
    w = RNG.normal(size=(*kernel, 3, 4))
    b = RNG.normal(size=4)
    pads = same_pads(sizes, kernel, stride, (1,) * nd)
    conv = getattr(F, f"conv{nd}d")
    tx, tw, tb = (to_backend(a, "tensorflow") for a in (x, w, b))
    for padding in ("SAME", tuple(pads)):
        y = conv(tx, tw, tb, stride=stride, padding=padding, data_format=data_format)
        assert_close(y, torch_conv(x, w, b, stride, pads, (1,) * nd, 1, last))
    types = _graph_op_types(
        lambda v: conv(v, tw, tb, stride=stride, padding="SAME", data_format=data_format), tx
    )
    assert "Pad" not in types and "PadV2" not in types, types

    # the gradient with respect to the input, against torch's
    def loss(v):
        return hd.sum(hd.square(conv(v, tw, tb, stride=stride, padding="SAME", data_format=data_format)))

    xt = torch.from_numpy(x).requires_grad_(True)
    first = xt if not last else xt.movedim(-1, 1)
    weight = torch.from_numpy(w).permute(nd + 1, nd, *range(nd))
    out = (TF.conv1d, TF.conv2d, TF.conv3d)[nd - 1](
        TF.pad(first, flat_pad(pads)), weight, torch.from_numpy(b), stride
    )
    (out**2).sum().backward()
    assert_close(hd.grad(loss)(tx), xt.grad.numpy())
