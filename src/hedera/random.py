"""Random numbers, one API on every backend: stateful for convenience, keyed for functional code.

Two styles::

    hd.random.seed(0)                            # the current backend's generator
    x = hd.random.normal((3, 4))                 # stateful: a new sample on each call

    key = hd.random.key(0)                       # explicit keys: pure functions of the key
    k1, k2 = hd.random.split(key)
    y = hd.random.normal((3, 4), key=k1)         # the same numbers for the same key

* Which backend: a call with a ``key`` (or an array argument: ``p``, ``logits``,
  ``x``, ``mean``...) runs on that array's backend; a stateful call without one
  runs on the current backend (:func:`hedera.use_backend`).
* Keys are native arrays of their backend (two 32-bit words); :func:`split`
  returns a tuple so that ``k1, k2 = split(key)`` works inside compiled code on
  every backend. Never reuse a key for two draws: split it.
* Reproducibility: the same seed or key gives the same numbers on the same
  backend (and device). Different backends give different numbers.
* Inside :func:`hedera.jit` use keys: a stateful call there would be traced once
  and repeat one sample forever, so it raises :class:`~hedera.errors.InvalidArgumentError`.

Every distribution takes ``dtype`` (a hedera, native or named dtype; default:
the backend's default floating dtype, or ``int64`` for integers), ``device``
(``"cpu"``, ``"gpu:0"`` or native; default: the key's device, else the
backend's default) and ``key``. See docs/random.md for how each backend makes
its numbers.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from ._dispatch import backend_module, backend_name_of_type, backend_of_leaves, current_backend
from .errors import (
    ArgumentTypeError,
    BackendMismatchError,
    InvalidArgumentError,
    InvalidAxisError,
    NotAnArrayError,
    ShapeError,
)
from .jit import in_jit

__all__ = [
    "bernoulli",
    "categorical",
    "key",
    "normal",
    "permutation",
    "randint",
    "seed",
    "shuffle",
    "split",
    "truncated_normal",
    "uniform",
]


def _module(name: str) -> ModuleType:
    """``hedera.backends.<name>.random``, loaded on first use."""
    return backend_module(name, "random")


_BY_TYPE: dict[type, ModuleType] = {}  # array type -> backend random module (the fast path)
_SCALAR_TYPES = frozenset({int, float, bool, complex, type(None)})


def _module_of(value: Any) -> ModuleType | None:
    """The random module of ``value``'s backend, or None if it is not an array."""
    try:
        return _BY_TYPE[type(value)]
    except KeyError:
        pass
    name = backend_name_of_type(type(value))
    if name is None:
        return None
    module = _BY_TYPE[type(value)] = _module(name)
    return module


def _resolve(fname: str, key: Any, *named: tuple[str, Any], backend: str | None = None) -> ModuleType:
    """The backend random module for a call: the key's and array arguments' backend, else
    ``backend``, else the current one.

    ``named`` holds ``(argname, value)`` pairs of the arguments that may be arrays; an explicit
    ``backend`` that differs from theirs raises :class:`~hedera.errors.BackendMismatchError`.
    """
    module, first, first_value = None, "key", key
    if key is not None:
        module = _module_of(key)
        if module is None:
            raise NotAnArrayError(
                f"hd.random.{fname}: key must be a key array from hd.random.key or hd.random.split, "
                f"got {type(key).__name__}"
            )
    for argname, value in named:
        if type(value) in _SCALAR_TYPES:
            continue
        m = _module_of(value)
        if m is None or m is module:
            continue
        if module is not None:  # raises, naming both
            backend_of_leaves(fname, [first_value, value], [first, argname], describe=str, advice="")
        module, first, first_value = m, argname, value
    if backend is not None:
        wanted = _named_module(fname, backend)
        if module is not None and module is not wanted:
            raise BackendMismatchError(
                f"hd.random.{fname}: backend={backend!r}, but {first} is an array of "
                f"{backend_name_of_type(type(first_value))}"
            )
        module = wanted
    if key is None:
        if in_jit.get():
            raise InvalidArgumentError(
                f"hd.random.{fname}: a stateful call (no key=) inside hd.jit would be traced once and "
                f"return the same sample on every call; pass key=... from hd.random.key / hd.random.split"
            )
        if module is None:
            module = _module(current_backend())
    return module


