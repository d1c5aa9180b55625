"""The optimizers: ``SGD``, ``Adam``, ``AdamW``, ``RMSprop``, ``LAMB``, ``LARS``.

Each is an :class:`~hedera.optim.base.Optimizer`: a chain of stages with
PyTorch's hyperparameter names and defaults and the same update rule as
``torch.optim`` (LAMB and LARS, which PyTorch lacks, as in optax). ``lr`` is a
number or a schedule (``hd.optim.cosine_decay(...)``). Every optimizer also
takes ``clip_value`` and ``clip_global_norm``, which clip the gradients first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import hedera as hd
from hedera.helpers import finite_float

from .base import (
    AddDecayedWeights,
    ClipByGlobalNorm,
    ClipByValue,
    LearningRate,
    Momentum,
    Optimizer,
    ScaleByAdam,
    ScaleByLearningRate,
    ScaleByRMS,
    ScaleByTrustRatio,
    Transform,
    hyperparameter,
)

__all__ = ["LAMB", "LARS", "SGD", "Adam", "AdamW", "RMSprop"]


def _check(opt: str, **values: Any) -> None:
    """Every hyperparameter of optimizer ``opt`` against its range (``HYPERPARAMETER_RANGES``)."""
    for name, value in values.items():
        hyperparameter(opt, name, value)


def _clips(clip_value: float | None, clip_global_norm: float | None) -> list[Transform]:
    stages: list[Transform] = []
    if clip_value is not None:
        stages.append(ClipByValue(clip_value))
    if clip_global_norm is not None:
        stages.append(ClipByGlobalNorm(clip_global_norm))
    return stages


def _non_negative(opt: str, name: str, value: float) -> float:
    return finite_float(opt, name, value, minimum=0.0)  # type: ignore[return-value]


def _betas(opt: str, betas: Sequence[float]) -> tuple[float, float]:
    if isinstance(betas, (str, bytes)) or not isinstance(betas, Sequence):
        raise hd.ArgumentTypeError(f"{opt}: betas must be a pair (beta1, beta2) of floats, got {betas!r}")
    if len(betas) != 2:
        raise hd.InvalidArgumentError(f"{opt}: betas must be a pair (beta1, beta2), got {betas!r}")
    b1 = finite_float(opt, "betas[0]", betas[0], minimum=0.0, maximum=1.0, exclusive_max=True)
    b2 = finite_float(opt, "betas[1]", betas[1], minimum=0.0, maximum=1.0, exclusive_max=True)
    return b1, b2  # type: ignore[return-value]


class SGD(Optimizer):
    """Stochastic gradient descent with momentum, Nesterov momentum and weight decay (``torch.optim.SGD``).

    ``g = grad + weight_decay * p``; with momentum ``buf = momentum * buf + (1 -
    dampening) * g`` (``buf = g`` at the first step) and ``g = buf`` (or ``g +
    momentum * buf`` with ``nesterov``); ``p = p - lr * g``.

    Parameters
    ----------
    lr : float or schedule
    momentum, dampening, weight_decay : float
    nesterov : bool
    clip_value, clip_global_norm : float, optional
        Clip the gradients first (by element, by global norm).

    Examples
    --------
    >>> import hedera as hd, numpy as np
    >>> opt = hd.optim.SGD(0.1)
    >>> params = hd.Container(w=np.array([1.0, 2.0]))
    >>> state = opt.init(params)
    >>> params, state = opt.update(hd.Container(w=np.array([1.0, -1.0])), state, params)
    >>> params.w.tolist(), int(state.step)
    ([0.9, 2.1], 1)
    """

    def __init__(
        self,
        lr: LearningRate,
        momentum: float = 0.0,
        dampening: float = 0.0,
        weight_decay: float = 0.0,
        nesterov: bool = False,
        *,
        clip_value: float | None = None,
        clip_global_norm: float | None = None,
    ) -> None:
        _check(
            "SGD",
            lr=lr,
            momentum=momentum,
            dampening=dampening,
            weight_decay=weight_decay,
            clip_value=clip_value,
            clip_global_norm=clip_global_norm,
        )
        momentum = _non_negative("SGD", "momentum", momentum)
        weight_decay = _non_negative("SGD", "weight_decay", weight_decay)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise hd.InvalidArgumentError("SGD: nesterov needs momentum > 0 and dampening = 0")
        stages = _clips(clip_value, clip_global_norm)
        if weight_decay:
            stages.append(AddDecayedWeights(weight_decay))
        if momentum:
            stages.append(Momentum(momentum, dampening, nesterov))
        stages.append(ScaleByLearningRate(lr, op=type(self).__name__))
        super().__init__(*stages)


class Adam(Optimizer):
    """Adam (``torch.optim.Adam``): ``p = p - lr * m_hat / (sqrt(v_hat) + eps)``.

    ``weight_decay`` adds ``weight_decay * p`` to the gradient (L2, PyTorch's
    Adam); see :class:`AdamW` for decoupled decay. ``amsgrad`` uses the running
    maximum of the second moment.

    Parameters
    ----------
    lr : float or schedule
    betas : (float, float)
    eps, weight_decay : float
    amsgrad : bool
    clip_value, clip_global_norm : float, optional
    """

    def __init__(
        self,
        lr: LearningRate = 1e-3,
        betas: Sequence[float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0.0,
        amsgrad: bool = False,
        *,
        clip_value: float | None = None,
        clip_global_norm: float | None = None,
    ) -> None:
        _check(
            "Adam",
            lr=lr,
            eps=eps,
            weight_decay=weight_decay,
            clip_value=clip_value,
            clip_global_norm=clip_global_norm,
        )
        b1, b2 = _betas("Adam", betas)
        weight_decay = _non_negative("Adam", "weight_decay", weight_decay)
        stages = _clips(clip_value, clip_global_norm)
        if weight_decay:
            stages.append(AddDecayedWeights(weight_decay))
        stages += [ScaleByAdam(b1, b2, eps, amsgrad), ScaleByLearningRate(lr, op=type(self).__name__)]
        super().__init__(*stages)


class AdamW(Optimizer):
    """Adam with decoupled weight decay (``torch.optim.AdamW``).

    ``p = p - lr * (adam_direction + weight_decay * p)``.

    Parameters as :class:`Adam`; ``weight_decay`` defaults to 0.01 (PyTorch's).
    """

    def __init__(
        self,
        lr: LearningRate = 1e-3,
        betas: Sequence[float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 1e-2,
        amsgrad: bool = False,
        *,
        clip_value: float | None = None,
        clip_global_norm: float | None = None,
    ) -> None:
        _check(
            "AdamW",
            lr=lr,
            eps=eps,
            weight_decay=weight_decay,
            clip_value=clip_value,
            clip_global_norm=clip_global_norm,
        )
        b1, b2 = _betas("AdamW", betas)
        weight_decay = _non_negative("AdamW", "weight_decay", weight_decay)
        stages = [*_clips(clip_value, clip_global_norm), ScaleByAdam(b1, b2, eps, amsgrad)]
        if weight_decay:
            stages.append(AddDecayedWeights(weight_decay))
        stages.append(ScaleByLearningRate(lr, op=type(self).__name__))
        super().__init__(*stages)


class RMSprop(Optimizer):
    """RMSprop (``torch.optim.RMSprop``): ``p = p - lr * g / (sqrt(square_avg) + eps)``.

    ``square_avg = alpha * square_avg + (1 - alpha) * g**2``; ``centered``
    subtracts the squared running mean of ``g``; ``momentum`` keeps a buffer of
    the scaled gradients; ``weight_decay`` adds ``weight_decay * p`` to ``g``.
    """

    def __init__(
        self,
        lr: LearningRate = 1e-2,
        alpha: float = 0.99,
        eps: float = 1e-8,
        weight_decay: float = 0.0,
        momentum: float = 0.0,
        centered: bool = False,
        *,
        clip_value: float | None = None,
        clip_global_norm: float | None = None,
    ) -> None:
        _check(
            "RMSprop",
            lr=lr,
            alpha=alpha,
            eps=eps,
            weight_decay=weight_decay,
            momentum=momentum,
            clip_value=clip_value,
            clip_global_norm=clip_global_norm,
        )
        weight_decay = _non_negative("RMSprop", "weight_decay", weight_decay)
        momentum = _non_negative("RMSprop", "momentum", momentum)
        stages = _clips(clip_value, clip_global_norm)
        if weight_decay:
            stages.append(AddDecayedWeights(weight_decay))
        stages += [
            ScaleByRMS(alpha, eps, centered, momentum),
            ScaleByLearningRate(lr, op=type(self).__name__),
        ]
        super().__init__(*stages)


class LAMB(Optimizer):
    """LAMB (You et al. 2019, "Large Batch Optimization for Deep Learning"; optax's ``lamb``).

    ``r = adam_direction + weight_decay * p`` (bias-corrected moments), then per
    parameter array ``p = p - lr * (||p|| / ||r||) * r``, the ratio taken as 1
    where either norm is 0.
    """

    def __init__(
        self,
        lr: LearningRate = 1e-3,
        betas: Sequence[float] = (0.9, 0.999),
        eps: float = 1e-6,
        weight_decay: float = 0.0,
        *,
        clip_value: float | None = None,
        clip_global_norm: float | None = None,
    ) -> None:
        _check(
            "LAMB",
            lr=lr,
            eps=eps,
            weight_decay=weight_decay,
            clip_value=clip_value,
            clip_global_norm=clip_global_norm,
        )
        b1, b2 = _betas("LAMB", betas)
        weight_decay = _non_negative("LAMB", "weight_decay", weight_decay)
        stages = [*_clips(clip_value, clip_global_norm), ScaleByAdam(b1, b2, eps)]
        if weight_decay:
            stages.append(AddDecayedWeights(weight_decay))
        stages += [ScaleByTrustRatio(), ScaleByLearningRate(lr, op=type(self).__name__)]
        super().__init__(*stages)


class LARS(Optimizer):
    """LARS (You et al. 2017, "Large Batch Training of Convolutional Networks"; optax's ``lars``).

    Per parameter array: ``g = grad + weight_decay * p``, ``g = trust_coefficient
    * ||p|| / (||g|| + eps) * g`` (ratio 1 where a norm is 0), then momentum on
    the scaled step: ``buf = momentum * buf - lr * g`` and ``p = p + buf`` (or
    ``p + momentum * buf - lr * g`` with ``nesterov``).
    """

    def __init__(
        self,
        lr: LearningRate,
        momentum: float = 0.9,
        weight_decay: float = 0.0,
        trust_coefficient: float = 0.001,
        eps: float = 0.0,
        nesterov: bool = False,
        *,
        clip_value: float | None = None,
        clip_global_norm: float | None = None,
    ) -> None:
        _check(
            "LARS",
            lr=lr,
            momentum=momentum,
            weight_decay=weight_decay,
            trust_coefficient=trust_coefficient,
            eps=eps,
            clip_value=clip_value,
            clip_global_norm=clip_global_norm,
        )
        weight_decay = _non_negative("LARS", "weight_decay", weight_decay)
        momentum = _non_negative("LARS", "momentum", momentum)
        stages = _clips(clip_value, clip_global_norm)
        if weight_decay:
            stages.append(AddDecayedWeights(weight_decay))
        stages += [ScaleByTrustRatio(trust_coefficient, eps), ScaleByLearningRate(lr, op=type(self).__name__)]
        if momentum:
            stages.append(Momentum(momentum, 0.0, nesterov))
        super().__init__(*stages)
