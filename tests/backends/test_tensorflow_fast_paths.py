"""The TensorFlow backend's common-case paths (TF's ops called directly, operands cached) give what
TF's public functions give, bit for bit, eagerly and inside ``tf.function`` (unknown rank too).

The harness (tests/core) checks the answers against NumPy; this checks that the paths that skip
TF's Python wrappers run the same ops: same values, dtypes and shapes as ``tf.reduce_sum`` & co.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")

import hedera as hd  # noqa: E402

RNG = np.random.default_rng(0)


def _same(got, want) -> None:
    assert got.dtype == want.dtype and tuple(got.shape) == tuple(want.shape), (got, want)
    if got.dtype == tf.bfloat16:  # (NumPy cannot read a 0-d bfloat16 tensor; float32 holds it exactly)
        got, want = tf.cast(got, tf.float32), tf.cast(want, tf.float32)
    np.testing.assert_array_equal(got.numpy(), want.numpy())


INPUTS = [
    tf.constant(1.5),
    tf.constant(RNG.standard_normal(5).astype(np.float32)),
    tf.constant(RNG.standard_normal((3, 4))),
]

REDUCTIONS = [
    (hd.sum, tf.reduce_sum),
    (hd.prod, tf.reduce_prod),
    (hd.max, tf.reduce_max),
    (hd.min, tf.reduce_min),
    (hd.mean, tf.reduce_mean),
    (hd.var, tf.math.reduce_variance),
    (hd.std, tf.math.reduce_std),
    (hd.logsumexp, tf.reduce_logsumexp),
]


@pytest.mark.parametrize("ours, theirs", REDUCTIONS, ids=lambda f: getattr(f, "__name__", ""))
@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions_match_tf(ours, theirs, keepdims) -> None:
    for x in INPUTS:
        axes = [None, *range(-x.shape.rank, x.shape.rank)]
        for axis in axes:
            _same(ours(x, axis=axis, keepdims=keepdims), theirs(x, axis=axis, keepdims=keepdims))
        _same(ours(x, keepdims=keepdims), theirs(x, keepdims=keepdims))  # twice: the cached axes


def test_reductions_in_tf_function_with_unknown_rank() -> None:
    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
    def total(x):
        return hd.sum(x), hd.max(x), hd.logsumexp(x)

    x = tf.constant(RNG.standard_normal((2, 3)).astype(np.float32))
    for got, want in zip(total(x), (tf.reduce_sum(x), tf.reduce_max(x), tf.reduce_logsumexp(x)), strict=True):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=0, atol=0)


@pytest.mark.parametrize("shape", [(), 3, (2, 0), [2, 3]])
@pytest.mark.parametrize("name", ["float32", "bool", "int64", "bfloat16", "complex64"])
def test_zeros_ones_match_tf(shape, name) -> None:
    dt = getattr(tf, name)
    _same(hd.zeros(shape, dtype=getattr(hd, name), backend="tensorflow"), tf.zeros(shape, dt))
    _same(hd.ones(shape, dtype=getattr(hd, name), backend="tensorflow"), tf.ones(shape, dt))


@pytest.mark.parametrize("rows, cols", [(0, None), (3, None), (2, 4), (4, 2), (0, 3), (1, 1)])
def test_eye_matches_tf(rows, cols) -> None:
    for name in ("float32", "int32", "float64"):
        _same(
            hd.eye(rows, cols, dtype=getattr(hd, name), backend="tensorflow"),
            tf.eye(rows, cols, dtype=getattr(tf, name)),
        )


def test_creation_inside_tf_function_takes_the_graph_path() -> None:
    @tf.function
    def made():
        return hd.zeros((2,), backend="tensorflow"), hd.eye(2, backend="tensorflow")

    zeros, eye = made()
    _same(zeros, tf.zeros((2,)))
    _same(eye, tf.eye(2))


def test_linalg_and_manipulation_match_tf() -> None:
    a = tf.constant(RNG.standard_normal((2, 3, 4)).astype(np.float32))
    b = tf.constant(RNG.standard_normal((4, 3, 5)).astype(np.float32))
    _same(hd.tensordot(a, b, axes=([1, 2], [1, 0])), tf.tensordot(a, b, axes=([1, 2], [1, 0])))
    _same(hd.tensordot(a, a, axes=0), tf.tensordot(a, a, axes=0))
    m = tf.constant(RNG.standard_normal((3, 3)).astype(np.float32))
    _same(hd.matmul(m, m), tf.linalg.matmul(m, m))
    _same(hd.matrix_transpose(a), tf.linalg.matrix_transpose(a))
    _same(hd.linalg.solve(m, m), tf.linalg.solve(m, m))
    _same(hd.linalg.cross(a[..., :3], a[..., 1:]), tf.linalg.cross(a[..., :3], a[..., 1:]))
    _same(hd.squeeze(a[:1], 0), tf.squeeze(a[:1], 0))
    _same(hd.tile(m, (2, 1)), tf.tile(m, (2, 1)))
    _same(hd.astype(m, hd.int32), tf.cast(m, tf.int32))


def test_einsum_one_hot_gather_fft_match_tf() -> None:
    a = tf.constant(RNG.standard_normal((2, 3)).astype(np.float32))
    b = tf.constant(RNG.standard_normal((3, 4)).astype(np.float32))
    for equation in ("ij,jk", "ij,jk->ik", "...j,jk->...k", "ij->"):
        operands = (a, b) if "," in equation else (a,)
        for _ in range(2):  # the second call reads the cached equation
            _same(hd.einsum(equation, *operands), tf.einsum(equation, *operands))
    i = tf.constant([1, 0, 2])
    _same(hd.one_hot(i, 3), tf.one_hot(i, 3))
    _same(hd.one_hot(i, 3, dtype=hd.int32, axis=0), tf.one_hot(i, 3, dtype=tf.int32, axis=0))
    _same(hd.gather_nd(a, tf.constant([[1, 2]])), tf.gather_nd(a, [[1, 2]]))
    _same(hd.gather_nd(a, tf.constant([[-1, -2]])), tf.gather_nd(a, [[1, 1]]))  # negative: wrapped
    x = tf.constant(RNG.standard_normal(8).astype(np.float32))
    _same(hd.fft.rfft(x), tf.signal.rfft(x))
    _same(hd.fft.irfft(tf.signal.rfft(x)), tf.signal.irfft(tf.signal.rfft(x)))


# ---- issue 20: TF's ops without its Python wrappers, and the C front's native common cases ----------


def _outcome(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except Exception as error:  # (the class is the answer)
        return error


def _same_bits(got, want, where="") -> None:
    """The same answer: type, dtype, shape, values, NaN places and signs of zeros."""
    assert type(got) is type(want), (where, got, want)
    if isinstance(want, Exception):
        return
    assert got.dtype == want.dtype and tuple(got.shape) == tuple(want.shape), (where, got, want)
    g, w = got.numpy(), want.numpy()
    parts = ((g.real, w.real), (g.imag, w.imag)) if w.dtype.kind == "c" else ((g, w),)
    for a, b in parts:
        np.testing.assert_array_equal(a, b, err_msg=where)
        if a.dtype.kind == "f":
            np.testing.assert_array_equal(np.signbit(a), np.signbit(b), err_msg=where)


_SPECIAL = [np.nan, -np.inf, -1.5, -0.0, 0.0, 1.0, 2.5, np.inf]


def _tensors() -> list:
    """Eager tensors of every kind the comparison and bitwise ops see, special values included."""
    floats = np.array(_SPECIAL)
    out = [tf.constant(floats.astype(d)) for d in (np.float16, np.float32, np.float64)]
    out.append(tf.cast(tf.constant(floats, tf.float32), tf.bfloat16))
    out += [tf.constant((floats + 1j * floats[::-1]).astype(d)) for d in (np.complex64, np.complex128)]
    ints = np.array([0, 1, 3, 5, 7, 100, 127, 2])
    out += [
        tf.constant(ints.astype(d))
        for d in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
    ]
    out += [
        tf.constant(-ints.astype(np.int64)),
        tf.constant([True, False, True, False, True, True, False, False]),
    ]
    return out


_SCALARS = [0.0, -0.0, 1.5, -2.0, np.inf, 0j, complex(-0.0, 0.0), complex(0.0, -0.0), 1j, 1 + 2j,
            0, 1, -1, 300, 2**40, True, False]  # fmt: skip


def test_plain_ops_are_the_generated_functions_under_the_weak_tensor_wrappers() -> None:
    """``_private.gen_math_ops.log`` is the generated function TF's WeakTensor wrapper calls (the same
    op and answers), names without a wrapper are the module's own, and the wrapped ones exist."""
    from tensorflow.python.ops import gen_bitwise_ops, gen_math_ops

    from hedera.backends.tensorflow import _private

    unwrapped = 0
    for name in ("log", "tanh", "sin", "maximum", "minimum", "sub", "equal", "real_div", "floor_mod", "less"):
        theirs = getattr(gen_math_ops, name)
        ours = getattr(_private.gen_math_ops, name)
        if ours is not theirs:
            assert ours is theirs.__wrapped__, name
            unwrapped += 1
    assert unwrapped >= 8  # (the pinned TF wraps all of these but less)
    assert _private.gen_bitwise_ops.invert is gen_bitwise_ops.invert.__wrapped__
    assert _private.gen_math_ops.less is gen_math_ops.less
    x = tf.constant(np.array(_SPECIAL, np.float32))
    y = tf.constant(np.array(_SPECIAL[::-1], np.float32))
    for name in ("log", "tanh", "sin", "square", "neg", "reciprocal"):
        _same_bits(getattr(_private.gen_math_ops, name)(x), getattr(gen_math_ops, name)(x), name)
    for name in ("maximum", "minimum", "sub", "equal", "real_div", "floor_mod", "_pow"):
        _same_bits(getattr(_private.gen_math_ops, name)(x, y), getattr(gen_math_ops, name)(x, y), name)
    i = tf.constant([0, 5, -7], tf.int64)
    _same_bits(_private.gen_bitwise_ops.invert(i), gen_bitwise_ops.invert(i))


