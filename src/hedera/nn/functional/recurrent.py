"""Recurrent cells and layers: ``lstm_cell``, ``gru_cell``, ``lstm`` and ``gru`` (on ``hd.scan``).

PyTorch's equations and gate order, with :func:`linear`'s ``(in, out)`` weight
layout: hedera's ``w_ih`` is the transpose of ``torch.nn.LSTM.weight_ih_l0``.
Two biases, as PyTorch (Keras' single LSTM bias is ``b_ih`` with ``b_hh=None``;
the GRU needs both, since ``b_hn`` sits inside the reset gate).
"""

from __future__ import annotations

import math

import hedera as hd
from hedera.typing import Array

from . import _args
from .activations import sigmoid

__all__ = ["gru", "gru_cell", "lstm", "lstm_cell"]


def _check_weights(op: str, xs: tuple, hs: tuple, w_ih: Array, w_hh: Array, b_ih, b_hh, gates: int) -> int:
    """The hidden size, after checking every shape against it (``xs``, ``hs``: the shapes of one
    step's input and of the hidden state)."""
    wi, wh = _args.shape_of(w_ih), _args.shape_of(w_hh)
    if len(hs) < 1:
        raise hd.ShapeError(f"{op}: the hidden state must have shape (..., hidden_size), got shape {hs}")
    hidden = hs[-1]
    if len(xs) < 1 or wi != (xs[-1], gates * hidden):
        raise hd.ShapeError(
            f"{op}: w_ih must have shape (input_size, {gates} * hidden_size) = ({xs[-1] if xs else '?'}, "
            f"{gates * hidden}) for x of shape {xs} and hidden state of shape {hs}, got shape {wi}"
        )
    if wh != (hidden, gates * hidden):
        raise hd.ShapeError(
            f"{op}: w_hh must have shape (hidden_size, {gates} * hidden_size) = "
            f"({hidden}, {gates * hidden}), got shape {wh}"
        )
    _args.vector_param(op, "b_ih", b_ih, gates * hidden)
    _args.vector_param(op, "b_hh", b_hh, gates * hidden)
    return hidden


def _zero_state_shape(op: str, xs: tuple, w_hh: Array, gates: int) -> tuple:
    """``(batch, hidden_size)``: the shape of the zero state for ``x`` of shape ``xs``."""
    ws = _args.shape_of(w_hh)
    if len(ws) != 2:
        raise hd.ShapeError(
            f"{op}: w_hh must have shape (hidden_size, {gates} * hidden_size), got shape {ws}"
        )
    return (xs[0], ws[0])


def _zero_state(x: Array, w_hh: Array, hidden: int) -> Array:
    """Zeros ``(batch, hidden)`` of the type of ``x @ w_hh``, on ``x``'s device (a batch unknown
    while tracing is fine: the zeros are made from ``x``)."""
    return hd.multiply(hd.zeros_like(x[:, 0, :1]), hd.zeros_like(w_hh[:1, :hidden]))


def _lstm_step(gates_x: Array, h: Array, c: Array, w_hh: Array, b_hh: Array | None) -> tuple[Array, Array]:
    """One LSTM step from the input's precomputed gate contributions ``x @ w_ih + b_ih``."""
    gates = hd.add(gates_x, hd.matmul(h, w_hh))
    if b_hh is not None:
        gates = hd.add(gates, b_hh)
    i, f, g, o = hd.split(gates, 4, axis=-1)
    c = hd.add(hd.multiply(sigmoid(f), c), hd.multiply(sigmoid(i), hd.tanh(g)))
    h = hd.multiply(sigmoid(o), hd.tanh(c))
    return h, c


