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


# ---- torch ----------------------------------------------------------------------------------

_TORCH_DTYPE_NAMES = ["bool", "int8", "uint8", "int32", "int64", "float16", "float32", "float64", "complex64"]


def _torch_arrays(dtype_name, shapes=((10,), (0,), (), (1,), (2, 5), (3, 1, 4))):
    torch = pytest.importorskip("torch")
    return [torch.from_numpy(np.ascontiguousarray(x)) for x in _np_arrays(np.dtype(dtype_name), shapes)]


def _torch_outcome(f, *args, **kwargs):
    """As _outcome, for torch results (a bool, a tensor or a tuple of them); errors by type."""
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            out = f(*args, **kwargs)
        except Exception as error:
            return (type(error).__name__,)

    def described(o):
        if isinstance(o, tuple):
            return (type(o).__name__, *(described(i) for i in o))
        if isinstance(o, torch.Tensor):
            data = o.detach().resolve_conj().contiguous()
            return (type(o), o.dtype, tuple(o.shape), o.stride(), data.numpy().tobytes())
        return (type(o), o)

    return described(out)


def _assert_front(got, want):
    """hd.f's outcome is the namespace's, where that is an answer (an error: hd.f's diagnosis of it)."""
    assert got == want if len(want) > 1 else len(got) == 1, (got, want)


def _all_isclose(torch, x1, x2, rtol, atol, equal_nan):
    return bool(torch.all(hd.namespace("torch").isclose(x1, x2, rtol=rtol, atol=atol, equal_nan=equal_nan)))


@pytest.mark.parametrize("dtype", _TORCH_DTYPE_NAMES)
def test_torch_allclose_at_its_defaults_is_torch_allclose(dtype):
    torch = pytest.importorskip("torch")
    ns = hd.namespace("torch")
    arrays = _torch_arrays(dtype)
    tolerances = [(1e-05, 1e-08, False), (0.5, 1e-08, False), (1e-05, 2.0, True), (0, 0, False)]
    for x1, x2 in itertools.product(arrays[:4], repeat=2):
        for rtol, atol, equal_nan in tolerances:
            if x1.shape == x2.shape:
                want = _torch_outcome(torch.allclose, x1, x2, rtol, atol, equal_nan)
            else:
                want = _torch_outcome(_all_isclose, torch, x1, x2, rtol, atol, equal_nan)
            kwargs = dict(rtol=rtol, atol=atol, equal_nan=equal_nan)
            assert _torch_outcome(ns.allclose, x1, x2, **kwargs) == want, (x1, x2, kwargs)
            _assert_front(_torch_outcome(hd.allclose, x1, x2, **kwargs), want)
        want = _torch_outcome(ns.allclose, x1, x2, rtol=1e-05, atol=1e-08 + 0.0)
        assert _torch_outcome(ns.allclose, x1, x2) == want
        _assert_front(_torch_outcome(hd.allclose, x1, x2), want)


def _old_einsum(torch, subscripts, *operands):
    """torch.einsum with the shim's dtype rules (its spelling before the fast path)."""
    from hedera.backends.torch._core import result_dtype

    dt = operands[0].dtype
    for o in operands[1:]:
        if o.dtype is not dt:
            dt = result_dtype(dt, o.dtype)
    out = torch.einsum(subscripts, *[o if o.dtype is dt else o.to(dt) for o in operands])
    return out if out.dtype is dt else out.to(dt)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "int64", "float32", "float64", "complex64"])
def test_torch_einsum_of_two_operands_is_torch_einsum(dtype):
    torch = pytest.importorskip("torch")
    ns = hd.namespace("torch")
    rng = np.random.default_rng(1)
    a = torch.from_numpy((rng.standard_normal((2, 3, 4)) * 4).astype(dtype))
    b = torch.from_numpy((rng.standard_normal((2, 4, 5)) * 4).astype(dtype))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        v = torch.from_numpy(np.array([np.nan, -0.0, 3.0, np.inf]).astype(dtype))
    cases = [
        ("...ij,...jk->...ik", a, b),
        ("bij,bjk->bik", a, b),
        ("i,i->", v, v),
        ("i,j->ij", v, v),
        ("ii->i", a[0, :3, :3]),
        ("ijk->", a),
        ("bij,bjk,bkl->bil", a, b, b.transpose(1, 2)),  # three operands: torch.einsum's path
        ("i,i->", v, v.to(torch.float64)),  # mixed dtypes: promoted first
        ("i,i", v, v),  # no output spelled
        ("i,i->", v, v[:2]),  # torch's own error
    ]
    for subscripts, *operands in cases:
        want = _torch_outcome(_old_einsum, torch, subscripts, *operands)
        assert _torch_outcome(ns.einsum, subscripts, *operands) == want, subscripts
        _assert_front(_torch_outcome(hd.einsum, subscripts, *operands), want)


