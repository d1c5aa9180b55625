"""The backends' native neural-network kernels, one dispatching front per kernel (public, low level).

``hedera.nn.functional`` is written once in hedera's public API, but convolutions,
pooling and activations need each framework's own kernel
(``torch.nn.functional.conv2d``, ``jax.lax.conv_general_dilated``,
``tf.nn.convolution``; an explicit im2col for NumPy). Those kernels live in the
backends, in ``hedera.backends.<name>.nn`` (the same kernel names and
signatures in every backend), and this module is the public door to them: each
function here looks up the kernel for ``type(x)`` in a per-kernel dict (filled
on first use, as the core fronts do: docs/dispatch.md) and calls it.

The kernels take *normalised* arguments, validated by ``hedera.nn.functional``
(which is what users should call): tuples of ints for ``stride``/``dilation``,
one ``(low, high)`` pair of ints per spatial dimension for ``padding``, and a
bool ``channels_last``. They validate nothing themselves. Weights use hedera's
layout on every backend: ``(*kernel_size, in_channels // groups,
out_channels)`` for convolutions and ``(*kernel_size, out_channels // groups,
in_channels)`` for transposed convolutions (docs/nn.md).

:func:`kernels` returns a backend's whole kernel module, for code that knows its
backend; :data:`KERNELS` lists the kernel names every backend must provide.

Multi-tensor kernels
--------------------
``foreach_add``, ``foreach_multiply``, ``foreach_divide``, ``foreach_maximum``,
``foreach_sqrt`` and ``foreach_square`` apply one elementwise function to every
array of a list at once (what optimizers do to all the parameters of a model):
``foreach_add(xs, ys)`` is ``[hd.add(x, y) for x, y in zip(xs, ys)]``, with ``ys`` a
list of the same length or one scalar (a Python float or a 0-d array) for all.
The result is the same, bit for bit, as that loop. A backend may provide them
(:data:`FOREACH_KERNELS`; torch's are its ``torch._foreach_*`` kernels, one call
for the whole list); where it does not, or cannot for the given arrays, the
loop runs. With ``reuse=True`` the caller gives up ``xs``: they are temporaries
it will not read again, and a backend may write the results into them (torch
does, outside autograd; arrays that cannot be written to, like jax's, are simply
not reused). ``out`` (binary kernels and ``foreach_square``) is a list of arrays
the caller gives up likewise, one per ``x`` (temporaries of an earlier call, of
the results' shapes and dtypes), that the backend may write the results into
instead of allocating new ones (torch does for large tensors, outside autograd:
``torch.mul(x, y, out=o)``); the values are the same either way. ``hd.optim``
runs its updates through these kernels.

Fused layer kernels
-------------------
``lstm`` and ``gru`` run a whole recurrent layer (every time step) in a backend's own
kernel where it has one for the call (torch's ``torch.lstm``/``torch.gru``, one C++ loop,
eagerly), and return None where it does not (another backend, or a trace: under
``hd.jit``, ``torch.func`` transforms and ``torch.compile`` the portable
:func:`hedera.scan` loop of :mod:`hedera.nn.functional` runs, which every compiler
turns into its own loop). Same equations and gate order as that loop; results equal
within float rounding (the sums of the gates are added in another order).
``attention(query, key, value, scale)`` is unmasked scaled dot-product attention in one kernel
(torch's ``scaled_dot_product_attention``, eagerly), or None; ``layer_norm(x, normalized_shape,
weight, bias, eps)`` likewise (torch's ``F.layer_norm``, eagerly), or None. ``gather_classes(x, targets)`` is
``x[..., targets]`` per example (what cross-entropy
picks from the log-probabilities), in one gather where the backend has a cheap one
(TensorFlow's ``tf.gather(batch_dims=...)``, torch's ``gather``), the same values exactly.
``softmax_cross_entropy(logits, targets)`` is the whole per-example cross-entropy of integer
targets in one kernel (TensorFlow's ``sparse_softmax_cross_entropy_with_logits``), or None.

Fused optimizer kernels
-----------------------
``fused_adam`` and ``fused_sgd`` run a whole optimizer update of every parameter in one kernel
where the backend has one for the call (torch, eagerly, outside autograd and ``torch.func``
transforms: ``torch._fused_adam_``/``torch._fused_adamw_`` and ``torch._fused_sgd_``, the kernels
of ``torch.optim``'s ``fused=True``, one pass over each parameter), and return None where it has
none (another backend, a trace, arrays that need a gradient): then ``hd.optim``'s stages run. The
algorithm is the stages' (:class:`hedera.optim.Adam`, ``AdamW``, ``SGD``); the kernel's rounding is
its own (multiply-adds, ``sqrt(v) / sqrt(1 - b2**t)``), so results differ from the stages' at the
ulp level, and equal ``torch.optim``'s with ``fused=True`` bit for bit. ``reuse_params`` and
``reuse_state``: the caller gives up those arrays, and the kernel writes the results into them
(else it copies them first); the gradients are never written to.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from . import _dispatch
from . import _front as hd
from ._dispatch import backend_module, backend_name_of_type, backend_of
from .errors import InvalidArgumentError

__all__ = [
    "KERNELS",
    "attention",
    "avg_pool",
    "conv",
    "conv_transpose",
    "cross_entropy",
    "FOREACH_KERNELS",
    "elu",
    "foreach_add",
    "foreach_divide",
    "foreach_maximum",
    "foreach_multiply",
    "foreach_sqrt",
    "foreach_square",
    "FUSED_KERNELS",
    "OPTIMIZER_KERNELS",
    "fused_adam",
    "fused_sgd",
    "gather_classes",
    "gelu",
    "gru",
    "hard_sigmoid",
    "hard_swish",
    "kernels",
    "layer_norm",
    "leaky_relu",
    "linear",
    "log_sigmoid",
    "log_softmax",
    "lstm",
    "max_pool",
    "mish",
    "relu",
    "selu",
    "sigmoid",
    "silu",
    "softmax",
    "softmax_cross_entropy",
    "softplus",
]

#: kernel name -> its signature (every ``hedera.backends.<name>.nn`` defines each with these parameters)
KERNELS: dict[str, str] = {
    "relu": "(x)",
    "leaky_relu": "(x, negative_slope)",
    "elu": "(x, alpha)",
    "selu": "(x)",
    "gelu": "(x, approximate)",
    "silu": "(x)",
    "mish": "(x)",
    "softplus": "(x)",
    "sigmoid": "(x)",
    "log_sigmoid": "(x)",
    "hard_sigmoid": "(x)",
    "hard_swish": "(x)",
    "softmax": "(x, axis)",
    "log_softmax": "(x, axis)",
    "conv": "(x, weight, bias, stride, padding, dilation, groups, channels_last)",
    "conv_transpose": "(x, weight, bias, stride, padding, output_padding, dilation, groups, channels_last)",
    "max_pool": "(x, window, stride, padding, channels_last)",
    "avg_pool": "(x, window, stride, padding, count_include_pad, channels_last)",
}

#: multi-tensor kernel name -> its signature; optional in a backend's module (hedera loops otherwise)
FOREACH_KERNELS: dict[str, str] = {
    "foreach_add": "(xs, ys, reuse, out)",
    "foreach_multiply": "(xs, ys, reuse, out)",
    "foreach_divide": "(xs, ys, reuse, out)",
    "foreach_maximum": "(xs, ys, reuse, out)",
    "foreach_sqrt": "(xs, reuse)",
    "foreach_square": "(xs, reuse, out)",
}


#: fused layer kernel name -> its signature; optional in a backend's module (None: hedera's loop runs)
FUSED_KERNELS: dict[str, str] = {
    "lstm": "(x, h, c, w_ih, w_hh, b_ih, b_hh) -> (outputs, h, c) or None (h = c = None: zeros)",
    "gru": "(x, h, w_ih, w_hh, b_ih, b_hh) -> (outputs, h) or None (h = None: zeros)",
    "gather_classes": "(x, targets) -> x[..., targets] per example, or None",
    "softmax_cross_entropy": "(logits, targets) -> -log_softmax(logits)[..., targets] per example, or None",
    "attention": "(query, key, value, scale) -> softmax(query @ key^T * scale) @ value, or None",
    "layer_norm": "(x, normalized_shape, weight, bias, eps) -> layer normalisation of x, or None",
    "linear": "(x, weight, bias) -> x @ weight + bias, or None",
    "cross_entropy": "(logits, targets, axis, reduction, label_smoothing, ignore_index) -> the loss, or None",
}


#: fused optimizer kernel name -> its signature; optional in a backend's module (None: hd.optim's stages run)
OPTIMIZER_KERNELS: dict[str, str] = {
    "fused_adam": (
        "(params, grads, mu, nu, nu_max, count, lr, b1, b2, eps, weight_decay, decoupled, "
        "reuse_params, reuse_state) -> (params, mu, nu, nu_max) or None"
    ),
    "fused_sgd": (
        "(params, grads, buf, count, lr, momentum, dampening, nesterov, weight_decay, "
        "reuse_params, reuse_state) -> (params, buf) or None"
    ),
}


def kernels(x_or_name: Any) -> ModuleType:
    """The kernel module ``hedera.backends.<name>.nn`` of an array's backend, or of a backend name.

    Examples
    --------
    >>> import numpy as np, hedera as hd
    >>> hd.nn_ops.kernels(np.zeros(2)).__name__
    'hedera.backends.numpy.nn'
    """
    name = x_or_name if isinstance(x_or_name, str) else backend_of(x_or_name)
    return backend_module(name, "nn")  # imported for real at trace time, too (docs/dispatch.md)


def _miss(cache: dict[type, Callable], name: str, x: Any) -> Callable:
    """Find (and cache for ``type(x)``) the backend kernel ``name``; NotAnArrayError for a non-array."""
    backend_of(x)  # the hedera error for a non-array
    kernel = getattr(kernels(backend_name_of_type(type(x))), name)
    if not _dispatch._is_tracing():  # as the core fronts: filling it under torch.compile would recompile
        cache[type(x)] = kernel
    return kernel


def _front(name: str) -> Callable:
    cache: dict[type, Callable] = {}

    def front(x: Any, *args: Any) -> Any:
        try:
            kernel = cache[type(x)]
        except KeyError:
            kernel = _miss(cache, name, x)
        return kernel(x, *args)

    front.__name__ = front.__qualname__ = name
    front.__doc__ = (
        f"Kernel ``{name}{KERNELS[name]}`` of ``x``'s backend (arguments normalised; "
        f"see :mod:`hedera.nn.functional` for the user-facing function)."
    )
    return front


relu = _front("relu")
leaky_relu = _front("leaky_relu")
elu = _front("elu")
selu = _front("selu")
gelu = _front("gelu")
silu = _front("silu")
mish = _front("mish")
softplus = _front("softplus")
sigmoid = _front("sigmoid")
log_sigmoid = _front("log_sigmoid")
hard_sigmoid = _front("hard_sigmoid")
hard_swish = _front("hard_swish")
softmax = _front("softmax")
log_softmax = _front("log_softmax")
conv = _front("conv")
conv_transpose = _front("conv_transpose")
max_pool = _front("max_pool")
avg_pool = _front("avg_pool")


# ---- multi-tensor kernels ------------------------------------------------------------------------


def _loop_binary(fn: Callable[[Any, Any], Any]) -> Callable[..., list]:
    def loop(xs: list, ys: Any, reuse: bool = False, out: list | None = None) -> list:
        if isinstance(ys, (list, tuple)):
            return [fn(x, y) for x, y in zip(xs, ys, strict=True)]
        return [fn(x, ys) for x in xs]

    return loop


def _loop_unary(fn: Callable[[Any], Any]) -> Callable[..., list]:
    def loop(xs: list, reuse: bool = False, out: list | None = None) -> list:
        return [fn(x) for x in xs]

    return loop


def _loops() -> dict[str, Callable[..., list]]:
    """The portable form of each multi-tensor kernel: the loop over hedera's elementwise functions."""
    return {
        "foreach_add": _loop_binary(hd.add),
        "foreach_multiply": _loop_binary(hd.multiply),
        "foreach_divide": _loop_binary(hd.divide),
        "foreach_maximum": _loop_binary(hd.maximum),
        "foreach_sqrt": _loop_unary(hd.sqrt),
        "foreach_square": _loop_unary(hd.square),
    }


