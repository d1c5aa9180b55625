"""The numpy and torch shims' fast paths (issue 20) answer as their general paths do: the same
dtype, shape, strides and bytes (NaNs, signed zeros, ties included), or the same error.

Each test compares the fast path with the spelling the shim used before (the framework's own
general call), over dtypes and special values."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

import hedera as hd

_SPECIAL = [0.0, -0.0, 1.5, -2.5, np.inf, -np.inf, np.nan, 3.0, 3.0, -0.0]
_NP_DTYPES = [np.bool_, np.int8, np.uint8, np.int32, np.int64, np.uint64, np.float16, np.float32, np.float64,
              np.complex64, np.complex128]  # fmt: skip


def _np_arrays(dtype, shapes=((10,), (0,), (), (1,), (2, 5), (3, 1, 4))):
    """Arrays of ``dtype`` of these shapes, drawn from the special values (ties, NaN, +-0, inf)."""
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for shape in shapes:
            size = int(np.prod(shape))
            values = np.array((_SPECIAL * (size // len(_SPECIAL) + 1))[:size]).astype(dtype)
            out.append(values.reshape(shape))
        out.append(np.arange(24.0).astype(dtype).reshape(4, 6)[::2, ::3])  # a strided view
        out.append(np.asfortranarray(np.arange(6.0).astype(dtype).reshape(2, 3)))
    return out


def _outcome(f, *args, **kwargs):
    """What a call gives: its array's (or arrays') type, dtype, shape, strides and bytes, or its
    error's type; and its warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = f(*args, **kwargs)
            got: tuple = _described(out)
        except Exception as error:
            got = (type(error).__name__,)
    return got, sorted(type(w.message).__name__ for w in caught)


def _described(out):
    if isinstance(out, tuple):
        return tuple(_described(o) for o in out)
    if hasattr(out, "numpy") and not isinstance(out, np.ndarray):  # a torch tensor
        return (type(out), out.dtype, tuple(out.shape), out.stride(), out.numpy(force=True).tobytes())
    return (type(out), out.dtype, out.shape, out.strides, np.asarray(out).tobytes())


# ---- numpy ----------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", _NP_DTYPES, ids=lambda d: np.dtype(d).name)
def test_numpy_diff_of_a_vector_is_np_diff(dtype):
    ns = hd.namespace("numpy")
    for x in _np_arrays(dtype):
        for axis, n in [(0, 1), (-1, 1), (0, 2), (1, 1), (-2, 1), (0, 0)]:
            want = _outcome(np.diff, x, n, axis)
            assert _outcome(ns.diff, x, axis=axis, n=n) == want, (x, axis, n)
            if n == 1 and axis in (0, -1) and x.ndim:
                assert _outcome(hd.diff, x, axis=axis) == want, (x, axis)
    x = np.arange(5.0)
    # (values np.diff refuses stay refused: the fast path takes exact ints only)
    for axis, n in [(0.0, 1), (0, 1.0), (True, 1)]:
        assert _outcome(ns.diff, x, axis=axis, n=n) == _outcome(np.diff, x, n, axis)
    assert _outcome(ns.diff, np.array(1.0)) == _outcome(np.diff, np.array(1.0))


@pytest.mark.filterwarnings("ignore:the matrix subclass")
@pytest.mark.parametrize("dtype", _NP_DTYPES, ids=lambda d: np.dtype(d).name)
def test_numpy_ones_like_is_np_ones_like(dtype):
    ns = hd.namespace("numpy")
    for x, to in itertools.product(_np_arrays(dtype), [None, hd.float32, hd.bool, hd.int16, hd.complex128]):
        native = None if to is None else to.dtype
        want = _outcome(np.ones_like, x, dtype=native)
        assert _outcome(ns.ones_like, x, dtype=to) == want
        assert _outcome(ns.ones_like, x, dtype=to, device="cpu") == want
        assert _outcome(hd.ones_like, x, dtype=to, device="cpu") == want
    assert _outcome(ns.ones_like, np.float32(2.0)) == _outcome(np.ones_like, np.float32(2.0))
    matrix = np.asmatrix(np.zeros((2, 2)))  # a subclass keeps np.ones_like's own path
    assert _outcome(ns.ones_like, matrix) == _outcome(np.ones_like, matrix)


@pytest.mark.parametrize("dtype", _NP_DTYPES, ids=lambda d: np.dtype(d).name)
def test_numpy_matrix_transpose_is_np_swapaxes(dtype):
    ns = hd.namespace("numpy")
    for x in _np_arrays(dtype):
        if x.ndim < 2:
            with pytest.raises(ValueError):
                ns.matrix_transpose(x)
            continue
        got = ns.matrix_transpose(x)
        want = np.swapaxes(x, -1, -2)
        assert _described(got) == _described(want) and np.shares_memory(got, x) == np.shares_memory(want, x)


