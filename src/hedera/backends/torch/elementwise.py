"""Element-wise functions (torch backend).

Unary functions are torch's own where they conform. Binary functions go through
:func:`_binary`: same-dtype tensors (the common case) go straight to torch; mixed
dtypes where exactly one operand is 0-d are cast first (torch would let the 0-d
tensor lose within its kind: ``int8[n] + int64[]`` is ``int8`` in torch, ``int64`` in
the standard); Python scalars in the first position, or in the second for torch
functions that take only tensors, become 0-d tensors of the other operand's dtype.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import torch

from ..._api import names_in
from .._common import native_common_case
from ._core import TORCH_DTYPES, promote, promote_all

__all__ = names_in("elementwise")  # the API table's elementwise rows

_Tensor = torch.Tensor
_SCALARS = frozenset({bool, int, float, complex})
# a Python int or float x1 with a float32/float64 tensor x2: torch converts the scalar to x2's dtype,
# as a 0-d tensor of that dtype would be (float16/bfloat16 compute a scalar in float32: not the same)
_LEFT_SCALARS = frozenset({int, float})
_FLOAT32_64 = frozenset({torch.float32, torch.float64})
# the dtypes for which a shim's common case is torch's own function (the C front calls it directly)
_ALL_DTYPES = tuple(TORCH_DTYPES.values())
_NOT_COMPLEX = tuple(d for d in _ALL_DTYPES if not d.is_complex)
_NOT_FLOATING = tuple(d for d in _ALL_DTYPES if not d.is_floating_point)

# ---- unary: torch conforms ----------------------------------------------------------------

abs = torch.abs
acosh = torch.acosh
asin = torch.asin
asinh = torch.asinh
atan = torch.atan
atanh = torch.atanh
bitwise_invert = torch.bitwise_not
ceil = torch.ceil
cos = torch.cos
cosh = torch.cosh
exp = torch.exp
floor = torch.floor
imag = torch.imag
isfinite = torch.isfinite
isinf = torch.isinf
isnan = torch.isnan
log = torch.log
log2 = torch.log2
log10 = torch.log10
logical_not = torch.logical_not
negative = torch.negative
positive = torch.positive
real = torch.real
reciprocal = torch.reciprocal
signbit = torch.signbit
sin = torch.sin
sinh = torch.sinh
square = torch.square
sqrt = torch.sqrt
tan = torch.tan
trunc = torch.trunc
# torch.conj only sets a lazy conjugate bit, which other libraries (DLPack, NumPy) cannot read
conj = torch.conj_physical


@native_common_case(torch.acos, 1, _NOT_COMPLEX)
def acos(x, /):
    # torch's complex128 acos gives pi/2 + 0j at +-0 + 0j (the standard: pi/2 - 0j); the imaginary
    # part of acos(z) has the sign opposite to z's (acos(conj(z)) == conj(acos(z)))
    if x.dtype.is_complex:
        out = torch.acos(x)
        return torch.complex(out.real, torch.copysign(out.imag, -x.imag))
    return torch.acos(x)


@native_common_case(torch.expm1, 1, _NOT_COMPLEX)
def expm1(x, /):
    # torch's complex expm1 gives inf + NaN j at inf + 0j and NaN + NaN j at -inf + (inf or NaN) j (the
    # standard: inf + 0j and -1 + 0j); where a part is not finite, exp(x) - 1 has the standard's special cases
    # (the real part only: torch's complex - 1 loses the sign of a zero imaginary part)
    if x.dtype.is_complex:
        e = torch.exp(x)
        return torch.where(torch.isfinite(x), torch.expm1(x), torch.complex(e.real - 1, e.imag))
    return torch.expm1(x)


@native_common_case(torch.log1p, 1, _NOT_COMPLEX)
def log1p(x, /):
    # torch's complex log1p gives NaN + NaN j where a part is infinite and the other NaN
    # (the standard: +infinity + NaN j); log(1 + x) has the standard's special cases there
    if x.dtype.is_complex:
        return torch.where(torch.isinf(x), torch.log(torch.complex(x.real + 1, x.imag)), torch.log1p(x))
    return torch.log1p(x)


@native_common_case(torch.round, 1, _NOT_COMPLEX)
def round(x, /):
    # torch.round has no complex kernel: round the parts
    if x.dtype.is_complex:
        return torch.complex(torch.round(x.real), torch.round(x.imag))
    return torch.round(x)


@native_common_case(torch.sgn, 1, _NOT_FLOATING)
def sign(x, /):
    # torch.sign gives 0 for NaN (the standard: NaN); torch.sgn is x/|x| for complex
    if x.dtype.is_floating_point:
        return torch.where(torch.isnan(x), x, torch.sign(x))
    return torch.sgn(x)


# ---- binary ---------------------------------------------------------------------------------


def _binary(
    fn: Callable[..., Any], name: str, *, scalar_x2: bool = True, scalar_x1: bool = False
) -> Callable[..., Any]:
    """A standard binary function over torch's ``fn``, with the standard's promotion.

    ``scalar_x2``: whether ``fn`` accepts a Python scalar as its second argument; ``scalar_x1``:
    as its first (``torch.mul(2.0, x)`` does, ``torch.eq(2.0, x)`` and ``torch.copysign`` do not).
    """
    left_scalars = _LEFT_SCALARS if scalar_x1 else frozenset()
    # (the common cases first, tested by exact type: two plain tensors of one dtype, then a tensor and a
    # Python scalar; subclasses and the rest take promote(), which is right for every operand)
    if scalar_x2:

        def op(x1, x2, /):
            if type(x2) is _Tensor:
                if type(x1) is _Tensor:
                    if x1.dtype is x2.dtype:
                        return fn(x1, x2)
                elif type(x1) in left_scalars and x2.dtype in _FLOAT32_64:
                    return fn(x1, x2)  # torch's rule for a scalar x1 is the standard's here: x2's dtype
            elif type(x2) in _SCALARS and isinstance(x1, _Tensor):  # torch applies the standard's rule
                return fn(x1, x2)
            return fn(*promote(x1, x2))

    else:

        def op(x1, x2, /):
            if type(x1) is _Tensor and type(x2) is _Tensor and x1.dtype is x2.dtype:
                return fn(x1, x2)
            return fn(*promote(x1, x2))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"``{name}`` over ``torch.{fn.__name__}``, with the standard's type promotion."
    return native_common_case(fn, 2, _ALL_DTYPES)(op)  # (same-dtype tensors: fn itself, above)


def _complex_parts(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``fn`` applied to real and imaginary parts separately, for complex operands.

    torch adds complex numbers as ``x1 + alpha * x2`` with a complex ``alpha = 1``, so
    a NaN imaginary part of ``x2`` leaks into the real part (the standard: parts are
    independent).
    """
    promoting = _binary(fn, name, scalar_x1=True)

    def op(x1, x2, /):
        if type(x2) is _Tensor:
            if type(x1) is _Tensor:
                dt = x1.dtype
                if dt is x2.dtype and dt not in _COMPLEX:
                    return fn(x1, x2)
            elif type(x1) in _LEFT_SCALARS and x2.dtype in _FLOAT32_64:
                return fn(x1, x2)
        elif type(x2) in _SCALARS:
            if isinstance(x1, _Tensor) and x1.dtype not in _COMPLEX and type(x2) is not complex:
                return fn(x1, x2)
        x1, x2 = promote(x1, x2)
        if not (x1.dtype.is_complex or x2.dtype.is_complex):
            return promoting(x1, x2)
        x1, x2 = promote_all(x1, x2)
        return torch.complex(fn(x1.real, x2.real), fn(x1.imag, x2.imag))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"``{name}`` over ``torch.{fn.__name__}``, with the standard's promotion and complex parts."
    return native_common_case(fn, 2, _NOT_COMPLEX)(op)


