"""The backend shims' fast paths for their common arguments (issue 20) answer as their checked
paths do: the skipped check would have passed the value unchanged, and the faster native
spelling writes the same bytes.

``roll``'s tuple shift and axis, ``repeat``'s integer array of counts, numpy's ``full`` and
``full_like`` (``np.empty`` + ``fill`` where that matches np.full's copyto)."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

import hedera as hd
from hedera import _argkinds
from hedera.backends._common import exact_axes


def test_exact_axes_is_ints_or_a_tuple_of_exact_ints():
    assert exact_axes(0) and exact_axes((-2,)) and exact_axes(()) and exact_axes((1, 2))
    for not_exact in (True, 1.0, np.int64(1), (1, 2.0), (np.int64(1),), [1], (True,), None):
        assert not exact_axes(not_exact), not_exact


@pytest.mark.parametrize("backend", ["numpy", "jax"])
def test_roll_namespace_still_refuses_a_float_in_a_tuple_shift(backend):
    pytest.importorskip(backend)
    ns = hd.namespace(backend)
    x = hd.asarray(np.arange(6.0).reshape(2, 3), backend=backend)
    with pytest.raises(hd.ArgumentTypeError, match="roll: shift"):
        ns.roll(x, (1.5,), axis=(1,))
    with pytest.raises(hd.ArgumentTypeError, match="roll: axis"):
        ns.roll(x, (1,), axis=(1.0,))
    want = np.roll(np.arange(6.0).reshape(2, 3), (1, -1), axis=(0, 1))
    np.testing.assert_array_equal(np.asarray(ns.roll(x, (1, -1), axis=(0, 1))), want)
    # NumPy integer scalars take the checked path, which turns them into ints
    np.testing.assert_array_equal(np.asarray(ns.roll(x, (np.int64(1), -1), axis=(0, 1))), want)


def test_repeat_array_counts_pass_the_front_check_as_they_are():
    counts = np.array([1, 0, 2])
    assert _argkinds.check_argument("repeat", "repeats", counts) is counts
    with pytest.raises(hd.ArgumentTypeError, match="repeat: repeats"):
        _argkinds.check_argument("repeat", "repeats", [1, 2])


@pytest.mark.parametrize("counts_dtype", [np.int64, np.int32, np.uint8])
def test_numpy_repeat_integer_counts(counts_dtype):
    x = np.arange(3.0, dtype=np.float32)
    counts = np.array([1, 0, 2], counts_dtype)
    np.testing.assert_array_equal(hd.repeat(x, counts), np.repeat(x, counts))
    np.testing.assert_array_equal(hd.namespace("numpy").repeat(x, counts), np.repeat(x, counts))


@pytest.mark.parametrize("front", ["hd", "namespace"])
def test_numpy_repeat_still_refuses_boolean_and_float_counts(front):
    repeat = hd.repeat if front == "hd" else hd.namespace("numpy").repeat
    x = np.arange(3.0)
    for counts in (np.array([True, False, True]), np.array([1.0, 0.0, 2.0])):
        with pytest.raises(hd.DtypeError, match="repeat: repeats must have an integer dtype"):
            repeat(x, counts)


_FILLS = [0.0, -0.0, 1 / 3, 1e300, float("nan"), 65520.0, 3, -7, 2**40, True, 1 + 2j, -0.0j,
          np.float32(1.5), np.int8(-3), np.array(2.5, np.float16)]  # fmt: skip
_DTYPES = [None, np.float16, np.float32, np.complex64, np.int8, np.uint64, np.bool_, hd.float32]
_LIKES = [
    np.ones(3, np.float32),
    np.ones((2, 3), np.int64, order="F"),
    np.ones((4, 6))[::2, ::3],
    np.array(True),
    np.ones((0, 2), np.complex64),
]


def _outcome(f, *args, **kwargs):
    """What a call gives: its array's dtype, shape, strides and bytes, or its error; and its
    warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = f(*args, **kwargs)
            got: tuple = (type(out), out.dtype, out.shape, out.strides, out.tobytes())
        except Exception as error:
            got = (type(error).__name__,)
    return got, sorted(type(w.message).__name__ for w in caught)


def _native_dtype(dtype):
    return dtype.dtype if isinstance(dtype, hd.DType) else dtype


def _fits(value, dtype) -> bool:
    """Whether hedera takes the Python int ``value`` into ``dtype`` (it refuses one that wraps)."""
    if type(value) is not int or dtype is None or np.dtype(dtype).kind not in "iu":
        return True
    info = np.iinfo(dtype)
    return info.min <= value <= info.max


@pytest.mark.parametrize("dtype", _DTYPES, ids=str)
def test_numpy_full_writes_what_np_full_writes(dtype):
    ns = hd.namespace("numpy")
    for value, shape in itertools.product(_FILLS, [(3,), 2, (0,), ()]):
        native = _native_dtype(dtype)
        if not _fits(value, native):
            continue
        if native is None and type(value) is int:
            native = np.int64
        assert _outcome(ns.full, shape, value, dtype=dtype) == _outcome(
            np.full, shape, value, dtype=native
        ), (value, shape)