_NATIVE_CASES = ["equal", "not_equal", "greater", "greater_equal", "less", "less_equal", "logical_and",
                 "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor"]  # fmt: skip


@pytest.mark.parametrize("name", _NATIVE_CASES)
def test_binary_native_common_case_answers_as_the_shim(name) -> None:
    """Where the op the C front calls for ``f(x1, x2)`` of two tensors (of one dtype or of two)
    returns an answer, the shim gives the same one; and the front gives the shim's answer for those
    and for Python scalars (zeros of both signs, ints out of a dtype's range, bools, complex) on
    either side, which the C front leaves to the shim (``one_type``: TF's own conversion of an int
    out of uint64's range can abort the process, check_int_operand)."""
    xp = hd.namespace("tensorflow")
    shim = getattr(xp, name)
    native = shim.__hedera_native__[0]
    tensors = _tensors()
    pairs = [(a, b) for a in tensors for b in tensors if a.dtype == b.dtype or a is tensors[0]]
    pairs += [(a, s) for a in tensors for s in _SCALARS] + [(s, a) for a in tensors for s in _SCALARS]
    answered = 0
    for x1, x2 in pairs:
        got = _outcome(native, x1, x2) if type(x1) is type(x2) else None  # (what the C front sends)
        want = _outcome(shim, x1, x2)
        front = _outcome(getattr(hd, name), x1, x2)
        where = f"{name}({x1!r}, {x2!r})"
        if got is not None and not isinstance(got, Exception):
            answered += 1
            _same_bits(got, want, where)
        if isinstance(want, Exception):
            assert isinstance(front, Exception), where
        else:
            _same_bits(front, want, where)
    assert answered >= 1  # (logical_and answers for the bool tensor only)


def test_bitwise_invert_native_common_case() -> None:
    for x in _tensors():
        want = (
            hd.namespace("tensorflow").bitwise_invert(x) if x.dtype.is_integer or x.dtype == tf.bool else None
        )
        got = _outcome(tf.bitwise.invert, x)
        if want is None:
            continue
        if not isinstance(got, Exception):
            _same_bits(got, want)
        _same_bits(hd.bitwise_invert(x), want)
    _same_bits(hd.bitwise_invert(tf.constant([True, False])), tf.constant([False, True]))


def test_fft_native_common_case_answers_as_the_shim() -> None:
    xp = hd.namespace("tensorflow")
    values = np.array([*_SPECIAL, 3.0, -4.0])
    for dt in (np.complex64, np.complex128, np.float32, np.float64, np.int64):
        for shape in ((10,), (2, 5), (1,)):
            size = int(np.prod(shape))
            data = (values + 1j * values[::-1]) if np.dtype(dt).kind == "c" else values
            data = np.arange(size) if dt is np.int64 else data[:size]
            x = tf.constant(data.reshape(shape).astype(dt))
            for fname, op in (("fft", tf.signal.fft), ("ifft", tf.signal.ifft)):
                want = getattr(xp.fft, fname)(x)
                got = _outcome(op, x)
                if not isinstance(got, Exception):
                    _same_bits(got, want, fname)
                _same_bits(getattr(hd.fft, fname)(x), want, fname)

    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.complex64)])
    def graph(x):
        return xp.fft.fft(x), hd.fft.fft(x), xp.fft.ifft(x), hd.fft.ifft(x)

    x = tf.constant((RNG.standard_normal((3, 4)) + 1j).astype(np.complex64))
    a, b, c, d = graph(x)
    _same_bits(a, b)
    _same_bits(c, d)
    _same_bits(a, tf.signal.fft(x))
    assert isinstance(_outcome(hd.fft.fft, tf.constant(1 + 0j)), Exception)  # 0-d: the shim's error


