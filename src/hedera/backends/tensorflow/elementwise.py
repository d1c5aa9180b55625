"""Element-wise functions (tensorflow backend).

Most functions are TensorFlow's generated op functions themselves (``tf.math.sin``
*is* ``gen_math_ops.sin``). Binary functions call the raw op (``AddV2`` rather
than ``tf.math.add``, which adds a name scope and conversions) and, only when TF
refuses the operands (different dtypes, or a Python scalar it converted to the
wrong dtype), apply the standard's type promotion and call it again: the
same-dtype path costs one ``try``. Shims elsewhere fill TensorFlow's gaps:
unsigned integers (``abs``, ``sign``, ``pow``), integers (``ceil``, ``isnan``),
complex numbers (``isfinite``, ``round``), bitwise functions on booleans, and
NumPy's results for integer division by zero and for float ``floor_divide``.
"""

from __future__ import annotations

import builtins
import math

import tensorflow as tf

from ..._api import names_in
from .._common import native_common_case
from ._core import (
    _EAGER,
    COMPLEX,
    DEFAULT_FLOAT,
    INEXACT,
    INTEGER,
    MIXED_DTYPE_ERRORS,
    OP_DTYPE_ERRORS,
    REAL_FLOAT_ENUMS,
    REAL_OF,
    SIGNED_OF,
    UNSIGNED,
    all_finite,
    check_int_operand,
    constant,
    is_complex,
    promote,
    small_constant,
    zero_like,
)
from ._private import gen_bitwise_ops as _gb
from ._private import gen_math_ops as _gm
from ._private import own_op

__all__ = names_in("elementwise")  # the API table's elementwise rows

_PY_SCALAR_TYPES = frozenset((bool, int, float, complex))

# ---- unary functions TensorFlow computes as the standard says --------------------------

# (TF's own functions, as tf.math exports them: hd.sin *is* tf.math.sin, at the native call's cost;
# the shims below call the ops without TF's WeakTensor wrappers, _private.PlainOps)
acos = own_op(_gm, "acos")
acosh = own_op(_gm, "acosh")
asin = own_op(_gm, "asin")
asinh = own_op(_gm, "asinh")
atan = own_op(_gm, "atan")
atanh = own_op(_gm, "atanh")
cos = own_op(_gm, "cos")
cosh = own_op(_gm, "cosh")
exp = own_op(_gm, "exp")
logical_not = own_op(_gm, "logical_not")
sin = own_op(_gm, "sin")
sinh = own_op(_gm, "sinh")
square = own_op(_gm, "square")
tan = own_op(_gm, "tan")
conj = tf.math.conj  # the identity on real input
real = tf.math.real
imag = tf.math.imag


# ---- binary functions: the raw op, with the standard's promotion when TF refuses ---------


def _binary(op, name: str, doc: str):
    """A standard binary function over the TF op ``op(x1, x2)``, promoting mixed dtypes."""

    # two eager tensors go to the op before the Python-scalar checks below: ~0.4-0.7 us less a call
    # at 1 element on the shared 2-core machine (measured; the same names as module globals in the
    # linalg shims' common paths made no difference)
    eager = _EAGER

    def binary(x1, x2, /):
        kind = type(x2)
        kind1 = type(x1)
        # the checks for a Python zero (skipped for two eager tensors, the common case) cost one
        # type() and one or two identity tests; a nonzero float adds one truth test (``not x2``)
        if kind1 is eager and kind is eager:
            pass
        elif kind is int or kind1 is int:  # (one TF may not convert safely: check_int_operand)
            if kind is int:
                check_int_operand(x2, x1, name, "x2")
            if kind1 is int:
                check_int_operand(x1, x2, name, "x1")
            if kind1 in _PY_SCALAR_TYPES and kind in _PY_SCALAR_TYPES:
                x1, x2 = promote(x1, x2)
        elif kind1 in _PY_SCALAR_TYPES:  # TF converts a left scalar to x2's dtype: the same checks
            if kind in _PY_SCALAR_TYPES:
                x1, x2 = promote(x1, x2)
            elif kind1 is float:
                if not x1:
                    x1 = zero_like(x1, x2)
                    if type(x1) is float:
                        x1, x2 = promote(x1, x2)
            elif kind1 is complex and not (x1.real and x1.imag):
                x1, x2 = promote(x1, x2)
        elif kind is float:
            if not x2:  # TF's scalar cache would flip the sign of a zero: see _core
                x2 = zero_like(x2, x1)
                if type(x2) is float:
                    x1, x2 = promote(x1, x2)
        elif kind is complex and not (x2.real and x2.imag):  # the same for a complex zero part
            x1, x2 = promote(x1, x2)
        try:
            return op(x1, x2)
        except MIXED_DTYPE_ERRORS:
            a, b = promote(x1, x2)
            if a is x1 and b is x2:  # same dtypes: the error is not about promotion
                raise
        return op(a, b)

    binary.__name__ = binary.__qualname__ = name
    binary.__doc__ = doc
    # the C front calls the op itself for two tensors (one_type): where it answers (one dtype), the
    # answer is the shim's; mixed dtypes raise, and the shim promotes
    return native_common_case(op, 2, one_type=True)(binary)


