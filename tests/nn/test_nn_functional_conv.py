"""hd.nn.functional convolutions on every backend against PyTorch (ground truth) and NumPy loops.

References: ``torch.nn.functional.conv{1,2,3}d`` and ``conv_transpose{1,2,3}d``
with hedera's layouts moved to PyTorch's (tests/nn/nn_reference.py), and for 2-d an
explicit NumPy loop. Hypothesis draws the configuration: 1/2/3 spatial dims,
stride, dilation, groups, padding ("SAME", "VALID", int, (low, high) pairs),
both data formats, float32 and float64.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import hedera as hd
from nn_reference import (
    assert_close,
    numpy_conv2d_loops,
    same_pads,
    to_backend,
    torch_conv,
    torch_conv_transpose,
)

F = hd.nn.functional
RNG = np.random.default_rng(0)
FORMATS = ("channels_last", "channels_first")
_SUPPRESS = [*settings.default.suppress_health_check, HealthCheck.function_scoped_fixture]


@st.composite
def conv_configs(draw, transposed=False):
    nd = draw(st.sampled_from((1, 2, 3)))
    groups = draw(st.sampled_from((1, 2, 3)))
    in_channels = groups * draw(st.integers(1, 2))
    out_channels = groups * draw(st.integers(1, 2))
    kernel = tuple(draw(st.integers(1, 3)) for _ in range(nd))
    stride = tuple(draw(st.integers(1, 3)) for _ in range(nd))
    dilation = tuple(draw(st.integers(1, 2)) for _ in range(nd))
    sizes = tuple(
        draw(st.integers(d * (k - 1) + 1, 7 if nd < 3 else 5)) for k, d in zip(kernel, dilation, strict=False)
    )
    kind = draw(st.sampled_from(("SAME", "VALID", "int", "pairs")))
    if kind == "SAME" or kind == "VALID":
        padding = kind
    elif kind == "int":
        padding = draw(st.integers(0, 2))
    else:
        padding = tuple((draw(st.integers(0, 2)), draw(st.integers(0, 2))) for _ in range(nd))
    data_format = draw(st.sampled_from(FORMATS))
    dtype = draw(st.sampled_from(("float32", "float64")))
    extra = (
        tuple(draw(st.integers(0, max(s, d) - 1)) for s, d in zip(stride, dilation, strict=False))
        if transposed
        else None
    )
    return dict(
        nd=nd,
        groups=groups,
        in_channels=in_channels,
        out_channels=out_channels,
        kernel=kernel,
        stride=stride,
        dilation=dilation,
        sizes=sizes,
        padding=padding,
        data_format=data_format,
        dtype=dtype,
        extra=extra,
    )


def _input(cfg, channels):
    last = cfg["data_format"] == "channels_last"
    shape = (2, *cfg["sizes"], channels) if last else (2, channels, *cfg["sizes"])
    return RNG.normal(size=shape).astype(cfg["dtype"])


def _pairs(cfg, padding_same):
    padding, nd = cfg["padding"], cfg["nd"]
    if padding == "SAME":
        return padding_same
    if padding == "VALID":
        return [(0, 0)] * nd
    if isinstance(padding, int):
        return [(padding, padding)] * nd
    return list(padding)


def _single_output_cfg(nd, kernel, stride, sizes, padding, out_channels=1):
    """A case with one output along a strided axis and one input channel, float32: TensorFlow's
    oneDNN kernel reads past the input there (found by the thorough profile)."""
    return dict(
        nd=nd,
        groups=1,
        in_channels=1,
        out_channels=out_channels,
        kernel=kernel,
        stride=stride,
        dilation=(1,) * nd,
        sizes=sizes,
        padding=padding,
        data_format="channels_last",
        dtype="float32",
        extra=None,
    )


@settings(suppress_health_check=_SUPPRESS)
@given(cfg=conv_configs())
@example(cfg=_single_output_cfg(2, (1, 2), (1, 2), (2, 3), "VALID"))
@example(cfg=_single_output_cfg(2, (1, 2), (1, 2), (2, 1), "SAME", out_channels=2))
@example(cfg=_single_output_cfg(3, (1, 1, 3), (1, 1, 2), (2, 3, 3), "VALID"))
def test_conv_matches_torch(backend, cfg):
    nd, groups = cfg["nd"], cfg["groups"]
    x = _input(cfg, cfg["in_channels"])
    w = RNG.normal(size=(*cfg["kernel"], cfg["in_channels"] // groups, cfg["out_channels"])).astype(
        cfg["dtype"]
    )
    b = RNG.normal(size=(cfg["out_channels"],)).astype(cfg["dtype"])
    pads = _pairs(cfg, same_pads(cfg["sizes"], cfg["kernel"], cfg["stride"], cfg["dilation"]))
    if any(
        n + lo + hi < d * (k - 1) + 1
        for n, (lo, hi), k, d in zip(cfg["sizes"], pads, cfg["kernel"], cfg["dilation"], strict=False)
    ):
        return  # (padding cannot make the input smaller than the window here: sizes >= span)
    conv = getattr(F, f"conv{nd}d")
    y = conv(
        to_backend(x, backend),
        to_backend(w, backend),
        to_backend(b, backend),
        stride=cfg["stride"],
        padding=cfg["padding"],
        dilation=cfg["dilation"],
        groups=groups,
        data_format=cfg["data_format"],
    )
    expected = torch_conv(
        x, w, b, cfg["stride"], pads, cfg["dilation"], groups, cfg["data_format"] == "channels_last"
    )
    assert hd.dtype(y) == getattr(hd, cfg["dtype"])
    assert_close(y, expected, cfg["dtype"])


@settings(suppress_health_check=_SUPPRESS)
@given(cfg=conv_configs(transposed=True))
def test_conv_transpose_matches_torch(backend, cfg):
    nd, groups = cfg["nd"], cfg["groups"]
    x = _input(cfg, cfg["in_channels"])
    w = RNG.normal(size=(*cfg["kernel"], cfg["out_channels"] // groups, cfg["in_channels"])).astype(
        cfg["dtype"]
    )
    b = RNG.normal(size=(cfg["out_channels"],)).astype(cfg["dtype"])
    extra = list(cfg["extra"])
    if cfg["padding"] == "SAME":  # output n * stride: the adjoint of a "SAME" conv of the n * stride input
        pads = []
        for i, (k, s, d) in enumerate(zip(cfg["kernel"], cfg["stride"], cfg["dilation"], strict=False)):
            span = d * (k - 1) + 1
            total = max(span - s, 0)
            pads.append((total // 2, total - total // 2))
            extra[i] += total + s - span
    else:
        pads = _pairs(cfg, None)
    full = [
        (n - 1) * s + d * (k - 1) + 1
        for n, s, k, d in zip(cfg["sizes"], cfg["stride"], cfg["kernel"], cfg["dilation"], strict=False)
    ]
    if any(f - lo - hi + e < 1 for f, (lo, hi), e in zip(full, pads, extra, strict=False)):
        return  # nothing left: tested in the errors test
    conv_t = getattr(F, f"conv_transpose{nd}d")
    y = conv_t(
        to_backend(x, backend),
        to_backend(w, backend),
        to_backend(b, backend),
        stride=cfg["stride"],
        padding=cfg["padding"],
        output_padding=cfg["extra"],
        dilation=cfg["dilation"],
        groups=groups,
        data_format=cfg["data_format"],
    )
    expected = torch_conv_transpose(
        x, w, b, cfg["stride"], pads, extra, cfg["dilation"], groups, cfg["data_format"] == "channels_last"
    )
    assert_close(y, expected, cfg["dtype"])
    if cfg["padding"] == "SAME":
        spatial = (
            hd.to_numpy(y).shape[1:-1] if cfg["data_format"] == "channels_last" else hd.to_numpy(y).shape[2:]
        )
        assert spatial == tuple(
            n * s + e for n, s, e in zip(cfg["sizes"], cfg["stride"], cfg["extra"], strict=False)
        )


@pytest.mark.parametrize("data_format", FORMATS)
def test_conv2d_matches_numpy_loops(backend, data_format):
    x = RNG.normal(size=(2, 6, 7, 4))
    w = RNG.normal(size=(3, 2, 2, 6))
    pads = [(1, 0), (2, 1)]
    expected = numpy_conv2d_loops(x, w, (2, 1), pads, (1, 2), 2)
    xin = x if data_format == "channels_last" else np.moveaxis(x, -1, 1)
    y = F.conv2d(
        to_backend(xin, backend),
        to_backend(w, backend),
        stride=(2, 1),
        padding=pads,
        dilation=(1, 2),
        groups=2,
        data_format=data_format,
    )
    if data_format == "channels_first":
        expected = np.moveaxis(expected, -1, 1)
    assert_close(y, expected)


def test_conv_transpose_is_the_adjoint_of_conv(backend):
    """<conv(x, w), y> == <x, conv_transpose(y, w)> with the same weight array (NumPy inner products)."""
    x = RNG.normal(size=(2, 9, 8, 4))
    w = RNG.normal(size=(3, 3, 2, 6))  # conv: 4 -> 6 channels, groups 2; transposed: 6 -> 4
    kwargs = dict(stride=2, padding=((1, 2), (0, 1)), dilation=(1, 2), groups=2)
    y = F.conv2d(to_backend(x, backend), to_backend(w, backend), **kwargs)
    cot = RNG.normal(size=hd.to_numpy(y).shape)
    xt = F.conv_transpose2d(to_backend(cot, backend), to_backend(w, backend), output_shape=(9, 8), **kwargs)
    np.testing.assert_allclose(np.sum(hd.to_numpy(y) * cot), np.sum(x * hd.to_numpy(xt)), rtol=1e-10)


@pytest.mark.parametrize("data_format", FORMATS)
def test_conv_transpose_output_shape(backend, data_format):
    x = RNG.normal(size=(1, 5, 5, 3) if data_format == "channels_last" else (1, 3, 5, 5))
    w = RNG.normal(size=(3, 3, 2, 3))
    for target in ((9, 9), (10, 10), (10, 9)):
        y = F.conv_transpose2d(
            to_backend(x, backend),
            to_backend(w, backend),
            stride=2,
            padding=1,
            output_shape=target,
            data_format=data_format,
        )
        shape = hd.to_numpy(y).shape
        assert (shape[1:3] if data_format == "channels_last" else shape[2:]) == target
        extra = [t - 9 for t in target]
        expected = torch_conv_transpose(
            x, w, None, (2, 2), [(1, 1)] * 2, extra, (1, 1), 1, data_format == "channels_last"
        )
        assert_close(y, expected)


@pytest.mark.parametrize("data_format", FORMATS)
def test_depthwise_conv2d_matches_torch(backend, data_format):
    channels, multiplier = 3, 2
    x = RNG.normal(size=(2, 7, 6, channels) if data_format == "channels_last" else (2, channels, 7, 6))
    w = RNG.normal(size=(3, 3, channels, multiplier))
    b = RNG.normal(size=(channels * multiplier,))
    for stride, dilation, padding in ((1, 1, "SAME"), (2, 1, "VALID"), (1, 2, 1), ((2, 1), 2, "SAME")):
        y = F.depthwise_conv2d(
            to_backend(x, backend),
            to_backend(w, backend),
            to_backend(b, backend),
            stride=stride,
            dilation=dilation,
            padding=padding,
            data_format=data_format,
        )
        s = (stride, stride) if isinstance(stride, int) else stride
        d = (dilation, dilation)
        pads = (
            same_pads((7, 6), (3, 3), s, d)
            if padding == "SAME"
            else [(0, 0)] * 2
            if padding == "VALID"
            else [(1, 1)] * 2
        )
        # torch's depthwise weight (C * M, 1, kh, kw), output channel c * M + m: hedera's (kh, kw, 1, C * M)
        grouped = w.reshape(3, 3, 1, channels * multiplier)
        expected = torch_conv(x, grouped, b, s, pads, d, channels, data_format == "channels_last")
        assert_close(y, expected)


def test_linear_matches_numpy(backend):
    x = RNG.normal(size=(2, 3, 5))
    w = RNG.normal(size=(5, 4))
    b = RNG.normal(size=(4,))
    assert_close(F.linear(to_backend(x, backend), to_backend(w, backend), to_backend(b, backend)), x @ w + b)
    assert_close(F.linear(to_backend(x, backend), to_backend(w, backend)), x @ w)


def test_conv_float32_keeps_dtype(backend):
    x = to_backend(RNG.normal(size=(1, 5, 5, 2)), backend, "float32")
    w = to_backend(RNG.normal(size=(3, 3, 2, 4)), backend, "float32")
    y = F.conv2d(x, w, padding="SAME")
    assert hd.dtype(y) == hd.float32
    assert hd.backend_of(y) == backend
