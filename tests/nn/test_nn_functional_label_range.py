"""Integer targets of ``cross_entropy`` and ``nll_loss``: ``ignore_index`` as torch, and labels out
of range raise eagerly (as torch's "Target 5 is out of bounds") and give NaN when compiled
(docs/nn.md, "Class targets out of range"). PyTorch is the reference.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as TF  # noqa: N812

import hedera as hd
from nn_reference import assert_close, to_backend

F = hd.nn.functional
RNG = np.random.default_rng(21)
LOGITS = RNG.normal(size=(5, 3))
LOSSES = {
    "cross_entropy": (F.cross_entropy, lambda x, t, **k: TF.cross_entropy(x, t, **k)),
    "nll_loss": (F.nll_loss, lambda x, t, **k: TF.nll_loss(TF.log_softmax(x, -1), t, **k)),
}


def _inputs(name, backend, logits=LOGITS):
    x = logits if name == "cross_entropy" else logits - np.log(np.exp(logits).sum(-1, keepdims=True))
    return to_backend(x, backend)


@pytest.mark.parametrize("name", sorted(LOSSES))
@pytest.mark.parametrize("bad", [3, 7, -1, -5])
def test_out_of_range_targets_raise_eagerly(backend, name, bad):
    ours, _ = LOSSES[name]
    targets = np.array([0, 2, bad, 1, 1])
    with pytest.raises(
        hd.InvalidArgumentError, match=rf"{name}: target {bad} \(at index \(2,\) of targets\)"
    ):
        ours(_inputs(name, backend), to_backend(targets, backend))
    with pytest.raises(IndexError, match="out of bounds"):  # torch agrees that these are bad
        torch_loss = LOSSES[name][1]
        torch_loss(torch.from_numpy(LOGITS), torch.from_numpy(targets))


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_out_of_range_among_ignored_targets_raises(backend, name):
    """The mask path (some targets ignored) checks the others too; a scalar target is checked."""
    ours, _ = LOSSES[name]
    with pytest.raises(hd.InvalidArgumentError, match="target 9"):
        ours(_inputs(name, backend), to_backend(np.array([-100, 9, 0, 1, 2]), backend))
    with pytest.raises(hd.InvalidArgumentError, match=r"target 4 \(at index \(\) of targets\)"):
        ours(_inputs(name, backend, LOGITS[0]), to_backend(np.array(4), backend))


@pytest.mark.parametrize("name", sorted(LOSSES))
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("ignore_index", [-100, 1])
def test_ignore_index_matches_torch(backend, name, reduction, ignore_index):
    ours, theirs = LOSSES[name]
    targets = np.array([0, 2, -100, 1, 1]) if ignore_index == -100 else np.array([0, 2, 1, 1, 0])
    got = ours(
        _inputs(name, backend), to_backend(targets, backend), reduction=reduction, ignore_index=ignore_index
    )
    expected = theirs(
        torch.from_numpy(LOGITS), torch.from_numpy(targets), reduction=reduction, ignore_index=ignore_index
    )
    assert_close(got, expected.numpy())


@pytest.mark.parametrize("reduction", ["mean", "none"])
def test_ignore_index_with_label_smoothing_matches_torch(backend, reduction):
    targets = np.array([0, -100, 2, 1, -100])
    got = F.cross_entropy(
        to_backend(LOGITS, backend), to_backend(targets, backend), reduction=reduction, label_smoothing=0.2
    )
    expected = TF.cross_entropy(
        torch.from_numpy(LOGITS), torch.from_numpy(targets), reduction=reduction, label_smoothing=0.2
    )
    assert_close(got, expected.numpy())


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")  # numpy's 0 / 0
def test_all_targets_ignored_gives_nan_mean_as_torch(backend):
    targets = np.full(5, -100)
    got = hd.to_numpy(F.cross_entropy(to_backend(LOGITS, backend), to_backend(targets, backend)))
    assert np.isnan(got)
    assert torch.isnan(TF.cross_entropy(torch.from_numpy(LOGITS), torch.from_numpy(targets)))


def test_bad_ignore_index_kind(backend):
    with pytest.raises(hd.ArgumentTypeError, match="ignore_index must be an int"):
        F.cross_entropy(to_backend(LOGITS, backend), to_backend(np.zeros(5, int), backend), ignore_index=1.5)


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_gradients_skip_ignored_targets(autodiff_backend, name):
    ours, _ = LOSSES[name]
    targets = np.array([0, -100, 2, 1, -100])
    x = _inputs(name, autodiff_backend)
    t = to_backend(targets, autodiff_backend)
    grad = hd.grad(lambda v: ours(v, t))(x)
    xt = torch.from_numpy(np.array(hd.to_numpy(x))).requires_grad_(True)
    reference = TF.cross_entropy if name == "cross_entropy" else TF.nll_loss
    reference(xt, torch.from_numpy(targets)).backward()
    assert_close(grad, xt.grad.numpy())


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_compiled_out_of_range_targets_give_nan(autodiff_backend, name):
    """Under hd.jit (jax.jit, tf.function, torch.compile) no value can be read: an out-of-range
    target's loss is NaN (never a value read out of bounds), the others are exact, ignored ones 0."""
    ours, _ = LOSSES[name]
    x = _inputs(name, autodiff_backend)
    targets = to_backend(np.array([0, 7, -100, -2, 1]), autodiff_backend)
    per_element = hd.to_numpy(hd.jit(lambda v, t: ours(v, t, reduction="none"))(x, targets))
    expected = hd.to_numpy(
        ours(x, to_backend(np.array([0, 0, -100, 0, 1]), autodiff_backend), reduction="none")
    )
    assert np.isnan(per_element[[1, 3]]).all()
    np.testing.assert_allclose(per_element[[0, 2, 4]], expected[[0, 2, 4]], rtol=1e-6)
    assert per_element[2] == 0.0
    assert np.isnan(hd.to_numpy(hd.jit(lambda v, t: ours(v, t))(x, targets)))
    good = to_backend(np.array([0, 2, -100, 1, 1]), autodiff_backend)
    assert_close(hd.jit(lambda v, t: ours(v, t))(x, good), hd.to_numpy(ours(x, good)), rtol=1e-6)


def test_jax_jit_directly_gives_nan():
    import jax

    x = to_backend(LOGITS, "jax")
    out = jax.jit(lambda v, t: F.cross_entropy(v, t, reduction="none"))(
        x, to_backend(np.array([0, 5, 1, 1, 2]), "jax")
    )
    assert np.isnan(np.asarray(out)[1]) and np.isfinite(np.asarray(out)[[0, 2, 3, 4]]).all()
