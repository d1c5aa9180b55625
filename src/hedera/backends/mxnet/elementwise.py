"""Element-wise functions (mxnet backend).

``mxnet.numpy``'s kernels are used for floating-point arrays, where they are
differentiable. MXNet's integer and boolean arithmetic differs from the
standard in places (``remainder`` and ``pow`` of integers return float32,
``int8 + uint8`` is int32 instead of the int16 MXNet lacks, bitwise functions
reject booleans), so integer and boolean operands go through the host path
(``_core.host``: exact, via NumPy; integers carry no gradients anyway).
Functions MXNet lacks altogether (``logaddexp``, ``nextafter``, ``logical_*``,
shifts, ``floor_divide``) are composed from its kernels for floats where that
is exact, else computed on the host.
"""

from __future__ import annotations

import mxnet as mx
import numpy as np

from ..._api import names_in
from .._common import normalize_axis
from ..numpy import elementwise as _ref
from ._core import host

__all__ = names_in("elementwise")  # the API table's elementwise rows

_mnp = mx.np
FLOATS = frozenset(np.dtype(n) for n in ("float16", "float32", "float64"))  # x.dtype is an np.dtype
#: MXNet's broadcasting kernels take at most 5 dimensions (and crash on some zero-size broadcasts)
MAX_NDIM = 5


def native_ok(x) -> bool:
    """Whether MXNet's kernel may run on array ``x``: floating-point, not empty, at most 5 dimensions.

    Everything else takes the host path: MXNet's integer and boolean kernels differ from the
    standard in places, and its broadcasting kernels fail on more dimensions or empty operands.
    """
    return x.dtype in FLOATS and x.ndim <= MAX_NDIM and x.size > 0


def axes(axis, ndim: int, argname: str = "axis"):
    """``axis`` (None, an int or a sequence) with non-negative axes: some MXNet kernels reject -1.

    Raises InvalidAxisError for an axis out of range.
    """
    if axis is None:
        return None
    if isinstance(axis, int):
        return normalize_axis(axis, ndim, argname)
    return tuple(normalize_axis(a, ndim, argname) for a in axis)


def _unary(native, name):
    """``native`` for floating-point ``x``, the host path (the numpy backend's function) otherwise."""
    on_host = host(getattr(_ref, name), name)

    def unary(x, /):
        if native_ok(x):
            return native(x)
        return on_host(x)

    unary.__name__ = name
    return unary


def _floats(x1, x2):
    """Whether every array operand is :func:`native_ok` (and Python scalars are not booleans)."""
    for x in (x1, x2):
        d = getattr(x, "dtype", None)
        if d is None:
            if isinstance(x, bool):
                return False
        elif not native_ok(x):
            return False
    return True


_FLOAT64 = np.dtype("float64")


def exact_scalar(value, like):
    """Python scalar ``value`` as a 0-d array like ``like`` where MXNet would round it.

    MXNet passes scalar operands to its kernels as decimal strings of 15 significant digits,
    which loses the last digits of a float64 (``less(x, x_as_python_float)`` can be True).
    """
    if like.dtype == _FLOAT64 and isinstance(value, float):
        return _mnp.array(np.asarray(value, dtype=_FLOAT64), dtype=_FLOAT64, ctx=like.ctx)
    return value


def _binary(native, name):
    """``native`` when every array operand is floating-point, the host path otherwise."""
    on_host = host(getattr(_ref, name), name)

    def binary(x1, x2, /):
        if _floats(x1, x2):
            d1, d2 = getattr(x1, "dtype", None), getattr(x2, "dtype", None)
            if d1 is not None and d2 is not None and d1 != d2:  # MXNet's kernels want one dtype
                dt = np.promote_types(d1, d2)
                x1, x2 = x1.astype(dt, copy=False), x2.astype(dt, copy=False)
            elif d1 is None:
                x1 = exact_scalar(x1, x2)
            elif d2 is None:
                x2 = exact_scalar(x2, x1)
            return native(x1, x2)
        return on_host(x1, x2)

    binary.__name__ = name
    return binary


