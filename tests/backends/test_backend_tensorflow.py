"""tensorflow-specific checks of ``hedera.backends.tensorflow``.

The cross-backend harness (tests/core/test_functions.py) checks values against the
reference; this file checks what only TensorFlow needs: the raw-op aliases, the
standard's promotion over ops that refuse mixed dtypes, unsigned dtypes through
kernels TF lacks, NumPy indexing over ``tf.gather_nd``, ``index_update`` gradients,
``tf.function`` with unknown shapes, devices, DLPack alignment, and that TF's global
behaviour is left alone.
"""

from __future__ import annotations

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")

import hedera as hd  # noqa: E402
from hedera.backends.tensorflow import _core  # noqa: E402

xp = hd.namespace("tensorflow")


def t(values, dtype=None):
    return hd.asarray(np.asarray(values, dtype=dtype), backend="tensorflow")


def np_of(x):
    return hd.to_numpy(x)


def test_namespace_is_the_backend_module():
    import hedera.backends.tensorflow as module

    assert hd.namespace("tensorflow") is module
    assert hd.namespace(tf.ones(2)) is module
    assert module.__array_api_version__ == "2024.12"


def test_conforming_functions_are_tf_ops():
    # the zero-overhead path: TF's generated op functions themselves (tf.math.sin *is* gen_math_ops.sin)
    # (tanh: a shim for tanh(inf + bj); log: for the complex log of tiny values)
    for name in ("sin", "cos", "square", "logical_not"):
        assert getattr(xp, name) is getattr(tf.math, name), name
    for name in ("exp", "acosh", "atanh", "cosh"):
        assert getattr(xp, name).__module__ == "tensorflow.python.ops.gen_math_ops", name


def test_complex_log_of_tiny_values_is_finite():
    # TF's own complex log squares the parts: log(1e-200j) came out nan + pi/2 j
    z = np.array([1.3e-227j, 1e-155j, -1e-200 + 0j, 3 + 4j], dtype=np.complex128)
    for name in ("log", "log2", "log10"):
        np.testing.assert_allclose(
            getattr(xp, name)(tf.constant(z)).numpy(), getattr(np, name)(z), rtol=1e-14
        )


def test_dtypes_are_native_and_compare_equal_to_hedera_dtypes():
    assert xp.float32 is tf.float32 and xp.uint64 is tf.uint64
    assert tf.ones(2).dtype == hd.float32 and hd.float32 == tf.ones(2).dtype
    assert tf.bfloat16 == hd.bfloat16 and hd.dtype(tf.ones(2, tf.bfloat16)) is hd.bfloat16
    for spelling in (hd.float64, "float64", tf.float64, np.float64, np.dtype("float64")):
        assert xp.zeros(2, dtype=spelling).dtype is tf.float64
    with pytest.raises(hd.DtypeError):
        xp.zeros(2, dtype=5)  # tf.DType compares equal to its enum number; hedera does not


def test_default_dtypes():
    assert xp.asarray(1).dtype is tf.int64  # TF's own default would be int32
    assert xp.asarray([1.5]).dtype is tf.float32
    assert xp.asarray(1j).dtype is tf.complex64
    assert xp.arange(3).dtype is tf.int64 and xp.arange(1.0).dtype is tf.float32
    assert xp.full((2,), 7).dtype is tf.int64
    assert xp.asarray(np.arange(3.0)).dtype is tf.float64  # NumPy arrays keep their dtype
    info = xp.__array_namespace_info__()
    assert info.default_dtypes()["indexing"] is tf.int64
    assert set(info.dtypes()) == set(hd._api.DTYPE_NAMES) and _core.UNSUPPORTED_DTYPES == ()


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ((1, "int8"), (2.5, "float64"), tf.float64),
        ((1, "uint8"), (2, "int16"), tf.int16),
        ((1, "int32"), 2, tf.int32),
        (3, (1, "float64"), tf.float64),  # a scalar on the left takes the array's dtype
        ((1.5, "float32"), 1j, tf.complex64),
        ((1, "int32"), 2.5, tf.float32),  # float scalar with integers: the default float
    ],
)
def test_promotion(a, b, expected):
    def make(v):
        return t(*v) if isinstance(v, tuple) else v

    assert hd.add(make(a), make(b)).dtype is expected
    assert hd.multiply(make(b), make(a)).dtype is expected
    assert xp.result_type(make(a), make(b)) is expected


def test_undefined_promotion_raises():
    with pytest.raises(hd.DtypeError):
        hd.add(t([1], "uint64"), t([1], "int8"))


def test_integer_division_by_zero_gives_zero():
    x, zero = t([7, -7], "int32"), t([0, 0], "int32")
    assert np_of(hd.floor_divide(x, zero)).tolist() == [0, 0]
    assert np_of(hd.remainder(x, zero)).tolist() == [0, 0]
    assert hd.divide(t([1], "int32"), t([2], "int32")).dtype is tf.float32


