"""Attention: ``scaled_dot_product_attention`` and ``multi_head_attention`` with explicit weights."""

from __future__ import annotations

import math

import hedera as hd
from hedera.typing import Array

from . import _args
from .activations import softmax
from .basic import dropout, linear

__all__ = ["multi_head_attention", "scaled_dot_product_attention"]


def _reshape_target(shape: tuple) -> tuple[int, ...]:
    """A reshape target from a static shape, with ``-1`` for one unknown (traced) size."""
    return tuple(-1 if d is None else d for d in shape)


def _causal(query: Array, lq: int, lk: int) -> Array:
    """Boolean ``(lq, lk)`` mask: True where query ``i`` may attend key ``j <= i`` (top-left aligned)."""
    backend, device = hd.backend_of(query), hd.device(query)
    rows = hd.arange(lq, device=device, backend=backend)
    cols = hd.arange(lk, device=device, backend=backend)
    return hd.less_equal(cols[None, :], rows[:, None])


def scaled_dot_product_attention(
    query: Array,
    key: Array,
    value: Array,
    *,
    mask: Array | None = None,
    is_causal: bool = False,
    scale: float | None = None,
    dropout_rate: float = 0.0,
    dropout_key: Array | None = None,
    return_weights: bool = False,
) -> Array | tuple[Array, Array]:
    """``softmax(query @ key^T * scale + mask) @ value``.

    Parameters
    ----------
    query : array, shape ``(..., Lq, E)``
    key : array, shape ``(..., Lk, E)``
    value : array, shape ``(..., Lk, Ev)``
        Leading axes broadcast (batch, heads...).
    mask : array broadcastable to ``(..., Lq, Lk)``, optional
        Boolean: ``True`` where a query may attend to a key (PyTorch's
        ``attn_mask`` convention); floating: added to the scores.
    is_causal : bool
        Also forbid keys after the query (``j > i``; aligned at the top left, as PyTorch).
    scale : float, optional
        Default ``1 / sqrt(E)``.
    dropout_rate : float
        Dropout on the attention weights (:func:`dropout`, with ``dropout_key``).
    dropout_key : key array, optional
    return_weights : bool
        Also return the attention weights ``(..., Lq, Lk)``.

    Returns
    -------
    array, shape ``(..., Lq, Ev)``; and the weights if ``return_weights``.

    Notes
    -----
    Without mask, dropout or weights, torch runs it eagerly as one
    ``torch.nn.functional.scaled_dot_product_attention`` (:func:`hedera.nn_ops.attention`),
    equal within float rounding.
    Masked scores are set to the dtype's most negative finite value, not ``-inf``:
    a query whose keys are all masked attends uniformly instead of giving NaN
    (PyTorch gives NaN there), and gradients stay finite.
    """
    op = "scaled_dot_product_attention"
    scale = _args.optional_finite(op, "scale", scale)
    dropout_rate = _args.unit_float(op, "dropout_rate", dropout_rate)
    qs, ks, vs = _args.shape_of(query), _args.shape_of(key), _args.shape_of(value)
    if min(len(qs), len(ks), len(vs)) < 2:
        raise hd.ShapeError(
            f"{op}: query, key and value must have shapes (..., Lq, E), (..., Lk, E), (..., Lk, Ev), "
            f"got {qs}, {ks}, {vs}"
        )
    if qs[-1] != ks[-1] or ks[-2] != vs[-2]:
        raise hd.ShapeError(
            f"{op}: query (..., Lq, E), key (..., Lk, E) and value (..., Lk, Ev) do not fit: "
            f"got {qs}, {ks}, {vs}"
        )
    if scale is None:
        scale = 1.0 / math.sqrt(qs[-1])
    if mask is None and not is_causal and not dropout_rate and not return_weights:
        fused = hd.nn_ops.attention(query, key, value, float(scale))  # the backend's kernel, if any
        if fused is not None:
            return fused
    scores = hd.multiply(hd.matmul(query, hd.matrix_transpose(key)), float(scale))
    allowed = None
    if mask is not None:
        if hd.isdtype(hd.dtype(mask), "bool"):
            allowed = mask
        else:
            scores = hd.add(scores, mask)
    if is_causal:
        causal = _causal(query, qs[-2], ks[-2])
        allowed = causal if allowed is None else hd.logical_and(allowed, causal)
    if allowed is not None:
        lowest = hd.full_like(scores, float(hd.finfo(scores.dtype).min))
        scores = hd.where(allowed, scores, lowest)
    weights = softmax(scores, axis=-1)
    if dropout_rate:
        weights = dropout(weights, dropout_rate, key=dropout_key)
    out = hd.matmul(weights, value)
    return (out, weights) if return_weights else out


