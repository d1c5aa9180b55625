"""torch-specific checks of ``hedera.backends.torch``.

The cross-backend harness (tests/core/test_functions.py) checks values against the
reference; this file checks what only torch has: aliasing (zero dispatch
overhead), torch's promotion quirks, unsupported dtypes, devices, autograd and
``torch.func`` through ``hd.at``, and ``torch.compile(fullgraph=True)`` over
hedera calls.
"""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import hedera as hd  # noqa: E402
from hedera.backends.torch import _core  # noqa: E402

xp = hd.namespace("torch")


def test_namespace_is_the_backend_module():
    import hedera.backends.torch as module

    assert hd.namespace("torch") is module
    assert hd.namespace(torch.ones(2)) is module
    assert module.__array_api_version__ == "2024.12"


def test_conforming_functions_are_torch_aliases():
    # the zero-overhead path: no Python frame between the front and torch
    for name in ("sin", "exp", "sqrt", "isnan", "abs"):  # (tanh: a shim for tanh(inf + bj), see elementwise)
        assert getattr(xp, name) is getattr(torch, name), name
    assert xp.moveaxis is torch.moveaxis
    assert xp.linalg.det is torch.linalg.det


def test_dtypes_are_native_and_compare_equal_to_hedera_dtypes():
    assert xp.float32 is torch.float32 and xp.int64 is torch.int64
    assert torch.ones(2).dtype == hd.float32
    assert hd.dtype(torch.ones(2, dtype=torch.int16)) is hd.int16
    assert hd.dtype(torch.ones(2, dtype=torch.bfloat16)) is hd.bfloat16
    for spelling in (hd.float64, "float64", torch.float64, np.float64, np.dtype("float64")):
        assert xp.zeros(2, dtype=spelling).dtype is torch.float64


PARTIAL = ["uint16", "uint32", "uint64"]


@pytest.mark.parametrize("name", PARTIAL)
def test_partial_unsigned_dtypes_create_convert_save_and_load(name, tmp_path):
    """torch's uint16/32/64: created, converted both ways, cast, saved and loaded, never refused."""
    assert name not in _core.UNSUPPORTED_DTYPES and name in xp.__array_namespace_info__().dtypes()
    dt = getattr(hd, name)
    values = np.array([0, 1, 2**15, np.iinfo(name).max], dtype=name)
    x = hd.asarray(values, backend="torch")
    assert x.dtype is getattr(torch, name) and hd.dtype(x) is dt
    np.testing.assert_array_equal(hd.to_numpy(x), values)
    assert hd.to_numpy(x).dtype == np.dtype(name)
    for made in (xp.zeros(2, dtype=dt), xp.ones(2, dtype=name), xp.full((2,), 7, dtype=getattr(torch, name))):
        assert made.dtype is getattr(torch, name)
    np.testing.assert_array_equal(hd.to_numpy(xp.full((2,), 7, dtype=dt)), np.full(2, 7, dtype=name))
    cast = hd.astype(hd.asarray(np.array([3, 4]), backend="torch"), dt)
    assert cast.dtype is getattr(torch, name) and hd.to_numpy(cast).tolist() == [3, 4]
    assert hd.to_numpy(hd.astype(x, hd.float64)).tolist() == values.astype("float64").tolist()
    hd.save({"x": x}, tmp_path / "u.safetensors")
    loaded = hd.load(tmp_path / "u.safetensors", backend="torch")["x"]
    assert loaded.dtype is getattr(torch, name)
    np.testing.assert_array_equal(hd.to_numpy(loaded), values)


#: functions outside MISSING_KERNELS that torch computes on its uint16/32/64 (checked against NumPy)
WORKING = {
    "bitwise_and": lambda f, x: f(x, x),
    "bitwise_xor": lambda f, x: f(x, x),
    "equal": lambda f, x: f(x, x),
    "not_equal": lambda f, x: f(x, x),
    "multiply": lambda f, x: f(x, x),
    "sort": lambda f, x: f(x),
    "argsort": lambda f, x: f(x),
    "concat": lambda f, x: f([x, x]),
    "reshape": lambda f, x: f(x, (2, 2)),
    "roll": lambda f, x: f(x, 1),
    "unique_values": lambda f, x: f(x),
}