add = _binary(_gm.add_v2, "add", "``x1 + x2``, with the standard's type promotion.")
subtract = _binary(_gm.sub, "subtract", "``x1 - x2``, with the standard's type promotion.")
multiply = _binary(_gm.mul, "multiply", "``x1 * x2``, with the standard's type promotion.")
atan2 = _binary(_gm.atan2, "atan2", "The angle of the point ``(x2, x1)``, in radians.")
maximum = _binary(_gm.maximum, "maximum", "The larger of ``x1`` and ``x2``; NaN if either is NaN.")
minimum = _binary(_gm.minimum, "minimum", "The smaller of ``x1`` and ``x2``; NaN if either is NaN.")
nextafter = _binary(_gm.next_after, "nextafter", "The next representable value after ``x1`` toward ``x2``.")


def _comparison(op, name: str, doc: str):
    """:func:`_binary` over a comparison or logical op, whose common case is the op itself.

    The shim's answer is ``op(x1, x2)``'s wherever the op returns one: the shim calls the op as it
    is except for a Python float zero or a complex with a zero part (both operands scalars cannot
    reach it through a front), and there it changes only the sign of a zero (which no comparison
    sees: ``-0.0 == 0.0``, ``x < -0.0`` is ``x < 0.0``), or converts to the standard's dtype where
    TF refuses the scalar (``less(int64, 0.0)``: TF raises, and the C front calls the shim).
    So the C front calls the op directly, without the shim's Python frame (~0.4-0.8 us on the shared
    2-core machine), for two tensors (``one_type``): a Python int goes to the shim, which checks
    that TF can convert it (check_int_operand).
    """
    return _binary(op, name, doc)


equal = _comparison(_gm.equal, "equal", "``x1 == x2``, with the standard's type promotion.")
not_equal = _comparison(_gm.not_equal, "not_equal", "``x1 != x2``, with the standard's type promotion.")
greater = _comparison(_gm.greater, "greater", "``x1 > x2``, with the standard's type promotion.")
greater_equal = _comparison(_gm.greater_equal, "greater_equal", "``x1 >= x2``, with type promotion.")
less = _comparison(_gm.less, "less", "``x1 < x2``, with the standard's type promotion.")
less_equal = _comparison(_gm.less_equal, "less_equal", "``x1 <= x2``, with the standard's type promotion.")
logical_and = _comparison(_gm.logical_and, "logical_and", "Element-wise AND of boolean arrays.")
logical_or = _comparison(_gm.logical_or, "logical_or", "Element-wise OR of boolean arrays.")
logical_xor = _comparison(_gm.not_equal, "logical_xor", "Element-wise XOR of boolean arrays.")


def _promoted(x1, x2):
    """``promote`` for shims that inspect the dtype: skipped when both are tensors of one dtype."""
    if type(x1) in _PY_SCALAR_TYPES or type(x2) in _PY_SCALAR_TYPES or x1.dtype is not x2.dtype:
        return promote(x1, x2)
    return x1, x2