def test_broadcast_to_and_expand_dims_match_tf() -> None:
    for x in (tf.constant(1.5), tf.constant([1, 2, 3]), tf.constant(np.zeros((2, 0, 3), np.float32))):
        rank = x.shape.rank
        for axis in range(-rank - 1, rank + 1):
            _same_bits(hd.expand_dims(x, axis=axis), tf.expand_dims(x, axis))
        for axis in (rank + 1, -rank - 2):
            with pytest.raises(hd.errors.InvalidAxisError):
                hd.expand_dims(x, axis=axis)
        shape = (4, *x.shape)
        _same_bits(hd.broadcast_to(x, shape=shape), tf.broadcast_to(x, shape))
        _same_bits(hd.broadcast_to(x, shape), tf.broadcast_to(x, shape))
    with pytest.raises(hd.errors.BroadcastError):  # (the shim's error where TF's op refuses)
        hd.broadcast_to(tf.constant([1, 2, 3]), shape=(2,))

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def graph(x):
        return hd.expand_dims(x, axis=-1), hd.expand_dims(x, axis=0), hd.broadcast_to(x[:1], shape=(5, 3))

    x = tf.constant(RNG.standard_normal((2, 3)).astype(np.float32))
    for got, want in zip(graph(x), (x[..., None], x[None], tf.broadcast_to(x[:1], (5, 3))), strict=True):
        _same_bits(got, want)


def test_qr_and_slogdet_match_tf() -> None:
    from hedera.backends._common import QRResult, SlogdetResult

    for dt in (np.float32, np.float64, np.complex64, np.complex128):
        m = RNG.standard_normal((3, 3)) + (
            1j * RNG.standard_normal((3, 3)) if np.dtype(dt).kind == "c" else 0
        )
        x = tf.constant(m.astype(dt))
        for mode, full in (("reduced", False), ("complete", True)):
            got = hd.linalg.qr(x, mode=mode)
            assert type(got) is QRResult
            for g, w in zip(got, tf.linalg.qr(x, full_matrices=full), strict=True):
                _same_bits(g, w)
        got = hd.linalg.slogdet(x)
        assert type(got) is SlogdetResult and got.sign.dtype == x.dtype
        sign, logabsdet = tf.linalg.slogdet(x)
        _same_bits(got.sign, sign)
        _same_bits(got.logabsdet, tf.math.real(logabsdet) if x.dtype.is_complex else logabsdet)
    singular = hd.linalg.slogdet(tf.zeros((2, 2)))
    assert singular.sign.numpy() == 0 and singular.logabsdet.numpy() == -np.inf
    with pytest.raises(hd.errors.InvalidArgumentError):
        hd.linalg.qr(tf.eye(2), mode="r")


def test_scatter_nd_eager_path_matches_the_graph_path() -> None:
    """The eager common case (dtype numbers, shape tuple) gives what the general path gives (inside
    tf.function), negative indices (wrapped once), bool updates, every index dtype and batch rank."""

    def general(indices, updates, shape):
        @tf.function
        def run(i, u):
            return hd.scatter_nd(i, u, shape)

        return run(indices, updates)

    cases = [
        ([[0], [2], [-1], [2]], [1.5, -0.0, 2.0, 4.0], (4,)),
        ([[0, 1], [-1, -2], [1, 0]], [1.0, 2.0, 3.0], (2, 3)),
        ([[1], [3]], [[1.0, 2.0], [3.0, 4.0]], (4, 2)),
        ([[[0], [1]], [[1], [-4]]], [[1.0, 2.0], [3.0, 4.0]], (4,)),
        ([[0], [-1], [0]], [True, False, True], (3,)),
        ([[0], [1], [1]], [7, -2, 5], (3,)),
    ]
    for index_dtype in (tf.int32, tf.int64, tf.int16, tf.uint8):
        for indices, updates, shape in cases:
            if index_dtype is tf.uint8 and np.min(indices) < 0:
                continue
            i, u = tf.constant(indices, index_dtype), tf.constant(updates)
            if index_dtype in (tf.int16, tf.uint8):  # (TF's kernel may refuse them: then both raise)
                want = _outcome(general, i, u, shape)
                got = _outcome(hd.scatter_nd, i, u, shape)
                assert isinstance(got, Exception) == isinstance(want, Exception), (indices, index_dtype)
                if not isinstance(want, Exception):
                    _same_bits(got, want)
                continue
            _same_bits(hd.scatter_nd(i, u, shape), general(i, u, shape), f"{indices} {index_dtype}")
    # the eager path wraps a negative index once (a second wrap would move -5 of 4 to -1, then 3)
    got = _outcome(hd.scatter_nd, tf.constant([[-5]]), tf.constant([1.0]), (4,))
    want = _outcome(general, tf.constant([[-5]]), tf.constant([1.0]), (4,))
    assert isinstance(got, Exception) == isinstance(want, Exception)


@pytest.mark.parametrize("name", ["float32", "int64", "bool", "complex64", "uint8", "bfloat16"])
def test_ones_like_with_a_device_matches_tf(name) -> None:
    for shape in ((), (3,), (2, 0)):
        x = tf.zeros(shape, getattr(tf, name))
        for device in (hd.device(x), "cpu", x.device, "/CPU:0"):
            got = hd.ones_like(x, device=device)
            _same(got, tf.ones_like(x))
            assert got.device == x.device
        _same(hd.ones_like(x, dtype=hd.float64, device="cpu"), tf.ones_like(x, dtype=tf.float64))
    with pytest.raises(hd.errors.UnsupportedError):
        hd.ones_like(tf.zeros(2), device="gpu:7")


