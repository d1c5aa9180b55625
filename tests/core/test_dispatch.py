"""Dispatch: which backend a call runs on.

* A call with array arguments runs on their framework; Python scalars follow the arrays.
* Arrays of two frameworks in one call raise ``BackendMismatchError`` naming both.
* A call without array arguments runs on the current backend: ``use_backend`` (a context
  variable: threads and asyncio tasks do not leak into each other), then ``set_backend``,
  then ``$HEDERA_BACKEND``, then numpy.
"""

from __future__ import annotations

import asyncio
import threading

import numpy as np
import pytest

import hedera as hd
from conftest import ALL_BACKENDS, require_backend
from hedera import _dispatch


@pytest.fixture(autouse=True)
def _clean_global_backend(monkeypatch):
    """Every test starts with no set_backend and no HEDERA_BACKEND, and leaves none behind."""
    monkeypatch.delenv("HEDERA_BACKEND", raising=False)
    hd.set_backend(None)
    yield
    monkeypatch.delenv("HEDERA_BACKEND", raising=False)  # before set_backend(None) reads it again
    hd.set_backend(None)


def array(backend: str, values, dtype=None):
    return hd.asarray(np.asarray(values, dtype=dtype), backend=backend)


def other_backend(backend: str) -> str:
    """A second installed backend, for mixing; skips if there is none."""
    for name in ALL_BACKENDS:
        if name != backend and name in hd.available_backends():
            require_backend(name)
            return name
    pytest.skip("needs two installed backends")


# ---- arrays decide ----------------------------------------------------------------------


def test_result_is_native_array_of_the_same_backend(backend):
    x = array(backend, [1.0, 2.0, 3.0])
    y = hd.sin(x)
    assert hd.backend_of(x) == hd.backend_of(y) == backend
    assert hd.namespace(x) is hd.namespace(backend)
    assert type(hd.add(x, x)) is type(y)
    assert type(hd.linalg.vector_norm(x)).__module__.partition(".")[0] == type(y).__module__.partition(".")[0]


@pytest.mark.parametrize("scalar", [2, 2.5, True])
def test_python_scalars_take_the_arrays_backend(backend, scalar):
    x = array(backend, [1.0, 2.0], dtype=np.float32)
    for out in (hd.add(x, scalar), hd.add(scalar, x), hd.multiply(scalar, x), hd.where(x > 1.5, x, scalar)):
        assert hd.backend_of(out) == backend
        assert hd.dtype(out) == hd.float32
    expected = np.add(np.float32([1.0, 2.0]), np.float32(scalar))
    np.testing.assert_allclose(hd.to_numpy(hd.add(x, scalar)), expected)
    np.testing.assert_allclose(hd.to_numpy(hd.add(scalar, x)), expected)


@pytest.mark.parametrize("dtype", ["float32", "int32", "bool", "complex64"])
@pytest.mark.parametrize("scalar", [2, 2.5, True])
def test_python_scalar_operands_of_einsum(backend, dtype, scalar):
    """A Python scalar among einsum's operands is a 0-d operand of the arrays' backend, of the dtype
    ``hd.result_type`` gives it with them, as ``hd.multiply``'s (float32 for float32 and 2.5: not
    NumPy's float64; torch and TensorFlow took no scalar at all)."""
    values = np.array([1, 2]).astype(dtype)
    x = array(backend, values)
    expected_dtype = hd.result_type(x, scalar)
    for out in (
        hd.einsum("i,->i", x, scalar),
        hd.einsum(",i", scalar, x),
        hd.einsum("i,,->", x, scalar, scalar),
    ):
        assert hd.backend_of(out) == backend
        assert out.dtype == expected_dtype, (out.dtype, expected_dtype)
    np.testing.assert_array_equal(hd.to_numpy(hd.einsum(",i", scalar, x)), values * scalar)
    total = hd.to_numpy(hd.einsum("i,,->", x, scalar, scalar))
    np.testing.assert_array_equal(total, np.asarray((values * scalar * scalar).sum()).astype(total.dtype))


