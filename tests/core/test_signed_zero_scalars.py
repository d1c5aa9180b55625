"""Python scalar zeros keep their sign on the way into every backend (pins TensorFlow's ``-0.0`` case).

TensorFlow's eager runtime caches the tensors it makes from Python scalars, keyed by the
value: ``0.0 == -0.0``, so after ``tf.constant(0.0)`` a ``-0.0`` comes back as ``+0.0`` (and
the other way round when ``-0.0`` came first). Each test below first converts *both* zeros
with TensorFlow itself, so its cache holds one of them whatever ran before; a hedera path
that went through that cache would then give one of the two signs wrong.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import hedera as hd
from harness import unsupported_dtypes

FLOATS = ("float16", "bfloat16", "float32", "float64")
COMPLEX = ("complex64", "complex128")


def _fill_tf_scalar_cache(backend: str) -> None:
    """Let TensorFlow cache a zero of every inexact dtype (when testing it), as user code may have done."""
    if backend != "tensorflow":
        return
    import tensorflow as tf

    for name in FLOATS + COMPLEX:
        for zero in (0.0, -0.0, 0j, complex(-0.0, 1.0), complex(1.0, -0.0)):
            try:
                tf.constant(zero, getattr(tf, name))
            except TypeError:  # complex values for real dtypes
                pass


def _lacks(backend: str, dtype: str) -> bool:
    """Whether ``backend`` lacks ``dtype`` (NumPy has no bfloat16); it must then say so, not convert."""
    if dtype not in unsupported_dtypes(backend):
        return False
    with pytest.raises(hd.UnsupportedDtypeError):
        hd.asarray(-0.0, dtype=dtype, backend=backend)
    return True


def _value(out) -> complex:
    return complex(np.asarray(hd.to_numpy(out), dtype=np.complex128).reshape(-1)[0])


def _sign(v: float) -> float:
    return math.copysign(1.0, v)


def _paths(z: float, dtype: str, backend: str):
    """(description, result, expected) for each way a Python zero ``z`` reaches an array."""
    with hd.use_backend(backend):
        ones = hd.ones((2,), dtype=dtype)
        minus_one = hd.full((2,), -1.0, dtype=dtype)
        yield "asarray(z, dtype)", hd.asarray(z, dtype=dtype), z
        yield "full(shape, z)", hd.full((2,), z, dtype=dtype), z
        yield "full_like(x, z)", hd.full_like(ones, z), z
        yield "multiply(x, z)", hd.multiply(ones, z), z
        yield "multiply(z, x)", hd.multiply(z, ones), z
        yield "copysign(x, z)", hd.copysign(ones, z), _sign(z)
        yield "maximum(-1, z)", hd.maximum(minus_one, z), z
        yield "divide(x, z)", hd.divide(ones, z), math.copysign(math.inf, z)
        yield "divide(1.0, z array)", hd.divide(1.0, hd.asarray(z, dtype=dtype)), math.copysign(math.inf, z)
        yield "atan2(z, -1)", hd.atan2(z, minus_one), math.copysign(math.pi, z)
        yield "where(True, z, x)", hd.where(hd.asarray([True, True]), z, ones), z
        yield "clip(-1, min=z)", hd.clip(minus_one, z, 1.0), z
        yield "at(x)[0].set(z)", hd.at(ones)[0].set(z), z
        yield "pad(x, constant_values=z)", hd.pad(ones, 1, constant_values=z), z


@pytest.mark.parametrize("dtype", FLOATS)
def test_real_zero_scalars_keep_their_sign(backend: str, dtype: str) -> None:
    if _lacks(backend, dtype):
        return
    _fill_tf_scalar_cache(backend)
    wrong = []
    for z in (0.0, -0.0, 0.0):  # each zero after the other
        for what, out, want in _paths(z, dtype, backend):
            got = _value(out).real
            close = got == want or (math.isclose(got, want, rel_tol=1e-2) and _sign(got) == _sign(want))
            if not (close and _sign(got) == _sign(want)):
                wrong.append(f"{what} with z={z!r}: {got!r}, expected {want!r}")
    assert not wrong, f"{backend} {dtype}:\n" + "\n".join(wrong)


@pytest.mark.parametrize("dtype", COMPLEX)
def test_complex_scalars_with_zero_parts_keep_their_signs(backend: str, dtype: str) -> None:
    if _lacks(backend, dtype):
        return
    _fill_tf_scalar_cache(backend)
    wrong = []
    for z in (
        complex(0.0, 1.0),
        complex(-0.0, 1.0),
        complex(1.0, 0.0),
        complex(1.0, -0.0),
        complex(-0.0, -0.0),
        0j,
    ):
        with hd.use_backend(backend):
            ones, zeros = hd.ones((2,), dtype=dtype), hd.zeros((2,), dtype=dtype)
            outs = {
                "asarray": hd.asarray(z, dtype=dtype),
                "full": hd.full((2,), z, dtype=dtype),
                "subtract(z, 0j)": hd.subtract(z, zeros),  # z - (0 + 0j) is z, signs of zero included
                "where": hd.where(hd.asarray([True, True]), z, ones),
            }
        for what, out in outs.items():
            got = _value(out)
            if (_sign(got.real), _sign(got.imag)) != (_sign(z.real), _sign(z.imag)) or got != z:
                wrong.append(f"{what}({z!r}): {got!r}")
    assert not wrong, f"{backend} {dtype}:\n" + "\n".join(wrong)


def test_tensorflow_default_dtype_zero_after_positive_zero() -> None:
    """The issue's case: ``hd.asarray(-0.0)`` after ``+0.0`` was used once, in the default float32."""
    pytest.importorskip("tensorflow")  # the backend fixture's rule: CI requires it (HEDERA_REQUIRE_BACKENDS)
    import tensorflow as tf

    tf.constant(0.0)
    hd.asarray(0.0, backend="tensorflow")
    out = hd.asarray(-0.0, backend="tensorflow")
    assert np.signbit(hd.to_numpy(out)), "hd.asarray(-0.0) on TensorFlow is +0.0"
    one = hd.asarray(1.0, backend="tensorflow")
    assert float(hd.to_numpy(hd.divide(one, -0.0))) == -math.inf
    angle = float(hd.to_numpy(hd.atan2(hd.asarray(-0.0, backend="tensorflow"), -1.0)))
    assert math.isclose(angle, -math.pi, rel_tol=1e-6), angle