def test_cross_and_solve_eager_paths_match_the_graph_path() -> None:
    """The eager paths try TF's op for any two eager tensors (it refuses complex cross, mixed dtypes,
    shapes to broadcast): their answers are the general path's (inside tf.function), where it refuses
    too."""

    def general(f, *args):
        return tf.function(lambda *a: f(*a))(*args)

    a = RNG.standard_normal((2, 3))
    b = RNG.standard_normal((2, 3))
    cross_cases = [
        (tf.constant(a, tf.float32), tf.constant(b, tf.float32)),
        (tf.constant(a, tf.float32), tf.constant(b, tf.float64)),  # promoted
        (tf.constant(a + 1j * b, tf.complex64), tf.constant(b - 2j * a, tf.complex64)),  # no kernel
        (tf.constant(a[0], tf.float32), tf.constant(b, tf.float32)),  # broadcast
        (tf.constant([[1, 2, 3]], tf.uint8), tf.constant([[3, 2, 1]], tf.uint8)),  # wraps
        (tf.constant([[1, 2, 3]], tf.int32), tf.constant([[3, 2, 100]], tf.int32)),
    ]
    for x1, x2 in cross_cases:
        _same_bits(hd.linalg.cross(x1, x2), general(hd.linalg.cross, x1, x2), f"cross {x1.dtype} {x2.dtype}")
    m = tf.constant([[2.0, 1.0], [1.0, 3.0]])
    solve_cases = [
        (m, tf.constant([[1.0], [2.0]])),
        (m, tf.constant([[1.0], [2.0]], tf.float64)),  # promoted
        (m, tf.constant([1.0, 2.0])),  # a vector
        (tf.stack([m, 2 * m]), tf.constant([[1.0], [2.0]])),  # batches broadcast
        (tf.cast(m, tf.complex128), tf.constant([[1.0 + 1j], [2.0]], tf.complex128)),
    ]
    for x1, x2 in solve_cases:
        _same_bits(hd.linalg.solve(x1, x2), general(hd.linalg.solve, x1, x2), f"solve {x1.shape} {x2.shape}")
    for f in (hd.linalg.solve, hd.linalg.cross):  # no kernel, and no general answer either
        with pytest.raises(hd.errors.DtypeError):
            f(tf.constant([[1, 2, 3]] * 3), tf.constant([[1, 2, 3]] * 3, tf.int64) > 0)


def test_scatter_nd_shape_operands_match_tf() -> None:
    """The cached shape operand (a tuple or list of exact ints, per index dtype) gives TF's answer,
    and any other shape (floats, bools, tensors, negative sizes) is TF's own to convert or refuse."""
    updates = tf.constant([1.5, -2.0, 4.0])
    for index_dtype in (tf.int32, tf.int64):
        indices = tf.constant([[0], [2], [2]], index_dtype)
        for shape in (
            (4,),
            [4],
            (3,),
            (5,),
            [5],
            (4.0,),
            (True,),
            (tf.constant(4, index_dtype),),
            (-4,),
            *([(2**40,)] if index_dtype is tf.int32 else []),  # (int64: a 4 TB allocation to refuse)
        ):
            for _ in range(2):  # (a miss, then a hit)
                got = _outcome(hd.scatter_nd, indices, updates, shape)
                want = _outcome(tf.scatter_nd, indices, updates, shape)
                assert isinstance(got, Exception) == isinstance(want, Exception), (
                    shape,
                    index_dtype,
                    got,
                    want,
                )
                if not isinstance(want, Exception):
                    _same_bits(got, want, f"{shape} {index_dtype}")
        _same_bits(hd.scatter_nd(indices, updates > 0, (4,)), tf.scatter_nd(indices, [1, 0, 1], (4,)) > 0)

    @tf.function
    def graph(i, u):
        return hd.scatter_nd(i, u, (6,))

    i = tf.constant([[1], [5]])
    _same_bits(graph(i, updates[:2]), tf.scatter_nd(i, updates[:2], (6,)))


def test_broadcast_to_shape_operands_match_tf() -> None:
    """A tuple or list of exact ints becomes a cached int64 shape tensor: TF's answer; any other shape
    (a TensorShape, a tensor, floats, bools, negative or incompatible sizes) is TF's to convert or refuse
    (the backend function itself: the front refuses some of those up front)."""
    for x in (tf.constant(1.5), tf.constant([1, 2, 3]), tf.constant([[True], [False]])):
        shapes = [(), (3,), [3], (2, 3), [2, 3], (4, 2, 3), (0, 3), (3.0,), (True,), (-3,), (2, 1)]
        shapes += [tf.TensorShape([2, 3]), tf.constant([2, 3]), (tf.constant(3),), (2**33, 0)]
        for shape in shapes:
            for _ in range(2):  # (a miss, then a hit)
                got = _outcome(hd.namespace("tensorflow").broadcast_to, x, shape=shape)
                want = _outcome(tf.broadcast_to, x, shape)
                assert isinstance(got, Exception) == isinstance(want, Exception), (x, shape, got, want)
                if not isinstance(want, Exception):
                    _same_bits(got, want, f"{x} {shape}")


@pytest.mark.parametrize(
    "dtype", [np.float32, np.int64, np.bool_, np.uint8, np.uint16, np.complex64, np.int8]
)
def test_repeat_by_array_counts_is_tf_repeat(dtype) -> None:
    """An eager tensor of counts: one gather of positions repeated on the host, the data movement of
    tf.repeat (same dtype, shape and bits) for every shape, axis and count dtype; counts that are not
    one non-negative count per element (or one for all) are hedera's errors. On empty arrays
    tf.repeat itself raises a ValueError for valid counts: the gather answers as NumPy does."""
    rng = np.random.default_rng(7)
    checked = 0
    for shape in [(), (1,), (5,), (2, 3), (3, 1, 2), (0, 3)]:
        for axis in [None, *range(-len(shape), len(shape))]:
            x = np.asarray(rng.random(shape) * 10).astype(dtype)
            n = x.size if axis is None else shape[axis]
            for counts in ([2], list(rng.integers(0, 3, n)), [0] * n, [-1] + [1] * (n - 1), [1, 2] * (n + 1)):
                for count_dtype in (np.int64, np.int32):
                    r = tf.constant(np.asarray(counts, count_dtype))
                    got = _outcome(hd.repeat, tf.constant(x), r, axis=axis)
                    if len(counts) not in (1, n):
                        assert isinstance(got, hd.ShapeError), (shape, axis, counts, got)
                        continue
                    if np.min(counts, initial=0) < 0:  # (tf.repeat took it as 0)
                        assert isinstance(got, hd.InvalidArgumentError), (shape, axis, counts, got)
                        continue
                    want = np.repeat(x, np.asarray(counts, np.int64), axis=axis)
                    assert got.dtype == tf.as_dtype(want.dtype) and tuple(got.shape) == want.shape
                    np.testing.assert_array_equal(got.numpy(), want)
                    if 0 not in shape and dtype is not np.uint16:  # (tf.repeat raises on empty x, uint16)
                        _same_bits(got, tf.repeat(tf.constant(x), r, axis=axis))
                    checked += 1
    assert checked > 50


COUNTED = [
    np.array([0.0, -0.0, np.nan, 1.0, -2.5], np.float32),
    np.array([[0, 1, 0], [2, 0, 3]], np.int8),
    np.array([[1 + 0j, 0j], [0j, 1j]], np.complex64),
    np.array([True, False, True]),
    np.zeros((0, 3), np.float64),
    np.array(0.0, np.float16),
]


