"""Function transformations for the torch backend: ``torch.func`` and ``torch.compile``.

Every backend's ``autodiff`` module has the same functions, over *flat* inputs:
the front (:mod:`hedera.autodiff`) flattens nests to a tuple of leaves, so a
function here receives and returns tuples of native arrays. See
``hedera/backends/numpy/autodiff.py`` for the contract of each function.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

import torch
import torch.func as _func

from ...errors import HederaError
from ...jit import inside_trace, traced_by, values_unreadable

AUTODIFF = True


def user_function(f: Callable) -> Callable:
    """``f`` as hedera should call it (unchanged; TensorFlow applies AutoGraph here)."""
    return f


def is_inexact(x: Any) -> bool:
    """Whether ``x`` has a floating or complex dtype (the dtypes gradients are defined for)."""
    return x.is_floating_point() or x.is_complex()


def all_inexact(xs: Sequence[Any]) -> bool:
    """Whether every tensor of ``xs`` is :func:`is_inexact` (one C-level pass for real floats)."""
    return all(map(torch.is_floating_point, xs)) or all(map(is_inexact, xs))


def is_real_floating(x: Any) -> bool:
    return x.is_floating_point()


def value_and_grad(f: Callable, leaves: tuple, has_aux: bool) -> tuple[Any, tuple]:
    if _plain_autograd_applies(leaves):
        return _autograd_value_and_grad(f, leaves, has_aux)
    if len(leaves) == 1:  # one tensor: spare torch.func's pytree handling of a tuple
        grad, value = _func.grad_and_value(lambda x: f((x,)), argnums=0, has_aux=has_aux)(leaves[0])
        return value, (grad,)
    grads, value = _func.grad_and_value(f, argnums=0, has_aux=has_aux)(leaves)
    return value, grads  # torch.func returns (grads, value); hedera (and jax) the other way round


_peek_interpreter = torch._C._functorch.peek_interpreter_stack


def _plain_autograd_applies(leaves: tuple) -> bool:
    """Whether a first-order gradient can be taken with ``torch.autograd.grad`` instead of ``torch.func``.

    ``torch.func.grad_and_value`` wraps every input and every intermediate tensor (a
    functorch level), which costs about as much again as the computation on a small
    model. Plain autograd on fresh leaf tensors computes the same gradient when
    nothing outside is transforming the call: no functorch transform running (no
    ``hd.vmap``/``hd.jvp``/``hd.grad`` around this one, whose tensors are wrapped),
    no ``torch.compile`` tracing (dynamo traces ``torch.func``, not ``autograd.grad``),
    and no input already in an autograd graph (a caller differentiating through this
    gradient: ``torch.func`` composes with it, ``create_graph`` would have to).
    """
    if _peek_interpreter() is not None or torch.compiler.is_compiling():
        return False
    for x in leaves:  # a loop, not a generator: this runs at every training step
        if x.requires_grad:
            return False
    return True


def _detached(tree: Any) -> Any:
    return tuple(x.detach() if isinstance(x, torch.Tensor) else x for x in tree)


def _value_and_grads(f: Callable, inputs: tuple, has_aux: bool) -> tuple[Any, tuple]:
    """``f(inputs)`` and the gradient of its value with respect to ``inputs`` (grad mode on)."""
    out = f(inputs)
    value = out[0] if has_aux else out
    if not value.requires_grad:  # f does not depend on its inputs
        return out, tuple(torch.zeros_like(x) for x in inputs)
    grads = torch.autograd.grad(value, inputs, allow_unused=True, materialize_grads=True)
    if all(map(_is_contiguous, grads)):
        return out, grads
    return out, tuple(map(_in_layout_of, grads, inputs))


_is_contiguous = torch.Tensor.is_contiguous


def _in_layout_of(grad: Any, x: Any) -> Any:
    """``grad`` contiguous where ``x`` is: torch.nn's gradient layout contract (``AccumulateGrad``
    gives a parameter's ``.grad`` its strides). ``torch.autograd.grad`` returns what the graph
    made: a transposed view for a weight the forward used transposed (``hd.nn_ops.lstm`` hands
    ``torch.lstm`` hedera's ``(in, 4 * hidden)`` weights as views), which the optimizer's
    elementwise kernels then read with mismatched strides (15 % of the LSTM's Adam step)."""
    return grad.contiguous() if not grad.is_contiguous() and x.is_contiguous() else grad


def _autograd_value_and_grad(f: Callable, leaves: tuple, has_aux: bool) -> tuple[Any, tuple]:
    """``f``'s value and gradient by ``torch.autograd.grad`` on leaf copies of ``leaves`` (no graph kept).

    Gradients of leaves ``f`` does not depend on are zeros, as ``torch.func``'s; the
    value (and ``aux``) come back detached, as ``torch.func`` returns them.
    """
    inputs = tuple([x.detach().requires_grad_() for x in leaves])
    if torch.is_grad_enabled():
        out, grads = _value_and_grads(f, inputs, has_aux)
    else:
        with torch.enable_grad():
            out, grads = _value_and_grads(f, inputs, has_aux)
    value = out[0] if has_aux else out
    value = value.detach()
    return ((value, _detached(out[1])) if has_aux else value), grads


def vjp(f: Callable, leaves: tuple, has_aux: bool) -> tuple:
    return _func.vjp(f, *leaves, has_aux=has_aux)


def jvp(f: Callable, leaves: tuple, tangents: tuple, has_aux: bool) -> tuple:
    return _func.jvp(f, leaves, tangents, has_aux=has_aux)


def jacobian(f: Callable, leaves: tuple, mode: str, has_aux: bool) -> Any:
    transform = _func.jacrev if mode == "reverse" else _func.jacfwd
    return transform(f, argnums=0, has_aux=has_aux)(leaves)


def vmap(f: Callable, leaves: tuple, axes: Sequence[int]) -> tuple:
    return _func.vmap(f, in_dims=(tuple(axes),), out_dims=0)(leaves)


def moveaxis(x: Any, source: int, destination: int) -> Any:
    return torch.movedim(x, source, destination)


def stop_gradient(x: Any) -> Any:
    """``x`` cut off from the graph: ``x.detach()`` (shares memory, as in torch)."""
    return x.detach()


#: how dynamo names the globals of a module it imports while tracing: hedera._dispatch is
#: G['__import_hedera_dot__dispatch'] (torch/_dynamo/output_graph.py, install_global_by_id)
_HEDERA_GLOBAL = "G['__import_hedera_dot_"

#: the torch releases (major.minor) on which tests/core/test_compiled_dispatch.py shows that dynamo
#: names hedera's globals so (the pinned torch of constraints.txt must be one); dynamo's naming is
#: private, so on other releases hd.jit passes no guard filter
GUARD_FILTER_TESTED = frozenset({"2.13"})


def guard_filter_is_tested() -> bool:
    """Whether the running torch is one on which :func:`skip_hedera_guards` is proven right."""
    return ".".join(torch.__version__.split(".")[:2]) in GUARD_FILTER_TESTED


def skip_hedera_guards(entries: Sequence[Any]) -> list[bool]:
    """A ``guard_filter_fn`` for ``torch.compile`` that drops the guards on hedera's own module
    globals: the code of the functions dynamo inlined, their caches, the backend modules.

    Dynamo re-checks every guard at every call of the compiled function, and a traced hedera
    call leaves tens of them (measured: +1.6 µs per call for five ``hd.*`` calls on a 21 µs
    compiled call; a backend shim's guards cost about as much again). They protect against
    hedera's modules being changed after import, which hedera never does: its mutable state
    (the current backend) is read through functions dynamo takes as constants. Guards on your
    own globals (``hd`` itself, ``hd.sin``), on tensors and on global torch state are kept.
    ``hd.jit`` passes it on the torch releases where a test proves it right
    (:data:`GUARD_FILTER_TESTED`; none on others); pass it yourself to ``torch.compile`` as
    ``options={"guard_filter_fn": hedera.backends.torch.autodiff.skip_hedera_guards}``.
    """
    return [_HEDERA_GLOBAL not in entry.name for entry in entries]


def jit(
    f: Callable, static_argnums: tuple[int, ...], static_argnames: tuple[str, ...], **options: Any
) -> Callable:
    """``torch.compile(f, **options)``, with :func:`skip_hedera_guards` as its guard filter
    unless ``options={"guard_filter_fn": ...}`` names another (or ``mode=`` is given, which
    torch.compile does not take together with ``options``), on the torch releases where it is
    tested (:data:`GUARD_FILTER_TESTED`).

    Static arguments need no declaration: dynamo guards on Python values, so a
    new value of a static argument triggers a recompilation, as in jax.

    Errors: dynamo reports an error of the traced code its own way, past the
    front's diagnosis (the front's ``except`` clause is not traced), so on an
    error that is not hedera's the call reruns ``f`` eagerly, and raises the
    hedera error (``InvalidAxisError``...) that the same bad input raises eagerly.
    """
    if "mode" not in options and guard_filter_is_tested():  # torch.compile takes mode or options
        options["options"] = {"guard_filter_fn": skip_hedera_guards, **(options.get("options") or {})}
    if "mode" not in options and "backend" not in options:  # inductor, for hedera's compiled loops
        from .control import inductor_for_loops

        options["backend"] = inductor_for_loops
    if _is_eager_backend(options.get("backend")):
        options["backend"] = eager_outside_transforms
    compiled = torch.compile(f, **options)

    def diagnose(error: Exception, args: tuple, kwargs: dict) -> None:
        if not isinstance(error, HederaError):
            diagnose_eagerly(f, error, args, kwargs)

    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return compiled(*args, **kwargs)
        except Exception as error:
            diagnose(error, args, kwargs)
            raise

    # hd.jit calls ``compiled`` itself, and ``diagnose`` on an error (one Python frame less per call)
    run.__hedera_jit_parts__ = (compiled, diagnose)  # type: ignore[attr-defined]
    return run


def _is_eager_backend(backend: Any) -> bool:
    """Whether ``backend`` is torch.compile's ``"eager"`` backend (by name or the function itself)."""
    if backend == "eager":
        return True
    debugging = sys.modules.get("torch._dynamo.backends.debugging")  # imported with torch.compile
    return debugging is not None and backend is getattr(debugging, "eager", None)


def eager_outside_transforms(gm: Any, example_inputs: Any, **kwargs: Any) -> Callable:
    """torch.compile's ``"eager"`` backend (the traced graph run as it is), as another function.

    Dynamo refuses to compile a frame that runs inside an eager ``torch.func`` transform (the
    transform dynamo could not trace, run eagerly: ``hd.jit(hd.grad(f))`` of a ``hd.cond``), and
    runs it eagerly, for every backend but its own ``eager`` function, which it lets compile such
    frames; torch 2.13 then fails fakeifying their functorch-wrapped tensors (``AssertionError:
    False != True`` in ``assert_metadata_eq``, with no hedera code involved:
    ``torch.compile(lambda x: torch.func.grad(g)(x), backend="eager")`` for a ``g`` with a graph
    break). ``hd.jit`` compiles ``backend="eager"`` with this function, so that the debugging
    backend works wherever the default one does.
    """
    return gm.forward


def diagnose_eagerly(f: Callable, error: Exception, args: tuple, kwargs: dict) -> None:
    """Rerun ``f`` eagerly and raise the hedera error it raises (from ``error``); else return."""
    try:
        f(*args, **kwargs)
    except HederaError as diagnosed:
        raise diagnosed from error
    except Exception:
        pass


#: Whether this code is being traced by ``torch.compile`` (or ``torch.export``): torch's own
#: function, which dynamo never compiles on its own (see :func:`never_compiled_alone`).
is_compiling = torch.compiler.is_compiling


def never_compiled_alone(*functions: Callable) -> None:
    """Have dynamo run ``functions`` as they are when code running eagerly calls them, instead of
    compiling each one's frame on its own; traced into a caller's graph they are traced as ever.

    For the functions that answer whether code is being traced (:func:`hedera.jit.inside_trace`
    and the like). Inside a compiled region dynamo compiles a frame that code running eagerly
    enters (after a graph break, or where tracing a caller failed and fell back) on its own, if
    the frame refers to ``torch`` or holds a tensor: tracing such a function folds its answer to
    True, and the frame it caches answers True to that eager code from then on (the cause of
    ``hd.jit(hd.grad(f))`` of a ``hd.cond`` running torch's compiled loop eagerly, which raised).
    torch's own frames (``torch.compiler.is_compiling``) are never compiled alone: this marks
    hedera's as torch marks those of ``torch.compiler.disable(recursive=False)``. A torch without
    the (private) frame-strategy call leaves them unmarked.
    """
    frames = torch._C._dynamo.eval_frame
    set_strategy = getattr(frames, "set_code_exec_strategy", None)
    if set_strategy is None:
        return
    skip_this_frame_only = frames._FrameExecStrategy(frames._FrameAction.SKIP, frames._FrameAction.DEFAULT)
    for function in functions:
        set_strategy(function.__code__, skip_this_frame_only)


never_compiled_alone(inside_trace, traced_by, values_unreadable)
