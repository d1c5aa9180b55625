"""Turning a backend's failure into hedera's error for the argument at fault.

Front functions do no validation on the way in: that would tax every call. When
the backend raises, :func:`diagnose` re-examines the arguments and, if it can
name the bad one, raises the hedera exception for it (the same class on every
backend), chained to the framework's own error. Otherwise the framework's
exception propagates unchanged.
"""

from __future__ import annotations

from typing import Any

from . import errors
from ._api import BY_QUALNAME
from .dtypes import as_hedera_dtype

# parameters holding axes of the first array argument; expand_dims/stack may name one past the end
_AXIS_PARAMS = ("axis", "axes", "source", "destination")
_AXIS_ONE_PAST = {"expand_dims", "stack"}

# dtype kinds a function accepts, where the standard restricts them
_ALLOWED_KINDS: dict[str, tuple[str, ...]] = {
    **{f: ("integral", "bool") for f in ("bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_invert")},
    **{f: ("integral",) for f in ("bitwise_left_shift", "bitwise_right_shift")},
    **{f: ("real floating",) for f in ("atan2", "copysign", "hypot", "logaddexp", "nextafter")},
    **{f: ("real floating", "complex floating")
       for f in ("linalg.inv", "linalg.det", "linalg.cholesky", "linalg.eigh", "linalg.svd", "linalg.qr",
                 "linalg.solve")},
}  # fmt: skip


def _is_array(v: Any) -> bool:
    return hasattr(v, "shape") and hasattr(v, "dtype") and not isinstance(v, type)


def _shape(v: Any) -> tuple[int | None, ...]:
    return tuple(None if d is None else int(d) for d in v.shape)


def broadcast_shapes_or_none(*shapes: tuple[int | None, ...]) -> tuple[int | None, ...] | None:
    """The broadcast of ``shapes``, or None if they do not broadcast. Unknown sizes (None) fit anything."""
    ndim = max((len(s) for s in shapes), default=0)
    out: list[int | None] = []
    for i in range(-ndim, 0):
        size: int | None = 1
        for s in shapes:
            d = s[i] if -i <= len(s) else 1
            if d is None or d == 1:
                continue
            if size in (1, None):
                size = d
            elif d != size:
                return None
        out.append(size)
    return tuple(out)


def _check_axes(qualname: str, values: dict[str, Any]) -> None:
    x = next((v for v in values.values() if _is_array(v)), None)
    if x is None and isinstance(values.get("arrays"), (list, tuple)) and values["arrays"]:
        x = values["arrays"][0]
    if x is None or not _is_array(x):
        return
    ndim = len(x.shape) + (1 if qualname in _AXIS_ONE_PAST else 0)
    for param in _AXIS_PARAMS:
        value = values.get(param)
        if value is None or (qualname in ("tensordot", "linalg.tensordot") and param == "axes"):
            continue
        axes = value if isinstance(value, (tuple, list)) else (value,)
        for a in axes:
            if isinstance(a, int) and not isinstance(a, bool) and not -ndim <= a < max(ndim, 1):
                raise errors.InvalidAxisError(
                    f"{qualname}: {param}={value!r} is out of range for an array of {len(x.shape)} "
                    f"dimensions; expected an integer in [{-ndim}, {max(ndim, 1) - 1}]"
                )


def _check_broadcast(qualname: str, values: dict[str, Any]) -> None:
    fn = BY_QUALNAME.get(qualname)
    if fn is None or fn.category not in ("elementwise", "searching", "extra"):
        return
    arrays = {n: values[n] for n in fn.array_params if n in values and _is_array(values[n])}
    if len(arrays) < 2:
        return
    shapes = {n: _shape(v) for n, v in arrays.items()}
    if broadcast_shapes_or_none(*shapes.values()) is None:
        described = ", ".join(f"{n} has shape {s}" for n, s in shapes.items())
        raise errors.BroadcastError(f"{qualname}: shapes do not broadcast together ({described})")


def _check_matmul(qualname: str, values: dict[str, Any]) -> None:
    if qualname not in ("matmul", "linalg.matmul"):
        return
    x1, x2 = values.get("x1"), values.get("x2")
    if not (_is_array(x1) and _is_array(x2)):
        return
    s1, s2 = _shape(x1), _shape(x2)
    if len(s1) == 0 or len(s2) == 0:
        raise errors.ShapeError(f"{qualname}: x1 and x2 must have at least one dimension, got {s1} and {s2}")
    k1 = s1[-1]
    k2 = s2[-2] if len(s2) > 1 else s2[0]
    if None not in (k1, k2) and k1 != k2:
        raise errors.ShapeError(
            f"{qualname}: the last axis of x1 (shape {s1}) must match the "
            f"{'second-to-last' if len(s2) > 1 else 'only'} axis of x2 (shape {s2})"
        )


def _check_dtypes(qualname: str, values: dict[str, Any]) -> None:
    kinds = _ALLOWED_KINDS.get(qualname)
    fn = BY_QUALNAME.get(qualname)
    if kinds is None or fn is None:
        return
    from .dtypes import isdtype

    for name in fn.array_params:
        v = values.get(name)
        if not _is_array(v):
            continue
        try:
            d = as_hedera_dtype(v.dtype)
        except errors.DtypeError:
            continue
        if not isdtype(d, kinds):
            raise errors.DtypeError(
                f"{qualname}: {name} has dtype {d.name}; expected a dtype of kind {' or '.join(kinds)}"
            )


def diagnose(exc: BaseException, qualname: str, values: dict[str, Any]) -> None:
    """Raise the hedera error that explains ``exc``, if the arguments show one; else return.

    Called by the front functions from their ``except`` clause, which re-raises
    ``exc`` when this returns.
    """
    if isinstance(exc, errors.HederaError):
        return
    for check in (_check_axes, _check_broadcast, _check_matmul, _check_dtypes):
        try:
            check(qualname, values)
        except errors.HederaError as found:
            raise found from exc