def test_torch_einsum_traces_under_torch_compile():
    torch = pytest.importorskip("torch")
    ns = hd.namespace("torch")
    compiled = torch.compile(lambda a, b: ns.einsum("ij,jk->ik", a, b), backend="eager", fullgraph=True)
    a, b = torch.arange(6.0).reshape(2, 3), torch.arange(12.0).reshape(3, 4)
    assert torch.equal(compiled(a, b), a @ b)


def test_torch_asarray_without_keywords_is_torch_asarray():
    torch = pytest.importorskip("torch")
    ns = hd.namespace("torch")
    objects = [[[False]], [1, 2], (1.5, -0.0), 3, 2.5, True, 1 - 2j, [], [[1, 2], [3, 4]], [2**62, -(2**62)]]
    for obj in objects:
        want = _torch_outcome(torch.asarray, obj, dtype=None, device=None, copy=None)
        assert _torch_outcome(ns.asarray, obj) == want, obj
        _assert_front(_torch_outcome(hd.asarray, obj, backend="torch"), want)
    for bad in [[2**64], [1, "a"], [[1], [1, 2]]]:
        fast, checked = _torch_outcome(ns.asarray, bad), _torch_outcome(ns.asarray, bad, device="cpu")
        assert len(fast) == 1 and fast == checked, bad
    x = torch.arange(3)
    assert ns.asarray(x) is x


def _old_diff(torch, x, axis, n):
    return x.clone() if n == 0 else torch.diff(x, n=n, dim=axis, prepend=None, append=None)


@pytest.mark.parametrize("dtype", _TORCH_DTYPE_NAMES)
def test_torch_diff_without_prepend_or_append_is_torch_diff(dtype):
    torch = pytest.importorskip("torch")
    ns = hd.namespace("torch")
    for x in _torch_arrays(dtype):
        for axis, n in [(-1, 1), (0, 1), (0, 2), (1, 1), (-2, 3), (0, 0), (5, 1)]:
            want = _torch_outcome(_old_diff, torch, x, axis, n)
            assert _torch_outcome(ns.diff, x, axis=axis, n=n) == want, (x.shape, axis, n)
            _assert_front(_torch_outcome(hd.diff, x, axis=axis, n=n), want)


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "float16", "float32", "float64"])
def test_torch_searchsorted_without_sorter_is_torch_searchsorted(dtype):
    torch = pytest.importorskip("torch")
    from hedera.backends.torch._core import promote_all

    ns = hd.namespace("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sorted_ = torch.from_numpy(
            np.array([-np.inf, -2.5, -0.0, 0.0, 0.0, 1.5, 3.0, 3.0, np.nan]).astype(dtype)
        )
        values = torch.from_numpy(np.array([0.0, -0.0, 3.0, np.nan, np.inf, -7.0]).astype(dtype))
    pairs = [
        (sorted_, values),
        (sorted_, values[2]),
        (sorted_[:0], values),
        (sorted_, values.to(torch.float64)),
    ]
    for x1, x2 in pairs:
        for side in ["left", "right"]:
            a, b = (x1, x2) if x1.dtype is x2.dtype else promote_all(x1, x2)
            want = _torch_outcome(torch.searchsorted, a, b, side=side, sorter=None)
            assert _torch_outcome(ns.searchsorted, x1, x2, side=side) == want
            _assert_front(_torch_outcome(hd.searchsorted, x1, x2, side=side), want)
    with pytest.raises(hd.InvalidArgumentError, match="side: expected 'left' or 'right'"):
        ns.searchsorted(sorted_, values, side="middle")
    for side in ["left", "right"]:  # a Python scalar x2: the general path, as x1's dtype
        want = torch.searchsorted(sorted_, torch.tensor(3.0, dtype=sorted_.dtype), side=side)
        assert torch.equal(ns.searchsorted(sorted_, 3.0, side=side), want)


def _old_result(result, f, x, **kwargs):
    return result(*f(x, **kwargs))


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64"])
def test_torch_qr_and_svd_at_their_defaults_are_torch_linalg(dtype):
    torch = pytest.importorskip("torch")
    from hedera.backends._common import QRResult, SVDResult

    ns = hd.namespace("torch")
    rng = np.random.default_rng(2)
    for shape in [(1, 1), (2, 2), (3, 2), (2, 4), (2, 3, 3), (0, 2)]:
        x = torch.from_numpy(rng.standard_normal(shape).astype(dtype))
        for mode in ["reduced", "complete", "r"]:
            want = _torch_outcome(_old_result, QRResult, torch.linalg.qr, x, mode=mode)
            assert _torch_outcome(ns.linalg.qr, x, mode=mode) == want
            _assert_front(_torch_outcome(hd.linalg.qr, x, mode=mode), want)
        for full in [True, False]:
            want = _torch_outcome(_old_result, SVDResult, torch.linalg.svd, x, full_matrices=full)
            assert _torch_outcome(ns.linalg.svd, x, full_matrices=full) == want
            _assert_front(_torch_outcome(hd.linalg.svd, x, full_matrices=full), want)
        assert type(ns.linalg.qr(x)) is QRResult and type(hd.linalg.svd(x)) is SVDResult
        assert ns.linalg.qr(x).R.shape[-1] == shape[-1] and hd.linalg.svd(x).Vh.shape[-1] == shape[-1]