def test_float_floor_divide_matches_numpy_near_integers():
    a, b = np.array([1.0, -1.0, 0.3, 7.0]), np.array([0.1, 0.1, 0.1, -0.7])
    np.testing.assert_array_equal(np_of(hd.floor_divide(t(a), t(b))), np.floor_divide(a, b))


@pytest.mark.parametrize("dtype", ["uint8", "uint16", "uint32", "uint64", "int8", "int16"])
def test_integer_dtypes_through_kernels_tf_lacks(dtype):
    a = np.array([[3, 1], [2, 5]], dtype=dtype)
    x = t(a)
    np.testing.assert_array_equal(np_of(hd.abs(x)), np.abs(a))
    np.testing.assert_array_equal(np_of(hd.sign(x)), np.sign(a))
    np.testing.assert_array_equal(np_of(hd.pow(x, t(np.full_like(a, 2)))), a**2)
    np.testing.assert_array_equal(np_of(hd.matmul(x, x)), a @ a)
    np.testing.assert_array_equal(np_of(hd.tile(x, (2, 1))), np.tile(a, (2, 1)))
    np.testing.assert_array_equal(np_of(hd.repeat(x, 2, axis=0)), np.repeat(a, 2, axis=0))
    np.testing.assert_array_equal(np_of(hd.linalg.diagonal(x)), np.diagonal(a))
    np.testing.assert_array_equal(np_of(hd.sort(x, axis=0)), np.sort(a, axis=0))
    np.testing.assert_array_equal(np_of(hd.einsum("ij,jk->ik", x, x)), a @ a)
    assert hd.sum(x).dtype == (hd.uint64 if dtype.startswith("u") else hd.int64)


def test_sort_orders_nans_last_and_is_stable_both_ways():
    a = np.array([2.0, np.nan, -0.0, 0.0, -np.inf, 2.0, np.nan])
    np.testing.assert_array_equal(np_of(hd.argsort(t(a))), np.argsort(a, kind="stable"))
    np.testing.assert_array_equal(np_of(hd.argsort(t(a), descending=True)), [1, 6, 0, 5, 2, 3, 4])
    i = np.array([3, -(2**63), 2**63 - 1, 3, 0])
    np.testing.assert_array_equal(np_of(hd.argsort(t(i))), np.argsort(i, kind="stable"))
    _, indices = hd.top_k(t([1.0, 3.0, 3.0, 2.0]), 2)
    assert np_of(indices).tolist() == [1, 2]


def test_unique_keeps_nans_distinct_and_handles_complex():
    out = hd.unique_all(t([3.0, np.nan, 1.0, 3.0, np.nan]))
    assert np_of(out.values)[:2].tolist() == [1.0, 3.0] and np.isnan(np_of(out.values)[2:]).all()
    assert np_of(out.indices).tolist() == [2, 0, 1, 4]
    assert np_of(out.counts).tolist() == [1, 2, 1, 1]
    z = hd.unique_values(t([2 + 1j, 1 + 2j, 2 + 1j, 2 - 1j]))
    assert np_of(z).tolist() == [1 + 2j, 2 - 1j, 2 + 1j]


_A = np.arange(60).reshape(3, 4, 5)
_INDICES = [
    (1,),
    (slice(None, None, -2), None, Ellipsis, -1),
    (np.array([2, 0]),),
    (np.array([[0, 2], [1, 1]]), slice(1, 3)),
    (Ellipsis, np.array([4, -1])),
    (slice(None), np.array([0, 3]), np.array([1, 2])),  # adjacent arrays: result axes stay in place
    (np.array([0, 2]), slice(None), np.array([1, 2])),  # separated: result axes first
    (1, slice(None), np.array([0, 4])),  # an int with an array counts as an array index
    (_A % 7 == 0,),
    (np.array([True, False, True]), 2),
    (None, 0, np.array([1, 3]), None),
]


@pytest.mark.parametrize("index", _INDICES, ids=range(len(_INDICES)))
def test_index_get_follows_numpy(index):
    def tf_index(i):
        return t(i) if isinstance(i, np.ndarray) else i

    key = tuple(tf_index(i) for i in index)
    np.testing.assert_array_equal(np_of(xp.index_get(t(_A), key)), _A[index])


@pytest.mark.parametrize("op", ["set", "add", "multiply", "min", "max"])
def test_index_update_is_out_of_place_and_differentiable(op):
    x = tf.constant([1.0, 2.0, 3.0, 4.0])
    values = tf.constant([5.0, 0.5])
    index = tf.constant([1, 3])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, values])
        out = xp.index_update(x, index, values, op=op)
        loss = tf.reduce_sum(out * tf.constant([1.0, 2.0, 3.0, 4.0]))
    ref = np.array([1.0, 2.0, 3.0, 4.0])
    ufunc = {"set": None, "add": np.add, "multiply": np.multiply, "min": np.minimum, "max": np.maximum}[op]
    if ufunc is None:
        ref[[1, 3]] = [5.0, 0.5]
    else:
        ufunc.at(ref, [1, 3], [5.0, 0.5])
    np.testing.assert_allclose(np_of(out), ref)
    assert np_of(x).tolist() == [1.0, 2.0, 3.0, 4.0]
    gx, gv = tape.gradient(loss, [x, values])
    assert gx is not None and gv is not None


