"""Pooling: max and average pooling in 1, 2 and 3 dimensions, and adaptive average pooling.

Inputs are ``(batch, *spatial, channels)`` (``data_format="channels_last"``, the
default) or ``(batch, channels, *spatial)``. ``padding`` is ``"VALID"``,
``"SAME"`` (output ``ceil(n / stride)``), an int, or per spatial dimension an
int or a ``(low, high)`` pair, each at most half the window (so that no window
lies wholly in the padding). Max pooling pads with ``-inf``; average pooling
divides by the number of input elements in each window unless
``count_include_pad=True`` (then by the window size, PyTorch's default).
Output size: ``floor((n + low + high - kernel_size) / stride) + 1``.
"""

from __future__ import annotations

from collections.abc import Sequence

import hedera as hd
from hedera import nn_ops as _ops
from hedera.typing import Array

from . import _args

__all__ = [
    "adaptive_avg_pool1d",
    "adaptive_avg_pool2d",
    "adaptive_avg_pool3d",
    "avg_pool1d",
    "avg_pool2d",
    "avg_pool3d",
    "max_pool1d",
    "max_pool2d",
    "max_pool3d",
]

IntOrSeq = int | Sequence[int]
Padding = str | int | Sequence[int | tuple[int, int]]


def _pool_args(
    op: str,
    nd: int,
    x: Array,
    kernel_size: IntOrSeq,
    stride: IntOrSeq | None,
    padding: Padding,
    data_format: str,
) -> tuple:
    last = _args.channels_last(op, data_format)
    xs = _args.expect_rank(op, x, nd + 2, _args.layout(nd, last), extra=f" for data_format={data_format!r}")
    window = _args.int_tuple(op, "kernel_size", kernel_size, nd)
    stride = window if stride is None else _args.int_tuple(op, "stride", stride, nd)
    sizes = xs[1:-1] if last else xs[2:]
    pads = _args.window_padding(op, padding, sizes, window, stride, (1,) * nd)
    for (lo, hi), k in zip(pads, window, strict=True):
        if max(lo, hi) > k // 2:
            raise hd.InvalidArgumentError(
                f"{op}: padding {pads} must be at most half the window {window} in each dimension"
            )
    _args.check_output_size(op, sizes, window, stride, pads, (1,) * nd)
    return window, stride, pads, last


def _max_pool(op, nd, x, kernel_size, stride, padding, data_format):
    window, stride, pads, last = _pool_args(op, nd, x, kernel_size, stride, padding, data_format)
    return _ops.max_pool(x, window, stride, pads, last)


def _avg_pool(op, nd, x, kernel_size, stride, padding, count_include_pad, data_format):
    window, stride, pads, last = _pool_args(op, nd, x, kernel_size, stride, padding, data_format)
    return _ops.avg_pool(x, window, stride, pads, bool(count_include_pad), last)


_POOL_DOC = """{nd}-d {kind} pooling.

    Parameters
    ----------
    x : array, shape ``(batch, {spatial}, channels)`` (or ``(batch, channels, {spatial})``)
    kernel_size : int or sequence of {nd} ints
        The window.
    stride : int or sequence of {nd} ints, optional
        Default: ``kernel_size`` (non-overlapping windows).
    padding : "VALID", "SAME", int, or a sequence of {nd} ints or ``(low, high)`` pairs
        Each at most half the window.{extra}
    data_format : {{"channels_last", "channels_first"}}

    Returns
    -------
    array, shape ``(batch, {spatial_out}, channels)`` (or channels first)

    Raises
    ------
    ShapeError
        ``x`` is not ``{rank}``-d, or smaller than the window.
    InvalidArgumentError
        An unknown ``padding`` or ``data_format``, or padding over half the window.
    """

_AVG_EXTRA = """
    count_include_pad : bool
        Divide by the window size (True) or by the number of input elements in the
        window (False, default; TensorFlow's "SAME" pooling)."""


def max_pool1d(
    x: Array, kernel_size: IntOrSeq, stride: IntOrSeq | None = None, padding: Padding = "VALID", *,
    data_format: str = "channels_last",
) -> Array:  # fmt: skip
    return _max_pool("max_pool1d", 1, x, kernel_size, stride, padding, data_format)


def max_pool2d(
    x: Array, kernel_size: IntOrSeq, stride: IntOrSeq | None = None, padding: Padding = "VALID", *,
    data_format: str = "channels_last",
) -> Array:  # fmt: skip
    return _max_pool("max_pool2d", 2, x, kernel_size, stride, padding, data_format)


def max_pool3d(
    x: Array, kernel_size: IntOrSeq, stride: IntOrSeq | None = None, padding: Padding = "VALID", *,
    data_format: str = "channels_last",
) -> Array:  # fmt: skip
    return _max_pool("max_pool3d", 3, x, kernel_size, stride, padding, data_format)


