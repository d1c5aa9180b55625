"""Neural-network kernels for the tensorflow backend: ``tf.nn`` with hedera's layouts.

The kernels of :mod:`hedera.nn_ops`, with the same names and signatures in every
backend; arguments arrive normalised from :mod:`hedera.nn.functional`. What
TensorFlow's CPU kernels lack is worked around here, exactly:

* channels-first convolution and pooling (CPU kernels are channels-last only):
  transposed to channels-last and back;
* explicit padding: ``tf.pad`` first (``-inf`` for max pooling), then ``"VALID"``;
* stride together with dilation (refused by ``tf.nn.convolution``): dilated
  convolution at stride 1, then every ``stride``-th output;
* dilation (whose CPU gradient kernels are missing): ``tf.nn.convolution``,
  which dilates through space-to-batch;
* a strided axis with a single output (where the oneDNN float32 kernel reads past the input):
  the input cropped to the window, and stride 1 on that axis;
* ``groups`` (no CPU gradients, no 3-D kernel): one convolution per group,
  concatenated, except depthwise 2-D convolutions, which use
  ``tf.nn.depthwise_conv2d``;
* transposed convolutions with ``groups`` or dilation: the convolution of the
  zero-dilated input with the flipped, regrouped kernel.

The explicit ``conv1d``/``conv2d``/``conv3d`` and pooling ops are called with an
explicit ``data_format``: TensorFlow's eager gradient of the generic ones fails
when it is left unset.
"""

from __future__ import annotations

import math

import tensorflow as tf

_FORMAT = {1: "NWC", 2: "NHWC", 3: "NDHWC"}
_CONV = {1: tf.nn.conv1d, 2: tf.nn.conv2d, 3: tf.nn.conv3d}
_CONV_T = {1: tf.nn.conv1d_transpose, 2: tf.nn.conv2d_transpose, 3: tf.nn.conv3d_transpose}
_MAX_POOL = {1: tf.nn.max_pool1d, 2: tf.nn.max_pool2d, 3: tf.nn.max_pool3d}
_AVG_POOL = {1: tf.nn.avg_pool1d, 2: tf.nn.avg_pool2d, 3: tf.nn.avg_pool3d}

# ---- activations ------------------------------------------------------------------------------

relu = tf.nn.relu
selu = tf.nn.selu
silu = tf.nn.silu
softplus = tf.math.softplus
sigmoid = tf.math.sigmoid
log_sigmoid = tf.math.log_sigmoid


def leaky_relu(x, negative_slope):
    if x.dtype == tf.float64:  # the op's alpha attribute is a float32: inexact slopes in float64
        return tf.where(x >= 0, x, x * tf.constant(negative_slope, x.dtype))
    return tf.nn.leaky_relu(x, alpha=negative_slope)


def elu(x, alpha):
    if alpha == 1.0:
        return tf.nn.elu(x)
    # tf.nn.elu has no alpha; expm1 of the clamped value keeps the untaken branch's gradient finite
    return tf.where(x > 0, x, alpha * tf.math.expm1(tf.minimum(x, tf.zeros((), x.dtype))))


def gelu(x, approximate):
    # tf.nn.gelu is float32-accurate only (5e-9 off in float64, both forms); written out instead
    if approximate:
        inner = tf.constant(math.sqrt(2.0 / math.pi), x.dtype) * (x + tf.constant(0.044715, x.dtype) * x**3)
        return 0.5 * x * (1.0 + tf.math.tanh(inner))
    return 0.5 * x * tf.math.erfc(x * tf.constant(-math.sqrt(0.5), x.dtype))


def mish(x):
    # no tf.nn.mish
    return x * tf.math.tanh(tf.math.softplus(x))


def hard_sigmoid(x):
    # as torch and jax: relu6(x + 3) / 6 (Keras 2's 0.2 x + 0.5 differs)
    return tf.nn.relu6(x + 3.0) / 6.0


def hard_swish(x):
    return x * (tf.nn.relu6(x + 3.0) / 6.0)


def softmax(x, axis):
    return tf.nn.softmax(x, axis=axis)


def log_softmax(x, axis):
    return tf.nn.log_softmax(x, axis=axis)


# ---- layout helpers ---------------------------------------------------------------------------


def _to_last(x, channels_last):
    if channels_last:
        return x
    rank = x.shape.rank
    return tf.transpose(x, [0, *range(2, rank), 1])


def _from_last(y, channels_last):
    if channels_last:
        return y
    rank = y.shape.rank
    return tf.transpose(y, [0, rank - 1, *range(1, rank - 1)])


def _pad(x, padding, value=0):
    if not any(lo or hi for lo, hi in padding):
        return x
    return tf.pad(x, [[0, 0], *([lo, hi] for lo, hi in padding), [0, 0]], constant_values=value)


def _add_bias(y, bias):
    return y if bias is None else y + bias