def test_index_update_add_accumulates_repeated_indices():
    out = hd.at(hd.zeros(3))[t([0, 0, 2])].add(1.0)
    assert np_of(out).tolist() == [2.0, 0.0, 1.0]
    out = hd.at(tf.ones((2, 3)))[t([[True, False, True], [False, False, True]])].set(0.0)
    assert np_of(out).tolist() == [[0.0, 1.0, 0.0], [1.0, 1.0, 0.0]]


def test_tf_function_with_unknown_shapes_gives_the_eager_results():
    def f(x):
        y = hd.sort(x, axis=0) + hd.mean(x, axis=0)
        mask = x > 0
        return (
            hd.sum(hd.where(mask, x, 0.0)),
            hd.cumulative_sum(y, axis=0, include_initial=True),
            hd.take(x, t([0, 1]), axis=1),
            hd.at(x)[mask].set(0.0),
            xp.index_get(x, (slice(None), t([2, 0]))),
            hd.tril(hd.matmul(x, hd.matrix_transpose(x))),
            hd.searchsorted(hd.sort(x[:, 0]), x[:, 1]),
            hd.full_like(x, 2.0),
            hd.fft.fft(x, axis=0),
            hd.argsort(x, axis=-1, descending=True),
        )

    compiled = tf.function(f, input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    x = t(np.random.default_rng(0).standard_normal((5, 3)).astype(np.float32))
    for eager, traced in zip(f(x), compiled(x), strict=True):
        np.testing.assert_allclose(np_of(traced), np_of(eager), rtol=1e-6)


def test_to_numpy_of_a_symbolic_tensor_raises_clearly():
    @tf.function
    def f(x):
        return xp.to_numpy(x)

    with pytest.raises(hd.UnsupportedError, match="symbolic"):
        f(tf.ones(2))


def test_devices():
    x = tf.ones(2)
    assert xp.device(x) == "cpu" and hd.device(x) == "cpu"
    assert xp.to_device(x, "cpu") is x
    for spelling in (
        "cpu",
        "/CPU:0",
        "/job:localhost/replica:0/task:0/device:CPU:0",
        tf.config.list_logical_devices("CPU")[0],
    ):
        assert xp.device(xp.zeros(2, device=spelling)) == "cpu"
    if tf.config.list_logical_devices("GPU"):
        assert _core.native_device("gpu:0") == "/GPU:0"
    else:  # TF would silently run on the CPU; hedera refuses
        with pytest.raises(hd.UnsupportedError):
            xp.zeros(2, device="gpu:0")
    assert "cpu" in xp.__array_namespace_info__().devices()
    with pytest.raises(hd.InvalidArgumentError):
        xp.zeros(2, device="gpu:x")


def test_from_dlpack_copies_memory_tf_cannot_use():
    # TF kernels abort the process on buffers not 64-byte aligned: those must be copied
    raw = np.zeros(17, dtype=np.float32)
    misaligned = raw[1:] if raw.ctypes.data % 64 == 0 else raw[:16]
    if misaligned.ctypes.data % 64 == 0:
        misaligned = raw[2:]
    out = xp.from_dlpack(misaligned)
    np.testing.assert_array_equal(np_of(tf.broadcast_to(out[None], (2, 16))), np.zeros((2, 16)))
    with pytest.raises(hd.InvalidArgumentError):
        xp.from_dlpack(misaligned, copy=False)


def test_asarray_copy_semantics():
    x = tf.ones(2)
    assert xp.asarray(x) is x and xp.asarray(x, copy=False) is x
    assert xp.asarray(x, copy=True) is not x
    with pytest.raises(hd.InvalidArgumentError):
        xp.asarray([1.0, 2.0], copy=False)


def test_numpy_behaviour_stays_off():
    # hedera must not call tnp.experimental_enable_numpy_behavior(): tensors keep TF's own API
    hd.sum(t([1.0, 2.0]))
    assert not hasattr(tf.ones(2), "reshape")
    with pytest.raises((TypeError, ValueError, tf.errors.InvalidArgumentError)):
        tf.constant([1]) + 1.5


def test_limitations_is_a_dict_of_reasons():
    assert isinstance(_core.LIMITATIONS, dict)
    assert all(isinstance(v, str) and v for v in _core.LIMITATIONS.values())


def test_variance_with_correction_past_the_count_is_not_negative():
    # N - correction < 0 is unspecified; TF divided by it, giving -1.0 for [1, 2, 3] with correction 5
    x = t([1.0, 2.0, 3.0], np.float64)
    assert np.isposinf(np_of(xp.var(x, correction=5))) and np.isposinf(np_of(xp.std(x, correction=3.5)))
    assert np.isnan(np_of(xp.var(t([1.0, 1.0], np.float64), correction=3)))