_LOOPS: dict[str, Callable[..., list]] = {}


def loop_kernel(name: str) -> Callable[..., list]:
    """The portable loop of multi-tensor kernel ``name`` (what a backend's kernel falls back to)."""
    if not _LOOPS:
        _LOOPS.update(_loops())
    return _LOOPS[name]


def _kernel_miss(
    cache: dict[type, Callable], name: str, x: Any, fallback: Callable[[str], Callable]
) -> Callable:
    """Kernel ``name`` of the backend of ``x`` (``fallback(name)`` where it has none), remembered in
    ``cache`` for ``x``'s type outside traces; the hedera error for a non-array."""
    backend_of(x)  # the hedera error for a non-array
    module = kernels(backend_name_of_type(type(x)))
    kernel = vars(module).get(name) or fallback(name)  # vars: mxnet's module raises on any attribute
    if not _dispatch._is_tracing():
        cache[type(x)] = kernel
    return kernel


def _nonempty_list(name: str, xs: Any) -> bool:
    """Whether ``xs`` has arrays (an empty list has none); InvalidArgumentError if it is no list."""
    if not isinstance(xs, (list, tuple)):
        raise InvalidArgumentError(f"nn_ops.{name}: xs must be a list of arrays, got {type(xs).__name__}")
    return len(xs) > 0