def test_scalars_alone_are_not_arrays(backend):
    with pytest.raises(hd.NotAnArrayError, match="add"):
        hd.add(1.0, 2.0)
    with pytest.raises(hd.NotAnArrayError, match="einsum"):
        hd.einsum(",", 1.0, 2.0)


def test_sequences_of_arrays_dispatch_on_their_elements(backend):
    x, y = array(backend, [1.0, 2.0]), array(backend, [3.0])
    out = hd.concat([x, y])
    assert hd.backend_of(out) == backend
    np.testing.assert_array_equal(hd.to_numpy(out), [1.0, 2.0, 3.0])
    stacked = hd.stack((x, x), axis=0)
    assert hd.backend_of(stacked) == backend
    assert tuple(stacked.shape) == (2, 2)
    a, b = hd.broadcast_arrays(x, array(backend, [[1.0], [2.0]]))
    assert hd.backend_of(a) == hd.backend_of(b) == backend


def test_sequence_fast_path_still_checks_every_element(backend):
    """After a one-typed call fills the cache, a sequence mixing in another backend's array (at
    any position) still raises BackendMismatchError rather than running on the first one's."""
    x = array(backend, [1.0, 2.0])
    hd.stack([x, x])  # fills the cache for this element type
    other = "torch" if backend == "numpy" else "numpy"
    require_backend(other)
    y = array(other, [1.0, 2.0])
    for arrays in ([x, y], [x, x, y], (y, x)):
        with pytest.raises(hd.BackendMismatchError):
            hd.stack(arrays)
        with pytest.raises(hd.BackendMismatchError):
            hd.concat(arrays)
    with pytest.raises(hd.NotAnArrayError):
        hd.stack([])


def test_extension_namespaces_dispatch(backend):
    m = array(backend, [[2.0, 0.0], [0.0, 4.0]])
    assert hd.backend_of(hd.linalg.inv(m)) == backend
    assert hd.backend_of(hd.fft.fft(array(backend, [1.0, 0.0, 0.0, 0.0]))) == backend


def test_framework_subclasses_dispatch_to_their_framework(backend):
    """A subclass of a framework's array class (``nn.Parameter``, ``tf.Variable``) belongs to it."""
    if backend == "numpy":

        class MyArray(np.ndarray):
            pass

        x = np.ones(3).view(MyArray)
    elif backend == "torch":
        import torch

        x = torch.nn.Parameter(torch.ones(3))
    elif backend == "tensorflow":
        import tensorflow as tf

        x = tf.Variable(np.ones(3))
    else:
        pytest.skip("jax arrays have no user-visible subclasses")
    assert hd.backend_of(x) == backend
    assert hd.backend_of(hd.sin(x)) == backend


def test_backend_of_and_type_cache_never_import_a_framework():
    """The backend is read off type(x).__module__ and cached per type (misses too): no import needed."""

    class Unknown:
        pass

    assert _dispatch.backend_name_of_type(np.ndarray) == "numpy"
    assert _dispatch.backend_name_of_type(Unknown) is None
    assert _dispatch._TYPE_TO_BACKEND[Unknown] is None  # negative results are cached too
    with pytest.raises(hd.NotAnArrayError):
        hd.backend_of(Unknown())


def test_mixed_backends_raise_naming_both(backend):
    other = other_backend(backend)
    x, y = array(backend, [1.0, 2.0]), array(other, [1.0, 2.0])
    for call in (
        lambda: hd.add(x, y),
        lambda: hd.add(y, x),
        lambda: hd.concat([x, y]),
        lambda: hd.where(x > 0, x, y),
    ):
        with pytest.raises(hd.BackendMismatchError) as info:
            call()
        assert isinstance(info.value, TypeError)
        message = str(info.value)
        assert backend in message and other in message, message


def test_asarray_converts_between_backends(backend):
    other = other_backend(backend)
    x = array(backend, [1.0, 2.0], dtype=np.float32)
    y = hd.asarray(x, backend=other)
    assert hd.backend_of(y) == other
    assert hd.dtype(y) == hd.float32
    np.testing.assert_array_equal(hd.to_numpy(y), [1.0, 2.0])
    assert hd.backend_of(hd.add(hd.asarray(y, backend=backend), x)) == backend


