"""Gradients of hd.nn.functional ops against central finite differences (float64), on every autodiff backend.

Each op is reduced to a scalar ``sum(op(*args) * R)`` with fixed random weights
``R``; ``hd.grad`` on the backend gives the gradient, whose projections on random
directions ``v`` are compared with ``(f(a + eps v) - f(a - eps v)) / (2 eps)``,
``f`` evaluated through the NumPy backend (forward only, independent of any
autodiff). Inputs avoid kinks (ReLU at 0, pooling ties, Huber's switch).
"""

from __future__ import annotations

import numpy as np
import pytest

import hedera as hd

F = hd.nn.functional
RNG = np.random.default_rng(5)
EPS = 1e-6


def _n(*shape, scale=1.0):
    return RNG.normal(size=shape) * scale


X4 = _n(2, 6, 5, 4)
W_CONV = _n(3, 3, 2, 6, scale=0.3)
W_T = _n(3, 3, 3, 4, scale=0.3)  # transposed: groups 2, 4 -> 6 channels
IDS = np.array([[1, 3], [0, 3]])
TARGETS = np.array([2, 0, 1, 2])
Q, K, V = _n(2, 4, 3), _n(2, 5, 3), _n(2, 5, 2)

# name -> (function of arrays, list of NumPy float64 inputs, which are differentiated)
CASES = {
    "conv2d_same_stride_groups": (
        lambda x, w: F.conv2d(x, w, stride=2, padding="SAME", groups=2),
        [X4, W_CONV],
        (0, 1),
    ),
    "conv2d_dilated_channels_first": (
        lambda x, w: F.conv2d(x, w, padding=((1, 0), (2, 1)), dilation=(2, 1), data_format="channels_first"),
        [_n(2, 4, 7, 6), _n(3, 2, 4, 3, scale=0.3)],
        (0, 1),
    ),
    "conv2d_stride_and_dilation": (
        lambda x, w: F.conv2d(x, w, stride=2, dilation=2, padding=1),
        [_n(1, 8, 8, 2), _n(2, 2, 2, 3)],
        (0, 1),
    ),
    "conv1d": (
        lambda x, w: F.conv1d(x, w, stride=2, padding=1, groups=3),
        [_n(2, 9, 3), _n(3, 1, 6)],
        (0, 1),
    ),
    "conv3d_groups": (
        lambda x, w: F.conv3d(x, w, padding="SAME", groups=2),
        [_n(1, 4, 4, 4, 4), _n(2, 2, 2, 2, 2)],
        (0, 1),
    ),
    "conv_transpose2d": (
        lambda x, w: F.conv_transpose2d(x, w, stride=2, padding=1, output_padding=1),
        [X4, _n(3, 3, 5, 4)],
        (0, 1),
    ),
    "conv_transpose2d_groups_dilation": (
        lambda x, w: F.conv_transpose2d(
            x, w, stride=2, dilation=2, groups=2, padding="SAME", data_format="channels_first"
        ),
        [np.moveaxis(X4, -1, 1), W_T],
        (0, 1),
    ),
    "conv_transpose1d": (lambda x, w: F.conv_transpose1d(x, w, stride=3), [_n(2, 4, 2), _n(2, 3, 2)], (0, 1)),
    "conv_transpose3d": (
        lambda x, w: F.conv_transpose3d(x, w, stride=2, padding=((1, 0),) * 3),
        [_n(1, 3, 3, 3, 2), _n(2, 2, 2, 3, 2)],
        (0, 1),
    ),
    "depthwise_conv2d": (
        lambda x, w: F.depthwise_conv2d(x, w, stride=2, padding="SAME"),
        [X4, _n(3, 3, 4, 2)],
        (0, 1),
    ),
    "linear": (lambda x, w, b: F.linear(x, w, b), [_n(3, 4), _n(4, 2), _n(2)], (0, 1, 2)),
    "max_pool2d": (lambda x: F.max_pool2d(x, 3, 2, "SAME"), [X4], (0,)),
    "avg_pool2d": (lambda x: F.avg_pool2d(x, (3, 2), 2, ((1, 1), (1, 0))), [X4], (0,)),
    "max_pool3d": (
        lambda x: F.max_pool3d(x, 2, 1, 1, data_format="channels_first"),
        [_n(1, 2, 3, 4, 3)],
        (0,),
    ),
    "avg_pool1d": (lambda x: F.avg_pool1d(x, 3, 2, "SAME", count_include_pad=True), [_n(2, 7, 3)], (0,)),
    "adaptive_avg_pool2d": (lambda x: F.adaptive_avg_pool2d(x, (4, 3)), [X4], (0,)),
    "batch_norm_training": (
        lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True, data_format="channels_first").output,
        [_n(4, 3, 2, 2), _n(3), _n(3)],
        (0, 1, 2),
    ),
    "layer_norm": (lambda x, w, b: F.layer_norm(x, 4, w, b), [_n(3, 4), _n(4), _n(4)], (0, 1, 2)),
    "group_norm": (lambda x, w: F.group_norm(x, 2, w), [X4, _n(4)], (0, 1)),
    "rms_norm": (lambda x, w: F.rms_norm(x, 4, w), [_n(3, 4), _n(4)], (0, 1)),
    "embedding": (lambda w: F.embedding(hd.asarray(IDS, backend=hd.backend_of(w)), w), [_n(5, 3)], (0,)),
    "gelu": (F.gelu, [_n(3, 4, scale=2)], (0,)),
    "gelu_tanh": (lambda x: F.gelu(x, approximate=True), [_n(3, 4, scale=2)], (0,)),
    "elu_selu_mish": (lambda x: F.elu(x, 0.7) + F.selu(x) + F.mish(x), [_n(3, 4, scale=2)], (0,)),
    "softplus_silu_sigmoid": (
        lambda x: F.softplus(x) + F.silu(x) * F.sigmoid(x) + F.log_sigmoid(x),
        [_n(3, 4)],
        (0,),
    ),
    "leaky_relu_hard_swish": (
        lambda x: F.leaky_relu(x, 0.1) + F.hard_swish(x) + F.hard_sigmoid(x),
        [_n(3, 4, scale=2)],
        (0,),
    ),
    "softmax_log_softmax": (lambda x: F.softmax(x, axis=0) + F.log_softmax(x), [_n(3, 4)], (0,)),
    "sdpa_causal": (
        lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True),
        [Q, K, V],
        (0, 1, 2),
    ),
    "multi_head_attention": (
        lambda q, wq, wk, wv, wo: F.multi_head_attention(q, q, q, 2, wq, wk, wv, wo),
        [_n(2, 3, 4), _n(4, 4), _n(4, 4), _n(4, 4), _n(4, 3)],
        (0, 1, 2, 3, 4),
    ),
    "lstm": (
        lambda x, wi, wh, b: F.lstm(x, None, wi, wh, b)[0],
        [_n(2, 4, 3), _n(3, 8, scale=0.5), _n(2, 8, scale=0.5), _n(8)],
        (0, 1, 2, 3),
    ),
    "gru_cell": (
        lambda x, h, wi, wh, bi, bh: F.gru_cell(x, h, wi, wh, bi, bh),
        [_n(2, 3), _n(2, 2), _n(3, 6), _n(2, 6), _n(6), _n(6)],
        (0, 1, 2, 3, 4, 5),
    ),
    "cross_entropy_smoothing": (
        lambda x: F.cross_entropy(x, hd.asarray(TARGETS, backend=hd.backend_of(x)), label_smoothing=0.1),
        [_n(4, 3)],
        (0,),
    ),
    "cross_entropy_probs": (lambda x, p: F.cross_entropy(x, F.softmax(p)), [_n(4, 3), _n(4, 3)], (0, 1)),
    "bce_with_logits": (
        lambda x, t: F.binary_cross_entropy_with_logits(x, t, pos_weight=2.0),
        [_n(3, 4), RNG.uniform(size=(3, 4))],
        (0, 1),
    ),
    "bce": (
        lambda p, t: F.binary_cross_entropy(F.sigmoid(p), t),
        [_n(3, 4), RNG.uniform(size=(3, 4))],
        (0, 1),
    ),
    "huber_mse_l1": (
        lambda a, b: F.huber(a, b, delta=0.5) + F.mse(a, b) + F.l1(a, b, reduction="sum"),
        [_n(3, 4), _n(3, 4)],
        (0, 1),
    ),
    "kl_div": (
        lambda x, t: F.kl_div(F.log_softmax(x), F.softmax(t), reduction="batchmean"),
        [_n(3, 4), _n(3, 4)],
        (0, 1),
    ),
}


