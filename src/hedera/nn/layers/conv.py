"""Convolution layers: ``Conv1d``/``Conv2d``/``Conv3d`` and ``ConvTranspose1d``/``2d``/``3d``.

Weights in hedera's layout on every backend (``hd.nn.functional``):
``(*kernel_size, in_channels // groups, out_channels)`` for convolutions and
``(*kernel_size, out_channels // groups, in_channels)`` for transposed ones.
Default ``data_format="channels_last"`` (``(batch, *spatial, channels)``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import hedera as hd
from hedera.helpers import one_of
from hedera.typing import Array

from ..functional import _unchecked as F  # noqa: N812  (torch.nn.functional's customary name)
from ._base import InitLike, Layer, int_tuple, positive_int, resolve_init, torch_default_uniform

__all__ = ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d"]

IntOrSeq = int | Sequence[int]

_SPATIAL = {1: ("length",), 2: ("height", "width"), 3: ("depth", "height", "width")}
_DATA_FORMATS = ("channels_last", "channels_first")


class _ConvNd(Layer):
    nd: int = 2
    transposed: bool = False

    def __init__(
        self,
        in_channels: int | None,
        out_channels: int,
        kernel_size: IntOrSeq,
        stride: IntOrSeq = 1,
        padding: str | IntOrSeq | Sequence[tuple[int, int]] = "VALID",
        dilation: IntOrSeq = 1,
        groups: int = 1,
        bias: bool = True,
        *,
        output_padding: IntOrSeq = 0,
        data_format: str = "channels_last",
        weight_init: InitLike = None,
        bias_init: InitLike = None,
        key: Any = None,
        dtype: Any = None,
        backend: str | None = None,
        device: Any = None,
    ) -> None:
        super().__init__(key=key, dtype=dtype, backend=backend, device=device)
        name = type(self).__name__
        nd = self.nd
        self.in_channels = positive_int(name, "in_channels", in_channels, allow_none=True)
        self.out_channels = positive_int(name, "out_channels", out_channels)
        self.kernel_size = int_tuple(name, "kernel_size", kernel_size, nd)
        self.stride = int_tuple(name, "stride", stride, nd)
        self.dilation = int_tuple(name, "dilation", dilation, nd)
        self.groups = positive_int(name, "groups", groups)
        self.output_padding = int_tuple(name, "output_padding", output_padding, nd, minimum=0)
        if isinstance(padding, str) and padding.upper() not in ("SAME", "VALID"):
            raise hd.InvalidArgumentError(
                f"{name}: unknown padding {padding!r}; expected 'SAME', 'VALID', an int, "
                "or ints / (low, high) pairs"
            )
        self.padding = padding.upper() if isinstance(padding, str) else padding
        self.data_format = one_of(name, "data_format", data_format, _DATA_FORMATS)
        for label, count in (("in_channels", self.in_channels), ("out_channels", self.out_channels)):
            if count is not None and count % self.groups:
                raise hd.InvalidArgumentError(
                    f"{name}: {label}={count} is not divisible by groups={self.groups}"
                )
        self.use_bias = bool(bias)
        self.weight_init = resolve_init(name, "weight_init", weight_init, None)
        self.bias_init = resolve_init(name, "bias_init", bias_init, None)
        if self.in_channels is None:
            self.built = False
        else:
            self._make(self._placement())

    # ---- shapes -----------------------------------------------------------------------------

    @property
    def _last(self) -> bool:
        return self.data_format == "channels_last"

    def _layout(self, channels: Any) -> str:
        spatial = ", ".join(_SPATIAL[self.nd])
        return f"(batch, {spatial}, {channels})" if self._last else f"(batch, {channels}, {spatial})"

    def _weight_shape(self) -> tuple[int, ...]:
        if self.transposed:
            return (*self.kernel_size, self.out_channels // self.groups, self.in_channels)
        return (*self.kernel_size, self.in_channels // self.groups, self.out_channels)

    def _check(self, x: Array) -> None:
        shape = self._check_rank(
            x, self.nd + 2, self._layout(self.in_channels), f" (data_format={self.data_format!r})"
        )
        channels = shape[-1] if self._last else shape[1]
        if channels is not None and self.in_channels is not None and channels != self.in_channels:
            raise self._bad_input(x, self._layout(self.in_channels), f" (data_format={self.data_format!r})")

    # ---- parameters -------------------------------------------------------------------------

    def build(self, x: Array) -> None:
        """Take ``in_channels`` from the first input."""
        shape = self._check_rank(
            x, self.nd + 2, self._layout("in_channels"), f" (data_format={self.data_format!r})"
        )
        channels = shape[-1] if self._last else shape[1]
        if channels is None:
            raise self._bad_input(x, self._layout("in_channels") + " with a known channel count")
        if channels % self.groups:
            raise hd.ShapeError(
                f"{self._name()}: the input's {channels} channels are not divisible by groups={self.groups}"
            )
        self.in_channels = channels
        self._make(self._placement(x))

    def _make(self, where: Any) -> None:
        kw, kb = self._keys(2)
        shape = self._weight_shape()
        fan_in = shape[-2] * math.prod(self.kernel_size)  # PyTorch's, for both kinds (docs: hd.nn.init.fans)
        default = torch_default_uniform(fan_in)
        self.weight = self._create(self.weight_init or default, shape, kw, where)
        if self.use_bias:
            self.bias = self._create(self.bias_init or default, (self.out_channels,), kb, where)
        else:
            self.register_parameter("bias", None)

    def extra_repr(self) -> str:
        text = (
            f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        )
        if self.padding != "VALID":
            text += f", padding={self.padding!r}"
        if any(d != 1 for d in self.dilation):
            text += f", dilation={self.dilation}"
        if self.groups != 1:
            text += f", groups={self.groups}"
        if not self.use_bias:
            text += ", bias=False"
        if self.data_format != "channels_last":
            text += f", data_format={self.data_format!r}"
        return text


class _Conv(_ConvNd):
    def forward(self, x: Array) -> Array:
        self._check(x)
        fn = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[self.nd]
        return fn(
            x, self.weight, self.bias, stride=self.stride, padding=self.padding, dilation=self.dilation,
            groups=self.groups, data_format=self.data_format,
        )  # fmt: skip


class _ConvTranspose(_ConvNd):
    transposed = True

    def forward(self, x: Array, output_shape: Sequence[int] | None = None) -> Array:
        """The transposed convolution; ``output_shape`` (spatial sizes) picks one of the possible sizes."""
        self._check(x)
        fn = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}[self.nd]
        return fn(
            x, self.weight, self.bias, stride=self.stride, padding=self.padding,
            output_padding=0 if output_shape is not None else self.output_padding, output_shape=output_shape,
            dilation=self.dilation, groups=self.groups, data_format=self.data_format,
        )  # fmt: skip


_DOC = """{nd}-d {kind} layer (``hd.nn.functional.{fn}``).

