"""Neural-network kernels for the jax backend: ``jax.nn`` and ``jax.lax`` convolutions and windows.

The kernels of :mod:`hedera.nn_ops`, with the same names and signatures in every
backend; arguments arrive normalised from :mod:`hedera.nn.functional`.
``lax.conv_general_dilated`` takes either data format and hedera's kernel layout
(``"...IO"``) directly through its dimension numbers, so nothing is transposed.
A transposed convolution is the convolution of the input dilated by the stride
(``lhs_dilation``) with the flipped, regrouped kernel, which keeps ``groups``.
"""

from __future__ import annotations

import functools
import math

import jax
import jax.numpy as jnp
from jax import lax

_SPATIAL = {1: "W", 2: "HW", 3: "DHW"}

# ---- activations ------------------------------------------------------------------------------

relu = jax.nn.relu
selu = jax.nn.selu
silu = jax.nn.silu
mish = jax.nn.mish
softplus = jax.nn.softplus
sigmoid = jax.nn.sigmoid
log_sigmoid = jax.nn.log_sigmoid
hard_sigmoid = jax.nn.hard_sigmoid
hard_swish = jax.nn.hard_swish


def leaky_relu(x, negative_slope):
    return jax.nn.leaky_relu(x, negative_slope)


def elu(x, alpha):
    return jax.nn.elu(x, alpha)


def gelu(x, approximate):
    # jax.nn.gelu defaults to the tanh approximation; hedera passes the choice explicitly
    return jax.nn.gelu(x, approximate=bool(approximate))


def softmax(x, axis):
    return jax.nn.softmax(x, axis=axis)


def log_softmax(x, axis):
    return jax.nn.log_softmax(x, axis=axis)


# ---- convolutions ----------------------------------------------------------------------------


def _dimension_numbers(nd, channels_last):
    spatial = _SPATIAL[nd]
    layout = f"N{spatial}C" if channels_last else f"NC{spatial}"
    return (layout, f"{spatial}IO", layout)


def _add_bias(y, bias, nd, channels_last):
    if bias is None:
        return y
    return y + (bias if channels_last else bias.reshape(-1, *([1] * nd)))


# kernels are jitted with their configuration static: one compilation per configuration and shape
# instead of one per primitive, and a single dispatch per call in eager mode
@functools.partial(jax.jit, static_argnums=(3, 4, 5, 6, 7))
def conv(x, weight, bias, stride, padding, dilation, groups, channels_last):
    nd = len(stride)
    y = lax.conv_general_dilated(
        x,
        weight,
        window_strides=tuple(stride),
        padding=[tuple(p) for p in padding],
        rhs_dilation=tuple(dilation),
        dimension_numbers=_dimension_numbers(nd, channels_last),
        feature_group_count=groups,
    )
    return _add_bias(y, bias, nd, channels_last)


def transpose_kernel(weight, groups):
    """The direct-convolution kernel (*k, I // groups, O) of a transposed kernel (*k, O // groups, I)."""
    nd = weight.ndim - 2
    *kernel, out_g, in_channels = weight.shape
    w = weight.reshape(*kernel, out_g, groups, in_channels // groups)
    w = jnp.moveaxis(w, nd, nd + 2)  # (*k, g, I/g, O/g)
    w = jnp.moveaxis(w, nd, nd + 1)  # (*k, I/g, g, O/g)
    w = w.reshape(*kernel, in_channels // groups, groups * out_g)
    return jnp.flip(w, axis=tuple(range(nd)))


@functools.partial(jax.jit, static_argnums=(3, 4, 5, 6, 7, 8))
def conv_transpose(x, weight, bias, stride, padding, output_padding, dilation, groups, channels_last):
    nd = len(stride)
    kernel = weight.shape[:nd]
    pads = []
    for k, d, (lo, hi), extra in zip(kernel, dilation, padding, output_padding, strict=True):
        span = d * (k - 1) + 1
        pads.append((span - 1 - lo, span - 1 - hi + extra))  # negative values crop
    y = lax.conv_general_dilated(
        x,
        transpose_kernel(weight, groups),
        window_strides=(1,) * nd,
        padding=pads,
        lhs_dilation=tuple(stride),
        rhs_dilation=tuple(dilation),
        dimension_numbers=_dimension_numbers(nd, channels_last),
        feature_group_count=groups,
    )
    return _add_bias(y, bias, nd, channels_last)


# ---- pooling ---------------------------------------------------------------------------------


def _window_args(window, stride, padding, channels_last):
    if channels_last:
        return (1, *window, 1), (1, *stride, 1), [(0, 0), *padding, (0, 0)]
    return (1, 1, *window), (1, 1, *stride), [(0, 0), (0, 0), *padding]


@functools.partial(jax.jit, static_argnums=(1, 2, 3, 4))
def max_pool(x, window, stride, padding, channels_last):
    dims, strides, pads = _window_args(window, stride, padding, channels_last)
    # a Python-scalar identity makes lax pick its differentiable max/sum window primitives
    return lax.reduce_window(x, -math.inf, lax.max, dims, strides, pads)


@functools.partial(jax.jit, static_argnums=(1, 2, 3, 4, 5))
def avg_pool(x, window, stride, padding, count_include_pad, channels_last):
    dims, strides, pads = _window_args(window, stride, padding, channels_last)
    total = lax.reduce_window(x, 0.0, lax.add, dims, strides, pads)
    if count_include_pad or not any(lo or hi for lo, hi in padding):
        return total / jnp.array(math.prod(window), x.dtype)
    spatial = x.shape[1:-1] if channels_last else x.shape[2:]
    ones = jnp.ones((1, *spatial, 1) if channels_last else (1, 1, *spatial), x.dtype)
    return total / lax.reduce_window(ones, 0.0, lax.add, dims, strides, pads)