def _named_backend(fname: str, backend: Any) -> str:
    if not isinstance(backend, str):
        raise ArgumentTypeError(
            f"hd.random.{fname}: backend must be a backend name (str) or None, got {type(backend).__name__}"
        )
    return backend


def _named_module(fname: str, backend: Any) -> ModuleType:
    return _module(_named_backend(fname, backend))


_SHAPE_FIRST = frozenset({"uniform", "normal", "truncated_normal", "randint"})  # shape, then the rest


def _shape(fname: str, shape: Any) -> tuple[int, ...]:
    """``shape`` (an int or a sequence of ints) as a tuple of non-negative ints.

    An array is never taken for a shape (``hd.random.normal(key, (2,))``, the key passed where the
    shape goes, is an error), nor are floats or bools.
    """
    if isinstance(shape, (tuple, list)):
        dims = shape
    elif backend_name_of_type(type(shape)) is not None and getattr(shape, "ndim", 0) != 0:
        hint = f"; pass a key by keyword: hd.random.{fname}(shape, key=key)" if fname in _SHAPE_FIRST else ""
        raise ArgumentTypeError(
            f"hd.random.{fname}: shape must be an int or a tuple of ints, got an array of shape "
            f"{tuple(shape.shape)}{hint}"
        )
    elif hasattr(shape, "__index__") or isinstance(shape, (str, bytes)) or not hasattr(shape, "__iter__"):
        dims = (shape,)
    else:  # a framework's shape object (tf.TensorShape, torch.Size)
        dims = tuple(shape)
    out = []
    for d in dims:
        try:
            if isinstance(d, bool):
                raise TypeError
            out.append(operator.index(d))
        except TypeError:
            raise ArgumentTypeError(
                f"hd.random.{fname}: shape must be an int or a tuple of ints, got {shape!r}"
            ) from None
    if any(d < 0 for d in out):
        raise InvalidArgumentError(f"hd.random.{fname}: shape must not have negative sizes, got {tuple(out)}")
    return tuple(out)


def _int_seed(fname: str, value: Any) -> int:
    if isinstance(value, bool):
        raise ArgumentTypeError(f"hd.random.{fname}: seed must be an int, got a bool")
    if not isinstance(value, int):
        try:
            value = int(value.__index__())
        except (AttributeError, TypeError):
            raise ArgumentTypeError(
                f"hd.random.{fname}: seed must be an int, got {type(value).__name__}"
            ) from None
    if not -(2**63) <= value < 2**64:
        raise InvalidArgumentError(f"hd.random.{fname}: seed must fit in 64 bits, got {value}")
    return value & 0xFFFFFFFFFFFFFFFF


# ---- keys and seeding ---------------------------------------------------------------------------


def seed(n: int, *, backend: str | None = None) -> None:
    """Seed the stateful generator of ``backend`` (default: the current backend).

    Each backend has one generator, kept by hedera (the frameworks' global
    generators are left alone). After ``seed(n)`` the sequence of stateful calls
    is reproducible on that backend.
    """
    n = _int_seed("seed", n)
    _module(current_backend() if backend is None else _named_backend("seed", backend)).seed(n)


def key(seed: int, *, backend: str | None = None, device: Any = None) -> Any:
    """A key for ``seed`` (an int of at most 64 bits): a native array of ``backend`` (default: current).

    The key is two 32-bit words ``[seed >> 32, seed & 0xFFFFFFFF]``: ``uint32`` on
    numpy and jax (jax's ``PRNGKey`` layout), ``int64`` on torch and tensorflow.

    Examples
    --------
    >>> import hedera as hd
    >>> k = hd.random.key(0, backend="numpy")
    >>> bool((hd.random.uniform(3, key=k) == hd.random.uniform(3, key=k)).all())
    True
    """
    n = _int_seed("key", seed)
    return _module(current_backend() if backend is None else _named_backend("key", backend)).key(
        n, device=device
    )