# ---- convolutions ----------------------------------------------------------------------------


def _drop_idle_strides(x, w, stride, dilation):
    """``x`` cropped to the window and stride 1 on every spatial axis with a single output.

    Such a stride moves nothing, and TensorFlow's oneDNN float32 kernel (2-D and 3-D, one input
    channel, batch > 1) reads past the input there: every sample's output but the first is garbage. The
    crop drops only elements no window reaches, so the result is the same convolution. Axes of
    unknown (traced) size are left as they are.
    """
    crop, new_stride = [], []
    for axis, (s, k, d) in enumerate(zip(stride, w.shape[:-2], dilation, strict=True), start=1):
        n, span = x.shape[axis], d * (k - 1) + 1
        single = s > 1 and n is not None and n - span < s
        crop.append(slice(0, span) if single else slice(None))
        new_stride.append(1 if single else s)
    if new_stride == list(stride):
        return x, stride
    return x[(slice(None), *crop)], tuple(new_stride)


def _conv_valid(x, w, stride, dilation, groups):
    """Unpadded convolution of channels-last ``x`` with ``w`` (*k, C // groups, O)."""
    nd = len(stride)
    x, stride = _drop_idle_strides(x, w, stride, dilation)
    if any(d > 1 for d in dilation) and any(s > 1 for s in stride):
        y = _conv_valid(x, w, (1,) * nd, dilation, groups)
        return y[(slice(None), *(slice(None, None, s) for s in stride))]
    in_channels = x.shape[-1]
    if groups == 1:
        if any(d > 1 for d in dilation):  # space-to-batch: differentiable on CPU
            return tf.nn.convolution(x, w, strides=stride, padding="VALID", dilations=dilation)
        return _CONV[nd](x, w, [1, *stride, 1], "VALID", data_format=_FORMAT[nd])
    if nd == 2 and groups == in_channels and stride[0] == stride[1]:
        multiplier = w.shape[-1] // in_channels
        filters = tf.reshape(w, (*w.shape[:2], in_channels, multiplier))
        return tf.nn.depthwise_conv2d(
            x, filters, [1, stride[0], stride[1], 1], "VALID", dilations=list(dilation)
        )
    xs = tf.split(x, groups, axis=-1)
    ws = tf.split(w, groups, axis=-1)
    return tf.concat([_conv_valid(xi, wi, stride, dilation, 1) for xi, wi in zip(xs, ws, strict=True)], -1)


