"""hd.nn layers against torch.nn as ground truth, on every backend.

Each hedera layer is built with a seed on the backend under test; its weights are copied into
the matching torch.nn module (hedera's layouts converted: linear weights transposed,
convolution weights ``(*k, in // groups, out)`` -> ``(out, in // groups, *k)``, channels-last
inputs moved to channels first); both run on the same input. Also: lazy building, dropout's
statistics, and the errors for bad input (naming the layer and the expected shape).
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

import hedera as hd

RNG = np.random.default_rng(21)
TOL = dict(rtol=1e-4, atol=1e-5)


def as_np(x) -> np.ndarray:
    return hd.to_numpy(x)


def t(a) -> torch.Tensor:
    return torch.from_numpy(np.ascontiguousarray(as_np(a) if not isinstance(a, np.ndarray) else a))


def set_param(p: torch.nn.Parameter, value) -> None:
    with torch.no_grad():
        p.copy_(t(value))


def torch_conv_weight(w) -> np.ndarray:
    """hedera (*k, a, b) -> torch (b, a, *k), for convolutions and transposed convolutions alike."""
    w = as_np(w)
    return np.moveaxis(w, [-1, -2], [0, 1])


def channels_first(x: np.ndarray) -> np.ndarray:
    return np.moveaxis(x, -1, 1)


def data(*shape) -> np.ndarray:
    return RNG.normal(size=shape).astype(np.float32)


def close(actual, expected, **tol) -> None:
    got = as_np(actual)
    expected = expected.detach().numpy() if isinstance(expected, torch.Tensor) else expected
    assert got.shape == expected.shape, (got.shape, expected.shape)
    np.testing.assert_allclose(got, expected, **{**TOL, **tol})


def build(backend, factory):
    with hd.use_backend(backend):
        return factory()


# ---- linear, embedding, flatten ---------------------------------------------------------------


def test_linear(backend):
    layer = build(backend, lambda: hd.nn.Linear(5, 3, key=1))
    ref = torch.nn.Linear(5, 3)
    set_param(ref.weight, as_np(layer.weight).T)
    set_param(ref.bias, layer.bias)
    x = data(2, 4, 5)
    close(layer(hd.asarray(x, backend=backend)), ref(t(x)))
    no_bias = build(backend, lambda: hd.nn.Linear(5, 3, bias=False, key=1))
    assert no_bias.bias is None and sorted(no_bias.parameters()) == ["weight"]


def test_embedding(backend):
    layer = build(backend, lambda: hd.nn.Embedding(10, 4, key=2))
    ref = torch.nn.Embedding(10, 4)
    set_param(ref.weight, layer.weight)
    ids = RNG.integers(0, 10, size=(3, 5))
    close(layer(hd.asarray(ids, backend=backend)), ref(torch.from_numpy(ids)))


def test_flatten_and_identity(backend):
    x = data(2, 3, 4, 5)
    xb = hd.asarray(x, backend=backend)
    close(hd.nn.Flatten()(xb), x.reshape(2, -1))
    close(hd.nn.Flatten(1, 2)(xb), x.reshape(2, 12, 5))
    close(hd.nn.Flatten(-2)(xb), x.reshape(2, 3, 20))
    close(hd.nn.Identity()(xb), x)


# ---- convolutions -----------------------------------------------------------------------------


CONVS = {
    "conv1d_same_first": (
        lambda: hd.nn.Conv1d(3, 4, 3, padding="SAME", data_format="channels_first", key=3),
        lambda: torch.nn.Conv1d(3, 4, 3, padding="same"),
        (2, 3, 9),
    ),
    "conv2d_groups_strided_dilated": (
        lambda: hd.nn.Conv2d(4, 6, (3, 2), stride=(2, 1), padding=1, dilation=(1, 2), groups=2, key=4),
        lambda: torch.nn.Conv2d(4, 6, (3, 2), stride=(2, 1), padding=1, dilation=(1, 2), groups=2),
        (2, 7, 8, 4),
    ),
    "conv2d_first_no_bias": (
        lambda: hd.nn.Conv2d(3, 5, 3, bias=False, data_format="channels_first", key=5),
        lambda: torch.nn.Conv2d(3, 5, 3, bias=False),
        (1, 3, 6, 6),
    ),
    "conv3d": (
        lambda: hd.nn.Conv3d(2, 4, 2, stride=2, key=6),
        lambda: torch.nn.Conv3d(2, 4, 2, stride=2),
        (1, 4, 4, 6, 2),
    ),
    "conv_transpose1d_first": (
        lambda: hd.nn.ConvTranspose1d(3, 2, 4, stride=2, data_format="channels_first", key=7),
        lambda: torch.nn.ConvTranspose1d(3, 2, 4, stride=2),
        (2, 3, 5),
    ),
    "conv_transpose2d_groups_output_padding": (
        lambda: hd.nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2, key=8),
        lambda: torch.nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2),
        (2, 4, 5, 4),
    ),
    "conv_transpose3d": (
        lambda: hd.nn.ConvTranspose3d(2, 3, 2, stride=2, key=9),
        lambda: torch.nn.ConvTranspose3d(2, 3, 2, stride=2),
        (1, 2, 3, 2, 2),
    ),
}


@pytest.mark.parametrize("case", list(CONVS))
def test_convolutions(case, backend):
    make, make_ref, shape = CONVS[case]
    layer = build(backend, make)
    ref = make_ref()
    set_param(ref.weight, torch_conv_weight(layer.weight))
    if layer.bias is not None:
        set_param(ref.bias, layer.bias)
    x = data(*shape)
    last = layer.data_format == "channels_last"
    expected = ref(t(channels_first(x) if last else x)).detach().numpy()
    close(layer(hd.asarray(x, backend=backend)), np.moveaxis(expected, 1, -1) if last else expected)


def test_conv_transpose_output_shape_argument(backend):
    layer = build(backend, lambda: hd.nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1, key=1))
    x = hd.asarray(data(1, 4, 4, 2), backend=backend)
    assert tuple(layer(x).shape) == (1, 7, 7, 3)
    assert tuple(layer(x, output_shape=(8, 8)).shape) == (1, 8, 8, 3)


def test_lazy_convolution_takes_the_channels_of_its_first_input(backend):
    layer = hd.nn.Conv2d(None, 4, 3, data_format="channels_first", key=2)
    y = layer(hd.asarray(data(1, 5, 6, 6), backend=backend))
    assert layer.in_channels == 5 and tuple(layer.weight.shape) == (3, 3, 5, 4)
    assert tuple(y.shape) == (1, 4, 4, 4) and hd.backend_of(layer.weight) == backend
    eager = hd.nn.Conv2d(5, 4, 3, data_format="channels_first", key=2, backend="numpy")
    assert layer.parameters().all_equal(eager.parameters())


def test_default_initialisation_matches_pytorchs_bounds():
    layer = hd.nn.Conv2d(16, 8, 3, key=0, backend="numpy")
    bound = 1 / np.sqrt(16 * 9)
    assert np.abs(layer.weight).max() <= bound and np.abs(layer.bias).max() <= bound
    assert np.abs(layer.weight).max() > 0.9 * bound


# ---- normalisation ----------------------------------------------------------------------------


def test_batch_norm_training_then_eval(backend):
    layer = build(backend, lambda: hd.nn.BatchNorm(3, momentum=0.2, data_format="channels_first"))
    ref = torch.nn.BatchNorm2d(3, momentum=0.2)
    layer.weight = hd.asarray(data(3), backend=backend)
    layer.bias = hd.asarray(data(3), backend=backend)
    set_param(ref.weight, layer.weight)
    set_param(ref.bias, layer.bias)
    for _ in range(2):
        x = data(4, 3, 5, 5) * 2 + 1
        close(layer(hd.asarray(x, backend=backend)), ref(t(x)))
    close(layer.running_mean, ref.running_mean)
    close(layer.running_var, ref.running_var)
    layer.eval(), ref.eval()
    x = data(2, 3, 5, 5)
    close(layer(hd.asarray(x, backend=backend)), ref(t(x)))


def test_batch_norm_channels_last_without_running_stats(backend):
    layer = build(backend, lambda: hd.nn.BatchNorm(4, track_running_stats=False, affine=False))
    ref = torch.nn.BatchNorm1d(4, track_running_stats=False, affine=False)
    x = data(6, 7, 4)
    layer.eval()  # without running statistics, batch statistics in both modes
    close(
        layer(hd.asarray(x, backend=backend)), np.moveaxis(ref(t(channels_first(x))).detach().numpy(), 1, -1)
    )
    assert len(layer.state()) == 0


def test_layer_norm(backend):
    layer = build(backend, lambda: hd.nn.LayerNorm((4, 5), eps=1e-4))
    ref = torch.nn.LayerNorm((4, 5), eps=1e-4)
    layer.weight = hd.asarray(data(4, 5), backend=backend)
    layer.bias = hd.asarray(data(4, 5), backend=backend)
    set_param(ref.weight, layer.weight)
    set_param(ref.bias, layer.bias)
    x = data(3, 4, 5)
    close(layer(hd.asarray(x, backend=backend)), ref(t(x)))


def test_rms_norm(backend):
    layer = build(backend, lambda: hd.nn.RMSNorm(6, eps=1e-6))
    ref = torch.nn.RMSNorm(6, eps=1e-6)
    layer.weight = hd.asarray(data(6), backend=backend)
    set_param(ref.weight, layer.weight)
    x = data(2, 3, 6)
    close(layer(hd.asarray(x, backend=backend)), ref(t(x)))


def test_group_norm(backend):
    layer = build(backend, lambda: hd.nn.GroupNorm(2, 6))
    ref = torch.nn.GroupNorm(2, 6)
    layer.weight = hd.asarray(data(6), backend=backend)
    layer.bias = hd.asarray(data(6), backend=backend)
    set_param(ref.weight, layer.weight)
    set_param(ref.bias, layer.bias)
    x = data(2, 4, 5, 6)
    expected = np.moveaxis(ref(t(channels_first(x))).detach().numpy(), 1, -1)
    close(layer(hd.asarray(x, backend=backend)), expected)


# ---- pooling, activations, dropout ------------------------------------------------------------


POOLS = {
    "max1d": (lambda: hd.nn.MaxPool1d(3, 2), lambda: torch.nn.MaxPool1d(3, 2), (2, 9, 3)),
    "max2d": (lambda: hd.nn.MaxPool2d(2), lambda: torch.nn.MaxPool2d(2), (2, 6, 7, 3)),
    "max3d": (lambda: hd.nn.MaxPool3d(2), lambda: torch.nn.MaxPool3d(2), (1, 4, 4, 4, 2)),
    "avg2d_padded": (
        lambda: hd.nn.AvgPool2d(3, 2, padding=1, count_include_pad=True),
        lambda: torch.nn.AvgPool2d(3, 2, padding=1, count_include_pad=True),
        (2, 7, 6, 3),
    ),
    "avg2d_excluding_pad": (
        lambda: hd.nn.AvgPool2d(3, 2, padding=1),
        lambda: torch.nn.AvgPool2d(3, 2, padding=1, count_include_pad=False),
        (2, 7, 6, 3),
    ),
    "avg1d": (lambda: hd.nn.AvgPool1d(2), lambda: torch.nn.AvgPool1d(2), (2, 8, 3)),
    "avg3d": (lambda: hd.nn.AvgPool3d(2), lambda: torch.nn.AvgPool3d(2), (1, 4, 4, 4, 2)),
    "adaptive1d": (lambda: hd.nn.AdaptiveAvgPool1d(3), lambda: torch.nn.AdaptiveAvgPool1d(3), (2, 7, 3)),
    "adaptive2d": (
        lambda: hd.nn.AdaptiveAvgPool2d((2, 3)),
        lambda: torch.nn.AdaptiveAvgPool2d((2, 3)),
        (2, 5, 7, 3),
    ),
    "adaptive3d": (
        lambda: hd.nn.AdaptiveAvgPool3d(1),
        lambda: torch.nn.AdaptiveAvgPool3d(1),
        (1, 3, 4, 5, 2),
    ),
}


@pytest.mark.parametrize("case", list(POOLS))
def test_pooling(case, backend):
    make, make_ref, shape = POOLS[case]
    x = data(*shape)
    expected = np.moveaxis(make_ref()(t(channels_first(x))).numpy(), 1, -1)
    close(make()(hd.asarray(x, backend=backend)), expected)


ACTIVATIONS = {
    "ReLU": (hd.nn.ReLU(), torch.nn.ReLU()),
    "LeakyReLU": (hd.nn.LeakyReLU(0.2), torch.nn.LeakyReLU(0.2)),
    "ELU": (hd.nn.ELU(0.5), torch.nn.ELU(0.5)),
    "SELU": (hd.nn.SELU(), torch.nn.SELU()),
    "GELU": (hd.nn.GELU(), torch.nn.GELU()),
    "GELU_tanh": (hd.nn.GELU("tanh"), torch.nn.GELU("tanh")),
    "SiLU": (hd.nn.SiLU(), torch.nn.SiLU()),
    "Mish": (hd.nn.Mish(), torch.nn.Mish()),
    "Softplus": (hd.nn.Softplus(), torch.nn.Softplus()),
    "Sigmoid": (hd.nn.Sigmoid(), torch.nn.Sigmoid()),
    "LogSigmoid": (hd.nn.LogSigmoid(), torch.nn.LogSigmoid()),
    "Tanh": (hd.nn.Tanh(), torch.nn.Tanh()),
    "HardSigmoid": (hd.nn.HardSigmoid(), torch.nn.Hardsigmoid()),
    "HardSwish": (hd.nn.HardSwish(), torch.nn.Hardswish()),
    "Softmax": (hd.nn.Softmax(axis=1), torch.nn.Softmax(dim=1)),
    "LogSoftmax": (hd.nn.LogSoftmax(), torch.nn.LogSoftmax(dim=-1)),
    "Activation_gelu_tanh": (hd.nn.Activation("gelu_tanh"), torch.nn.GELU("tanh")),
}


@pytest.mark.parametrize("name", list(ACTIVATIONS))
def test_activation_modules(name, backend):
    layer, ref = ACTIVATIONS[name]
    x = data(3, 4, 5) * 3
    close(layer(hd.asarray(x, backend=backend)), ref(t(x)))


def test_dropout(backend):
    layer = hd.nn.Dropout(0.3)
    x = hd.asarray(np.ones((10_000,), np.float32), backend=backend)
    y = as_np(layer(x))
    assert set(np.unique(y)) <= {0.0, np.float32(1 / 0.7)}
    assert abs((y == 0).mean() - 0.3) < 0.03
    layer.eval()
    np.testing.assert_array_equal(as_np(layer(x)), 1.0)


# ---- recurrent and attention ------------------------------------------------------------------


def copy_recurrent(layer, ref) -> None:
    for k in range(layer.num_layers):
        set_param(getattr(ref, f"weight_ih_l{k}"), as_np(getattr(layer, f"w_ih_l{k}")).T)
        set_param(getattr(ref, f"weight_hh_l{k}"), as_np(getattr(layer, f"w_hh_l{k}")).T)
        set_param(getattr(ref, f"bias_ih_l{k}"), getattr(layer, f"b_ih_l{k}"))
        set_param(getattr(ref, f"bias_hh_l{k}"), getattr(layer, f"b_hh_l{k}"))


def test_lstm(backend):
    layer = build(backend, lambda: hd.nn.LSTM(3, 5, num_layers=2, key=3))
    ref = torch.nn.LSTM(3, 5, num_layers=2, batch_first=True)
    copy_recurrent(layer, ref)
    x, h0, c0 = data(2, 6, 3), data(2, 2, 5), data(2, 2, 5)
    out, (h, c) = layer(
        hd.asarray(x, backend=backend), (hd.asarray(h0, backend=backend), hd.asarray(c0, backend=backend))
    )
    ref_out, (ref_h, ref_c) = ref(t(x), (t(h0), t(c0)))
    close(out, ref_out)
    close(h, ref_h)
    close(c, ref_c)
    out0, _ = layer(hd.asarray(x, backend=backend))  # zero initial state
    close(out0, ref(t(x))[0])


def test_gru(backend):
    layer = build(backend, lambda: hd.nn.GRU(4, 3, num_layers=2, key=4))
    ref = torch.nn.GRU(4, 3, num_layers=2, batch_first=True)
    copy_recurrent(layer, ref)
    x, h0 = data(2, 5, 4), data(2, 2, 3)
    out, h = layer(hd.asarray(x, backend=backend), hd.asarray(h0, backend=backend))
    ref_out, ref_h = ref(t(x), t(h0))
    close(out, ref_out)
    close(h, ref_h)


def copy_attention(layer, ref) -> None:
    w = np.concatenate([as_np(layer.q_weight).T, as_np(layer.k_weight).T, as_np(layer.v_weight).T])
    set_param(ref.in_proj_weight, w)
    set_param(
        ref.in_proj_bias, np.concatenate([as_np(layer.q_bias), as_np(layer.k_bias), as_np(layer.v_bias)])
    )
    set_param(ref.out_proj.weight, as_np(layer.out_weight).T)
    set_param(ref.out_proj.bias, layer.out_bias)


def test_multi_head_attention(backend):
    layer = build(backend, lambda: hd.nn.MultiHeadAttention(8, 2, key=5))
    layer.q_bias = hd.asarray(data(8), backend=backend)  # non-zero biases, to check them too
    layer.out_bias = hd.asarray(data(8), backend=backend)
    ref = torch.nn.MultiheadAttention(8, 2, batch_first=True)
    copy_attention(layer, ref)
    q, kv = data(2, 4, 8), data(2, 6, 8)
    allowed = RNG.random((4, 6)) > 0.3
    allowed[:, 0] = True
    out, weights = layer(
        hd.asarray(q, backend=backend),
        hd.asarray(kv, backend=backend),
        mask=hd.asarray(allowed, backend=backend),
        return_weights=True,
    )  # fmt: skip
    ref_out, ref_weights = ref(
        t(q), t(kv), t(kv), attn_mask=torch.from_numpy(~allowed), average_attn_weights=False
    )
    close(out, ref_out)
    close(weights, ref_weights)
    causal = layer(hd.asarray(q, backend=backend), is_causal=True)  # self-attention
    mask = torch.triu(torch.ones(4, 4, dtype=torch.bool), 1)
    close(causal, ref(t(q), t(q), t(q), attn_mask=mask)[0])


@pytest.mark.parametrize("norm_first", [False, True])
def test_transformer_encoder_layer(norm_first, backend):
    layer = build(
        backend,
        lambda: hd.nn.TransformerEncoderLayer(8, 2, 16, activation="gelu", norm_first=norm_first, key=6),
    )
    ref = torch.nn.TransformerEncoderLayer(
        8, 2, 16, activation="gelu", norm_first=norm_first, batch_first=True
    )
    copy_attention(layer.self_attn, ref.self_attn)
    for name in ("linear1", "linear2"):
        set_param(getattr(ref, name).weight, as_np(getattr(layer, name).weight).T)
        set_param(getattr(ref, name).bias, getattr(layer, name).bias)
    layer.eval(), ref.eval()
    x = data(2, 5, 8)
    with torch.no_grad():
        expected = ref(t(x))
    close(layer(hd.asarray(x, backend=backend)), expected)


# ---- errors -----------------------------------------------------------------------------------


def test_wrong_channel_count_or_rank_names_the_layer_and_the_shape():
    x = data(2, 8, 8, 4)
    with pytest.raises(hd.ShapeError) as info:
        hd.nn.Conv2d(3, 8, 3, key=0, backend="numpy")(x)
    message = str(info.value)
    assert message.startswith("Conv2d(3, 8, kernel_size=(3, 3)")
    assert (
        "expected input of shape (batch, height, width, 3) (data_format='channels_last'), "
        "got shape (2, 8, 8, 4)" in message
    )
    with pytest.raises(hd.ShapeError, match=r"Conv1d.*expected input of shape \(batch, 3, length\)"):
        hd.nn.Conv1d(3, 8, 3, data_format="channels_first", key=0, backend="numpy")(data(3, 9))
    with pytest.raises(
        hd.ShapeError,
        match=r"Linear\(in_features=5.*expected input of shape \(\.\.\., 5\), got shape \(2, 4\)",
    ):
        hd.nn.Linear(5, 2, key=0, backend="numpy")(data(2, 4))
    with pytest.raises(hd.ShapeError, match=r"BatchNorm\(3.*expected input of shape \(batch, \.\.\., 3\)"):
        hd.nn.BatchNorm(3, backend="numpy")(data(4, 2))
    with pytest.raises(hd.ShapeError, match=r"LSTM\(3, 5\).*\(batch, time, 3\), got shape \(2, 4, 2\)"):
        hd.nn.LSTM(3, 5, key=0, backend="numpy")(data(2, 4, 2))
    with pytest.raises(hd.ShapeError, match=r"LayerNorm.*expected input of shape \(\.\.\., 4, 5\)"):
        hd.nn.LayerNorm((4, 5), backend="numpy")(data(3, 5, 4))
    with pytest.raises(
        hd.ShapeError, match=r"MaxPool2d.*expected input of shape \(batch, height, width, channels\)"
    ):
        hd.nn.MaxPool2d(2)(data(2, 3))
    with pytest.raises(
        hd.ShapeError, match=r"MultiHeadAttention.*expected key of shape \(batch, length, 8\)"
    ):
        hd.nn.MultiHeadAttention(8, 2, key=0, backend="numpy")(data(1, 3, 8), data(1, 3, 4))


def test_unknown_strings_are_refused_with_the_choices():
    with pytest.raises(
        hd.InvalidArgumentError, match=r"Activation: .*unknown activation 'rleu'; expected one of"
    ):
        hd.nn.Activation("rleu")
    with pytest.raises(
        hd.InvalidArgumentError, match=r"TransformerEncoderLayer: .*unknown activation 'swish2'"
    ):
        hd.nn.TransformerEncoderLayer(8, 2, activation="swish2")
    with pytest.raises(
        hd.InvalidArgumentError, match=r"Conv2d: unknown padding 'full'; expected 'SAME', 'VALID'"
    ):
        hd.nn.Conv2d(3, 4, 3, padding="full")
    with pytest.raises(hd.InvalidArgumentError, match=r"MaxPool1d: unknown padding 'wide'"):
        hd.nn.MaxPool1d(2, padding="wide")
    with pytest.raises(
        hd.InvalidArgumentError,
        match=r"BatchNorm: data_format must be one of \['channels_last', .*got 'NHWC'",
    ):
        hd.nn.BatchNorm(3, data_format="NHWC")
    with pytest.raises(hd.InvalidArgumentError, match="in_channels=3 is not divisible by groups=2"):
        hd.nn.Conv2d(3, 4, 3, groups=2)
    with pytest.raises(hd.InvalidArgumentError, match="embed_dim=6 is not divisible by num_heads=4"):
        hd.nn.MultiHeadAttention(6, 4)