@pytest.mark.parametrize("name", PARTIAL)
@pytest.mark.parametrize("fn", sorted(WORKING))
def test_partial_unsigned_functions_torch_has(name, fn):
    assert name not in _core.MISSING_KERNELS.get(fn, ())
    values = np.array([3, 1, 2, 1], dtype=name)
    got = WORKING[fn](getattr(hd, fn), hd.asarray(values, backend="torch"))
    expected = WORKING[fn](
        getattr(np, {"concat": "concatenate", "unique_values": "unique"}.get(fn, fn)), values
    )
    np.testing.assert_array_equal(hd.to_numpy(got), expected)


def _missing_kernel_call(fn, x, a):
    """``fn`` called on the uint vector ``x`` (and the uint matrix ``a``) in the arguments it takes."""
    f = hd
    for part in fn.split("."):
        f = getattr(f, part)
    i = torch.tensor([0, 2])
    special = {
        "arange": lambda: f(3, dtype=x.dtype, backend="torch"),
        "linspace": lambda: f(0, 4, 3, dtype=x.dtype, backend="torch"),
        "clip": lambda: f(x, 1, 2),
        "linalg.matmul": lambda: f(a, a), "matmul": lambda: f(a, a), "tensordot": lambda: f(a, a, axes=1),
        "linalg.trace": lambda: f(a), "tril": lambda: f(a), "triu": lambda: f(a),
        "take_along_axis": lambda: f(x, i, axis=0), "top_k": lambda: f(x, 1),
        "searchsorted": lambda: f(x, x), "one_hot": lambda: f(x, 4),
        "scatter_nd": lambda: f(torch.tensor([[0], [2]]), x[:2], (4,)), "flip": lambda: f(x),
        "linalg.cross": lambda: f(x, x), "take": lambda: f(x, i),
        "pad": lambda: f(x, ((1, 1),), mode="reflect"), "repeat": lambda: f(x, torch.tensor([1, 2, 1])),
    }  # fmt: skip
    binary = {"add", "subtract", "bitwise_left_shift", "bitwise_right_shift", "floor_divide", "greater",
              "greater_equal", "isin", "less", "less_equal", "maximum", "minimum", "pow", "remainder",
              "vecdot", "linalg.vecdot"}  # fmt: skip
    if fn in special:
        return special[fn]()
    return f(x, x) if fn in binary else f(x)


@pytest.mark.parametrize(
    ("fn", "name"), [(fn, name) for fn, names in sorted(_core.MISSING_KERNELS.items()) for name in names]
)
def test_missing_kernels_raise_unsupported_dtype_error(fn, name):
    """The table (docs/backends.md) is exact: each function it lists fails in torch on these dtypes,
    and hedera says so with its own error, naming the function and the dtype."""
    x = hd.asarray(np.array([3, 1, 2], dtype=name), backend="torch")
    a = hd.asarray(np.array([[1, 2], [3, 4]], dtype=name), backend="torch")
    with pytest.raises(hd.UnsupportedDtypeError, match=rf"{name}"):
        _missing_kernel_call(fn, x, a)


def test_mixed_unsigned_promotion_is_a_hedera_error():
    x = hd.asarray(np.array([1, 2], dtype="uint16"), backend="torch")
    y = hd.asarray(np.array([1, 2], dtype="int8"), backend="torch")
    with pytest.raises(hd.UnsupportedDtypeError, match="cannot promote"):
        hd.bitwise_or(x, y)


def test_uint8_accumulation_needs_an_explicit_dtype():
    # the standard sums uint8 in uint64, which torch lacks: raise rather than change the dtype
    x = torch.arange(4, dtype=torch.uint8)
    with pytest.raises(hd.UnsupportedDtypeError, match="dtype="):
        hd.sum(x)
    assert hd.sum(x, dtype=hd.int64).item() == 6
    assert hd.cumulative_sum(x, dtype="int64").tolist() == [0, 1, 3, 6]