def divide(x1, x2, /):
    """``x1 / x2``. Integer operands divide in the default float dtype (float32).

    Complex division uses NumPy's algorithm (Smith's), so infinities and zeros give
    NumPy's results where TF's formula gives NaN.
    """
    try:
        if x1._datatype_enum() in REAL_FLOAT_ENUMS:  # an eager float tensor: TF's RealDiv conforms
            if type(x2) is float and not x2:
                x2 = zero_like(x2, x1)  # TF's scalar cache would flip its sign: see _core
            return _gm.real_div(x1, x2)
    except (AttributeError, *MIXED_DTYPE_ERRORS):
        pass  # symbolic tensors, variables, Python scalars, mixed dtypes
    x1, x2 = _promoted(x1, x2)
    dtype = x1.dtype
    if dtype in COMPLEX:
        return _complex_divide(x1, x2)
    if dtype not in INEXACT:  # TF has no CPU kernel for integer RealDiv
        x1, x2 = tf.cast(x1, DEFAULT_FLOAT), tf.cast(x2, DEFAULT_FLOAT)
    return _gm.real_div(x1, x2)


def _complex_divide(a, b):
    # NumPy's complex division (Smith's algorithm, with its zero-divisor branch). Each branch
    # divides by a denominator made safe where the branch is not taken, so that gradients
    # through tf.where stay finite.
    ar, ai, br, bi = tf.math.real(a), tf.math.imag(a), tf.math.real(b), tf.math.imag(b)
    abs_br, abs_bi = _gm._abs(br), _gm._abs(bi)
    one = tf.ones_like(br)
    zero = tf.equal(abs_br, 0) & tf.equal(abs_bi, 0)
    first = (abs_br >= abs_bi) & ~zero
    second = ~(abs_br >= abs_bi)
    rat1 = bi / tf.where(first, br, one)
    scl1 = 1 / tf.where(first, br + bi * rat1, one)
    rat2 = br / tf.where(second, bi, one)
    scl2 = 1 / tf.where(second, bi + br * rat2, one)
    by_zero = tf.where(zero, abs_br, one)
    re = tf.where(first, (ar + ai * rat1) * scl1, tf.where(zero, ar / by_zero, (ar * rat2 + ai) * scl2))
    im = tf.where(first, (ai - ar * rat1) * scl1, tf.where(zero, ai / by_zero, (ai * rat2 - ar) * scl2))
    return tf.complex(re, im)


def reciprocal(x, /):
    """``1 / x``; for complex ``x`` by NumPy's algorithm (so ``1 / inf`` is 0, not NaN)."""
    if not is_complex(x):
        return _gm.reciprocal(x)
    re, im = tf.math.real(x), tf.math.imag(x)
    one = tf.ones_like(re)
    small_im = _gm._abs(im) <= _gm._abs(re)
    # denominators made safe where their branch is not taken (finite gradients through tf.where)
    r1 = im / tf.where(small_im, re, one)
    d1 = tf.where(small_im, re + im * r1, one)
    r2 = re / tf.where(small_im, one, im)
    d2 = tf.where(small_im, one, re * r2 + im)
    return tf.complex(tf.where(small_im, 1 / d1, r2 / d2), tf.where(small_im, -r1 / d1, -1 / d2))


def sqrt(x, /):
    """The principal square root; for complex ``x``, ``sqrt(conj(x)) == conj(sqrt(x))`` (even at -inf-0j)."""
    if not is_complex(x):
        return _gm.sqrt(x)
    im = tf.math.imag(x)
    out = _gm.sqrt(tf.complex(tf.math.real(x), _gm._abs(im)))  # TF loses the sign of -0j at -inf
    return tf.complex(tf.math.real(out), tf.where(signbit(im), -tf.math.imag(out), tf.math.imag(out)))


def expm1(x, /):
    """``exp(x) - 1``, accurate near 0; for complex ``x`` by NumPy's formula (TF gives NaN at inf+yj).

    Where a part of ``x`` is not finite the formula gives NaN (``inf * 0``); ``exp(x) - 1`` there has
    the standard's special cases (``inf + 0j`` at ``inf + 0j``, ``-1 + 0j`` at ``-inf + inf j``).
    """
    if not is_complex(x):
        return _gm.expm1(x)
    re, im = tf.math.real(x), tf.math.imag(x)
    half = _gm.sin(im / 2)
    near = tf.complex(_gm.expm1(re) * _gm.cos(im) - 2 * half * half, _gm.exp(re) * _gm.sin(im))
    return tf.where(_gm.is_finite(re) & _gm.is_finite(im), near, _gm.exp(x) - tf.ones((), x.dtype))