def avg_pool1d(
    x: Array, kernel_size: IntOrSeq, stride: IntOrSeq | None = None, padding: Padding = "VALID", *,
    count_include_pad: bool = False, data_format: str = "channels_last",
) -> Array:  # fmt: skip
    return _avg_pool("avg_pool1d", 1, x, kernel_size, stride, padding, count_include_pad, data_format)


def avg_pool2d(
    x: Array, kernel_size: IntOrSeq, stride: IntOrSeq | None = None, padding: Padding = "VALID", *,
    count_include_pad: bool = False, data_format: str = "channels_last",
) -> Array:  # fmt: skip
    return _avg_pool("avg_pool2d", 2, x, kernel_size, stride, padding, count_include_pad, data_format)


def avg_pool3d(
    x: Array, kernel_size: IntOrSeq, stride: IntOrSeq | None = None, padding: Padding = "VALID", *,
    count_include_pad: bool = False, data_format: str = "channels_last",
) -> Array:  # fmt: skip
    return _avg_pool("avg_pool3d", 3, x, kernel_size, stride, padding, count_include_pad, data_format)


_SPATIAL = {1: "length", 2: "height, width", 3: "depth, height, width"}
for _nd in (1, 2, 3):
    for _kind, _fn in (("max", globals()[f"max_pool{_nd}d"]), ("average", globals()[f"avg_pool{_nd}d"])):
        _fn.__doc__ = _POOL_DOC.format(
            nd=_nd,
            kind=_kind,
            spatial=_SPATIAL[_nd],
            spatial_out=", ".join(f"out_{s}" for s in _SPATIAL[_nd].split(", ")),
            rank=_nd + 2,
            extra=_AVG_EXTRA if _kind == "average" else "",
        )
del _nd, _kind, _fn


# ---- adaptive pooling -------------------------------------------------------------------------


def _averaging_matrix(n: int, m: int) -> list[list[float]]:
    """``(m, n)`` rows averaging PyTorch's adaptive bins ``[floor(i n / m), ceil((i + 1) n / m))``."""
    rows = []
    for i in range(m):
        start, end = (i * n) // m, -(-((i + 1) * n) // m)
        rows.append([1.0 / (end - start) if start <= j < end else 0.0 for j in range(n)])
    return rows


def _adaptive_avg_pool(op: str, nd: int, x: Array, output_size: IntOrSeq, data_format: str) -> Array:
    last = _args.channels_last(op, data_format)
    xs = _args.expect_rank(op, x, nd + 2, _args.layout(nd, last), extra=f" for data_format={data_format!r}")
    out = _args.int_tuple(op, "output_size", output_size, nd)
    first_spatial = 1 if last else 2
    y = x
    backend, device = hd.backend_of(x), hd.device(x)
    for i, m in enumerate(out):
        axis = first_spatial + i
        n = xs[axis]
        if n is None:
            raise hd.InvalidArgumentError(f"{op}: needs static spatial sizes, got shape {xs}")
        if n == m:
            continue
        matrix = hd.asarray(_averaging_matrix(n, m), dtype=x.dtype, device=device, backend=backend)
        y = hd.moveaxis(hd.tensordot(y, matrix, axes=([axis], [1])), -1, axis)
    return y


def adaptive_avg_pool1d(x: Array, output_size: IntOrSeq, *, data_format: str = "channels_last") -> Array:
    """Average pooling to a fixed output length (PyTorch's bins: ``[floor(i n / m), ceil((i + 1) n / m))``).

    Parameters
    ----------
    x : array, shape ``(batch, length, channels)`` (or channels first)
    output_size : int or sequence of 1 int

    Returns
    -------
    array, shape ``(batch, output_size, channels)`` (or channels first)
    """
    return _adaptive_avg_pool("adaptive_avg_pool1d", 1, x, output_size, data_format)


def adaptive_avg_pool2d(x: Array, output_size: IntOrSeq, *, data_format: str = "channels_last") -> Array:
    """Average pooling to a fixed ``(out_height, out_width)``; bins as :func:`adaptive_avg_pool1d` per axis.

    ``output_size=1`` is global average pooling (keeping the spatial axes, of size 1).
    """
    return _adaptive_avg_pool("adaptive_avg_pool2d", 2, x, output_size, data_format)


def adaptive_avg_pool3d(x: Array, output_size: IntOrSeq, *, data_format: str = "channels_last") -> Array:
    """Average pooling to a fixed ``(out_depth, out_height, out_width)``; bins as in 1-d."""
    return _adaptive_avg_pool("adaptive_avg_pool3d", 3, x, output_size, data_format)