@pytest.mark.parametrize("values", COUNTED, ids=lambda v: f"{v.dtype}{v.shape}")
def test_count_nonzero_is_tf_count_nonzero(values) -> None:
    """count_nonzero runs TF's ops itself (a cached host zero, Sum over cached axes): the answer of
    tf.math.count_nonzero, eagerly and inside tf.function, on every axis and with keepdims."""
    x = tf.constant(values)
    axes = [None, (), *range(-values.ndim, values.ndim)]
    for axis in axes:
        for keepdims in (False, True):
            want_axis = None if axis is None else list(axis) if type(axis) is tuple else axis
            want = tf.math.count_nonzero(x, axis=want_axis, keepdims=keepdims, dtype=tf.int64)
            _same(hd.count_nonzero(x, axis=axis, keepdims=keepdims), want)
            traced = tf.function(lambda t, a=axis, k=keepdims: hd.count_nonzero(t, axis=a, keepdims=k))
            _same(traced(x), want)
    if values.dtype.kind in "fiu":
        _same(hd.astype(x, hd.bool), tf.cast(x, tf.bool))


RESHAPES = [
    ((6,), (2, 3)), ((2, 3), (-1,)), ((2, 3), (3, -1)), ((), (1, 1)), ((1,), ()), ((0, 4), (2, 0, -1)),
]  # fmt: skip


@pytest.mark.parametrize(("before", "after"), RESHAPES, ids=str)
@pytest.mark.parametrize("dtype", [np.float32, np.uint16, np.bool_])
def test_reshape_and_tile_shape_operands_match_tf(before, after, dtype) -> None:
    """reshape and tile pass their Python shapes to TF's ops as cached host tensors
    (``_core.shape_operand``): tf.reshape's and tf.tile's answers, eagerly and inside tf.function."""
    x = tf.constant(np.arange(int(np.prod(before))).reshape(before).astype(dtype))
    _same(hd.reshape(x, after), tf.reshape(x, after))
    _same(hd.reshape(x, list(after), copy=True), tf.reshape(x, after))
    _same(tf.function(lambda t: hd.reshape(t, after))(x), tf.reshape(x, after))
    for reps in [(2,), (1, 3), (2, 1, 2), ()]:
        want = tf.constant(np.tile(x.numpy(), reps))
        _same(hd.tile(x, reps), want)
        _same(tf.function(lambda t, r=reps: hd.tile(t, r))(x), want)
    with pytest.raises(hd.errors.HederaError):
        hd.reshape(x, (-1, -1, 7))


@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.uint8, np.bool_])
def test_searchsorted_without_nans_is_the_nan_aware_answer(side, dtype) -> None:
    """searchsorted of eager tensors without NaN runs TF's bound op alone; the NaN-aware path, which
    the answer must equal, and NumPy's answer, eagerly and inside tf.function (which always takes
    the NaN-aware path for floats)."""
    sorted_values = np.sort(RNG.integers(0, 5, 9)).astype(dtype)
    for values in [RNG.integers(-1, 6, (2, 3)).astype(dtype), np.asarray(3, dtype), np.zeros((0,), dtype)]:
        x1, x2 = tf.constant(sorted_values), tf.constant(values)
        want = np.searchsorted(sorted_values, values, side=side).astype(np.int64)
        got = hd.searchsorted(x1, x2, side=side)
        traced = tf.function(lambda a, b: hd.searchsorted(a, b, side=side))(x1, x2)
        for answer in (got, traced):
            assert answer.dtype == tf.int64 and answer.shape == values.shape
            np.testing.assert_array_equal(answer.numpy(), want)
    if np.dtype(dtype).kind == "f":  # a NaN (and -0.0) keeps the NaN-aware path: NumPy's order
        x1 = tf.constant(np.array([-0.0, 1.0, np.nan], dtype))
        x2 = tf.constant(np.array([np.nan, 0.0, 2.0], dtype))
        want = np.searchsorted(x1.numpy(), x2.numpy(), side=side)
        np.testing.assert_array_equal(hd.searchsorted(x1, x2, side=side).numpy(), want)


UNIQUE_FUNCTIONS = [hd.unique_all, hd.unique_inverse, hd.unique_counts, hd.unique_values]


@pytest.mark.parametrize("dtype", [np.float16, np.float64, np.int8, np.uint64, np.bool_])
def test_unique_fast_path_is_the_general_answer(dtype, monkeypatch) -> None:
    """The unique functions of eager tensors without NaN group with TopKV2, UniqueWithCounts and
    SegmentMin: the general path's answer (values, first indices, inverse, counts; -0.0 and 0.0 one
    value, which keeps its first occurrence's sign), eagerly and inside tf.function (where TF's graph
    optimizer once made the general path's sort key put -0.0 before 0.0: ``x + 0`` rewritten to ``x``)."""
    from hedera.backends.tensorflow import set as tf_set

    cases = [RNG.integers(0, 4, (3, 4)), RNG.integers(0, 3, 7), np.asarray(2), np.zeros((2, 0))]
    traced_case = cases[0]  # (tracing is slow: one case each)
    if np.dtype(dtype).kind == "f":
        traced_case = np.array([[0.0, -0.0, np.inf], [-0.0, -np.inf, 0.0]])
        cases += [traced_case, np.array([-0.0, 1.0, 0.0])]
    for values in cases:
        x = tf.constant(values.astype(dtype))
        fast = [fn(x) for fn in UNIQUE_FUNCTIONS]
        traced = [tf.function(fn)(x) for fn in UNIQUE_FUNCTIONS] if values is traced_case else fast
        with monkeypatch.context() as patch:
            patch.setattr(tf_set, "_fast_groups", lambda t: None)
            general = [fn(x) for fn in UNIQUE_FUNCTIONS]
        for got, again, want in zip(fast, traced, general, strict=True):
            for parts in zip(*(r if isinstance(r, tuple) else (r,) for r in (got, again, want)), strict=True):
                _same_bits(parts[0], parts[2], f"{dtype} {values.shape}")
                _same_bits(parts[1], parts[2], f"{dtype} {values.shape} traced")


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int8, np.uint8, np.int64, np.bool_])
def test_top_k_fast_path_is_the_general_answer(dtype, monkeypatch) -> None:
    """top_k of eager integers and floats without NaN along the last axis is one TopKV2 (of ~x or -x
    for the smallest): the general key sort's values (-0.0 and 0.0 tie, the lower index first) and
    indices, eagerly and inside tf.function."""
    from hedera.backends.tensorflow import extras

    values = RNG.integers(-3, 4, (3, 6)).astype(dtype)
    if np.dtype(dtype).kind == "f":
        values[0, :4] = [0.0, -np.inf, -0.0, np.inf]
    for x in (tf.constant(values), tf.constant(values[0]), tf.constant(values[:, :0])):
        for k in {0, 1, 3, x.shape[-1]} - {4} if x.shape[-1] else {0}:
            for largest in (True, False):
                fast = hd.top_k(x, k, largest=largest)
                with monkeypatch.context() as patch:
                    patch.setattr(extras, "direct_top_k", lambda *args, **kwargs: None)
                    general = hd.top_k(x, k, largest=largest)
                trace = x.shape.rank == 2 and k == 3  # (tracing is slow)
                traced = (
                    tf.function(lambda t, k=k, g=largest: hd.top_k(t, k, largest=g))(x) if trace else general
                )
                for got, again, want in zip(fast, traced, general, strict=True):
                    _same_bits(got, want, f"{dtype} {x.shape} {k} {largest}")
                    _same_bits(again, want, f"{dtype} {x.shape} {k} {largest} traced")