def log1p(x, /):
    """``log(1 + x)``, accurate near 0 for real ``x``; for complex ``x`` by NumPy's formula.

    NumPy computes ``log(|1 + x|) + i atan2(imag, real + 1)``, keeping the sign of a zero imaginary part.
    """
    if not is_complex(x):
        return _gm.log1p(x)
    re, im = tf.math.real(x), tf.math.imag(x)
    shifted = re + 1  # in real arithmetic, which keeps the sign of a zero imaginary part
    return tf.complex(_gm.log(hypot(shifted, im)), _gm.atan2(im, shifted))


def _safe_int_divisor(x1, x2):
    # TF raises for integer division by zero; NumPy gives 0, which the shims reproduce
    zero = tf.equal(x2, tf.zeros((), x2.dtype))
    return zero, tf.where(zero, tf.ones((), x2.dtype), x2)


def floor_divide(x1, x2, /):
    """``floor(x1 / x2)``, computed as NumPy does (from the remainder) so results agree exactly.

    Integer division by zero gives 0 (NumPy's result; TensorFlow would raise).
    """
    x1, x2 = _promoted(x1, x2)
    if x1.dtype in INTEGER:
        zero, divisor = _safe_int_divisor(x1, x2)
        return tf.where(zero, tf.zeros((), x1.dtype), _gm.floor_div(x1, divisor))
    # TF's FloorDiv is floor(x1 / x2), which rounds x1 / x2 first (1.0 // 0.1 is 10; NumPy: 9). The
    # integer (x1 - x1 mod x2) / x2 is NumPy's (npy_divmod's) result, rounded to the integer it is
    # within a few ulps of. Where that is below 1 in magnitude or NaN (a zero, infinite or NaN operand,
    # or a quotient in [0, 1)), floor(x1 / x2) is the result, sign included (inf // 2 is inf, -1 // inf
    # is -0); it is infinite only where x1 / x2 overflows, and so is floor(x1 / x2)
    exact = _gm.rint(_gm.real_div(_gm.sub(x1, _gm.floor_mod(x1, x2)), x2))
    return tf.where(_gm.greater_equal(_gm._abs(exact), 1.0), exact, _gm.floor_div(x1, x2))


def remainder(x1, x2, /):
    """``x1 - floor_divide(x1, x2) * x2``: the sign of ``x2``. Integer remainders by zero are 0."""
    positive_scalar = type(x2) is float and x2 > 0
    x1, x2 = _promoted(x1, x2)
    if x1.dtype in INTEGER:
        zero, divisor = _safe_int_divisor(x1, x2)
        return tf.where(zero, tf.zeros((), x1.dtype), _gm.floor_mod(x1, divisor))
    # the result has x2's sign, zeros included (TF's zeros have x1's sign, -0.0 % 1.0 is -0)
    out = _gm.floor_mod(x1, x2)
    if positive_scalar:  # -0 + +0 is +0; nothing else changes
        return _gm.add_v2(out, zero_like(0.0, out))
    return _gm.mul(_gm._abs(out), _gm.sign(x2))  # exact; NaN where out is


def pow(x1, x2, /):
    """``x1 ** x2``, with the standard's type promotion (unsigned integers wrap, as in NumPy)."""
    x1, x2 = _promoted(x1, x2)
    if x1.dtype in COMPLEX:
        return _complex_pow(x1, x2)
    signed = SIGNED_OF.get(x1.dtype)
    if signed is not None:  # no unsigned Pow kernel; the power modulo 2**bits is the same
        return tf.bitcast(_gm._pow(tf.bitcast(x1, signed), tf.bitcast(x2, signed)), x1.dtype)
    return _gm._pow(x1, x2)


