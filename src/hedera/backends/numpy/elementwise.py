"""Element-wise functions (numpy backend).

NumPy's ufuncs conform, under their pre-2.0 names where the standard renamed
them (``arccos`` for ``acos``), so the backend also runs on numpy 1.23.
"""

from __future__ import annotations

import math

import numpy as np

from ..._api import names_in
from .._common import native_common_case

__all__ = names_in("elementwise")  # the API table's elementwise rows

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


if _VALUE_BASED:  # numpy < 2 gives acosh(+-0 + NaN j) = NaN + NaN j; the standard: NaN + pi/2 j

    def acosh(x, /):
        out = np.arccosh(x)
        if out.dtype.kind != "c":
            return out
        fix = (np.real(x) == 0) & np.isnan(np.imag(x))
        return np.where(fix, np.asarray(complex(math.nan, math.pi / 2), out.dtype), out)

    for _name in (
        "add", "atan2", "bitwise_and", "bitwise_left_shift", "bitwise_or", "bitwise_right_shift",
        "bitwise_xor", "copysign", "divide", "equal", "floor_divide", "greater", "greater_equal",
        "hypot", "less", "less_equal", "logaddexp", "logical_and", "logical_or", "logical_xor",
        "maximum", "minimum", "multiply", "nextafter", "not_equal", "pow", "remainder", "subtract",
    ):  # fmt: skip
        globals()[_name] = _by_dtype(globals()[_name])


#: the real dtypes (NumPy's own dtype objects, native byte order), for which the shims below are NumPy's
#: own function (the C front calls it directly there)
_REAL_DTYPES = tuple(np.dtype(t) for t in "?bhilqBHILQefdg")

_floor_divide = floor_divide
_count_nonzero = np.count_nonzero
_isinf = np.isinf


def _has_infinity(x) -> bool:
    """Whether ``x`` (an array or a Python scalar) holds an infinity: one ``isinf`` and a count."""
    return math.isinf(x) if type(x) is float else type(x) is not int and bool(_count_nonzero(np.isinf(x)))


def floor_divide(x1, x2, /):
    """``floor(x1 / x2)``, with the standard's special cases (``inf // 2`` is inf, ``-1 // inf`` is -0)."""
    out = _floor_divide(x1, x2)
    if out.dtype.kind != "f":
        return out
    if type(x1) is np.ndarray and type(x2) is np.ndarray:  # the common case, without the calls
        if not (_count_nonzero(_isinf(x1)) or _count_nonzero(_isinf(x2))):
            return out
    elif not (_has_infinity(x1) or _has_infinity(x2)):
        return out
    # NumPy follows Python where exactly one operand is infinite (NaN for inf // 2, -1 for -1 // inf);
    # there x1 / x2 is the standard's result, sign included
    special = np.isinf(x1) | np.isinf(x2)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(special, np.divide(x1, x2, dtype=out.dtype), out)


_power = pow


def pow(x1, x2, /):
    """``x1 ** x2``; ``(-0.0) ** 0.5`` is +0 and ``(-inf) ** 0.5`` is +inf, as the standard says."""
    out = _power(x1, x2)
    # NumPy computes x ** 0.5 as sqrt(x) for a scalar (0-d) exponent, which keeps -0.0 and gives NaN at
    # -inf; both have the sign bit set, which one count finds (inputs without it need no fix-up)
    if out.dtype.kind != "f" or getattr(x2, "ndim", 0) != 0 or x2 != 0.5:
        return out
    if not _count_nonzero(np.signbit(x1)):
        return out
    # every result is >= +0 or NaN, except at -inf (+inf)
    return np.where(np.equal(x1, -np.inf), np.inf, np.abs(out)).astype(out.dtype, copy=False)


@native_common_case(np.tanh, 1, _REAL_DTYPES)
def tanh(x, /):
    """The hyperbolic tangent; ``tanh(+-inf + bj)`` is ``+-1 + 0j``, the zero of ``b``'s sign (finite b)."""
    out = np.tanh(x)
    if out.dtype.kind != "c":
        return out
    # NumPy (C99) gives 1 + 0j * sin(2b) there, whose zero takes the sign of sin(2b)
    re, im = np.real(x), np.imag(x)
    limit = (np.sign(re) + np.copysign(0.0, im) * 1j).astype(out.dtype)
    return np.where(np.isinf(re) & np.isfinite(im), limit, out)


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


#: whether this NumPy's ceil/floor/trunc keep integer dtypes (numpy >= 2.1): then they are the ufuncs
_ROUNDING_KEEPS_INTEGERS = np.floor(np.ones(1, np.int8)).dtype == np.int8
if _ROUNDING_KEEPS_INTEGERS:
    ceil, floor, trunc = np.ceil, np.floor, np.trunc
else:
    ceil = _integral_identity(np.ceil)
    floor = _integral_identity(np.floor)
    trunc = _integral_identity(np.trunc)


def clip(x, /, min=None, max=None):
    if min is None and max is None:
        return np.array(x, copy=True)
    if _VALUE_BASED:  # numpy < 2's clip reads a NaN bound as no bound; maximum/minimum propagate it
        out = x if min is None else np.maximum(x, min)
        out = out if max is None else np.minimum(out, max)
    else:
        out = np.clip(x, min, max)
    # the result keeps x's dtype even when a bound is a wider array
    return out.astype(x.dtype, copy=False) if out.dtype != x.dtype else out


@native_common_case(np.expm1, 1, _REAL_DTYPES)
def expm1(x, /):
    if type(x) is np.ndarray and x.dtype.kind != "c":  # the common case, without np.iscomplexobj
        return np.expm1(x)
    if np.iscomplexobj(x):  # np.expm1(inf+0j) is inf+nanj; the standard's special cases follow exp(x) - 1
        with np.errstate(invalid="ignore"):
            return np.where(np.isfinite(x), np.expm1(x), np.exp(x) - 1).astype(np.result_type(x))
    return np.expm1(x)


def _complex_sign(x, /):
    if np.iscomplexobj(x):  # the standard's complex sign is x / |x| (numpy < 2 differs)
        magnitude = np.abs(x)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(magnitude == 0, 0, x / np.where(magnitude == 0, 1, magnitude)).astype(x.dtype)
    return np.sign(x)


def _sign(x, /):
    """numpy >= 2's sign; its complex sign is x / |x|, but of ``inf + nan j`` it gives ``1 + 0j``
    where the standard says ``NaN + NaN j`` (any NaN part)."""
    out = np.sign(x)
    if type(x) is np.ndarray and x.dtype.kind != "c":  # the common case
        return out
    if np.iscomplexobj(x):
        return np.where(np.isnan(x.real) | np.isnan(x.imag), complex(np.nan, np.nan), out).astype(out.dtype)
    return out


sign = native_common_case(np.sign, 1, _REAL_DTYPES)(_complex_sign if _VALUE_BASED else _sign)
