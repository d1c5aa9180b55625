"""Pooling, normalisation, dropout and embedding on every backend.

References: PyTorch as ground truth (``F.max_pool*``/``F.avg_pool*`` with their
own padding, ``F.adaptive_avg_pool*``, ``F.batch_norm`` with running statistics,
``F.layer_norm``, ``F.group_norm``, ``F.rms_norm``); explicit NumPy loops for
2-d pooling with asymmetric and "SAME" padding; NumPy indexing for embedding.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as TF  # noqa: N812

import hedera as hd
from nn_reference import assert_close, numpy_layout, numpy_pool2d_loops, same_pads, to_backend, torch_first

F = hd.nn.functional
RNG = np.random.default_rng(1)
FORMATS = ("channels_last", "channels_first")


def _layout(x, data_format):
    """Channels-last NumPy ``x`` in ``data_format``."""
    return x if data_format == "channels_last" else np.moveaxis(x, -1, 1)


# ---- pooling -----------------------------------------------------------------------------------


@pytest.mark.parametrize("data_format", FORMATS)
@pytest.mark.parametrize("kind", ["max", "avg"])
@pytest.mark.parametrize(
    "window, stride, padding",
    [((2, 2), None, "VALID"), ((3, 3), (2, 2), "SAME"), ((3, 2), (1, 2), ((1, 0), (0, 1))), ((3, 3), 2, 1)],
)
def test_pool2d_matches_numpy_loops(backend, data_format, kind, window, stride, padding):
    x = RNG.normal(size=(2, 7, 6, 3))
    s = window if stride is None else (stride, stride) if isinstance(stride, int) else stride
    if padding == "SAME":
        pads = same_pads((7, 6), window, s, (1, 1))
    elif padding == "VALID":
        pads = [(0, 0), (0, 0)]
    elif isinstance(padding, int):
        pads = [(padding, padding)] * 2
    else:
        pads = list(padding)
    fn = F.max_pool2d if kind == "max" else F.avg_pool2d
    y = fn(to_backend(_layout(x, data_format), backend), window, stride, padding, data_format=data_format)
    assert_close(y, _layout(numpy_pool2d_loops(x, window, s, pads, kind), data_format))
    if kind == "avg":
        y = F.avg_pool2d(
            to_backend(_layout(x, data_format), backend),
            window,
            stride,
            padding,
            count_include_pad=True,
            data_format=data_format,
        )
        assert_close(
            y, _layout(numpy_pool2d_loops(x, window, s, pads, kind, count_include_pad=True), data_format)
        )


@pytest.mark.parametrize("nd", [1, 3])
@pytest.mark.parametrize("data_format", FORMATS)
def test_pool_1d_3d_match_torch(backend, nd, data_format):
    last = data_format == "channels_last"
    x = RNG.normal(size=(2, *(7,) * nd, 3))
    xin = _layout(x, data_format)
    xt = torch_first(x, True)
    for window, stride, pad in ((2, 2, 0), (3, 2, 1), (3, 1, 1)):
        got = getattr(F, f"max_pool{nd}d")(
            to_backend(xin, backend), window, stride, pad, data_format=data_format
        )
        expected = getattr(TF, f"max_pool{nd}d")(xt, window, stride, pad)
        assert_close(got, numpy_layout(expected, last))
        for include in (False, True):
            got = getattr(F, f"avg_pool{nd}d")(
                to_backend(xin, backend),
                window,
                stride,
                pad,
                count_include_pad=include,
                data_format=data_format,
            )
            expected = getattr(TF, f"avg_pool{nd}d")(xt, window, stride, pad, count_include_pad=include)
            assert_close(got, numpy_layout(expected, last))


@pytest.mark.parametrize("data_format", FORMATS)
@pytest.mark.parametrize(
    "nd, size, out", [(1, (10,), 4), (2, (7, 9), (3, 4)), (2, (5, 5), 1), (3, (4, 5, 6), (2, 3, 4))]
)
def test_adaptive_avg_pool_matches_torch(backend, data_format, nd, size, out):
    x = RNG.normal(size=(2, *size, 3))
    got = getattr(F, f"adaptive_avg_pool{nd}d")(
        to_backend(_layout(x, data_format), backend), out, data_format=data_format
    )
    expected = getattr(TF, f"adaptive_avg_pool{nd}d")(torch_first(x, True), out)
    assert_close(got, numpy_layout(expected, data_format == "channels_last"))


# ---- normalisation -----------------------------------------------------------------------------


@pytest.mark.parametrize("data_format", FORMATS)
@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_matches_torch(backend, data_format, training):
    last = data_format == "channels_last"
    x = RNG.normal(size=(4, 5, 6, 3)) * 2 + 1
    mean, var = RNG.normal(size=3), RNG.uniform(0.5, 2, size=3)
    weight, bias = RNG.normal(size=3), RNG.normal(size=3)
    out = F.batch_norm(
        to_backend(_layout(x, data_format), backend),
        to_backend(mean, backend),
        to_backend(var, backend),
        to_backend(weight, backend),
        to_backend(bias, backend),
        training=training,
        momentum=0.2,
        eps=1e-3,
        data_format=data_format,
    )
    tmean, tvar = torch.tensor(mean), torch.tensor(var)
    expected = TF.batch_norm(
        torch_first(x, True),
        tmean,
        tvar,
        torch.tensor(weight),
        torch.tensor(bias),
        training=training,
        momentum=0.2,
        eps=1e-3,
    )  # (updates tmean, tvar)
    assert_close(out.output, numpy_layout(expected, last))
    assert_close(out.running_mean, tmean.numpy())
    assert_close(out.running_var, tvar.numpy())


def test_batch_norm_without_running_stats_and_3d(backend):
    x = RNG.normal(size=(8, 4))
    out = F.batch_norm(to_backend(x, backend), training=True)
    assert out.running_mean is None and out.running_var is None
    expected = (x - x.mean(0)) / np.sqrt(x.var(0) + 1e-5)
    assert_close(out.output, expected)


def test_layer_norm_matches_torch(backend):
    x = RNG.normal(size=(2, 3, 4, 5))
    weight, bias = RNG.normal(size=(4, 5)), RNG.normal(size=(4, 5))
    got = F.layer_norm(
        to_backend(x, backend), (4, 5), to_backend(weight, backend), to_backend(bias, backend), eps=1e-4
    )
    expected = TF.layer_norm(torch.tensor(x), (4, 5), torch.tensor(weight), torch.tensor(bias), eps=1e-4)
    assert_close(got, expected.numpy())
    got = F.layer_norm(to_backend(x, backend), 5)
    assert_close(got, TF.layer_norm(torch.tensor(x), (5,)).numpy())


def test_rms_norm_matches_torch(backend):
    for dtype in ("float32", "float64"):
        x = RNG.normal(size=(3, 4, 6)).astype(dtype)
        weight = RNG.normal(size=(6,)).astype(dtype)
        got = F.rms_norm(to_backend(x, backend), 6, to_backend(weight, backend))
        assert_close(got, TF.rms_norm(torch.tensor(x), (6,), torch.tensor(weight)).numpy(), dtype)
        got = F.rms_norm(to_backend(x, backend), (4, 6), eps=1e-3)
        assert_close(got, TF.rms_norm(torch.tensor(x), (4, 6), eps=1e-3).numpy(), dtype)


@pytest.mark.parametrize("data_format", FORMATS)
def test_group_norm_matches_torch(backend, data_format):
    x = RNG.normal(size=(2, 5, 4, 6))
    weight, bias = RNG.normal(size=6), RNG.normal(size=6)
    got = F.group_norm(
        to_backend(_layout(x, data_format), backend),
        3,
        to_backend(weight, backend),
        to_backend(bias, backend),
        eps=1e-4,
        data_format=data_format,
    )
    expected = TF.group_norm(torch_first(x, True), 3, torch.tensor(weight), torch.tensor(bias), eps=1e-4)
    assert_close(got, numpy_layout(expected, data_format == "channels_last"))


# ---- dropout and embedding ---------------------------------------------------------------------


def test_dropout_keyed_is_deterministic_and_unbiased(backend):
    x = to_backend(np.ones((200, 100)), backend, "float32")
    key = hd.random.key(3, backend=backend)
    a = hd.to_numpy(F.dropout(x, 0.3, key=key))
    b = hd.to_numpy(F.dropout(x, 0.3, key=key))
    np.testing.assert_array_equal(a, b)
    kept = a[a != 0]
    np.testing.assert_allclose(kept, np.float32(1 / 0.7), rtol=1e-6)
    assert abs((a == 0).mean() - 0.3) < 0.02  # 20000 draws: 7 standard deviations
    assert abs(a.mean() - 1.0) < 0.05
    assert a.dtype == np.float32


def test_dropout_identity_cases(backend):
    x = to_backend(RNG.normal(size=(3, 4)), backend)
    key = hd.random.key(0, backend=backend)
    assert F.dropout(x, 0.5, key=key, training=False) is x
    assert F.dropout(x, 0.0, key=key) is x
    assert_close(F.dropout(x, 1.0, key=key), np.zeros((3, 4)))


def test_dropout_stateful(backend):
    hd.random.seed(0, backend=backend)
    y = hd.to_numpy(F.dropout(to_backend(np.ones(1000), backend), 0.5))
    assert 0.4 < (y == 0).mean() < 0.6


def test_embedding_matches_numpy_indexing(backend):
    weight = RNG.normal(size=(10, 4))
    ids = np.array([[1, 0, 9], [3, 3, 2]])
    got = F.embedding(to_backend(ids, backend), to_backend(weight, backend))
    assert_close(got, weight[ids])
    assert_close(F.embedding(to_backend(np.array(7), backend), to_backend(weight, backend)), weight[7])


def test_float32_in_float32_out(backend):
    x = to_backend(RNG.normal(size=(2, 6, 6, 4)), backend, "float32")
    w = to_backend(RNG.normal(size=(3, 3, 2, 4)), backend, "float32")
    x3 = hd.reshape(x, (2, 6, 3, 2, 4))
    outputs = {
        "max_pool2d": F.max_pool2d(x, 3, 2, "SAME"),
        "avg_pool2d": F.avg_pool2d(x, 3, 2, "SAME"),
        "max_pool3d": F.max_pool3d(x3, 2, 1, 1),
        "avg_pool3d": F.avg_pool3d(x3, 2, 1, 1),
        "adaptive_avg_pool2d": F.adaptive_avg_pool2d(x, 4),
        "conv_transpose2d": F.conv_transpose2d(x, w, stride=2, groups=2, dilation=2),
        "batch_norm": F.batch_norm(x, training=True).output,
        "group_norm": F.group_norm(x, 2),
        "layer_norm": F.layer_norm(x, 4),
        "rms_norm": F.rms_norm(x, 4),
        "attention": F.scaled_dot_product_attention(x[0], x[0], x[0], is_causal=True),
        "dropout": F.dropout(x, 0.5, key=hd.random.key(0, backend=backend)),
        "kl_div": F.kl_div(x, x),
        "huber": F.huber(x, x),
    }
    assert {k: hd.dtype(v).name for k, v in outputs.items() if hd.dtype(v) != hd.float32} == {}