def split(key: Any, num: int = 2) -> tuple[Any, ...]:
    """``num`` new keys derived from ``key``, as a tuple (``k1, k2 = hd.random.split(key)``).

    Split keys are independent of each other and of draws made with ``key``.
    """
    if isinstance(num, bool) or not isinstance(num, int):
        raise ArgumentTypeError(f"hd.random.split: num must be a positive int, got {type(num).__name__}")
    if num < 1:
        raise InvalidArgumentError(f"hd.random.split: num must be a positive int, got {num!r}")
    if key is None:
        raise NotAnArrayError("hd.random.split: key must be a key array, got None")
    return _resolve("split", key).split(key, num)


# ---- distributions ------------------------------------------------------------------------------


def uniform(
    shape: int | Sequence[int] = (),
    minval: Any = 0.0,
    maxval: Any = 1.0,
    *,
    key: Any = None,
    dtype: Any = None,
    device: Any = None,
    backend: str | None = None,
) -> Any:
    """Uniform samples in ``[minval, maxval)`` of ``shape``.

    ``minval`` and ``maxval`` are scalars or arrays broadcastable to ``shape``.

    Examples
    --------
    >>> import hedera as hd
    >>> x = hd.random.uniform((2, 3), -1.0, 1.0, key=hd.random.key(0, backend="numpy"))
    >>> x.shape, bool(((x >= -1) & (x < 1)).all())
    ((2, 3), True)
    """
    shape = _shape("uniform", shape)
    m = _resolve("uniform", key, ("minval", minval), ("maxval", maxval), backend=backend)
    return m.uniform(shape, minval, maxval, dtype=dtype, device=device, key=key)


def normal(
    shape: int | Sequence[int] = (),
    mean: Any = 0.0,
    std: Any = 1.0,
    *,
    key: Any = None,
    dtype: Any = None,
    device: Any = None,
    backend: str | None = None,
) -> Any:
    """Normal samples with ``mean`` and standard deviation ``std`` (scalars or broadcastable arrays)."""
    shape = _shape("normal", shape)
    m = _resolve("normal", key, ("mean", mean), ("std", std), backend=backend)
    return m.normal(shape, mean, std, dtype=dtype, device=device, key=key)


def truncated_normal(
    shape: int | Sequence[int] = (),
    mean: Any = 0.0,
    std: Any = 1.0,
    *,
    key: Any = None,
    dtype: Any = None,
    device: Any = None,
    backend: str | None = None,
) -> Any:
    """Normal samples truncated to ``(mean - 2 std, mean + 2 std)``.

    As ``jax.random.truncated_normal(key, -2, 2)`` and ``tf.random.truncated_normal``.
    """
    shape = _shape("truncated_normal", shape)
    m = _resolve("truncated_normal", key, ("mean", mean), ("std", std), backend=backend)
    return m.truncated_normal(shape, mean, std, dtype=dtype, device=device, key=key)


