"""Neural-network kernels for the numpy backend (forward passes only: NumPy has no autodiff).

The kernels of :mod:`hedera.nn_ops`, with the same names and signatures in every
backend; arguments arrive normalised from :mod:`hedera.nn.functional`.
Convolutions are an explicit im2col (a strided window view) contracted with
``einsum``; a transposed convolution is the direct convolution of the
zero-dilated input with the flipped, regrouped kernel. Results keep the input's
dtype (NumPy 2 promotion rules: Python scalars do not widen float32).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

try:  # scipy's erf is vectorised; without scipy, math.erf element by element (exact, slower)
    from scipy.special import erf as _erf
except ImportError:  # pragma: no cover - scipy is a test dependency
    _erf_scalar = np.vectorize(math.erf, otypes=[np.float64])

    def _erf(x: np.ndarray) -> np.ndarray:
        return _erf_scalar(x).astype(x.dtype, copy=False)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


# ---- activations ------------------------------------------------------------------------------


def relu(x):
    return np.maximum(x, 0)


def leaky_relu(x, negative_slope):
    return np.where(x >= 0, x, x * negative_slope)


def elu(x, alpha):
    return np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0)))


def selu(x):
    return _SELU_SCALE * np.where(x > 0, x, _SELU_ALPHA * np.expm1(np.minimum(x, 0)))


def gelu(x, approximate):
    if approximate:
        inner = math.sqrt(2.0 / math.pi) * (x + 0.044715 * x**3)
        return 0.5 * x * (1.0 + np.tanh(inner))
    return 0.5 * x * (1.0 + _erf(x * (1.0 / math.sqrt(2.0))))


def softplus(x):
    return np.logaddexp(x, np.zeros((), x.dtype))


def sigmoid(x):
    e = np.exp(-np.abs(x))  # never overflows
    return np.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e)).astype(x.dtype, copy=False)


def log_sigmoid(x):
    return -softplus(-x)


def silu(x):
    return x * sigmoid(x)


def mish(x):
    return x * np.tanh(softplus(x))


def hard_sigmoid(x):
    return np.clip(x + 3.0, 0.0, 6.0) / 6.0


def hard_swish(x):
    return x * hard_sigmoid(x)


def softmax(x, axis):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def log_softmax(x, axis):
    shifted = x - np.max(x, axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


# ---- convolutions ----------------------------------------------------------------------------


def _to_last(x, channels_last):
    return x if channels_last else np.moveaxis(x, 1, -1)


def _from_last(y, channels_last):
    return y if channels_last else np.moveaxis(y, -1, 1)


def _windows(x, window, stride, dilation):
    """Windows of channels-last ``x`` (N, *S, C): shape (N, *out, C, *window), strided and dilated."""
    nd = len(window)
    span = tuple(d * (k - 1) + 1 for k, d in zip(window, dilation, strict=True))
    win = sliding_window_view(x, span, axis=tuple(range(1, nd + 1)))
    strided = tuple(slice(None, None, s) for s in stride)
    dilated = tuple(slice(None, None, d) for d in dilation)
    index = (slice(None), *strided, slice(None), *dilated)
    return win[index]


def _conv_last(x, weight, stride, dilation, groups):
    """Convolution of padded channels-last ``x`` (N, *S, C) with ``weight`` (*k, C // groups, O)."""
    nd = len(stride)
    kernel = weight.shape[:nd]
    out_channels = weight.shape[-1]
    win = _windows(x, kernel, stride, dilation)  # (N, *out, C, *k)
    n, *out, c = win.shape[: nd + 2]
    win = win.reshape(n, *out, groups, c // groups, *kernel)
    w = weight.reshape(*kernel, c // groups, groups, out_channels // groups)
    batch, g, ci, co = 0, 1, 2, 3
    out_axes = list(range(4, 4 + nd))
    k_axes = list(range(4 + nd, 4 + 2 * nd))
    y = np.einsum(
        win,
        [batch, *out_axes, g, ci, *k_axes],
        w,
        [*k_axes, ci, g, co],
        [batch, *out_axes, g, co],
        optimize=True,
    )
    return y.reshape(n, *out, out_channels)


def _add_bias(y, bias):
    return y if bias is None else y + bias


def conv(x, weight, bias, stride, padding, dilation, groups, channels_last):
    x = _to_last(x, channels_last)
    if any(lo or hi for lo, hi in padding):
        x = np.pad(x, [(0, 0), *padding, (0, 0)])
    y = _add_bias(_conv_last(x, weight, stride, dilation, groups), bias)
    return _from_last(y, channels_last)


def transpose_kernel(weight, groups):
    """The direct-convolution kernel (*k, I // groups, O) of a transposed kernel (*k, O // groups, I).

    Channels are regrouped and the spatial axes flipped: a transposed convolution is
    the convolution of the zero-dilated input with this kernel.
    """
    nd = weight.ndim - 2
    *kernel, out_g, in_channels = weight.shape
    w = weight.reshape(*kernel, out_g, groups, in_channels // groups)
    w = np.moveaxis(w, nd, nd + 2)  # (*k, g, I/g, O/g)
    w = np.moveaxis(w, nd, nd + 1)  # (*k, I/g, g, O/g)
    w = w.reshape(*kernel, in_channels // groups, groups * out_g)
    return np.flip(w, axis=tuple(range(nd)))


def _dilate(x, stride):
    """Channels-last ``x`` with ``stride - 1`` zeros inserted between neighbours along each spatial axis."""
    if all(s == 1 for s in stride):
        return x
    n, *size, c = x.shape
    out = np.zeros((n, *((m - 1) * s + 1 for m, s in zip(size, stride, strict=True)), c), x.dtype)
    out[(slice(None), *(slice(None, None, s) for s in stride))] = x
    return out


def _pad_or_crop(x, pads):
    """Pad channels-last ``x``'s spatial axes by ``pads`` (low, high) pairs; negative values crop."""
    crop = tuple(slice(max(-lo, 0), x.shape[i + 1] - max(-hi, 0)) for i, (lo, hi) in enumerate(pads))
    x = x[(slice(None), *crop)]
    grow = [(max(lo, 0), max(hi, 0)) for lo, hi in pads]
    return np.pad(x, [(0, 0), *grow, (0, 0)]) if any(a or b for a, b in grow) else x


def conv_transpose(x, weight, bias, stride, padding, output_padding, dilation, groups, channels_last):
    nd = len(stride)
    kernel = weight.shape[:nd]
    x = _dilate(_to_last(x, channels_last), stride)
    pads = []
    for k, d, (lo, hi), extra in zip(kernel, dilation, padding, output_padding, strict=True):
        span = d * (k - 1) + 1
        pads.append((span - 1 - lo, span - 1 - hi + extra))
    x = _pad_or_crop(x, pads)
    y = _conv_last(x, transpose_kernel(weight, groups), (1,) * nd, dilation, groups)
    return _from_last(_add_bias(y, bias), channels_last)


# ---- pooling ---------------------------------------------------------------------------------


def max_pool(x, window, stride, padding, channels_last):
    x = _to_last(x, channels_last)
    if any(lo or hi for lo, hi in padding):
        x = np.pad(x, [(0, 0), *padding, (0, 0)], constant_values=-np.inf)
    win = _windows(x, window, stride, (1,) * len(window))
    y = np.max(win, axis=tuple(range(-len(window), 0)))
    return _from_last(y, channels_last)


def avg_pool(x, window, stride, padding, count_include_pad, channels_last):
    nd = len(window)
    x = _to_last(x, channels_last)
    padded = any(lo or hi for lo, hi in padding)
    if padded:
        x = np.pad(x, [(0, 0), *padding, (0, 0)])
    axes = tuple(range(-nd, 0))
    total = np.sum(_windows(x, window, stride, (1,) * nd), axis=axes)
    if padded and not count_include_pad:
        size = (x.shape[i + 1] - lo - hi for i, (lo, hi) in enumerate(padding))
        ones = np.pad(np.ones((1, *size, 1), x.dtype), [(0, 0), *padding, (0, 0)])
        count = np.sum(_windows(ones, window, stride, (1,) * nd), axis=axes)
        y = total / count
    else:
        y = total / math.prod(window)
    return _from_last(y.astype(x.dtype, copy=False), channels_last)