def test_default_dtypes_follow_torch():
    info = xp.__array_namespace_info__()
    assert info.default_dtypes()["real floating"] is torch.get_default_dtype()
    assert info.default_dtypes()["indexing"] is torch.int64
    with hd.use_backend("torch"):
        assert hd.ones(2).dtype is torch.float32
        assert hd.arange(3).dtype is torch.int64
        assert hd.one_hot(torch.tensor([0, 2]), 3).dtype is torch.float32


def test_zero_d_tensors_take_part_in_promotion():
    # torch: int8[n] + int64[] -> int8 (0-d loses within its kind); the standard: int64
    a = torch.tensor([1, 2], dtype=torch.int8)
    b = torch.tensor(1000, dtype=torch.int64)
    assert hd.add(a, b).dtype is torch.int64
    assert hd.add(a, b).tolist() == [1001, 1002]
    assert hd.where(torch.tensor([True, False]), a, b).dtype is torch.int64
    f = torch.ones(2, dtype=torch.float32)
    assert hd.multiply(f, torch.tensor(2.0, dtype=torch.float64)).dtype is torch.float64


def test_python_scalars_take_the_array_dtype():
    x = torch.ones(2, dtype=torch.int16)
    assert hd.add(x, 3).dtype is torch.int16
    assert hd.subtract(3, x).tolist() == [2, 2]
    assert hd.maximum(x, 5).tolist() == [5, 5]
    assert hd.atan2(1.0, torch.ones(2, dtype=torch.float64)).dtype is torch.float64
    assert hd.add(torch.ones(2), 1j).dtype is torch.complex64


def test_complex_addition_keeps_parts_apart():
    # torch computes x1 + alpha * x2 with complex alpha = 1: a NaN imaginary part leaks into the real one
    z = torch.tensor([complex(0.0, float("nan"))], dtype=torch.complex64)
    out = hd.add(torch.zeros(1, dtype=torch.complex64), z)
    assert out.real.item() == 0.0 and np.isnan(out.imag.item())


def test_sign_of_nan_is_nan():
    assert torch.isnan(hd.sign(torch.tensor([float("nan")]))).all()


def test_unique_all_first_indices_and_nans_distinct():
    x = torch.tensor([3.0, 1.0, float("nan"), 3.0, float("nan"), 1.0])
    values, indices, inverse, counts = hd.unique_all(x)
    assert values[:2].tolist() == [1.0, 3.0] and torch.isnan(values[2:]).all()
    assert indices[:2].tolist() == [1, 0]
    assert counts.tolist() == [2, 2, 1, 1]
    assert torch.equal(values[inverse][~torch.isnan(x)], x[~torch.isnan(x)])


def test_top_k_lower_index_first_among_ties():
    values, indices = hd.top_k(torch.tensor([1.0, 3.0, 2.0, 3.0, 1.0]), 3)
    assert values.tolist() == [3.0, 3.0, 2.0]
    assert indices.tolist() == [1, 3, 2]
    values, indices = hd.top_k(torch.tensor([1.0, 3.0, 2.0, 3.0, 1.0]), 2, largest=False)
    assert indices.tolist() == [0, 4]


@pytest.mark.parametrize("mode", ["constant", "reflect", "symmetric", "edge", "wrap"])
def test_pad_matches_numpy_for_wide_pads(mode):
    a = np.arange(12.0).reshape(3, 4)
    widths = ((5, 2), (0, 9))
    out = hd.pad(torch.as_tensor(a), widths, mode=mode)
    np.testing.assert_array_equal(out.numpy(), np.pad(a, widths, mode=mode))