@pytest.mark.parametrize("dtype", [np.float16, np.float64, np.int32, np.bool_])
def test_isclose_without_nan_or_inf_is_the_general_answer(dtype, monkeypatch) -> None:
    """isclose of eager tensors holding only finite numbers (checked in place) runs the comparison
    alone; the general path's answer, NumPy's, and allclose's Python bool, eagerly and inside
    tf.function, also where a NaN or an infinity keeps the general path."""
    from hedera.backends.tensorflow import extras

    a = RNG.integers(0, 3, (2, 3)).astype(dtype)
    b = (a + RNG.integers(0, 2, (2, 3)) * 1e-6).astype(dtype) if np.dtype(dtype).kind == "f" else a[::-1]
    cases = [(a, b), (a[0], b[:, :1]), (a[:0], b[0, 0])]
    if np.dtype(dtype).kind == "f":
        cases.append(
            (np.array([np.nan, np.inf, -0.0, 1.0], dtype), np.array([np.nan, np.inf, 0.0, np.inf], dtype))
        )
    for v1, v2 in cases:
        x1, x2 = tf.constant(v1), tf.constant(v2)
        for tolerances in ({}, {"rtol": 0.5, "atol": 0}, {"rtol": 0.0, "atol": 1e-3, "equal_nan": True}):
            fast, fast_all = hd.isclose(x1, x2, **tolerances), hd.allclose(x1, x2, **tolerances)
            trace = tolerances and tolerances["rtol"]  # (tracing is slow)
            traced = (
                tf.function(lambda s, t, kw=tolerances: hd.isclose(s, t, **kw))(x1, x2) if trace else fast
            )
            with monkeypatch.context() as patch:
                patch.setattr(extras, "all_finite", lambda x: False)
                general, general_all = hd.isclose(x1, x2, **tolerances), hd.allclose(x1, x2, **tolerances)
            _same(fast, general)
            _same(traced, general)
            assert type(fast_all) is bool and fast_all == general_all
            np.testing.assert_array_equal(fast.numpy(), np.isclose(v1, v2, **tolerances))


@pytest.mark.parametrize("dtype", [np.float32, np.uint16, np.complex64, np.bool_])
def test_triangles_with_host_masks_are_numpys(dtype) -> None:
    """tril and triu of eager tensors select with a mask made by NumPy (cached on the host): NumPy's
    answer (zeros are +0, NaN and -0.0 kept inside the triangle), eagerly and inside tf.function."""
    values = RNG.integers(1, 5, (2, 3, 4)).astype(dtype)
    if np.dtype(dtype).kind == "f":
        values[0, 0, :2] = [np.nan, -0.0]
        values[0, 2, 0] = -0.0
    for v in (values, values[0], values[0, :0], values[0, :, :1]):
        x = tf.constant(v)
        for k in (-4, -1, 0, 1, 3, 5):
            for fn, want_fn in ((hd.tril, np.tril), (hd.triu, np.triu)):
                want = tf.constant(want_fn(v, k))
                _same_bits(fn(x, k=k), want, f"{fn.__name__} {v.shape} {k}")
                if k == 1 and v.ndim == 3:
                    _same_bits(tf.function(lambda t, f=fn, k=k: f(t, k=k))(x), want, "traced")


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_hypot_and_logaddexp_eager_ops_are_the_general_answer(dtype, monkeypatch) -> None:
    """hypot and logaddexp of eager float tensors call their ops directly with cached constants
    (hypot without its infinity select where both hold only finite numbers): the general path's
    bits (NaN, infinities, -0.0, overflowing squares), and inside tf.function its values."""
    from hedera.backends.tensorflow import elementwise

    big = float(np.finfo(dtype).max) / 2
    special = np.array([np.nan, -np.inf, np.inf, -0.0, 0.0, 1.5, -2.0, big], dtype)
    finite = np.array([[3.0, -0.0, big], [0.0, -4.0, 1e-3]], dtype)
    cases = [
        (special, special[::-1]),
        (special[:, None], special),
        (finite, finite[:, ::-1]),
        (finite[0, 0], finite),
    ]
    cases.append((special[:0], np.asarray(1.0, dtype)))
    for fn in (hd.hypot, hd.logaddexp):
        traced = tf.function(fn)
        for v1, v2 in cases:
            x1, x2 = tf.constant(v1), tf.constant(v2)
            with monkeypatch.context() as patch:
                patch.setattr(elementwise, "_EAGER", type(None))
                want = fn(x1, x2)
            _same_bits(fn(x1, x2), want, f"{fn.__name__} {v1} {v2}")
            _same(traced(x1, x2), want)  # (a graph's kernels may give a NaN the sign bit)


@pytest.mark.parametrize("index_dtype", [np.int64, np.int32, np.uint8])
def test_take_along_axis_eager_ops_are_the_general_answer(index_dtype, monkeypatch) -> None:
    """take_along_axis of eager tensors runs its ops directly (cached shapes and permutations, no
    no-op broadcast, transpose or wrap): the general path's answer and NumPy's, with broadcasting,
    negative indices, empty axes, several dtypes, eagerly and inside tf.function; errors alike."""
    from hedera.backends.tensorflow import indexing

    x3 = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    x3[0, 0, :2] = [np.nan, -0.0]
    cases = [
        (x3, RNG.integers(0, 3, (2, 5, 4)), 1),
        (x3, RNG.integers(0, 4, (1, 3, 2)), -1),
        (RNG.integers(-9, 9, (2, 3, 4)).astype(np.int16), RNG.integers(0, 2, (2, 1, 4)), 0),
        (x3[0] > 0, RNG.integers(0, 4, (3, 0)), 1),
        (x3[0, 0], RNG.integers(0, 4, (6,)), 0),
        (x3[:, :0], RNG.integers(0, 1, (2, 2, 4))[:, :0], 1),
    ]
    if index_dtype is not np.uint8:
        cases.append((x3, -RNG.integers(1, 4, (2, 3, 1)), 1))
    for values, where, axis in cases:
        x, indices = tf.constant(values), tf.constant(where.astype(index_dtype))
        with monkeypatch.context() as patch:
            patch.setattr(indexing, "EagerTensor", type(None))
            want = hd.take_along_axis(x, indices, axis=axis)
        _same_bits(hd.take_along_axis(x, indices, axis=axis), want, f"{values.shape} {where.shape} {axis}")
        traced = tf.function(lambda a, b, axis=axis: hd.take_along_axis(a, b, axis=axis))(x, indices)
        _same_bits(traced, want, "traced")
        np.testing.assert_array_equal(want.numpy(), np.take_along_axis(values, where.astype(np.int64), axis))
    x, bad = tf.constant(x3), tf.constant(RNG.integers(0, 2, (3, 3, 4)))
    with monkeypatch.context() as patch:
        patch.setattr(indexing, "EagerTensor", type(None))
        want = _outcome(hd.take_along_axis, x, bad, axis=1)
    _same_bits(_outcome(hd.take_along_axis, x, bad, axis=1), want)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.uint8, np.bool_, np.complex64])
