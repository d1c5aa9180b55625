"""Activation functions: elementwise (``softmax`` and ``log_softmax`` along an axis).

Each calls its backend's native kernel through :mod:`hedera.nn_ops`
(``torch.relu``, ``jax.nn.gelu``, ``tf.nn.silu``...); inputs are floating
arrays of any shape and the result has the input's shape and dtype. The
definitions are PyTorch's, which JAX and TensorFlow share except where noted
(``leaky_relu``'s default slope, ``hard_sigmoid``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import hedera as hd
from hedera import nn_ops as _ops
from hedera.helpers import finite_float, integer
from hedera.typing import Array

__all__ = [
    "ACTIVATIONS",
    "elu",
    "gelu",
    "get_activation",
    "hard_sigmoid",
    "hard_swish",
    "leaky_relu",
    "log_sigmoid",
    "log_softmax",
    "mish",
    "relu",
    "selu",
    "sigmoid",
    "silu",
    "softmax",
    "softplus",
    "tanh",
]


def relu(x: Array) -> Array:
    """``max(x, 0)``.

    Examples
    --------
    >>> import numpy as np, hedera as hd
    >>> hd.nn.functional.relu(np.array([-1.0, 2.0])).tolist()
    [0.0, 2.0]
    """
    return _ops.relu(x)


def leaky_relu(x: Array, negative_slope: float = 0.01) -> Array:
    """``x`` where ``x >= 0``, else ``negative_slope * x``.

    The default slope is PyTorch's and JAX's (``tf.nn.leaky_relu``'s is 0.2).
    """
    return _ops.leaky_relu(x, finite_float("leaky_relu", "negative_slope", negative_slope))


def elu(x: Array, alpha: float = 1.0) -> Array:
    """``x`` where ``x > 0``, else ``alpha * (exp(x) - 1)``."""
    return _ops.elu(x, finite_float("elu", "alpha", alpha))


def selu(x: Array) -> Array:
    """``scale * elu(x, alpha)``, self-normalising constants ``alpha ≈ 1.6733``, ``scale ≈ 1.0507``."""
    return _ops.selu(x)


def gelu(x: Array, approximate: bool | str = False) -> Array:
    """Gaussian error linear unit ``x * Φ(x)``.

    Parameters
    ----------
    x : array
    approximate : bool or {"none", "tanh"}
        ``False`` (default, also ``"none"``): exact, with the error function.
        ``True`` (also ``"tanh"``): ``0.5 x (1 + tanh(sqrt(2/π) (x + 0.044715 x³)))``.
        (``jax.nn.gelu`` defaults to the approximation; hedera does not.)
    """
    if approximate in ("none", "tanh"):
        approximate = approximate == "tanh"
    elif not isinstance(approximate, bool):
        raise hd.InvalidArgumentError(
            f"gelu: approximate must be a bool, 'none' or 'tanh', got {approximate!r}"
        )
    return _ops.gelu(x, approximate)


def silu(x: Array) -> Array:
    """``x * sigmoid(x)`` (also called swish)."""
    return _ops.silu(x)


def mish(x: Array) -> Array:
    """``x * tanh(softplus(x))``."""
    return _ops.mish(x)


def softplus(x: Array) -> Array:
    """``log(1 + exp(x))``, computed without overflow."""
    return _ops.softplus(x)


def sigmoid(x: Array) -> Array:
    """``1 / (1 + exp(-x))``, computed without overflow."""
    return _ops.sigmoid(x)


def log_sigmoid(x: Array) -> Array:
    """``log(sigmoid(x)) = -softplus(-x)``, computed without overflow."""
    return _ops.log_sigmoid(x)


def tanh(x: Array) -> Array:
    """Hyperbolic tangent (``hd.tanh``)."""
    return hd.tanh(x)


def hard_sigmoid(x: Array) -> Array:
    """``relu6(x + 3) / 6``: 0 below -3, 1 above 3, linear between (PyTorch's and JAX's definition)."""
    return _ops.hard_sigmoid(x)


def hard_swish(x: Array) -> Array:
    """``x * hard_sigmoid(x)``."""
    return _ops.hard_swish(x)


def softmax(x: Array, axis: int = -1) -> Array:
    """``exp(x) / sum(exp(x))`` along ``axis`` (shifted by the maximum: no overflow)."""
    return _ops.softmax(x, _axis("softmax", x, axis))


def log_softmax(x: Array, axis: int = -1) -> Array:
    """``x - logsumexp(x)`` along ``axis``."""
    return _ops.log_softmax(x, _axis("log_softmax", x, axis))


def _axis(op: str, x: Array, axis: Any) -> int:
    ndim = len(x.shape)
    integer(op, "axis", axis)
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise hd.InvalidAxisError(
            f"{op}: axis={axis!r} is out of range for an array of {ndim} dimensions; "
            f"expected an integer in [{-max(ndim, 1)}, {max(ndim, 1) - 1}]"
        )
    return axis


#: activation name -> function of one array (the names :func:`get_activation` accepts)
ACTIVATIONS: dict[str, Callable[[Array], Array]] = {
    "relu": relu,
    "leaky_relu": leaky_relu,
    "elu": elu,
    "selu": selu,
    "gelu": gelu,
    "gelu_tanh": lambda x: gelu(x, approximate=True),
    "silu": silu,
    "swish": silu,
    "mish": mish,
    "softplus": softplus,
    "sigmoid": sigmoid,
    "log_sigmoid": log_sigmoid,
    "tanh": tanh,
    "hard_sigmoid": hard_sigmoid,
    "hard_swish": hard_swish,
    "softmax": softmax,
    "log_softmax": log_softmax,
    "identity": lambda x: x,
    "linear": lambda x: x,
}


def get_activation(name: str | Callable[[Array], Array] | None) -> Callable[[Array], Array]:
    """The activation function called ``name`` (a key of :data:`ACTIVATIONS`); a callable is returned as is.

    ``None`` gives the identity.

    Raises
    ------
    InvalidArgumentError
        For an unknown name; the message lists the known ones.

    Examples
    --------
    >>> import numpy as np, hedera as hd
    >>> hd.nn.functional.get_activation("relu")(np.array([-1.0, 1.0])).tolist()
    [0.0, 1.0]
    """
    if name is None:
        return ACTIVATIONS["identity"]
    if callable(name):
        return name
    try:
        return ACTIVATIONS[name]
    except (KeyError, TypeError):
        raise hd.InvalidArgumentError(
            f"get_activation: unknown activation {name!r}; expected one of {sorted(ACTIVATIONS)}"
        ) from None
