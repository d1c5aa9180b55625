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
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from . import _dispatch
from ._dispatch import backend_module, backend_name_of_type, backend_of

__all__ = [
    "KERNELS",
    "avg_pool",
    "conv",
    "conv_transpose",
    "elu",
    "gelu",
    "hard_sigmoid",
    "hard_swish",
    "kernels",
    "leaky_relu",
    "log_sigmoid",
    "log_softmax",
    "max_pool",
    "mish",
    "relu",
    "selu",
    "sigmoid",
    "silu",
    "softmax",
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