def _input_gates(x: Array, w_ih: Array, b_ih: Array | None) -> Array:
    """``x @ w_ih + b_ih`` for ``x`` of shape ``(..., input_size)``: a sequence's as one 2-d product
    (TensorFlow makes a batched product of the 3-d one, whose gradient reduces over the batch)."""
    *lead, features = _args.shape_of(x)
    if len(lead) > 1 and None not in lead:  # (static sizes: a trace may not know them)
        flat = hd.reshape(x, (math.prod(lead), features))
        gates = hd.reshape(hd.matmul(flat, w_ih), (*lead, _args.shape_of(w_ih)[-1]))
    else:
        gates = hd.matmul(x, w_ih)
    return gates if b_ih is None else hd.add(gates, b_ih)


def lstm_cell(
    x: Array,
    state: tuple[Array, Array],
    w_ih: Array,
    w_hh: Array,
    b_ih: Array | None = None,
    b_hh: Array | None = None,
) -> tuple[Array, Array]:
    """One LSTM step.

    ``i, f, g, o = split(x @ w_ih + b_ih + h @ w_hh + b_hh, 4)`` (PyTorch's order),
    ``c' = sigmoid(f) * c + sigmoid(i) * tanh(g)``, ``h' = sigmoid(o) * tanh(c')``.

    Parameters
    ----------
    x : array, shape ``(..., input_size)``
    state : pair of arrays ``(h, c)``, each ``(..., hidden_size)``
    w_ih : array, shape ``(input_size, 4 * hidden_size)``
    w_hh : array, shape ``(hidden_size, 4 * hidden_size)``
    b_ih, b_hh : arrays of shape ``(4 * hidden_size,)``, optional

    Returns
    -------
    (h', c') : arrays of shape ``(..., hidden_size)``
    """
    h, c = state
    _check_weights("lstm_cell", _args.shape_of(x), _args.shape_of(h), w_ih, w_hh, b_ih, b_hh, 4)
    return _lstm_step(_input_gates(x, w_ih, b_ih), h, c, w_hh, b_hh)


def lstm(
    x: Array,
    state: tuple[Array, Array] | None,
    w_ih: Array,
    w_hh: Array,
    b_ih: Array | None = None,
    b_hh: Array | None = None,
) -> tuple[Array, tuple[Array, Array]]:
    """An LSTM layer over a sequence (batch first): :func:`lstm_cell` at each step, one :func:`hedera.scan`.

    Parameters
    ----------
    x : array, shape ``(batch, time, input_size)``
    state : pair ``(h0, c0)`` of arrays ``(batch, hidden_size)``, or None for zeros
    w_ih, w_hh, b_ih, b_hh
        As in :func:`lstm_cell`.

    Returns
    -------
    outputs : array, shape ``(batch, time, hidden_size)``
        The hidden state after each step.
    (h, c) : the final state, each ``(batch, hidden_size)``.

    Notes
    -----
    The input projection of all steps is one matrix product; the loop runs the
    recurrence only, as :func:`hedera.scan` over time: a Python loop eagerly, one compiled
    loop (``lax.scan``, ``tf.while_loop``, torch's ``while_loop`` operator) under ``hd.jit``,
    whatever the sequence's length. Eagerly on torch the whole layer is ``torch.lstm``
    instead (its loop in C++, :func:`hedera.nn_ops.lstm`), equal within float rounding.
    """
    xs = _args.expect_rank("lstm", x, 3, "(batch, time, input_size)")
    h, c = (None, None) if state is None else state  # None: zeros (the fused kernel makes its own)
    hs = _zero_state_shape("lstm", xs, w_hh, 4) if h is None else _args.shape_of(h)
    _check_weights("lstm", xs[:1] + xs[2:], hs, w_ih, w_hh, b_ih, b_hh, 4)
    fused = hd.nn_ops.lstm(x, h, c, w_ih, w_hh, b_ih, b_hh)  # the backend's own loop, where it has one
    if fused is not None:
        return fused[0], (fused[1], fused[2])
    if state is None:
        h = c = _zero_state(x, w_hh, hs[-1])
    # time first before the product: the smaller transpose (input_size, not 4 * hidden, per step)
    gates_x = _input_gates(hd.permute_dims(x, (1, 0, 2)), w_ih, b_ih)  # (time, batch, 4 * hidden)

    def step(state: tuple[Array, Array], gates_t: Array) -> tuple[tuple[Array, Array], Array]:
        h, c = _lstm_step(gates_t, state[0], state[1], w_hh, b_hh)
        return (h, c), h

    (h, c), outputs = hd.scan(step, (h, c), gates_x, length=xs[1])
    return hd.permute_dims(outputs, (1, 0, 2)), (h, c)


