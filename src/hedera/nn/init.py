"""``hd.nn.init``: parameter initializers, identical on every backend for the same seed.

Every initializer is a function ``init(shape, *, key=None, dtype=hd.float32,
backend=None, device=None, ...)`` returning a native array of ``backend``
(default: the current backend).

Reproducibility across backends
-------------------------------
Random initializers always draw on the **numpy** backend (hedera's
counter-based generator, ``hd.random`` with a numpy key) and then convert the
numbers exactly to the target backend (``hd.asarray``). So the same ``key``
gives bit-identical initial weights on NumPy, PyTorch, JAX and TensorFlow, on
any device. ``key`` is

* an int seed (``key=0``), or a key array from ``hd.random.key(seed, backend="numpy")``
  (a key of another backend is converted to a numpy key: same words, same numbers);
* ``None``: the numpy backend's stateful generator, seeded by
  ``hd.random.seed(n, backend="numpy")`` (or :func:`seed`), as PyTorch's
  ``torch.manual_seed`` seeds ``torch.nn.init``.

Weight layouts and fans
-----------------------
hedera's weights put the input features before the output features, with any
receptive-field axes first: ``(in, out)`` for ``linear``, ``(*kernel_size,
in_channels // groups, out_channels)`` for convolutions and ``(*kernel_size,
out_channels // groups, in_channels)`` for transposed convolutions
(``hd.nn.functional``). Hence, for ``shape = (*receptive, a, b)``::

    fan_in  = a * prod(receptive)
    fan_out = b * prod(receptive)

which is what PyTorch computes for the same layers in its own layouts (and
Keras in these ones). A 1-d shape has ``fan_in = fan_out = shape[0]``; a 0-d
shape, 1.

Distributions
-------------
PyTorch's definitions: ``glorot_normal``/``kaiming_normal`` use a plain normal;
``truncated_normal`` cuts at two standard deviations from the mean (as
``jax.random.truncated_normal(-2, 2)`` and ``tf.random.truncated_normal``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import hedera as hd
from hedera.dtypes import as_hedera_dtype
from hedera.helpers import check_public, finite_float, integer, one_of, positive_int, shape_tuple
from hedera.typing import Array

__all__ = [
    "calculate_gain",
    "constant",
    "fans",
    "glorot_normal",
    "glorot_uniform",
    "kaiming_normal",
    "kaiming_uniform",
    "normal",
    "numpy_key",
    "ones",
    "orthogonal",
    "seed",
    "split_key",
    "truncated_normal",
    "uniform",
    "zeros",
]

Shape = int | Sequence[int]


# ---- helpers --------------------------------------------------------------------------------


def _shape(name: str, shape: Shape) -> tuple[int, ...]:
    return shape_tuple(f"init.{name}", "shape", shape)


def seed(n: int) -> None:
    """Seed the generator the initializers use without a ``key`` (``hd.random.seed(n, backend="numpy")``)."""
    integer("seed", "n", n)
    hd.random.seed(n, backend="numpy")


def numpy_key(key: int | Array) -> Array:
    """``key`` as a numpy-backend key: an int seed becomes ``hd.random.key(seed, backend="numpy")``.

    A key of another backend (two 32-bit words) is converted word for word.
    """
    if isinstance(key, int) and not isinstance(key, bool):
        return hd.random.key(key, backend="numpy")
    if hd.backend_of(key) == "numpy":
        return key
    return hd.astype(hd.asarray(key, backend="numpy"), hd.uint32)


def split_key(key: int | Array | None, num: int) -> list[Array | None]:
    """``num`` independent numpy keys from ``key``; ``None`` gives ``num`` ``None`` (stateful draws)."""
    positive_int("split_key", "num", num)
    if key is None:
        return [None] * num
    return list(hd.random.split(numpy_key(key), num))


def _draw_dtype(dtype: Any, kind: str = "normal") -> Any:
    """The dtype to draw in on numpy: float64 for float64, else float32 (cast on the target).

    Raises ``hd.DtypeError`` for a dtype that is not real floating: a draw cast to an integer
    dtype would be truncated (and wrap around in an unsigned one) silently.
    """
    target = as_hedera_dtype(dtype)
    if not hd.isdtype(target, "real floating"):
        raise hd.DtypeError(
            f"hedera.nn.init.{kind}: dtype must be a real floating dtype (float16, bfloat16, float32 "
            f"or float64), got {target}"
        )
    return hd.float64 if target == hd.float64 else hd.float32


def _finish(x: Array, dtype: Any, backend: str | None, device: Any) -> Array:
    """Convert a numpy draw to ``backend``/``device``/``dtype`` exactly.

    The dtype is always named in the conversion, so a dtype the backend lacks (float64 on
    JAX without 64-bit mode) raises ``UnsupportedDtypeError`` instead of being truncated.
    """
    target, drawn = as_hedera_dtype(dtype), hd.dtype(x)
    y = hd.asarray(x, dtype=drawn, backend=backend or hd.current_backend(), device=device)
    return y if target == drawn else hd.astype(y, target)


def _sample(kind: str, shape: tuple[int, ...], key: Any, dtype: Any, **params: Any) -> Array:
    """A numpy-backend draw of ``hd.random.<kind>`` (keyed, or from the numpy stateful generator)."""
    fn = getattr(hd.random, kind)
    draw = _draw_dtype(dtype, kind)
    if key is None:
        return fn(shape, **params, dtype=draw, backend="numpy")
    return fn(shape, **params, dtype=draw, key=numpy_key(key))


def fans(shape: Shape) -> tuple[int, int]:
    """``(fan_in, fan_out)`` of a weight of ``shape`` in hedera's layout ``(*receptive, in, out)``.

    Examples
    --------
    >>> import hedera as hd
    >>> hd.nn.init.fans((3, 3, 16, 32))      # a conv2d weight: 3x3 kernel, 16 -> 32 channels
    (144, 288)
    """
    shape = _shape("fans", shape)
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    receptive = math.prod(shape[:-2])
    return shape[-2] * receptive, shape[-1] * receptive


_LINEAR_GAINS = (
    "linear", "identity", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
    "conv_transpose3d", "sigmoid",
)  # fmt: skip


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """The recommended gain for ``nonlinearity`` (``torch.nn.init.calculate_gain``'s values).

    ``linear``/convolutions/``sigmoid`` 1, ``tanh`` 5/3, ``relu`` sqrt(2),
    ``leaky_relu`` sqrt(2 / (1 + slope**2)) (``param`` the slope, default 0.01),
    ``selu`` 3/4.
    """
    if not isinstance(nonlinearity, str):
        raise hd.ArgumentTypeError(f"calculate_gain: nonlinearity must be a str, got {nonlinearity!r}")
    slope = 0.01 if param is None else finite_float("calculate_gain", "param", param)
    if nonlinearity in _LINEAR_GAINS:
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise hd.InvalidArgumentError(
        f"calculate_gain: unknown nonlinearity {nonlinearity!r}; expected one of "
        f"{sorted({*_LINEAR_GAINS, 'tanh', 'relu', 'leaky_relu', 'selu'})}"
    )


def _fan(name: str, shape: tuple[int, ...], mode: str) -> int:
    fan_in, fan_out = fans(shape)
    one_of(f"init.{name}", "mode", mode, ("fan_in", "fan_out", "fan_avg"))
    if mode == "fan_in":
        return fan_in
    if mode == "fan_out":
        return fan_out
    if mode == "fan_avg":
        return (fan_in + fan_out) / 2  # type: ignore[return-value]
    raise hd.InvalidArgumentError(f"init.{name}: mode must be 'fan_in', 'fan_out' or 'fan_avg', got {mode!r}")


# ---- constant initializers ---------------------------------------------------------------------


def zeros(
    shape: Shape, *, key: Any = None, dtype: Any = hd.float32, backend: str | None = None, device: Any = None
) -> Array:
    """An array of zeros of ``shape`` (``key`` is accepted and ignored, for a uniform signature)."""
    return constant(_shape("zeros", shape), 0.0, dtype=dtype, backend=backend, device=device)


def ones(
    shape: Shape, *, key: Any = None, dtype: Any = hd.float32, backend: str | None = None, device: Any = None
) -> Array:
    """An array of ones of ``shape``."""
    return constant(_shape("ones", shape), 1.0, dtype=dtype, backend=backend, device=device)


def constant(
    shape: Shape,
    value: float,
    *,
    key: Any = None,
    dtype: Any = hd.float32,
    backend: str | None = None,
    device: Any = None,
) -> Array:
    """An array of ``shape`` filled with ``value``."""
    shape = _shape("constant", shape)
    value = finite_float("init.constant", "value", value)
    return hd.full(shape, value, dtype=dtype, device=device, backend=backend)


# ---- random initializers -----------------------------------------------------------------------


def uniform(
    shape: Shape,
    low: float = 0.0,
    high: float = 1.0,
    *,
    key: Any = None,
    dtype: Any = hd.float32,
    backend: str | None = None,
    device: Any = None,
) -> Array:
    """Uniform samples in ``[low, high)`` (``torch.nn.init.uniform_``'s defaults ``[0, 1)``).

    Examples
    --------
    >>> import hedera as hd
    >>> w_np = hd.nn.init.uniform((2, 3), -1.0, 1.0, key=0, backend="numpy")
    >>> w_torch = hd.nn.init.uniform((2, 3), -1.0, 1.0, key=0, backend="torch")
    >>> bool((hd.to_numpy(w_torch) == w_np).all())    # the same numbers on every backend
    True
    """
    shape = _shape("uniform", shape)
    low = finite_float("init.uniform", "low", low)
    high = finite_float("init.uniform", "high", high)
    return _finish(_sample("uniform", shape, key, dtype, minval=low, maxval=high), dtype, backend, device)


def normal(
    shape: Shape,
    mean: float = 0.0,
    std: float = 1.0,
    *,
    key: Any = None,
    dtype: Any = hd.float32,
    backend: str | None = None,
    device: Any = None,
) -> Array:
    """Normal samples with ``mean`` and standard deviation ``std``."""
    shape = _shape("normal", shape)
    mean = finite_float("init.normal", "mean", mean)
    std = finite_float("init.normal", "std", std, minimum=0.0)
    return _finish(_sample("normal", shape, key, dtype, mean=mean, std=std), dtype, backend, device)


def truncated_normal(
    shape: Shape,
    mean: float = 0.0,
    std: float = 1.0,
    *,
    key: Any = None,
    dtype: Any = hd.float32,
    backend: str | None = None,
    device: Any = None,
) -> Array:
    """Normal samples (``mean``, ``std`` of the untruncated normal) redrawn outside ``mean ± 2 std``.

    The standard deviation of the result is about ``0.88 std``.
    """
    shape = _shape("truncated_normal", shape)
    mean = finite_float("init.truncated_normal", "mean", mean)
    std = finite_float("init.truncated_normal", "std", std, minimum=0.0)
    return _finish(_sample("truncated_normal", shape, key, dtype, mean=mean, std=std), dtype, backend, device)


def glorot_uniform(
    shape: Shape,
    *,
    gain: float = 1.0,
    key: Any = None,
    dtype: Any = hd.float32,
    backend: str | None = None,
    device: Any = None,
) -> Array:
    """Glorot (Xavier) uniform: ``U(-a, a)`` with ``a = gain * sqrt(6 / (fan_in + fan_out))``.

    Fans as in :func:`fans`. ``torch.nn.init.xavier_uniform_``; Keras' ``glorot_uniform``.
    """
    shape = _shape("glorot_uniform", shape)
    gain = finite_float("init.glorot_uniform", "gain", gain)
    fan_in, fan_out = fans(shape)
    bound = gain * math.sqrt(6.0 / (fan_in + fan_out))
    return uniform(shape, -bound, bound, key=key, dtype=dtype, backend=backend, device=device)


def glorot_normal(
    shape: Shape,
    *,
    gain: float = 1.0,
    key: Any = None,
    dtype: Any = hd.float32,
    backend: str | None = None,
    device: Any = None,
) -> Array:
    """Glorot (Xavier) normal: ``N(0, std**2)`` with ``std = gain * sqrt(2 / (fan_in + fan_out))``.

    ``torch.nn.init.xavier_normal_`` (a plain normal; Keras truncates hers).
    """
    shape = _shape("glorot_normal", shape)
    gain = finite_float("init.glorot_normal", "gain", gain)
    fan_in, fan_out = fans(shape)
    std = gain * math.sqrt(2.0 / (fan_in + fan_out))
    return normal(shape, 0.0, std, key=key, dtype=dtype, backend=backend, device=device)


def kaiming_uniform(
    shape: Shape,
    *,
    a: float = 0.0,
    mode: str = "fan_in",
    nonlinearity: str = "leaky_relu",
    key: Any = None,
    dtype: Any = hd.float32,
    backend: str | None = None,
    device: Any = None,
) -> Array:
    """Kaiming (He) uniform: ``U(-b, b)``, ``b = gain * sqrt(3 / fan)``.

    ``gain = calculate_gain(nonlinearity, a)``.

    ``torch.nn.init.kaiming_uniform_``. ``mode`` picks ``fan_in`` (default),
    ``fan_out`` or ``fan_avg``. PyTorch's default for ``nn.Linear``/``nn.Conv*``
    weights is ``a=sqrt(5)``, i.e. ``b = 1 / sqrt(fan_in)``.
    """
    shape = _shape("kaiming_uniform", shape)
    a = finite_float("init.kaiming_uniform", "a", a)
    fan = _fan("kaiming_uniform", shape, mode)
    bound = calculate_gain(nonlinearity, a) * math.sqrt(3.0 / max(fan, 1))
    return uniform(shape, -bound, bound, key=key, dtype=dtype, backend=backend, device=device)


def kaiming_normal(
    shape: Shape,
    *,
    a: float = 0.0,
    mode: str = "fan_in",
    nonlinearity: str = "leaky_relu",
    key: Any = None,
    dtype: Any = hd.float32,
    backend: str | None = None,
    device: Any = None,
) -> Array:
    """Kaiming (He) normal: ``N(0, std**2)``, ``std = gain / sqrt(fan)`` (``torch.nn.init.kaiming_normal_``).

    ``gain = calculate_gain(nonlinearity, a)``; ``mode`` as in :func:`kaiming_uniform`.
    """
    shape = _shape("kaiming_normal", shape)
    a = finite_float("init.kaiming_normal", "a", a)
    fan = _fan("kaiming_normal", shape, mode)
    std = calculate_gain(nonlinearity, a) / math.sqrt(max(fan, 1))
    return normal(shape, 0.0, std, key=key, dtype=dtype, backend=backend, device=device)


def orthogonal(
    shape: Shape,
    *,
    gain: float = 1.0,
    key: Any = None,
    dtype: Any = hd.float32,
    backend: str | None = None,
    device: Any = None,
) -> Array:
    """A (semi-)orthogonal matrix times ``gain``, reshaped to ``shape`` (at least 2-d).

    The weight is viewed as a matrix of ``prod(shape[:-1])`` rows by
    ``shape[-1]`` columns (inputs by outputs in hedera's layout): its columns
    are orthonormal when there are at least as many rows as columns, else its
    rows are. Drawn as the Q factor of a normal matrix's QR decomposition, with
    the signs fixed by ``R``'s diagonal, so it is uniform over orthogonal
    matrices (Saxe et al. 2014; Keras' ``Orthogonal``).
    """
    shape = _shape("orthogonal", shape)
    gain = finite_float("init.orthogonal", "gain", gain)
    if len(shape) < 2:
        raise hd.ShapeError(f"init.orthogonal: shape must have at least 2 dimensions, got {shape}")
    rows, cols = math.prod(shape[:-1]), shape[-1]
    a = _sample("normal", (max(rows, cols), min(rows, cols)), key, dtype, mean=0.0, std=1.0)
    q, r = hd.linalg.qr(a)
    q = hd.multiply(q, hd.sign(hd.linalg.diagonal(r)))
    if rows < cols:
        q = hd.matrix_transpose(q)
    q = hd.multiply(hd.reshape(q, shape), gain)
    return _finish(q, dtype, backend, device)


# the public functions name themselves in the errors of the ones they call (calculate_gain...)
check_public(globals(), __all__)