def test_outer_vector_norm_matrix_rank_eager_ops_are_the_general_answer(dtype, monkeypatch) -> None:
    """linalg.outer, vector_norm (orders 2, 1, +-inf) and matrix_rank (default rtol) of eager tensors
    call their ops directly with cached operands: the general path's bits, eagerly and inside
    tf.function (NaN, infinities, -0.0, 0-d, empty and batched inputs)."""
    from hedera.backends.tensorflow import linalg

    values = RNG.integers(-2, 3, (2, 3, 4)).astype(dtype)
    if np.dtype(dtype).kind in "fc":
        values[0, 0, :3] = [np.nan, -0.0, np.inf]
    vectors = [values[1, 0], values[0, 0], values[0, 0, :0]]
    checks = [(hd.linalg.outer, (a, b), {}) for a in vectors for b in vectors[:2]]
    for v in (values, values[0, 0], values[0, :, :0], values[0, 0, 0]):
        for kwargs in ({}, {"ord": 1}, {"ord": np.inf, "axis": -1}, {"ord": -np.inf, "keepdims": True}):
            checks.append((hd.linalg.vector_norm, (v,), kwargs))
        checks.append((hd.linalg.vector_norm, (v,), {"axis": (), "keepdims": True}))
    if np.dtype(dtype).kind in "fc":
        finite = RNG.integers(-2, 3, (2, 3, 4)).astype(dtype)
        finite[0, 1] = finite[0, 0]
        for m in (finite, finite[0], finite[0, :, :0], values[1].T):
            checks.append((hd.linalg.matrix_rank, (m,), {}))
    for fn, args, kwargs in checks:
        tensors = [tf.constant(a) for a in args]
        with monkeypatch.context() as patch:
            patch.setattr(linalg, "_EAGER", type(None))
            want = _outcome(fn, *tensors, **kwargs)
        where = f"{fn.__name__} {[a.shape for a in args]} {kwargs}"
        _same_bits(_outcome(fn, *tensors, **kwargs), want, where)
        if fn is not hd.linalg.vector_norm or args[0].ndim == 3:  # (tracing is slow)
            _same_bits(_outcome(tf.function(lambda *t, f=fn, k=kwargs: f(*t, **k)), *tensors), want, where)


@pytest.mark.parametrize("dtype", [np.float32, np.uint8, np.bool_, np.complex64])
def test_diff_roll_take_isin_eager_ops_are_the_general_answer(dtype, monkeypatch) -> None:
    """diff, roll (axis None), take and isin of eager tensors call their ops directly with cached
    operands: the general path's bits, eagerly and inside tf.function (NaN, -0.0, 0-d, empty,
    negative indices and errors alike)."""
    from hedera.backends.tensorflow import indexing, manipulation, utility
    from hedera.backends.tensorflow import set as tf_set

    values = RNG.integers(0, 3, (2, 3, 4)).astype(dtype)
    if np.dtype(dtype).kind in "fc":
        values[0, 0, :3] = [np.nan, -0.0, 0.0]
    t = tf.constant
    index = t(RNG.integers(0, 3, (2, 2)))
    checks = [(hd.diff, (values,), {"axis": a, "n": n}) for a in (0, 1, -1) for n in (1, 2, 5)]
    checks += [(hd.diff, (v,), {}) for v in (values[0, 0], values[0, :0], values[0, :, :1])]
    checks += [(hd.roll, (v,), {"shift": s}) for v in (values, values[0, 0, 0], values[:0]) for s in (-5, 1)]
    checks += [(hd.take, (values, index), {"axis": a}) for a in (0, 1, -1)]
    checks += [
        (hd.take, (values[0, 0], t(np.array([3, 0], np.uint8))), {}),
        (hd.take, (values, -index), {"axis": 1}),
    ]
    checks += [
        (hd.take, (values[0, 0], t([[4]])), {}),
        (hd.take, (values[0, 0], t(np.zeros((0,), np.int32))), {}),
    ]
    for v, w in [(values, values[1]), (values[0, 0, 0], values[:0]), (values[:0], values[0, 0, 0])]:
        checks += [(hd.isin, (v, w), {"invert": i}) for i in (False, True)]
    modules = (indexing, manipulation, tf_set, utility)
    for fn, args, kwargs in checks:
        tensors = [a if isinstance(a, tf.Tensor) else t(a) for a in args]
        with monkeypatch.context() as patch:
            for module in modules:
                patch.setattr(module, "EagerTensor", type(None))
            want = _outcome(fn, *tensors, **kwargs)
        where = f"{fn.__name__} {[a.shape for a in args]} {kwargs}"
        _same_bits(_outcome(fn, *tensors, **kwargs), want, where)
        if not kwargs.get("invert") and kwargs.get("n", 1) == 1:  # (tracing is slow)
            _same_bits(_outcome(tf.function(lambda *a, f=fn, k=kwargs: f(*a, **k)), *tensors), want, where)


