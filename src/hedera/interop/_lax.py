"""The primitive table of :func:`hedera.interop.from_jax`: one row per ``jax.lax`` primitive.

Each row names the hedera function a primitive becomes, or holds a small lowering written in
hedera's public API (no framework import here: the rows run on every backend). A lowering is
called as ``lower(ctx, eqn, *operands)``:

* ``ctx`` is the running :class:`~hedera.interop.jax.Interpreter` (``ctx.device`` for
  creation functions, ``ctx.eval(jaxpr, *args)`` for the sub-programs of ``jit``, ``cond``,
  ``scan``, ...);
* ``eqn`` is the jaxpr equation (``eqn.params``; ``eqn.invars[i].aval`` for the static shapes and
  dtypes, read from the jaxpr rather than from arrays so that traced values with unknown shapes
  work);
* the operands are native arrays of the program's backend.

It returns one array, or a sequence for primitives with several results. The interpreter casts
each result to the dtype the jaxpr states (hedera's reductions follow the Array API's promotion,
``lax``'s keep the operand's dtype).

:data:`RULES` is the table; :func:`coverage_rows` and :func:`coverage_markdown` turn it, with
JAX's own list of primitives (``jax.extend.core.primitives``), into the coverage table of
``docs/interop.md`` (``tools/gen_from_jax_docs.py``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import hedera as hd
from hedera.errors import UnsupportedError
from hedera.typing import Array

__all__ = ["BACKENDS", "RULES", "Rule", "coverage_markdown", "coverage_rows"]

#: the backends a converted program runs on
BACKENDS = ("numpy", "torch", "jax", "tensorflow")


@dataclass(frozen=True)
class Rule:
    """How one primitive becomes hedera calls.

    Attributes
    ----------
    lower : callable
        ``lower(ctx, eqn, *operands) -> array or sequence of arrays``.
    via : str
        What it becomes, for the coverage table (``"hd.sin"``, ``"hd.einsum"``, ...).
    limits : dict
        Backend name -> why the primitive cannot run there (it raises ``hd.UnsupportedError``);
        absent backends are supported.
    requires : str or None
        A hedera function the lowering needs that this hedera may lack (control flow): while it
        is missing, converting a program with the primitive raises ``hd.UnsupportedError``.
    """

    lower: Callable[..., Any]
    via: str
    limits: dict[str, str] = field(default_factory=dict)
    requires: str | None = None

    def available(self) -> bool:
        """Whether this hedera has the function the rule needs."""
        return self.requires is None or hasattr(hd, self.requires)


# ---- helpers --------------------------------------------------------------------------------------


def _shape(var: Any) -> tuple[int, ...]:
    return tuple(var.aval.shape)


def _np_dtype(var: Any) -> np.dtype:
    return np.dtype(var.aval.dtype)


def hd_dtype(dtype: Any) -> hd.DType:
    """The hedera dtype of a numpy/JAX dtype (``float32`` -> ``hd.float32``)."""
    return getattr(hd, np.dtype(dtype).name)


def _is_bool(var: Any) -> bool:
    return _np_dtype(var) == np.bool_


def _is_inexact(var: Any) -> bool:
    return np.issubdtype(_np_dtype(var), np.inexact)


def _lowest(dtype: np.dtype) -> float | int | bool:
    """The identity of ``max`` in ``dtype``: -inf, the smallest integer, or False."""
    if dtype == np.bool_:
        return False
    return -math.inf if np.issubdtype(dtype, np.inexact) else int(np.iinfo(dtype).min)


def _highest(dtype: np.dtype) -> float | int | bool:
    if dtype == np.bool_:
        return True
    return math.inf if np.issubdtype(dtype, np.inexact) else int(np.iinfo(dtype).max)


def _full(ctx: Any, shape: Sequence[int], value: Any, dtype: np.dtype) -> Array:
    return hd.full(tuple(shape), value, dtype=hd_dtype(dtype), device=ctx.device)


def _arange_along(ctx: Any, n: int, axis: int, rank: int, dtype: Any = "int32") -> Array:
    """``arange(n)`` shaped to broadcast along ``axis`` of a rank-``rank`` array."""
    shape = [1] * rank
    shape[axis] = n
    return hd.reshape(hd.arange(n, dtype=hd_dtype(dtype), device=ctx.device), tuple(shape))


def _take_slice(x: Array, axis: int, start: int | None, stop: int | None, step: int = 1) -> Array:
    index = [slice(None)] * (axis + 1)
    index[axis] = slice(start, stop, step)
    return x[tuple(index)]


def _unary(name: str) -> Rule:
    fn = getattr(hd, name)
    return Rule(lambda ctx, eqn, x: fn(x), f"hd.{name}")


def _binary(name: str) -> Rule:
    fn = getattr(hd, name)
    return Rule(lambda ctx, eqn, x, y: fn(x, y), f"hd.{name}")


def _identity(ctx: Any, eqn: Any, *xs: Array) -> Any:
    return list(xs) if eqn.primitive.multiple_results else xs[0]


# ---- elementwise ------------------------------------------------------------------------------------

# Abramowitz & Stegun 7.1.26: |erf(x) - approximation| < 1.5e-7 for every x
_ERF_P = 0.3275911
_ERF_A = (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)


def _erf(ctx: Any, eqn: Any, x: Array) -> Array:
    t = 1.0 / (1.0 + _ERF_P * hd.abs(x))
    poly = _ERF_A[4]
    for a in reversed(_ERF_A[:4]):
        poly = poly * t + a
    return hd.sign(x) * (1.0 - poly * t * hd.exp(-(x * x)))


def _erfc(ctx: Any, eqn: Any, x: Array) -> Array:
    return 1.0 - _erf(ctx, eqn, x)


def _integer_pow(ctx: Any, eqn: Any, x: Array) -> Array:
    # square-and-multiply in the order lax's own lowering uses, so results match bit for bit
    y = eqn.params["y"]
    if y == 0:
        return hd.ones_like(x)
    n, acc = abs(y), None
    while n > 0:
        if n & 1:
            acc = x if acc is None else hd.multiply(acc, x)
        n >>= 1
        if n > 0:
            x = hd.multiply(x, x)
    return hd.divide(hd.ones_like(acc), acc) if y < 0 else acc


def _div(ctx: Any, eqn: Any, x: Array, y: Array) -> Array:
    if _is_inexact(eqn.invars[0]):
        return hd.divide(x, y)
    # lax.div on integers rounds toward zero; floor_divide rounds down
    q = hd.floor_divide(x, y)
    inexact = hd.not_equal(hd.remainder(x, y), 0)
    signs_differ = hd.not_equal(hd.less(x, 0), hd.less(y, 0))
    return hd.where(hd.logical_and(inexact, signs_differ), q + 1, q)


def _rem(ctx: Any, eqn: Any, x: Array, y: Array) -> Array:
    # lax.rem is C's fmod (the sign of x); remainder takes the sign of y
    r = hd.remainder(x, y)
    wrong_sign = hd.logical_and(hd.not_equal(r, 0), hd.not_equal(hd.less(r, 0), hd.less(x, 0)))
    return hd.where(wrong_sign, r - y, r)


def _logical_or_bitwise(logical: str, bitwise: str) -> Rule:
    lfn, bfn = getattr(hd, logical), getattr(hd, bitwise)

    def lower(ctx: Any, eqn: Any, *xs: Array) -> Array:
        return (lfn if _is_bool(eqn.invars[0]) else bfn)(*xs)

    return Rule(lower, f"hd.{logical} (bool), hd.{bitwise} (integers)")


def _round(ctx: Any, eqn: Any, x: Array) -> Array:
    if int(eqn.params["rounding_method"]) == 1:  # TO_NEAREST_EVEN, what jnp.round asks for
        return hd.round(x)
    return hd.sign(x) * hd.floor(hd.abs(x) + 0.5)  # AWAY_FROM_ZERO, lax.round's default


def _shift_right_arithmetic(ctx: Any, eqn: Any, x: Array, y: Array) -> Array:
    if not np.issubdtype(_np_dtype(eqn.invars[0]), np.signedinteger):
        raise UnsupportedError(
            f"from_jax: shift_right_arithmetic of {_np_dtype(eqn.invars[0])} (only signed integers)"
        )
    return hd.bitwise_right_shift(x, y)


def _shift_right_logical(ctx: Any, eqn: Any, x: Array, y: Array) -> Array:
    if not np.issubdtype(_np_dtype(eqn.invars[0]), np.unsignedinteger):
        raise UnsupportedError(
            f"from_jax: shift_right_logical of {_np_dtype(eqn.invars[0])} (only unsigned integers)"
        )
    return hd.bitwise_right_shift(x, y)


def _select_n(ctx: Any, eqn: Any, which: Array, *cases: Array) -> Array:
    if len(cases) == 1:
        return cases[0]
    if _is_bool(eqn.invars[0]):
        return hd.where(which, cases[1], cases[0])
    out = cases[0]
    for i, case in enumerate(cases[1:], start=1):
        out = hd.where(hd.equal(which, i), case, out)
    return out


def _clamp(ctx: Any, eqn: Any, lo: Array, x: Array, hi: Array) -> Array:
    return hd.minimum(hd.maximum(x, lo), hi)


def _convert_element_type(ctx: Any, eqn: Any, x: Array) -> Array:
    return hd.astype(x, hd_dtype(eqn.params["new_dtype"]))


def _reduce_precision(ctx: Any, eqn: Any, x: Array) -> Array:
    info = np.finfo(_np_dtype(eqn.invars[0]))
    exponent_bits = round(math.log2(info.maxexp)) + 1
    if eqn.params["mantissa_bits"] >= info.nmant and eqn.params["exponent_bits"] >= exponent_bits:
        return x  # a no-op: the dtype holds no more precision than asked for
    raise UnsupportedError(
        f"from_jax: reduce_precision to {eqn.params['exponent_bits']} exponent and "
        f"{eqn.params['mantissa_bits']} mantissa bits (only to the operand's own precision)"
    )


def _sigmoid(ctx: Any, eqn: Any, x: Array) -> Array:
    return hd.nn.functional.sigmoid(x)


def _cbrt(ctx: Any, eqn: Any, x: Array) -> Array:
    return hd.sign(x) * hd.pow(hd.abs(x), 1.0 / 3.0)


def _exp2(ctx: Any, eqn: Any, x: Array) -> Array:
    return hd.pow(hd.full_like(x, 2), x)


def _rsqrt(ctx: Any, eqn: Any, x: Array) -> Array:
    return hd.divide(hd.ones_like(x), hd.sqrt(x))


# ---- shapes -----------------------------------------------------------------------------------------


def _broadcast_in_dim(ctx: Any, eqn: Any, x: Array, *dyn: Array) -> Array:
    if dyn:
        raise UnsupportedError("from_jax: broadcast_in_dim with dynamic shapes")
    shape, dims = tuple(eqn.params["shape"]), eqn.params["broadcast_dimensions"]
    in_shape = _shape(eqn.invars[0])
    expanded = [1] * len(shape)
    for i, d in enumerate(dims):
        expanded[d] = in_shape[i]
    if tuple(expanded) != in_shape:
        x = hd.reshape(x, tuple(expanded))
    return x if tuple(expanded) == shape else hd.broadcast_to(x, shape)


def _reshape(ctx: Any, eqn: Any, x: Array, *dyn: Array) -> Array:
    if dyn:
        raise UnsupportedError("from_jax: reshape with dynamic shapes")
    if eqn.params.get("dimensions") is not None:
        x = hd.permute_dims(x, tuple(eqn.params["dimensions"]))
    return hd.reshape(x, tuple(eqn.params["new_sizes"]))


def _squeeze(ctx: Any, eqn: Any, x: Array) -> Array:
    dims = tuple(eqn.params["dimensions"])
    return hd.squeeze(x, axis=dims) if dims else x


def _dilate(ctx: Any, x: Array, shape: list[int], axis: int, interior: int, value: Array) -> Array:
    """``interior`` copies of ``value`` between neighbours of ``x`` along ``axis`` (lax.pad's interior)."""
    n = shape[axis]
    if n <= 1 or interior == 0:
        return x
    x = hd.expand_dims(x, axis=axis + 1)
    fill_shape = (*shape[: axis + 1], interior, *shape[axis + 1 :])
    x = hd.concat([x, hd.broadcast_to(value, fill_shape)], axis=axis + 1)
    x = hd.reshape(x, (*shape[:axis], n * (interior + 1), *shape[axis + 1 :]))
    shape[axis] = (n - 1) * (interior + 1) + 1
    return _take_slice(x, axis, 0, shape[axis])


def pad_like_lax(ctx: Any, x: Array, shape: Sequence[int], value: Array, config: Sequence[Any]) -> Array:
    """``lax.pad(x, value, config)``: (low, high, interior) per axis; negative low/high crop."""
    shape = list(shape)
    for axis, (lo, hi, interior) in enumerate(config):
        x = _dilate(ctx, x, shape, axis, interior, value)
        if lo < 0 or hi < 0:
            start, stop = max(-lo, 0), shape[axis] - max(-hi, 0)
            x = _take_slice(x, axis, start, stop)
            shape[axis] = stop - start
        parts = []
        for amount in (max(lo, 0), max(hi, 0)):
            block = list(shape)
            block[axis] = amount
            parts.append(hd.broadcast_to(value, tuple(block)) if amount else None)
        if parts[0] is not None or parts[1] is not None:
            x = hd.concat([p for p in (parts[0], x, parts[1]) if p is not None], axis=axis)
            shape[axis] += max(lo, 0) + max(hi, 0)
    return x


def _pad(ctx: Any, eqn: Any, x: Array, value: Array) -> Array:
    return pad_like_lax(ctx, x, _shape(eqn.invars[0]), value, eqn.params["padding_config"])


def _slice(ctx: Any, eqn: Any, x: Array) -> Array:
    p = eqn.params
    strides = p["strides"] or (1,) * len(p["start_indices"])
    index = tuple(
        slice(a, b, s) for a, b, s in zip(p["start_indices"], p["limit_indices"], strides, strict=True)
    )
    return x[index]


def _static_start(eqn: Any, i: int) -> int | None:
    """The value of operand ``i`` when the jaxpr holds it as a literal, else ``None``."""
    var = eqn.invars[i]
    value = getattr(var, "val", None)
    return None if value is None else int(value)


def _clamped_start(start: Array, dim: int, size: int) -> Array:
    return hd.clip(start, 0, dim - size)


def _dynamic_slice(ctx: Any, eqn: Any, x: Array, *starts: Array) -> Array:
    shape, sizes = _shape(eqn.invars[0]), eqn.params["slice_sizes"]
    starts = starts[: len(shape)]
    for axis, (start, dim, size) in enumerate(zip(starts, shape, sizes, strict=True)):
        if size == dim:
            continue  # the start is clamped to 0
        static = _static_start(eqn, axis + 1)
        if static is not None:
            first = min(max(static, 0), dim - size)
            x = _take_slice(x, axis, first, first + size)
        else:
            first = _clamped_start(start, dim, size)
            index = hd.arange(size, dtype=hd_dtype(_np_dtype(eqn.invars[axis + 1])), device=ctx.device)
            x = hd.take(x, index + first, axis=axis)
    return x


def _dynamic_update_slice(ctx: Any, eqn: Any, x: Array, update: Array, *starts: Array) -> Array:
    shape, sizes = _shape(eqn.invars[0]), _shape(eqn.invars[1])
    statics = [_static_start(eqn, axis + 2) for axis in range(len(shape))]
    if all(s is not None for s in statics):
        index = tuple(
            slice(min(max(s, 0), d - n), min(max(s, 0), d - n) + n)
            for s, d, n in zip(statics, shape, sizes, strict=True)
        )
        return hd.at(x)[index].set(update)
    grids = []
    for axis, (start, dim, size) in enumerate(zip(starts, shape, sizes, strict=True)):
        dtype = _np_dtype(eqn.invars[axis + 2])
        grids.append(_arange_along(ctx, size, axis, len(shape), dtype) + _clamped_start(start, dim, size))
    return hd.at(x)[tuple(grids)].set(update)


def _split(ctx: Any, eqn: Any, x: Array) -> list[Array]:
    axis, out, start = eqn.params["axis"], [], 0
    for size in eqn.params["sizes"]:
        out.append(_take_slice(x, axis, start, start + int(size)))
        start += int(size)
    return out


def _stack(ctx: Any, eqn: Any, *xs: Array) -> Array:
    return hd.stack(list(xs), axis=eqn.params["axis"])


def _unstack(ctx: Any, eqn: Any, x: Array) -> list[Array]:
    return list(hd.unstack(x, axis=eqn.params["axis"]))


def _tile(ctx: Any, eqn: Any, x: Array) -> Array:
    return hd.tile(x, tuple(eqn.params["reps"]))


def _concatenate(ctx: Any, eqn: Any, *xs: Array) -> Array:
    return hd.concat(list(xs), axis=eqn.params["dimension"])


def _transpose(ctx: Any, eqn: Any, x: Array) -> Array:
    return hd.permute_dims(x, tuple(eqn.params["permutation"]))


def _rev(ctx: Any, eqn: Any, x: Array) -> Array:
    dims = tuple(eqn.params["dimensions"])
    return hd.flip(x, axis=dims) if dims else x


def _iota(ctx: Any, eqn: Any, *dyn: Array) -> Array:
    if dyn:
        raise UnsupportedError("from_jax: iota with dynamic shapes")
    p = eqn.params
    shape, axis = tuple(p["shape"]), p["dimension"]
    r = _arange_along(ctx, shape[axis], axis, len(shape), p["dtype"])
    return hd.broadcast_to(r, shape)


# ---- gather and scatter -------------------------------------------------------------------------------


def _mode_name(mode: Any) -> str:
    return getattr(mode, "name", str(mode))


def _window_indices(
    ctx: Any,
    indices: Array,
    batch_shape: tuple[int, ...],
    operand_shape: tuple[int, ...],
    window: list[tuple[int, int]],
    start_map: Sequence[int],
    operand_batching: Sequence[int],
    indices_batching: Sequence[int],
    sizes: Sequence[int],
    mode: str,
    index_dtype: np.dtype,
) -> tuple[list[Array], Array | None]:
    """Per operand axis, the index of every element of every window (gather and scatter share it).

    Each index has shape ``(*batch_shape, *window sizes)``; ``window`` lists the operand axes
    that windows span, with their sizes. Returns the indices and, in ``FILL_OR_DROP`` mode, the
    ``batch_shape`` mask of windows that lie inside the operand (else ``None``).
    """
    nb, nw = len(batch_shape), len(window)
    window_axis = {d: nb + i for i, (d, _) in enumerate(window)}
    rank = nb + nw
    inside = None
    out = []
    for d, dim in enumerate(operand_shape):
        if d in start_map:
            start = indices[(..., start_map.index(d))]
            if mode == "FILL_OR_DROP":
                ok = hd.logical_and(hd.greater_equal(start, 0), hd.less_equal(start, dim - sizes[d]))
                inside = ok if inside is None else hd.logical_and(inside, ok)
            start = _clamped_start(start, dim, sizes[d])
            start = hd.reshape(start, (*batch_shape, *(1,) * nw))
        elif d in operand_batching:
            axis = indices_batching[operand_batching.index(d)]
            start = _arange_along(ctx, batch_shape[axis], axis, rank, index_dtype)
        else:
            start = None
        if d in window_axis:
            offset = _arange_along(ctx, sizes[d], window_axis[d], rank, index_dtype)
            start = offset if start is None else start + offset
        if start is None:
            start = hd.zeros((1,) * rank, dtype=hd_dtype(index_dtype), device=ctx.device)
        out.append(start)
    return out, inside


def _gather(ctx: Any, eqn: Any, operand: Array, indices: Array) -> Array:
    p = eqn.params
    dn, sizes, mode = p["dimension_numbers"], tuple(p["slice_sizes"]), _mode_name(p["mode"])
    operand_shape, index_shape = _shape(eqn.invars[0]), _shape(eqn.invars[1])
    batch_shape = index_shape[:-1]
    dropped = set(dn.collapsed_slice_dims) | set(dn.operand_batching_dims)
    window = [(d, sizes[d]) for d in range(len(operand_shape)) if d not in dropped]
    index_dtype = _np_dtype(eqn.invars[1])
    per_axis, inside = _window_indices(
        ctx,
        indices,
        batch_shape,
        operand_shape,
        window,
        tuple(dn.start_index_map),
        tuple(dn.operand_batching_dims),
        tuple(dn.start_indices_batching_dims),
        sizes,
        mode,
        index_dtype,
    )
    full = (*batch_shape, *(n for _, n in window))
    stacked = hd.stack([hd.broadcast_to(i, full) for i in per_axis], axis=-1)
    out = hd.gather_nd(operand, stacked)  # (*batch_shape, *window sizes)
    if inside is not None:
        fill = p.get("fill_value")
        dtype = _np_dtype(eqn.invars[0])
        if fill is None:
            fill = math.nan if np.issubdtype(dtype, np.inexact) else _lowest(dtype)
            if np.issubdtype(dtype, np.unsignedinteger) or dtype == np.bool_:
                fill = _highest(dtype)
        mask = hd.reshape(inside, (*batch_shape, *(1,) * len(window)))
        out = hd.where(mask, out, _full(ctx, (), fill, dtype))
    return hd.permute_dims(out, _output_order(len(batch_shape), tuple(dn.offset_dims)))


def _output_order(n_batch: int, offset_dims: tuple[int, ...]) -> tuple[int, ...]:
    """The permutation taking ``(*batch, *window)`` axes to lax's output order (``offset_dims``)."""
    rank = n_batch + len(offset_dims)
    batch_axes = iter(range(n_batch))
    window_axes = {pos: n_batch + i for i, pos in enumerate(offset_dims)}
    return tuple(window_axes[pos] if pos in window_axes else next(batch_axes) for pos in range(rank))


def _scatter_rule(method: str) -> Rule:
    def lower(ctx: Any, eqn: Any, operand: Array, indices: Array, updates: Array) -> Array:
        return _scatter(ctx, eqn, operand, indices, updates, method)

    return Rule(lower, f"hd.at(x)[...].{method} (on the flattened operand)")


def _scatter_sub(ctx: Any, eqn: Any, operand: Array, indices: Array, updates: Array) -> Array:
    return _scatter(ctx, eqn, operand, indices, hd.negative(updates), "add")


def _scatter(ctx: Any, eqn: Any, operand: Array, indices: Array, updates: Array, method: str) -> Array:
    p = eqn.params
    dn, mode = p["dimension_numbers"], _mode_name(p["mode"])
    operand_shape, index_shape = _shape(eqn.invars[0]), _shape(eqn.invars[1])
    update_shape = _shape(eqn.invars[2])
    batch_shape = index_shape[:-1]
    window_dims = tuple(dn.update_window_dims)
    dropped = set(dn.inserted_window_dims) | set(dn.operand_batching_dims)
    window_axes = [d for d in range(len(operand_shape)) if d not in dropped]
    sizes = [1] * len(operand_shape)
    for d, u in zip(window_axes, window_dims, strict=True):
        sizes[d] = update_shape[u]
    window = [(d, sizes[d]) for d in window_axes]
    # updates as (*batch, *window): their scatter axes first, in order, then their window axes
    scatter_axes = [a for a in range(len(update_shape)) if a not in window_dims]
    updates = hd.permute_dims(updates, (*scatter_axes, *window_dims))
    index_dtype = _np_dtype(eqn.invars[1])
    per_axis, inside = _window_indices(
        ctx,
        indices,
        batch_shape,
        operand_shape,
        window,
        tuple(dn.scatter_dims_to_operand_dims),
        tuple(dn.operand_batching_dims),
        tuple(dn.scatter_indices_batching_dims),
        sizes,
        mode,
        index_dtype,
    )
    size = math.prod(operand_shape)
    linear = None
    stride = 1
    for d in reversed(range(len(operand_shape))):
        term = per_axis[d] * stride if stride != 1 else per_axis[d]
        linear = term if linear is None else linear + term
        stride *= operand_shape[d]
    full = (*batch_shape, *(n for _, n in window))
    linear = hd.broadcast_to(linear, full)
    if inside is not None:  # dropped windows go to one extra slot, cut off afterwards
        mask = hd.reshape(inside, (*batch_shape, *(1,) * len(window)))
        linear = hd.where(mask, linear, size)
    flat = hd.concat([hd.reshape(operand, (size,)), _full(ctx, (1,), 0, _np_dtype(eqn.invars[0]))], axis=0)
    at = hd.at(flat)[hd.reshape(linear, (-1,))]
    flat = getattr(at, method)(hd.reshape(updates, (-1,)))
    return hd.reshape(flat[:size], operand_shape)


# ---- linear algebra ------------------------------------------------------------------------------------


def _letters(n: int, start: int = 0) -> list[str]:
    return [chr(ord("a") + start + i) for i in range(n)]


def _dot_general(ctx: Any, eqn: Any, x: Array, y: Array) -> Array:
    (lc, rc), (lb, rb) = eqn.params["dimension_numbers"]
    nx, ny = len(_shape(eqn.invars[0])), len(_shape(eqn.invars[1]))
    lhs = _letters(nx)
    rhs = _letters(ny, nx)
    for a, b in zip((*lc, *lb), (*rc, *rb), strict=True):
        rhs[b] = lhs[a]
    batch = [lhs[a] for a in lb]
    free_l = [lhs[a] for a in range(nx) if a not in lc and a not in lb]
    free_r = [rhs[b] for b in range(ny) if b not in rc and b not in rb]
    preferred = eqn.params.get("preferred_element_type")
    if preferred is not None:
        x, y = hd.astype(x, hd_dtype(preferred)), hd.astype(y, hd_dtype(preferred))
    spec = f"{''.join(lhs)},{''.join(rhs)}->{''.join(batch + free_l + free_r)}"
    return hd.einsum(spec, x, y)


def _conv_general_dilated(ctx: Any, eqn: Any, lhs: Array, rhs: Array) -> Array:
    p = eqn.params
    lhs_spec, rhs_spec, out_spec = p["dimension_numbers"]
    nd = len(lhs_spec) - 2
    x = hd.permute_dims(lhs, (lhs_spec[0], *lhs_spec[2:], lhs_spec[1]))  # (N, *spatial, C)
    w = hd.permute_dims(rhs, (*rhs_spec[2:], rhs_spec[1], rhs_spec[0]))  # (*kernel, I / groups, O)
    in_shape = _shape(eqn.invars[0])
    shape = [in_shape[lhs_spec[0]], *(in_shape[a] for a in lhs_spec[2:]), in_shape[lhs_spec[1]]]
    pads = [tuple(int(v) for v in pair) for pair in p["padding"]]
    dilation = tuple(p["lhs_dilation"])
    if any(d != 1 for d in dilation) or any(lo < 0 or hi < 0 for lo, hi in pads):
        # transposed convolutions (input dilation) and crops: done here, the kernel only pads
        zero = _full(ctx, (), 0, _np_dtype(eqn.invars[0]))
        config = [(0, 0, 0)] + [
            (min(lo, 0), min(hi, 0), d - 1) for (lo, hi), d in zip(pads, dilation, strict=True)
        ]
        x = pad_like_lax(ctx, x, shape, zero, [*config, (0, 0, 0)])
        pads = [(max(lo, 0), max(hi, 0)) for lo, hi in pads]
    strides, rhs_dilation = tuple(p["window_strides"]), tuple(p["rhs_dilation"])
    groups = p["batch_group_count"]
    if groups == 1:
        y = hd.nn_ops.conv(x, w, None, strides, tuple(pads), rhs_dilation, p["feature_group_count"], True)
    else:
        # batch groups (the kernel gradient of a grouped convolution): output feature group g is
        # the convolution of batch group g with kernel group g, both contiguous chunks
        xs = hd.split(x, groups, axis=0)
        ws = hd.split(w, groups, axis=-1)
        ys = [
            hd.nn_ops.conv(a, b, None, strides, tuple(pads), rhs_dilation, 1, True)
            for a, b in zip(xs, ws, strict=True)
        ]
        y = hd.concat(ys, axis=-1)
    order = [0] * (nd + 2)
    order[out_spec[0]], order[out_spec[1]] = 0, nd + 1
    for i, a in enumerate(out_spec[2:]):
        order[a] = 1 + i
    y = hd.permute_dims(y, tuple(order))
    preferred = p.get("preferred_element_type")
    return y if preferred is None else hd.astype(y, hd_dtype(preferred))


# ---- reductions ----------------------------------------------------------------------------------------


def _reduction(name: str) -> Rule:
    fn = getattr(hd, name)

    def lower(ctx: Any, eqn: Any, x: Array) -> Array:
        axes = tuple(eqn.params["axes"])
        return fn(x, axis=axes) if axes else x

    return Rule(lower, f"hd.{name}")


def _arg_reduction(name: str) -> Rule:
    fn = getattr(hd, name)

    def lower(ctx: Any, eqn: Any, x: Array) -> Array:
        return fn(x, axis=eqn.params["axes"][0])

    return Rule(lower, f"hd.{name}")


_WINDOW_COMBINE = {"sum": hd.add, "max": hd.maximum, "min": hd.minimum}


def _window_reduce(
    ctx: Any, x: Array, shape: tuple[int, ...], init: Array, combine: Callable[..., Any], p: dict
) -> Array:
    """lax.reduce_window: pad with ``init``, then combine strided slices, one per window offset."""
    window, strides = tuple(p["window_dimensions"]), tuple(p["window_strides"])
    base, wdil = tuple(p["base_dilation"]), tuple(p["window_dilation"])
    config = [(lo, hi, b - 1) for (lo, hi), b in zip(p["padding"], base, strict=True)]
    if any(c != (0, 0, 0) for c in config):
        x = pad_like_lax(ctx, x, shape, init, config)
        shape = tuple(
            (n - 1) * b + 1 + lo + hi for n, b, (lo, hi, _) in zip(shape, base, config, strict=True)
        )
    out_len = [
        (n - (w - 1) * d - 1) // s + 1 for n, w, d, s in zip(shape, window, wdil, strides, strict=True)
    ]
    acc = None
    for offsets in itertools.product(*(range(w) for w in window)):
        index = tuple(
            slice(o * d, o * d + (m - 1) * s + 1, s)
            for o, d, m, s in zip(offsets, wdil, out_len, strides, strict=True)
        )
        piece = x[index]
        acc = piece if acc is None else combine(acc, piece)
    return acc


def _reduce_window_monoid(kind: str) -> Rule:
    combine = _WINDOW_COMBINE[kind]

    def lower(ctx: Any, eqn: Any, x: Array) -> Array:
        dtype = _np_dtype(eqn.invars[0])
        init = {"sum": 0, "max": _lowest(dtype), "min": _highest(dtype)}[kind]
        return _window_reduce(ctx, x, _shape(eqn.invars[0]), _full(ctx, (), init, dtype), combine, eqn.params)

    return Rule(lower, f"strided slices combined with hd.{combine.__name__}")


def _reduce_window(ctx: Any, eqn: Any, *args: Array) -> list[Array]:
    p = eqn.params
    n = len(args) // 2
    operands, inits = args[:n], args[n:]
    if n != 1:
        raise UnsupportedError("from_jax: reduce_window over several operands")
    jaxpr, consts = p["jaxpr"], p["consts"]

    def combine(a: Array, b: Array) -> Array:
        return ctx.eval_open(jaxpr, [ctx.constant(np.asarray(c)) for c in consts], [a, b])[0]

    return [_window_reduce(ctx, operands[0], _shape(eqn.invars[0]), inits[0], combine, p)]


def _cumulative(name: str) -> Rule:
    fn = getattr(hd, name)

    def lower(ctx: Any, eqn: Any, x: Array) -> Array:
        axis, reverse = eqn.params["axis"], eqn.params["reverse"]
        if reverse:
            return hd.flip(fn(hd.flip(x, axis=axis), axis=axis), axis=axis)
        return fn(x, axis=axis)

    return Rule(lower, f"hd.{name}")


def _cumulative_scan(combine: Callable[..., Any], via: str) -> Rule:
    """cummax, cummin, cumlogsumexp: a log-depth (Hillis-Steele) scan of strided combines."""

    def lower(ctx: Any, eqn: Any, x: Array) -> Array:
        axis, reverse = eqn.params["axis"], eqn.params["reverse"]
        n = _shape(eqn.invars[0])[axis]
        if reverse:
            x = hd.flip(x, axis=axis)
        shift = 1
        while shift < n:
            head = _take_slice(x, axis, 0, shift)
            tail = combine(_take_slice(x, axis, shift, None), _take_slice(x, axis, 0, n - shift))
            x = hd.concat([head, tail], axis=axis)
            shift *= 2
        return hd.flip(x, axis=axis) if reverse else x

    return Rule(lower, via)


# ---- sorting ------------------------------------------------------------------------------------------


def _sort(ctx: Any, eqn: Any, *operands: Array) -> list[Array]:
    axis, num_keys = eqn.params["dimension"], eqn.params["num_keys"]
    if len(operands) == 1:
        return [hd.sort(operands[0], axis=axis)]
    order = None
    for key in reversed(operands[:num_keys]):  # lexicographic: stable sorts from the last key
        if order is not None:
            key = hd.take_along_axis(key, order, axis=axis)
        step = hd.argsort(key, axis=axis, stable=True)
        order = step if order is None else hd.take_along_axis(order, step, axis=axis)
    return [hd.take_along_axis(x, order, axis=axis) for x in operands]


def _top_k(ctx: Any, eqn: Any, x: Array, *dyn: Array) -> list[Array]:
    if dyn:
        raise UnsupportedError("from_jax: top_k with a dynamic k")
    values, indices = hd.top_k(x, eqn.params["k"], axis=eqn.params.get("axis", -1))
    return [values, indices]


# ---- calls and control flow ----------------------------------------------------------------------------


def _inline(param: str) -> Callable[..., list[Array]]:
    def lower(ctx: Any, eqn: Any, *args: Array) -> list[Array]:
        return ctx.eval(eqn.params[param], *args)

    return lower


def _remat(ctx: Any, eqn: Any, *args: Array) -> list[Array]:
    return ctx.eval_open(eqn.params["jaxpr"], [], list(args))


def _cond(ctx: Any, eqn: Any, index: Array, *operands: Array) -> list[Array]:
    branches = eqn.params["branches"]
    fns = [lambda *ops, b=b: tuple(ctx.eval(b, *ops)) for b in branches]
    if len(fns) == 2 and _is_bool(eqn.invars[0]):
        return list(hd.cond(index, fns[1], fns[0], *operands))
    return list(hd.switch(index, fns, *operands))


def _while(ctx: Any, eqn: Any, *args: Array) -> list[Array]:
    p = eqn.params
    nc, nb = p["cond_nconsts"], p["body_nconsts"]
    cond_consts, body_consts, init = args[:nc], args[nc : nc + nb], args[nc + nb :]

    def cond_fn(carry: tuple[Array, ...]) -> Array:
        return ctx.eval(p["cond_jaxpr"], *cond_consts, *carry)[0]

    def body_fn(carry: tuple[Array, ...]) -> tuple[Array, ...]:
        return tuple(ctx.eval(p["body_jaxpr"], *body_consts, *carry))

    return list(hd.while_loop(cond_fn, body_fn, tuple(init)))


def _scan(ctx: Any, eqn: Any, *args: Array) -> list[Array]:
    p = eqn.params
    nconsts, ncarry = p["num_consts"], p["num_carry"]
    consts, init, xs = args[:nconsts], args[nconsts : nconsts + ncarry], args[nconsts + ncarry :]

    def step(carry: tuple[Array, ...], x: tuple[Array, ...] | None) -> tuple[tuple, tuple]:
        out = ctx.eval(p["jaxpr"], *consts, *carry, *(x or ()))
        return tuple(out[:ncarry]), tuple(out[ncarry:])

    carry, ys = hd.scan(
        step, tuple(init), tuple(xs) if xs else None, length=p["length"], reverse=p["reverse"]
    )
    return [*carry, *ys]


# ---- the table -----------------------------------------------------------------------------------------

_UNARY = {
    "abs": "abs",
    "acos": "acos",
    "acosh": "acosh",
    "asin": "asin",
    "asinh": "asinh",
    "atan": "atan",
    "atanh": "atanh",
    "ceil": "ceil",
    "conj": "conj",
    "cos": "cos",
    "cosh": "cosh",
    "exp": "exp",
    "expm1": "expm1",
    "floor": "floor",
    "imag": "imag",
    "is_finite": "isfinite",
    "log": "log",
    "log1p": "log1p",
    "neg": "negative",
    "real": "real",
    "sign": "sign",
    "sin": "sin",
    "sinh": "sinh",
    "sqrt": "sqrt",
    "square": "square",
    "stop_gradient": "stop_gradient",
    "tan": "tan",
    "tanh": "tanh",
}

_BINARY = {
    "add": "add",
    "add_any": "add",
    "atan2": "atan2",
    "eq": "equal",
    "ge": "greater_equal",
    "gt": "greater",
    "le": "less_equal",
    "lt": "less",
    "max": "maximum",
    "min": "minimum",
    "mul": "multiply",
    "ne": "not_equal",
    "nextafter": "nextafter",
    "pow": "pow",
    "shift_left": "bitwise_left_shift",
    "sub": "subtract",
}

RULES: dict[str, Rule] = {
    **{prim: _unary(name) for prim, name in _UNARY.items()},
    **{prim: _binary(name) for prim, name in _BINARY.items()},
    "and": _logical_or_bitwise("logical_and", "bitwise_and"),
    "or": _logical_or_bitwise("logical_or", "bitwise_or"),
    "xor": _logical_or_bitwise("logical_xor", "bitwise_xor"),
    "not": _logical_or_bitwise("logical_not", "bitwise_invert"),
    "div": Rule(_div, "hd.divide; integers: hd.floor_divide rounded toward zero"),
    "rem": Rule(_rem, "hd.remainder with the sign of the dividend"),
    "integer_pow": Rule(_integer_pow, "hd.multiply (square and multiply, as lax)"),
    "round": Rule(_round, "hd.round (to even); away from zero: floor(|x| + 0.5)"),
    "shift_right_arithmetic": Rule(_shift_right_arithmetic, "hd.bitwise_right_shift (signed integers)"),
    "shift_right_logical": Rule(_shift_right_logical, "hd.bitwise_right_shift (unsigned integers)"),
    "logistic": Rule(_sigmoid, "hd.nn.functional.sigmoid"),
    "erf": Rule(_erf, "polynomial (Abramowitz-Stegun 7.1.26, error < 1.5e-7)"),
    "erfc": Rule(_erfc, "1 - erf"),
    "cbrt": Rule(_cbrt, "sign(x) * |x| ** (1/3)"),
    "exp2": Rule(_exp2, "hd.pow(2, x)"),
    "rsqrt": Rule(_rsqrt, "1 / hd.sqrt"),
    "select_n": Rule(_select_n, "hd.where"),
    "clamp": Rule(_clamp, "hd.maximum, hd.minimum"),
    "convert_element_type": Rule(_convert_element_type, "hd.astype"),
    "reduce_precision": Rule(_reduce_precision, "identity (to the operand's own precision only)"),
    "copy": Rule(_identity, "identity"),
    "copy_p": Rule(_identity, "identity"),
    "device_put": Rule(_identity, "identity (the program's arrays stay where they are)"),
    "sharding_constraint": Rule(_identity, "identity"),
    "optimization_barrier": Rule(_identity, "identity"),
    # shapes
    "broadcast_in_dim": Rule(_broadcast_in_dim, "hd.reshape, hd.broadcast_to"),
    "reshape": Rule(_reshape, "hd.reshape"),
    "squeeze": Rule(_squeeze, "hd.squeeze"),
    "transpose": Rule(_transpose, "hd.permute_dims"),
    "rev": Rule(_rev, "hd.flip"),
    "concatenate": Rule(_concatenate, "hd.concat"),
    "split": Rule(_split, "basic slicing"),
    "stack": Rule(_stack, "hd.stack"),
    "unstack": Rule(_unstack, "hd.unstack"),
    "tile": Rule(_tile, "hd.tile"),
    "pad": Rule(_pad, "hd.concat of broadcast pad values; interior: reshape; negative: slices"),
    "slice": Rule(_slice, "basic slicing x[a:b:s]"),
    "dynamic_slice": Rule(_dynamic_slice, "slicing (literal starts) or hd.take of clamped starts"),
    "dynamic_update_slice": Rule(_dynamic_update_slice, "hd.at(x)[...].set"),
    "iota": Rule(_iota, "hd.arange, hd.broadcast_to"),
    "gather": Rule(_gather, "hd.gather_nd of every window element (modes clip, fill, promise)"),
    "scatter": _scatter_rule("set"),
    "scatter-add": _scatter_rule("add"),
    "scatter-mul": _scatter_rule("multiply"),
    "scatter-min": _scatter_rule("min"),
    "scatter-max": _scatter_rule("max"),
    "scatter-sub": Rule(_scatter_sub, "hd.at(x)[...].add of the negated updates"),
    # linear algebra
    "dot_general": Rule(_dot_general, "hd.einsum"),
    "conv_general_dilated": Rule(_conv_general_dilated, "hd.nn_ops.conv (channels last)"),
    # reductions
    "reduce_sum": _reduction("sum"),
    "reduce_prod": _reduction("prod"),
    "reduce_max": _reduction("max"),
    "reduce_min": _reduction("min"),
    "reduce_and": _reduction("all"),
    "reduce_or": _reduction("any"),
    "argmax": _arg_reduction("argmax"),
    "argmin": _arg_reduction("argmin"),
    "reduce_window_sum": _reduce_window_monoid("sum"),
    "reduce_window_max": _reduce_window_monoid("max"),
    "reduce_window_min": _reduce_window_monoid("min"),
    "reduce_window": Rule(_reduce_window, "strided slices combined by the reducer's jaxpr"),
    "cumsum": _cumulative("cumulative_sum"),
    "cumprod": _cumulative("cumulative_prod"),
    "cummax": _cumulative_scan(hd.maximum, "log-depth scan of hd.maximum"),
    "cummin": _cumulative_scan(hd.minimum, "log-depth scan of hd.minimum"),
    "cumlogsumexp": _cumulative_scan(hd.logaddexp, "log-depth scan of hd.logaddexp"),
    # sorting
    "sort": Rule(_sort, "hd.sort; several operands: stable hd.argsort, hd.take_along_axis"),
    "top_k": Rule(_top_k, "hd.top_k"),
    # calls
    "jit": Rule(_inline("jaxpr"), "inlined"),
    "pjit": Rule(_inline("jaxpr"), "inlined"),
    "closed_call": Rule(_inline("call_jaxpr"), "inlined"),
    "core_call": Rule(_inline("call_jaxpr"), "inlined"),
    "remat2": Rule(_remat, "inlined (checkpointing is the host's business)"),
    "custom_jvp_call": Rule(_inline("call_jaxpr"), "the primal function, inlined"),
    "custom_vjp_call": Rule(_inline("call_jaxpr"), "the primal function, inlined"),
    "custom_vjp_call_jaxpr": Rule(_inline("fun_jaxpr"), "the primal function, inlined"),
    # control flow (hd.cond / hd.switch / hd.while_loop / hd.scan)
    "cond": Rule(_cond, "hd.cond (boolean predicate), hd.switch", requires="switch"),
    "while": Rule(_while, "hd.while_loop", requires="while_loop"),
    "scan": Rule(_scan, "hd.scan", requires="scan"),
}


# ---- coverage ------------------------------------------------------------------------------------------


#: the public JAX modules whose import defines the primitives the coverage table lists
_JAX_MODULES = (
    "jax",
    "jax.numpy",
    "jax.lax",
    "jax.nn",
    "jax.random",
    "jax.scipy.special",
    "jax.scipy.linalg",
)


def jax_primitive_names() -> list[str]:
    """Every primitive JAX defines, sorted: the ``jax.extend.core.Primitive`` objects of its modules.

    ``jax.extend.core.primitives`` exports only some (not ``split``, ``tile``, ``stack``...), so
    the list is read from every loaded ``jax`` module after importing :data:`_JAX_MODULES`.
    """
    import importlib
    import sys

    for name in _JAX_MODULES:
        importlib.import_module(name)
    from jax.extend.core import Primitive

    names = set()
    for module_name, module in list(sys.modules.items()):
        if module is None or not (module_name == "jax" or module_name.startswith(("jax.", "jaxlib."))):
            continue
        names |= {v.name for v in list(vars(module).values()) if isinstance(v, Primitive)}
    return sorted(names)


def coverage_rows() -> list[tuple[str, str, dict[str, str]]]:
    """``(primitive, what it becomes, {backend: "yes" or the reason it does not run})``.

    The rows are JAX's primitives (:func:`jax_primitive_names`); the table's rows for
    spellings of other JAX versions (``pjit``, ``copy_p``...) do not appear.
    """
    rows = []
    for name in jax_primitive_names():
        rule = RULES.get(name)
        if rule is None:
            rows.append((name, "", dict.fromkeys(BACKENDS, "no")))
            continue
        if not rule.available():
            status = f"needs hd.{rule.requires}"
            rows.append((name, rule.via, dict.fromkeys(BACKENDS, status)))
            continue
        rows.append((name, rule.via, {b: rule.limits.get(b, "yes") for b in BACKENDS}))
    return rows


def coverage_markdown() -> str:
    """The coverage table (markdown) of ``docs/interop.md``'s from_jax section."""
    rows = coverage_rows()
    covered = sum(1 for _, via, status in rows if via and all(s == "yes" for s in status.values()))
    lines = [
        f"{covered} of the {len(rows)} primitives of this JAX run on every backend "
        "(read from JAX's modules; `no`: converting a program with it raises `hd.UnsupportedError`).",
        "",
        "| primitive | becomes | " + " | ".join(BACKENDS) + " |",
        "| --- | --- | " + " | ".join("---" for _ in BACKENDS) + " |",
    ]
    for name, via, status in rows:
        cells = " | ".join(status[b] for b in BACKENDS)
        lines.append(f"| `{name}` | {via or '-'} | {cells} |")
    return "\n".join(lines) + "\n"
