"""Dense layers (``Linear``, ``Embedding``) and layers without parameters (``Flatten``, ``Dropout``...)."""

from __future__ import annotations

import math
from typing import Any

import hedera as hd
from hedera.typing import Array

from .. import functional as F  # noqa: N812  (torch.nn.functional's customary name)
from .. import init as _init
from ..module import Module
from ._base import (
    InitLike,
    Layer,
    finite_float,
    integer,
    positive_int,
    resolve_init,
    shape_of,
    torch_default_uniform,
)

__all__ = ["Dropout", "Embedding", "Flatten", "Identity", "Linear"]


class Linear(Layer):
    """``y = x @ weight + bias``.

    Parameters
    ----------
    in_features : int or None
        The size of the input's last axis; ``None`` to take it from the first input.
    out_features : int
    bias : bool
        Whether to add a bias.
    weight_init, bias_init : initializer or name, optional
        Default PyTorch's: ``U(-1/sqrt(in_features), 1/sqrt(in_features))`` for both
        (``kaiming_uniform(a=sqrt(5))`` for the weight).
    key, dtype, backend, device
        See :class:`hedera.nn.layers.Layer`.

    Attributes
    ----------
    weight : array, shape ``(in_features, out_features)`` (the transpose of ``torch.nn.Linear.weight``)
    bias : array, shape ``(out_features,)``, or None

    Shapes: input ``(..., in_features)``, output ``(..., out_features)``.

    Examples
    --------
    >>> import numpy as np, hedera as hd
    >>> layer = hd.nn.Linear(3, 2, key=0)
    >>> layer(np.ones((4, 3), np.float32)).shape
    (4, 2)
    """

    def __init__(
        self,
        in_features: int | None,
        out_features: int,
        bias: bool = True,
        *,
        weight_init: InitLike = None,
        bias_init: InitLike = None,
        key: Any = None,
        dtype: Any = None,
        backend: str | None = None,
        device: Any = None,
    ) -> None:
        super().__init__(key=key, dtype=dtype, backend=backend, device=device)
        self.in_features = positive_int("Linear", "in_features", in_features, allow_none=True)
        self.out_features = positive_int("Linear", "out_features", out_features)
        self.use_bias = bool(bias)
        self.weight_init = resolve_init("Linear", "weight_init", weight_init, None)
        self.bias_init = resolve_init("Linear", "bias_init", bias_init, None)
        if self.in_features is None:
            self.built = False
        else:
            self._make(self._placement())

    def build(self, x: Array) -> None:
        """Take ``in_features`` from the first input ``(..., in_features)``."""
        shape = shape_of(x)
        if len(shape) < 1 or shape[-1] is None:
            raise self._bad_input(x, "(..., in_features) with a known last axis")
        self.in_features = shape[-1]
        self._make(self._placement(x))

    def _make(self, where: Any) -> None:
        kw, kb = self._keys(2)
        default = torch_default_uniform(self.in_features)
        self.weight = self._create(
            self.weight_init or default, (self.in_features, self.out_features), kw, where
        )
        if self.use_bias:
            self.bias = self._create(self.bias_init or default, (self.out_features,), kb, where)
        else:
            self.register_parameter("bias", None)

    def forward(self, x: Array) -> Array:
        """``x @ weight + bias`` for ``x`` of shape ``(..., in_features)``."""
        self._check_last(x, self.in_features, f"(..., {self.in_features})")
        return F.linear(x, self.weight, self.bias)

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.use_bias}"


class Embedding(Layer):
    """A lookup table: integer ids to rows of ``weight``.

    Parameters
    ----------
    num_embeddings, embedding_dim : int
    weight_init : initializer or name, optional
        Default ``normal(0, 1)`` (PyTorch's).

    Attributes
    ----------
    weight : array, shape ``(num_embeddings, embedding_dim)``

    Shapes: input integer ids of any shape, output ``(*ids.shape, embedding_dim)``.
    """

    def __init__(
        self,
        num_embeddings: int,
        embedding_dim: int,
        *,
        weight_init: InitLike = None,
        key: Any = None,
        dtype: Any = None,
        backend: str | None = None,
        device: Any = None,
    ) -> None:
        super().__init__(key=key, dtype=dtype, backend=backend, device=device)
        self.num_embeddings = positive_int("Embedding", "num_embeddings", num_embeddings)
        self.embedding_dim = positive_int("Embedding", "embedding_dim", embedding_dim)
        init = resolve_init("Embedding", "weight_init", weight_init, _init.normal)
        (k,) = self._keys(1)
        self.weight = self._create(init, (self.num_embeddings, self.embedding_dim), k, self._placement())

    def forward(self, ids: Array) -> Array:
        """The rows ``weight[ids]``, shape ``(*ids.shape, embedding_dim)``."""
        return F.embedding(ids, self.weight)

    def extra_repr(self) -> str:
        return f"{self.num_embeddings}, {self.embedding_dim}"


class Flatten(Module):
    """Merge axes ``start_axis`` to ``end_axis`` (inclusive) into one; default all but the batch axis.

    Shapes: ``(batch, d1, d2, ...)`` to ``(batch, d1 * d2 * ...)`` with the defaults.
    """

    def __init__(self, start_axis: int = 1, end_axis: int = -1) -> None:
        super().__init__()
        self.start_axis = integer("Flatten", "start_axis", start_axis)
        self.end_axis = integer("Flatten", "end_axis", end_axis)

    def forward(self, x: Array) -> Array:
        shape = shape_of(x)
        n = len(shape)
        start = self.start_axis + n if self.start_axis < 0 else self.start_axis
        end = self.end_axis + n if self.end_axis < 0 else self.end_axis
        if not 0 <= start <= end < n:
            raise hd.InvalidAxisError(
                f"Flatten(start_axis={self.start_axis}, end_axis={self.end_axis}): axes out of range "
                f"for an input of shape {shape}"
            )
        middle = shape[start : end + 1]
        merged = -1 if None in middle else math.prod(middle)
        new = (*shape[:start], merged, *shape[end + 1 :])
        if merged != -1 and None in new:  # one unknown (batch) axis elsewhere: let reshape infer it
            new = tuple(-1 if d is None else d for d in new)
        return hd.reshape(x, new)

    def extra_repr(self) -> str:
        return f"start_axis={self.start_axis}, end_axis={self.end_axis}"


class Identity(Module):
    """Returns its input unchanged."""

    def forward(self, x: Array) -> Array:
        return x


class Dropout(Module):
    """Zero each element with probability ``rate`` in training mode, scaling the rest by ``1 / (1 - rate)``.

    The identity in evaluation mode. Draws with ``apply(..., rng=key)``'s key
    when given, else with the input backend's stateful generator.
    """

    def __init__(self, rate: float = 0.5) -> None:
        super().__init__()
        self.rate = finite_float("Dropout", "rate", rate, minimum=0.0, maximum=1.0)

    def forward(self, x: Array) -> Array:
        if not self.training or self.rate == 0.0:
            return x
        return F.dropout(x, self.rate, key=self.next_key(), training=True)

    def extra_repr(self) -> str:
        return f"rate={self.rate}"
