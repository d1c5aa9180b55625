"""Loss functions, PyTorch's definitions, on every backend (also exported by ``hedera.nn.functional``).

Each takes ``reduction``: ``"mean"`` (default; the mean over every element of
the unreduced loss), ``"sum"``, or ``"none"`` (the elementwise loss). Predictions
and targets must have the shapes stated (no silent broadcasting); the class axis
of ``cross_entropy``/``nll_loss`` is ``axis`` (default ``-1``, channels last;
PyTorch's is ``1``).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import hedera as hd
from hedera.jit import values_unreadable
from hedera.typing import Array

from .functional import _args
from .functional.activations import log_sigmoid, log_softmax

__all__ = [
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "cross_entropy",
    "huber",
    "kl_div",
    "l1",
    "mse",
    "nll_loss",
]


def _same_shape(
    op: str, prediction: Array, target: Array, names: tuple[str, str] = ("input", "target")
) -> None:
    ps, ts = _args.shape_of(prediction), _args.shape_of(target)
    if ps != ts:
        raise hd.ShapeError(f"{op}: {names[1]} must have the shape of {names[0]}, {ps}, got shape {ts}")


def _class_axis(op: str, shape: tuple, axis: int) -> int:
    if axis.__class__ is not int:
        _args.integer(op, "axis", axis)  # a float, a str, a bool, None, an array: ArgumentTypeError
    if not -len(shape) <= axis < len(shape):
        raise hd.InvalidAxisError(
            f"{op}: axis={axis!r} is out of range for input of shape {shape}; expected the class axis, "
            f"an integer in [{-len(shape)}, {len(shape) - 1}]"
        )
    return axis % len(shape)


def _pick(op: str, log_probs: Array, targets: Array, axis: int) -> Array:
    """``log_probs`` at the integer class ``targets`` along ``axis`` (which ``targets`` lacks)."""
    if axis == len(_args.shape_of(log_probs)) - 1:  # the classes last: the backend's own gather
        picked = hd.nn_ops.gather_classes(log_probs, targets)
        if picked is not None:
            return picked
    index = hd.expand_dims(targets, axis=axis)
    return hd.squeeze(hd.take_along_axis(log_probs, index, axis=axis), axis=axis)


def _check_targets_shape(op: str, log_probs: Array, targets: Array, axis: int) -> None:
    shape = _args.shape_of(log_probs)
    expected = shape[:axis] + shape[axis + 1 :]
    if _args.shape_of(targets) != expected:
        raise hd.ShapeError(
            f"{op}: integer targets must have the input's shape without the class axis {axis}, "
            f"{expected}, got shape {_args.shape_of(targets)}"
        )


def _check_ignore_index(op: str, ignore_index: object) -> None:
    if isinstance(ignore_index, bool) or not isinstance(ignore_index, int):
        raise hd.ArgumentTypeError(
            f"{op}: ignore_index must be an int, got {type(ignore_index).__name__} {ignore_index!r}"
        )


def _raise_out_of_range(op: str, targets: Array, classes: int, ignore_index: int) -> None:
    """The error for targets outside ``[0, classes)`` (the error path: reads them on the host)."""
    values = hd.to_numpy(targets)
    bad = ((values < 0) | (values >= classes)) & (values != ignore_index)
    first = tuple(int(i[0]) for i in bad.nonzero()) if bad.ndim else ()
    raise hd.InvalidArgumentError(
        f"{op}: target {int(values[first])} (at index {first} of targets) is out of bounds: "
        f"class indices must be in [0, {classes}), or ignore_index={ignore_index}"
    )


def _class_nll(
    op: str, scores: Array, targets: Array, axis: int, ignore_index: int, loss_at: Callable[[Array], Array]
) -> tuple[Array, Array | None]:
    """The per-element loss ``loss_at(targets)`` and the mask of the targets that count (None: all).

    ``scores`` are the logits or log-probabilities (their shape is checked against the targets');
    ``loss_at(t)`` is the loss of each element at the class targets ``t``, all in range.
    Eager, the targets are checked: one that is neither in ``[0, classes)`` nor ``ignore_index``
    raises :class:`~hedera.InvalidArgumentError`, as torch. The check reads the targets' minimum
    and maximum (:func:`_bounds`: one device sync); when every target is a class (and
    ``ignore_index`` is not one), no mask is made. Inside a trace (``hd.jit``,
    ``jax.jit``, ``tf.function``, ``torch.compile``) no value can be read: an out-of-range target
    gives a NaN loss on every backend (its class is read as 0 instead, never out of bounds).
    """
    _check_targets_shape(op, scores, targets, axis)
    classes = _args.shape_of(scores)[axis]
    traced = values_unreadable(hd.backend_of(scores), (scores, targets))
    if not traced:
        try:
            low, high = _bounds(targets)
        except RuntimeError:
            # values that cannot be read (torch: a tensor without storage, inside a
            # torch.func transform that torch.compile traces): a trace after all
            traced = True
    ignored_is_class = 0 <= ignore_index < classes
    if not traced and not ignored_is_class:
        if 0 <= low and high < classes:  # every target is a class: no mask needed
            return loss_at(targets), None
    in_range = hd.logical_and(hd.greater_equal(targets, 0), hd.less(targets, classes))
    kept = hd.not_equal(targets, ignore_index)
    if (
        not traced
        and not (low >= 0 and high < classes)
        and not bool(hd.all(hd.logical_or(in_range, hd.logical_not(kept))))
    ):
        _raise_out_of_range(op, targets, classes, ignore_index)
    loss = loss_at(hd.where(in_range, targets, hd.zeros_like(targets)))
    # the others' loss, from the targets alone (off the gradient's path): 0 if ignored, else NaN
    other = hd.where(kept, hd.full_like(loss, float("nan")), hd.zeros_like(loss))
    counted = hd.logical_and(in_range, kept) if ignored_is_class else in_range  # else in range is kept
    return hd.where(counted, loss, other), kept


def _log_prob_loss(op: str, log_probs: Array, axis: int, label_smoothing: float) -> Callable[[Array], Array]:
    """``loss_at`` of :func:`_class_nll` for log-probabilities: ``-log_probs[target]``, smoothed."""
    return lambda targets: _smoothed(_pick(op, log_probs, targets, axis), log_probs, axis, label_smoothing)


def _logit_loss(op: str, logits: Array, axis: int, label_smoothing: float) -> Callable[[Array], Array]:
    """``loss_at`` of :func:`_class_nll` for logits: the backend's fused softmax cross-entropy
    (:func:`hedera.nn_ops.softmax_cross_entropy`) where it has one for the call (classes last,
    no smoothing), else ``-log_softmax(logits)[target]``, smoothed."""

    def loss_at(targets: Array) -> Array:
        if not label_smoothing and axis == len(_args.shape_of(logits)) - 1:
            loss = hd.nn_ops.softmax_cross_entropy(logits, targets)
            if loss is not None:
                return loss
        return _log_prob_loss(op, log_softmax(logits, axis=axis), axis, label_smoothing)(targets)

    return loss_at


#: targets of at most this many elements are checked on the host (one copy: the one sync a
#: device reduction would cost), larger ones by a min and a max on the device
_HOST_CHECK_SIZE = 1 << 16


def _bounds(targets: Array) -> tuple[int, int]:
    """The smallest and largest target (``(0, 0)`` for none), read eagerly."""
    size = math.prod(_args.shape_of(targets))
    if not size:
        return 0, 0
    if size <= _HOST_CHECK_SIZE:
        values = hd.to_numpy(targets)
        return int(values.min()), int(values.max())
    return int(hd.min(targets)), int(hd.max(targets))


def _smoothed(picked: Array, log_probs: Array, axis: int, label_smoothing: float) -> Array:
    loss = hd.negative(picked)
    if label_smoothing:
        uniform = hd.negative(hd.mean(log_probs, axis=axis))
        loss = hd.add(hd.multiply(loss, 1.0 - label_smoothing), hd.multiply(uniform, label_smoothing))
    return loss


def _reduce_kept(loss: Array, kept: Array | None, reduction: str) -> Array:
    """``reduction`` of ``loss`` over the targets that count: ``"mean"`` divides by their number
    (NaN when none counts, as torch)."""
    if kept is None or reduction != "mean":
        return _args.reduce(loss, reduction)
    return hd.divide(hd.sum(loss), hd.sum(hd.astype(kept, hd.dtype(loss))))


def nll_loss(
    log_probs: Array, targets: Array, *, axis: int = -1, reduction: str = "mean", ignore_index: int = -100
) -> Array:
    """Negative log-likelihood of integer class targets: ``-log_probs[..., target, ...]``.

    Parameters
    ----------
    log_probs : array, shape ``(..., classes, ...)`` with the classes along ``axis``
        Log-probabilities (for instance :func:`~hedera.nn.functional.log_softmax`).
    targets : integer array, the shape of ``log_probs`` without ``axis``
        Class indices in ``[0, classes)``, or ``ignore_index``.
    axis : int
        The class axis (default ``-1``).
    reduction : {"mean", "sum", "none"}
        ``"mean"`` averages over the targets that are not ``ignore_index``.
    ignore_index : int
        Targets equal to it contribute 0 and are left out of the mean (default ``-100``, as torch).

    Returns
    -------
    array: a scalar, or the per-example losses for ``"none"``.

    Raises
    ------
    InvalidArgumentError
        Eager, for a target outside ``[0, classes)`` that is not ``ignore_index`` (as torch);
        inside a compiled function, such a target gives a NaN loss instead (docs/nn.md).
    """
    _args.check_reduction("nll_loss", reduction)
    _check_ignore_index("nll_loss", ignore_index)
    axis = _class_axis("nll_loss", _args.shape_of(log_probs), axis)
    if not hd.isdtype(hd.dtype(targets), "integral"):
        raise hd.DtypeError(
            f"nll_loss: targets must be integer class indices, got dtype {hd.dtype(targets).name}"
        )
    loss_at = _log_prob_loss("nll_loss", log_probs, axis, 0.0)
    loss, kept = _class_nll("nll_loss", log_probs, targets, axis, ignore_index, loss_at)
    return _reduce_kept(loss, kept, reduction)


def cross_entropy(
    logits: Array,
    targets: Array,
    *,
    axis: int = -1,
    reduction: str = "mean",
    label_smoothing: float = 0.0,
    ignore_index: int = -100,
) -> Array:
    """Cross-entropy between the softmax of ``logits`` and the targets (PyTorch's ``F.cross_entropy``).

    Parameters
    ----------
    logits : array, shape ``(..., classes, ...)`` with the classes along ``axis``
        Unnormalised scores.
    targets : array
        Either integer class indices in ``[0, classes)`` (or ``ignore_index``), the shape of
        ``logits`` without ``axis``; or class probabilities (one-hot, say), the shape of ``logits``.
    axis : int
        The class axis (default ``-1``).
    reduction : {"mean", "sum", "none"}
        ``"mean"`` averages over the integer targets that are not ``ignore_index``.
    label_smoothing : float in ``[0, 1]``
        Mixes the targets with the uniform distribution:
        ``(1 - label_smoothing) * target + label_smoothing / classes``.
    ignore_index : int
        Integer targets equal to it contribute 0 and are left out of the mean (default ``-100``,
        as torch).

    Returns
    -------
    array: a scalar, or the per-example losses (``logits``'s shape without ``axis``) for ``"none"``.

    Raises
    ------
    InvalidArgumentError
        Eager, for an integer target outside ``[0, classes)`` that is not ``ignore_index`` (as
        torch); inside a compiled function, such a target gives a NaN loss instead (docs/nn.md).

    Examples
    --------
    >>> import numpy as np, hedera as hd
    >>> logits = np.array([[2.0, 0.0, 0.0]])
    >>> round(float(hd.nn.functional.cross_entropy(logits, np.array([0]))), 4)
    0.2395
    """
    op = "cross_entropy"
    _args.check_reduction(op, reduction)
    _check_ignore_index(op, ignore_index)
    shape = _args.shape_of(logits)
    axis = _class_axis(op, shape, axis)
    label_smoothing = _args.unit_float(op, "label_smoothing", label_smoothing)
    if hd.isdtype(hd.dtype(targets), "integral"):
        _check_targets_shape(op, logits, targets, axis)
        # the backend's whole loss in one kernel where it has one (torch eagerly: F.cross_entropy)
        fused = hd.nn_ops.cross_entropy(logits, targets, axis, reduction, label_smoothing, ignore_index)
        if fused is not None:
            return fused
        loss_at = _logit_loss(op, logits, axis, label_smoothing)
        loss, kept = _class_nll(op, logits, targets, axis, ignore_index, loss_at)
        return _reduce_kept(loss, kept, reduction)
    _same_shape(op, logits, targets, ("logits", "probability targets"))
    log_probs = log_softmax(logits, axis=axis)
    if label_smoothing:
        targets = hd.add(hd.multiply(targets, 1.0 - label_smoothing), label_smoothing / shape[axis])
    loss = hd.negative(hd.sum(hd.multiply(targets, log_probs), axis=axis))
    return _args.reduce(loss, reduction)


def binary_cross_entropy(probs: Array, targets: Array, *, reduction: str = "mean") -> Array:
    """Binary cross-entropy of probabilities: ``-(t log p + (1 - t) log(1 - p))``.

    Each log is clamped at ``-100``, as PyTorch, so that ``p = 0`` or ``1`` gives
    a finite loss; prefer :func:`binary_cross_entropy_with_logits`, which is
    stable and has finite gradients everywhere.

    Parameters
    ----------
    probs : array in ``[0, 1]``, any shape
    targets : array of the same shape, in ``[0, 1]``
    reduction : {"mean", "sum", "none"}
    """
    op = "binary_cross_entropy"
    _args.check_reduction(op, reduction)
    _same_shape(op, probs, targets, ("probs", "targets"))
    log_p = hd.maximum(hd.log(probs), -100.0)
    log_q = hd.maximum(hd.log1p(hd.negative(probs)), -100.0)
    loss = hd.negative(hd.add(hd.multiply(targets, log_p), hd.multiply(hd.subtract(1.0, targets), log_q)))
    return _args.reduce(loss, reduction)


def binary_cross_entropy_with_logits(
    logits: Array, targets: Array, *, pos_weight: Array | float | None = None, reduction: str = "mean"
) -> Array:
    """Binary cross-entropy of ``sigmoid(logits)``, computed stably from the logits.

    ``-(pos_weight * t * log_sigmoid(x) + (1 - t) * log_sigmoid(-x))``.

    Parameters
    ----------
    logits : array, any shape
    targets : array of the same shape, in ``[0, 1]``
    pos_weight : float or array broadcastable to the last axis, optional
        Weight of the positive term (PyTorch's ``pos_weight``).
    reduction : {"mean", "sum", "none"}
    """
    op = "binary_cross_entropy_with_logits"
    _args.check_reduction(op, reduction)
    _same_shape(op, logits, targets, ("logits", "targets"))
    positive = hd.multiply(targets, log_sigmoid(logits))
    if pos_weight is not None:
        positive = hd.multiply(positive, pos_weight)
    negative = hd.multiply(hd.subtract(1.0, targets), log_sigmoid(hd.negative(logits)))
    return _args.reduce(hd.negative(hd.add(positive, negative)), reduction)


def mse(input: Array, target: Array, *, reduction: str = "mean") -> Array:
    """Mean squared error: ``(input - target) ** 2``, reduced."""
    _args.check_reduction("mse", reduction)
    _same_shape("mse", input, target)
    return _args.reduce(hd.square(hd.subtract(input, target)), reduction)


def l1(input: Array, target: Array, *, reduction: str = "mean") -> Array:
    """Mean absolute error: ``|input - target|``, reduced."""
    _args.check_reduction("l1", reduction)
    _same_shape("l1", input, target)
    return _args.reduce(hd.abs(hd.subtract(input, target)), reduction)


def huber(input: Array, target: Array, *, delta: float = 1.0, reduction: str = "mean") -> Array:
    """Huber loss (PyTorch's ``huber_loss``): quadratic within ``delta``, linear outside.

    ``0.5 d**2`` where ``|d| < delta``, else ``delta * (|d| - 0.5 delta)``, with
    ``d = input - target``.
    """
    op = "huber"
    _args.check_reduction(op, reduction)
    _same_shape(op, input, target)
    if not (delta.__class__ is float and 0.0 < delta < _args._INF):
        _args.finite_float(op, "delta", delta, minimum=0.0, exclusive_min=True)
    d = hd.subtract(input, target)
    a = hd.abs(d)
    quadratic = hd.multiply(hd.square(d), 0.5)
    linear = hd.multiply(hd.subtract(a, 0.5 * delta), delta)
    return _args.reduce(hd.where(hd.less(a, delta), quadratic, linear), reduction)


def kl_div(input: Array, target: Array, *, reduction: str = "mean", log_target: bool = False) -> Array:
    """Kullback-Leibler divergence ``KL(target || exp(input))`` (PyTorch's ``F.kl_div``).

    Pointwise ``target * (log(target) - input)``, 0 where ``target == 0``.

    Parameters
    ----------
    input : array
        Log-probabilities.
    target : array of the same shape
        Probabilities (log-probabilities if ``log_target``).
    reduction : {"mean", "batchmean", "sum", "none"}
        ``"mean"`` averages over every element (PyTorch's default, not the
        divergence); ``"batchmean"`` sums and divides by the batch size
        ``input.shape[0]``, which is the mathematical KL divergence per example.
    log_target : bool
    """
    op = "kl_div"
    _args.check_reduction(op, reduction, ("mean", "batchmean", "sum", "none"))
    _same_shape(op, input, target)
    if log_target:
        pointwise = hd.multiply(hd.exp(target), hd.subtract(target, input))
    else:
        positive = hd.greater(target, 0.0)
        safe = hd.where(positive, target, hd.ones_like(target))  # log(0) stays out of the graph
        pointwise = hd.where(
            positive, hd.multiply(target, hd.subtract(hd.log(safe), input)), hd.zeros_like(target)
        )
    if reduction == "batchmean":
        shape = _args.shape_of(input)
        batch = shape[0] if shape else 1
        return hd.divide(hd.sum(pointwise), float(batch))
    return _args.reduce(pointwise, reduction)
