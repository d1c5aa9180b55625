"""A module per activation function (``hd.nn.functional``'s), and ``Activation(name)`` for any of them."""

from __future__ import annotations

from collections.abc import Callable

import hedera as hd
from hedera.typing import Array

from .. import functional as F  # noqa: N812  (torch.nn.functional's customary name)
from ..module import Module
from ._base import finite_float, integer

__all__ = [
    "ELU",
    "GELU",
    "Activation",
    "HardSigmoid",
    "HardSwish",
    "LeakyReLU",
    "LogSigmoid",
    "LogSoftmax",
    "Mish",
    "ReLU",
    "SELU",
    "SiLU",
    "Sigmoid",
    "Softmax",
    "Softplus",
    "Tanh",
]


class Activation(Module):
    """An activation by name or function.

    Names are the keys of ``hd.nn.functional.ACTIVATIONS`` (``"relu"``, ``"gelu_tanh"``, ...).

    Raises
    ------
    InvalidArgumentError
        For an unknown name; the message lists the known ones.

    Examples
    --------
    >>> import numpy as np, hedera as hd
    >>> hd.nn.Activation("relu")(np.array([-1.0, 2.0])).tolist()
    [0.0, 2.0]
    """

    def __init__(self, activation: str | Callable[[Array], Array]) -> None:
        super().__init__()
        try:
            self.fn = F.get_activation(activation)
        except hd.InvalidArgumentError as e:
            raise hd.InvalidArgumentError(f"Activation: {e}") from None
        self.activation = activation

    def forward(self, x: Array) -> Array:
        return self.fn(x)

    def extra_repr(self) -> str:
        return (
            repr(self.activation)
            if isinstance(self.activation, str)
            else getattr(self.activation, "__name__", "")
        )


class _Elementwise(Module):
    """An activation without parameters: ``forward`` is the functional op."""

    fn: Callable[[Array], Array]

    def forward(self, x: Array) -> Array:
        return type(self).fn(x)


class ReLU(_Elementwise):
    """``max(x, 0)``."""

    fn = staticmethod(F.relu)


class SELU(_Elementwise):
    """Scaled ELU with the self-normalising constants."""

    fn = staticmethod(F.selu)


class SiLU(_Elementwise):
    """``x * sigmoid(x)`` (swish)."""

    fn = staticmethod(F.silu)


class Mish(_Elementwise):
    """``x * tanh(softplus(x))``."""

    fn = staticmethod(F.mish)


class Softplus(_Elementwise):
    """``log(1 + exp(x))``."""

    fn = staticmethod(F.softplus)


class Sigmoid(_Elementwise):
    """``1 / (1 + exp(-x))``."""

    fn = staticmethod(F.sigmoid)


class LogSigmoid(_Elementwise):
    """``log(sigmoid(x))``, computed stably."""

    fn = staticmethod(F.log_sigmoid)


class Tanh(_Elementwise):
    """The hyperbolic tangent."""

    fn = staticmethod(F.tanh)


class HardSigmoid(_Elementwise):
    """PyTorch's ``relu6(x + 3) / 6``."""

    fn = staticmethod(F.hard_sigmoid)


class HardSwish(_Elementwise):
    """``x * hard_sigmoid(x)``."""

    fn = staticmethod(F.hard_swish)


class LeakyReLU(Module):
    """``x`` for ``x >= 0``, ``negative_slope * x`` otherwise (PyTorch's default slope 0.01)."""

    def __init__(self, negative_slope: float = 0.01) -> None:
        super().__init__()
        self.negative_slope = finite_float(type(self).__name__, "negative_slope", negative_slope)

    def forward(self, x: Array) -> Array:
        return F.leaky_relu(x, self.negative_slope)

    def extra_repr(self) -> str:
        return f"negative_slope={self.negative_slope}"


class ELU(Module):
    """``x`` for ``x > 0``, ``alpha * (exp(x) - 1)`` otherwise."""

    def __init__(self, alpha: float = 1.0) -> None:
        super().__init__()
        self.alpha = finite_float(type(self).__name__, "alpha", alpha)

    def forward(self, x: Array) -> Array:
        return F.elu(x, self.alpha)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}"


class GELU(Module):
    """Gaussian error linear unit: exact, or tanh-approximated (``approximate=True`` or ``"tanh"``)."""

    def __init__(self, approximate: bool | str = False) -> None:
        super().__init__()
        self.approximate = approximate

    def forward(self, x: Array) -> Array:
        return F.gelu(x, approximate=self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class Softmax(Module):
    """``exp(x) / sum(exp(x))`` along ``axis`` (default the last)."""

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.axis = integer(type(self).__name__, "axis", axis)

    def forward(self, x: Array) -> Array:
        return F.softmax(x, axis=self.axis)

    def extra_repr(self) -> str:
        return f"axis={self.axis}"


class LogSoftmax(Module):
    """``log(softmax(x))`` along ``axis``, computed stably."""

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.axis = integer(type(self).__name__, "axis", axis)

    def forward(self, x: Array) -> Array:
        return F.log_softmax(x, axis=self.axis)

    def extra_repr(self) -> str:
        return f"axis={self.axis}"