def _scalar(fn, weights):
    def f(*args):
        y = fn(*args)
        return hd.sum(hd.multiply(y, hd.asarray(weights, backend=hd.backend_of(y))))

    return f


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradient_matches_finite_differences(autodiff_backend, name):
    fn, inputs, argnums = CASES[name]
    out = hd.to_numpy(fn(*inputs))
    weights = np.random.default_rng(7).normal(size=out.shape)
    f = _scalar(fn, weights)
    args = [hd.asarray(a, backend=autodiff_backend) for a in inputs]
    grads = hd.grad(f, argnums=argnums)(*args)
    rng = np.random.default_rng(9)
    for i, g in zip(argnums, grads, strict=False):
        g = hd.to_numpy(g)
        assert g.shape == inputs[i].shape and np.all(np.isfinite(g)), name
        for _ in range(2):
            v = rng.normal(size=inputs[i].shape)
            plus = [a + EPS * v if j == i else a for j, a in enumerate(inputs)]
            minus = [a - EPS * v if j == i else a for j, a in enumerate(inputs)]
            fd = (float(f(*plus)) - float(f(*minus))) / (2 * EPS)
            np.testing.assert_allclose(
                np.sum(g * v), fd, rtol=1e-6, atol=1e-7, err_msg=f"{name}: argument {i}"
            )


def test_batch_norm_running_stats_carry_no_gradient(autodiff_backend):
    x = hd.asarray(_n(4, 3), backend=autodiff_backend)
    mean = hd.asarray(np.zeros(3), backend=autodiff_backend)
    var = hd.asarray(np.ones(3), backend=autodiff_backend)

    def f(x):
        out = F.batch_norm(x, mean, var, training=True)
        return hd.sum(out.running_mean) + hd.sum(out.running_var)

    g = hd.to_numpy(hd.grad(f)(x))
    np.testing.assert_array_equal(g, np.zeros((4, 3)))


def test_sdpa_masked_gradient_is_finite(autodiff_backend):
    mask = hd.asarray(
        np.array([[False, False, False, False, False]] + [[True] * 5] * 3), backend=autodiff_backend
    )

    def f(q):
        k = hd.asarray(K, backend=autodiff_backend)
        v = hd.asarray(V, backend=autodiff_backend)
        return hd.sum(F.scaled_dot_product_attention(q, k, v, mask=mask))

    g = hd.to_numpy(hd.grad(f)(hd.asarray(Q, backend=autodiff_backend)))
    assert np.all(np.isfinite(g))
