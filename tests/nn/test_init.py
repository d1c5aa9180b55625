"""hd.nn.init: fans and gains against PyTorch's, distribution statistics against the definitions
(scipy.stats for the truncated normal), orthogonality, and bit-identical draws on every backend.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.stats
import torch

import hedera as hd
from hedera.nn import init

N = 200_000  # draws for the statistics: the sample mean's standard error is ~0.2% of the scale


def torch_fans(shape_torch):
    return torch.nn.init._calculate_fan_in_and_fan_out(torch.empty(shape_torch))


@pytest.mark.parametrize(
    ("hedera_shape", "torch_shape"),
    [
        ((7, 5), (5, 7)),  # linear (in, out) vs torch (out, in)
        ((3, 3, 4, 8), (8, 4, 3, 3)),  # conv2d (kh, kw, in, out) vs (out, in, kh, kw)
        ((2, 3, 5, 2, 6), (6, 2, 2, 3, 5)),  # conv3d
        ((4, 6, 9), (9, 6, 4)),  # conv1d
    ],
)
def test_fans_match_pytorch_for_the_same_layer(hedera_shape, torch_shape):
    assert init.fans(hedera_shape) == torch_fans(torch_shape)


def test_fans_of_transposed_convolutions_match_pytorch():
    # hedera (kh, kw, out // groups, in) vs torch ConvTranspose2d weight (in, out // groups, kh, kw)
    assert init.fans((3, 2, 6, 4)) == torch_fans((4, 6, 3, 2))


def test_fans_of_small_shapes():
    assert init.fans(()) == (1, 1)
    assert init.fans((7,)) == (7, 7)


@pytest.mark.parametrize(
    ("name", "param"), [("linear", None), ("relu", None), ("tanh", None), ("leaky_relu", None),
                        ("leaky_relu", 0.2), ("selu", None), ("sigmoid", None), ("conv2d", None)],
)  # fmt: skip
def test_gains_match_pytorch(name, param):
    assert init.calculate_gain(name, param) == pytest.approx(torch.nn.init.calculate_gain(name, param))


def test_unknown_gain_and_mode():
    with pytest.raises(hd.InvalidArgumentError, match="unknown nonlinearity 'swoosh'"):
        init.calculate_gain("swoosh")
    with pytest.raises(hd.InvalidArgumentError, match="mode must be"):
        init.kaiming_uniform((3, 3), mode="fan_sideways", backend="numpy")


def draw(fn, shape, **kw):
    return hd.to_numpy(fn(shape, key=0, backend="numpy", **kw)).astype(np.float64)


def test_constants(backend):
    for fn, value in ((init.zeros, 0.0), (init.ones, 1.0)):
        a = fn((2, 3), backend=backend)
        assert hd.backend_of(a) == backend and hd.dtype(a) == hd.float32
        np.testing.assert_array_equal(hd.to_numpy(a), value)
    c = init.constant((4,), 2.5, dtype=hd.float64, backend=backend)
    assert hd.dtype(c) == hd.float64
    np.testing.assert_array_equal(hd.to_numpy(c), 2.5)


def test_uniform_and_normal_statistics():
    u = draw(init.uniform, (N,), low=-2.0, high=3.0)
    assert u.min() >= -2.0 and u.max() < 3.0
    assert u.mean() == pytest.approx(0.5, abs=0.02) and u.var() == pytest.approx(25 / 12, rel=0.02)
    n = draw(init.normal, (N,), mean=1.0, std=2.0)
    assert n.mean() == pytest.approx(1.0, abs=0.02) and n.std() == pytest.approx(2.0, rel=0.01)


def test_truncated_normal_statistics():
    t = draw(init.truncated_normal, (N,), mean=1.0, std=2.0)
    assert t.min() >= -3.0 and t.max() <= 5.0
    ref = scipy.stats.truncnorm(-2, 2, loc=1.0, scale=2.0)
    assert t.mean() == pytest.approx(ref.mean(), abs=0.02)
    assert t.std() == pytest.approx(ref.std(), rel=0.01)  # about 0.88 * 2


@pytest.mark.parametrize("shape", [(300, 500), (5, 5, 40, 60)])
def test_glorot_statistics(shape):
    fan_in, fan_out = init.fans(shape)
    bound = math.sqrt(6 / (fan_in + fan_out))
    u = draw(init.glorot_uniform, shape)
    assert np.abs(u).max() <= bound and np.abs(u).max() > 0.99 * bound
    assert u.std() == pytest.approx(bound / math.sqrt(3), rel=0.01)
    n = draw(init.glorot_normal, shape, gain=2.0)
    assert n.std() == pytest.approx(2.0 * math.sqrt(2 / (fan_in + fan_out)), rel=0.01)


@pytest.mark.parametrize("mode", ["fan_in", "fan_out"])
def test_kaiming_statistics(mode):
    shape = (3, 3, 64, 128)
    fan = init.fans(shape)[0 if mode == "fan_in" else 1]
    u = draw(init.kaiming_uniform, shape, mode=mode, nonlinearity="relu")
    bound = math.sqrt(2) * math.sqrt(3 / fan)
    assert np.abs(u).max() <= bound and u.std() == pytest.approx(bound / math.sqrt(3), rel=0.01)
    n = draw(init.kaiming_normal, shape, mode=mode, a=0.1)
    gain = math.sqrt(2 / (1 + 0.1**2))
    assert n.std() == pytest.approx(gain / math.sqrt(fan), rel=0.01)


def test_pytorch_default_linear_bound():
    # kaiming_uniform(a=sqrt(5)) is U(-1/sqrt(fan_in), 1/sqrt(fan_in)): torch.nn.Linear's default
    u = draw(init.kaiming_uniform, (400, 300), a=math.sqrt(5))
    layer = torch.nn.Linear(400, 300)
    bound = 1 / math.sqrt(400)
    assert np.abs(u).max() <= bound and layer.weight.abs().max().item() <= bound
    assert u.std() == pytest.approx(layer.weight.std().item(), rel=0.02)


@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (3, 3, 2, 5), (2, 12)])
def test_orthogonal(shape):
    q = draw(init.orthogonal, shape, gain=1.5).reshape(-1, shape[-1])
    rows, cols = q.shape
    product = q.T @ q if rows >= cols else q @ q.T
    np.testing.assert_allclose(product, 1.5**2 * np.eye(min(rows, cols)), atol=1e-5)


def test_orthogonal_needs_two_dimensions():
    with pytest.raises(hd.ShapeError, match="at least 2 dimensions"):
        init.orthogonal((5,), backend="numpy")


RANDOM = [
    (init.uniform, {}),
    (init.normal, {}),
    (init.truncated_normal, {}),
    (init.glorot_uniform, {}),
    (init.glorot_normal, {}),
    (init.kaiming_uniform, {}),
    (init.kaiming_normal, {}),
    (init.orthogonal, {}),
]


@pytest.mark.parametrize(("fn", "kw"), RANDOM, ids=[f.__name__ for f, _ in RANDOM])
def test_same_key_same_numbers_on_every_backend(fn, kw, backend):
    ref = hd.to_numpy(fn((4, 5), key=11, backend="numpy", **kw))
    got = fn((4, 5), key=11, backend=backend, **kw)
    assert hd.backend_of(got) == backend and hd.dtype(got) == hd.float32
    np.testing.assert_array_equal(hd.to_numpy(got), ref)
    other = hd.to_numpy(fn((4, 5), key=12, backend=backend, **kw))
    assert not np.array_equal(other, ref)


def test_keys_of_every_kind_and_the_stateful_generator(backend):
    by_int = hd.to_numpy(init.normal((6,), key=5, backend="numpy"))
    by_numpy_key = hd.to_numpy(init.normal((6,), key=hd.random.key(5, backend="numpy"), backend="numpy"))
    by_native_key = hd.to_numpy(init.normal((6,), key=hd.random.key(5, backend=backend), backend="numpy"))
    np.testing.assert_array_equal(by_int, by_numpy_key)
    np.testing.assert_array_equal(by_int, by_native_key)
    init.seed(3)
    a = hd.to_numpy(init.normal((6,), backend=backend))
    b = hd.to_numpy(init.normal((6,), backend=backend))
    init.seed(3)
    np.testing.assert_array_equal(hd.to_numpy(init.normal((6,), backend="numpy")), a)
    assert not np.array_equal(a, b)


def test_float64_and_layers_share_the_rule(backend):
    w = init.glorot_uniform((3, 2), key=1, dtype=hd.float64, backend=backend)
    assert hd.dtype(w) == hd.float64
    np.testing.assert_array_equal(
        hd.to_numpy(w), hd.to_numpy(init.glorot_uniform((3, 2), key=1, dtype="float64"))
    )
    with hd.use_backend(backend):
        layer = hd.nn.Conv2d(3, 4, 3, key=7)
    ref = hd.nn.Conv2d(3, 4, 3, key=7, backend="numpy")
    assert layer.parameters().all_equal(ref.parameters())


def test_initializer_names_in_layers():
    layer = hd.nn.Linear(3, 4, weight_init="orthogonal", bias_init="zeros", key=0, backend="numpy")
    np.testing.assert_allclose(layer.weight @ layer.weight.T, np.eye(3), atol=1e-6)
    np.testing.assert_array_equal(layer.bias, 0.0)
    with pytest.raises(hd.InvalidArgumentError, match="weight_init must be an initializer"):
        hd.nn.Linear(3, 4, weight_init="xavier")


def test_a_dtype_the_backend_lacks_is_refused():
    from conftest import require_backend

    require_backend("numpy")
    with pytest.raises(hd.UnsupportedDtypeError, match="bfloat16"):
        init.normal((2,), key=0, dtype=hd.bfloat16, backend="numpy")


@pytest.mark.parametrize("dtype", ["uint16", "int32", "bool"])
def test_an_integer_dtype_is_refused_not_truncated(backend, dtype):
    # a normal draw cast to uint16 came out [1, 65535]: truncated and wrapped, silently
    with pytest.raises(hd.DtypeError, match=f"real floating.*{dtype}"):
        init.normal((2,), key=0, dtype=dtype, backend=backend)
    with pytest.raises(hd.DtypeError, match="real floating"):
        hd.nn.Linear(2, 3, key=0, dtype=dtype, backend=backend)