def test_torch_solve_of_one_shape_is_torch_linalg_solve():
    torch = pytest.importorskip("torch")
    ns = hd.namespace("torch")
    rng = np.random.default_rng(3)
    shapes = [((1, 1), (1, 1)), ((2, 2), (2, 2)), ((3, 2, 2), (3, 2, 2)), ((2,), (2,)), ((2, 2), (2,)),
              ((2, 2, 2), (2, 2)), ((3, 3, 3), (3, 3)), ((2, 2), (2, 3)), ((0, 2, 2), (0, 2, 2))]  # fmt: skip
    for s1, s2 in shapes:
        for dtype in ["float32", "float64", "complex128"]:
            x1 = torch.from_numpy(rng.standard_normal(s1).astype(dtype) + 3 * np.eye(s1[-1]).astype(dtype))
            x2 = torch.from_numpy(rng.standard_normal(s2).astype(dtype))
            want = _torch_outcome(ns.linalg.solve, x1, x2)  # (the shim's own path: the namespace)
            _assert_front(_torch_outcome(hd.linalg.solve, x1, x2), want)
            if s1 == s2 and len(s1) >= 2:
                assert want == _torch_outcome(torch.linalg.solve, x1, x2)
    # the standard's reading where torch's differs: x2 of shape x1.shape[:-1] is a stack of matrices
    x1, x2 = torch.eye(3).expand(3, 3, 3), torch.arange(9.0).reshape(3, 3)
    assert hd.linalg.solve(x1, x2).shape == (3, 3, 3)


def _old_take(torch, x, indices, axis):
    """The shim's general path: x[..., indices] along axis (torch.take for a 1-d x, int64 indices)."""
    if x.ndim == 1 and indices.dtype is torch.int64 and axis in (None, 0, -1):
        return torch.take(x, indices)
    if axis is None and x.ndim != 1:
        raise hd.InvalidArgumentError("axis")
    return x[(slice(None),) * ((axis or 0) % x.ndim) + (indices.long(),)]


@pytest.mark.parametrize("dtype", _TORCH_DTYPE_NAMES)
def test_torch_take_where_cumulative_sum_are_torch(dtype):
    torch = pytest.importorskip("torch")
    ns = hd.namespace("torch")
    for x in _torch_arrays(dtype, shapes=((10,), (1,), (0,), (2, 5))):
        n = x.shape[0]
        for indices in [
            torch.arange(n) % max(n, 1),
            -torch.arange(1, n + 1),
            torch.arange(n, dtype=torch.int32),
        ]:
            for axis in [None, 0, -1]:
                want = _torch_outcome(_old_take, torch, x, indices, axis)
                assert _torch_outcome(ns.take, x, indices, axis=axis) == want, (x.shape, indices.dtype, axis)
                _assert_front(_torch_outcome(hd.take, x, indices, axis=axis), want)
        condition = torch.arange(x.numel()).reshape(x.shape) % 3 == 0
        for other in [x.flip(0), x[:1], 2.5]:
            if isinstance(other, float) and not x.dtype.is_floating_point:
                continue
            want = _torch_outcome(torch.where, condition, x, other)
            assert _torch_outcome(ns.where, condition, x, other) == want
            _assert_front(_torch_outcome(hd.where, condition, x, other), want)
        for axis in range(-x.ndim, x.ndim):
            if x.dtype is not torch.uint8:
                want = _torch_outcome(torch.cumsum, x, axis)
                assert _torch_outcome(ns.cumulative_sum, x, axis=axis) == want
                _assert_front(_torch_outcome(hd.cumsum, x, axis=axis), want)


# ---- more of the same causes: result tuples, keywords at their defaults -------------------------


def _old_tuple(result, f, *args, **kwargs):
    return result(*f(*args, **kwargs))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64])
