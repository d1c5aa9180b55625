"""Creation functions take ``backend=`` and ``device=``, and reject bad backends and devices alike.

``hd.zeros``, ``ones``, ``full``, ``empty``, ``arange``, ``linspace`` and ``eye`` run on their
``backend=`` argument whatever the current backend is, through the C front and through the Python
front it falls back to (both are checked); values against NumPy's own functions.
"""

from __future__ import annotations

import numpy as np
import pytest

import hedera as hd
from conftest import selected_backends
from hedera._fastpath import enabled, python_front

#: name -> (the hedera call, NumPy's call); ``f`` is the hedera function (C or Python front)
CREATION = {
    "zeros": (lambda f, **k: f((2, 3), **k), lambda: np.zeros((2, 3))),
    "ones": (lambda f, **k: f(4, **k), lambda: np.ones(4)),
    "full": (lambda f, **k: f((2,), 7.5, **k), lambda: np.full((2,), 7.5)),
    "empty": (lambda f, **k: f((3, 1), **k), lambda: np.empty((3, 1))),
    "arange": (lambda f, **k: f(1, 7, 2, **k), lambda: np.arange(1, 7, 2)),
    "linspace": (lambda f, **k: f(0.0, 1.0, 5, **k), lambda: np.linspace(0.0, 1.0, 5)),
    "eye": (lambda f, **k: f(3, 4, k=1, **k), lambda: np.eye(3, 4, k=1)),
}

FRONTS = ["C", "python"] if enabled() else ["python"]


def other_backend(backend):
    return next((b for b in selected_backends() if b != backend), backend)


def front(name, which):
    f = getattr(hd, name)
    return python_front(f) if which == "python" else f


@pytest.mark.parametrize("which", FRONTS)
@pytest.mark.parametrize("name", sorted(CREATION))
def test_backend_argument_picks_the_backend(backend, name, which):
    call, reference = CREATION[name]
    f = front(name, which)
    with hd.use_backend(other_backend(backend)):
        for _ in range(2):  # the first call fills the front's cache, the second reads it
            x = call(f, backend=backend)
            assert hd.backend_of(x) == backend
            expected = reference()
            assert tuple(x.shape) == expected.shape
            if name != "empty":
                np.testing.assert_allclose(hd.to_numpy(x), expected, rtol=1e-6)
        y = call(f, backend=backend, dtype=hd.float32, device="cpu")
        assert hd.backend_of(y) == backend and hd.dtype(y) == hd.float32
        assert hd.device(y) == "cpu"
        # backend=None is the current backend, as without it
        assert hd.backend_of(call(f, backend=None)) == hd.current_backend()
        assert hd.backend_of(call(f, backend=None, dtype=hd.float32)) == hd.current_backend()


@pytest.mark.parametrize("which", FRONTS)
@pytest.mark.parametrize("name", sorted(CREATION))
def test_bad_backend_names(name, which):
    call, _ = CREATION[name]
    f = front(name, which)
    with pytest.raises(hd.UnknownBackendError, match="caffe"):
        call(f, backend="caffe")
    with pytest.raises(hd.ArgumentTypeError, match=rf"{name}: backend must be a backend name"):
        call(f, backend=3)
    with pytest.raises(hd.ArgumentTypeError, match="backend must be a backend name"):
        call(f, backend=["numpy"])


def test_backend_keyword_built_at_run_time(backend):
    """A keyword name that is not interned (built at run time) is still the front's own."""
    keyword = "".join(["back", "end"])
    with hd.use_backend(other_backend(backend)):
        x = hd.zeros((2,), **{keyword: backend, "dtype": hd.float32})
    assert hd.backend_of(x) == backend and hd.dtype(x) == hd.float32


def test_a_failing_call_with_backend_is_explained(backend):
    """The error path of a ``backend=`` call: hedera's error, as without ``backend=``."""
    with hd.use_backend(other_backend(backend)):
        with pytest.raises(hd.HederaError) as with_backend:
            hd.zeros((2,), dtype="no-such-dtype", backend=backend)
    with hd.use_backend(backend):
        with pytest.raises(hd.HederaError) as without:
            hd.zeros((2,), dtype="no-such-dtype")
    assert type(with_backend.value) is type(without.value)


BAD_DEVICES = [
    ("tpu:7", hd.UnsupportedError),  # a kind this machine lacks
    ("cpu:1", hd.UnsupportedError),  # an index it lacks
    ("banana", hd.InvalidArgumentError),  # not a device spelling
    (3, hd.ArgumentTypeError),  # not a device at all (torch alone would read a CUDA ordinal)
    (2.5, hd.ArgumentTypeError),
]


@pytest.mark.parametrize(("device", "error"), BAD_DEVICES)
@pytest.mark.parametrize("name", sorted(CREATION))
def test_bad_devices_raise_the_same_error_everywhere(backend, name, device, error):
    call, _ = CREATION[name]
    with pytest.raises(error, match="device"):
        call(getattr(hd, name), backend=backend, device=device)


@pytest.mark.parametrize(("device", "error"), BAD_DEVICES)
def test_bad_devices_in_random_and_asarray(backend, device, error):
    with pytest.raises(error, match="device"):
        hd.random.normal((2,), device=device, backend=backend)
    with pytest.raises(error, match="device"):
        hd.asarray([1.0, 2.0], device=device, backend=backend)


def test_backend_argument_inside_compiled_code(autodiff_backend):
    """Under hd.jit (jax.jit, tf.function, torch.compile) ``backend=`` names the traced backend."""
    b = autodiff_backend

    def f(x):
        dt = hd.dtype(x)
        return x + hd.zeros(x.shape, dtype=dt, backend=b) + hd.arange(3, dtype=dt, backend=b)

    x = hd.ones((3,), backend=b)
    with hd.use_backend("numpy"):
        out = hd.jit(f)(x)
    assert hd.backend_of(out) == b
    np.testing.assert_allclose(hd.to_numpy(out), [1.0, 2.0, 3.0])