def _complex_pow(a, b):
    # NumPy's npy_cpow: a**0 == 1; 0**b == 0 where real(b) > 0, else NaN; small integer
    # exponents (|n| < 100) by repeated multiplication (then 1 / r for n < 0), which keeps
    # infinities and precision; any other exponent exp(b * log(a)), which is TF's own Pow
    zero = tf.zeros((), a.dtype)
    one = tf.ones((), a.dtype)
    br, bi = tf.math.real(b), tf.math.imag(b)
    integral = tf.equal(bi, 0) & tf.equal(br, _gm.round(br)) & (_gm._abs(br) < 100)
    n = tf.cast(tf.where(integral, br, tf.zeros_like(br)), tf.int32)
    magnitude = _gm._abs(n)
    square = a * a
    power, base = tf.ones_like(a * b), a * tf.ones_like(b)
    for bit in range(7):  # |n| < 128
        power = tf.where(tf.equal(_gb.bitwise_and(magnitude, 1 << bit), 0), power, power * base)
        base = base * base
    power = tf.where(n < 0, _complex_divide(tf.ones_like(power), power), power)
    power = tf.where(
        tf.equal(n, 3), a * square, tf.where(tf.equal(n, 2), square, tf.where(tf.equal(n, 1), a, power))
    )
    out = tf.where(integral, power, _gm._pow(a, b))
    at_zero = tf.where(br > 0, zero, tf.constant(complex(math.nan, math.nan), a.dtype))
    out = tf.where(tf.equal(a, zero), at_zero, out)
    return tf.where(tf.equal(b, zero), one, out)


def copysign(x1, x2, /):
    """``|x1|`` with the sign bit of ``x2`` (so ``-0.0`` and NaNs with the sign bit set count as negative)."""
    x1, x2 = _promoted(x1, x2)
    magnitude = _gm._abs(x1)
    return tf.where(signbit(x2), -magnitude, magnitude)


def hypot(x1, x2, /):
    """``sqrt(x1**2 + x2**2)`` without overflow or underflow in the squares; +inf if either is infinite."""
    x1, x2 = _promoted(x1, x2)
    if type(x1) is _EAGER and type(x2) is _EAGER and x1._datatype_enum() in REAL_FLOAT_ENUMS:
        return _eager_hypot(x1, x2)
    a, b = _gm._abs(x1), _gm._abs(x2)
    big, small = _gm.maximum(a, b), _gm.minimum(a, b)
    safe = tf.where(tf.equal(big, 0), tf.ones_like(big), big)
    ratio = small / safe
    out = big * _gm.sqrt(1 + ratio * ratio)
    out = tf.where(tf.equal(big, 0), tf.zeros_like(big), out)
    return tf.where(_gm.is_inf(a) | _gm.is_inf(b), tf.constant(math.inf, out.dtype), out)


def _eager_hypot(x1, x2):
    """``hypot``'s ops for eager float tensors, called directly with cached constants (TF's Python
    converts each ``0``, ``1`` and ``ones_like``); the infinities' select only where one may be."""
    a, b = _gm._abs(x1), _gm._abs(x2)
    big, small = _gm.maximum(a, b), _gm.minimum(a, b)
    dtype = x1.dtype
    zero, one = small_constant(0, dtype), small_constant(1, dtype)
    at_zero = _gm.equal(big, zero)
    ratio = _gm.real_div(small, _gm.select_v2(at_zero, one, big))
    out = _gm.mul(big, _gm.sqrt(_gm.add_v2(one, _gm.mul(ratio, ratio))))
    out = _gm.select_v2(at_zero, zero, out)
    if all_finite(x1) and all_finite(x2):
        return out
    return _gm.select_v2(_gm.logical_or(_gm.is_inf(a), _gm.is_inf(b)), small_constant(math.inf, dtype), out)


_LOG_TWO = math.log(2.0)


