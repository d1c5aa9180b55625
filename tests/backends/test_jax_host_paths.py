"""jax ``nonzero`` and ``unique_*`` on eager CPU arrays (their NumPy-gathered path) give jax.numpy's
own answers bit for bit, placement included: special values (signed zeros, NaNs with payloads,
subnormals, which XLA's CPU runtime counts as zero in float32), committed and uncommitted arrays,
and the dtypes that take jax.numpy's path (complex, empty)."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

import hedera as hd  # noqa: E402

FUNCTIONS = ["nonzero", "unique_values", "unique_all", "unique_counts", "unique_inverse"]
POOL = [0.0, -0.0, 1.0, -1.0, np.nan, -np.nan, np.inf, -np.inf, 2.5, 1e-40, -1e-40]


def _inputs():
    rng = np.random.default_rng(0)
    nan_payload = np.array([np.nan], np.float32)
    nan_payload.view(np.uint32)[0] |= 1
    yield "float32 special", rng.choice(np.array(POOL, np.float32), 40)
    others = np.array([np.nan, 1.0, -0.0, 0.0], np.float32)
    yield "float32 payload NaNs", np.concatenate([nan_payload, others])
    yield "float16 subnormal", np.array([6e-8, 0.0, -6e-8, 1.0, 6e-8], np.float16)
    yield "float32 2-d", rng.integers(-2, 3, (3, 4)).astype(np.float32)
    yield "int64", rng.integers(-3, 4, 30)
    yield "uint8", rng.integers(0, 3, 9).astype(np.uint8)
    yield "bool", rng.random(7) < 0.5
    yield "all zeros", np.zeros(5, np.float32)
    yield "0-d", np.array(2.0, np.float32)
    yield "empty", np.zeros((2, 0), np.float32)
    yield "complex64", np.array([1 + 1j, 0, 1 + 1j, complex(0, np.nan)], np.complex64)


def _placed(values, committed):
    return jax.device_put(values, jax.devices()[0]) if committed else jnp.asarray(values)


def _same(got, want):
    got = tuple(got) if isinstance(got, tuple) else (got,)
    want = tuple(want) if isinstance(want, tuple) else (want,)
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert (g.dtype, g.shape, g.weak_type, g.committed) == (w.dtype, w.shape, w.weak_type, w.committed)
        assert g.devices() == w.devices()
        assert np.asarray(g).tobytes() == np.asarray(w).tobytes()


@pytest.mark.parametrize("committed", [False, True], ids=["uncommitted", "committed"])
@pytest.mark.parametrize("name", FUNCTIONS)
def test_same_answer_as_jax_numpy(name, committed):
    for label, values in _inputs():
        x = _placed(values, committed)
        try:
            want = getattr(jnp, name)(x)
        except ValueError:  # jnp.nonzero refuses 0-d arrays
            with pytest.raises(ValueError):
                getattr(hd, name)(x)
            continue
        got = getattr(hd, name)(x)
        try:
            _same(got, want)
        except AssertionError as error:
            raise AssertionError(f"{name} on {label}: {error}") from error


def test_traced_input_keeps_jax_numpy_error():
    x = jnp.asarray(np.array([1.0, 0.0], np.float32))
    with pytest.raises(jax.errors.ConcretizationTypeError):
        jax.jit(hd.nonzero)(x)
    with pytest.raises(jax.errors.ConcretizationTypeError):
        jax.jit(hd.unique_values)(x)