Parameters
----------
in_channels : int or None
    Input channels; ``None`` to take them from the first input.
out_channels : int
kernel_size, stride, dilation : int or sequence of {nd} ints
padding : "VALID" (default), "SAME", an int, or {nd} ints or ``(low, high)`` pairs
groups : int
    Divides both channel counts; each group of outputs sees one group of inputs.
bias : bool{extra}
data_format : {{"channels_last", "channels_first"}}
    ``(batch, {spatial}, channels)`` (default) or ``(batch, channels, {spatial})``.
weight_init, bias_init : initializer or name, optional
    Default PyTorch's: ``U(-1/sqrt(fan_in), 1/sqrt(fan_in))`` with
    ``fan_in = {fan_in} * prod(kernel_size)``.
key, dtype, backend, device
    See :class:`hedera.nn.layers.Layer`.

Attributes
----------
weight : array, shape ``{weight}``
bias : array, shape ``(out_channels,)``, or None
"""


_OUTPUT_PADDING_DOC = (
    "\noutput_padding : int or sequence of ints\n    Added to one side of the output (see the functional op)."
)


def _doc(nd: int, transposed: bool) -> str:
    kernel = ", ".join(f"k{a[0]}" for a in _SPATIAL[nd]) if nd > 1 else "kernel_size"
    return _DOC.format(
        nd=nd,
        kind="transposed convolution" if transposed else "convolution",
        fn=f"conv_transpose{nd}d" if transposed else f"conv{nd}d",
        spatial=", ".join(_SPATIAL[nd]),
        extra=_OUTPUT_PADDING_DOC if transposed else "",
        fan_in="out_channels // groups" if transposed else "in_channels // groups",
        weight=f"({kernel}, out_channels // groups, in_channels)" if transposed
        else f"({kernel}, in_channels // groups, out_channels)",
    )  # fmt: skip


class Conv1d(_Conv):
    __doc__ = _doc(1, False)
    nd = 1


class Conv2d(_Conv):
    __doc__ = _doc(2, False)
    nd = 2


class Conv3d(_Conv):
    __doc__ = _doc(3, False)
    nd = 3


class ConvTranspose1d(_ConvTranspose):
    __doc__ = _doc(1, True)
    nd = 1


class ConvTranspose2d(_ConvTranspose):
    __doc__ = _doc(2, True)
    nd = 2


class ConvTranspose3d(_ConvTranspose):
    __doc__ = _doc(3, True)
    nd = 3
