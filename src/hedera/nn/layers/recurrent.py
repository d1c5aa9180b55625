"""Recurrent layers over sequences (batch first): ``LSTM`` and ``GRU``, stacked.

PyTorch's equations, gate orders and initialisation (every weight and bias
``U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))``), with ``hd.nn.functional``'s
``(in, out)`` weight layout: layer ``k``'s ``w_ih_l{k}`` is the transpose of
``torch.nn.LSTM.weight_ih_l{k}``.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import hedera as hd
from hedera.typing import Array

from .. import init as _init
from ..functional import _unchecked as F  # noqa: N812  (torch.nn.functional's customary name)
from ._base import Layer, finite_float, positive_int, shape_of

__all__ = ["GRU", "LSTM"]


class _Recurrent(Layer):
    gates: int = 4

    def __init__(
        self,
        input_size: int | None,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        dropout: float = 0.0,
        *,
        key: Any = None,
        dtype: Any = None,
        backend: str | None = None,
        device: Any = None,
    ) -> None:
        super().__init__(key=key, dtype=dtype, backend=backend, device=device)
        name = type(self).__name__
        self.input_size = positive_int(name, "input_size", input_size, allow_none=True)
        self.hidden_size = positive_int(name, "hidden_size", hidden_size)
        self.num_layers = positive_int(name, "num_layers", num_layers)
        self.use_bias = bool(bias)
        self.dropout = finite_float(name, "dropout", dropout, minimum=0.0, maximum=1.0)
        if not 0.0 <= self.dropout <= 1.0:
            raise hd.InvalidArgumentError(f"{name}: dropout must be in [0, 1], got {dropout}")
        if self.input_size is None:
            self.built = False
        else:
            self._make(self._placement())

    def build(self, x: Array, state: Any = None) -> None:
        shape = self._check_rank(x, 3, "(batch, time, input_size)")
        if shape[-1] is None:
            raise self._bad_input(x, "(batch, time, input_size) with a known input_size")
        self.input_size = shape[-1]
        self._make(self._placement(x))

    def _make(self, where: Any) -> None:
        bound = 1.0 / math.sqrt(self.hidden_size)
        init = functools.partial(_init.uniform, low=-bound, high=bound)
        h, g = self.hidden_size, self.gates * self.hidden_size
        keys = iter(self._keys(4 * self.num_layers))
        for k in range(self.num_layers):
            rows = self.input_size if k == 0 else h
            setattr(self, f"w_ih_l{k}", self._create(init, (rows, g), next(keys), where))
            setattr(self, f"w_hh_l{k}", self._create(init, (h, g), next(keys), where))
            for b in ("b_ih", "b_hh"):
                key = next(keys)
                if self.use_bias:
                    setattr(self, f"{b}_l{k}", self._create(init, (g,), key, where))
                else:
                    self.register_parameter(f"{b}_l{k}", None)

    def _weights(self, k: int) -> tuple[Array, Array, Array | None, Array | None]:
        return (getattr(self, f"w_ih_l{k}"), getattr(self, f"w_hh_l{k}"), getattr(self, f"b_ih_l{k}"),
                getattr(self, f"b_hh_l{k}"))  # fmt: skip

    def _check_input(self, x: Array) -> tuple[int | None, ...]:
        shape = self._check_rank(x, 3, f"(batch, time, {self.input_size})")
        if shape[-1] is not None and shape[-1] != self.input_size:
            raise self._bad_input(x, f"(batch, time, {self.input_size})")
        return shape

    def _between_layers(self, y: Array, k: int) -> Array:
        if self.training and self.dropout and k < self.num_layers - 1:
            return F.dropout(y, self.dropout, key=self.next_key())
        return y

    def _check_state(self, name: str, s: Array, batch: int | None) -> None:
        expected = (self.num_layers, batch, self.hidden_size)
        shape = shape_of(s)
        if len(shape) != 3 or any(
            a is not None and b is not None and a != b for a, b in zip(shape, expected, strict=True)
        ):
            raise hd.ShapeError(
                f"{self._name()}: {name} must have shape (num_layers, batch, hidden_size) = {expected}, "
                f"got {shape}"
            )

    def extra_repr(self) -> str:
        text = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            text += f", num_layers={self.num_layers}"
        if not self.use_bias:
            text += ", bias=False"
        return text


def _stacked(states: list[Array]) -> Array:
    """The layers' final states along a new first axis (one layer: an expand_dims, cheaper than a stack)."""
    return hd.expand_dims(states[0], axis=0) if len(states) == 1 else hd.stack(states)


class LSTM(_Recurrent):
    """A stack of ``num_layers`` LSTM layers over a sequence (``torch.nn.LSTM(batch_first=True)``).

    Parameters
    ----------
    input_size : int or None
        ``None`` to take it from the first input.
    hidden_size : int
    num_layers : int
    bias : bool
    dropout : float
        Dropout on the outputs of every layer but the last, in training mode.
    key, dtype, backend, device
        See :class:`hedera.nn.layers.Layer`.

    Attributes
    ----------
    w_ih_l{k} : array, shape ``(input_size or hidden_size, 4 * hidden_size)``, gates ``i, f, g, o``
    w_hh_l{k} : array, shape ``(hidden_size, 4 * hidden_size)``
    b_ih_l{k}, b_hh_l{k} : arrays, shape ``(4 * hidden_size,)``, or None

    Call ``lstm(x, state=None)`` with ``x`` of shape ``(batch, time, input_size)``
    and ``state`` a pair ``(h0, c0)`` of arrays ``(num_layers, batch, hidden_size)``
    (zeros by default). Returns ``(outputs, (h_n, c_n))``: the last layer's hidden
    states ``(batch, time, hidden_size)`` and the final states, shaped like ``state``.
    """

    gates = 4

    def forward(
        self, x: Array, state: tuple[Array, Array] | None = None
    ) -> tuple[Array, tuple[Array, Array]]:
        shape = self._check_input(x)
        if state is not None:
            self._check_state("h0", state[0], shape[0])
            self._check_state("c0", state[1], shape[0])
        hs, cs = [], []
        y = x
        for k in range(self.num_layers):
            layer_state = None if state is None else (state[0][k], state[1][k])
            y, (h, c) = F.lstm(y, layer_state, *self._weights(k))
            hs.append(h)
            cs.append(c)
            y = self._between_layers(y, k)
        return y, (_stacked(hs), _stacked(cs))


class GRU(_Recurrent):
    """A stack of ``num_layers`` GRU layers over a sequence (``torch.nn.GRU(batch_first=True)``).

    As :class:`LSTM`, with gates ``r, z, n`` (weights ``(…, 3 * hidden_size)``) and a
    single state: ``gru(x, h0=None)`` returns ``(outputs, h_n)``, ``h0`` and ``h_n`` of
    shape ``(num_layers, batch, hidden_size)``.
    """

    gates = 3

    def forward(self, x: Array, h0: Array | None = None) -> tuple[Array, Array]:
        shape = self._check_input(x)
        if h0 is not None:
            self._check_state("h0", h0, shape[0])
        finals = []
        y = x
        for k in range(self.num_layers):
            w_ih, w_hh, b_ih, b_hh = self._weights(k)
            outputs, h = F.gru(y, None if h0 is None else h0[k], w_ih, w_hh, b_ih, b_hh)
            finals.append(h)
            y = self._between_layers(outputs, k)
        return y, _stacked(finals)
