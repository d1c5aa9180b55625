"""Element-wise functions (jax backend).

``jax.numpy`` implements the standard's element-wise functions (JAX >= 0.4.32),
so most are aliases. Binary functions that ``jax.numpy`` exposes as
``jnp.ufunc`` objects are aliased to the jitted kernel behind the object: the
object's ``__call__`` only rejects the ``out=``/``where=`` arguments the
standard does not have, and costs about 1.5 µs per call.

Complex special values. XLA's complex kernels miss many of the standard's
special cases (C99 Annex G): infinities and NaNs (``sinh(0+infj)`` gives
``nan+nanj``, not ``0+nanj``), and the sign of zero on branch cuts
(``sqrt(-1-0j)`` gives ``+1j``, not ``-1j``). The functions concerned are
:func:`_complex_aware` wrappers: real input runs ``jax.numpy``'s function
unchanged; complex input is folded into the first quadrant by the function's
symmetries (conjugation, and oddness or evenness), where JAX is right for
finite values, the standard's special values are patched in with ``where``,
and the result is unfolded. The choice between the two paths is made while
tracing (the wrapper is ``jax.jit(..., inline=True)``, as ``jax.numpy``'s own
functions are), so it costs nothing per call and inlines under an outer jit.
"""

from __future__ import annotations

import functools
import math

import jax
import jax.numpy as jnp

from ..._api import names_in

__all__ = names_in("elementwise")  # the API table's elementwise rows


def _kernel(fn):
    """The jitted function behind a ``jnp.ufunc`` object (``fn`` itself for plain functions).

    Falls back to ``fn`` if a JAX version stores it elsewhere, so this is only ever a speed-up.
    """
    props = getattr(fn, "_ufunc__static_props", None)
    call = props.get("call") if isinstance(props, dict) else None
    return fn if call is None else call


add = _kernel(jnp.add)
atan2 = jnp.atan2
bitwise_and = _kernel(jnp.bitwise_and)
bitwise_left_shift = jnp.bitwise_left_shift
bitwise_invert = jnp.bitwise_invert
bitwise_or = _kernel(jnp.bitwise_or)
bitwise_right_shift = jnp.bitwise_right_shift
bitwise_xor = _kernel(jnp.bitwise_xor)
ceil = jnp.ceil
conj = jnp.conj
copysign = jnp.copysign
equal = jnp.equal
floor = jnp.floor
greater = jnp.greater
greater_equal = jnp.greater_equal
hypot = jnp.hypot
imag = jnp.imag
isfinite = jnp.isfinite
isinf = jnp.isinf
isnan = jnp.isnan
less = jnp.less
less_equal = jnp.less_equal
logaddexp = _kernel(jnp.logaddexp)
logical_and = _kernel(jnp.logical_and)
logical_not = jnp.logical_not
logical_or = _kernel(jnp.logical_or)
logical_xor = _kernel(jnp.logical_xor)
maximum = _kernel(jnp.maximum)
minimum = _kernel(jnp.minimum)
multiply = _kernel(jnp.multiply)
negative = _kernel(jnp.negative)
nextafter = jnp.nextafter
not_equal = jnp.not_equal
positive = jnp.positive
real = jnp.real
round = jnp.round
signbit = jnp.signbit
square = jnp.square
subtract = _kernel(jnp.subtract)
trunc = jnp.trunc


@functools.partial(jax.jit, inline=True)
def clip(x, /, min=None, max=None):
    """``jnp.clip`` with the result in ``x``'s dtype, also where a bound is an array of a wider dtype
    (``jnp.clip`` promotes: int8 ``x`` with an int16 bound gives int16).

    Jitted like ``jnp.clip`` itself, so that it takes its arguments as ``jnp.clip`` does (Python
    scalar bounds as weakly typed values) and the dtype test runs once per trace, not per call: an
    eager ``out.dtype == x.dtype`` cost ~250 ns of a ~3.5 us call (two ``ArrayImpl.dtype``
    properties and a NumPy dtype comparison), and a Python shim's frame more.
    """
    out = jnp.clip(x, min, max)
    return out if out.dtype == x.dtype else out.astype(x.dtype)


# ---- complex special values -------------------------------------------------------------------


def _complex_aware(real_fn, complex_fn, name):
    """``real_fn`` for real input, ``complex_fn`` for complex input, chosen while tracing."""

    def fn(x, /):
        return complex_fn(x) if jnp.iscomplexobj(x) else real_fn(x)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``jax.numpy.{real_fn.__name__}``, with the standard's complex special values."
    return jax.jit(fn, inline=True)


