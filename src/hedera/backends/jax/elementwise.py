"""Element-wise functions (jax backend).

``jax.numpy`` implements the standard's element-wise functions (JAX >= 0.4.32),
so nearly all are aliases. Binary functions that ``jax.numpy`` exposes as
``jnp.ufunc`` objects are aliased to the jitted kernel behind the object: the
object's ``__call__`` only rejects the ``out=``/``where=`` arguments the
standard does not have, and costs about 1.5 µs per call.
"""

from __future__ import annotations

import jax.numpy as jnp

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


def _kernel(fn):
    """The jitted function behind a ``jnp.ufunc`` object (``fn`` itself for plain functions).

    Falls back to ``fn`` if a JAX version stores it elsewhere, so this is only ever a speed-up.
    """
    props = getattr(fn, "_ufunc__static_props", None)
    call = props.get("call") if isinstance(props, dict) else None
    return fn if call is None else call


abs = jnp.abs
acos = jnp.acos
acosh = jnp.acosh
add = _kernel(jnp.add)
asin = jnp.asin
asinh = jnp.asinh
atan = jnp.atan
atan2 = jnp.atan2
atanh = jnp.atanh
bitwise_and = _kernel(jnp.bitwise_and)
bitwise_left_shift = jnp.bitwise_left_shift
bitwise_invert = jnp.bitwise_invert
bitwise_or = _kernel(jnp.bitwise_or)
bitwise_right_shift = jnp.bitwise_right_shift
bitwise_xor = _kernel(jnp.bitwise_xor)
ceil = jnp.ceil
conj = jnp.conj
copysign = jnp.copysign
cos = jnp.cos
cosh = jnp.cosh
divide = jnp.divide
equal = jnp.equal
exp = jnp.exp
expm1 = jnp.expm1
floor = jnp.floor
floor_divide = jnp.floor_divide
greater = jnp.greater
greater_equal = jnp.greater_equal
hypot = jnp.hypot
imag = jnp.imag
isfinite = jnp.isfinite
isinf = jnp.isinf
isnan = jnp.isnan
less = jnp.less
less_equal = jnp.less_equal
log = jnp.log
log1p = jnp.log1p
log2 = jnp.log2
log10 = jnp.log10
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
pow = jnp.pow
real = jnp.real
reciprocal = jnp.reciprocal
remainder = jnp.remainder
round = jnp.round
sign = jnp.sign
signbit = jnp.signbit
sin = jnp.sin
sinh = jnp.sinh
square = jnp.square
sqrt = jnp.sqrt
subtract = _kernel(jnp.subtract)
tan = jnp.tan
tanh = jnp.tanh
trunc = jnp.trunc


def clip(x, /, min=None, max=None):
    # the result keeps x's dtype even when a bound is an array of a wider dtype (JAX promotes)
    out = jnp.clip(x, min, max)
    return out if out.dtype == x.dtype else out.astype(x.dtype)
