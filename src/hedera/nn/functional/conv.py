"""Convolutions: ``conv1d/2d/3d``, their transposes, ``depthwise_conv2d``.

Conventions (the same on every backend; docs/nn.md):

* ``data_format="channels_last"`` (default): inputs ``(batch, *spatial,
  channels)``, as TensorFlow, JAX and hedera's images; ``"channels_first"``:
  ``(batch, channels, *spatial)``, as PyTorch. Exactly one batch axis.
* Weights have one layout whatever the data format:
  ``(*kernel_size, in_channels // groups, out_channels)`` for convolutions (TF
  and JAX "HWIO"), ``(*kernel_size, out_channels // groups, in_channels)`` for
  transposed convolutions (TF's ``conv2d_transpose`` layout). PyTorch's ``(out, in // groups, *k)``
  is ``permute_dims(w, (2, 3, 1, 0))`` away (2-D).
* ``padding``: ``"VALID"`` (none), ``"SAME"`` (output size
  ``ceil(input / stride)``, the odd padding pixel at the end, as TF and JAX),
  an int, or per spatial dimension an int or a ``(low, high)`` pair.
* Output size of a convolution: ``floor((n + low + high - dilation * (k - 1) -
  1) / stride) + 1``.
"""

from __future__ import annotations

from collections.abc import Sequence

import hedera as hd
from hedera import nn_ops as _ops
from hedera.typing import Array

from . import _args

__all__ = [
    "conv1d",
    "conv2d",
    "conv3d",
    "conv_transpose1d",
    "conv_transpose2d",
    "conv_transpose3d",
    "depthwise_conv2d",
]

IntOrSeq = int | Sequence[int]
Padding = str | int | Sequence[int | tuple[int, int]]


def _check_conv_arrays(
    op: str, nd: int, x: Array, weight: Array, bias: Array | None, groups: int, last: bool, transposed: bool
) -> tuple[tuple, tuple, int]:
    """Shapes of ``x`` and ``weight`` after the rank and channel checks; and the output channel count."""
    data_format = "channels_last" if last else "channels_first"
    xs = _args.expect_rank(op, x, nd + 2, _args.layout(nd, last), extra=f" for data_format={data_format!r}")
    kernel_desc = "(*kernel_size, out_channels // groups, in_channels)" if transposed else (
        "(*kernel_size, in_channels // groups, out_channels)")  # fmt: skip
    ws = _args.expect_rank(op, weight, nd + 2, kernel_desc, argname="weight", extra=f" with {nd} kernel axes")
    channels = xs[-1] if last else xs[1]
    if channels is not None and channels % groups:
        raise hd.ShapeError(f"{op}: x has {channels} channels, which groups={groups} does not divide")
    if transposed:
        out_channels = ws[nd] * groups
        if channels is not None and ws[-1] != channels:
            raise hd.ShapeError(
                f"{op}: weight must have shape {kernel_desc} = (*kernel_size, {ws[nd]}, {channels}) "
                f"for x with {channels} channels, got shape {ws}"
            )
    else:
        out_channels = ws[-1]
        if channels is not None and ws[nd] * groups != channels:
            raise hd.ShapeError(
                f"{op}: weight must have shape {kernel_desc} = (*kernel_size, {channels // groups}, "
                f"out_channels) for x with {channels} channels and groups={groups}, got shape {ws}"
            )
        if out_channels % groups:
            raise hd.ShapeError(
                f"{op}: out_channels={out_channels} (weight shape {ws}) is not divisible by groups={groups}"
            )
    _args.vector_param(op, "bias", bias, out_channels)
    _args.same_dtype(op, x, "weight", weight)
    _args.same_dtype(op, x, "bias", bias)
    return xs, ws, out_channels


def _conv(
    op: str,
    nd: int,
    x: Array,
    weight: Array,
    bias: Array | None,
    stride: IntOrSeq,
    padding: Padding,
    dilation: IntOrSeq,
    groups: int,
    data_format: str,
) -> Array:
    last = _args.channels_last(op, data_format)
    groups = _args.positive_int(op, "groups", groups)
    xs, ws, _ = _check_conv_arrays(op, nd, x, weight, bias, groups, last, transposed=False)
    stride = _args.int_tuple(op, "stride", stride, nd)
    dilation = _args.int_tuple(op, "dilation", dilation, nd)
    sizes = xs[1:-1] if last else xs[2:]
    kernel = ws[:nd]
    pads = _args.window_padding(op, padding, sizes, kernel, stride, dilation)
    _args.check_output_size(op, sizes, kernel, stride, pads, dilation)
    return _ops.conv(x, weight, bias, stride, pads, dilation, groups, last)