_NAN = math.nan
_INF = math.inf


def _parts(z):
    return jnp.real(z), jnp.imag(z)


def _complex(re, im):
    return jax.lax.complex(re, im)


def _flip(cond, v):
    return jnp.where(cond, -v, v)


def _patch(re, im, cases):
    """Replace ``(re, im)`` by ``(r, i)`` where ``cond``, for each ``(cond, r, i)`` in ``cases``."""
    for cond, r, i in cases:
        re = jnp.where(cond, jnp.asarray(r, re.dtype), re)
        im = jnp.where(cond, jnp.asarray(i, im.dtype), im)
    return re, im


def _folded(fn, parity, patches=None):
    """The complex ``fn`` evaluated through its symmetries (see the module docstring).

    ``parity`` is ``"odd"`` (f(-z) = -f(z)), ``"even"`` or ``None``; every function here also
    has f(conj z) = conj f(z). ``patches(a, b)`` gives the special cases for a first-quadrant
    argument ``a + bj`` (``a`` is the real part unchanged when ``parity`` is None).
    """

    def complex_fn(z):
        re, im = _parts(z)
        a = re if parity is None else jnp.abs(re)
        b = jnp.abs(im)
        wr, wi = _parts(fn(_complex(a, b)))
        if patches is not None:
            wr, wi = _patch(wr, wi, patches(a, b))
        neg_re, neg_im = jnp.signbit(re), jnp.signbit(im)
        if parity == "odd":
            return _complex(_flip(neg_re, wr), _flip(neg_im, wi))
        if parity == "even":
            return _complex(wr, _flip(neg_re != neg_im, wi))
        return _complex(wr, _flip(neg_im, wi))

    return complex_fn


def _times_i(z):  # i z, exactly
    re, im = _parts(z)
    return _complex(-im, re)


def _times_minus_i(z):  # -i z, exactly
    re, im = _parts(z)
    return _complex(im, -re)


def _sinh_patches(a, b):
    nan_or_inf_b = jnp.isnan(b) | jnp.isinf(b)
    return [(a == 0) & nan_or_inf_b, 0.0, _NAN], [jnp.isinf(a) & nan_or_inf_b, _INF, _NAN]


def _cosh_patches(a, b):
    nan_or_inf_b = jnp.isnan(b) | jnp.isinf(b)
    return [(a == 0) & nan_or_inf_b, _NAN, 0.0], [jnp.isinf(a) & nan_or_inf_b, _INF, _NAN]


def _tanh_patches(a, b):
    # tanh(inf + bj) is 1 + 0j for finite b (XLA: 1 + 0j * sin(2b), whose zero takes sin's sign)
    return [((a == 0) & (jnp.isnan(b) | jnp.isinf(b)), 0.0, _NAN), (jnp.isinf(a) & jnp.isfinite(b), 1.0, 0.0)]


def _asinh_patches(a, b):
    nan_a = jnp.isnan(a)
    return [(nan_a & (b == 0), _NAN, 0.0), (nan_a & jnp.isfinite(b) & (b != 0), _NAN, _NAN)]


def _atanh_patches(a, b):
    nan_b = jnp.isnan(b)
    return [
        (nan_b & ((a == 0) | jnp.isinf(a)), 0.0, _NAN),
        (nan_b & (a != 0) & ~jnp.isinf(a), _NAN, _NAN),
        (jnp.isnan(a) & ~jnp.isinf(b), _NAN, _NAN),
    ]


def _acos_patches(a, b):
    nan_b = jnp.isnan(b)
    return [((a == 0) & nan_b, math.pi / 2, _NAN), (nan_b & jnp.isfinite(a) & (a != 0), _NAN, _NAN)]


def _acosh_patches(a, b):
    nan_b = jnp.isnan(b)
    return [((a == 0) & nan_b, _NAN, math.pi / 2), (nan_b & jnp.isfinite(a) & (a != 0), _NAN, _NAN)]


def _exp_patches(a, b):
    nan_or_inf_b = jnp.isnan(b) | jnp.isinf(b)
    return [((a == _INF) & nan_or_inf_b, _INF, _NAN), ((a == -_INF) & nan_or_inf_b, 0.0, 0.0)]


def _expm1_patches(a, b):
    nan_or_inf_b = jnp.isnan(b) | jnp.isinf(b)
    return [((a == _INF) & nan_or_inf_b, _INF, _NAN), ((a == -_INF) & nan_or_inf_b, -1.0, 0.0)]