_OUT_DOC = "; ``out``: a list of arrays given up, one per ``x``, that the results may be written into"


def _foreach_front(name: str) -> Callable:
    cache: dict[type, Callable] = {}
    binary = FOREACH_KERNELS[name].startswith("(xs, ys")

    def kernel_for(xs: Any) -> Callable:
        try:
            return cache[type(xs[0])]
        except KeyError:
            return _kernel_miss(cache, name, xs[0], loop_kernel)

    takes_out = FOREACH_KERNELS[name].endswith("out)")
    if binary:

        def front(xs: list, ys: Any, reuse: bool = False, out: list | None = None) -> list:
            if not _nonempty_list(name, xs):
                return []
            if out is None:  # the common call, and a backend kernel without `out`
                return kernel_for(xs)(xs, ys, reuse)
            return kernel_for(xs)(xs, ys, reuse, out)

    elif takes_out:

        def front(xs: list, reuse: bool = False, out: list | None = None) -> list:  # type: ignore[misc]
            if not _nonempty_list(name, xs):
                return []
            if out is None:
                return kernel_for(xs)(xs, reuse)
            return kernel_for(xs)(xs, reuse, out)

    else:

        def front(xs: list, reuse: bool = False) -> list:  # type: ignore[misc]
            if not _nonempty_list(name, xs):
                return []
            return kernel_for(xs)(xs, reuse)

    front.__name__ = front.__qualname__ = name
    op = name.removeprefix("foreach_")
    front.__doc__ = (
        f"``[hd.{op}(x{', y' if binary else ''}) for x in xs]`` in one multi-tensor kernel where the backend "
        f"has one (signature ``{name}{FOREACH_KERNELS[name]}``; ``ys`` a list or one scalar; "
        "``reuse=True``: the results may be written into ``xs``"
        f"{_OUT_DOC if takes_out else ''}). Returns a list."
    )
    return front


