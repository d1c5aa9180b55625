"""Losses on every backend against PyTorch's (ground truth) and NumPy written out, for every reduction."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as TF  # noqa: N812

import hedera as hd
from nn_reference import assert_close, to_backend

F = hd.nn.functional
RNG = np.random.default_rng(3)
REDUCTIONS = ("mean", "sum", "none")


def _t(a):
    return torch.from_numpy(np.ascontiguousarray(a))


def _log_softmax(x, axis):
    m = x.max(axis=axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=axis, keepdims=True))


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("smoothing", [0.0, 0.2])
def test_cross_entropy_integer_targets_matches_torch(backend, reduction, smoothing):
    logits = RNG.normal(size=(6, 5)) * 3
    targets = RNG.integers(0, 5, size=6)
    got = F.cross_entropy(
        to_backend(logits, backend),
        to_backend(targets, backend),
        reduction=reduction,
        label_smoothing=smoothing,
    )
    expected = TF.cross_entropy(_t(logits), _t(targets), reduction=reduction, label_smoothing=smoothing)
    assert_close(got, expected.numpy())


@pytest.mark.parametrize("smoothing", [0.0, 0.1])
def test_cross_entropy_probability_targets_and_class_axis(backend, smoothing):
    logits = RNG.normal(size=(2, 4, 3, 3))  # classes on axis 1, as PyTorch's images
    probs = RNG.dirichlet(np.ones(4), size=(2, 3, 3)).transpose(0, 3, 1, 2)
    got = F.cross_entropy(
        to_backend(logits, backend), to_backend(probs, backend), axis=1, label_smoothing=smoothing
    )
    expected = TF.cross_entropy(_t(logits), _t(probs), label_smoothing=smoothing)
    assert_close(got, expected.numpy())
    one_hot = np.eye(4)[RNG.integers(0, 4, size=(2, 3, 3))]  # channels last: classes on -1
    logits_last = np.moveaxis(logits, 1, -1)
    got = F.cross_entropy(to_backend(logits_last, backend), to_backend(one_hot, backend), reduction="none")
    assert_close(got, -(one_hot * _log_softmax(logits_last, -1)).sum(-1))


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_nll_loss_matches_torch(backend, reduction):
    log_probs = _log_softmax(RNG.normal(size=(7, 4)), -1)
    targets = RNG.integers(0, 4, size=7)
    got = F.nll_loss(to_backend(log_probs, backend), to_backend(targets, backend), reduction=reduction)
    assert_close(got, TF.nll_loss(_t(log_probs), _t(targets), reduction=reduction).numpy())


@pytest.mark.filterwarnings("ignore:divide by zero:RuntimeWarning")  # NumPy's log(0) before the clamp
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_binary_cross_entropy_matches_torch(backend, reduction):
    probs = np.concatenate([RNG.uniform(0.01, 0.99, size=8), [0.0, 1.0]])
    targets = np.concatenate([RNG.uniform(size=8), [0.0, 0.0]])
    got = F.binary_cross_entropy(
        to_backend(probs, backend), to_backend(targets, backend), reduction=reduction
    )
    assert_close(got, TF.binary_cross_entropy(_t(probs), _t(targets), reduction=reduction).numpy())


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("pos_weight", [None, 2.5, "array"])
def test_binary_cross_entropy_with_logits_matches_torch(backend, reduction, pos_weight):
    logits = np.concatenate([RNG.normal(size=(3, 4)) * 4, [[-200.0, 200.0, 0.0, 50.0]]])
    targets = RNG.uniform(size=(4, 4))
    pw = RNG.uniform(0.5, 2.0, size=4) if pos_weight == "array" else pos_weight
    hpw = to_backend(pw, backend) if pos_weight == "array" else pw
    tpw = None if pw is None else _t(np.broadcast_to(np.asarray(pw, float), (4,)).copy())
    got = F.binary_cross_entropy_with_logits(
        to_backend(logits, backend), to_backend(targets, backend), pos_weight=hpw, reduction=reduction
    )
    expected = TF.binary_cross_entropy_with_logits(
        _t(logits), _t(targets), pos_weight=tpw, reduction=reduction
    )
    assert_close(got, expected.numpy())


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_regression_losses_match_numpy(backend, reduction):
    a, b = RNG.normal(size=(3, 5)) * 2, RNG.normal(size=(3, 5))
    d = a - b
    reduce = {"mean": np.mean, "sum": np.sum, "none": lambda v: v}[reduction]
    ha, hb = to_backend(a, backend), to_backend(b, backend)
    assert_close(F.mse(ha, hb, reduction=reduction), reduce(d**2))
    assert_close(F.l1(ha, hb, reduction=reduction), reduce(np.abs(d)))
    for delta in (1.0, 0.5):
        huber = np.where(np.abs(d) < delta, 0.5 * d**2, delta * (np.abs(d) - 0.5 * delta))
        assert_close(F.huber(ha, hb, delta=delta, reduction=reduction), reduce(huber))
        assert_close(
            F.huber(ha, hb, delta=delta, reduction=reduction),
            TF.huber_loss(_t(a), _t(b), delta=delta, reduction=reduction).numpy(),
        )


@pytest.mark.filterwarnings("ignore:reduction. 'mean' divides:UserWarning")  # torch's own note on 'mean'
@pytest.mark.parametrize("reduction", [*REDUCTIONS, "batchmean"])
@pytest.mark.parametrize("log_target", [False, True])
def test_kl_div_matches_torch(backend, reduction, log_target):
    inp = _log_softmax(RNG.normal(size=(4, 5)), -1)
    target = RNG.dirichlet(np.ones(5), size=4)
    target[0, 1] = 0.0  # a zero-probability target contributes 0
    target = np.log(target + 1e-300) if log_target else target
    got = F.kl_div(
        to_backend(inp, backend), to_backend(target, backend), reduction=reduction, log_target=log_target
    )
    expected = TF.kl_div(_t(inp), _t(target), reduction=reduction, log_target=log_target)
    assert_close(got, expected.numpy())


def test_losses_keep_float32(backend):
    logits = to_backend(RNG.normal(size=(4, 3)), backend, "float32")
    targets = to_backend(np.array([0, 2, 1, 1]), backend)
    assert hd.dtype(F.cross_entropy(logits, targets)) == hd.float32
    assert hd.dtype(F.mse(logits, logits)) == hd.float32
    assert hd.dtype(F.binary_cross_entropy_with_logits(logits, F.sigmoid(logits))) == hd.float32
