"""Backend-neutral dtypes and device spellings.

``hd.float32`` and friends compare equal to the native dtype of every framework
(``x.dtype == hd.float32``), ``hd.dtype(x)`` gives them back, and every function that takes
a dtype accepts a hedera dtype, a native dtype, or a name, giving the same result. Devices
are spelled ``"cpu"``, ``"gpu"``, ``"gpu:0"`` on every backend, native device objects accepted.
"""

from __future__ import annotations

import importlib
import pickle

import numpy as np
import pytest

import hedera as hd
from hedera import dtypes
from hedera._api import DTYPE_NAMES, FUNCTIONS

ALL_NAMES = tuple(d.name for d in dtypes.all_dtypes)


def unsupported(backend: str) -> tuple[str, ...]:
    core = importlib.import_module(f"hedera.backends.{backend}._core")
    return tuple(getattr(core, "UNSUPPORTED_DTYPES", ()))


def supported(backend: str) -> list[str]:
    return [n for n in ALL_NAMES if n not in unsupported(backend)]


def native(backend: str, name: str):
    """The framework's own dtype object for ``name``."""
    ns = hd.namespace(backend)
    if hasattr(ns, name):
        return getattr(ns, name)
    return {
        "numpy": lambda: np.dtype(name),
        "torch": lambda: getattr(importlib.import_module("torch"), name),
        "jax": lambda: np.dtype(getattr(importlib.import_module("jax.numpy"), name)),
        "tensorflow": lambda: getattr(importlib.import_module("tensorflow"), name),
    }[backend]()


# ---- the dtype objects themselves ------------------------------------------------------------


def test_hedera_dtypes():
    assert [d.name for d in dtypes.all_dtypes] == list(ALL_NAMES)
    assert set(DTYPE_NAMES) <= set(ALL_NAMES)
    for d in dtypes.all_dtypes:
        assert getattr(hd, d.name) is d
        assert repr(d) == f"hd.{d.name}" and str(d) == d.name
        assert pickle.loads(pickle.dumps(d)) is d
        assert hd.dtype is not d
    assert hd.float32 != hd.float64
    assert hd.float32 != "float32"  # names are accepted as arguments, but a dtype is not a string
    assert len({hd.float32, hd.float32, hd.int8}) == 2


def test_numpy_dtype_equality_without_any_backend_loaded():
    assert hd.float32 == np.dtype("float32") and np.dtype("float32") == hd.float32
    assert hd.float32 == np.float32
    assert hd.float32 != np.dtype("float64")
    assert hd.bfloat16 != np.dtype("float32")
    assert dtypes.as_hedera_dtype("int16") is hd.int16
    assert dtypes.as_hedera_dtype(np.dtype("complex64")) is hd.complex64


def test_kinds_and_promotion():
    assert hd.isdtype(hd.float32, "real floating")
    assert hd.isdtype(hd.int8, ("integral", "bool"))
    assert not hd.isdtype(hd.uint8, "signed integer")
    assert hd.isdtype(np.dtype("complex64"), "complex floating")
    assert hd.result_type(hd.int8, hd.uint8) is hd.int16
    assert hd.result_type(hd.float32, hd.complex64, hd.float64) is hd.complex128
    assert hd.result_type(hd.float16, hd.bfloat16) is hd.float32
    assert hd.result_type(hd.int32, 1.0) is hd.float64  # a Python float with an integer dtype
    assert hd.result_type(hd.float32, 1.0) is hd.float32  # Python scalars are weak
    assert hd.can_cast(hd.int8, hd.int16) and not hd.can_cast(hd.int16, hd.int8)
    assert not hd.can_cast(hd.int8, hd.float32)  # across kinds: outside the lattice
    with pytest.raises(hd.DtypeError):
        hd.result_type(hd.bool, hd.int8)
    with pytest.raises(hd.DtypeError):
        hd.result_type(hd.uint64, hd.int64)


# ---- on every backend ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ALL_NAMES)
def test_native_dtypes_compare_equal(backend, name):
    if name in unsupported(backend):
        pytest.skip(f"{backend} has no {name}")
    hd_dtype, nat = getattr(hd, name), native(backend, name)
    assert hd_dtype == nat and nat == hd_dtype
    assert not (hd_dtype != nat)
    assert dtypes.as_hedera_dtype(nat) is hd_dtype
    others = [getattr(hd, n) for n in ALL_NAMES if n != name]
    assert all(o != nat for o in others)