_COMPLEX = frozenset({torch.complex64, torch.complex128})
add = _complex_parts(torch.add, "add")
subtract = _complex_parts(torch.subtract, "subtract")
multiply = _binary(torch.multiply, "multiply", scalar_x1=True)
divide = _binary(torch.divide, "divide", scalar_x1=True)
_floor_divide = _binary(torch.floor_divide, "floor_divide", scalar_x1=True)
_remainder = _binary(torch.remainder, "remainder", scalar_x1=True)
_pow = _binary(torch.pow, "pow", scalar_x1=True)


@native_common_case(torch.pow, 2, _NOT_COMPLEX)  # (two tensors of one real dtype: torch.pow, below)
def pow(x1, x2, /):
    """``pow`` over ``torch.pow``, with the standard's promotion; ``x ** 0`` is 1 for complex ``x`` too.

    torch computes complex powers as ``exp(x2 * log(x1))``, which gives NaN for ``0 ** 0``; and a
    Python scalar exponent of ``+-0.5`` as ``sqrt`` (``rsqrt``): ``(-0.0) ** 0.5`` is -0.0 and
    ``(-inf) ** 0.5`` NaN (the standard: +0 and +inf).
    """
    out = _pow(x1, x2)
    if out.dtype.is_complex:
        if not isinstance(x2, _Tensor):
            return torch.ones_like(out) if x2 == 0 else out
        return torch.where(x2 == 0, torch.ones((), dtype=out.dtype, device=out.device), out)
    if type(x2) is float and (x2 == 0.5 or x2 == -0.5) and out.is_floating_point():
        # every result is >= +0 or NaN, and -inf gives +inf (** 0.5) or +0 (** -0.5). The fix-up works
        # in place on torch's own result, which stays exact (sqrt): a 0-d tensor exponent would take
        # torch's general kernel, which conforms in one call but is 1 ulp off sqrt for 17% of float32
        # results (and slower at 1000 elements)
        return out.abs_().masked_fill_(torch.isneginf(x1), math.inf if x2 > 0 else 0.0)
    return out