def conv1d(
    x: Array,
    weight: Array,
    bias: Array | None = None,
    *,
    stride: IntOrSeq = 1,
    padding: Padding = "VALID",
    dilation: IntOrSeq = 1,
    groups: int = 1,
    data_format: str = "channels_last",
) -> Array:
    """1-d convolution (cross-correlation, as every framework computes it).

    Parameters
    ----------
    x : array, shape ``(batch, length, in_channels)`` (or ``(batch, in_channels, length)``)
    weight : array, shape ``(kernel_size, in_channels // groups, out_channels)``
    bias : array, shape ``(out_channels,)``, optional
    stride, dilation : int or sequence of 1 int
    padding : "VALID", "SAME", int, or a sequence of one int or ``(low, high)`` pair
    groups : int
        Input and output channels are split into ``groups`` blocks; block ``j`` of the
        output sees only block ``j`` of the input.
    data_format : {"channels_last", "channels_first"}

    Returns
    -------
    array, shape ``(batch, out_length, out_channels)`` (or channels first)

    Raises
    ------
    ShapeError
        A wrong rank of ``x`` or ``weight``, or channel counts that do not fit.
    InvalidArgumentError
        An unknown ``padding`` or ``data_format``, a non-positive stride...
    """
    return _conv("conv1d", 1, x, weight, bias, stride, padding, dilation, groups, data_format)


def conv2d(
    x: Array,
    weight: Array,
    bias: Array | None = None,
    *,
    stride: IntOrSeq = 1,
    padding: Padding = "VALID",
    dilation: IntOrSeq = 1,
    groups: int = 1,
    data_format: str = "channels_last",
) -> Array:
    """2-d convolution (cross-correlation, as every framework computes it).

    Parameters
    ----------
    x : array, shape ``(batch, height, width, in_channels)`` (or ``(batch, in_channels, height, width)``)
    weight : array, shape ``(kh, kw, in_channels // groups, out_channels)``
    bias : array, shape ``(out_channels,)``, optional
    stride, dilation : int or sequence of 2 ints
    padding : "VALID", "SAME", int, or a sequence of 2 ints or ``(low, high)`` pairs
    groups : int
    data_format : {"channels_last", "channels_first"}

    Returns
    -------
    array, shape ``(batch, out_height, out_width, out_channels)`` (or channels first)

    Examples
    --------
    >>> import numpy as np, hedera as hd
    >>> x = np.ones((1, 5, 5, 3), np.float32)
    >>> w = np.ones((3, 3, 3, 8), np.float32)
    >>> hd.nn.functional.conv2d(x, w, padding="SAME", stride=2).shape
    (1, 3, 3, 8)
    """
    return _conv("conv2d", 2, x, weight, bias, stride, padding, dilation, groups, data_format)


def conv3d(
    x: Array,
    weight: Array,
    bias: Array | None = None,
    *,
    stride: IntOrSeq = 1,
    padding: Padding = "VALID",
    dilation: IntOrSeq = 1,
    groups: int = 1,
    data_format: str = "channels_last",
) -> Array:
    """3-d convolution; as :func:`conv2d` with three spatial axes ``(depth, height, width)``.

    ``weight`` has shape ``(kd, kh, kw, in_channels // groups, out_channels)``.
    """
    return _conv("conv3d", 3, x, weight, bias, stride, padding, dilation, groups, data_format)