@pytest.mark.parametrize("dtype", _DTYPES, ids=str)
def test_numpy_full_like_writes_what_np_full_like_writes(dtype):
    ns = hd.namespace("numpy")
    for value, x in itertools.product(_FILLS, _LIKES):
        if not _fits(value, _native_dtype(dtype) or x.dtype):
            continue
        assert _outcome(ns.full_like, x, value, dtype=dtype) == _outcome(
            np.full_like, x, value, dtype=_native_dtype(dtype)
        ), (value, x.dtype, x.strides)


def test_pad_widths_of_plain_pairs_pass_the_front_check_as_they_are():
    widths = ((608, 954), (0, 1))
    assert _argkinds.check_argument("pad", "pad_width", widths) is widths
    with pytest.raises(hd.InvalidArgumentError, match="pad: pad_width must be"):
        _argkinds.check_argument("pad", "pad_width", ((1, -2),))
    for bad in (((1, 2.0),), ((True, 1),), ((1, np.float32(2)),)):
        with pytest.raises(hd.ArgumentTypeError, match="pad: pad_width must be"):
            _argkinds.check_argument("pad", "pad_width", bad)
    # NumPy integer scalars take the checked path, which turns them into ints
    assert _argkinds.check_argument("pad", "pad_width", ((np.int64(1), 2),)) == ((1, 2),)


def test_torch_full_and_full_like_keyword_free_calls():
    torch = pytest.importorskip("torch")
    ns = hd.namespace("torch")
    for value in (0, 28, -(2**63), 2**63 - 1):
        want = torch.full((2, 3), value)
        got = ns.full((2, 3), value)
        assert got.dtype == want.dtype == torch.int64 and torch.equal(got, want)
    for value in (2**63, -(2**63) - 1):
        with pytest.raises(hd.InvalidArgumentError, match="full: fill_value"):
            ns.full((2,), value)
    x = torch.ones(3, 2).t()  # a transposed x: full_like keeps its strides
    for dtype, device in [(hd.float32, "cpu"), (hd.float32, None), (None, "cpu"), (hd.float64, "cpu")]:
        want = torch.full_like(x, 1.5, dtype=None if dtype is None else getattr(torch, dtype.name))
        got = ns.full_like(x, 1.5, dtype=dtype, device=device)
        assert got.dtype == want.dtype and got.stride() == want.stride() and torch.equal(got, want)
    with pytest.raises(hd.InvalidArgumentError, match="full_like: fill_value 300"):
        ns.full_like(x, 300, dtype=hd.int8, device="cpu")


def test_jax_astype_to_a_device_casts_once_and_still_copies_a_same_dtype_x():
    jax = pytest.importorskip("jax")
    ns = hd.namespace("jax")
    device = jax.devices("cpu")[0]
    x = hd.asarray(np.array([False, True]), backend="jax")
    got = ns.astype(x, hd.complex64, device=device)
    assert got.dtype == np.complex64 and got.committed and got.devices() == {device}
    np.testing.assert_array_equal(np.asarray(got), np.array([0, 1], np.complex64))
    same = ns.astype(got, hd.complex64, device=device)  # copy=True, the standard's default: a new buffer
    assert same.unsafe_buffer_pointer() != got.unsafe_buffer_pointer()


@pytest.mark.parametrize("shape", [(1,), (7,), (3, 4), (2, 3, 5)])
def test_tensorflow_rfft_irfft_along_the_last_axis_by_its_index(shape):
    """axis=ndim-1 (the harness's axis=0 of a 1-d x) takes the raw op, as axis=-1 does."""
    tf = pytest.importorskip("tensorflow")
    rng = np.random.default_rng(0)
    x = tf.constant(rng.standard_normal(shape).astype(np.float32))
    c = tf.constant((rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(np.complex64))
    ns, last = hd.namespace("tensorflow"), len(shape) - 1
    assert ns.fft.rfft(x, axis=last).numpy().tobytes() == ns.fft.rfft(x).numpy().tobytes()
    want = np.fft.rfft(x.numpy().astype(np.float64), axis=last)
    np.testing.assert_allclose(ns.fft.rfft(x, axis=last).numpy(), want, rtol=1e-4, atol=1e-4)
    if shape[-1] >= 2:
        assert ns.fft.irfft(c, axis=last).numpy().tobytes() == ns.fft.irfft(c).numpy().tobytes()
        want = np.fft.irfft(c.numpy().astype(np.complex128), axis=last)
        np.testing.assert_allclose(ns.fft.irfft(c, axis=last).numpy(), want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("shape", [(), (3,), (2, 3)])
def test_tensorflow_repeat_without_axis_flattens_as_numpy(shape):
    tf = pytest.importorskip("tensorflow")
    x = np.arange(int(np.prod(shape)), dtype=np.int8).reshape(shape)
    size = x.size
    ns = hd.namespace("tensorflow")
    for counts in (np.array([3]), np.arange(size) % 3, np.array(2)):
        got = ns.repeat(tf.constant(x), tf.constant(counts))
        np.testing.assert_array_equal(got.numpy(), np.repeat(x, counts))
        assert got.dtype == tf.int8
    with pytest.raises(hd.DtypeError, match="repeat: repeats must have an integer dtype"):
        ns.repeat(tf.constant(x), tf.constant([True]))