equal = _binary(torch.eq, "equal")
not_equal = _binary(torch.ne, "not_equal")
greater = _binary(torch.gt, "greater")
greater_equal = _binary(torch.ge, "greater_equal")
less = _binary(torch.lt, "less")
less_equal = _binary(torch.le, "less_equal")
bitwise_and = _binary(torch.bitwise_and, "bitwise_and")
bitwise_or = _binary(torch.bitwise_or, "bitwise_or")
bitwise_xor = _binary(torch.bitwise_xor, "bitwise_xor")
bitwise_left_shift = _binary(torch.bitwise_left_shift, "bitwise_left_shift")
bitwise_right_shift = _binary(torch.bitwise_right_shift, "bitwise_right_shift")
copysign = _binary(torch.copysign, "copysign")
atan2 = _binary(torch.atan2, "atan2", scalar_x2=False)
hypot = _binary(torch.hypot, "hypot", scalar_x2=False)
logaddexp = _binary(torch.logaddexp, "logaddexp", scalar_x2=False)
logical_and = _binary(torch.logical_and, "logical_and", scalar_x2=False)
logical_or = _binary(torch.logical_or, "logical_or", scalar_x2=False)
logical_xor = _binary(torch.logical_xor, "logical_xor", scalar_x2=False)
maximum = _binary(torch.maximum, "maximum", scalar_x2=False)
minimum = _binary(torch.minimum, "minimum", scalar_x2=False)
nextafter = _binary(torch.nextafter, "nextafter", scalar_x2=False)


#: real dtype -> the range of the Python ints that are its values (every int for floats), for clip's
#: int bounds
_CLIP_RANGES = {
    d: (-math.inf, math.inf) if d.is_floating_point else (int(torch.iinfo(d).min), int(torch.iinfo(d).max))
    for d in (torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8, torch.float16, torch.bfloat16,
              torch.float32, torch.float64)
}  # fmt: skip


def _bound(value, x):
    """A clip bound as something torch.clamp takes alongside ``x``, or None where it cannot bind."""
    if value is None or isinstance(value, _Tensor):
        return value if value is None or value.dtype is x.dtype else value.to(x.dtype)
    if not (x.dtype.is_floating_point or x.dtype.is_complex) and isinstance(value, int):
        info = torch.iinfo(x.dtype) if x.dtype is not torch.bool else None
        if info is not None and not info.min <= value <= info.max:
            return None  # outside x's range: the bound cannot bind
    return value