@pytest.mark.parametrize("dtype", _NP_DTYPES, ids=lambda d: np.dtype(d).name)
def test_numpy_repeat_is_np_repeat(dtype):
    ns = hd.namespace("numpy")
    for x in _np_arrays(dtype):
        for counts in [2, np.array([3]), np.arange(x.size) % 3, np.array(0)]:
            want = _outcome(np.repeat, x, counts)
            assert _outcome(ns.repeat, x, counts) == want
            assert _outcome(hd.repeat, x, counts) == want
        if x.ndim:
            counts = np.arange(x.shape[0]) % 2
            assert _outcome(ns.repeat, x, counts, axis=0) == _outcome(np.repeat, x, counts, axis=0)


@pytest.mark.parametrize("dtype", _NP_DTYPES, ids=lambda d: np.dtype(d).name)
def test_numpy_unique_values_is_the_sorted_unique_of_the_flattened_x(dtype):
    ns = hd.namespace("numpy")
    for x in _np_arrays(dtype):
        want = _outcome(np.unique, np.reshape(x, -1), equal_nan=False)
        assert _outcome(ns.unique_values, x) == want
        assert _outcome(hd.unique_values, x) == want


def test_numpy_linspace_of_python_reals_is_its_float64_linspace():
    ns = hd.namespace("numpy")
    ends = [0, 1, -3, 2**70, -(2**63), 0.0, -0.0, 1.5, -1e308, 1e308, float("nan"), float("inf")]
    for start, stop in itertools.product(ends, repeat=2):
        for num, endpoint in itertools.product([0, 1, 2, 10, 7.0, -1, np.int64(3), True], [True, False]):
            want = _outcome(np.linspace, start, stop, num, endpoint=endpoint, dtype=np.float64)
            assert _outcome(ns.linspace, start, stop, num, endpoint=endpoint) == want, (start, stop, num)
            if type(num) is int and num >= 0:  # (the front refuses the others up front)
                assert _outcome(hd.linspace, start, stop, num=num, endpoint=endpoint) == want
    # complex and NumPy-scalar ends keep the general path (complex128, float64)
    assert ns.linspace(0, 1j, 3).dtype == np.complex128
    assert ns.linspace(np.float32(0), 1, 3).dtype == np.float64
    assert ns.linspace(False, True, 3).dtype == np.float64


def _old_pinv(x, rtol):
    return np.linalg.pinv(x, rcond=max(np.shape(x)[-2:]) * np.finfo(x.dtype).eps if rtol is None else rtol)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.int64])
def test_numpy_pinv_default_rtol_is_max_shape_times_eps(dtype):
    ns = hd.namespace("numpy")
    rng = np.random.default_rng(0)
    for shape in [(1, 1), (4, 4), (3, 5), (2, 3, 2), (0, 3)]:
        x = (rng.standard_normal(shape) * 3).astype(dtype)
        if x.size:
            x[..., 0, :] = x[..., -1, :] * (1 + 1e-7)  # nearly dependent rows: a tiny singular value
        for rtol in [None, 0.1, 1e-12]:
            assert _outcome(ns.linalg.pinv, x, rtol=rtol) == _outcome(_old_pinv, x, rtol), (shape, rtol)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.float32, np.complex64])
def test_numpy_pad_is_np_pad(dtype):
    ns = hd.namespace("numpy")
    for x in _np_arrays(dtype, shapes=((10,), (0,), (1,), (2, 5), (0, 3))):
        for mode in ["wrap", "reflect", "symmetric", "edge"]:
            for widths in [((608, 954),) * x.ndim, ((1, 0),) * x.ndim, ((0, 0),) * x.ndim, 2, (1, 3)]:
                pairs = np.broadcast_to(np.asarray(widths), (x.ndim, 2)).tolist()
                if x.size == 0 and any(b or a for b, a in pairs):
                    with pytest.raises(hd.InvalidArgumentError, match="cannot pad an empty axis"):
                        ns.pad(x, widths, mode=mode)
                    continue
                want = _outcome(np.pad, x, widths, mode=mode)
                assert _outcome(ns.pad, x, widths, mode=mode) == want, (x, mode, widths)
                if isinstance(widths, tuple) and isinstance(widths[0], tuple):
                    assert _outcome(hd.pad, x, widths, mode=mode) == want


def test_numpy_asarray_without_keywords_is_np_asarray():
    ns = hd.namespace("numpy")
    for obj in [[[False]], [1, 2], [1.5, -0.0], 3, 2.5, [], [[1, 2], [3, 4]], np.arange(3), (1j, 2)]:
        got = ns.asarray(obj)
        assert _described(got) == _described(np.asarray(obj))
        assert _described(hd.asarray(obj, backend="numpy")) == _described(np.asarray(obj))
    x = np.arange(3.0)
    assert ns.asarray(x) is x
    objects = np.array([1, "a"], dtype=object)
    assert ns.asarray(objects) is objects  # an object array stays as it is
    for bad in [[1, None], [[1], [1, 2]], None]:
        with pytest.raises(Exception) as fast:
            ns.asarray(bad)
        with pytest.raises(Exception) as checked:
            ns.asarray(bad, copy=True)
        assert type(fast.value) is type(checked.value) and str(fast.value) == str(checked.value)
