"""Argument checks and normalisation shared by the functional ops (pure Python, no array work).

Every check raises hedera's error naming the op, the argument and what was
expected: ``InvalidArgumentError`` for a bad non-array value (an unknown string,
a non-positive stride), ``ShapeError`` for an array of the wrong rank or
channel count.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import hedera as hd
from hedera.helpers import finite_float, int_tuple, integer, positive_int, shape_of  # noqa: F401  (re-exported)

DATA_FORMATS = ("channels_last", "channels_first")
REDUCTIONS = ("mean", "sum", "none")
_SPATIAL_NAMES = {1: ("length",), 2: ("height", "width"), 3: ("depth", "height", "width")}


def channels_last(op: str, data_format: Any) -> bool:
    """Whether ``data_format`` is ``"channels_last"``; raises for anything but the two formats."""
    if data_format == "channels_last":
        return True
    if data_format == "channels_first":
        return False
    if not isinstance(data_format, str):
        raise hd.ArgumentTypeError(f"{op}: data_format must be one of {DATA_FORMATS}, got {data_format!r}")
    raise hd.InvalidArgumentError(f"{op}: data_format must be one of {DATA_FORMATS}, got {data_format!r}")


_INF = float("inf")


def eps(op: str, value: Any, name: str = "eps") -> float:
    """``value`` checked to be a finite float ``>= 0`` (an epsilon); a float costs one comparison."""
    if value.__class__ is float and 0.0 <= value < _INF:
        return value
    return finite_float(op, name, value, minimum=0.0)  # type: ignore[return-value]


def unit_float(op: str, name: str, value: Any) -> float:
    """``value`` checked to be a finite float in ``[0, 1]`` (a momentum, a rate)."""
    if value.__class__ is float and 0.0 <= value <= 1.0:
        return value
    return finite_float(op, name, value, minimum=0.0, maximum=1.0)  # type: ignore[return-value]


def optional_finite(op: str, name: str, value: Any) -> float | None:
    """``value`` checked to be ``None`` or a finite float (a scale)."""
    if value is None or (value.__class__ is float and -_INF < value < _INF):
        return value
    return finite_float(op, name, value)


def layout(nd: int, last: bool, channels: str = "channels") -> str:
    """A readable shape such as ``(batch, height, width, channels)``."""
    spatial = ", ".join(_SPATIAL_NAMES[nd])
    return f"(batch, {spatial}, {channels})" if last else f"(batch, {channels}, {spatial})"


def expect_rank(op: str, x: Any, rank: int, expected: str, argname: str = "x", extra: str = "") -> tuple:
    """``x``'s shape, after checking that it has ``rank`` dimensions (``expected`` describes them)."""
    shape = shape_of(x)
    if len(shape) != rank:
        raise hd.ShapeError(f"{op}: {argname} must have shape {expected}{extra}, got shape {shape}")
    return shape


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def padding_string(op: str, padding: str) -> str:
    if not isinstance(padding, str):
        raise hd.ArgumentTypeError(f"{op}: padding must be 'SAME', 'VALID', an int, or ints, got {padding!r}")
    upper = padding.upper()
    if upper not in ("SAME", "VALID"):
        raise hd.InvalidArgumentError(
            f"{op}: padding must be 'SAME', 'VALID', an int, or a sequence of ints or (low, high) pairs, "
            f"got {padding!r}"
        )
    return upper


def explicit_padding(op: str, padding: Any, nd: int) -> tuple[tuple[int, int], ...]:
    """An int, or ``nd`` ints or ``(low, high)`` pairs, as ``nd`` pairs of non-negative ints."""
    if _is_int(padding):
        items: Sequence[Any] = (padding,) * nd
    else:
        items = tuple(padding) if isinstance(padding, (list, tuple)) else ()
    pairs = []
    for item in items:
        pair = (item, item) if _is_int(item) else tuple(item) if isinstance(item, (list, tuple)) else ()
        if len(pair) != 2 or not all(_is_int(p) and p >= 0 for p in pair):
            pairs = []
            break
        pairs.append((int(pair[0]), int(pair[1])))
    if len(pairs) != nd or len(items) != nd:
        raise hd.InvalidArgumentError(
            f"{op}: padding must be 'SAME', 'VALID', a non-negative int, or a sequence of {nd} "
            f"non-negative ints or (low, high) pairs, got {padding!r}"
        )
    return tuple(pairs)


def same_padding(size: int, span: int, stride: int) -> tuple[int, int]:
    """TensorFlow's and JAX's "SAME": output ``ceil(size / stride)``, the odd pixel at the end."""
    out = -(-size // stride)
    total = max((out - 1) * stride + span - size, 0)
    return total // 2, total - total // 2


def window_padding(
    op: str,
    padding: Any,
    sizes: Sequence[int | None],
    kernel: Sequence[int],
    stride: Sequence[int],
    dilation: Sequence[int],
) -> tuple[tuple[int, int], ...]:
    """Padding pairs of a convolution or pooling window; ``"SAME"`` needs the spatial sizes."""
    nd = len(kernel)
    if isinstance(padding, str):
        if padding_string(op, padding) == "VALID":
            return ((0, 0),) * nd
        if any(n is None for n in sizes):
            raise hd.InvalidArgumentError(
                f"{op}: padding='SAME' needs static spatial sizes, got {tuple(sizes)}"
            )
        return tuple(
            same_padding(n, d * (k - 1) + 1, s)
            for n, k, s, d in zip(sizes, kernel, stride, dilation, strict=True)
        )
    return explicit_padding(op, padding, nd)


def check_output_size(
    op: str,
    sizes: Sequence[int | None],
    kernel: Sequence[int],
    stride: Sequence[int],
    padding: Sequence[tuple[int, int]],
    dilation: Sequence[int],
) -> None:
    """Raise a ShapeError if the (padded) input is smaller than the (dilated) window."""
    for n, k, (lo, hi), d in zip(sizes, kernel, padding, dilation, strict=True):
        if n is not None and n + lo + hi < d * (k - 1) + 1:
            raise hd.ShapeError(
                f"{op}: the padded input's spatial size {n + lo + hi} (input {n}, padding {(lo, hi)}) is "
                f"smaller than the {'dilated ' if d > 1 else ''}window size {d * (k - 1) + 1}"
            )


def same_dtype(op: str, x: Any, name: str, other: Any) -> None:
    if other is not None and other.dtype != x.dtype:
        raise hd.DtypeError(
            f"{op}: {name} has dtype {hd.dtype(other).name} but x has dtype {hd.dtype(x).name}; "
            f"they must match (convert with hd.astype)"
        )


def check_reduction(op: str, reduction: Any, allowed: tuple[str, ...] = REDUCTIONS) -> str:
    if not isinstance(reduction, str):
        raise hd.ArgumentTypeError(f"{op}: reduction must be one of {allowed}, got {reduction!r}")
    if reduction not in allowed:
        raise hd.InvalidArgumentError(f"{op}: reduction must be one of {allowed}, got {reduction!r}")
    return reduction


def reduce(loss: Any, reduction: str) -> Any:
    """Apply a checked reduction to elementwise losses."""
    if reduction == "mean":
        return hd.mean(loss)
    if reduction == "sum":
        return hd.sum(loss)
    return loss


def vector_param(op: str, name: str, value: Any, size: int | None) -> None:
    """Check that an optional per-channel parameter has shape ``(size,)``."""
    if value is None:
        return
    shape = shape_of(value)
    if len(shape) != 1 or (size is not None and shape[0] is not None and shape[0] != size):
        raise hd.ShapeError(f"{op}: {name} must have shape ({size},), got shape {shape}")
