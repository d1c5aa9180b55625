"""Pooling layers: max and average pooling in 1-d, 2-d and 3-d, and adaptive average pooling.

Thin modules over ``hd.nn.functional``'s pooling (which checks the arguments and
names the op in its errors); ``data_format="channels_last"`` by default.
"""

from __future__ import annotations

from collections.abc import Sequence

import hedera as hd
from hedera.helpers import one_of
from hedera.typing import Array

from ..functional import _unchecked as F  # noqa: N812  (torch.nn.functional's customary name)
from ..module import Module
from ._base import int_tuple, shape_of

__all__ = [
    "AdaptiveAvgPool1d",
    "AdaptiveAvgPool2d",
    "AdaptiveAvgPool3d",
    "AvgPool1d",
    "AvgPool2d",
    "AvgPool3d",
    "MaxPool1d",
    "MaxPool2d",
    "MaxPool3d",
]

IntOrSeq = int | Sequence[int]
_SPATIAL = {1: "length", 2: "height, width", 3: "depth, height, width"}


class _Pool(Module):
    nd: int = 2
    kind: str = "max"

    def __init__(
        self,
        kernel_size: IntOrSeq,
        stride: IntOrSeq | None = None,
        padding: str | IntOrSeq = "VALID",
        *,
        count_include_pad: bool = False,
        data_format: str = "channels_last",
    ) -> None:
        super().__init__()
        if isinstance(padding, str) and padding.upper() not in ("SAME", "VALID"):
            raise hd.InvalidArgumentError(
                f"{type(self).__name__}: unknown padding {padding!r}; "
                "expected 'SAME', 'VALID', an int or ints"
            )
        one_of(type(self).__name__, "data_format", data_format, ("channels_last", "channels_first"))
        name = type(self).__name__
        int_tuple(name, "kernel_size", kernel_size, self.nd)
        if stride is not None:
            int_tuple(name, "stride", stride, self.nd)
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.count_include_pad = bool(count_include_pad)
        self.data_format = data_format

    def forward(self, x: Array) -> Array:
        if len(shape_of(x)) != self.nd + 2:
            layout = (
                f"(batch, {_SPATIAL[self.nd]}, channels)"
                if self.data_format == "channels_last"
                else f"(batch, channels, {_SPATIAL[self.nd]})"
            )
            raise hd.ShapeError(
                f"{type(self).__name__}({self.extra_repr()}): expected input of shape {layout} "
                f"(data_format={self.data_format!r}), got shape {shape_of(x)}"
            )
        if self.kind == "max":
            fn = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}[self.nd]
            return fn(x, self.kernel_size, self.stride, self.padding, data_format=self.data_format)
        fn = {1: F.avg_pool1d, 2: F.avg_pool2d, 3: F.avg_pool3d}[self.nd]
        return fn(
            x, self.kernel_size, self.stride, self.padding, count_include_pad=self.count_include_pad,
            data_format=self.data_format,
        )  # fmt: skip

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding!r}"


_DOC = """{kind} pooling over {nd}-d windows (``hd.nn.functional.{fn}``).

Parameters
----------
kernel_size : int or sequence of {nd} ints
stride : int or sequence of {nd} ints, optional
    Default ``kernel_size``.
padding : "VALID" (default), "SAME", an int or {nd} ints{extra}
data_format : {{"channels_last", "channels_first"}}

Shapes: input ``(batch, {spatial}, channels)`` (or channels first).
"""
_AVG_EXTRA = "\ncount_include_pad : bool\n    Whether padded zeros count in the averages (default False)."


class MaxPool1d(_Pool):
    __doc__ = _DOC.format(kind="Max", nd=1, fn="max_pool1d", spatial=_SPATIAL[1], extra="")
    nd, kind = 1, "max"


class MaxPool2d(_Pool):
    __doc__ = _DOC.format(kind="Max", nd=2, fn="max_pool2d", spatial=_SPATIAL[2], extra="")
    nd, kind = 2, "max"


class MaxPool3d(_Pool):
    __doc__ = _DOC.format(kind="Max", nd=3, fn="max_pool3d", spatial=_SPATIAL[3], extra="")
    nd, kind = 3, "max"


class AvgPool1d(_Pool):
    __doc__ = _DOC.format(kind="Average", nd=1, fn="avg_pool1d", spatial=_SPATIAL[1], extra=_AVG_EXTRA)
    nd, kind = 1, "avg"


class AvgPool2d(_Pool):
    __doc__ = _DOC.format(kind="Average", nd=2, fn="avg_pool2d", spatial=_SPATIAL[2], extra=_AVG_EXTRA)
    nd, kind = 2, "avg"


class AvgPool3d(_Pool):
    __doc__ = _DOC.format(kind="Average", nd=3, fn="avg_pool3d", spatial=_SPATIAL[3], extra=_AVG_EXTRA)
    nd, kind = 3, "avg"


class _AdaptiveAvgPool(Module):
    nd: int = 2

    def __init__(self, output_size: IntOrSeq, *, data_format: str = "channels_last") -> None:
        super().__init__()
        int_tuple(type(self).__name__, "output_size", output_size, self.nd)
        self.output_size = output_size
        self.data_format = one_of(
            type(self).__name__, "data_format", data_format, ("channels_last", "channels_first")
        )

    def forward(self, x: Array) -> Array:
        fn = {1: F.adaptive_avg_pool1d, 2: F.adaptive_avg_pool2d, 3: F.adaptive_avg_pool3d}[self.nd]
        return fn(x, self.output_size, data_format=self.data_format)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


_ADAPTIVE_DOC = """Average pooling to a fixed output size over {nd} spatial axes.

The layer of ``hd.nn.functional.adaptive_avg_pool{nd}d``.

PyTorch's bins. ``output_size=1`` is global average pooling (keeping the spatial axes, of size 1).
Shapes: input ``(batch, {spatial}, channels)`` (or channels first).
"""


class AdaptiveAvgPool1d(_AdaptiveAvgPool):
    __doc__ = _ADAPTIVE_DOC.format(nd=1, spatial=_SPATIAL[1])
    nd = 1


class AdaptiveAvgPool2d(_AdaptiveAvgPool):
    __doc__ = _ADAPTIVE_DOC.format(nd=2, spatial=_SPATIAL[2])
    nd = 2


class AdaptiveAvgPool3d(_AdaptiveAvgPool):
    __doc__ = _ADAPTIVE_DOC.format(nd=3, spatial=_SPATIAL[3])
    nd = 3