def test_numpy_linalg_and_unique_results_are_their_namedtuples(dtype):
    from hedera.backends import _common as c

    ns = hd.namespace("numpy")
    rng = np.random.default_rng(4)
    for shape in [(1, 1), (3, 3), (2, 3, 3)]:
        x = rng.standard_normal(shape).astype(dtype)
        x = x + np.swapaxes(x, -1, -2).conj()  # (Hermitian, for eigh)
        for got, want in [
            (_outcome(ns.linalg.eigh, x), _outcome(_old_tuple, c.EighResult, np.linalg.eigh, x)),
            (_outcome(ns.linalg.slogdet, x), _outcome(_old_tuple, c.SlogdetResult, np.linalg.slogdet, x)),
            (_outcome(ns.linalg.qr, x), _outcome(_old_tuple, c.QRResult, np.linalg.qr, x, mode="reduced")),
            (
                _outcome(ns.linalg.svd, x),
                _outcome(_old_tuple, c.SVDResult, np.linalg.svd, x, full_matrices=True),
            ),
            (_outcome(ns.unique_all, x), _outcome(_old_tuple, c.UniqueAllResult, np.unique_all, x)),
            (_outcome(ns.unique_counts, x), _outcome(_old_tuple, c.UniqueCountsResult, np.unique_counts, x)),
            (
                _outcome(ns.unique_inverse, x),
                _outcome(_old_tuple, c.UniqueInverseResult, np.unique_inverse, x),
            ),
        ]:
            assert got == want
    assert type(ns.linalg.eigh(x)) is c.EighResult and type(hd.unique_counts(x)) is c.UniqueCountsResult
    assert type(hd.linalg.slogdet(x)) is c.SlogdetResult and hd.linalg.slogdet(x).logabsdet.shape == (2,)


@pytest.mark.parametrize("dtype", _NP_DTYPES, ids=lambda d: np.dtype(d).name)
def test_numpy_tril_triu_var_std_are_numpy(dtype):
    ns = hd.namespace("numpy")
    for x in _np_arrays(dtype):
        for k in [0, -1, 2]:
            for f, native in [(ns.tril, np.tril), (ns.triu, np.triu)]:
                if x.ndim < 2:
                    with pytest.raises(hd.ShapeError, match="at least two dimensions"):
                        f(x, k=k)
                else:
                    assert _outcome(f, x, k=k) == _outcome(native, x, k)
        if np.dtype(dtype).kind in "fc":
            for correction, axis, keepdims in [
                (0, None, False),
                (0.0, 0, True),
                (1, None, False),
                (1.5, -1, False),
            ]:
                if axis is not None and x.ndim == 0:
                    continue
                for f, native in [(hd.var, np.var), (hd.std, np.std), (ns.var, np.var)]:
                    want = _outcome(native, x, axis=axis, ddof=correction, keepdims=keepdims)
                    assert _outcome(f, x, axis=axis, correction=correction, keepdims=keepdims) == want


def _old_sort(torch, x, axis, descending, stable):
    return torch.sort(x, dim=axis, descending=descending, stable=stable).values


@pytest.mark.parametrize("dtype", _TORCH_DTYPE_NAMES)
def test_torch_sort_unstable_and_of_integers_is_torch_sort(dtype):
    torch = pytest.importorskip("torch")
    ns = hd.namespace("torch")
    for x in _torch_arrays(dtype):
        for axis, descending, stable in itertools.product([-1, 0], [False, True], [False, True]):
            if x.ndim == 0 and axis == 0:
                continue
            old_stable = stable and (x.dtype.is_floating_point or x.dtype.is_complex)
            want = _torch_outcome(_old_sort, torch, x, axis, descending, old_stable)
            assert _torch_outcome(ns.sort, x, axis=axis, descending=descending, stable=stable) == want
            _assert_front(_torch_outcome(hd.sort, x, axis=axis, descending=descending, stable=stable), want)


def test_torch_cholesky_and_eigh_are_torch_linalg():
    torch = pytest.importorskip("torch")
    from hedera.backends._common import EighResult

    ns = hd.namespace("torch")
    rng = np.random.default_rng(5)
    for shape, dtype in itertools.product([(1, 1), (3, 3), (2, 3, 3)], ["float32", "float64", "complex64"]):
        a = rng.standard_normal(shape).astype(dtype)
        x = torch.from_numpy(a @ np.swapaxes(a, -1, -2).conj() + 3 * np.eye(shape[-1], dtype=dtype))
        for upper in [False, True]:
            want = _torch_outcome(torch.linalg.cholesky, x, upper=upper)
            assert _torch_outcome(ns.linalg.cholesky, x, upper=upper) == want
            assert _torch_outcome(hd.linalg.cholesky, x, upper=upper) == want
        want = _torch_outcome(_old_tuple, EighResult, torch.linalg.eigh, x)
        assert _torch_outcome(ns.linalg.eigh, x) == want and _torch_outcome(hd.linalg.eigh, x) == want
    assert type(hd.linalg.eigh(x)) is EighResult
    not_positive = -torch.eye(2)  # torch's own error, as before
    assert _torch_outcome(ns.linalg.cholesky, not_positive) == _torch_outcome(
        torch.linalg.cholesky, not_positive
    )
