"""Control flow on torch: Python loops eagerly, torch's control-flow operators under ``torch.compile``.

Eagerly (also under ``torch.func`` transforms, which the operators do not support outside
``torch.compile``) Python loops and branches run, differentiable by autograd and
``torch.func``. A predicate batched by ``torch.func.vmap`` selects per example (``cond``), or
freezes each example's carry once false (``while_loop`` with ``max_iterations``).

While ``torch.compile`` traces (``hd.jit``), ``torch.cond`` and the ``while_loop``
higher-order operator (``torch._higher_order_ops``; scans, fori_loop and map too) run, so dynamo
captures one loop instead of unrolling it; autograd differentiates their compiled forms
(``loss.backward()`` after the compiled call). torch 2.13 cannot differentiate them with
``torch.func`` transforms inside the compiled region, nor vmap them there: those combinations raise
:class:`~hedera.errors.UnsupportedError` saying to take the gradient outside.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import torch

from ...errors import UnsupportedError
from ...jit import traced_by
from .. import _control_python as _py
from . import autodiff as _autodiff

BACKEND = "torch"
BOOL = torch.bool  # the native dtype of predicates


def user_function(f: Callable) -> Callable:
    return f


def arange(start: int, stop: int) -> Any:
    return torch.arange(start, stop, dtype=torch.int32)


def _compiling() -> bool:
    return traced_by(_autodiff)


_autodiff.never_compiled_alone(_compiling)


def _select(pred: Any, a: Any, b: Any) -> Any:
    return torch.where(pred, a, b)


def _hop(name: str) -> Callable:
    from torch._higher_order_ops.while_loop import while_loop

    return while_loop


def _no_functorch(construct: str) -> None:
    """Raise if a torch.func transform (grad, vmap, jvp) is active inside the compiled region.

    ``torch._C._are_functorch_transforms_active`` is the test dynamo evaluates while tracing
    (``maybe_current_level`` returns an int, which dynamo cannot trace: it broke the graph there).
    """
    if torch._C._are_functorch_transforms_active():
        raise UnsupportedError(
            f"{construct}: torch.compile cannot trace torch's {construct} operator inside a torch.func "
            f"transform (hd.grad, hd.vmap, hd.jvp under hd.jit) in torch 2.13; compile the forward "
            f"function only (hd.jit(f)) and differentiate outside it (hd.grad(hd.jit(f)) runs the "
            f"loop eagerly; loss.backward() differentiates the compiled loop)"
        )


def cond(pred: Any, true_fn: Callable, false_fn: Callable, operands: tuple) -> tuple:
    if not _compiling():
        return _py.switch(pred, (false_fn, true_fn), operands, _select)
    _no_functorch("cond")
    true_fn(operands)  # traced once outside the operator: the front learns the output's structure
    return tuple(torch.cond(pred, _unaliased(true_fn), _unaliased(false_fn), operands))


def switch(index: Any, branches: Sequence[Callable], operands: tuple) -> tuple:
    if not _compiling():
        return _py.switch(index, branches, operands, _select)
    _no_functorch("switch")
    index = torch.clamp(index, 0, len(branches) - 1)
    branches[0](operands)  # traced once outside the operators: the front learns the output's structure
    return _switch_tree(index, list(branches), 0, operands)


def _switch_tree(index: Any, branches: list, offset: int, operands: tuple) -> tuple:
    """``branches[index - offset]`` as a balanced tree of ``torch.cond`` (torch has no switch operator)."""
    if len(branches) == 1:
        return _unaliased(branches[0])(*operands)
    half = len(branches) // 2
    low, high = branches[:half], branches[half:]
    return tuple(
        torch.cond(
            index < offset + half,
            lambda *ops: _switch_tree(index, low, offset, ops),
            lambda *ops: _switch_tree(index, high, offset + half, ops),
            operands,
        )
    )


def while_loop(cond_fn: Callable, body_fn: Callable, init: tuple, max_iterations: int | None) -> tuple:
    if not _compiling():
        try:
            return _py.while_loop(cond_fn, body_fn, init, max_iterations)
        except RuntimeError as error:  # a predicate batched by torch.func.vmap
            if "vmap" not in str(error):
                raise
            if max_iterations is None:
                raise _py.batched_while_error(BACKEND) from None
            return _py.masked_while_loop(cond_fn, body_fn, init, max_iterations, _select, torch.logical_and)
    _no_functorch("while_loop")
    loop = _hop("while_loop")
    probe = body_fn(init)  # traced once outside the operator (dead code): does the loop need gradients?
    init = _anchored(init, (*init, *probe))
    if max_iterations is None:
        return tuple(loop(lambda *c: cond_fn(c), _unaliased(body_fn), init))
    count = torch.zeros((), dtype=torch.int64)
    out = loop(
        lambda i, *c: torch.logical_and(i < max_iterations, cond_fn(c)),
        lambda i, *c: (i + 1, *_unaliased(body_fn)(*c)),
        (count, *init),
    )
    return tuple(out[1:])


def _anchored(carry: tuple, outputs: tuple) -> tuple:
    """``carry`` with every floating leaf requiring grad when any of ``outputs`` does.

    torch 2.13's backward of the ``while_loop`` operator drops the gradient through a floating
    carry that does not require grad on entry but comes to depend on one that does (a state
    that starts as a constant and is driven by parameters or inputs): the gradient is silently
    wrong, eagerly and under every compiler backend. ``torch.where(True, leaf, anchor)`` keeps the
    leaf's value exactly and makes it require grad (the anchor's own gradient is zero).
    """
    if not torch.is_grad_enabled():
        return carry
    anchor = next(
        (v for v in outputs if v.requires_grad and v.dtype.is_floating_point and v.numel() > 0), None
    )
    if anchor is None:
        return carry
    if any(v.dtype.is_complex for v in carry):
        raise UnsupportedError(
            "while_loop/scan: torch 2.13's compiled while_loop operator has no reverse mode for a "
            "complex carry (its gradient is dropped); split it into real and imaginary parts "
            "(hd.real, hd.imag), or differentiate the eager loop (hd.grad of the function, not of hd.jit)"
        )
    anchor = anchor.reshape(-1)[0]
    true = torch.ones((), dtype=torch.bool)
    return tuple(
        torch.where(true, v, anchor.to(v.dtype)) if v.dtype.is_floating_point and not v.requires_grad else v
        for v in carry
    )


def scan(step: Callable, init: tuple, xs: tuple, length: int, reverse: bool, unroll: int) -> tuple:
    if not _compiling():
        return _py.scan(
            step,
            init,
            xs,
            length,
            reverse,
            lambda x: x.unbind(0),
            torch.stack,
            lambda x: x.new_zeros(x.shape[1:]),
        )
    _no_functorch("scan")
    if length == 0:
        _, y = step(init, tuple(x.new_zeros(x.shape[1:]) for x in xs))
        return init, tuple(v.new_zeros((0, *v.shape)) for v in y)
    # The while_loop operator over (t, carry, ys buffers), not torch's scan operator: in torch
    # 2.13 the scan operator's backward fails on a tuple carry ("scan might be aliasing the input
    # or the output!"), and the while_loop operator has a backward under inductor. The first step
    # runs outside the operator: it gives y's shapes for the buffers, tells whether gradients
    # flow (see _anchored), and the front learns y's structure there (storing it from inside the
    # operator's body is a side effect dynamo refuses).
    first = length - 1 if reverse else 0
    carry, y_first = step(init, tuple(x[first] for x in xs))
    buffers = tuple(v.new_zeros((length, *v.shape)).index_copy(0, _index(first), v[None]) for v in y_first)
    state = _anchored((*carry, *buffers), (*carry, *y_first))
    if length == 1:
        return carry, buffers
    n, m = len(carry), len(buffers)

    def body(t: Any, *state: Any) -> tuple:
        index = length - 1 - t if reverse else t
        new, y = step(tuple(state[:n]), tuple(x.index_select(0, index.reshape(1))[0] for x in xs))
        written = (b.index_copy(0, index.reshape(1), v[None]) for b, v in zip(state[n:], y, strict=True))
        return (t + 1, *new, *written)

    out = _hop("while_loop")(lambda t, *_: t < length, body, (_index(1)[0], *state))
    return tuple(out[1 : n + 1]), tuple(out[n + 1 : n + 1 + m])


def inductor_for_loops(gm: Any, example_inputs: Any, options: dict | None = None) -> Any:
    """torch.compile's inductor backend, letting the graphs it traces read a tensor's value.

    The backward of torch 2.13's ``while_loop`` operator reads its loop counter with ``.item()``;
    inductor traces it only where the shape environment allows scalar outputs, which dynamo
    grants under ``fullgraph=True`` or ``torch._dynamo.config.capture_scalar_outputs``. Without
    either, dynamo breaks the graph at the loop and retraces it in pieces, which fails. ``hd.jit``
    compiles with this backend (a user's own ``torch.compile`` of code with hedera loops that
    is differentiated: pass ``fullgraph=True``). Other options go to inductor as ``config_patches``.
    """
    import dataclasses

    from torch._inductor.compile_fx import compile_fx

    context = torch._guards.TracingContext.try_get()
    env = getattr(getattr(context, "fake_mode", None), "shape_env", None)
    if env is not None and not env.allow_scalar_outputs:
        env.settings = dataclasses.replace(env.settings, allow_scalar_outputs=True)
    try:
        return compile_fx(gm, example_inputs, config_patches=options or None)
    except Exception as error:
        # torch 2.13's inductor fails on a while_loop operator whose inputs have dynamic sizes
        # (dynamo makes sizes dynamic when it recompiles a function for new shapes): "A subgraph
        # argument other than striding has been modified; FakeTensorUpdater cannot update this
        # argument!". Compiled by aot_eager instead, the graph keeps its one loop.
        if "FakeTensorUpdater" not in str(error):
            raise
        return torch._dynamo.lookup_backend("aot_eager")(gm, example_inputs)


def _unaliased(fn: Callable) -> Callable:
    """``fn`` over positional operands, cloning outputs that are its inputs (operators refuse aliases)."""

    def run(*operands: Any) -> tuple:
        ids = {id(x) for x in operands}
        return tuple(v.clone() if id(v) in ids else v for v in fn(operands))

    return run


def _index(i: int) -> Any:
    return torch.tensor([i], dtype=torch.int64)
