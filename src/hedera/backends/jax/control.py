"""Control flow on jax: the ``lax`` primitives inside a trace, Python loops on concrete arrays.

Inside any jax trace (``jit``, ``grad``, ``vmap``, ``jvp``: a tracer among the operands, or
``hd.jit``) the lax primitives run, so nothing unrolls and every transformation composes.
``while_loop`` with ``max_iterations`` is a ``lax.scan`` of that many steps whose carry freezes
(``jnp.where``) once the predicate is false: reverse-mode differentiable, unlike
``lax.while_loop`` (jax-ml/jax#2469). On concrete arrays outside any trace, Python loops run
(jax dispatches each op; no compile per call).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jax.numpy as jnp
from jax import lax

from ...errors import UnsupportedError
from ...jit import traced_by
from .. import _control_python as _py
from . import autodiff as _autodiff

BACKEND = "jax"
BOOL = jnp.dtype(bool)  # the native dtype of predicates


def user_function(f: Callable) -> Callable:
    return f


def arange(start: int, stop: int) -> Any:
    return jnp.arange(start, stop, dtype=jnp.int32)


def _traced(*groups: Any) -> bool:
    return traced_by(_autodiff, [leaf for group in groups for leaf in group])


def _select(pred: Any, a: Any, b: Any) -> Any:
    return jnp.where(pred, a, b)


def cond(pred: Any, true_fn: Callable, false_fn: Callable, operands: tuple) -> tuple:
    if not _traced((pred,), operands):
        return _py.switch(pred, (false_fn, true_fn), operands)
    return lax.cond(pred, true_fn, false_fn, operands)


def switch(index: Any, branches: Sequence[Callable], operands: tuple) -> tuple:
    if not _traced((index,), operands):
        return _py.switch(index, branches, operands)
    return lax.switch(index, list(branches), operands)


def no_reverse_error() -> UnsupportedError:
    return UnsupportedError(
        "while_loop: reverse-mode differentiation through a loop without max_iterations is not "
        "supported on jax (lax.while_loop has no reverse mode, jax-ml/jax#2469); pass "
        "max_iterations=k (a bound on the number of iterations) to make it differentiable"
    )


def while_loop(cond_fn: Callable, body_fn: Callable, init: tuple, max_iterations: int | None) -> tuple:
    if not _traced(init):
        return _py.while_loop(cond_fn, body_fn, init, max_iterations)
    if max_iterations is None:
        return lax.while_loop(cond_fn, body_fn, init)  # (reverse mode raises: autodiff converts it)

    def step(state: tuple, _: Any) -> tuple:
        active, carry = state
        active = jnp.logical_and(active, cond_fn(carry))
        new = body_fn(carry)
        return (active, tuple(_select(active, n, c) for n, c in zip(new, carry, strict=True))), None

    (_, carry), _ = lax.scan(step, (jnp.asarray(True), init), None, length=max_iterations)
    return carry


def scan(step: Callable, init: tuple, xs: tuple, length: int, reverse: bool, unroll: int) -> tuple:
    if not _traced(init, xs):
        return _py.scan(
            step, init, xs, length, reverse, list, jnp.stack, lambda x: jnp.zeros(x.shape[1:], x.dtype)
        )
    return lax.scan(step, init, xs, length=length, reverse=reverse, unroll=unroll)