def _sqrt_patches(a, b):
    nan_b = jnp.isnan(b)
    return [((a == _INF) & nan_b, _INF, _NAN), ((a == -_INF) & nan_b, _NAN, _INF), (jnp.isinf(b), _INF, _INF)]


def _log_patches(a, b):
    return [((jnp.isinf(a) & jnp.isnan(b)) | (jnp.isnan(a) & jnp.isinf(b)), _INF, _NAN)]


def _unsigned_inf(fn, part):
    """``fn`` with the infinity the standard leaves unsigned made +inf in ``part`` (0 real, 1 imag), as NumPy.

    That is where the argument's real and imaginary parts are both non-finite with an infinite
    real (``sinh``) or imaginary (``sin``) part.
    """

    def complex_fn(z):
        re, im = _parts(z)
        out = list(_parts(fn(z)))
        inf_part, other = (re, im) if part == 0 else (im, re)
        where = jnp.isinf(inf_part) & ~jnp.isfinite(other)
        out[part] = jnp.where(where, jnp.asarray(_INF, out[part].dtype), out[part])
        return _complex(*out)

    return complex_fn


_sinh_c = _unsigned_inf(_folded(jnp.sinh, "odd", _sinh_patches), 0)
_cosh_c = _folded(jnp.cosh, "even", _cosh_patches)
_tanh_c = _folded(jnp.tanh, "odd", _tanh_patches)
_asinh_c = _folded(jnp.asinh, "odd", _asinh_patches)


def _atanh_kernel(z):
    # near z = 1, XLA's real part overflows to inf ((1 - a)**2 + b**2 underflows); the log of the
    # ratio of distances to -1 and 1 does not (used only there: it cancels badly elsewhere)
    a, b = _parts(z)
    wr, wi = _parts(jnp.atanh(z))
    overflowed = jnp.isinf(wr) & jnp.isfinite(a) & jnp.isfinite(b) & (b != 0)
    distances = 0.5 * (jnp.log(jnp.hypot(1 + a, b)) - jnp.log(jnp.hypot(1 - a, b)))
    return _complex(jnp.where(overflowed, distances, wr), wi)


_atanh_c = _folded(_atanh_kernel, "odd", _atanh_patches)

sinh = _complex_aware(jnp.sinh, _sinh_c, "sinh")
cosh = _complex_aware(jnp.cosh, _cosh_c, "cosh")
tanh = _complex_aware(jnp.tanh, _tanh_c, "tanh")
asinh = _complex_aware(jnp.asinh, _asinh_c, "asinh")
atanh = _complex_aware(jnp.atanh, _atanh_c, "atanh")
# the standard defines these through the hyperbolic functions: sin(z) = -i sinh(iz), cos(z) = cosh(iz)
sin = _complex_aware(jnp.sin, _unsigned_inf(lambda z: _times_minus_i(_sinh_c(_times_i(z))), 1), "sin")
cos = _complex_aware(jnp.cos, lambda z: _cosh_c(_times_i(z)), "cos")
tan = _complex_aware(jnp.tan, lambda z: _times_minus_i(_tanh_c(_times_i(z))), "tan")
asin = _complex_aware(jnp.asin, lambda z: _times_minus_i(_asinh_c(_times_i(z))), "asin")
atan = _complex_aware(jnp.atan, lambda z: _times_minus_i(_atanh_c(_times_i(z))), "atan")
acos = _complex_aware(jnp.acos, _folded(jnp.acos, None, _acos_patches), "acos")
acosh = _complex_aware(jnp.acosh, _folded(jnp.acosh, None, _acosh_patches), "acosh")
exp = _complex_aware(jnp.exp, _folded(jnp.exp, None, _exp_patches), "exp")
expm1 = _complex_aware(jnp.expm1, _folded(jnp.expm1, None, _expm1_patches), "expm1")
sqrt = _complex_aware(jnp.sqrt, _folded(jnp.sqrt, None, _sqrt_patches), "sqrt")
log = _complex_aware(jnp.log, _folded(jnp.log, None, _log_patches), "log")
log1p = _complex_aware(jnp.log1p, _folded(jnp.log1p, None, _log_patches), "log1p")
log2 = _complex_aware(jnp.log2, _folded(jnp.log2, None, _log_patches), "log2")
log10 = _complex_aware(jnp.log10, _folded(jnp.log10, None, _log_patches), "log10")