def _split_heads(x: Array, num_heads: int) -> Array:
    """``(..., L, E)`` to ``(..., H, L, E // H)``."""
    shape = _args.shape_of(x)
    x = hd.reshape(x, _reshape_target((*shape[:-1], num_heads, shape[-1] // num_heads)))
    return hd.moveaxis(x, -2, -3)


def multi_head_attention(
    query: Array,
    key: Array,
    value: Array,
    num_heads: int,
    q_weight: Array,
    k_weight: Array,
    v_weight: Array,
    out_weight: Array,
    q_bias: Array | None = None,
    k_bias: Array | None = None,
    v_bias: Array | None = None,
    out_bias: Array | None = None,
    *,
    mask: Array | None = None,
    is_causal: bool = False,
    scale: float | None = None,
    dropout_rate: float = 0.0,
    dropout_key: Array | None = None,
    return_weights: bool = False,
) -> Array | tuple[Array, Array]:
    """Multi-head attention with explicit projection weights (``torch.nn.MultiheadAttention``, batch first).

    Parameters
    ----------
    query : array, shape ``(..., Lq, Eq)``
    key : array, shape ``(..., Lk, Ek)``
    value : array, shape ``(..., Lk, Ev)``
    num_heads : int
        Must divide the projected size ``E``.
    q_weight, k_weight, v_weight : arrays of shapes ``(Eq, E)``, ``(Ek, E)``, ``(Ev, E)``
        Input projections, :func:`linear`'s ``(in, out)`` layout (the transposes of
        the blocks of PyTorch's ``in_proj_weight``).
    out_weight : array, shape ``(E, E_out)``
    q_bias, k_bias, v_bias : arrays of shape ``(E,)``, optional
    out_bias : array of shape ``(E_out,)``, optional
    mask : array broadcastable to ``(..., num_heads, Lq, Lk)``, optional
        As in :func:`scaled_dot_product_attention`. A per-example mask
        ``(batch, Lq, Lk)`` must be given as ``(batch, 1, Lq, Lk)``; a key-padding mask
        ``(batch, Lk)`` as ``(batch, 1, 1, Lk)``.
    is_causal, scale, dropout_rate, dropout_key
        As in :func:`scaled_dot_product_attention`, per head (``scale`` defaults to
        ``1 / sqrt(E // num_heads)``).
    return_weights : bool
        Also return the per-head attention weights ``(..., num_heads, Lq, Lk)``.

    Returns
    -------
    array, shape ``(..., Lq, E_out)``; and the weights if ``return_weights``.
    """
    op = "multi_head_attention"
    num_heads = _args.positive_int(op, "num_heads", num_heads)
    scale = _args.optional_finite(op, "scale", scale)
    dropout_rate = _args.unit_float(op, "dropout_rate", dropout_rate)
    q = linear(query, q_weight, q_bias)
    k = linear(key, k_weight, k_bias)
    v = linear(value, v_weight, v_bias)
    embed = _args.shape_of(q)[-1]
    if embed % num_heads:
        raise hd.ShapeError(f"{op}: the projected size E={embed} (q_weight shape {_args.shape_of(q_weight)}) "
                            f"is not divisible by num_heads={num_heads}")  # fmt: skip
    if _args.shape_of(k)[-1] != embed or _args.shape_of(v)[-1] != embed:
        raise hd.ShapeError(
            f"{op}: q_weight, k_weight and v_weight must project to the same size E, got shapes "
            f"{_args.shape_of(q_weight)}, {_args.shape_of(k_weight)}, {_args.shape_of(v_weight)}"
        )
    result = scaled_dot_product_attention(
        _split_heads(q, num_heads),
        _split_heads(k, num_heads),
        _split_heads(v, num_heads),
        mask=mask,
        is_causal=is_causal,
        scale=scale,
        dropout_rate=dropout_rate,
        dropout_key=dropout_key,
        return_weights=return_weights,
    )
    heads, weights = result if return_weights else (result, None)
    merged = hd.moveaxis(heads, -3, -2)  # (..., Lq, H, D)
    shape = _args.shape_of(merged)
    merged = hd.reshape(merged, _reshape_target((*shape[:-2], embed)))
    out = linear(merged, out_weight, out_bias)
    return (out, weights) if return_weights else out
