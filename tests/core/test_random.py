"""hd.random: reproducibility, keys, distributions (checked against scipy.stats), dtypes, errors.

Every test runs on every backend (numpy included), in both styles where it
applies: ``stateful`` (``hd.random.seed`` then calls without a key) and
``keyed`` (``key=``). Distribution tests draw a few thousand samples with fixed
seeds and apply a Kolmogorov-Smirnov or chi-square test against
``scipy.stats``; with the seeds fixed, each test is deterministic.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats

import hedera as hd

N = 4000
P_MIN = 1e-3  # the statistical tests' significance level (deterministic: the seeds are fixed)


def npy(x):
    return np.asarray(hd.to_numpy(x))


@pytest.fixture(params=["stateful", "keyed"])
def style(request):
    return request.param


class Draw:
    """Calls a distribution in one style on one backend: ``draw(hd.random.normal, shape, ...)``."""

    def __init__(self, backend: str, style: str, seed: int = 0) -> None:
        self.backend, self.style = backend, style
        self.key = hd.random.key(seed, backend=backend)
        if style == "stateful":
            hd.random.seed(seed, backend=backend)

    def __call__(self, fn, *args, **kwargs):
        with hd.use_backend(self.backend):
            if self.style == "stateful":
                return fn(*args, **kwargs)
            self.key, sub = hd.random.split(self.key)
            return fn(*args, key=sub, **kwargs)


# ---- reproducibility and keys ------------------------------------------------------------------

SAMPLERS = {
    "uniform": lambda **k: hd.random.uniform((5,), -1.0, 2.0, **k),
    "normal": lambda **k: hd.random.normal((5,), 1.0, 3.0, **k),
    "truncated_normal": lambda **k: hd.random.truncated_normal((5,), **k),
    "randint": lambda **k: hd.random.randint((5,), -10, 10, **k),
    "bernoulli": lambda **k: hd.random.bernoulli(0.5, (8,), **k),
    "permutation": lambda **k: hd.random.permutation(8, **k),
    "categorical": lambda **k: hd.random.categorical(hd.zeros((3, 4)), (6, 3), **k),
}


@pytest.mark.parametrize("name", SAMPLERS)
def test_same_seed_same_numbers(backend, name):
    sample = SAMPLERS[name]
    with hd.use_backend(backend):
        hd.random.seed(123)
        a1, a2 = npy(sample()), npy(sample())
        hd.random.seed(123)
        b1, b2 = npy(sample()), npy(sample())
    np.testing.assert_array_equal(a1, b1)
    np.testing.assert_array_equal(a2, b2)
    assert not np.array_equal(npy(a1), npy(a2)) or name == "bernoulli"  # the state advances


@pytest.mark.parametrize("name", SAMPLERS)
def test_same_key_same_numbers(backend, name):
    sample = SAMPLERS[name]
    with hd.use_backend(backend):
        key = hd.random.key(7)
        k1, k2 = hd.random.split(key)
        a, b, c = npy(sample(key=k1)), npy(sample(key=k1)), npy(sample(key=k2))
        hd.random.seed(0)  # the stateful generator does not affect keyed draws
        d = npy(sample(key=hd.random.split(hd.random.key(7))[0]))
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(a, d)
    assert not np.array_equal(a, c)


def test_keys(backend):
    with hd.use_backend(backend):
        key = hd.random.key(2**40 + 5)
        assert hd.backend_of(key) == backend
        assert tuple(key.shape) == (2,)
        assert npy(key).tolist() == [2**8, 5]
        assert npy(hd.random.key(-1)).tolist() == [2**32 - 1, 2**32 - 1]
        keys = hd.random.split(key, 4)
        assert isinstance(keys, tuple) and len(keys) == 4
        words = {tuple(npy(k).tolist()) for k in (key, *keys)}
        assert len(words) == 5
        assert all(hd.backend_of(k) == backend for k in keys)


def test_split_keys_are_independent_of_the_parent(backend):
    with hd.use_backend(backend):
        key = hd.random.key(3)
        parent = npy(hd.random.uniform((N,), key=key))
        child = npy(hd.random.uniform((N,), key=hd.random.split(key)[0]))
    assert abs(np.corrcoef(parent, child)[0, 1]) < 0.1


# ---- distributions against scipy.stats -----------------------------------------------------------


def test_uniform(backend, style):
    draw = Draw(backend, style)
    x = npy(draw(hd.random.uniform, (N,), -2.0, 3.0))
    assert x.min() >= -2.0 and x.max() < 3.0
    assert stats.kstest(x, stats.uniform(loc=-2.0, scale=5.0).cdf).pvalue > P_MIN


def test_normal(backend, style):
    draw = Draw(backend, style)
    x = npy(draw(hd.random.normal, (N // 4, 4), 1.5, 2.0)).ravel()
    assert stats.kstest(x, stats.norm(loc=1.5, scale=2.0).cdf).pvalue > P_MIN


def test_truncated_normal(backend, style):
    draw = Draw(backend, style)
    x = npy(draw(hd.random.truncated_normal, (N,), -1.0, 0.5))
    assert x.min() > -2.0 and x.max() < 0.0
    assert stats.kstest(x, stats.truncnorm(-2.0, 2.0, loc=-1.0, scale=0.5).cdf).pvalue > P_MIN


def test_randint(backend, style):
    draw = Draw(backend, style)
    x = npy(draw(hd.random.randint, (N,), -3, 5))
    assert x.min() >= -3 and x.max() <= 4
    counts = np.bincount(x + 3, minlength=8)
    assert stats.chisquare(counts).pvalue > P_MIN


def test_bernoulli(backend, style):
    draw = Draw(backend, style)
    x = npy(draw(hd.random.bernoulli, 0.3, (N,)))
    assert x.dtype == np.bool_
    assert stats.binomtest(int(x.sum()), N, 0.3).pvalue > P_MIN
    p = hd.asarray(np.array([0.0, 1.0, 0.5]), backend=backend)
    y = npy(draw(hd.random.bernoulli, p))
    assert y.shape == (3,) and not y[0] and y[1]


def test_categorical(backend, style):
    draw = Draw(backend, style)
    probs = np.array([0.1, 0.2, 0.3, 0.4])
    logits = hd.asarray(np.log(np.stack([probs, probs[::-1]])), backend=backend)
    x = npy(draw(hd.random.categorical, logits, (N // 2, 2)))
    assert x.shape == (N // 2, 2)
    for row, p in ((0, probs), (1, probs[::-1])):
        counts = np.bincount(x[:, row], minlength=4)
        assert stats.chisquare(counts, p * counts.sum()).pvalue > P_MIN
    one = npy(draw(hd.random.categorical, logits))
    assert one.shape == (2,)
    impossible = hd.asarray(np.array([0.0, -np.inf, 0.0]), backend=backend)
    assert 1 not in npy(draw(hd.random.categorical, impossible, (200,)))


def test_permutation_is_uniform(backend, style):
    draw = Draw(backend, style)
    perms = list(itertools.permutations(range(3)))
    counts = np.zeros(len(perms))
    for _ in range(600):
        counts[perms.index(tuple(npy(draw(hd.random.permutation, 3)).tolist()))] += 1
    assert stats.chisquare(counts).pvalue > P_MIN


def test_permutation_and_shuffle_of_arrays(backend, style):
    draw = Draw(backend, style)
    x = hd.asarray(np.arange(12).reshape(3, 4), backend=backend)
    rows = npy(draw(hd.random.permutation, x))
    assert sorted(map(tuple, rows.tolist())) == sorted(map(tuple, np.arange(12).reshape(3, 4).tolist()))
    cols = npy(draw(hd.random.shuffle, x, 1))
    assert sorted(map(tuple, cols.T.tolist())) == sorted(map(tuple, np.arange(12).reshape(3, 4).T.tolist()))
    assert npy(x).tolist() == np.arange(12).reshape(3, 4).tolist()  # not modified
    p = npy(draw(hd.random.permutation, 10))
    assert sorted(p.tolist()) == list(range(10))


# ---- dtypes, shapes, devices ---------------------------------------------------------------------


@pytest.mark.parametrize("spelling", ["hedera", "name", "native"])
def test_dtypes(backend, style, spelling):
    draw = Draw(backend, style)
    f32 = {"hedera": hd.float32, "name": "float32", "native": hd.namespace(backend).float32}[spelling]
    i32 = {"hedera": hd.int32, "name": "int32", "native": hd.namespace(backend).int32}[spelling]
    assert hd.dtype(draw(hd.random.uniform, (3,), dtype=f32)) == hd.float32
    assert hd.dtype(draw(hd.random.normal, (3,), dtype=f32)) == hd.float32
    assert hd.dtype(draw(hd.random.truncated_normal, (3,), dtype=f32)) == hd.float32
    assert hd.dtype(draw(hd.random.randint, (3,), 0, 5, dtype=i32)) == hd.int32
    info = hd.namespace(backend).__array_namespace_info__().default_dtypes()
    assert hd.dtype(draw(hd.random.uniform, (3,))) == hd.dtype(hd.ones(1, dtype=info["real floating"]))
    with pytest.raises(hd.DtypeError):
        draw(hd.random.uniform, (3,), dtype=i32)
    with pytest.raises(hd.DtypeError):
        draw(hd.random.randint, (3,), 0, 5, dtype=f32)


def test_unsupported_dtype_is_an_error():
    with pytest.raises(hd.UnsupportedDtypeError):
        hd.random.uniform((3,), dtype=hd.bfloat16, key=hd.random.key(0, backend="numpy"))


def test_shapes(backend, style):
    draw = Draw(backend, style)
    assert tuple(draw(hd.random.normal, 4).shape) == (4,)
    assert tuple(draw(hd.random.normal).shape) == ()
    assert tuple(draw(hd.random.uniform, (2, 0, 3)).shape) == (2, 0, 3)
    assert tuple(draw(hd.random.bernoulli, 0.5).shape) == ()


def test_device(backend):
    with hd.use_backend(backend):
        key = hd.random.key(0, device="cpu")
        x = hd.random.normal((2,), key=key, device="cpu")
        y = hd.random.normal((2,), device="cpu")
    assert hd.device(x) == hd.device(y)


# ---- compiled code --------------------------------------------------------------------------------


def test_keyed_draws_inside_jit_match_eager(backend):
    def noisy(key, x):
        k1, k2, k3 = hd.random.split(key, 3)
        return (
            x
            + hd.random.normal(x.shape, key=k1)
            + hd.random.uniform(x.shape, key=k2)
            + hd.astype(hd.random.randint(x.shape, 0, 3, key=k3), x.dtype)
        )

    with hd.use_backend(backend):
        key, x = hd.random.key(5), hd.zeros((4,))
        compiled = hd.jit(noisy, backend_options={"torch": {"backend": "eager", "fullgraph": True}})
        np.testing.assert_allclose(npy(compiled(key, x)), npy(noisy(key, x)), rtol=1e-6)
        other = npy(compiled(hd.random.key(6), x))
    assert not np.allclose(other, npy(noisy(key, x)))


def test_stateful_call_inside_jit_raises(backend):
    with hd.use_backend(backend):
        f = hd.jit(lambda x: x + hd.random.normal(x.shape))
        with pytest.raises(hd.InvalidArgumentError, match=r"stateful call \(no key=\) inside hd.jit"):
            f(hd.zeros((3,)))


def test_stateful_call_inside_jax_jit_raises():
    from conftest import require_backend

    require_backend("jax")
    import jax

    with hd.use_backend("jax"), pytest.raises(hd.InvalidArgumentError, match=r"inside jax\.jit"):
        jax.jit(lambda x: x + hd.random.normal(x.shape))(hd.zeros((3,)))


def test_stateful_calls_in_the_frameworks_own_compilers_draw_anew():
    # outside hd.jit: a user's torch.compile graph-breaks and draws eagerly; a tf.function
    # updates the tf.random.Generator in its graph. Either way each call draws anew.
    from conftest import require_backend

    require_backend("torch")
    require_backend("tensorflow")
    import tensorflow as tf
    import torch

    with hd.use_backend("torch"):
        f = torch.compile(lambda x: x + hd.random.normal((3,)), backend="eager")
        assert not np.array_equal(npy(f(hd.zeros(3))), npy(f(hd.zeros(3))))
    with hd.use_backend("tensorflow"):
        g = tf.function(lambda x: x + hd.random.normal((3,)))
        assert not np.array_equal(npy(g(hd.zeros(3))), npy(g(hd.zeros(3))))


def test_vmap_over_keys(backend):
    with hd.use_backend(backend):
        keys = hd.random.split(hd.random.key(0), 4)
        batched = hd.vmap(lambda k: hd.random.normal((3,), key=k))(hd.stack(keys))
        assert tuple(batched.shape) == (4, 3)
        np.testing.assert_allclose(npy(batched)[2], npy(hd.random.normal((3,), key=keys[2])), rtol=1e-6)


# ---- errors ---------------------------------------------------------------------------------------


def test_errors(backend):
    with hd.use_backend(backend):
        key = hd.random.key(0)
        with pytest.raises(hd.NotAnArrayError, match="key must be a key array"):
            hd.random.normal((2,), key=[0, 1])
        with pytest.raises(hd.InvalidArgumentError, match="key: expected a key"):
            hd.random.normal((2,), key=hd.zeros((3,)))
        with pytest.raises(hd.InvalidArgumentError, match="low < high"):
            hd.random.randint((2,), 5, 5, key=key)
        with pytest.raises(hd.InvalidArgumentError, match="negative sizes"):
            hd.random.uniform((2, -1), key=key)
        with pytest.raises(hd.InvalidArgumentError, match="num must be a positive int"):
            hd.random.split(key, 0)
        with pytest.raises(hd.ArgumentTypeError, match="seed must be an int"):
            hd.random.seed(1.5)
        with pytest.raises(hd.ArgumentTypeError, match="num must be a positive int"):
            hd.random.split(key, 2.0)
        with pytest.raises(hd.ArgumentTypeError, match="low must be a Python int"):
            hd.random.randint((2,), 0.5, 3, key=key)
        logits = hd.zeros((2, 3))
        with pytest.raises(hd.ShapeError, match=r"must end with the batch shape \(2,\)"):
            hd.random.categorical(logits, (5, 3), key=key)
        with pytest.raises(hd.InvalidAxisError):
            hd.random.shuffle(logits, 2, key=key)


#: every sampler that takes a shape, called with ``shape`` and a key
SHAPED = {
    "uniform": lambda shape, **k: hd.random.uniform(shape, **k),
    "normal": lambda shape, **k: hd.random.normal(shape, **k),
    "truncated_normal": lambda shape, **k: hd.random.truncated_normal(shape, **k),
    "randint": lambda shape, **k: hd.random.randint(shape, 0, 5, **k),
    "bernoulli": lambda shape, **k: hd.random.bernoulli(0.5, shape, **k),
}


@pytest.mark.parametrize("name", sorted(SHAPED))
def test_an_array_is_never_a_shape(backend, name):
    """``hd.random.normal(key, (2,))`` (the key where the shape goes) is a TypeError of hedera's
    naming the function, on every backend; so are float and bool sizes. Never a shape."""
    key = hd.random.key(0, backend=backend)
    draw = SHAPED[name]
    bads = [key, hd.zeros((2,), backend=backend), (2.0,), 2.5, (True, 2), "3"]
    if name != "bernoulli":  # whose shape=None means p's shape
        bads.append(None)
    for bad in bads:
        expected = rf"hd\.random\.{name}: shape must be an int or a tuple"
        with pytest.raises(hd.ArgumentTypeError, match=expected) as info:
            draw(bad, key=key)
        assert isinstance(info.value, TypeError)
    with pytest.raises(
        hd.ArgumentTypeError, match="pass a key by keyword" if name != "bernoulli" else "shape"
    ):
        draw(key)  # the stateful call too
    assert tuple(draw(np.int64(3), key=key).shape) == (3,)  # integers that are not Python ints are sizes
    assert tuple(draw([2, np.int32(1)], key=key).shape) == (2, 1)


def test_wrong_kinds_of_seeds_and_axes(backend):
    key = hd.random.key(0, backend=backend)
    x = hd.zeros((3, 4), backend=backend)
    for bad in (True, None, 1.5, "1"):
        with pytest.raises(hd.ArgumentTypeError, match="seed must be an int"):
            hd.random.key(bad, backend=backend)
        with pytest.raises(hd.ArgumentTypeError, match="seed must be an int"):
            hd.random.seed(bad, backend=backend)
    for bad in (1.0, "1", None, True):
        with pytest.raises(hd.ArgumentTypeError, match=r"categorical: axis must be an int"):
            hd.random.categorical(x, axis=bad, key=key)
        with pytest.raises(hd.ArgumentTypeError, match=r"shuffle: axis must be an int"):
            hd.random.shuffle(x, bad, key=key)
        with pytest.raises(hd.ArgumentTypeError, match=r"permutation: axis must be an int"):
            hd.random.permutation(4, axis=bad, key=key)


def test_positional_key_in_the_issue(backend):
    """The two calls of issue 21: a key passed where the shape goes."""
    key = hd.random.key(0, backend=backend)
    with pytest.raises(hd.ArgumentTypeError, match=r"hd\.random\.normal: shape"):
        hd.random.normal(key, (2,))
    with pytest.raises(hd.ArgumentTypeError, match=r"hd\.random\.uniform: shape"):
        hd.random.uniform(key, (3,))


@pytest.mark.parametrize("name", sorted(SHAPED))
def test_backend_argument(backend, name):
    """``backend=`` picks the backend of a call without arrays, whatever the current one is."""
    other = "numpy" if backend != "numpy" else selected_other(backend)
    draw = SHAPED[name]
    with hd.use_backend(other):
        x = draw((2, 3), backend=backend)
        assert hd.backend_of(x) == backend and tuple(x.shape) == (2, 3)
        key = hd.random.key(7, backend=backend)
        assert hd.backend_of(key) == backend
        y, z = draw((4,), key=key, backend=backend), draw((4,), key=key)
        np.testing.assert_array_equal(npy(y), npy(z))
        hd.random.seed(3, backend=backend)
        first = npy(draw((4,), backend=backend))
        hd.random.seed(3, backend=backend)
        np.testing.assert_array_equal(npy(draw((4,), backend=backend)), first)
    assert hd.backend_of(hd.random.permutation(4, backend=backend)) == backend
    if other != backend:
        expected = rf"backend='{other}', but key is an array of {backend}"
        with pytest.raises(hd.BackendMismatchError, match=expected):
            draw((2,), key=key, backend=other)
    with pytest.raises(hd.UnknownBackendError, match="caffe"):
        draw((2,), backend="caffe")
    with pytest.raises(hd.ArgumentTypeError, match="backend must be a backend name"):
        draw((2,), backend=3)


def selected_other(backend):
    """A backend other than ``backend`` among those installed (``backend`` itself if none)."""
    from conftest import selected_backends

    return next((b for b in selected_backends() if b != backend), backend)


def test_mixed_backends_raise():
    from conftest import require_backend

    require_backend("torch")
    with pytest.raises(hd.BackendMismatchError, match="key is torch, logits is numpy"):
        hd.random.categorical(np.zeros(3), key=hd.random.key(0, backend="torch"))


# ---- the torch backend's counter-based generator -----------------------------------------------------


def test_torch_threefry_known_answers():
    """Random123's known-answer tests for Threefry-2x32, 20 rounds."""
    from conftest import require_backend

    require_backend("torch")
    import torch

    from hedera.backends.torch.random import threefry2x32

    cases = [
        ((0, 0), (0, 0), (0x6B200159, 0x99BA4EFE)),
        ((0xFFFFFFFF, 0xFFFFFFFF), (0xFFFFFFFF, 0xFFFFFFFF), (0x1CB996FC, 0xBB002BE7)),
        ((0x13198A2E, 0x03707344), (0x243F6A88, 0x85A308D3), (0xC4923A9C, 0x483DF7A0)),
    ]
    for key, (c0, c1), expected in cases:
        y0, y1 = threefry2x32(torch.tensor(key, dtype=torch.int64), torch.tensor(c0), torch.tensor(c1))
        assert (int(y0), int(y1)) == expected