def test_devices():
    x = torch.ones(2)
    assert hd.device(x) == "cpu"
    assert _core.native_device("cpu") == torch.device("cpu")
    assert _core.native_device(torch.device("cpu")) == torch.device("cpu")
    if torch.cuda.is_available():
        assert _core.native_device("gpu:0") == torch.device("cuda", 0)
    elif not torch.backends.mps.is_available():
        with pytest.raises(hd.UnsupportedError, match="no GPU"):
            xp.zeros(2, device="gpu:0")
    assert hd.to_device(x, "cpu") is x
    with pytest.raises(hd.InvalidArgumentError):
        _core.native_device("abacus")
    assert xp.zeros(2, device="cpu").device.type == "cpu"
    assert torch.device("cpu") in xp.__array_namespace_info__().devices()


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")
def test_gpu_round_trip():
    x = hd.to_device(torch.arange(3.0), "gpu:0")
    assert x.device == torch.device("cuda", 0)
    assert hd.device(x) == "gpu:0"
    assert hd.device(xp.ones(2, device="gpu")) == "gpu:0"
    assert hd.to_numpy(hd.sin(x)).tolist() == pytest.approx(np.sin([0.0, 1.0, 2.0]).tolist(), rel=1e-6)


def test_to_numpy_detaches_and_resolves_conjugation():
    x = torch.ones(2, requires_grad=True) * 2
    assert hd.to_numpy(x).tolist() == [2.0, 2.0]
    z = torch.conj(torch.tensor([1 + 2j]))
    assert hd.to_numpy(z).tolist() == [1 - 2j]


def test_asarray_copy_semantics():
    x = torch.ones(3)
    assert hd.asarray(x, copy=False) is x or hd.asarray(x, copy=False).data_ptr() == x.data_ptr()
    assert hd.asarray(x, copy=True).data_ptr() != x.data_ptr()
    with pytest.raises(ValueError):
        hd.asarray(x, dtype=hd.float64, copy=False)
    with pytest.raises(ValueError):
        xp.asarray([1, 2], copy=False)


@pytest.mark.parametrize("op", ["set", "add", "multiply", "min", "max"])
def test_index_update_is_out_of_place_and_differentiable(op):
    x = torch.tensor([1.0, -2.0, 3.0, 0.5], dtype=torch.float64, requires_grad=True)
    v = torch.tensor([0.7, 2.5], dtype=torch.float64, requires_grad=True)
    index = torch.tensor([1, 1]) if op != "set" else torch.tensor([0, 2])
    out = getattr(hd.at(x)[index], op)(v)
    assert out is not x and x.tolist() == [1.0, -2.0, 3.0, 0.5]
    expected = x.detach().numpy().copy()
    if op == "set":
        expected[[0, 2]] = [0.7, 2.5]
    else:
        ufunc = {"add": np.add, "multiply": np.multiply, "min": np.minimum, "max": np.maximum}[op]
        ufunc.at(expected, [1, 1], [0.7, 2.5])
    np.testing.assert_allclose(out.detach().numpy(), expected)
    hd.sum(hd.sin(out)).backward()
    assert x.grad is not None and v.grad is not None

    def f(x, v):
        return hd.sum(hd.sin(getattr(hd.at(x)[index], op)(v)))

    gx, gv = torch.func.grad(f, argnums=(0, 1))(x.detach(), v.detach())
    np.testing.assert_allclose(gx.numpy(), x.grad.numpy())
    np.testing.assert_allclose(gv.numpy(), v.grad.numpy())


def test_index_update_under_vmap():
    x = torch.zeros(2, 4)
    vals = torch.arange(3.0)
    out = torch.func.vmap(lambda s: hd.at(x)[0, 1:3].set(s))(vals)
    assert out.shape == (3, 2, 4) and out[2, 0].tolist() == [0.0, 2.0, 2.0, 0.0]
    out = torch.func.vmap(lambda r: hd.at(r)[torch.tensor([0, 0])].add(1.0))(torch.zeros(3, 4))
    assert out[:, 0].tolist() == [2.0, 2.0, 2.0]


def test_torch_func_transforms_through_the_front():
    x = torch.randn(5, dtype=torch.float64)
    g = torch.func.grad(lambda t: hd.sum(hd.exp(t) * 2.0))(x)
    np.testing.assert_allclose(g.numpy(), 2 * np.exp(x.numpy()))
    rows = torch.func.vmap(lambda r: hd.logsumexp(r, axis=0))(torch.randn(3, 4))
    assert rows.shape == (3,)