def logaddexp(x1, x2, /):
    """``log(exp(x1) + exp(x2))``, computed stably: ``max + log1p(exp(-|x1 - x2|))``."""
    x1, x2 = _promoted(x1, x2)
    if type(x1) is _EAGER and type(x2) is _EAGER and x1._datatype_enum() in REAL_FLOAT_ENUMS:
        # (the same ops called directly, log(2) cached: TF's operators and tf.where cost ~2x the ops)
        out = _gm.log1p(_gm.exp(_gm.neg(_gm._abs(_gm.sub(x1, x2)))))
        out = _gm.add_v2(_gm.maximum(x1, x2), out)
        return _gm.select_v2(_gm.equal(x1, x2), _gm.add_v2(x1, small_constant(_LOG_TWO, x1.dtype)), out)
    out = _gm.maximum(x1, x2) + _gm.log1p(_gm.exp(-_gm._abs(x1 - x2)))
    # equal arguments (infinities included, where x1 - x2 is NaN): x + log(2)
    return tf.where(tf.equal(x1, x2), x1 + tf.constant(math.log(2.0), x1.dtype), out)


# ---- bitwise functions (booleans as logical operations) --------------------------------


def _bitwise(op, logical, name: str, doc: str):
    def bitwise(x1, x2, /):
        if type(x1) is _EAGER and type(x2) is _EAGER:  # the common case: one integer dtype, TF's op
            enum = x1._datatype_enum()
            if enum == x2._datatype_enum() and enum != _BOOL_ENUM:
                return op(x1, x2)
        if type(x2) is int:
            check_int_operand(x2, x1, name, "x2")
        if type(x1) is int:
            check_int_operand(x1, x2, name, "x1")
        x1, x2 = _promoted(x1, x2)
        return logical(x1, x2) if x1.dtype is tf.bool else op(x1, x2)

    bitwise.__name__ = bitwise.__qualname__ = name
    bitwise.__doc__ = doc
    # the C front calls the op itself for two tensors: where it returns an answer it is the shim's
    # (one integer dtype); bools (no kernel) and mixed dtypes raise, and the shim decides. Not for a
    # Python int, which TF's own conversion may wrap (check_int_operand)
    return native_common_case(op, 2, one_type=True)(bitwise)


_BOOL_ENUM = tf.bool.as_datatype_enum

bitwise_and = _bitwise(_gb.bitwise_and, _gm.logical_and, "bitwise_and", "Bitwise AND (logical AND for bool).")
bitwise_or = _bitwise(_gb.bitwise_or, _gm.logical_or, "bitwise_or", "Bitwise OR (logical OR for bool).")
bitwise_xor = _bitwise(_gb.bitwise_xor, _gm.not_equal, "bitwise_xor", "Bitwise XOR (logical XOR for bool).")


@native_common_case(_gb.invert, 1)  # (TF's Invert has no bool kernel: it raises, and the shim runs)
def bitwise_invert(x, /):
    """Bitwise NOT (logical NOT for bool)."""
    try:
        return _gb.invert(x)
    except OP_DTYPE_ERRORS:
        if x.dtype is tf.bool:
            return _gm.logical_not(x)
        raise


def _shift_bits(x1, x2):
    x1, x2 = _promoted(x1, x2)
    bits = tf.constant(x1.dtype.size * 8, x2.dtype)
    return x1, x2, bits, tf.greater_equal(x2, bits)


def _narrow_shifts(x1, x2) -> bool:
    """Whether ``x1 << x2`` (or ``>>``) is one TF op: tensors of one dtype, every shift narrower than the
    bit width (read in place for eager CPU tensors; unknown elsewhere: False). (The dtype enums and
    NumPy's itemsize: ``x.dtype`` and ``DType.size`` cost ~0.2 us each; ``_core.host_values`` and
    ``host_extreme`` inlined: ~0.3 us less a call.)"""
    if type(x1) is not _EAGER or type(x2) is not _EAGER or x1._datatype_enum() != x2._datatype_enum():
        return False
    if not x2.device.endswith("CPU:0"):
        return False
    values = x2._numpy()  # in place (numpy() would copy)
    if values.size > 64:  # (NumPy's reduction, ~1 us; through a Python list below that: ~0.2 us)
        return values.max() < 8 * values.itemsize
    return values.size == 0 or max(values.ravel().tolist()) < 8 * values.itemsize


def bitwise_left_shift(x1, x2, /):
    """``x1 << x2``; shifts of the bit width or more give 0, as in NumPy (TF leaves them undefined)."""
    if _narrow_shifts(x1, x2):  # the common case: the clamp and the select below change nothing
        return _gb.left_shift(x1, x2)
    x1, x2, bits, overflow = _shift_bits(x1, x2)
    shifted = _gb.left_shift(x1, _gm.minimum(x2, bits - 1))
    return tf.where(overflow, tf.zeros((), x1.dtype), shifted)