@pytest.mark.parametrize("dtype", [np.float32, np.int8, np.bool_, np.complex64])
def test_all_any_split_eager_ops_are_the_general_answer(dtype, monkeypatch) -> None:
    """all and any (axis None or an int) and split at indices of eager tensors call their ops
    directly with cached operands: the general path's answer (NaN non-zero, -0.0 zero), eagerly and
    inside tf.function, errors alike."""
    from hedera.backends.tensorflow import extras, utility

    values = RNG.integers(0, 2, (2, 3, 4)).astype(dtype)
    if np.dtype(dtype).kind in "fc":
        values[0, 0, :2] = [np.nan, -0.0]
    checks = []
    for v in (values, values[0, 0, 0], values[:, :0]):
        for a in (None, 0, -1) if v.ndim else (None,):
            checks += [(fn, v, {"axis": a, "keepdims": k}) for fn in (hd.all, hd.any) for k in (False, True)]
    checks += [(hd.all, values, {"axis": 3}), (hd.any, values, {"axis": (0, 2)})]
    for where in ([1], [0, 2], [3, 1], [-1, 5], [], [-9, 9]):
        checks += [(hd.split, values, {"indices_or_sections": where, "axis": a}) for a in (1, -1)]
    for fn, v, kwargs in checks:
        x = tf.constant(v)
        with monkeypatch.context() as patch:
            patch.setattr(utility, "EagerTensor", type(None))
            patch.setattr(extras, "_EAGER", type(None))
            want = _outcome(fn, x, **kwargs)
        got = _outcome(fn, x, **kwargs)
        traced = _outcome(tf.function(lambda t, f=fn, k=kwargs: f(t, **k)), x) if v.ndim == 3 else got
        for g, t, w in zip(*(r if isinstance(r, tuple) else (r,) for r in (got, traced, want)), strict=True):
            _same_bits(g, w, f"{fn.__name__} {v.shape} {kwargs}")
            _same_bits(t, w, f"{fn.__name__} {v.shape} {kwargs} traced")


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.complex128])
def test_matrix_power_zero_is_the_general_identity(dtype, monkeypatch) -> None:
    """matrix_power(x, 0) of an eager x broadcasts a cached identity: tf.eye's, in x's shape and
    dtype, eagerly and inside tf.function; a non-square x fails alike."""
    from hedera.backends.tensorflow import linalg

    for shape in [(3, 3), (2, 1, 1), (0, 2, 2), (2, 3)]:
        x = tf.constant(RNG.integers(-2, 3, shape).astype(dtype))
        with monkeypatch.context() as patch:
            patch.setattr(linalg, "_EAGER", type(None))
            want = _outcome(hd.linalg.matrix_power, x, 0)
        _same_bits(_outcome(hd.linalg.matrix_power, x, 0), want, str(shape))
        _same_bits(_outcome(tf.function(lambda t: hd.linalg.matrix_power(t, 0)), x), want, f"{shape} traced")


def test_fast_paths_under_a_tape_give_the_general_gradients(monkeypatch) -> None:
    """Under a GradientTape the fast paths of top_k (not taken there: TopKV2's gradient fails on
    int64 indices), unique_values, take_along_axis and tril give the general paths' gradients."""
    from hedera.backends.tensorflow import creation, extras, indexing
    from hedera.backends.tensorflow import set as tf_set

    x = tf.constant(np.array([[3.0, 1.0, -0.0, 1.0], [0.5, -1.0, 4.0, 4.0]], np.float32))
    index = tf.constant(np.array([[0, 2], [1, 3]]))
    fns = [
        lambda t: hd.top_k(t, 2, largest=False).values * t[:, :2],
        lambda t: hd.unique_values(t) * 2.0,
        lambda t: hd.take_along_axis(t, index, axis=1),
        lambda t: hd.tril(t, k=1) * t,
    ]

    def gradient(fn):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        return tape.gradient(y, x)

    for fn in fns:
        got = gradient(fn)
        with monkeypatch.context() as patch:
            patch.setattr(extras, "direct_top_k", lambda *args, **kwargs: None)
            patch.setattr(tf_set, "_fast_groups", lambda t: None)
            patch.setattr(indexing, "EagerTensor", type(None))
            patch.setattr(creation, "EagerTensor", type(None))
            want = gradient(fn)
        _same_bits(got, want)


def test_the_nan_check_of_large_finite_values_is_silent() -> None:
    """may_hold_nan reads eager CPU buffers on the host: values near the dtype's maximum are no NaN,
    and checking them warns of nothing (x . x overflowed, with NumPy's RuntimeWarning)."""
    import warnings

    from hedera.backends.tensorflow._core import may_hold_nan

    big = np.array([3e38, -3e38, 1.0], np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert not may_hold_nan(tf.constant(big))
        assert not may_hold_nan(tf.constant(np.array([1e300, 1e300])))
        np.testing.assert_array_equal(hd.sort(tf.constant(big)).numpy(), np.sort(big))
    assert may_hold_nan(tf.constant(np.array([[1.0, np.nan]], np.float16)))
    assert not may_hold_nan(tf.constant(np.zeros((0, 2))))


@pytest.mark.parametrize("name", ["equal", "less", "add", "multiply", "maximum", "bitwise_and", "bitwise_or"])
def test_ints_out_of_uint64s_range_are_refused_before_tf_converts_them(name) -> None:
    """TF converts -1 or 2**64 to uint64 by wrapping it with Python's OverflowError left set, and
    its scalar cache then aborts the process where the int's hash meets a cached one: the shim
    raises hedera's InvalidArgumentError first, and the C front leaves Python ints to the shim."""
    x = tf.constant(np.array([2**64 - 1, 5], np.uint64))
    front, shim = getattr(hd, name), getattr(hd.namespace("tensorflow"), name)
    for value in (-1, 2**64, -(2**70)):
        for f in (front, shim):
            for args, argname in (((x, value), "x2"), ((value, x), "x1")):
                with pytest.raises(hd.InvalidArgumentError, match=f"{name}: {argname}={value} does not fit"):
                    f(*args)
    np.testing.assert_array_equal(front(x, 3).numpy(), shim(x, 3).numpy())  # (ints that fit answer)
    assert shim.__hedera_native__[3] is Ellipsis  # (two tensors only: a Python int goes to the shim)


def test_small_constants_keep_the_sign_of_zero_and_tfs_rounding() -> None:
    """The one cache of 0-d host constants (isclose's tolerances, hypot's inf, logaddexp's log 2,
    axes, fill values): -0.0 and 0.0 are two entries (TF's own scalar cache mixes them), a float is
    rounded as tf.constant rounds it (float16 through float32), 0 and 1 make bools."""
    from hedera.backends.tensorflow._core import small_constant

    for first, second in ((-0.0, 0.0), (0.0, -0.0)):
        for value in (first, second):
            got = small_constant(value, tf.float32).numpy()
            assert got == 0.0 and np.signbit(got) == np.signbit(value)
    awkward = 1 + 2**-11 + 2**-40  # (rounds up through float32, down straight to float16)
    for dtype in (tf.float16, tf.bfloat16, tf.float32, tf.float64):
        for value in (awkward, math.log(2.0), 1e-8, math.inf):
            want = tf.constant(value, dtype).numpy().tobytes()
            assert small_constant(value, dtype).numpy().tobytes() == want
    assert small_constant(1, tf.bool).numpy() is np.True_ and small_constant(0, tf.bool).numpy() is np.False_
