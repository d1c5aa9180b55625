"""hd.nn.functional activations on every backend against NumPy written out (scipy's erf for the exact GELU).

Inputs span large negative and positive values (overflow of exp), and zero.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.special import erf

import hedera as hd
from nn_reference import assert_close, to_backend

F = hd.nn.functional

X = np.concatenate([np.linspace(-6.0, 6.0, 25), [-100.0, -30.0, 0.0, 30.0, 100.0]]).reshape(5, 6)
SELU_ALPHA, SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def _softplus(x):
    return np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))


def _sigmoid(x):
    return 0.5 * (1 + np.tanh(x / 2))


def _softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


REFERENCES = {
    "relu": (F.relu, lambda x: np.where(x > 0, x, 0.0)),
    "leaky_relu": (F.leaky_relu, lambda x: np.where(x >= 0, x, 0.01 * x)),
    "leaky_relu_0.2": (lambda x: F.leaky_relu(x, 0.2), lambda x: np.where(x >= 0, x, 0.2 * x)),
    "elu": (F.elu, lambda x: np.where(x > 0, x, np.expm1(np.minimum(x, 0)))),
    "elu_0.5": (lambda x: F.elu(x, 0.5), lambda x: np.where(x > 0, x, 0.5 * np.expm1(np.minimum(x, 0)))),
    "selu": (F.selu, lambda x: SELU_SCALE * np.where(x > 0, x, SELU_ALPHA * np.expm1(np.minimum(x, 0)))),
    "gelu": (F.gelu, lambda x: 0.5 * x * (1 + erf(x / math.sqrt(2)))),
    "gelu_tanh": (
        lambda x: F.gelu(x, approximate=True),
        lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3))),
    ),
    "gelu_tanh_str": (
        lambda x: F.gelu(x, approximate="tanh"),
        lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3))),
    ),
    "silu": (F.silu, lambda x: x * _sigmoid(x)),
    "mish": (F.mish, lambda x: x * np.tanh(_softplus(x))),
    "softplus": (F.softplus, _softplus),
    "sigmoid": (F.sigmoid, _sigmoid),
    "log_sigmoid": (F.log_sigmoid, lambda x: -_softplus(-x)),
    "tanh": (F.tanh, np.tanh),
    "hard_sigmoid": (F.hard_sigmoid, lambda x: np.clip(x + 3, 0, 6) / 6),
    "hard_swish": (F.hard_swish, lambda x: x * np.clip(x + 3, 0, 6) / 6),
    "softmax": (F.softmax, lambda x: _softmax(x, -1)),
    "softmax_axis0": (lambda x: F.softmax(x, axis=0), lambda x: _softmax(x, 0)),
    "log_softmax": (F.log_softmax, lambda x: np.log(_softmax(x, -1))),
    "log_softmax_axis0": (
        lambda x: F.log_softmax(x, axis=0),
        lambda x: x - x.max(0) - np.log(np.exp(x - x.max(0)).sum(0)),
    ),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_activation_matches_numpy(backend, name, dtype):
    fn, reference = REFERENCES[name]
    x = X.astype(dtype)
    y = fn(to_backend(x, backend))
    assert hd.backend_of(y) == backend
    assert hd.dtype(y) == getattr(hd, dtype)
    expected = reference(x.astype(np.float64))
    if name == "log_softmax_axis0" or name == "log_softmax":
        expected = np.maximum(expected, -1e300)  # log(0) of the NumPy reference
    tol = dict(rtol=2e-6, atol=2e-6) if dtype == "float32" else dict(rtol=1e-12, atol=1e-12)
    got = hd.to_numpy(y)
    assert np.all(np.isfinite(got))
    np.testing.assert_allclose(got, expected, **tol)


@pytest.mark.parametrize("name", sorted(F.ACTIVATIONS))
def test_get_activation_names(backend, name):
    fn = F.get_activation(name)
    x = to_backend(X[:2], backend, "float64")
    assert hd.to_numpy(fn(x)).shape == X[:2].shape


def test_get_activation_passes_callables_and_none():
    assert F.get_activation(F.relu) is F.relu
    x = np.array([1.0, -2.0])
    assert F.get_activation(None)(x) is x


def test_log_softmax_extremes(backend):
    x = to_backend(np.array([[0.0, -1000.0, 1000.0]]), backend, "float64")
    assert_close(F.log_softmax(x), np.array([[-1000.0, -2000.0, 0.0]]))
    assert_close(F.softmax(x), np.array([[0.0, 0.0, 1.0]]))