def depthwise_conv2d(
    x: Array,
    weight: Array,
    bias: Array | None = None,
    *,
    stride: IntOrSeq = 1,
    padding: Padding = "VALID",
    dilation: IntOrSeq = 1,
    data_format: str = "channels_last",
) -> Array:
    """Depthwise 2-d convolution: each input channel convolved with its own ``multiplier`` filters.

    Parameters
    ----------
    x : array, shape ``(batch, height, width, in_channels)`` (or channels first)
    weight : array, shape ``(kh, kw, in_channels, multiplier)`` (``tf.nn.depthwise_conv2d``'s layout)
    bias : array, shape ``(in_channels * multiplier,)``, optional

    Returns
    -------
    array with ``in_channels * multiplier`` channels; output channel ``c * multiplier + m``
    is input channel ``c`` convolved with ``weight[:, :, c, m]`` (TensorFlow's order).
    It is :func:`conv2d` with ``groups=in_channels`` and the weight reshaped to
    ``(kh, kw, 1, in_channels * multiplier)``.
    """
    last = _args.channels_last("depthwise_conv2d", data_format)
    ws = _args.expect_rank(
        "depthwise_conv2d", weight, 4, "(kh, kw, in_channels, multiplier)", argname="weight"
    )
    xs = _args.expect_rank(
        "depthwise_conv2d", x, 4, _args.layout(2, last), extra=f" for data_format={data_format!r}"
    )
    channels = xs[-1] if last else xs[1]
    if channels is not None and channels != ws[2]:
        raise hd.ShapeError(
            f"depthwise_conv2d: weight must have shape (kh, kw, in_channels, multiplier) = "
            f"(kh, kw, {channels}, multiplier) for x with {channels} channels, got shape {ws}"
        )
    grouped = hd.reshape(weight, (ws[0], ws[1], 1, ws[2] * ws[3]))
    return _conv("depthwise_conv2d", 2, x, grouped, bias, stride, padding, dilation, ws[2], data_format)