def bitwise_right_shift(x1, x2, /):
    """``x1 >> x2`` (arithmetic for signed integers); over-wide shifts give 0 or -1, as in NumPy."""
    if _narrow_shifts(x1, x2):
        return _gb.right_shift(x1, x2)
    x1, x2, bits, overflow = _shift_bits(x1, x2)
    shifted = _gb.right_shift(x1, _gm.minimum(x2, bits - 1))  # sign-fills for signed integers
    if x1.dtype in UNSIGNED:
        return tf.where(overflow, tf.zeros((), x1.dtype), shifted)
    return shifted


# ---- unary shims ----------------------------------------------------------------------


def abs(x, /):
    """``|x|``; real for complex input (its modulus). Unsigned integers and bools are returned as they are."""
    try:
        return _gm._abs(x)
    except OP_DTYPE_ERRORS:  # the op has no complex or unsigned variant
        if x.dtype in COMPLEX:
            return _gm.complex_abs(x, Tout=REAL_OF[x.dtype])
        if x.dtype in UNSIGNED or x.dtype is tf.bool:
            return x
        raise


def negative(x, /):
    """``-x`` (unsigned integers wrap around, as in NumPy)."""
    try:
        return _gm.neg(x)
    except OP_DTYPE_ERRORS:
        if x.dtype in UNSIGNED:
            return _gm.sub(tf.zeros((), x.dtype), x)
        raise


def positive(x, /):
    """``+x``: ``x`` itself (TF tensors are immutable)."""
    return x


def _integral_identity(op, name: str, doc: str):
    # the standard keeps integers unchanged through ceil/floor/trunc/round; TF has float ops only
    def rounded(x, /):
        try:
            return op(x)
        except OP_DTYPE_ERRORS:
            if x.dtype in INTEGER:
                return x
            raise

    rounded.__name__ = rounded.__qualname__ = name
    rounded.__doc__ = doc
    return rounded


ceil = _integral_identity(_gm.ceil, "ceil", "The smallest integer-valued number not less than ``x``.")
floor = _integral_identity(_gm.floor, "floor", "The largest integer-valued number not greater than ``x``.")


def trunc(x, /):
    """``x`` rounded toward zero (integers unchanged)."""
    if x.dtype in INTEGER:
        return x
    return tf.where(x < 0, _gm.ceil(x), _gm.floor(x))


def round(x, /):
    """``x`` rounded to the nearest integer, halves to even; complex parts are rounded separately."""
    if x.dtype in COMPLEX:  # TF's Round has no complex kernel
        return tf.complex(_gm.round(tf.math.real(x)), _gm.round(tf.math.imag(x)))
    if x.dtype in INTEGER:
        return x
    return _gm.round(x)


def sign(x, /):
    """``-1``, ``0`` or ``1`` by the sign of ``x`` (NaN for NaN); ``x / |x|`` for complex ``x`` (0 at 0).

    For complex ``x`` with a NaN or infinite part the result is NaN + NaN j (the standard's
    rule, by its complex division; NumPy's ``sign`` returns 1 for ``inf + 0j``).
    """
    if is_complex(x):
        return _complex_sign(x)
    try:
        return _gm.sign(x)
    except OP_DTYPE_ERRORS:
        if x.dtype in UNSIGNED:  # no unsigned Sign kernel
            return tf.cast(tf.greater(x, 0), x.dtype)
        raise


def _complex_sign(x):
    # the standard's x / |x| (0 at 0), by the complex division above: a NaN or infinite part gives NaN + NaN j
    magnitude = _gm.complex_abs(x, Tout=REAL_OF[x.dtype])
    zero = tf.equal(magnitude, 0)
    safe = tf.where(zero, tf.ones_like(magnitude), magnitude)
    out = _complex_divide(x, tf.complex(safe, tf.zeros_like(safe)))
    return tf.where(zero, tf.zeros((), x.dtype), out)


_INT_OF_WIDTH = {2: tf.int16, 4: tf.int32, 8: tf.int64}


