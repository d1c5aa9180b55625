"""Control flow as Python loops and branches: the eager form every backend shares.

Framework-free: each backend's ``control`` module passes in how to stack, unstack and select.
Functions take and return flat tuples of native arrays (the front, :mod:`hedera.control`,
flattens the nests and checks every output).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..errors import UnsupportedError

Flat = tuple


def switch(index: Any, branches: Sequence[Callable], operands: Flat, select: Callable | None = None) -> Flat:
    """Run every branch (as ``lax.switch`` traces them all: every output is checked); return the chosen one.

    ``index`` is a clamped integer scalar (or a boolean for ``cond``: ``branches = (false, true)``).
    A predicate without a Python value (batched by a vmap) selects per example with ``select``.
    """
    outs = [branch(operands) for branch in branches]
    try:
        chosen = int(index)
    except RuntimeError:  # torch.func.vmap: a batched predicate has no Python value
        if select is None:
            raise
        if len(outs) == 2 and "bool" in str(index.dtype):
            return tuple(select(index, t, f) for t, f in zip(outs[1], outs[0], strict=True))
        chosen_outs = outs[0]  # a batched switch index: select upwards (the index clamps itself)
        for k, out in enumerate(outs[1:], start=1):
            above = index >= k
            chosen_outs = tuple(select(above, o, c) for o, c in zip(out, chosen_outs, strict=True))
        return chosen_outs
    return outs[min(max(chosen, 0), len(outs) - 1)]


def while_loop(cond_fn: Callable, body_fn: Callable, init: Flat, max_iterations: int | None) -> Flat:
    carry, i = init, 0
    while (max_iterations is None or i < max_iterations) and bool(cond_fn(carry)):
        carry = body_fn(carry)
        i += 1
    return carry


def masked_while_loop(
    cond_fn: Callable,
    body_fn: Callable,
    init: Flat,
    max_iterations: int,
    select: Callable,
    logical_and: Callable,
) -> Flat:
    """``max_iterations`` steps, each leaf frozen (``select``) once its predicate is false (batched)."""
    carry, active = init, None
    for _ in range(max_iterations):
        pred = cond_fn(carry)
        active = pred if active is None else logical_and(active, pred)
        new = body_fn(carry)
        carry = tuple(select(active, n, c) for n, c in zip(new, carry, strict=True))
    return carry


def batched_while_error(backend: str) -> UnsupportedError:
    return UnsupportedError(
        f"while_loop: a predicate batched by hd.vmap has no single Python value on {backend}; pass "
        f"max_iterations=k (each example's carry then freezes once its predicate is false)"
    )


def scan(
    step: Callable,
    init: Flat,
    xs: Flat,
    length: int,
    reverse: bool,
    unstack: Callable,
    stack: Callable,
    empty_like: Callable,
) -> tuple[Flat, Flat]:
    """``length`` steps of ``step(carry, x) -> (carry, y)`` in Python; ys stacked on axis 0, once."""
    if length == 0:  # one step on slices of zeros gives the structure of y (its values are dropped)
        _, y = step(init, tuple(empty_like(x) for x in xs))  # empty_like(x): zeros of x[0]'s shape
        return init, tuple(stack([v])[:0] for v in y)
    rows = zip(*map(unstack, xs), strict=True) if xs else ((),) * length  # the x of each step (equal lengths)
    if reverse:
        rows = reversed(list(rows))
    carry = init
    ys: list[Any] = []
    append = ys.append
    for x in rows:
        carry, y = step(carry, x)
        append(y)
    if reverse:
        ys.reverse()
    return carry, tuple(stack(list(leaves)) for leaves in zip(*ys, strict=True))
