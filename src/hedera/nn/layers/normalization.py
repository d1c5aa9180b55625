"""Normalisation layers: ``BatchNorm``, ``LayerNorm``, ``GroupNorm``, ``RMSNorm``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import hedera as hd
from hedera.helpers import one_of
from hedera.typing import Array

from .. import init as _init
from ..functional import _unchecked as F  # noqa: N812  (torch.nn.functional's customary name)
from ._base import Layer, finite_float, positive_int, shape_of

__all__ = ["BatchNorm", "GroupNorm", "LayerNorm", "RMSNorm"]

_DATA_FORMATS = ("channels_last", "channels_first")


def _data_format(layer: str, value: str) -> str:
    return one_of(layer, "data_format", value, _DATA_FORMATS)


class BatchNorm(Layer):
    """Batch normalisation over every axis but the channel axis, for inputs of any rank >= 2.

    Training mode normalises with the batch's statistics and updates the running
    ones (``new = (1 - momentum) * old + momentum * batch``, the batch variance
    unbiased: PyTorch's rule); evaluation mode uses the running statistics.
    PyTorch's ``BatchNorm1d``/``2d``/``3d`` in one layer.

    Parameters
    ----------
    num_features : int or None
        The channel count; ``None`` to take it from the first input.
    momentum : float
        PyTorch's momentum (Keras' is ``1 -`` this one).
    eps : float
    affine : bool
        Learn a per-channel scale ``weight`` (ones) and shift ``bias`` (zeros).
    track_running_stats : bool
        Keep the running statistics (buffers ``running_mean`` zeros and
        ``running_var`` ones); without them, both modes use the batch's.
    data_format : {"channels_last", "channels_first"}
        The channel axis: last (default) or 1.

    Shapes: input ``(batch, ..., channels)`` (or ``(batch, channels, ...)``), output the same.
    """

    def __init__(
        self,
        num_features: int | None = None,
        *,
        momentum: float = 0.1,
        eps: float = 1e-5,
        affine: bool = True,
        track_running_stats: bool = True,
        data_format: str = "channels_last",
        dtype: Any = None,
        backend: str | None = None,
        device: Any = None,
    ) -> None:
        super().__init__(dtype=dtype, backend=backend, device=device)
        self.num_features = positive_int("BatchNorm", "num_features", num_features, allow_none=True)
        self.momentum = finite_float("BatchNorm", "momentum", momentum, minimum=0.0, maximum=1.0)
        self.eps = finite_float("BatchNorm", "eps", eps, minimum=0.0)
        self.affine = bool(affine)
        self.track_running_stats = bool(track_running_stats)
        self.data_format = _data_format("BatchNorm", data_format)
        if self.num_features is None:
            self.built = False
        else:
            self._make(self._placement())

    def _channels(self, x: Array) -> int | None:
        shape = shape_of(x)
        if len(shape) < 2:
            raise self._bad_input(x, self._layout(), " (at least 2 dimensions)")
        return shape[-1] if self.data_format == "channels_last" else shape[1]

    def _layout(self) -> str:
        c = self.num_features if self.num_features is not None else "channels"
        return f"(batch, ..., {c})" if self.data_format == "channels_last" else f"(batch, {c}, ...)"

    def build(self, x: Array) -> None:
        channels = self._channels(x)
        if channels is None:
            raise self._bad_input(x, self._layout(), " with a known channel count")
        self.num_features = channels
        self._make(self._placement(x))

    def _make(self, where: Any) -> None:
        n = (self.num_features,)
        if self.affine:
            self.weight = self._create(_init.ones, n, None, where)
            self.bias = self._create(_init.zeros, n, None, where)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if self.track_running_stats:
            self.register_buffer("running_mean", self._create(_init.zeros, n, None, where))
            self.register_buffer("running_var", self._create(_init.ones, n, None, where))

    def forward(self, x: Array) -> Array:
        channels = self._channels(x)
        if channels is not None and channels != self.num_features:
            raise self._bad_input(x, self._layout(), f" (data_format={self.data_format!r})")
        track = self.track_running_stats
        out, mean, var = F.batch_norm(
            x,
            self.running_mean if track else None,
            self.running_var if track else None,
            self.weight,
            self.bias,
            training=self.training or not track,
            momentum=self.momentum,
            eps=self.eps,
            data_format=self.data_format,
        )
        if self.training and track:
            self.running_mean = mean
            self.running_var = var
        return out

    def extra_repr(self) -> str:
        text = f"{self.num_features}, momentum={self.momentum}, eps={self.eps}"
        if self.data_format != "channels_last":
            text += f", data_format={self.data_format!r}"
        return text


def _normalized_shape(layer: str, value: int | Sequence[int]) -> tuple[int, ...]:
    items = (value,) if isinstance(value, int) else tuple(value)
    if not items or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in items):
        raise hd.InvalidArgumentError(f"{layer}: normalized_shape must be positive ints, got {value!r}")
    return items


class LayerNorm(Layer):
    """Layer normalisation over the last ``len(normalized_shape)`` axes (``torch.nn.LayerNorm``).

    Parameters
    ----------
    normalized_shape : int or sequence of ints
        The trailing shape normalised over.
    eps : float
    elementwise_affine : bool
        Learn ``weight`` (ones) and ``bias`` (zeros) of shape ``normalized_shape``.
    bias : bool
        With ``elementwise_affine``, whether to learn the bias.

    Shapes: input ``(..., *normalized_shape)``, output the same.
    """

    def __init__(
        self,
        normalized_shape: int | Sequence[int],
        *,
        eps: float = 1e-5,
        elementwise_affine: bool = True,
        bias: bool = True,
        dtype: Any = None,
        backend: str | None = None,
        device: Any = None,
    ) -> None:
        super().__init__(dtype=dtype, backend=backend, device=device)
        self.normalized_shape = _normalized_shape("LayerNorm", normalized_shape)
        self.eps = finite_float("LayerNorm", "eps", eps, minimum=0.0)
        self.elementwise_affine = bool(elementwise_affine)
        where = self._placement()
        if self.elementwise_affine:
            self.weight = self._create(_init.ones, self.normalized_shape, None, where)
        else:
            self.register_parameter("weight", None)
        if self.elementwise_affine and bias:
            self.bias = self._create(_init.zeros, self.normalized_shape, None, where)
        else:
            self.register_parameter("bias", None)

    def forward(self, x: Array) -> Array:
        n = len(self.normalized_shape)
        shape = shape_of(x)
        if len(shape) < n or any(
            a is not None and a != b for a, b in zip(shape[-n:], self.normalized_shape, strict=True)
        ):
            raise self._bad_input(x, f"(..., {', '.join(map(str, self.normalized_shape))})")
        return F.layer_norm(x, self.normalized_shape, self.weight, self.bias, eps=self.eps)

    def extra_repr(self) -> str:
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


class RMSNorm(Layer):
    """Root-mean-square normalisation over the last ``len(normalized_shape)`` axes (``torch.nn.RMSNorm``).

    ``y = x / sqrt(mean(x**2) + eps) * weight``; ``eps=None`` is the dtype's machine epsilon.
    """

    def __init__(
        self,
        normalized_shape: int | Sequence[int],
        *,
        eps: float | None = None,
        elementwise_affine: bool = True,
        dtype: Any = None,
        backend: str | None = None,
        device: Any = None,
    ) -> None:
        super().__init__(dtype=dtype, backend=backend, device=device)
        self.normalized_shape = _normalized_shape("RMSNorm", normalized_shape)
        self.eps = finite_float("RMSNorm", "eps", eps, minimum=0.0, allow_none=True)
        self.elementwise_affine = bool(elementwise_affine)
        if self.elementwise_affine:
            self.weight = self._create(_init.ones, self.normalized_shape, None, self._placement())
        else:
            self.register_parameter("weight", None)

    def forward(self, x: Array) -> Array:
        n = len(self.normalized_shape)
        shape = shape_of(x)
        if len(shape) < n or any(
            a is not None and a != b for a, b in zip(shape[-n:], self.normalized_shape, strict=True)
        ):
            raise self._bad_input(x, f"(..., {', '.join(map(str, self.normalized_shape))})")
        return F.rms_norm(x, self.normalized_shape, self.weight, eps=self.eps)

    def extra_repr(self) -> str:
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


class GroupNorm(Layer):
    """Group normalisation (``torch.nn.GroupNorm``): channels in ``num_groups`` groups, each normalised
    over its channels and the spatial axes.

    Parameters
    ----------
    num_groups : int
        Divides ``num_channels``.
    num_channels : int
    eps : float
    affine : bool
        Learn per-channel ``weight`` (ones) and ``bias`` (zeros).
    data_format : {"channels_last", "channels_first"}

    Shapes: input ``(batch, ..., num_channels)`` (or ``(batch, num_channels, ...)``), output the same.
    """

    def __init__(
        self,
        num_groups: int,
        num_channels: int,
        *,
        eps: float = 1e-5,
        affine: bool = True,
        data_format: str = "channels_last",
        dtype: Any = None,
        backend: str | None = None,
        device: Any = None,
    ) -> None:
        super().__init__(dtype=dtype, backend=backend, device=device)
        self.num_groups = positive_int("GroupNorm", "num_groups", num_groups)
        self.num_channels = positive_int("GroupNorm", "num_channels", num_channels)
        if self.num_channels % self.num_groups:
            raise hd.InvalidArgumentError(
                f"GroupNorm: num_channels={num_channels} is not divisible by num_groups={num_groups}"
            )
        self.eps = finite_float("GroupNorm", "eps", eps, minimum=0.0)
        self.affine = bool(affine)
        self.data_format = _data_format("GroupNorm", data_format)
        where = self._placement()
        if self.affine:
            self.weight = self._create(_init.ones, (self.num_channels,), None, where)
            self.bias = self._create(_init.zeros, (self.num_channels,), None, where)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

    def forward(self, x: Array) -> Array:
        shape = shape_of(x)
        last = self.data_format == "channels_last"
        layout = f"(batch, ..., {self.num_channels})" if last else f"(batch, {self.num_channels}, ...)"
        channels = None if len(shape) < 2 else (shape[-1] if last else shape[1])
        if len(shape) < 2 or (channels is not None and channels != self.num_channels):
            raise self._bad_input(x, layout, f" (data_format={self.data_format!r})")
        return F.group_norm(
            x, self.num_groups, self.weight, self.bias, eps=self.eps, data_format=self.data_format
        )

    def extra_repr(self) -> str:
        return f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}"
