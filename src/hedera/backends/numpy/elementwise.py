"""Element-wise functions (numpy backend).

NumPy's ufuncs conform, under their pre-2.0 names where the standard renamed
them (``arccos`` for ``acos``), so the backend also runs on numpy 1.23.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "abs", "acos", "acosh", "add", "asin", "asinh", "atan", "atan2", "atanh", "bitwise_and",
    "bitwise_left_shift", "bitwise_invert", "bitwise_or", "bitwise_right_shift", "bitwise_xor",
    "ceil", "clip", "conj", "copysign", "cos", "cosh", "divide", "equal", "exp", "expm1", "floor",
    "floor_divide", "greater", "greater_equal", "hypot", "imag", "isfinite", "isinf", "isnan",
    "less", "less_equal", "log", "log1p", "log2", "log10", "logaddexp", "logical_and",
    "logical_not", "logical_or", "logical_xor", "maximum", "minimum", "multiply", "negative",
    "nextafter", "not_equal", "positive", "pow", "real", "reciprocal", "remainder", "round",
    "sign", "signbit", "sin", "sinh", "square", "sqrt", "subtract", "tan", "tanh", "trunc",
]  # fmt: skip

abs = np.abs
acos = np.arccos
acosh = np.arccosh
add = np.add
asin = np.arcsin
asinh = np.arcsinh
atan = np.arctan
atan2 = np.arctan2
atanh = np.arctanh
bitwise_and = np.bitwise_and
bitwise_left_shift = np.left_shift
bitwise_invert = np.invert
bitwise_or = np.bitwise_or
bitwise_right_shift = np.right_shift
bitwise_xor = np.bitwise_xor
conj = np.conj
copysign = np.copysign
cos = np.cos
cosh = np.cosh
divide = np.divide
equal = np.equal
exp = np.exp
floor_divide = np.floor_divide
greater = np.greater
greater_equal = np.greater_equal
hypot = np.hypot
imag = np.imag
isfinite = np.isfinite
isinf = np.isinf
isnan = np.isnan
less = np.less
less_equal = np.less_equal
log = np.log
log1p = np.log1p
log2 = np.log2
log10 = np.log10
logaddexp = np.logaddexp
logical_and = np.logical_and
logical_not = np.logical_not
logical_or = np.logical_or
logical_xor = np.logical_xor
maximum = np.maximum
minimum = np.minimum
multiply = np.multiply
negative = np.negative
nextafter = np.nextafter
not_equal = np.not_equal
positive = np.positive
pow = np.power
real = np.real
reciprocal = np.reciprocal
remainder = np.remainder
round = np.round
signbit = np.signbit
sin = np.sin
sinh = np.sinh
square = np.square
sqrt = np.sqrt
subtract = np.subtract
tan = np.tan
tanh = np.tanh


# numpy < 2 promotes by value where a Python scalar or a 0-d array meets an array (``int8 array
# + 0-d int16`` is int8; ``0-d float32 + 1.0`` is float64); the standard (and numpy >= 2, NEP 50)
# promotes by dtype alone. On numpy < 2 the binary functions cast both operands to the dtype the
# standard gives (a Python scalar takes the other operand's dtype); on numpy >= 2 they stay aliases.
_VALUE_BASED = np.lib.NumpyVersion(np.__version__) < "2.0.0"


def _standard_operands(x1, x2):
    a1, a2 = isinstance(x1, (np.ndarray, np.generic)), isinstance(x2, (np.ndarray, np.generic))
    if a1 and a2:
        dt = np.promote_types(x1.dtype, x2.dtype)
    elif a1 or a2:
        dt = (x1 if a1 else x2).dtype
    else:
        return x1, x2
    return np.asarray(x1, dtype=dt), np.asarray(x2, dtype=dt)


def _by_dtype(ufunc):
    def binary(x1, x2, /):
        return ufunc(*_standard_operands(x1, x2))

    binary.__name__ = ufunc.__name__
    return binary


if _VALUE_BASED:
    for _name in (
        "add", "atan2", "bitwise_and", "bitwise_left_shift", "bitwise_or", "bitwise_right_shift",
        "bitwise_xor", "copysign", "divide", "equal", "floor_divide", "greater", "greater_equal",
        "hypot", "less", "less_equal", "logaddexp", "logical_and", "logical_or", "logical_xor",
        "maximum", "minimum", "multiply", "nextafter", "not_equal", "pow", "remainder", "subtract",
    ):  # fmt: skip
        globals()[_name] = _by_dtype(globals()[_name])


def _integral_identity(ufunc):
    # the standard keeps integer dtypes through ceil/floor/trunc; numpy < 2.1 returns float64
    def rounded(x, /):
        if type(x) is np.ndarray and x.dtype.kind == "f":  # the common case, without np.issubdtype
            return ufunc(x)
        if np.issubdtype(np.asarray(x).dtype, np.integer):
            return np.array(x, copy=True)
        return ufunc(x)

    rounded.__name__ = ufunc.__name__
    return rounded


ceil = _integral_identity(np.ceil)
floor = _integral_identity(np.floor)
trunc = _integral_identity(np.trunc)


def clip(x, /, min=None, max=None):
    if min is None and max is None:
        return np.array(x, copy=True)
    out = np.clip(x, min, max)
    # the result keeps x's dtype even when a bound is a wider array
    return out.astype(x.dtype, copy=False) if out.dtype != x.dtype else out


def expm1(x, /):
    if np.iscomplexobj(x):  # np.expm1(inf+0j) is inf+nanj; the standard's special cases follow exp(x) - 1
        with np.errstate(invalid="ignore"):
            return np.where(np.isfinite(x), np.expm1(x), np.exp(x) - 1).astype(np.result_type(x))
    return np.expm1(x)


def sign(x, /):
    if np.iscomplexobj(x):  # the standard's complex sign is x / |x| (numpy < 2 differs)
        magnitude = np.abs(x)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(magnitude == 0, 0, x / np.where(magnitude == 0, 1, magnitude)).astype(x.dtype)
    return np.sign(x)