def _abs_c(z):
    re, im = _parts(z)
    return jnp.where(jnp.isinf(re) | jnp.isinf(im), jnp.asarray(_INF, re.dtype), jnp.abs(z))


abs = _complex_aware(jnp.abs, _abs_c, "abs")  # |inf + nan j| is inf


def _reciprocal_c(z):
    # 1 / z by Smith's algorithm, as NumPy (XLA's differs at zero and infinities)
    re, im = _parts(z)
    small_im = jnp.abs(im) <= jnp.abs(re)
    r = jnp.where(small_im, im / re, re / im)
    d = jnp.where(small_im, re + im * r, re * r + im)
    return _complex(jnp.where(small_im, 1 / d, r / d), jnp.where(small_im, -r / d, -1 / d))


reciprocal = _complex_aware(jnp.reciprocal, _reciprocal_c, "reciprocal")


def _sign_c(z):
    # the standard: x / |x| with complex division's special cases, so any infinite part gives NaN
    re, im = _parts(z)
    special = jnp.isinf(re) | jnp.isinf(im)
    return jnp.where(special, jnp.asarray(complex(_NAN, _NAN), z.dtype), jnp.sign(z))


sign = _complex_aware(jnp.sign, _sign_c, "sign")


def _divide(x1, x2, /):
    dtype = jnp.result_type(x1, x2)
    if dtype.kind != "c":
        return jnp.divide(x1, x2)
    # complex division by Smith's algorithm, as NumPy: XLA's gives other special values
    a_re, a_im = _parts(jnp.asarray(x1).astype(dtype))
    b_re, b_im = _parts(jnp.asarray(x2).astype(dtype))
    abs_re, abs_im = jnp.abs(b_re), jnp.abs(b_im)
    real_major = abs_re >= abs_im
    zero = (abs_re == 0) & (abs_im == 0)
    rat = jnp.where(real_major, b_im / b_re, b_re / b_im)
    scl = 1 / jnp.where(real_major, b_re + b_im * rat, b_im + b_re * rat)
    out_re = jnp.where(real_major, (a_re + a_im * rat) * scl, (a_re * rat + a_im) * scl)
    out_im = jnp.where(real_major, (a_im - a_re * rat) * scl, (a_im * rat - a_re) * scl)
    # dividing by zero gives a complex infinity or NaN, part by part
    out_re = jnp.where(zero, a_re / abs_re, out_re)
    out_im = jnp.where(zero, a_im / abs_re, out_im)
    return _complex(out_re, out_im)


divide = jax.jit(_divide, inline=True)


def _pow(x1, x2, /):
    out = jnp.pow(x1, x2)
    dtype = jnp.result_type(x1, x2)
    if dtype.kind != "c":
        return out
    # a zero base gives 0 where real(x2) > 0 and NaN elsewhere (x2 == 0 gives 1), as NumPy and
    # exp(x2 * log(0)) do; XLA gives NaN for every exponent with a nonzero imaginary part
    a, b = jnp.asarray(x1).astype(dtype), jnp.asarray(x2).astype(dtype)
    at_zero = jnp.where(jnp.real(b) > 0, jnp.zeros((), dtype), jnp.asarray(complex(_NAN, _NAN), dtype))
    return jnp.where((a == 0) & (b != 0), at_zero, out)


pow = jax.jit(_pow, inline=True)


# ---- floor_divide and remainder: the standard's special cases ----------------------------------


def _floor_divide(x1, x2, /):
    out = jnp.floor_divide(x1, x2)
    if out.dtype.kind != "f":
        return out
    # where x1 / x2 is zero or not finite (a zero, infinite or NaN operand) it is the standard's
    # result: XLA gives floor_divide(-0.0, 1.0) = +0 and NaN for inf // 2; a zero
    # floor of a positive quotient is +0 (XLA: floor_divide(-1.0, -2.0) is -0)
    quotient = jnp.divide(x1, x2).astype(out.dtype)
    out = jnp.where(out == 0, jnp.zeros_like(out), out)
    return jnp.where(jnp.isfinite(quotient) & (quotient != 0), out, quotient)


def _remainder(x1, x2, /):
    out = jnp.remainder(x1, x2)
    # the result has x2's sign, zeros included (XLA gives remainder(-0.0, 1.0) = -0)
    return jnp.copysign(out, x2) if out.dtype.kind == "f" else out


floor_divide = jax.jit(_floor_divide, inline=True)
remainder = jax.jit(_remainder, inline=True)
