"""Attention and recurrent cells on every backend, PyTorch as ground truth.

References: ``F.scaled_dot_product_attention``, ``nn.MultiheadAttention``
(batch first, separate key/value sizes), ``nn.LSTMCell``, ``nn.LSTM``,
``nn.GRUCell``, with hedera's ``(in, out)`` weights transposed into PyTorch's
``(out, in)``.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as TF  # noqa: N812

import hedera as hd
from nn_reference import assert_close, to_backend

F = hd.nn.functional
RNG = np.random.default_rng(2)


def _t(a):
    return torch.from_numpy(np.ascontiguousarray(a))


@pytest.mark.parametrize("case", ["plain", "bool_mask", "float_mask", "causal", "causal_and_mask", "scale"])
def test_sdpa_matches_torch(backend, case):
    q = RNG.normal(size=(2, 3, 5, 4))
    k = RNG.normal(size=(2, 3, 6, 4))
    v = RNG.normal(size=(2, 3, 6, 7))
    bool_mask = RNG.uniform(size=(2, 1, 5, 6)) > 0.3
    bool_mask[..., 0] = True  # every query keeps a key
    float_mask = RNG.normal(size=(5, 6))
    kwargs, tkwargs, mask = {}, {}, None
    if case == "bool_mask":
        mask = bool_mask
    elif case == "float_mask":
        mask = float_mask
    elif case == "causal":
        kwargs["is_causal"] = tkwargs["is_causal"] = True
    elif case == "causal_and_mask":
        mask = bool_mask
        kwargs["is_causal"] = True
        tkwargs["attn_mask"] = _t(bool_mask & np.tril(np.ones((5, 6), bool)))
    elif case == "scale":
        kwargs["scale"] = tkwargs["scale"] = 0.3
    if mask is not None:
        kwargs["mask"] = to_backend(mask, backend)
        tkwargs.setdefault("attn_mask", _t(mask))
    out, weights = F.scaled_dot_product_attention(
        to_backend(q, backend), to_backend(k, backend), to_backend(v, backend), return_weights=True, **kwargs
    )
    expected = TF.scaled_dot_product_attention(_t(q), _t(k), _t(v), **tkwargs)
    assert_close(out, expected.numpy())
    np.testing.assert_allclose(hd.to_numpy(weights).sum(-1), 1.0, rtol=1e-12)


def test_sdpa_fully_masked_row_is_finite(backend):
    q, k, v = (to_backend(RNG.normal(size=(1, 2, 3)), backend) for _ in range(3))
    mask = np.array([[False, False], [True, False]])
    out = hd.to_numpy(F.scaled_dot_product_attention(q, k, v, mask=to_backend(mask, backend)))
    assert np.all(np.isfinite(out))


@pytest.mark.parametrize("masked", [False, True])
def test_multi_head_attention_matches_torch(backend, masked):
    batch, lq, lk, e, ek, ev, heads = 2, 4, 5, 6, 3, 5, 3
    query, key, value = (
        RNG.normal(size=(batch, lq, e)),
        RNG.normal(size=(batch, lk, ek)),
        RNG.normal(size=(batch, lk, ev)),
    )
    wq, wk, wv, wo = (
        RNG.normal(size=(e, e)),
        RNG.normal(size=(ek, e)),
        RNG.normal(size=(ev, e)),
        RNG.normal(size=(e, e)),
    )
    bq, bk, bv, bo = (RNG.normal(size=e) for _ in range(4))
    mask = RNG.uniform(size=(batch, 1, lq, lk)) > 0.4 if masked else None
    if masked:
        mask[..., 0] = True
    mha = torch.nn.MultiheadAttention(e, heads, kdim=ek, vdim=ev, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        mha.q_proj_weight.copy_(_t(wq.T))
        mha.k_proj_weight.copy_(_t(wk.T))
        mha.v_proj_weight.copy_(_t(wv.T))
        mha.in_proj_bias.copy_(_t(np.concatenate([bq, bk, bv])))
        mha.out_proj.weight.copy_(_t(wo.T))
        mha.out_proj.bias.copy_(_t(bo))
    # torch's boolean attn_mask is True where attention is NOT allowed, one (lq, lk) mask per batch * head
    tmask = None if mask is None else _t(~np.repeat(mask, heads, axis=1).reshape(batch * heads, lq, lk))
    expected, expected_weights = mha(
        _t(query), _t(key), _t(value), attn_mask=tmask, average_attn_weights=False
    )
    b = lambda a: None if a is None else to_backend(a, backend)
    out, weights = F.multi_head_attention(
        b(query),
        b(key),
        b(value),
        heads,
        b(wq),
        b(wk),
        b(wv),
        b(wo),
        b(bq),
        b(bk),
        b(bv),
        b(bo),
        mask=b(mask),
        return_weights=True,
    )
    assert_close(out, expected.detach().numpy())
    assert_close(weights, expected_weights.detach().numpy())


def _lstm_weights(n_in, hidden, gates):
    return (
        RNG.normal(size=(n_in, gates * hidden)),
        RNG.normal(size=(hidden, gates * hidden)),
        RNG.normal(size=gates * hidden),
        RNG.normal(size=gates * hidden),
    )


def _load(cell, w_ih, w_hh, b_ih, b_hh, suffix=""):
    with torch.no_grad():
        getattr(cell, f"weight_ih{suffix}").copy_(_t(w_ih.T))
        getattr(cell, f"weight_hh{suffix}").copy_(_t(w_hh.T))
        getattr(cell, f"bias_ih{suffix}").copy_(_t(b_ih))
        getattr(cell, f"bias_hh{suffix}").copy_(_t(b_hh))


def test_lstm_cell_matches_torch(backend):
    x, h, c = RNG.normal(size=(3, 4)), RNG.normal(size=(3, 5)), RNG.normal(size=(3, 5))
    weights = _lstm_weights(4, 5, 4)
    cell = torch.nn.LSTMCell(4, 5, dtype=torch.float64)
    _load(cell, *weights)
    eh, ec = cell(_t(x), (_t(h), _t(c)))
    gh, gc = F.lstm_cell(
        to_backend(x, backend),
        (to_backend(h, backend), to_backend(c, backend)),
        *(to_backend(w, backend) for w in weights),
    )
    assert_close(gh, eh.detach().numpy())
    assert_close(gc, ec.detach().numpy())


@pytest.mark.parametrize("initial", [False, True])
def test_lstm_sequence_matches_torch(backend, initial):
    x = RNG.normal(size=(2, 6, 3))
    h0, c0 = RNG.normal(size=(2, 4)), RNG.normal(size=(2, 4))
    weights = _lstm_weights(3, 4, 4)
    lstm = torch.nn.LSTM(3, 4, batch_first=True, dtype=torch.float64)
    _load(lstm, *weights, suffix="_l0")
    state = (_t(h0)[None], _t(c0)[None]) if initial else None
    expected, (eh, ec) = lstm(_t(x), state)
    hstate = (to_backend(h0, backend), to_backend(c0, backend)) if initial else None
    out, (h, c) = F.lstm(to_backend(x, backend), hstate, *(to_backend(w, backend) for w in weights))
    assert_close(out, expected.detach().numpy())
    assert_close(h, eh[0].detach().numpy())
    assert_close(c, ec[0].detach().numpy())


def test_lstm_without_biases(backend):
    x, h, c = RNG.normal(size=(2, 3)), RNG.normal(size=(2, 4)), RNG.normal(size=(2, 4))
    w_ih, w_hh, _, _ = _lstm_weights(3, 4, 4)
    cell = torch.nn.LSTMCell(3, 4, bias=False, dtype=torch.float64)
    with torch.no_grad():
        cell.weight_ih.copy_(_t(w_ih.T))
        cell.weight_hh.copy_(_t(w_hh.T))
    eh, _ = cell(_t(x), (_t(h), _t(c)))
    gh, _ = F.lstm_cell(
        *(to_backend(a, backend) for a in (x,)),
        (to_backend(h, backend), to_backend(c, backend)),
        to_backend(w_ih, backend),
        to_backend(w_hh, backend),
    )
    assert_close(gh, eh.detach().numpy())


def test_gru_cell_matches_torch(backend):
    x, h = RNG.normal(size=(3, 4)), RNG.normal(size=(3, 5))
    weights = _lstm_weights(4, 5, 3)
    cell = torch.nn.GRUCell(4, 5, dtype=torch.float64)
    _load(cell, *weights)
    expected = cell(_t(x), _t(h))
    got = F.gru_cell(
        to_backend(x, backend), to_backend(h, backend), *(to_backend(w, backend) for w in weights)
    )
    assert_close(got, expected.detach().numpy())