def _transpose_padding(
    op: str,
    padding: Padding,
    output_padding: IntOrSeq,
    output_shape: Sequence[int] | None,
    sizes: Sequence[int | None],
    kernel: Sequence[int],
    stride: Sequence[int],
    dilation: Sequence[int],
) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
    """Padding pairs (cropped from the full output) and output padding (added at the end) per dimension."""
    nd = len(kernel)
    spans = [d * (k - 1) + 1 for k, d in zip(kernel, dilation, strict=True)]
    extra = _args.int_tuple(op, "output_padding", output_padding, nd, minimum=0)
    if isinstance(padding, str) and _args.padding_string(op, padding) == "SAME":
        # the adjoint of a "SAME" convolution whose input is `stride` times this one: output n * stride
        pads, base = [], []
        for span, s in zip(spans, stride, strict=True):
            total = max(span - s, 0)
            pads.append((total // 2, total - total // 2))
            base.append(total + s - span)
    else:
        pads = list(_args.window_padding(op, padding, sizes, kernel, stride, dilation))
        base = [0] * nd
    limits = [max(s, d) for s, d in zip(stride, dilation, strict=True)]
    if output_shape is not None:
        if any(extra):
            raise hd.InvalidArgumentError(f"{op}: give output_padding or output_shape, not both")
        target = _args.int_tuple(op, "output_shape", output_shape, nd)
        extra_list = []
        for i, (n, span, s, (lo, hi), b, limit) in enumerate(
            zip(sizes, spans, stride, pads, base, limits, strict=True)
        ):
            smallest = (n - 1) * s + span - lo - hi + b
            if not smallest <= target[i] < smallest + limit:
                raise hd.ShapeError(
                    f"{op}: output_shape={tuple(target)} cannot be reached: spatial dimension {i} of the "
                    f"output must be in [{smallest}, {smallest + limit - 1}] for input size {n}"
                )
            extra_list.append(target[i] - smallest)
        extra = tuple(extra_list)
    elif any(e >= limit for e, limit in zip(extra, limits, strict=True)):
        raise hd.InvalidArgumentError(
            f"{op}: output_padding={extra} must be smaller than max(stride, dilation)={tuple(limits)} "
            f"in each dimension"
        )
    return tuple(pads), tuple(b + e for b, e in zip(base, extra, strict=True))


def _conv_transpose(
    op: str,
    nd: int,
    x: Array,
    weight: Array,
    bias: Array | None,
    stride: IntOrSeq,
    padding: Padding,
    output_padding: IntOrSeq,
    output_shape: Sequence[int] | None,
    dilation: IntOrSeq,
    groups: int,
    data_format: str,
) -> Array:
    last = _args.channels_last(op, data_format)
    groups = _args.positive_int(op, "groups", groups)
    xs, ws, _ = _check_conv_arrays(op, nd, x, weight, bias, groups, last, transposed=True)
    stride = _args.int_tuple(op, "stride", stride, nd)
    dilation = _args.int_tuple(op, "dilation", dilation, nd)
    sizes = xs[1:-1] if last else xs[2:]
    if any(n is None for n in sizes):
        raise hd.InvalidArgumentError(f"{op}: needs static spatial sizes, got {tuple(sizes)}")
    kernel = ws[:nd]
    pads, extra = _transpose_padding(
        op, padding, output_padding, output_shape, sizes, kernel, stride, dilation
    )
    for i, (n, k, s, d, (lo, hi), e) in enumerate(
        zip(sizes, kernel, stride, dilation, pads, extra, strict=True)
    ):
        if (n - 1) * s + d * (k - 1) + 1 - lo - hi + e < 1:
            raise hd.ShapeError(f"{op}: padding {pads[i]} leaves no output along spatial dimension {i}")
    return _ops.conv_transpose(x, weight, bias, stride, pads, extra, dilation, groups, last)


_TRANSPOSE_DOC = """{nd}-d transposed convolution: the adjoint (gradient with respect to x) of ``conv{nd}d``.

    Parameters
    ----------
    x : array, shape ``(batch, {spatial}, in_channels)`` (or channels first)
    weight : array, shape ``({kernel}, out_channels // groups, in_channels)``
        The layout of the convolution this one is the adjoint of (TF's
        ``conv{nd}d_transpose`` layout; PyTorch's ``ConvTranspose{nd}d.weight``
        ``(in_channels, out_channels // groups, {kernel})`` moved accordingly).
    bias : array, shape ``(out_channels,)``, optional
    stride, dilation : int or sequence of {nd} ints
    padding : "VALID", "SAME", int, or a sequence of {nd} ints or ``(low, high)`` pairs
        An int or pair crops that many positions from each side of the full output
        ``(n - 1) * stride + dilation * (k - 1) + 1`` (PyTorch's ``padding``);
        "VALID" crops nothing; "SAME" gives output size ``n * stride`` (TF/Keras).
    output_padding : int or sequence of {nd} ints
        Extra positions added at the end of each spatial dimension (PyTorch's
        meaning), each smaller than ``max(stride, dilation)``.
    output_shape : sequence of {nd} ints, optional
        The spatial output size instead of ``output_padding`` (for a stride > 1 several
        sizes map to one input size; this picks one).
    groups : int
    data_format : {{"channels_last", "channels_first"}}

    Returns
    -------
    array, shape ``(batch, {spatial_out}, out_channels)`` (or channels first)
    """


def conv_transpose1d(
    x: Array,
    weight: Array,
    bias: Array | None = None,
    *,
    stride: IntOrSeq = 1,
    padding: Padding = "VALID",
    output_padding: IntOrSeq = 0,
    output_shape: Sequence[int] | None = None,
    dilation: IntOrSeq = 1,
    groups: int = 1,
    data_format: str = "channels_last",
) -> Array:
    return _conv_transpose(
        "conv_transpose1d", 1, x, weight, bias, stride, padding, output_padding, output_shape, dilation,
        groups, data_format,
    )  # fmt: skip


def conv_transpose2d(
    x: Array,
    weight: Array,
    bias: Array | None = None,
    *,
    stride: IntOrSeq = 1,
    padding: Padding = "VALID",
    output_padding: IntOrSeq = 0,
    output_shape: Sequence[int] | None = None,
    dilation: IntOrSeq = 1,
    groups: int = 1,
    data_format: str = "channels_last",
) -> Array:
    return _conv_transpose(
        "conv_transpose2d", 2, x, weight, bias, stride, padding, output_padding, output_shape, dilation,
        groups, data_format,
    )  # fmt: skip


def conv_transpose3d(
    x: Array,
    weight: Array,
    bias: Array | None = None,
    *,
    stride: IntOrSeq = 1,
    padding: Padding = "VALID",
    output_padding: IntOrSeq = 0,
    output_shape: Sequence[int] | None = None,
    dilation: IntOrSeq = 1,
    groups: int = 1,
    data_format: str = "channels_last",
) -> Array:
    return _conv_transpose(
        "conv_transpose3d", 3, x, weight, bias, stride, padding, output_padding, output_shape, dilation,
        groups, data_format,
    )  # fmt: skip


for _nd, _fn, _spatial, _kernel in (
    (1, conv_transpose1d, "length", "k"),
    (2, conv_transpose2d, "height, width", "kh, kw"),
    (3, conv_transpose3d, "depth, height, width", "kd, kh, kw"),
):
    _fn.__doc__ = _TRANSPOSE_DOC.format(
        nd=_nd,
        spatial=_spatial,
        kernel=_kernel,
        spatial_out=", ".join(f"out_{s}" for s in _spatial.split(", ")),
    )
del _nd, _fn, _spatial, _kernel