def test_compile_fullgraph_through_the_front():
    # no graph break: the front's type-cache lookup and the shims trace cleanly
    torch._dynamo.reset()

    def f(x, y):
        a = hd.sum(hd.sin(x) * 2, axis=0)
        b = hd.add(hd.multiply(x, 2.0), y)
        c = hd.where(hd.greater(x, 0), x, 0.0) + hd.mean(x, axis=(0, 1), keepdims=True)
        return a, b, c, hd.at(x)[0].add(1.0)

    x, y = torch.randn(4, 3), torch.randn(3)
    compiled = torch.compile(f, fullgraph=True)
    for got, want in zip(compiled(x, y), f(x, y), strict=True):
        torch.testing.assert_close(got, want)


def test_limitations_is_a_dict_of_reasons():
    assert isinstance(_core.LIMITATIONS, dict)
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in _core.LIMITATIONS.items())


@pytest.mark.parametrize(
    ("s1", "s2"), [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)), ((5, 1, 2, 3), (4, 3, 2))]
)
def test_integer_matmul_fallback_is_exact(s1, s2):
    # the path for devices without integer GEMM (CUDA), checked here on the CPU
    from hedera.backends.torch.main_linalg import integer_matmul

    rng = np.random.default_rng(0)
    a = rng.integers(-(2**40), 2**40, size=s1)
    b = rng.integers(-1000, 1000, size=s2)
    out = integer_matmul(torch.as_tensor(a), torch.as_tensor(b))
    assert out.dtype is torch.int64
    np.testing.assert_array_equal(out.numpy(), a @ b)


@pytest.mark.parametrize(
    "index",
    [
        slice(None, None, -1),
        (Ellipsis, slice(None, None, -2)),
        (slice(None, None, -1), None, slice(2, 0, -1)),
        (1, Ellipsis, slice(None, None, -1), None),
        (slice(10, None, -1),),
        (slice(1, 1, -1),),
    ],
)
def test_negative_slice_steps(index):
    # torch slices have no negative steps: hd.at reads and writes them as on the flipped axis
    a = np.arange(24.0).reshape(2, 3, 4)
    t = torch.as_tensor(a)
    np.testing.assert_array_equal(hd.at(t)[index].get().numpy(), a[index])
    for op, ufunc in (("set", None), ("add", np.add), ("max", np.maximum)):
        expected = a.copy()
        if ufunc is None:
            expected[index] = 7.0
        else:
            ufunc.at(expected, index, 7.0)
        np.testing.assert_array_equal(getattr(hd.at(t)[index], op)(7.0).numpy(), expected)


# a pair of axis sequences on an inexact dtype: torch.tensordot itself (the shim's common case)
TENSORDOT_PAIRS = [
    ((1, 3, 3), (3, 3, 1, 1), ((1, 2), [0, 1])),  # the old permute-and-matmul path rounded this differently
    ((4, 5), (5, 3), ([1], [0])),
    ((2, 3, 4), (4, 3, 2), ([1, 2], [1, 0])),
    ((3, 4), (4, 3), ([-1], [0])),
    ((2, 3), (4,), ([], [])),
]


@pytest.mark.parametrize(("shape1", "shape2", "axes"), TENSORDOT_PAIRS)
def test_tensordot_with_a_pair_of_axes_is_torchs_own(shape1, shape2, axes):
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal(shape1), rng.standard_normal(shape2)
    got = hd.tensordot(torch.tensor(a), torch.tensor(b), axes=axes)
    native = torch.tensordot(torch.tensor(a), torch.tensor(b), dims=tuple(map(list, axes)))
    assert torch.equal(got, native)
    np.testing.assert_allclose(got.numpy(), np.tensordot(a, b, axes=axes), rtol=1e-12, atol=1e-12)


def test_tensordot_with_a_pair_of_axes_refuses_what_torch_would_broadcast():
    a, b = torch.ones(1, 2), torch.ones(3, 2)
    assert torch.tensordot(a, b, dims=([0], [0])).shape == (2, 2)  # torch sums the size-1 axis
    with pytest.raises(hd.ShapeError, match=r"tensordot: contracted axes \[0\] of x1"):
        hd.tensordot(a, b, axes=([0], [0]))
    with pytest.raises(hd.ShapeError, match="tensordot"):
        hd.tensordot(a, b, axes=([0], [0, 1]))
