"""Bad input to hd.nn.functional raises one hedera error on every backend, naming the op and what it expected.

Also: every backend's kernel module (``hedera.backends.<name>.nn``) has every
kernel of ``hd.nn_ops.KERNELS`` with that signature.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect

import numpy as np
import pytest

import hedera as hd
from nn_reference import to_backend

F = hd.nn.functional


def _a(backend, *shape, dtype="float64"):
    return to_backend(np.ones(shape), backend, dtype)


# name -> (call given a backend, error class, substrings of the message)
CASES = {
    "conv2d_rank": (
        lambda b: F.conv2d(_a(b, 5, 5, 3), _a(b, 3, 3, 3, 4)),
        hd.ShapeError,
        ["conv2d", "(batch, height, width, channels)", "(5, 5, 3)"],
    ),
    "conv2d_rank_channels_first": (
        lambda b: F.conv2d(_a(b, 1, 3, 5), _a(b, 3, 3, 3, 4), data_format="channels_first"),
        hd.ShapeError,
        ["conv2d", "(batch, channels, height, width)"],
    ),
    "conv2d_channels": (
        lambda b: F.conv2d(_a(b, 1, 5, 5, 3), _a(b, 3, 3, 2, 4)),
        hd.ShapeError,
        ["conv2d", "weight", "(*kernel_size, 3, out_channels)", "3 channels"],
    ),
    "conv2d_groups": (
        lambda b: F.conv2d(_a(b, 1, 5, 5, 3), _a(b, 3, 3, 1, 4), groups=2),
        hd.ShapeError,
        ["conv2d", "groups=2"],
    ),
    "conv2d_weight_rank": (
        lambda b: F.conv2d(_a(b, 1, 5, 5, 3), _a(b, 3, 3, 4)),
        hd.ShapeError,
        ["conv2d", "weight", "(*kernel_size, in_channels // groups, out_channels)"],
    ),
    "conv2d_padding": (
        lambda b: F.conv2d(_a(b, 1, 5, 5, 3), _a(b, 3, 3, 3, 4), padding="FULL"),
        hd.InvalidArgumentError,
        ["conv2d", "padding", "'SAME'", "'VALID'", "'FULL'"],
    ),
    "conv2d_padding_pairs": (
        lambda b: F.conv2d(_a(b, 1, 5, 5, 3), _a(b, 3, 3, 3, 4), padding=((1, 1),)),
        hd.InvalidArgumentError,
        ["conv2d", "padding", "2"],
    ),
    "conv2d_data_format": (
        lambda b: F.conv2d(_a(b, 1, 5, 5, 3), _a(b, 3, 3, 3, 4), data_format="NHWC"),
        hd.InvalidArgumentError,
        ["conv2d", "data_format", "channels_last", "channels_first"],
    ),
    "conv2d_stride": (
        lambda b: F.conv2d(_a(b, 1, 5, 5, 3), _a(b, 3, 3, 3, 4), stride=0),
        hd.InvalidArgumentError,
        ["conv2d", "stride"],
    ),
    "conv2d_too_small": (
        lambda b: F.conv2d(_a(b, 1, 2, 5, 3), _a(b, 3, 3, 3, 4)),
        hd.ShapeError,
        ["conv2d", "window"],
    ),
    "conv2d_bias": (
        lambda b: F.conv2d(_a(b, 1, 5, 5, 3), _a(b, 3, 3, 3, 4), _a(b, 3)),
        hd.ShapeError,
        ["conv2d", "bias", "(4,)"],
    ),
    "conv2d_dtype": (
        lambda b: F.conv2d(_a(b, 1, 5, 5, 3, dtype="float32"), _a(b, 3, 3, 3, 4)),
        hd.DtypeError,
        ["conv2d", "float64", "float32"],
    ),
    "conv1d_rank": (
        lambda b: F.conv1d(_a(b, 1, 5, 5, 3), _a(b, 3, 3, 4)),
        hd.ShapeError,
        ["conv1d", "(batch, length, channels)"],
    ),
    "conv3d_channels": (
        lambda b: F.conv3d(_a(b, 1, 4, 4, 4, 2), _a(b, 2, 2, 2, 3, 4)),
        hd.ShapeError,
        ["conv3d"],
    ),
    "conv_transpose2d_channels": (
        lambda b: F.conv_transpose2d(_a(b, 1, 5, 5, 3), _a(b, 3, 3, 4, 2)),
        hd.ShapeError,
        ["conv_transpose2d", "(*kernel_size, out_channels // groups, in_channels)"],
    ),
    "conv_transpose2d_output_shape": (
        lambda b: F.conv_transpose2d(_a(b, 1, 5, 5, 3), _a(b, 3, 3, 4, 3), stride=2, output_shape=(20, 11)),
        hd.ShapeError,
        ["conv_transpose2d", "output_shape", "[11, 12]"],
    ),
    "conv_transpose2d_output_padding": (
        lambda b: F.conv_transpose2d(_a(b, 1, 5, 5, 3), _a(b, 3, 3, 4, 3), stride=2, output_padding=2),
        hd.InvalidArgumentError,
        ["conv_transpose2d", "output_padding"],
    ),
    "depthwise_channels": (
        lambda b: F.depthwise_conv2d(_a(b, 1, 5, 5, 3), _a(b, 3, 3, 2, 2)),
        hd.ShapeError,
        ["depthwise_conv2d", "(kh, kw, 3, multiplier)"],
    ),
    "linear": (lambda b: F.linear(_a(b, 2, 5), _a(b, 4, 3)), hd.ShapeError, ["linear", "(..., 4)", "(2, 5)"]),
    "max_pool2d_rank": (
        lambda b: F.max_pool2d(_a(b, 5, 5), 2),
        hd.ShapeError,
        ["max_pool2d", "(batch, height, width, channels)"],
    ),
    "avg_pool2d_padding": (
        lambda b: F.avg_pool2d(_a(b, 1, 5, 5, 1), 2, padding="full"),
        hd.InvalidArgumentError,
        ["avg_pool2d", "padding", "'SAME'"],
    ),
    "max_pool2d_big_padding": (
        lambda b: F.max_pool2d(_a(b, 1, 5, 5, 1), 2, padding=2),
        hd.InvalidArgumentError,
        ["max_pool2d", "half the window"],
    ),
    "adaptive_format": (
        lambda b: F.adaptive_avg_pool2d(_a(b, 1, 5, 5, 1), 2, data_format="last"),
        hd.InvalidArgumentError,
        ["adaptive_avg_pool2d", "data_format"],
    ),
    "batch_norm_no_stats": (
        lambda b: F.batch_norm(_a(b, 2, 3)),
        hd.InvalidArgumentError,
        ["batch_norm", "running_mean"],
    ),
    "batch_norm_channels": (
        lambda b: F.batch_norm(_a(b, 2, 3), _a(b, 4), _a(b, 4)),
        hd.ShapeError,
        ["batch_norm", "running_mean", "(3,)"],
    ),
    "layer_norm": (lambda b: F.layer_norm(_a(b, 2, 3), 4), hd.ShapeError, ["layer_norm", "(..., 4)"]),
    "group_norm": (lambda b: F.group_norm(_a(b, 2, 5, 6), 4), hd.ShapeError, ["group_norm", "num_groups=4"]),
    "activation": (
        lambda b: F.get_activation("relu7"),
        hd.InvalidArgumentError,
        ["unknown activation", "'relu7'", "'gelu'"],
    ),
    "gelu_approximate": (
        lambda b: F.gelu(_a(b, 2), approximate="fast"),
        hd.InvalidArgumentError,
        ["gelu", "approximate", "'tanh'"],
    ),
    "softmax_axis": (lambda b: F.softmax(_a(b, 2, 3), axis=2), hd.InvalidAxisError, ["softmax", "axis=2"]),
    "reduction": (
        lambda b: F.mse(_a(b, 2), _a(b, 2), reduction="avg"),
        hd.InvalidArgumentError,
        ["mse", "reduction", "'mean'", "'avg'"],
    ),
    "mse_shape": (lambda b: F.mse(_a(b, 2, 3), _a(b, 3)), hd.ShapeError, ["mse", "(2, 3)"]),
    "cross_entropy_targets": (
        lambda b: F.cross_entropy(_a(b, 4, 3), to_backend(np.zeros(3, np.int64), b)),
        hd.ShapeError,
        ["cross_entropy", "(4,)"],
    ),
    "cross_entropy_axis": (
        lambda b: F.cross_entropy(_a(b, 4, 3), _a(b, 4, 3), axis=2),
        hd.InvalidAxisError,
        ["cross_entropy", "axis=2"],
    ),
    "kl_div_reduction": (
        lambda b: F.kl_div(_a(b, 2), _a(b, 2), reduction="avg"),
        hd.InvalidArgumentError,
        ["kl_div", "'batchmean'"],
    ),
    "embedding_ids": (lambda b: F.embedding(_a(b, 2), _a(b, 4, 3)), hd.DtypeError, ["embedding", "integer"]),
    "dropout_rate": (lambda b: F.dropout(_a(b, 2), 1.5), hd.InvalidArgumentError, ["dropout", "rate"]),
    "sdpa_shapes": (
        lambda b: F.scaled_dot_product_attention(_a(b, 2, 3), _a(b, 4, 2), _a(b, 4, 2)),
        hd.ShapeError,
        ["scaled_dot_product_attention", "(..., Lq, E)"],
    ),
    "mha_heads": (
        lambda b: F.multi_head_attention(
            _a(b, 1, 2, 4),
            _a(b, 1, 2, 4),
            _a(b, 1, 2, 4),
            3,
            _a(b, 4, 4),
            _a(b, 4, 4),
            _a(b, 4, 4),
            _a(b, 4, 4),
        ),
        hd.ShapeError,
        ["multi_head_attention", "num_heads=3"],
    ),
    "lstm_cell_weights": (
        lambda b: F.lstm_cell(_a(b, 2, 3), (_a(b, 2, 4), _a(b, 2, 4)), _a(b, 3, 12), _a(b, 4, 16)),
        hd.ShapeError,
        ["lstm_cell", "w_ih", "(3, 16)"],
    ),
    "lstm_rank": (
        lambda b: F.lstm(_a(b, 2, 3), None, _a(b, 3, 16), _a(b, 4, 16)),
        hd.ShapeError,
        ["lstm", "(batch, time, input_size)"],
    ),
    "gru_cell_weights": (
        lambda b: F.gru_cell(_a(b, 2, 3), _a(b, 2, 4), _a(b, 3, 12), _a(b, 4, 16)),
        hd.ShapeError,
        ["gru_cell", "w_hh", "(4, 12)"],
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_input_raises_hedera_error(backend, name):
    call, error, fragments = CASES[name]
    with pytest.raises(error) as info:
        call(backend)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, (fragment, message)


def test_kernel_of_a_non_array():
    with pytest.raises(hd.NotAnArrayError):
        hd.nn_ops.relu([1.0, 2.0])


@pytest.mark.parametrize("name", ["numpy", "torch", "jax", "tensorflow"])
def test_every_backend_has_every_kernel(name):
    if importlib.util.find_spec(name) is None:
        pytest.skip(f"{name} is not installed")
    module = hd.nn_ops.kernels(name)
    assert module is importlib.import_module(f"hedera.backends.{name}.nn")
    for kernel, signature in hd.nn_ops.KERNELS.items():
        fn = getattr(module, kernel)
        expected = [p.strip() for p in signature.strip("()").split(",")]
        try:
            params = list(inspect.signature(fn).parameters)
        except (TypeError, ValueError):  # a C function without a signature (torch.relu): positional use only
            continue
        if params[: len(expected)] != expected:  # aliased framework functions name their parameters their way
            assert len(params) >= len(expected), (name, kernel, params)
