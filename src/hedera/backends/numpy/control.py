"""Control flow on numpy: Python loops and branches (numpy has no compiler; see ``hedera.control``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .. import _control_python as _py

BACKEND = "numpy"
BOOL = np.dtype(bool)  # the native dtype of predicates


def user_function(f: Callable) -> Callable:
    return f


def arange(start: int, stop: int) -> Any:
    return np.arange(start, stop, dtype=np.int32)


def cond(pred: Any, true_fn: Callable, false_fn: Callable, operands: tuple) -> tuple:
    return _py.switch(pred, (false_fn, true_fn), operands)


def switch(index: Any, branches: Sequence[Callable], operands: tuple) -> tuple:
    return _py.switch(index, branches, operands)


def while_loop(cond_fn: Callable, body_fn: Callable, init: tuple, max_iterations: int | None) -> tuple:
    return _py.while_loop(cond_fn, body_fn, init, max_iterations)


def scan(step: Callable, init: tuple, xs: tuple, length: int, reverse: bool, unroll: int) -> tuple:
    return _py.scan(step, init, xs, length, reverse, list, np.stack, lambda x: np.zeros(x.shape[1:], x.dtype))