abs = _unary(_mnp.abs, "abs")
acos = _unary(_mnp.arccos, "acos")
acosh = _unary(_mnp.arccosh, "acosh")
asin = _unary(_mnp.arcsin, "asin")
asinh = _unary(_mnp.arcsinh, "asinh")
atan = _unary(_mnp.arctan, "atan")
atanh = _unary(_mnp.arctanh, "atanh")
ceil = _unary(_mnp.ceil, "ceil")
cos = _unary(_mnp.cos, "cos")
cosh = _unary(_mnp.cosh, "cosh")
exp = _unary(_mnp.exp, "exp")
expm1 = _unary(_mnp.expm1, "expm1")
floor = _unary(_mnp.floor, "floor")
isfinite = _unary(_mnp.isfinite, "isfinite")
isinf = _unary(_mnp.isinf, "isinf")
isnan = _unary(_mnp.isnan, "isnan")
log = _unary(_mnp.log, "log")
log1p = _unary(_mnp.log1p, "log1p")
log2 = _unary(_mnp.log2, "log2")
log10 = _unary(_mnp.log10, "log10")
negative = _unary(_mnp.negative, "negative")
reciprocal = _unary(_mnp.reciprocal, "reciprocal")
round = _unary(_mnp.round, "round")
sin = _unary(_mnp.sin, "sin")
sinh = _unary(_mnp.sinh, "sinh")
square = _unary(_mnp.square, "square")
sqrt = _unary(_mnp.sqrt, "sqrt")
tan = _unary(_mnp.tan, "tan")
tanh = _unary(_mnp.tanh, "tanh")
trunc = _unary(_mnp.trunc, "trunc")

add = _binary(_mnp.add, "add")
atan2 = _binary(_mnp.arctan2, "atan2")
divide = _binary(_mnp.divide, "divide")
equal = _binary(_mnp.equal, "equal")
greater = _binary(_mnp.greater, "greater")
greater_equal = _binary(_mnp.greater_equal, "greater_equal")
hypot = _binary(_mnp.hypot, "hypot")
less = _binary(_mnp.less, "less")
less_equal = _binary(_mnp.less_equal, "less_equal")
maximum = _binary(_mnp.maximum, "maximum")
minimum = _binary(_mnp.minimum, "minimum")
multiply = _binary(_mnp.multiply, "multiply")
not_equal = _binary(_mnp.not_equal, "not_equal")
pow = _binary(_mnp.power, "pow")
subtract = _binary(_mnp.subtract, "subtract")


def _logaddexp(x1, x2):
    # max + log1p(exp(-|x1 - x2|)); where x1 == x2 (equal infinities too) it is x1 + log(2)
    m = _mnp.maximum(x1, x2)
    tail = _mnp.log1p(_mnp.exp(-_mnp.abs(_mnp.subtract(x1, x2))))
    log2 = _mnp.array(np.log(np.asarray(2.0, dtype=m.dtype)), dtype=m.dtype, ctx=m.ctx)
    return _mnp.where(_mnp.equal(x1, x2), m + log2, m + tail)


logaddexp = _binary(_logaddexp, "logaddexp")

# no MXNet kernels (or none that conform): exact on the host, not differentiable
bitwise_and = host(_ref.bitwise_and, "bitwise_and")
bitwise_left_shift = host(_ref.bitwise_left_shift, "bitwise_left_shift")
bitwise_invert = host(_ref.bitwise_invert, "bitwise_invert")
bitwise_or = host(_ref.bitwise_or, "bitwise_or")
bitwise_right_shift = host(_ref.bitwise_right_shift, "bitwise_right_shift")
bitwise_xor = host(_ref.bitwise_xor, "bitwise_xor")
floor_divide = host(_ref.floor_divide, "floor_divide")
copysign = host(_ref.copysign, "copysign")  # MXNet reads the sign of NaN differently
signbit = host(_ref.signbit, "signbit")  # mx.np.signbit returns a NumPy array
remainder = host(_ref.remainder, "remainder")  # MXNet: remainder(0.0, 0.0) is 0, not NaN
logical_and = host(_ref.logical_and, "logical_and")
logical_not = host(_ref.logical_not, "logical_not")
logical_or = host(_ref.logical_or, "logical_or")
logical_xor = host(_ref.logical_xor, "logical_xor")
nextafter = host(_ref.nextafter, "nextafter")


def _sign(x):
    return _mnp.where(_mnp.isnan(x), x, _mnp.sign(x))  # MXNet's sign(NaN) is 0


sign = _unary(_sign, "sign")


def positive(x, /):
    return x.copy()


def conj(x, /):
    return x.copy()  # MXNet has real dtypes only: the conjugate is x


def real(x, /):
    return x.copy()


def imag(x, /):
    return _mnp.zeros(x.shape, dtype=x.dtype, ctx=x.ctx)


def _is_nan_float(bound) -> bool:
    return type(bound) is float and bound != bound


def clip(x, /, min=None, max=None):
    if min is None and max is None:
        return x.copy()
    if _is_nan_float(min) or _is_nan_float(max):  # the standard: a NaN bound gives NaN
        return _mnp.full(x.shape, float("nan"), dtype=x.dtype, ctx=x.ctx)
    if native_ok(x) and x.dtype != _FLOAT64 and not hasattr(min, "shape") and not hasattr(max, "shape"):
        return _mnp.clip(x, min, max)
    out = x
    if min is not None:
        out = maximum(out, min)
    if max is not None:
        out = minimum(out, max)
    return out if out.dtype == x.dtype else out.astype(x.dtype)  # keeps x's dtype