def _is_same_padding(x, weight, stride, padding):
    """Whether the (low, high) pairs are TensorFlow's own ``"SAME"`` padding of channels-last ``x``
    (static spatial sizes, no dilation, no idle stride): the kernel pads it itself, without a
    ``tf.pad`` (a copy of the input, and a slice in the gradient) in front."""
    sizes = x.shape[1:-1]
    if None in sizes:
        return False
    for n, k, s, (lo, hi) in zip(sizes, weight.shape[:-2], stride, padding, strict=True):
        if s > 1 and n <= s:  # a single output: _conv_valid drops the stride (_drop_idle_strides)
            return False
        total = max((-(-n // s) - 1) * s + k - n, 0)
        if (lo, hi) != (total // 2, total - total // 2):
            return False
    return True


def conv(x, weight, bias, stride, padding, dilation, groups, channels_last):
    x = _to_last(x, channels_last)
    nd = len(stride)
    if groups == 1 and all(d == 1 for d in dilation) and _is_same_padding(x, weight, stride, padding):
        y = _CONV[nd](x, weight, [1, *stride, 1], "SAME", data_format=_FORMAT[nd])
    else:
        y = _conv_valid(_pad(x, padding), weight, stride, dilation, groups)
    return _from_last(_add_bias(y, bias), channels_last)


def transpose_kernel(weight, groups):
    """The direct-convolution kernel (*k, I // groups, O) of a transposed kernel (*k, O // groups, I)."""
    nd = weight.shape.rank - 2
    *kernel, out_g, in_channels = weight.shape
    w = tf.reshape(weight, (*kernel, out_g, groups, in_channels // groups))
    w = tf.transpose(w, [*range(nd), nd + 2, nd + 1, nd])  # (*k, I/g, g, O/g)
    w = tf.reshape(w, (*kernel, in_channels // groups, groups * out_g))
    return tf.reverse(w, axis=list(range(nd)))


def _dilate(x, stride):
    """Channels-last ``x`` with ``stride - 1`` zeros between neighbours along each spatial axis."""
    for axis, s in enumerate(stride, start=1):
        if s == 1:
            continue
        size = x.shape[axis]
        x = tf.expand_dims(x, axis + 1)
        pads = [[0, 0]] * x.shape.rank
        pads[axis + 1] = [0, s - 1]
        x = tf.pad(x, pads)
        shape = [-1 if i == 0 else d for i, d in enumerate(x.shape.as_list())]
        x = tf.reshape(x, [*shape[:axis], size * s, *shape[axis + 2 :]])
        x = x[(slice(None),) * axis + (slice(0, (size - 1) * s + 1),)]
    return x


def _pad_or_crop(x, pads):
    """Pad channels-last ``x``'s spatial axes by (low, high) pairs; negative values crop."""
    crop = tuple(slice(max(-lo, 0), x.shape[i + 1] - max(-hi, 0)) for i, (lo, hi) in enumerate(pads))
    x = x[(slice(None), *crop)]
    return _pad(x, [(max(lo, 0), max(hi, 0)) for lo, hi in pads])


def conv_transpose(x, weight, bias, stride, padding, output_padding, dilation, groups, channels_last):
    nd = len(stride)
    kernel = weight.shape[:nd]
    x = _to_last(x, channels_last)
    if groups == 1 and all(d == 1 for d in dilation):
        # TensorFlow's own kernel, full ("VALID") output, then cropped/padded to hedera's padding
        size = [(n - 1) * s + k for n, s, k in zip(x.shape[1:-1], stride, kernel, strict=True)]
        output_shape = tf.concat([tf.shape(x)[:1], tf.constant([*size, weight.shape[-2]])], 0)
        y = _CONV_T[nd](x, weight, output_shape, [1, *stride, 1], "VALID", data_format=_FORMAT[nd])
        y = _pad_or_crop(y, [(-lo, op - hi) for (lo, hi), op in zip(padding, output_padding, strict=True)])
    else:
        pads = []
        for k, d, (lo, hi), extra in zip(kernel, dilation, padding, output_padding, strict=True):
            span = d * (k - 1) + 1
            pads.append((span - 1 - lo, span - 1 - hi + extra))
        x = _pad_or_crop(_dilate(x, stride), pads)
        y = _conv_valid(x, transpose_kernel(weight, groups), (1,) * nd, dilation, groups)
    return _from_last(_add_bias(y, bias), channels_last)


# ---- pooling ---------------------------------------------------------------------------------


def _pool(pools, x, window, stride):
    """Unpadded pooling of channels-last ``x`` with the 1/2/3-d ops in ``pools``.

    TensorFlow's 3-d pooling has no float64 kernel: a box pool is separable, so it is
    pooled over (height, width) with the 2-d op, then over depth with the 1-d op.
    """
    nd = len(window)
    if nd == 3 and x.dtype == tf.float64:
        _, depth, height, width, channels = x.shape
        planes = tf.reshape(x, (-1, height, width, channels))
        planes = pools[2](planes, list(window[1:]), list(stride[1:]), "VALID", data_format="NHWC")
        _, oh, ow, _ = planes.shape
        lines = tf.reshape(planes, (-1, depth, oh * ow * channels))
        lines = pools[1](lines, [window[0]], [stride[0]], "VALID", data_format="NWC")
        return tf.reshape(lines, (-1, lines.shape[1], oh, ow, channels))
    return pools[nd](x, list(window), list(stride), "VALID", data_format=_FORMAT[nd])


def max_pool(x, window, stride, padding, channels_last):
    x = _pad(_to_last(x, channels_last), padding, value=-math.inf)
    return _from_last(_pool(_MAX_POOL, x, window, stride), channels_last)


def avg_pool(x, window, stride, padding, count_include_pad, channels_last):
    x = _to_last(x, channels_last)
    size = x.shape[1:-1]
    y = _pool(_AVG_POOL, _pad(x, padding), window, stride)
    if not count_include_pad and any(lo or hi for lo, hi in padding):
        ones = _pad(tf.ones((1, *size, 1), x.dtype), padding)
        y = y / _pool(_AVG_POOL, ones, window, stride)
    return _from_last(y, channels_last)


def gather_classes(x, targets):
    # tf.gather with batch_dims: one op (its gradient one scatter), where take_along_axis builds
    # the index grid of gather_nd out of about forty ops inside a tf.function
    if not isinstance(targets, tf.Tensor) or targets.dtype not in (tf.int32, tf.int64):
        return None
    return tf.gather(x, targets, batch_dims=targets.shape.rank)


_XENT_DTYPES = frozenset({tf.float16, tf.bfloat16, tf.float32, tf.float64})


def softmax_cross_entropy(logits, targets):
    # one SparseSoftmaxCrossEntropyWithLogits, as Keras' loss: the kernel returns the gradient
    # (softmax minus one-hot) with the loss, where log_softmax and a gather make about sixty ops
    # forward and backward inside a tf.function (the gather's gradient alone some fifty)
    if (
        not isinstance(targets, tf.Tensor)
        or targets.dtype not in (tf.int32, tf.int64)
        or logits.dtype not in _XENT_DTYPES
        or not logits.shape.rank  # unknown, or a 0-d array
        or not logits.shape[-1]  # no classes (or unknown): the op would read label 0 out of range
    ):
        return None
    return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=targets, logits=logits)
