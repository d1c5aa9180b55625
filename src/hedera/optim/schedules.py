"""Learning-rate schedules: functions of the step count, composable, usable inside compiled code.

A schedule is a callable ``schedule(step) -> lr``. ``step`` is the number of
updates done so far: a Python number (gives a Python float, for plotting or
logging) or a 0-d array (gives a 0-d array of the same backend and floating
dtype, ``float32`` for an integer step, computed with hedera's ops, so it traces
under ``hd.jit``/``jax.jit``). Optimizers take a schedule wherever they take a
learning rate and call it before each update with their state's ``step`` (0 for
the first update) in each parameter's dtype.

Compose them: ``linear_warmup(cosine_decay(0.1, 1000), 100)`` warms up for 100
steps to 0.1 and then decays over the next 1000 (PyTorch's
``SequentialLR([LinearLR, CosineAnnealingLR], milestones=[100])``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import hedera as hd
from hedera.helpers import finite_float, positive_int
from hedera.typing import Array

__all__ = ["Schedule", "constant", "cosine_decay", "exponential_decay", "linear_warmup", "step_decay"]

Step = int | Array


def _is_python(step: Step) -> bool:
    # a NumPy scalar (np.float64 subclasses float) is an array here: it has a dtype
    return isinstance(step, (int, float)) and not hasattr(step, "dtype")


def _float(step: Step) -> Any:
    """The step as a float: a Python float, or a floating array (an integer array becomes ``float32``)."""
    if _is_python(step):
        return float(step)
    return hd.astype(step, hd.float32) if hd.isdtype(hd.dtype(step), "integral") else step


def _check_positive(fname: str, name: str, value: Any, integer: bool = False) -> None:
    if integer:
        positive_int(fname, name, value)
    else:
        finite_float(fname, name, value, minimum=0.0, exclusive_min=True)


def _rate(fname: str, name: str, value: Any) -> float:
    """A learning rate: a finite number >= 0."""
    return finite_float(fname, name, value, minimum=0.0)  # type: ignore[return-value]


class Schedule:
    """Base class of the schedules: a callable ``step -> lr`` with a readable ``repr``."""

    def __call__(self, step: Step) -> Any:
        raise NotImplementedError

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({args})"


class _Constant(Schedule):
    def __init__(self, lr: float) -> None:
        self.lr = _rate("constant", "lr", lr)

    def __call__(self, step: Step) -> Any:
        return self.lr if _is_python(step) else hd.full_like(_float(step), self.lr)


def constant(lr: float) -> Schedule:
    """``lr`` at every step."""
    return _Constant(lr)


class _StepDecay(Schedule):
    def __init__(self, lr: float, step_size: int, gamma: float) -> None:
        _check_positive("step_decay", "step_size", step_size, integer=True)
        _check_positive("step_decay", "gamma", gamma)
        self.lr, self.step_size, self.gamma = _rate("step_decay", "lr", lr), step_size, float(gamma)

    def __call__(self, step: Step) -> Any:
        if _is_python(step):
            return self.lr * self.gamma ** (int(step) // self.step_size)
        exponent = hd.floor_divide(_float(step), float(self.step_size))
        return hd.multiply(hd.pow(self.gamma, exponent), self.lr)


def step_decay(lr: float, step_size: int, gamma: float = 0.1) -> Schedule:
    """``lr * gamma ** (step // step_size)``: times ``gamma`` every ``step_size`` steps.

    ``torch.optim.lr_scheduler.StepLR``.
    """
    return _StepDecay(lr, step_size, gamma)


class _ExponentialDecay(Schedule):
    def __init__(self, lr: float, gamma: float, steps: int, staircase: bool) -> None:
        _check_positive("exponential_decay", "gamma", gamma)
        _check_positive("exponential_decay", "steps", steps, integer=True)
        self.lr, self.gamma = _rate("exponential_decay", "lr", lr), float(gamma)
        self.steps, self.staircase = steps, bool(staircase)

    def __call__(self, step: Step) -> Any:
        if _is_python(step):
            e = (int(step) // self.steps) if self.staircase else step / self.steps
            return self.lr * self.gamma**e
        s = _float(step)
        e = hd.floor_divide(s, float(self.steps)) if self.staircase else hd.divide(s, float(self.steps))
        return hd.multiply(hd.exp(hd.multiply(e, math.log(self.gamma))), self.lr)


def exponential_decay(lr: float, gamma: float, steps: int = 1, *, staircase: bool = False) -> Schedule:
    """``lr * gamma ** (step / steps)`` (``staircase``: ``step // steps``).

    With ``steps=1`` it is ``torch.optim.lr_scheduler.ExponentialLR`` stepped once per update.
    """
    return _ExponentialDecay(lr, gamma, steps, staircase)


class _CosineDecay(Schedule):
    def __init__(self, lr: float, total_steps: int, final_lr: float) -> None:
        _check_positive("cosine_decay", "total_steps", total_steps, integer=True)
        self.lr, self.total_steps = _rate("cosine_decay", "lr", lr), total_steps
        self.final_lr = _rate("cosine_decay", "final_lr", final_lr)

    def __call__(self, step: Step) -> Any:
        span = self.lr - self.final_lr
        if _is_python(step):
            s = min(float(step), self.total_steps)
            return self.final_lr + span * 0.5 * (1.0 + math.cos(math.pi * s / self.total_steps))
        s = hd.minimum(_float(step), float(self.total_steps))
        cos = hd.cos(hd.multiply(s, math.pi / self.total_steps))
        return hd.add(hd.multiply(hd.add(cos, 1.0), 0.5 * span), self.final_lr)


def cosine_decay(lr: float, total_steps: int, final_lr: float = 0.0) -> Schedule:
    """Half a cosine from ``lr`` at step 0 to ``final_lr`` at ``total_steps``, then ``final_lr``.

    ``final_lr + (lr - final_lr) * (1 + cos(pi * step / total_steps)) / 2``:
    ``torch.optim.lr_scheduler.CosineAnnealingLR(T_max=total_steps, eta_min=final_lr)``
    up to ``total_steps`` (PyTorch's then rises again; this one stays at ``final_lr``).
    """
    return _CosineDecay(lr, total_steps, final_lr)


class _LinearWarmup(Schedule):
    def __init__(
        self, schedule: float | Callable[[Step], Any], warmup_steps: int, start_factor: float
    ) -> None:
        _check_positive("linear_warmup", "warmup_steps", warmup_steps, integer=True)
        finite_float("linear_warmup", "start_factor", start_factor, minimum=0.0, maximum=1.0)
        if not callable(schedule):
            _rate("linear_warmup", "schedule", schedule)
        self.schedule = schedule if callable(schedule) else constant(schedule)
        self.warmup_steps, self.start_factor = warmup_steps, float(start_factor)

    def __call__(self, step: Step) -> Any:
        w, a = self.warmup_steps, self.start_factor
        peak = self.schedule(0)
        if _is_python(step):
            if step < w:
                return peak * (a + (1.0 - a) * step / w)
            return self.schedule(step - w)
        s = _float(step)
        warm = hd.multiply(hd.add(hd.multiply(s, (1.0 - a) / w), a), peak)
        after = self.schedule(hd.maximum(hd.subtract(s, float(w)), 0.0))
        return hd.where(hd.less(s, float(w)), warm, after)


def linear_warmup(
    schedule: float | Callable[[Step], Any], warmup_steps: int, start_factor: float = 0.0
) -> Schedule:
    """Ramp linearly to ``schedule`` over ``warmup_steps`` steps, then follow it (shifted by the warmup).

    During warmup ``lr = schedule(0) * (start_factor + (1 - start_factor) * step / warmup_steps)``
    (``torch.optim.lr_scheduler.LinearLR(start_factor, 1, warmup_steps)``); from
    ``warmup_steps`` on, ``schedule(step - warmup_steps)``. ``schedule`` may be a
    plain learning rate.

    Examples
    --------
    >>> import hedera as hd
    >>> s = hd.optim.linear_warmup(hd.optim.cosine_decay(1.0, 10), 5)
    >>> [round(s(i), 3) for i in (0, 1, 5, 10, 15)]
    [0.0, 0.2, 1.0, 0.5, 0.0]
    """
    return _LinearWarmup(schedule, warmup_steps, start_factor)