def test_namespace_dtypes_are_native_objects(backend):
    ns = hd.namespace(backend)
    for name in DTYPE_NAMES:
        if name in unsupported(backend):
            continue
        nat = getattr(ns, name)
        assert not isinstance(nat, dtypes.DType), f"{backend}.{name} should be the framework's dtype"
        assert nat == getattr(hd, name)


@pytest.mark.parametrize("name", ALL_NAMES)
def test_arrays_of_every_dtype(backend, name):
    """``x.dtype == hd.X`` and ``hd.dtype(x) is hd.X`` for arrays of every supported dtype."""
    hd_dtype = getattr(hd, name)
    with hd.use_backend(backend):
        if name in unsupported(backend):
            with pytest.raises(hd.UnsupportedDtypeError):
                hd.zeros(2, dtype=hd_dtype)
            return
        x = hd.zeros(2, dtype=hd_dtype)
    assert hd.backend_of(x) == backend
    assert x.dtype == hd_dtype and hd_dtype == x.dtype
    assert hd.dtype(x) is hd_dtype
    for spelling in (name, native(backend, name)):
        with hd.use_backend(backend):
            assert hd.dtype(hd.ones(2, dtype=spelling)) is hd_dtype


def test_default_dtypes_are_the_namespaces(backend):
    ns = hd.namespace(backend)
    defaults = ns.__array_namespace_info__().default_dtypes()
    with hd.use_backend(backend):
        assert hd.dtype(hd.zeros(2)) == defaults["real floating"]
        assert hd.dtype(hd.arange(3)) == defaults["integral"]
        assert hd.dtype(hd.asarray([1.0j])) == defaults["complex floating"]
    assert hd.dtype(hd.argmax(hd.asarray([1.0, 2.0], backend=backend))) == defaults["indexing"]


def test_finfo_iinfo_accept_every_spelling(backend):
    x = hd.asarray(np.ones(2, dtype=np.float32), backend=backend)
    for spelling in (hd.float32, native(backend, "float32"), x):
        info = hd.finfo(spelling)
        assert info.bits == 32 and float(info.eps) == float(np.finfo(np.float32).eps)
    for spelling in (hd.int16, native(backend, "int16")):
        assert int(hd.iinfo(spelling).max) == 32767


# ---- every function taking a dtype accepts every spelling ----------------------------------------


def _float_array(backend):
    return hd.asarray(np.arange(1.0, 5.0).reshape(2, 2), backend=backend)


# qualname -> (call taking (backend, dtype), the dtype requested)
DTYPE_CALLS = {
    "arange": (lambda b, d: hd.arange(3, dtype=d), "int32"),
    "asarray": (lambda b, d: hd.asarray([1, 2], dtype=d, backend=b), "float32"),
    "empty": (lambda b, d: hd.empty((2,), dtype=d), "float32"),
    "empty_like": (lambda b, d: hd.empty_like(_float_array(b), dtype=d), "int16"),
    "eye": (lambda b, d: hd.eye(2, dtype=d), "float32"),
    "full": (lambda b, d: hd.full((2,), 3, dtype=d), "float32"),
    "full_like": (lambda b, d: hd.full_like(_float_array(b), 3, dtype=d), "int32"),
    "linspace": (lambda b, d: hd.linspace(0, 1, 3, dtype=d), "float32"),
    "ones": (lambda b, d: hd.ones((2,), dtype=d), "int8"),
    "ones_like": (lambda b, d: hd.ones_like(_float_array(b), dtype=d), "float32"),
    "zeros": (lambda b, d: hd.zeros((2,), dtype=d), "complex64"),
    "zeros_like": (lambda b, d: hd.zeros_like(_float_array(b), dtype=d), "bool"),
    "astype": (lambda b, d: hd.astype(_float_array(b), d), "int32"),
    "cumulative_prod": (lambda b, d: hd.cumulative_prod(_float_array(b), axis=0, dtype=d), "float32"),
    "cumulative_sum": (lambda b, d: hd.cumulative_sum(_float_array(b), axis=0, dtype=d), "float32"),
    "prod": (lambda b, d: hd.prod(_float_array(b), dtype=d), "float32"),
    "sum": (lambda b, d: hd.sum(_float_array(b), dtype=d), "float32"),
    "cumprod": (lambda b, d: hd.cumprod(_float_array(b), axis=1, dtype=d), "float32"),
    "cumsum": (lambda b, d: hd.cumsum(_float_array(b), axis=1, dtype=d), "float32"),
    "one_hot": (lambda b, d: hd.one_hot(hd.asarray(np.array([0, 2]), backend=b), 3, dtype=d), "int32"),
    "linalg.trace": (lambda b, d: hd.linalg.trace(_float_array(b), dtype=d), "float32"),
    "fft.fftfreq": (lambda b, d: hd.fft.fftfreq(4, dtype=d), "float32"),
    "fft.rfftfreq": (lambda b, d: hd.fft.rfftfreq(4, dtype=d), "float32"),
}