foreach_add = _foreach_front("foreach_add")
foreach_multiply = _foreach_front("foreach_multiply")
foreach_divide = _foreach_front("foreach_divide")
foreach_maximum = _foreach_front("foreach_maximum")
foreach_sqrt = _foreach_front("foreach_sqrt")
foreach_square = _foreach_front("foreach_square")


# ---- fused layer kernels ------------------------------------------------------------------------


FUSED_DOCS = {
    "attention": (
        "``softmax(query @ key^T * scale, axis=-1) @ value`` without mask or dropout, for "
        "``query (..., Lq, E)``, ``key (..., Lk, E)``, ``value (..., Lk, Ev)`` of one rank (shapes "
        "checked by the caller) in the backend's fused kernel (torch eagerly, outside transforms: "
        "``F.scaled_dot_product_attention``), equal within float rounding; None where it has none."
    ),
    "layer_norm": (
        "Layer normalisation of ``x`` over its last ``len(normalized_shape)`` axes (a tuple of ints, "
        "checked by the caller), ``(x - mean) / sqrt(var + eps) * weight + bias`` with ``weight``/``bias`` "
        "of shape ``normalized_shape`` or None, in the backend's fused kernel (torch eagerly, outside "
        "transforms: ``F.layer_norm``, one autograd node where the written-out form makes eight), equal "
        "within float rounding; None where it has none."
    ),
    "gather_classes": (
        "``x[..., targets]`` per example: ``x`` of shape ``(..., classes)``, integer ``targets`` of "
        "shape ``(...)`` (in range; not checked), the result of shape ``(...)``; None where the backend "
        "has no kernel for it (then ``take_along_axis``)."
    ),
    "softmax_cross_entropy": (
        "``-log_softmax(logits, axis=-1)[..., targets]`` per example in one kernel: ``logits`` of shape "
        "``(..., classes)``, integer ``targets`` of shape ``(...)`` (in range; not checked), the result "
        "of shape ``(...)``, equal within float rounding; None where the backend has no kernel for it "
        "(TensorFlow's is ``tf.nn.sparse_softmax_cross_entropy_with_logits``, what Keras' loss calls: "
        "its gradient is one product with the kernel's own softmax-minus-one-hot)."
    ),
    "linear": (
        "``x @ weight + bias`` for ``x (..., in)``, ``weight (in, out)`` (hedera's layout) and ``bias "
        "(out,)`` (shapes checked by the caller) in one kernel (torch eagerly, outside transforms, "
        "for tensors of one floating dtype: ``torch.addmm``, one autograd node where the product and "
        "the sum make two), equal within float rounding; None where it has none (no bias, another "
        "backend, a trace: then ``matmul`` and ``add``)."
    ),
    "cross_entropy": (
        "The whole cross-entropy of integer class ``targets`` (``logits (..., classes, ...)`` with the "
        "classes along the normalised ``axis``, ``targets`` its shape without ``axis``, both checked by "
        "the caller), reduced by ``reduction`` ('mean' over the targets that are not "
        "``ignore_index``, 'sum', 'none'), smoothed by ``label_smoothing``, in one kernel "
        "(torch eagerly, outside transforms, int64 targets: ``F.cross_entropy``, PyTorch's "
        "``nn.CrossEntropyLoss``, two autograd nodes where the written-out form makes five), equal "
        "within float rounding. None where the backend has none for the call, and for a target "
        "out of range (torch's own check finds it): the caller's written-out form then raises "
        "hedera's error."
    ),
}