def randint(
    shape: int | Sequence[int],
    low: int,
    high: int,
    *,
    key: Any = None,
    dtype: Any = None,
    device: Any = None,
    backend: str | None = None,
) -> Any:
    """Uniform integers in ``[low, high)`` (Python ints), of an integer ``dtype`` (default ``int64``).

    torch with a key draws from ranges of at most ``2**31`` values.
    """
    for argname, v in (("low", low), ("high", high)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise ArgumentTypeError(
                f"hd.random.randint: {argname} must be a Python int, got {type(v).__name__}"
            )
    if high <= low:
        raise InvalidArgumentError(f"hd.random.randint: expected low < high, got low={low}, high={high}")
    shape = _shape("randint", shape)
    m = _resolve("randint", key, backend=backend)
    return m.randint(shape, low, high, dtype=dtype, device=device, key=key)


def bernoulli(
    p: Any = 0.5,
    shape: int | Sequence[int] | None = None,
    *,
    key: Any = None,
    device: Any = None,
    backend: str | None = None,
) -> Any:
    """Boolean samples, ``True`` with probability ``p`` (a scalar or an array broadcastable to ``shape``).

    ``shape`` defaults to ``p``'s shape.
    """
    shape = None if shape is None else _shape("bernoulli", shape)
    m = _resolve("bernoulli", key, ("p", p), backend=backend)
    return m.bernoulli(p, shape, device=device, key=key)


def permutation(
    x: int | Any, *, axis: int = 0, key: Any = None, device: Any = None, backend: str | None = None
) -> Any:
    """A random permutation of ``range(x)`` (``int64``) for int ``x``, else of ``x``'s slices on ``axis``."""
    if isinstance(x, bool):
        raise ArgumentTypeError("hd.random.permutation: x must be a non-negative int or an array, got a bool")
    if isinstance(x, int) and x < 0:
        raise InvalidArgumentError(
            f"hd.random.permutation: x must be a non-negative int or an array, got {x!r}"
        )
    if not isinstance(x, int):
        if backend_name_of_type(type(x)) is None:
            raise NotAnArrayError(
                f"hd.random.permutation: x must be an int or an array, got {type(x).__name__}"
            )
        _check_axis("permutation", axis, x)
    elif isinstance(axis, bool) or not isinstance(axis, int):
        raise ArgumentTypeError(
            f"hd.random.permutation: axis must be an int, got {type(axis).__name__} {axis!r}"
        )
    m = _resolve("permutation", key, ("x", x), backend=backend)
    return m.permutation(x, axis=axis, device=device, key=key)


def shuffle(x: Any, axis: int = 0, *, key: Any = None) -> Any:
    """A copy of ``x`` with its slices along ``axis`` in random order (``x`` is not modified)."""
    if backend_name_of_type(type(x)) is None:
        raise NotAnArrayError(f"hd.random.shuffle: x must be an array, got {type(x).__name__}")
    _check_axis("shuffle", axis, x)
    m = _resolve("shuffle", key, ("x", x))
    return m.shuffle(x, axis=axis, key=key)


def categorical(
    logits: Any, shape: int | Sequence[int] | None = None, *, axis: int = -1, key: Any = None
) -> Any:
    """Category indices drawn with probabilities ``softmax(logits)`` along ``axis``.

    Parameters
    ----------
    logits : array
        Unnormalised log-probabilities; ``-inf`` marks an impossible category.
    shape : tuple, optional
        The result's shape, ``(*sample_shape, *batch_shape)`` where
        ``batch_shape`` is ``logits``' shape without ``axis`` (the default).
        ``categorical(logits, (n, *batch))`` draws ``n`` samples per row.

    Returns
    -------
    array
        Integer indices into ``axis`` (``int64``, or jax's default int), by the
        Gumbel-max trick on every backend.
    """
    if backend_name_of_type(type(logits)) is None:
        raise NotAnArrayError(f"hd.random.categorical: logits must be an array, got {type(logits).__name__}")
    _check_axis("categorical", axis, logits)
    batch = tuple(d for i, d in enumerate(logits.shape) if i != axis % len(logits.shape))
    if shape is not None:
        shape = _shape("categorical", shape)
        if len(shape) < len(batch) or (batch and tuple(shape[len(shape) - len(batch) :]) != batch):
            raise ShapeError(
                f"hd.random.categorical: shape {shape} must end with the batch shape {batch} "
                f"(logits' shape without axis {axis})"
            )
    m = _resolve("categorical", key, ("logits", logits))
    return m.categorical(logits, shape, axis=axis, key=key)


def _check_axis(fname: str, axis: int, x: Any) -> None:
    ndim = len(x.shape)
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise ArgumentTypeError(f"hd.random.{fname}: axis must be an int, got {type(axis).__name__} {axis!r}")
    if not -ndim <= axis < max(ndim, 1) or ndim == 0:
        raise InvalidAxisError(
            f"hd.random.{fname}: axis={axis!r} is out of range for an array of {ndim} dimensions"
        )
