"""mxnet-specific checks of ``hedera.backends.mxnet`` (run in ``.venv-mxnet``: scripts/test-mxnet.sh).

The cross-backend harness (tests/core/test_functions.py, with ``HEDERA_BACKENDS=numpy,mxnet``)
checks values against the reference; this file checks what only MXNet has: its
dtypes, the defaults that differ from MXNet's own, the quirks the shims paper over
(boolean masks read as integers, float32 for integer creation), the host path and
its refusal under ``mx.autograd.record()``, gradients through ``mx.autograd``
against finite differences, devices, and ``hd.save``/``hd.load``.
"""

from __future__ import annotations

import numpy as np
import pytest

mx = pytest.importorskip("mxnet")

import hedera as hd  # noqa: E402
from hedera.backends.mxnet import _core  # noqa: E402

xp = hd.namespace("mxnet")


def arr(values, dtype=None):
    return hd.asarray(np.asarray(values, dtype=dtype), backend="mxnet")


def test_namespace_is_the_backend_module():
    import hedera.backends.mxnet as module

    assert hd.namespace("mxnet") is module
    assert hd.namespace(mx.np.ones(2)) is module
    assert hd.backend_of(mx.np.ones(2)) == "mxnet"
    assert module.__array_api_version__ == "2024.12"


def test_zero_d_and_empty_shapes_work_in_every_thread():
    import threading

    shapes = []
    thread = threading.Thread(target=lambda: shapes.append(mx.np.zeros((0, 3)).shape))
    thread.start()
    thread.join()
    assert shapes == [(0, 3)]
    assert hd.sum(xp.zeros((0, 3)), axis=0).shape == (3,)
    assert hd.asarray(2.5, backend="mxnet").shape == ()


@pytest.mark.parametrize("name", ["int16", "uint16", "uint32", "uint64", "complex64", "complex128"])
def test_unsupported_dtypes_raise(name):
    assert name in _core.UNSUPPORTED_DTYPES
    with pytest.raises(hd.UnsupportedDtypeError):
        xp.zeros(2, dtype=getattr(hd, name))
    with pytest.raises(hd.UnsupportedDtypeError):
        xp.astype(mx.np.ones(2), name)
    with pytest.raises(hd.UnsupportedDtypeError):
        hd.asarray(np.ones(2, dtype=name), backend="mxnet")
    assert name not in xp.__array_namespace_info__().dtypes()


def test_results_of_a_dtype_mxnet_lacks_raise():
    # int8 + uint8 is int16 in the standard; MXNet itself would answer int32
    with pytest.raises(hd.UnsupportedDtypeError):
        hd.add(arr([1], "int8"), arr([1], "uint8"))
    with pytest.raises(hd.UnsupportedDtypeError):
        hd.fft.rfft(arr([1.0, 2.0], "float32"))
    assert hd.result_type(arr([1], "int8"), arr([1], "uint8")) is hd.int16  # named, not faked


def test_defaults_differ_from_mxnet_own():
    # MXNet: mx.np.array([1, 2]) and mx.np.arange(3) are float32; the standard: int64
    with hd.use_backend("mxnet"):
        assert hd.arange(3).dtype == np.int64
        assert hd.asarray([1, 2]).dtype == np.int64
        assert hd.asarray([True]).dtype == np.bool_
        assert hd.asarray([1.5]).dtype == np.float32  # MXNet's default floating dtype
        assert hd.full((2,), 3).dtype == np.int64
        assert hd.ones(2).dtype == np.float32
        assert hd.one_hot(arr([0, 2], "int64"), 3).dtype == np.float32
    info = xp.__array_namespace_info__()
    assert info.default_dtypes()["real floating"] == np.float32
    assert info.default_dtypes()["indexing"] == np.int64


def test_integer_arithmetic_keeps_the_standard_dtypes():
    a = arr([7, -7], "int32")
    assert hd.remainder(a, arr([3, 3], "int32")).dtype == np.int32  # MXNet: float32
    assert hd.to_numpy(hd.remainder(a, arr([3, 3], "int32"))).tolist() == [1, 2]
    assert hd.pow(a, 2).dtype == np.int32
    assert hd.sum(arr([100, 100], "int8")).dtype == np.int64  # MXNet sums int8 in int8
    assert int(hd.to_numpy(hd.sum(arr([100, 100], "int8")))) == 200