def test_dtype_calls_cover_the_table():
    taking_dtype = {f.qualname for f in FUNCTIONS if "dtype" in f.param_names}
    assert taking_dtype == {*DTYPE_CALLS, "isdtype"}  # isdtype: test_isdtype_accepts_every_spelling


def test_isdtype_accepts_every_spelling(backend):
    for spelling in (hd.float32, native(backend, "float32"), "float32"):
        assert hd.isdtype(spelling, "real floating")
        assert hd.isdtype(spelling, hd.float32)
        assert not hd.isdtype(spelling, ("integral", "complex floating"))


@pytest.mark.parametrize("qualname", sorted(DTYPE_CALLS))
def test_functions_accept_hedera_native_and_named_dtypes(backend, qualname):
    make, name = DTYPE_CALLS[qualname]
    for spelling in (getattr(hd, name), native(backend, name), name):
        with hd.use_backend(backend):
            out = make(backend, spelling)
        assert hd.backend_of(out) == backend
        assert hd.dtype(out) is getattr(hd, name), f"{qualname}(dtype={spelling!r})"


@pytest.mark.parametrize("number", [5, 1, 0, 3.0, True])
def test_numbers_are_not_dtypes_even_with_tensorflow_loaded(backend, number):
    """tf.DType objects compare equal to their enum ints; a plain number must still be refused."""
    hd.namespace(backend)
    if importlib.util.find_spec("tensorflow") is not None:
        hd.namespace("tensorflow")  # registers TF's dtypes, which hash like their enum ints
    with hd.use_backend(backend), pytest.raises(hd.DtypeError, match="dtype"):
        hd.zeros(3, dtype=number)


# ---- devices: one spelling on every backend -----------------------------------------------------


def test_device_spelling(backend):
    """``hd.device(x)`` is ``"cpu"`` (or ``"gpu:0"``...), whatever the framework's device object."""
    x = hd.asarray(np.ones(2), backend=backend)
    assert hd.device(x) == "cpu"
    info = hd.namespace(backend).__array_namespace_info__()
    for spelling in ("cpu", info.default_device()):
        y = hd.to_device(x, spelling)
        assert hd.backend_of(y) == backend and hd.device(y) == "cpu"
        with hd.use_backend(backend):
            assert hd.device(hd.zeros(2, device=spelling)) == "cpu"
        assert hd.device(hd.asarray([1.0], device=spelling, backend=backend)) == "cpu"


@pytest.mark.parametrize("bad", ["banana", "gpu:x", ""])
def test_malformed_device(backend, bad):
    x = hd.asarray(np.ones(2), backend=backend)
    with pytest.raises(hd.InvalidArgumentError, match="device"):
        hd.to_device(x, bad)
    with hd.use_backend(backend), pytest.raises(hd.InvalidArgumentError, match="device"):
        hd.zeros(2, device=bad)


def test_absent_device_raises(backend):
    """A device the machine does not have is an error, never a silent fallback to the CPU."""
    if backend != "numpy" and _has_gpu(backend):
        pytest.skip("this machine has a GPU")
    x = hd.asarray(np.ones(2), backend=backend)
    with pytest.raises(hd.UnsupportedError):
        hd.to_device(x, "gpu:0")
    with hd.use_backend(backend), pytest.raises(hd.UnsupportedError):
        hd.zeros(2, device="gpu")


def _has_gpu(backend: str) -> bool:
    devices = hd.namespace(backend).__array_namespace_info__().devices()
    return any("cpu" not in str(d).lower() for d in devices)


def test_mean_var_std_of_integers_give_the_default_float(backend):
    """Outside the standard (floating only), but computed alike everywhere: torch's own refuse integers."""
    x = hd.asarray(np.array([1, 2, 4], np.int64), backend=backend)
    default = hd.namespace(backend).__array_namespace_info__().default_dtypes()["real floating"]
    for fn, expected in ((hd.mean, 7 / 3), (hd.var, np.var([1, 2, 4])), (hd.std, np.std([1, 2, 4]))):
        out = fn(x)
        assert hd.dtype(out) == dtypes.as_hedera_dtype(default), (fn.__name__, hd.dtype(out))
        np.testing.assert_allclose(float(hd.to_numpy(out)), expected, rtol=1e-6)