def _no_kernel(*args: Any) -> None:
    return None


def _no_kernel_for(name: str) -> Callable[..., None]:
    """The fallback of a fused kernel a backend lacks: None, so that the caller's loop runs."""
    return _no_kernel


def _fused_front(name: str) -> Callable:
    cache: dict[type, Callable] = {}

    def front(x: Any, *args: Any) -> Any:
        try:
            kernel = cache[type(x)]
        except KeyError:
            kernel = _kernel_miss(cache, name, x, _no_kernel_for)
        return kernel(x, *args)

    front.__name__ = front.__qualname__ = name
    front.__doc__ = FUSED_DOCS.get(name) or (
        f"The backend's fused ``{name}`` layer kernel ``{name}{FUSED_KERNELS[name]}`` (batch-first "
        f"``x`` of shape ``(batch, time, input_size)``, states ``(batch, hidden_size)`` or None for "
        "zeros, hedera's ``(in, gates * hidden)`` weights, biases or None), or None where the backend "
        "has none for this call (then run :func:`hedera.nn.functional." + name + "`'s loop)."
    )
    return front


attention = _fused_front("attention")
lstm = _fused_front("lstm")
gru = _fused_front("gru")
gather_classes = _fused_front("gather_classes")
softmax_cross_entropy = _fused_front("softmax_cross_entropy")
layer_norm = _fused_front("layer_norm")
linear = _fused_front("linear")
cross_entropy = _fused_front("cross_entropy")