def test_boolean_masks_select_not_gather():
    # MXNet reads x[mask] as integer indices 0 and 1; hedera gives the masked elements
    x = arr([10.0, 20.0, 30.0, 40.0], "float32")
    mask = arr([True, False, True, False])
    assert hd.to_numpy(hd.at(x)[mask].get()).tolist() == [10.0, 30.0]
    assert hd.to_numpy(hd.at(x)[mask].set(0.0)).tolist() == [0.0, 20.0, 0.0, 40.0]


def test_take_wraps_negative_indices():
    x = arr([1.0, 2.0, 3.0], "float32")
    assert hd.to_numpy(hd.take(x, arr([-1, 0], "int64"))).tolist() == [3.0, 1.0]


def test_float_kernels_are_mxnet_and_integer_ones_exact():
    x = arr([[1.0, 2.0], [3.0, 4.0]], "float32")
    assert hd.to_numpy(hd.matmul(x, x)).tolist() == [[7.0, 10.0], [15.0, 22.0]]
    i = arr([[2**40, 1], [0, 1]], "int64")  # (MXNet has no integer matmul; exact on the host)
    assert hd.to_numpy(hd.matmul(i, i)).tolist() == [[0, 2**40 + 1], [0, 1]]  # int64 wraps as NumPy


def test_host_functions_refuse_to_cut_the_gradient():
    x = arr([3.0, 1.0, 2.0], "float32")
    with pytest.raises(hd.UnsupportedError, match="not differentiable"):
        hd.grad(lambda x: hd.sum(hd.unique_values(x)))(x)
    assert hd.to_numpy(hd.unique_values(x)).tolist() == [1.0, 2.0, 3.0]  # fine outside autograd

    def loss(x):  # integer work on the host inside a differentiated function is fine
        count = hd.astype(hd.count_nonzero(hd.asarray([1, 0, 2], backend="mxnet")), hd.float32)
        return hd.sum(x * count)

    assert hd.to_numpy(hd.grad(loss)(x)).tolist() == [2.0, 2.0, 2.0]


def _finite_difference(f, x, eps=1e-6):
    x = x.astype(np.float64)
    g = np.zeros_like(x)
    for k in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[k] = eps
        g[k] = (f(x + step) - f(x - step)) / (2 * eps)
    return g


def test_grad_matches_finite_differences():
    rng = np.random.default_rng(0)
    w0, x0 = rng.normal(size=(3, 2)), rng.normal(size=(4, 3))

    def loss(w, x):
        h = hd.tanh(hd.matmul(x, w))
        return hd.mean(hd.logsumexp(h, axis=-1)) + hd.sum(hd.exp(-(w**2)))

    g = hd.grad(loss)(arr(w0, "float64"), arr(x0, "float64"))
    assert hd.dtype(g) == hd.float64 and hd.backend_of(g) == "mxnet"
    expected = _finite_difference(
        lambda w: float(hd.to_numpy(loss(arr(w, "float64"), arr(x0, "float64")))), w0
    )
    np.testing.assert_allclose(hd.to_numpy(g), expected, rtol=1e-6, atol=1e-8)


def test_value_and_grad_with_aux_and_trees():
    params = {"w": arr([1.0, 2.0], "float32"), "b": arr(0.5, "float32")}

    def f(p):
        y = p["w"] * 3.0 + p["b"]
        return hd.sum(y**2), y

    (value, aux), grads = hd.value_and_grad(f, has_aux=True)(params)
    assert float(hd.to_numpy(value)) == pytest.approx(3.5**2 + 6.5**2)
    assert hd.to_numpy(aux).tolist() == [3.5, 6.5]
    assert hd.to_numpy(grads["w"]).tolist() == [21.0, 39.0]
    assert float(hd.to_numpy(grads["b"])) == 20.0
    assert params["w"].grad is None  # the caller's arrays get no gradient buffer


def test_unused_input_has_a_zero_gradient():
    g = hd.grad(lambda x, y: hd.sum(x * 2.0), argnums=1)(arr([1.0], "float32"), arr([5.0], "float32"))
    assert hd.to_numpy(g).tolist() == [0.0]


