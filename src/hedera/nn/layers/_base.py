"""What every layer shares: where its parameters are created, their initializers, input checks."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any, NamedTuple

import hedera as hd
from hedera.helpers import finite_float, int_tuple, integer, positive_int, shape_of  # noqa: F401  (re-exported)
from hedera.typing import Array

from .. import init as _init
from ..module import Module

Init = Callable[..., Array]
InitLike = str | Init | None


class Placement(NamedTuple):
    """Where and how a layer's parameters are created: the keyword arguments of every initializer."""

    dtype: Any
    backend: str
    device: Any


#: the names ``weight_init=``/``bias_init=`` accept: hd.nn.init's initializers
INITIALIZERS = tuple(
    n for n in _init.__all__ if n not in ("calculate_gain", "fans", "seed", "numpy_key", "split_key")
)


def resolve_init(layer: str, argname: str, value: InitLike, default: Init) -> Init:
    """An initializer: ``value`` (a function like those of ``hd.nn.init``, or its name), else ``default``."""
    if value is None:
        return default
    if callable(value):
        return value
    if isinstance(value, str) and value in INITIALIZERS:
        return getattr(_init, value)
    raise hd.InvalidArgumentError(
        f"{layer}: {argname} must be an initializer function or one of {sorted(INITIALIZERS)}, got {value!r}"
    )


def torch_default_uniform(fan_in: int) -> Init:
    """``U(-1/sqrt(fan_in), 1/sqrt(fan_in))``: PyTorch's default for linear/conv weights and biases."""
    bound = 1.0 / math.sqrt(fan_in) if fan_in > 0 else 0.0
    return functools.partial(_init.uniform, low=-bound, high=bound)


class Layer(Module):
    """A module with parameters created by initializers, eagerly or on its first call.

    Parameters (every layer's keyword arguments)
    ----------
    key : int or key array, optional
        Seed or numpy key of the initializers (``hd.nn.init``): the same key gives
        the same initial weights on every backend. ``None``: the numpy backend's
        stateful generator (``hd.nn.init.seed``).
    dtype : dtype, optional
        The parameters' dtype. Default ``float32``; a lazily built layer takes
        its first input's floating dtype.
    backend : str, optional
        The parameters' backend when they are created at construction. Default:
        the current backend (``hd.use_backend``). A lazily built layer takes its
        first input's backend and device.
    device : optional
        The parameters' device (``"cpu"``, ``"gpu:0"``, native).
    """

    def __init__(
        self, *, key: Any = None, dtype: Any = None, backend: str | None = None, device: Any = None
    ) -> None:
        super().__init__()
        d = self.__dict__  # plain attributes, never parameters (a numpy key is an array)
        d["_init_key"] = key
        d["_init_dtype"] = dtype
        d["_init_backend"] = backend
        d["_init_device"] = device

    def _name(self) -> str:
        return f"{type(self).__name__}({self.extra_repr()})"

    def _keys(self, n: int) -> list[Any]:
        """``n`` initializer keys from the layer's ``key`` (all ``None`` without one)."""
        return _init.split_key(self.__dict__["_init_key"], n)

    def _placement(self, x: Array | None = None) -> Placement:
        """Where the parameters go: the constructor's arguments, or the first input's."""
        d = self.__dict__
        if x is None:
            dtype = d["_init_dtype"] if d["_init_dtype"] is not None else hd.float32
            return Placement(dtype, d["_init_backend"] or hd.current_backend(), d["_init_device"])
        dtype = d["_init_dtype"]
        if dtype is None:
            dtype = hd.dtype(x) if hd.isdtype(hd.dtype(x), "real floating") else hd.float32
        return Placement(dtype, hd.backend_of(x), hd.device(x))

    def _create(self, init: Init, shape: tuple[int, ...], key: Any, where: Placement) -> Array:
        return init(shape, key=key, dtype=where.dtype, backend=where.backend, device=where.device)

    def _bad_input(self, x: Any, expected: str, extra: str = "") -> hd.ShapeError:
        return hd.ShapeError(
            f"{self._name()}: expected input of shape {expected}{extra}, got shape {shape_of(x)}"
        )

    def _check_rank(self, x: Any, rank: int, expected: str, extra: str = "") -> tuple[int | None, ...]:
        shape = shape_of(x)
        if len(shape) != rank:
            raise self._bad_input(x, expected, extra)
        return shape

    def _check_last(self, x: Any, size: int | None, expected: str) -> None:
        """Inputs ``(..., size)`` (at least 1-d)."""
        shape = shape_of(x)
        if len(shape) < 1 or (size is not None and shape[-1] is not None and shape[-1] != size):
            raise self._bad_input(x, expected)
