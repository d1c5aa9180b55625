"""Attention layers: ``MultiHeadAttention`` and ``TransformerEncoderLayer`` (batch first)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import hedera as hd
from hedera.typing import Array

from .. import init as _init
from ..functional import _unchecked as F  # noqa: N812  (torch.nn.functional's customary name)
from ..module import Module
from ._base import Layer, finite_float, positive_int, shape_of
from .linear import Dropout, Linear
from .normalization import LayerNorm

__all__ = ["MultiHeadAttention", "TransformerEncoderLayer"]


class MultiHeadAttention(Layer):
    """Multi-head attention (``torch.nn.MultiheadAttention(batch_first=True)``).

    The layer of ``hd.nn.functional.multi_head_attention``.

    Parameters
    ----------
    embed_dim : int
        ``E``: the query size, the projected size and the output size.
    num_heads : int
        Divides ``embed_dim``.
    kdim, vdim : int, optional
        Key and value sizes (default ``embed_dim``).
    bias : bool
        Biases on the four projections (zeros initially, as PyTorch).
    dropout : float
        Dropout on the attention weights in training mode.
    key, dtype, backend, device
        See :class:`hedera.nn.layers.Layer`.

    Attributes
    ----------
    q_weight, k_weight, v_weight : arrays ``(embed_dim, E)``, ``(kdim, E)``, ``(vdim, E)``
        The input projections in ``linear``'s ``(in, out)`` layout, Glorot-uniform
        initialised each (PyTorch draws the three as one ``(3E, E)`` block).
    out_weight : array ``(E, E)``
    q_bias, k_bias, v_bias, out_bias : arrays ``(E,)``, or None

    Call ``mha(query, key=None, value=None, *, mask=None, is_causal=False,
    return_weights=False)``: ``query (batch, Lq, E)``, ``key (batch, Lk, kdim)`` and
    ``value (batch, Lk, vdim)`` (both default to ``query``: self-attention). ``mask``
    is boolean (``True`` where a query *may* attend: the opposite of
    ``torch.nn.MultiheadAttention``'s ``attn_mask``) or additive floats, broadcastable
    to ``(batch, num_heads, Lq, Lk)``. Returns ``(batch, Lq, E)``, and the weights
    ``(batch, num_heads, Lq, Lk)`` with ``return_weights``.
    """

    def __init__(
        self,
        embed_dim: int,
        num_heads: int,
        *,
        kdim: int | None = None,
        vdim: int | None = None,
        bias: bool = True,
        dropout: float = 0.0,
        key: Any = None,
        dtype: Any = None,
        backend: str | None = None,
        device: Any = None,
    ) -> None:
        super().__init__(key=key, dtype=dtype, backend=backend, device=device)
        self.embed_dim = positive_int("MultiHeadAttention", "embed_dim", embed_dim)
        self.num_heads = positive_int("MultiHeadAttention", "num_heads", num_heads)
        if embed_dim % num_heads:
            raise hd.InvalidArgumentError(
                f"MultiHeadAttention: embed_dim={embed_dim} is not divisible by num_heads={num_heads}"
            )
        self.kdim = positive_int("MultiHeadAttention", "kdim", kdim, allow_none=True) or self.embed_dim
        self.vdim = positive_int("MultiHeadAttention", "vdim", vdim, allow_none=True) or self.embed_dim
        self.dropout = finite_float("MultiHeadAttention", "dropout", dropout, minimum=0.0, maximum=1.0)
        self.use_bias = bool(bias)
        where = self._placement()
        e = self.embed_dim
        kq, kk, kv, ko = self._keys(4)
        self.q_weight = self._create(_init.glorot_uniform, (e, e), kq, where)
        self.k_weight = self._create(_init.glorot_uniform, (self.kdim, e), kk, where)
        self.v_weight = self._create(_init.glorot_uniform, (self.vdim, e), kv, where)
        self.out_weight = self._create(_init.glorot_uniform, (e, e), ko, where)
        for name in ("q_bias", "k_bias", "v_bias", "out_bias"):
            if self.use_bias:
                setattr(self, name, self._create(_init.zeros, (e,), None, where))
            else:
                self.register_parameter(name, None)

    def forward(
        self,
        query: Array,
        key: Array | None = None,
        value: Array | None = None,
        *,
        mask: Array | None = None,
        is_causal: bool = False,
        return_weights: bool = False,
    ) -> Array | tuple[Array, Array]:
        key = query if key is None else key
        value = key if value is None else value
        for name, x, size in (
            ("query", query, self.embed_dim),
            ("key", key, self.kdim),
            ("value", value, self.vdim),
        ):
            shape = shape_of(x)
            if len(shape) < 2 or (shape[-1] is not None and shape[-1] != size):
                raise hd.ShapeError(
                    f"{self._name()}: expected {name} of shape (batch, length, {size}), got shape {shape}"
                )
        rate = self.dropout if self.training else 0.0
        return F.multi_head_attention(
            query, key, value, self.num_heads, self.q_weight, self.k_weight, self.v_weight, self.out_weight,
            self.q_bias, self.k_bias, self.v_bias, self.out_bias, mask=mask, is_causal=is_causal,
            dropout_rate=rate, dropout_key=self.next_key() if rate else None, return_weights=return_weights,
        )  # fmt: skip

    def extra_repr(self) -> str:
        return f"embed_dim={self.embed_dim}, num_heads={self.num_heads}"


class TransformerEncoderLayer(Module):
    """One Transformer encoder block (``torch.nn.TransformerEncoderLayer(batch_first=True)``).

    Post-norm (default)::

        x = norm1(x + dropout1(self_attn(x)))
        x = norm2(x + dropout2(linear2(dropout(activation(linear1(x))))))

    or pre-norm with ``norm_first=True`` (``x + self_attn(norm1(x))``, ...).

    Parameters
    ----------
    d_model : int
    nhead : int
    dim_feedforward : int
    dropout : float
    activation : str or callable
        ``"relu"`` (default), ``"gelu"``, any name of ``hd.nn.functional.ACTIVATIONS``.
    layer_norm_eps : float
    norm_first : bool
    bias : bool
        Biases in the linear layers, attention and layer norms.
    key, dtype, backend, device
        As for every layer (the key is split among the sublayers).

    Call ``layer(x, *, mask=None, is_causal=False)`` with ``x (batch, length, d_model)``;
    ``mask`` as in :class:`MultiHeadAttention`. Returns the same shape.
    """

    def __init__(
        self,
        d_model: int,
        nhead: int,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: str | Callable[[Array], Array] = "relu",
        layer_norm_eps: float = 1e-5,
        norm_first: bool = False,
        bias: bool = True,
        *,
        key: Any = None,
        dtype: Any = None,
        backend: str | None = None,
        device: Any = None,
    ) -> None:
        super().__init__()
        op = "TransformerEncoderLayer"
        for name, size in (("d_model", d_model), ("nhead", nhead), ("dim_feedforward", dim_feedforward)):
            positive_int(op, name, size)
        finite_float(op, "dropout", dropout, minimum=0.0, maximum=1.0)
        finite_float(op, "layer_norm_eps", layer_norm_eps, minimum=0.0)
        try:
            self.activation = F.get_activation(activation)
        except hd.InvalidArgumentError as e:
            raise hd.InvalidArgumentError(f"TransformerEncoderLayer: {e}") from None
        self.norm_first = bool(norm_first)
        place = {"dtype": dtype, "backend": backend, "device": device}
        k_attn, k1, k2 = _init.split_key(key, 3)
        self.self_attn = MultiHeadAttention(d_model, nhead, bias=bias, dropout=dropout, key=k_attn, **place)
        self.linear1 = Linear(d_model, dim_feedforward, bias, key=k1, **place)
        self.linear2 = Linear(dim_feedforward, d_model, bias, key=k2, **place)
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **place)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **place)
        self.dropout = Dropout(dropout)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)

    def _attention(self, x: Array, mask: Array | None, is_causal: bool) -> Array:
        return self.dropout1(self.self_attn(x, mask=mask, is_causal=is_causal))

    def _feedforward(self, x: Array) -> Array:
        return self.dropout2(self.linear2(self.dropout(self.activation(self.linear1(x)))))

    def forward(self, x: Array, *, mask: Array | None = None, is_causal: bool = False) -> Array:
        if self.norm_first:
            x = hd.add(x, self._attention(self.norm1(x), mask, is_causal))
            return hd.add(x, self._feedforward(self.norm2(x)))
        x = self.norm1(hd.add(x, self._attention(x, mask, is_causal)))
        return self.norm2(hd.add(x, self._feedforward(x)))
