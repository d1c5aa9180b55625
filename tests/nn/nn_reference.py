"""References for the hedera.nn.functional tests: PyTorch as ground truth, and NumPy written out.

Everything here is independent of hedera: inputs are NumPy arrays, converted to
torch with hedera's layouts moved to PyTorch's (channels first; weights
``(out, in // groups, *k)``); explicit padding pairs are applied with ``F.pad``
so that asymmetric padding is checked too. The NumPy references are plain loops.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import torch
import torch.nn.functional as TF  # noqa: N812

import hedera as hd

TOL = {"float32": dict(rtol=1e-4, atol=1e-5), "float64": dict(rtol=1e-10, atol=1e-10)}


def to_backend(a, backend: str, dtype: str | None = None):
    """``a`` (NumPy) as an array of ``backend`` (with ``dtype`` if given)."""
    a = np.asarray(a) if dtype is None else np.asarray(a, dtype=dtype)
    return hd.asarray(a, backend=backend)


def assert_close(actual, expected, dtype: str = "float64", **tol):
    got = hd.to_numpy(actual)
    assert got.shape == np.shape(expected), (got.shape, np.shape(expected))
    np.testing.assert_allclose(got, expected, **{**TOL[dtype], **tol})


def torch_first(x: np.ndarray, channels_last: bool) -> torch.Tensor:
    t = torch.from_numpy(np.ascontiguousarray(x))
    return t.movedim(-1, 1) if channels_last else t


def numpy_layout(y: torch.Tensor, channels_last: bool) -> np.ndarray:
    return (y.movedim(1, -1) if channels_last else y).detach().numpy()


def flat_pad(padding) -> list[int]:
    """F.pad's flat list for (low, high) pairs per spatial dimension."""
    return [p for pair in reversed(padding) for p in pair]


def same_pads(sizes, kernel, stride, dilation):
    """TensorFlow's "SAME" padding, written out independently of hedera."""
    pads = []
    for n, k, s, d in zip(sizes, kernel, stride, dilation, strict=False):
        span = d * (k - 1) + 1
        out = math.ceil(n / s)
        total = max((out - 1) * s + span - n, 0)
        pads.append((total // 2, total - total // 2))
    return pads


def torch_conv(x, w, b, stride, pads, dilation, groups, channels_last):
    """hedera's conv semantics computed by torch: explicit pads, weights (*k, I/g, O)."""
    nd = w.ndim - 2
    xt = TF.pad(torch_first(x, channels_last), flat_pad(pads))
    wt = torch.from_numpy(w).permute(nd + 1, nd, *range(nd))
    bt = None if b is None else torch.from_numpy(b)
    fn = (TF.conv1d, TF.conv2d, TF.conv3d)[nd - 1]
    return numpy_layout(fn(xt, wt, bt, stride, 0, dilation, groups), channels_last)


def torch_conv_transpose(x, w, b, stride, pads, output_padding, dilation, groups, channels_last):
    """hedera's transposed conv by torch: the full output cropped by pads, extended by output_padding.

    Weights (*k, O/g, I) as hedera; the positions added past the full output are zeros before the bias.
    """
    nd = w.ndim - 2
    xt = torch_first(x, channels_last)
    wt = torch.from_numpy(w).permute(nd + 1, nd, *range(nd))
    fn = (TF.conv_transpose1d, TF.conv_transpose2d, TF.conv_transpose3d)[nd - 1]
    y = fn(xt, wt, None, stride, 0, 0, groups, dilation)
    index = [slice(None), slice(None)]
    grow = []
    for axis, ((lo, hi), extra) in enumerate(zip(pads, output_padding, strict=False)):
        size = y.shape[axis + 2]
        index.append(slice(lo, size - max(hi - extra, 0)))
        grow.append((0, max(extra - hi, 0)))
    y = TF.pad(y[tuple(index)], flat_pad(grow))
    if b is not None:
        y = y + torch.from_numpy(b).reshape(-1, *([1] * nd))
    return numpy_layout(y, channels_last)


def numpy_conv2d_loops(x, w, stride, pads, dilation, groups):
    """Channels-last 2-d convolution by explicit loops (small inputs only)."""
    x = np.pad(x, [(0, 0), *pads, (0, 0)])
    n, height, width, _c = x.shape
    kh, kw, cg, o = w.shape
    og = o // groups
    sh, sw = stride
    dh, dw = dilation
    oh = (height - dh * (kh - 1) - 1) // sh + 1
    ow = (width - dw * (kw - 1) - 1) // sw + 1
    y = np.zeros((n, oh, ow, o), x.dtype)
    for b, i, j, oc in itertools.product(range(n), range(oh), range(ow), range(o)):
        g = oc // og
        acc = 0.0
        for u, v, ci in itertools.product(range(kh), range(kw), range(cg)):
            acc += x[b, i * sh + u * dh, j * sw + v * dw, g * cg + ci] * w[u, v, ci, oc]
        y[b, i, j, oc] = acc
    return y


def numpy_pool2d_loops(x, window, stride, pads, kind, count_include_pad=False):
    """Channels-last 2-d max/avg pooling by explicit loops (padding excluded from max and from counts)."""
    n, height, width, c = x.shape
    (plo, phi), (qlo, qhi) = pads
    oh = (height + plo + phi - window[0]) // stride[0] + 1
    ow = (width + qlo + qhi - window[1]) // stride[1] + 1
    y = np.zeros((n, oh, ow, c), x.dtype)
    for i, j in itertools.product(range(oh), range(ow)):
        r0, c0 = i * stride[0] - plo, j * stride[1] - qlo
        rows = [r for r in range(r0, r0 + window[0]) if 0 <= r < height]
        cols = [q for q in range(c0, c0 + window[1]) if 0 <= q < width]
        block = x[:, rows][:, :, cols]
        if kind == "max":
            y[:, i, j] = block.max(axis=(1, 2))
        else:
            count = window[0] * window[1] if count_include_pad else len(rows) * len(cols)
            y[:, i, j] = block.sum(axis=(1, 2)) / count
    return y