def clip(x, /, min=None, max=None):
    """Clamp ``x`` to ``[min, max]``; the result keeps ``x``'s dtype.

    torch.clamp takes two scalars or two tensors but not a mix, ignores a NaN scalar
    bound and promotes with tensor bounds, so bounds are adjusted first.
    """
    lo_kind, hi_kind = type(min), type(max)
    if (lo_kind is float or (min is None and hi_kind is float)) and (hi_kind is float or max is None):
        if x.dtype.is_floating_point and min == min and max == max:  # (None == None)
            return torch.clamp(x, min, max)  # what the general path below does for non-NaN floats
    elif (lo_kind is int or (min is None and hi_kind is int)) and (hi_kind is int or max is None):
        bounds = _CLIP_RANGES.get(x.dtype)  # (not torch.iinfo: ~0.5 us)
        if bounds is not None and (min is None or bounds[0] <= min <= bounds[1]):
            if max is None or bounds[0] <= max <= bounds[1]:
                return torch.clamp(x, min, max)  # what the general path below does for bounds that bind
    lo, hi = _bound(min, x), _bound(max, x)
    if lo is None and hi is None:
        return x.clone()
    if not isinstance(lo, _Tensor) and not isinstance(hi, _Tensor):
        if any(isinstance(b, float) and math.isnan(b) for b in (lo, hi)):
            return torch.full_like(x, math.nan)
        return torch.clamp(x, lo, hi)
    if lo is not None and not isinstance(lo, _Tensor):
        lo = torch.as_tensor(lo, dtype=x.dtype, device=x.device)
    if hi is not None and not isinstance(hi, _Tensor):
        hi = torch.as_tensor(hi, dtype=x.dtype, device=x.device)
    return torch.clamp(x, lo, hi)


# ---- floor_divide and remainder: the standard's special cases ----------------------------------


def _not_finite(x1, x2):
    """Where ``x1`` or ``x2`` is infinite or NaN: True, False, or a bool tensor.

    ``0 * x`` is NaN exactly there; ``x1 * 0 + 0 * x2`` (one ``add`` with ``alpha=0``) then ``isnan``
    costs less than ``isinf(x1) | isinf(x2)`` (torch's ``isinf`` is two kernels). A Python scalar
    is tested in Python.
    """
    if type(x2) in _SCALARS:
        return True if not math.isfinite(x2) else torch.isinf(x1)
    if type(x1) in _SCALARS:
        return True if not math.isfinite(x1) else torch.isinf(x2)
    return torch.isnan(torch.add(torch.mul(x1, 0.0), x2, alpha=0))


def floor_divide(x1, x2, /):
    """``floor(x1 / x2)``, with the standard's special cases (``inf // 2`` is inf, ``-1 // inf`` is -0)."""
    out = _floor_divide(x1, x2)
    if not out.is_floating_point():
        return out
    # torch follows Python where exactly one operand is infinite (NaN for inf // 2, -1 for -1 // inf);
    # there x1 / x2 is the standard's result, sign included (and where an operand is NaN, both are NaN)
    if type(x2) in _SCALARS and math.isfinite(x2):
        # then torch's result is NaN exactly where x1 is infinite or NaN: one kernel (isinf is two)
        special = torch.isnan(out)
    else:
        special = _not_finite(x1, x2)
    quotient = torch.divide(x1, x2)
    if quotient.dtype is not out.dtype:
        quotient = quotient.to(out.dtype)
    return quotient if special is True else torch.where(special, quotient, out)


def remainder(x1, x2, /):
    """``x1 - floor_divide(x1, x2) * x2``, with ``x2``'s sign (zeros too: torch gives -0.0 % 1 = -0)."""
    out = _remainder(x1, x2)
    return torch.copysign(out, x2) if out.is_floating_point() else out


@native_common_case(torch.tanh, 1, _NOT_COMPLEX)
def tanh(x, /):
    """The hyperbolic tangent; ``tanh(+-inf + bj)`` is ``+-1 + 0j``, the zero of ``b``'s sign (finite b)."""
    out = torch.tanh(x)
    if not out.is_complex():
        return out
    # torch computes 1 + 0j * sin(2b) there, whose zero takes the sign of sin(2b)
    re, im = x.real, x.imag
    limit = torch.complex(torch.sign(re), torch.copysign(torch.zeros_like(im), im))
    return torch.where(torch.isinf(re) & torch.isfinite(im), limit, out)