# ---- the current backend ----------------------------------------------------------------


def test_creation_uses_the_current_backend(backend):
    with hd.use_backend(backend) as ns:
        assert ns is hd.namespace(backend)
        assert hd.current_backend() == backend
        for out in (hd.zeros(3), hd.ones((2, 2)), hd.arange(4), hd.linspace(0.0, 1.0, 5), hd.eye(2)):
            assert hd.backend_of(out) == backend
        assert hd.backend_of(hd.asarray([1, 2])) == backend
        assert hd.backend_of(hd.fft.fftfreq(4)) == backend


def test_default_backend_is_numpy():
    assert hd.current_backend() == "numpy"
    assert isinstance(hd.zeros(2), np.ndarray)


def test_precedence_context_then_set_backend_then_environment(monkeypatch, backend):
    monkeypatch.setenv("HEDERA_BACKEND", backend)
    assert hd.current_backend() == "numpy"  # the environment is read at import, not per call
    hd.set_backend(None)  # ... and again here
    assert hd.current_backend() == backend
    hd.set_backend("numpy")
    assert hd.current_backend() == "numpy"  # set_backend beats the environment
    with hd.use_backend(backend):
        assert hd.current_backend() == backend  # the context beats set_backend
        with hd.use_backend("numpy"):
            assert hd.current_backend() == "numpy"  # the innermost context wins
        assert hd.current_backend() == backend
    assert hd.current_backend() == "numpy"
    hd.set_backend(None)
    assert hd.current_backend() == backend


def test_use_backend_restores_after_an_exception():
    with pytest.raises(RuntimeError):
        with hd.use_backend("numpy"):
            hd.set_backend("numpy")
            raise RuntimeError
    assert _dispatch._context_backend.get() is None


def test_unknown_backend_names_fail_early():
    for call in (lambda: hd.use_backend("caffe").__enter__(), lambda: hd.set_backend("caffe")):
        with pytest.raises(hd.UnknownBackendError, match="caffe"):
            call()
    assert hd.current_backend() == "numpy"


def test_use_backend_does_not_leak_into_other_threads(backend):
    seen: dict[str, str] = {}
    entered, checked = threading.Event(), threading.Event()

    def inside():
        with hd.use_backend(backend):
            entered.set()
            checked.wait(10)
            seen["inside"] = hd.current_backend()

    def outside():
        entered.wait(10)
        seen["outside"] = hd.current_backend()
        seen["outside_array"] = hd.backend_of(hd.zeros(1))
        checked.set()

    threads = [threading.Thread(target=inside), threading.Thread(target=outside)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert seen == {"inside": backend, "outside": "numpy", "outside_array": "numpy"}


def test_set_backend_is_process_wide(backend):
    hd.set_backend(backend)
    seen = []
    t = threading.Thread(target=lambda: seen.append(hd.current_backend()))
    t.start()
    t.join(10)
    assert seen == [backend]


def test_use_backend_does_not_leak_between_asyncio_tasks(backend):
    async def task(name: str, log: list) -> None:
        with hd.use_backend(name):
            for _ in range(3):
                await asyncio.sleep(0)  # let the other task run inside its own context
                log.append((name, hd.current_backend(), hd.backend_of(hd.zeros(1))))

    async def main() -> list:
        log: list = []
        await asyncio.gather(task(backend, log), task("numpy", log))
        return log

    log = asyncio.run(main())
    assert len(log) == 6
    assert all(name == current == made for name, current, made in log), log
    assert hd.current_backend() == "numpy"


def test_available_backends():
    names = hd.available_backends()
    assert names[0] == "numpy"
    import importlib.util

    for name in ("torch", "jax", "tensorflow"):
        assert (name in names) == (importlib.util.find_spec(name) is not None)


def test_namespace_by_name_and_by_array(backend):
    ns = hd.namespace(backend)
    assert ns.__name__ == f"hedera.backends.{backend}"
    assert hd.namespace(array(backend, [1.0])) is ns
    with pytest.raises(hd.NotAnArrayError):
        hd.namespace([1.0, 2.0])
