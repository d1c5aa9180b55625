"""Normalisation: ``batch_norm`` (running statistics updated functionally), ``layer_norm``,
``group_norm``, ``rms_norm``.

All compute in the input's dtype with hedera's reductions; the variance used to
normalise is the biased one (divided by ``n``), as every framework does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import hedera as hd
from hedera.typing import Array

from . import _args

__all__ = ["BatchNormOutput", "batch_norm", "group_norm", "layer_norm", "rms_norm"]


class BatchNormOutput(NamedTuple):
    """What :func:`batch_norm` returns: the output and the (updated, in training) running statistics."""

    output: Array
    running_mean: Array | None
    running_var: Array | None


def _bessel(x: Array, shape: tuple, axes: tuple[int, ...]) -> Any:
    """``n / (n - 1)`` for the ``n`` elements per channel (an array if a size is unknown while tracing)."""
    if all(shape[i] is not None for i in axes):
        n = 1
        for i in axes:
            n *= shape[i]
        return n / max(n - 1, 1)
    n = hd.sum(hd.ones_like(x), axis=axes)  # sizes known only at run time (tf.function, say)
    return hd.divide(n, hd.maximum(hd.subtract(n, 1.0), 1.0))


def _channel_shape(ndim: int, last: bool, channels: int) -> tuple[int, ...]:
    """The shape that broadcasts a per-channel vector against an input of ``ndim`` dimensions."""
    return (channels,) if last else (channels, *([1] * (ndim - 2)))


def batch_norm(
    x: Array,
    running_mean: Array | None = None,
    running_var: Array | None = None,
    weight: Array | None = None,
    bias: Array | None = None,
    *,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
    data_format: str = "channels_last",
) -> BatchNormOutput:
    """Batch normalisation over every axis but the channel axis.

    ``y = (x - mean) / sqrt(var + eps) * weight + bias`` per channel, where in
    training ``mean``/``var`` are the batch's statistics (biased variance) and in
    inference the running ones.

    Parameters
    ----------
    x : array, shape ``(batch, ..., channels)`` (``"channels_last"``) or ``(batch, channels, ...)``
    running_mean, running_var : arrays of shape ``(channels,)``, optional
        Required in inference. In training, if given, they are updated
        functionally and returned (PyTorch's rule: ``new = (1 - momentum) * old +
        momentum * batch``, the batch variance unbiased, divided by ``n - 1``;
        Keras's ``momentum`` is ``1 -`` this one).
    weight, bias : arrays of shape ``(channels,)``, optional
        Scale and shift (``gamma``, ``beta``).
    training : bool
    momentum, eps : float
    data_format : {"channels_last", "channels_first"}

    Returns
    -------
    BatchNormOutput
        ``(output, running_mean, running_var)``: the normalised ``x`` (same shape)
        and the running statistics, updated in training (no gradient flows into
        them), passed through in inference, ``None`` if not given.

    Raises
    ------
    ShapeError
        ``x`` has fewer than 2 dimensions, or a statistic/parameter is not ``(channels,)``.
    InvalidArgumentError
        Inference without running statistics; an unknown ``data_format``.
    """
    op = "batch_norm"
    last = _args.channels_last(op, data_format)
    momentum, eps = _args.unit_float(op, "momentum", momentum), _args.eps(op, eps)
    xs = _args.shape_of(x)
    if len(xs) < 2:
        raise hd.ShapeError(
            f"{op}: x must have shape {'(batch, ..., channels)' if last else '(batch, channels, ...)'} "
            f"with at least 2 dimensions, got shape {xs}"
        )
    channels = xs[-1] if last else xs[1]
    for name, value in (("running_mean", running_mean), ("running_var", running_var), ("weight", weight),
                        ("bias", bias)):  # fmt: skip
        _args.vector_param(op, name, value, channels)
    axes = tuple(i for i in range(len(xs)) if i != (len(xs) - 1 if last else 1))
    broadcast = _channel_shape(len(xs), last, channels)
    if training:
        mean = hd.mean(x, axis=axes)
        var = hd.var(x, axis=axes)
        if running_mean is not None:
            new_mean = hd.add(
                hd.multiply(running_mean, 1.0 - momentum), hd.multiply(hd.stop_gradient(mean), momentum)
            )
            running_mean = hd.astype(new_mean, running_mean.dtype)
        if running_var is not None:
            unbiased = hd.multiply(hd.stop_gradient(var), _bessel(x, xs, axes))
            new_var = hd.add(hd.multiply(running_var, 1.0 - momentum), hd.multiply(unbiased, momentum))
            running_var = hd.astype(new_var, running_var.dtype)
    else:
        if running_mean is None or running_var is None:
            raise hd.InvalidArgumentError(
                f"{op}: inference (training=False) needs running_mean and running_var"
            )
        mean, var = running_mean, running_var
    scale = hd.reciprocal(hd.sqrt(hd.add(var, eps)))
    if weight is not None:
        scale = hd.multiply(scale, weight)
    shift = hd.negative(hd.multiply(mean, scale))
    if bias is not None:
        shift = hd.add(shift, bias)
    y = hd.add(hd.multiply(x, hd.reshape(scale, broadcast)), hd.reshape(shift, broadcast))
    return BatchNormOutput(y, running_mean, running_var)


def _normalized_axes(
    op: str, x: Array, normalized_shape: int | Sequence[int]
) -> tuple[tuple[int, ...], tuple]:
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    xs = _args.shape_of(x)
    k = len(shape)
    if (
        k == 0
        or len(xs) < k
        or any(a is not None and a != b for a, b in zip(xs[len(xs) - k :], shape, strict=True))
    ):
        raise hd.ShapeError(
            f"{op}: x must have shape (..., {', '.join(map(str, shape))}) to normalise over its last "
            f"{k} axes (normalized_shape={shape}), got shape {xs}"
        )
    return tuple(range(len(xs) - k, len(xs))), shape


def _check_param(op: str, name: str, value: Array | None, shape: tuple) -> None:
    if value is not None and _args.shape_of(value) != shape:
        raise hd.ShapeError(f"{op}: {name} must have shape {shape}, got shape {_args.shape_of(value)}")


def layer_norm(
    x: Array,
    normalized_shape: int | Sequence[int],
    weight: Array | None = None,
    bias: Array | None = None,
    *,
    eps: float = 1e-5,
) -> Array:
    """Layer normalisation over the last ``len(normalized_shape)`` axes (PyTorch's ``F.layer_norm``).

    Parameters
    ----------
    x : array, shape ``(..., *normalized_shape)``
    normalized_shape : int or sequence of ints
    weight, bias : arrays of shape ``normalized_shape``, optional
    eps : float

    Returns
    -------
    array, the shape of ``x``: ``(x - mean) / sqrt(var + eps) * weight + bias``.
    """
    axes, shape = _normalized_axes("layer_norm", x, normalized_shape)
    eps = _args.eps("layer_norm", eps)
    _check_param("layer_norm", "weight", weight, shape)
    _check_param("layer_norm", "bias", bias, shape)
    fused = hd.nn_ops.layer_norm(x, shape, weight, bias, eps)  # the backend's own kernel, where it has one
    if fused is not None:
        return fused
    mean = hd.mean(x, axis=axes, keepdims=True)
    centered = hd.subtract(x, mean)
    var = hd.mean(hd.square(centered), axis=axes, keepdims=True)
    y = hd.multiply(centered, hd.reciprocal(hd.sqrt(hd.add(var, eps))))
    if weight is not None:
        y = hd.multiply(y, weight)
    return y if bias is None else hd.add(y, bias)


def rms_norm(
    x: Array,
    normalized_shape: int | Sequence[int],
    weight: Array | None = None,
    *,
    eps: float | None = None,
) -> Array:
    """Root-mean-square normalisation over the last ``len(normalized_shape)`` axes (PyTorch's ``F.rms_norm``).

    ``y = x / sqrt(mean(x**2) + eps) * weight``; ``eps`` defaults to the dtype's
    machine epsilon (``hd.finfo(x.dtype).eps``), as PyTorch.
    """
    axes, shape = _normalized_axes("rms_norm", x, normalized_shape)
    if eps is not None:
        eps = _args.eps("rms_norm", eps)
    _check_param("rms_norm", "weight", weight, shape)
    if eps is None:
        eps = float(hd.finfo(x.dtype).eps)
    ms = hd.mean(hd.square(x), axis=axes, keepdims=True)
    y = hd.multiply(x, hd.reciprocal(hd.sqrt(hd.add(ms, eps))))
    return y if weight is None else hd.multiply(y, weight)


def group_norm(
    x: Array,
    num_groups: int,
    weight: Array | None = None,
    bias: Array | None = None,
    *,
    eps: float = 1e-5,
    data_format: str = "channels_last",
) -> Array:
    """Group normalisation: each of ``num_groups`` channel groups normalised over its channels and space.

    Parameters
    ----------
    x : array, shape ``(batch, ..., channels)`` (or ``(batch, channels, ...)``)
    num_groups : int
        Must divide ``channels``; group ``g`` holds channels ``g * channels // num_groups``
        onwards (PyTorch's grouping).
    weight, bias : arrays of shape ``(channels,)``, optional
    eps : float
    data_format : {"channels_last", "channels_first"}

    Returns
    -------
    array, the shape of ``x``.
    """
    op = "group_norm"
    eps = _args.eps(op, eps)
    last = _args.channels_last(op, data_format)
    num_groups = _args.positive_int(op, "num_groups", num_groups)
    xs = _args.shape_of(x)
    if len(xs) < 2:
        raise hd.ShapeError(
            f"{op}: x must have shape {'(batch, ..., channels)' if last else '(batch, channels, ...)'}, "
            f"got shape {xs}"
        )
    channels = xs[-1] if last else xs[1]
    if channels % num_groups:
        raise hd.ShapeError(f"{op}: x has {channels} channels, which num_groups={num_groups} does not divide")
    _args.vector_param(op, "weight", weight, channels)
    _args.vector_param(op, "bias", bias, channels)
    batch = -1 if xs[0] is None else xs[0]
    if last:
        grouped = hd.reshape(x, (batch, *xs[1:-1], num_groups, channels // num_groups))
        axes = (*range(1, len(xs) - 1), len(xs))
    else:
        grouped = hd.reshape(x, (batch, num_groups, channels // num_groups, *xs[2:]))
        axes = tuple(range(2, len(xs) + 1))
    mean = hd.mean(grouped, axis=axes, keepdims=True)
    centered = hd.subtract(grouped, mean)
    var = hd.mean(hd.square(centered), axis=axes, keepdims=True)
    y = hd.reshape(hd.multiply(centered, hd.reciprocal(hd.sqrt(hd.add(var, eps)))), (batch, *xs[1:]))
    broadcast = _channel_shape(len(xs), last, channels)
    if weight is not None:
        y = hd.multiply(y, hd.reshape(weight, broadcast))
    return y if bias is None else hd.add(y, hd.reshape(bias, broadcast))