def test_vjp_jacobian_and_vmap():
    x = arr([0.5, 1.0], "float32")
    out, pullback = hd.vjp(hd.sin, x)
    (g,) = pullback(hd.ones_like(out))
    np.testing.assert_allclose(hd.to_numpy(g), np.cos([0.5, 1.0]), rtol=1e-6)
    (g2,) = pullback(hd.ones_like(out))  # the pullback may run again
    np.testing.assert_allclose(hd.to_numpy(g2), hd.to_numpy(g))
    jac = hd.jacobian(lambda x: x**2)(x)
    np.testing.assert_allclose(hd.to_numpy(jac), np.diag([1.0, 2.0]))
    jac_fwd = hd.jacobian(lambda x: x**2, mode="forward")(x)  # computed in reverse mode
    np.testing.assert_allclose(hd.to_numpy(jac_fwd), np.diag([1.0, 2.0]))
    batched = hd.vmap(lambda v: hd.sum(v * v))(arr([[1.0, 2.0], [3.0, 4.0]], "float32"))
    assert hd.to_numpy(batched).tolist() == [5.0, 25.0]


def test_unavailable_transforms_raise_unsupported():
    x = arr([1.0], "float32")
    with pytest.raises(hd.UnsupportedError, match="forward mode"):
        hd.jvp(hd.sin, (x,), (hd.ones_like(x),))
    with pytest.raises(hd.UnsupportedError, match="gradients of gradients"):
        hd.grad(hd.grad(lambda x: hd.sum(x**3)))(x)


def test_jit_is_eager():
    f = hd.jit(lambda x: x * 2.0)
    assert hd.to_numpy(f(arr([1.0], "float32"))).tolist() == [2.0]


def test_stop_gradient():
    g = hd.grad(lambda x: hd.sum(hd.stop_gradient(x) * x))(arr([3.0], "float32"))
    assert hd.to_numpy(g).tolist() == [3.0]


def test_devices():
    x = mx.np.ones(2)
    assert hd.device(x) == "cpu"
    assert _core.native_device("cpu") == mx.cpu()
    assert _core.native_device(mx.cpu()) == mx.cpu()
    assert hd.to_device(x, "cpu") is x
    with pytest.raises(hd.InvalidArgumentError):
        _core.native_device("nowhere")
    if mx.context.num_gpus() == 0:
        with pytest.raises(hd.UnsupportedError):
            _core.native_device("gpu:0")


def test_to_numpy_and_conversions():
    x = arr([[1.0, 2.0]], "float32")
    got = hd.to_numpy(x)
    assert isinstance(got, np.ndarray) and got.dtype == np.float32
    back = hd.asarray(x, backend="numpy")
    assert isinstance(back, np.ndarray) and back.tolist() == [[1.0, 2.0]]
    assert hd.backend_of(hd.asarray(np.ones(2), backend="mxnet")) == "mxnet"
    with pytest.raises(hd.InvalidArgumentError):
        xp.asarray(np.ones(2), copy=False)  # MXNet always copies what it did not create
    assert hd.asarray(x, copy=False) is x


def test_save_and_load_round_trip(tmp_path):
    state = {"w": arr([[1.0, 2.0]], "float32"), "step": arr(3, "int64"), "mask": arr([True, False])}
    hd.save(state, tmp_path / "state.safetensors")
    loaded = hd.load(tmp_path / "state.safetensors", backend="mxnet")
    assert hd.backend_of(loaded["w"]) == "mxnet"
    for k in state:
        assert hd.dtype(loaded[k]) == hd.dtype(state[k])
        np.testing.assert_array_equal(hd.to_numpy(loaded[k]), hd.to_numpy(state[k]))


def test_limitations_is_a_dict_of_reasons():
    assert isinstance(_core.LIMITATIONS, dict) and _core.LIMITATIONS
    assert all(isinstance(k, str) and isinstance(v, str) and v for k, v in _core.LIMITATIONS.items())


def test_from_dlpack_shares_compact_tensors_and_refuses_others():
    a = np.arange(6.0, dtype=np.float32)
    x = xp.from_dlpack(a)
    assert hd.to_numpy(x).tolist() == a.tolist()
    with pytest.raises(BufferError):
        xp.from_dlpack(np.arange(6.0).reshape(2, 3).T)  # MXNet imports compact tensors only
    t = np.arange(6.0).reshape(2, 3).T
    assert hd.to_numpy(hd.asarray(t, backend="mxnet")).tolist() == t.tolist()  # the front copies instead