def gru_cell(
    x: Array,
    h: Array,
    w_ih: Array,
    w_hh: Array,
    b_ih: Array | None = None,
    b_hh: Array | None = None,
) -> Array:
    """One GRU step (PyTorch's equations; Keras' ``reset_after=True``).

    ``r, z, n`` gates in that order: ``r = sigmoid(x W_ir + b_ir + h W_hr + b_hr)``,
    ``z`` likewise, ``n = tanh(x W_in + b_in + r * (h W_hn + b_hn))``,
    ``h' = (1 - z) * n + z * h``.

    Parameters
    ----------
    x : array, shape ``(..., input_size)``
    h : array, shape ``(..., hidden_size)``
    w_ih : array, shape ``(input_size, 3 * hidden_size)``
    w_hh : array, shape ``(hidden_size, 3 * hidden_size)``
    b_ih, b_hh : arrays of shape ``(3 * hidden_size,)``, optional

    Returns
    -------
    array, shape ``(..., hidden_size)``: the new hidden state.
    """
    _check_weights("gru_cell", _args.shape_of(x), _args.shape_of(h), w_ih, w_hh, b_ih, b_hh, 3)
    xr, xz, xn = hd.split(_input_gates(x, w_ih, b_ih), 3, axis=-1)
    hh = hd.matmul(h, w_hh)
    if b_hh is not None:
        hh = hd.add(hh, b_hh)
    hr, hz, hn = hd.split(hh, 3, axis=-1)
    r = sigmoid(hd.add(xr, hr))
    z = sigmoid(hd.add(xz, hz))
    n = hd.tanh(hd.add(xn, hd.multiply(r, hn)))
    return hd.add(n, hd.multiply(z, hd.subtract(h, n)))


def gru(
    x: Array,
    h0: Array | None,
    w_ih: Array,
    w_hh: Array,
    b_ih: Array | None = None,
    b_hh: Array | None = None,
) -> tuple[Array, Array]:
    """A GRU layer over a sequence (batch first): :func:`gru_cell` at each step, one :func:`hedera.scan`.

    Parameters
    ----------
    x : array, shape ``(batch, time, input_size)``
    h0 : array ``(batch, hidden_size)``, or None for zeros
    w_ih, w_hh, b_ih, b_hh
        As in :func:`gru_cell`.

    Returns
    -------
    outputs : array, shape ``(batch, time, hidden_size)``
        The hidden state after each step.
    h : array, shape ``(batch, hidden_size)``
        The final hidden state.
    """
    xs = _args.expect_rank("gru", x, 3, "(batch, time, input_size)")
    hs = _zero_state_shape("gru", xs, w_hh, 3) if h0 is None else _args.shape_of(h0)
    _check_weights("gru", xs[:1] + xs[2:], hs, w_ih, w_hh, b_ih, b_hh, 3)
    fused = hd.nn_ops.gru(x, h0, w_ih, w_hh, b_ih, b_hh)  # the backend's own loop, where it has one
    if fused is not None:
        return fused
    if h0 is None:
        h0 = _zero_state(x, w_hh, hs[-1])

    def step(h: Array, x_t: Array) -> tuple[Array, Array]:
        h = gru_cell(x_t, h, w_ih, w_hh, b_ih, b_hh)
        return h, h

    h, outputs = hd.scan(step, h0, hd.permute_dims(x, (1, 0, 2)), length=xs[1])
    return hd.permute_dims(outputs, (1, 0, 2)), h