# ---- fused optimizer kernels --------------------------------------------------------------------


def _optimizer_front(name: str, doc: str) -> Callable:
    cache: dict[type, Callable] = {}

    def front(params: list, *args: Any) -> Any:
        if not _nonempty_list(name, params):
            return None
        x = params[0]
        try:
            kernel = cache[type(x)]
        except KeyError:
            kernel = _kernel_miss(cache, name, x, _no_kernel_for)
        return kernel(params, *args)

    front.__name__ = front.__qualname__ = name
    front.__doc__ = doc
    return front


_FUSED_COMMON = """

    The lists hold arrays of one shape per parameter, in one order; ``lr`` is a float or a 0-d
    array. ``reuse_params`` / ``reuse_state``: the caller gives up ``params`` / the state lists,
    which the kernel may then write the results into. The new parameters are never part of an
    autodiff graph (``hd.stop_gradient``'s). Returns None, touching nothing, where the
    backend has no kernel for the call (other backends; torch under ``torch.compile``, inside
    ``torch.func`` transforms, with tensors that need a gradient, of mixed dtypes or devices, or
    of float16 or bfloat16, which the stages compute in their own dtype).
    The algorithm is :mod:`hedera.optim`'s; the rounding is the kernel's own (equal to
    ``torch.optim``'s ``fused=True`` bit for bit), so results differ from the stages' in the last
    bits.
    """

fused_adam = _optimizer_front(
    "fused_adam",
    "One Adam/AdamW update of every parameter: ``(params, mu, nu, nu_max)`` after it, or None.\n\n"
    "    Bias-corrected moments (``b1``, ``b2``), ``eps`` added to ``sqrt(v_hat)``; ``weight_decay``\n"
    "    added to the gradients (L2, Adam's) or, with ``decoupled``, ``p * (1 - lr * weight_decay)``\n"
    "    (AdamW's); ``nu_max`` is the running maximum of ``nu`` (AMSGrad) or None; ``count`` is the\n"
    "    0-d integer number of updates including this one (the bias corrections' ``t``)." + _FUSED_COMMON,
)
fused_sgd = _optimizer_front(
    "fused_sgd",
    "One SGD update of every parameter: ``(params, buf)`` after it, or None.\n\n"
    "    ``g = grad + weight_decay * p``; with ``momentum`` > 0, ``buf = momentum * buf + (1 -\n"
    "    dampening) * g`` (``buf = g`` at the first update, ``count`` 1), ``g = buf`` or, with\n"
    "    ``nesterov``, ``g + momentum * buf``; ``p = p - lr * g``. ``buf`` is None without momentum."
    + _FUSED_COMMON,
)
