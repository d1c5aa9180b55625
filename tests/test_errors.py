"""The same bad input raises the same hedera exception class on every backend.

Each class also subclasses the matching built-in (``ValueError``, ``TypeError``, ...), and
the message names the argument at fault and what was expected.
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import hedera as hd
from conftest import ALL_BACKENDS, require_backend
from hedera._api import BY_QUALNAME, FUNCTIONS


def array(backend: str, values, dtype=None):
    return hd.asarray(np.asarray(values, dtype=dtype), backend=backend)


def call(qualname: str):
    target = hd
    for part in qualname.split("."):
        target = getattr(target, part)
    return target


def raises_exactly(cls: type[Exception], fn, *args, **kwargs) -> Exception:
    """Call ``fn`` and return the exception, asserting its class is ``cls`` itself."""
    with pytest.raises(cls) as info:
        fn(*args, **kwargs)
    assert type(info.value) is cls, f"expected {cls.__name__}, got {type(info.value).__name__}: {info.value}"
    return info.value


def test_hierarchy():
    e = hd.errors
    assert all(issubclass(c, e.HederaError) for c in (getattr(e, n) for n in e.__all__))
    for cls, builtin in [
        (e.InvalidAxisError, ValueError),
        (e.InvalidAxisError, IndexError),
        (e.ShapeError, ValueError),
        (e.BroadcastError, ValueError),
        (e.DtypeError, TypeError),
        (e.UnsupportedDtypeError, TypeError),
        (e.NotAnArrayError, TypeError),
        (e.UnknownBackendError, ValueError),
        (e.BackendNotInstalledError, ImportError),
        (e.BackendMismatchError, TypeError),
        (e.InvalidArgumentError, ValueError),
        (e.UnsupportedError, NotImplementedError),
    ]:
        assert issubclass(cls, builtin), (cls, builtin)
    assert issubclass(e.BroadcastError, e.ShapeError)
    assert hd.BroadcastError is e.BroadcastError


# ---- invalid axes ---------------------------------------------------------------------------

# (qualname, extra positional args after x, keyword args); x has shape (2, 3), axis 5 is invalid.
AXIS_CASES = [
    ("sum", (), {"axis": 5}),
    ("sum", (), {"axis": -3}),
    ("sum", (), {"axis": (0, 5)}),
    ("prod", (), {"axis": 5}),
    ("mean", (), {"axis": 5}),
    ("std", (), {"axis": 5}),
    ("var", (), {"axis": 5}),
    ("max", (), {"axis": 5}),
    ("min", (), {"axis": -5}),
    ("argmax", (), {"axis": 5}),
    ("argmin", (), {"axis": 5}),
    ("count_nonzero", (), {"axis": 5}),
    ("all", (), {"axis": 5}),
    ("any", (), {"axis": 5}),
    ("cumulative_sum", (), {"axis": 5}),
    ("cumulative_prod", (), {"axis": 5}),
    ("sort", (), {"axis": 5}),
    ("argsort", (), {"axis": 5}),
    ("flip", (), {"axis": 5}),
    ("roll", (1,), {"axis": 5}),
    ("expand_dims", (), {"axis": 4}),
    ("squeeze", (), {"axis": 5}),
    ("unstack", (), {"axis": 5}),
    ("diff", (), {"axis": 5}),
    ("logsumexp", (), {"axis": 5}),
    ("linalg.vector_norm", (), {"axis": 5}),
    ("fft.fft", (), {"axis": 5}),
]


@pytest.mark.parametrize(
    ("qualname", "args", "kwargs"), AXIS_CASES, ids=lambda v: str(v) if isinstance(v, str) else None
)
def test_invalid_axis(backend, qualname, args, kwargs):
    dtype = np.complex128 if qualname.startswith("fft.") else np.float64
    x = array(backend, np.arange(6.0).reshape(2, 3), dtype=dtype)
    err = raises_exactly(hd.InvalidAxisError, call(qualname), x, *args, **kwargs)
    assert isinstance(err, ValueError) and isinstance(err, IndexError)
    assert "axis" in str(err)


def test_invalid_axis_of_sequence_functions(backend):
    x = array(backend, [[1.0, 2.0], [3.0, 4.0]])
    for fn in (hd.concat, hd.stack):
        err = raises_exactly(hd.InvalidAxisError, fn, [x, x], axis=5)
        assert "axis" in str(err)


def test_invalid_axes_of_permute_dims_and_moveaxis(backend):
    x = array(backend, np.zeros((2, 3)))
    assert "axes" in str(raises_exactly(hd.InvalidAxisError, hd.permute_dims, x, (0, 5)))
    err = raises_exactly(hd.InvalidAxisError, hd.moveaxis, x, 5, 0)
    assert "source" in str(err)


# ---- shapes that do not broadcast -------------------------------------------------------------

BINARY_ELEMENTWISE = [
    f.qualname
    for f in FUNCTIONS
    if f.category == "elementwise" and f.array_params == ("x1", "x2") and f.name != "nextafter"
] + ["nextafter"]


def _operand(qualname: str, backend: str, shape: tuple[int, ...]):
    if qualname.startswith("bitwise"):
        return array(backend, np.ones(shape, dtype=np.int32))
    if qualname.startswith("logical"):
        return array(backend, np.ones(shape, dtype=bool))
    return array(backend, np.ones(shape, dtype=np.float32))


@pytest.mark.parametrize("qualname", BINARY_ELEMENTWISE)
def test_shapes_that_do_not_broadcast(backend, qualname):
    x1, x2 = _operand(qualname, backend, (2, 3)), _operand(qualname, backend, (4,))
    err = raises_exactly(hd.BroadcastError, call(qualname), x1, x2)
    message = str(err)
    assert "x1" in message and "x2" in message and "(2, 3)" in message and "(4,)" in message, message


def test_where_and_clip_do_not_broadcast(backend):
    x = array(backend, np.ones((2, 3)))
    raises_exactly(hd.BroadcastError, hd.where, array(backend, np.ones(4, dtype=bool)), x, x)
    raises_exactly(hd.BroadcastError, hd.clip, x, array(backend, np.zeros(4)))


def test_matmul_shapes(backend):
    a, b = array(backend, np.ones((2, 3))), array(backend, np.ones((4, 5)))
    for fn in (hd.matmul, hd.linalg.matmul):
        err = raises_exactly(hd.ShapeError, fn, a, b)
        assert "x1" in str(err) and "x2" in str(err)


# ---- wrong dtypes --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "qualname", ["bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift"]
)
def test_integer_only_functions_reject_floats(backend, qualname):
    x = array(backend, [1.0, 2.0])
    err = raises_exactly(hd.DtypeError, call(qualname), x, x)
    assert "x1" in str(err) and "float64" in str(err)


def test_bitwise_invert_rejects_floats(backend):
    err = raises_exactly(hd.DtypeError, hd.bitwise_invert, array(backend, [1.0]))
    assert "x" in str(err)


@pytest.mark.parametrize("bad", ["float128", "floatish", 5, object])
def test_bad_dtype_arguments(backend, bad):
    with hd.use_backend(backend):
        err = raises_exactly(hd.DtypeError, hd.zeros, 3, dtype=bad)
    assert "dtype" in str(err)
    raises_exactly(hd.DtypeError, hd.astype, array(backend, [1.0]), bad)
    raises_exactly(hd.DtypeError, hd.asarray, [1.0], dtype=bad, backend=backend)


def unsupported_dtypes(backend: str) -> tuple[str, ...]:
    import importlib

    core = importlib.import_module(f"hedera.backends.{backend}._core")
    return tuple(getattr(core, "UNSUPPORTED_DTYPES", ()))


def test_unsupported_dtypes_raise_never_convert(backend):
    """A dtype the framework lacks raises UnsupportedDtypeError (a DtypeError), for creation and casts."""
    names = unsupported_dtypes(backend)
    if not names:
        pytest.skip(f"the {backend} backend supports every hedera dtype")
    x = array(backend, [1.0])
    for name in names:
        dtype = getattr(hd, name)
        with hd.use_backend(backend):
            err = raises_exactly(hd.UnsupportedDtypeError, hd.zeros, 2, dtype=dtype)
        assert name in str(err) and backend in str(err)
        raises_exactly(hd.UnsupportedDtypeError, hd.astype, x, dtype)
        raises_exactly(hd.UnsupportedDtypeError, hd.asarray, [1], dtype=name, backend=backend)


# ---- non-arrays where arrays are required ------------------------------------------------------


@pytest.mark.parametrize("bad", [[1.0, 2.0], (1.0,), "abc", {"a": 1}, None])
def test_non_array_argument(backend, bad):
    x = array(backend, [1.0, 2.0])
    err = raises_exactly(hd.NotAnArrayError, hd.sin, bad)
    assert "sin" in str(err) and "x" in str(err)
    if bad is not None:  # None alone is not an array, but next to an array it stands for "absent"
        err = raises_exactly(hd.NotAnArrayError, hd.add, x, bad)
        assert "x2" in str(err), str(err)
    err = raises_exactly(hd.NotAnArrayError, hd.concat, [x, [1.0]])
    assert "arrays" in str(err)
    raises_exactly(hd.NotAnArrayError, hd.linalg.inv, [[1.0, 0.0], [0.0, 1.0]])


def test_non_array_to_array_only_helpers():
    for fn in (hd.backend_of, hd.dtype, hd.namespace):
        raises_exactly(hd.NotAnArrayError, fn, [1.0])


# ---- backends: unknown, not installed, mixed -------------------------------------------------


def test_unknown_backend_name():
    x = np.ones(2)
    for fn in (
        lambda: hd.use_backend("caffe").__enter__(),
        lambda: hd.set_backend("caffe"),
        lambda: hd.namespace("caffe"),
        lambda: hd.asarray(x, backend="caffe"),
    ):
        err = raises_exactly(hd.UnknownBackendError, fn)
        assert "caffe" in str(err) and "torch" in str(err)  # names the bad one and the choices
        assert isinstance(err, ValueError)


def test_backend_not_installed():
    """mxnet is a known backend that is (normally) not installed; see test_import for the others."""
    if importlib.util.find_spec("mxnet") is not None:
        pytest.skip("mxnet is installed here")
    err = raises_exactly(hd.BackendNotInstalledError, hd.namespace, "mxnet")
    assert "mxnet" in str(err) and "pip install" in str(err)
    assert isinstance(err, ImportError)
    raises_exactly(hd.BackendNotInstalledError, lambda: hd.use_backend("mxnet").__enter__())


@pytest.mark.parametrize("offset", range(1, len(ALL_BACKENDS)))
def test_mixed_backends(backend, offset):
    """With each of the other backends (the one ``offset`` places further in ALL_BACKENDS)."""
    other = ALL_BACKENDS[(ALL_BACKENDS.index(backend) + offset) % len(ALL_BACKENDS)]
    require_backend(other)
    x, y = array(backend, [1.0, 2.0]), array(other, [1.0, 2.0])
    err = raises_exactly(hd.BackendMismatchError, hd.add, x, y)
    assert backend in str(err) and other in str(err)
    raises_exactly(hd.BackendMismatchError, hd.stack, [x, y])
    raises_exactly(hd.BackendMismatchError, hd.matmul, x, y)


def test_every_error_case_covers_a_real_function():
    """The tables above name functions of the API table (guards against typos going untested)."""
    for qualname, _, _ in AXIS_CASES:
        assert qualname in BY_QUALNAME
    for qualname in BINARY_ELEMENTWISE:
        assert qualname in BY_QUALNAME