def signbit(x, /):
    """Whether the sign bit of ``x`` is set (True for ``-0.0`` and for negative NaNs)."""
    if x.dtype not in INEXACT:
        return tf.less(x, tf.zeros((), x.dtype))
    return tf.less(tf.bitcast(x, _INT_OF_WIDTH[x.dtype.size]), 0)


def _complex_parts(x):
    return tf.math.real(x), tf.math.imag(x)


def isfinite(x, /):
    """Whether ``x`` is finite (both parts, for complex ``x``); always True for integers."""
    try:
        return _gm.is_finite(x)
    except OP_DTYPE_ERRORS:
        if x.dtype in COMPLEX:
            re, im = _complex_parts(x)
            return _gm.is_finite(re) & _gm.is_finite(im)
        return tf.ones_like(x, dtype=tf.bool)


def isinf(x, /):
    """Whether ``x`` is infinite (either part, for complex ``x``); always False for integers."""
    try:
        return _gm.is_inf(x)
    except OP_DTYPE_ERRORS:
        if x.dtype in COMPLEX:
            re, im = _complex_parts(x)
            return _gm.is_inf(re) | _gm.is_inf(im)
        return tf.zeros_like(x, dtype=tf.bool)


def isnan(x, /):
    """Whether ``x`` is NaN (either part, for complex ``x``); always False for integers."""
    try:
        return _gm.is_nan(x)
    except OP_DTYPE_ERRORS:
        if x.dtype in COMPLEX:
            re, im = _complex_parts(x)
            return _gm.is_nan(re) | _gm.is_nan(im)
        return tf.zeros_like(x, dtype=tf.bool)


_LOG2 = math.log(2.0)
_LOG10 = math.log(10.0)


def log(x, /):
    """Natural logarithm. A complex one is ``log(|x|) + angle(x) j``: TensorFlow's own kernel
    squares the parts, so ``log(1e-200j)`` came out ``nan + pi/2 j``."""
    if not is_complex(x):
        return _gm.log(x)
    return tf.complex(_gm.log(tf.abs(x)), tf.math.angle(x))


def _log_base(x, log_of_base):
    out = log(x)
    if x.dtype in COMPLEX:  # divide the parts: a complex division would turn -inf + 0j into NaNs
        scale = tf.constant(log_of_base, REAL_OF[x.dtype])
        return tf.complex(tf.math.real(out) / scale, tf.math.imag(out) / scale)
    return out / tf.constant(log_of_base, x.dtype)


def log2(x, /):
    """Base-2 logarithm (``log(x) / log(2)``; TensorFlow has no log2 kernel)."""
    return _log_base(x, _LOG2)


def log10(x, /):
    """Base-10 logarithm (``log(x) / log(10)``; TensorFlow has no log10 kernel)."""
    return _log_base(x, _LOG10)


def clip(x, /, min=None, max=None):
    """``x`` limited to ``[min, max]`` (either may be None, a Python scalar or an array).

    The result keeps ``x``'s dtype; NaNs in ``x`` stay NaN.
    """
    out = x
    if min is not None:
        out = _gm.maximum(out, _bound(min, x))
    if max is not None:
        out = _gm.minimum(out, _bound(max, x))
    return out


def _bound(value, x):
    if isinstance(value, (tf.Tensor, tf.Variable)):
        return value if value.dtype is x.dtype else tf.cast(value, x.dtype)
    if x.dtype in INTEGER:  # a bound outside the dtype's range clips nothing on that side
        value = builtins.max(x.dtype.min, builtins.min(x.dtype.max, value))
    return constant(value, x.dtype)


def tanh(x, /):
    """The hyperbolic tangent; ``tanh(+-inf + bj)`` is ``+-1 + 0j``, the zero of ``b``'s sign (finite b)."""
    if not is_complex(x):
        return _gm.tanh(x)
    # TF computes 1 + 0j * sin(2b) there, whose zero takes the sign of sin(2b)
    re, im = tf.math.real(x), tf.math.imag(x)
    limit = tf.complex(_gm.sign(re), copysign(tf.zeros_like(im), im))
    return tf.where(_gm.is_inf(re) & _gm.is_finite(im), limit, _gm.tanh(x))
