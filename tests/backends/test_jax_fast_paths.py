"""The jax backend's fast paths give the answers of the paths they skip, bit for bit (issue 20).

* The shims compiled as their own native common case (``_core.compiled_common_case``:
  ``jax.jit(shim)``, which the C front calls): ``hd.f`` (the C front, compiled or falling back to
  the shim where jit raises), the compiled function itself and the shim run eagerly agree in
  dtype, shape, weak type, placement and bytes (NaN payloads and signs of zeros included), or
  raise the same error class, over dtypes, special values, 0-d and empty arrays, weakly typed and
  committed inputs, and both x64 modes; under an outer trace the compiled function gives the
  shim's own jaxpr (``inline=True``).
* The creation functions' native common cases (hedera dtypes of 32 bits or fewer translated to
  NumPy's): the shim's answer, and a 64-bit dtype with x64 mode off still raises hedera's error.
* The rewritten shims (asarray, diff, tensordot, pad, repeat): the answers of the code they replace,
  kept here as the reference.
"""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

import hedera as hd  # noqa: E402
from conftest import require_backend  # noqa: E402
from hedera import _fastpath  # noqa: E402

ns = hd.namespace("jax")

POOL = [0.0, -0.0, 1.5, -2.0, np.nan, np.inf, -np.inf, 1e-40, 3.0]


@pytest.fixture(autouse=True)
def _jax():
    require_backend("jax")  # (turns x64 on, as for every jax test)


def _arrays():
    """(label, jax array) over dtypes and special values."""
    f = np.array([*POOL, 2.0, -1.0, 0.5], np.float32)
    f.view(np.uint32)[4] |= 1  # a NaN with a payload
    yield "f32 1-d", jnp.asarray(f)
    yield "f32 2-d", jnp.asarray(f.reshape(3, 4))
    yield "f32 0-d", jnp.asarray(np.float32(-0.0))
    yield "f32 empty", jnp.zeros((2, 0), np.float32)
    yield "i8 1-d", jnp.asarray(np.array([3, -1, 0, 127, -128], np.int8))
    yield "bool 1-d", jnp.asarray(np.array([True, False, True]))
    c = np.array([0, 1j, complex(np.nan, 0), complex(0, -0.0), 1 + 1j, -2], np.complex64)
    yield "c64 2-d", jnp.asarray(c.reshape(2, 3))
    yield "weak 1-d", jax.lax.broadcast(jnp.asarray(1.5), (3,))  # (weakly typed)
    yield "committed f32 2-d", jax.device_put(f.reshape(3, 4), jax.devices()[0])


def _matrices():
    rng = np.random.default_rng(1)
    yield "f32 batch", jnp.asarray(rng.standard_normal((2, 3, 3)).astype(np.float32))
    yield "f32 singular", jnp.asarray(np.array([[1.0, 2.0], [2.0, 4.0]], np.float32))
    yield "f32 nan", jnp.asarray(np.array([[np.nan, 1.0], [1.0, -0.0]], np.float32))
    yield "f32 2x3", jnp.asarray(rng.standard_normal((2, 3)).astype(np.float32))
    yield (
        "c64 2x2",
        jnp.asarray((rng.standard_normal((2, 2)) + 1j * rng.standard_normal((2, 2))).astype(np.complex64)),
    )
    yield "f32 0x0", jnp.zeros((0, 0), np.float32)
    yield "i32 2x2", jnp.asarray(np.array([[2, 1], [1, 2]], np.int32))


def _outcome(f, *args, **kwargs):
    try:
        return f(*args, **kwargs)
    except Exception as error:
        return error


def _assert_same(got, want, where):
    if isinstance(want, Exception) or isinstance(got, Exception):
        assert type(got) is type(want), f"{where}: {got!r} vs {want!r}"
        return
    assert type(got) is type(want), f"{where}: {type(got)} vs {type(want)}"
    if isinstance(want, tuple):
        assert len(got) == len(want), where
        for g, w in zip(got, want, strict=True):
            _assert_same(g, w, where)
        return
    assert (got.dtype, got.shape, got.weak_type) == (want.dtype, want.shape, want.weak_type), (
        f"{where}: {got!r} weak={got.weak_type} vs {want!r} weak={want.weak_type}"
    )
    assert got.committed == want.committed and got.devices() == want.devices(), where
    assert np.asarray(got).tobytes() == np.asarray(want).tobytes(), f"{where}: {got!r} vs {want!r}"


def _front(qualname):
    out = hd
    for part in qualname.split("."):
        out = getattr(out, part)
    return out


def _python_front(front):
    """The Python front behind hd.f, which calls the shim (errors diagnosed as hd.f's)."""
    return _fastpath.python_front(front) if _fastpath.enabled() else front


def _check(qualname, calls):
    """hd.f, the compiled native (where it returns) and the shim agree on every call (args, kwargs)."""
    shim = ns
    for part in qualname.split("."):
        shim = getattr(shim, part)
    native = shim.__hedera_native__[0]
    assert isinstance(native, type(jax.jit(lambda v: v))), f"{qualname}: not compiled"
    front = _front(qualname)
    python_front = _python_front(front)
    compiled = 0
    for where, args, kwargs in calls:
        want = _outcome(shim, *args, **kwargs)
        reference = _outcome(python_front, *args, **kwargs)  # (errors as hedera's fronts diagnose them)
        for _ in range(2):  # (the first call of a new last hit may take the Python front)
            _assert_same(_outcome(front, *args, **kwargs), reference, f"hd.{qualname} {where}")
        got = _outcome(native, *args, **kwargs)
        if not isinstance(got, Exception):  # (where it raises, the C front calls the shim: checked above)
            compiled += 1
            _assert_same(got, want, f"compiled {qualname} {where}")
    assert compiled, f"{qualname}: no call took the compiled path"


def _unary_calls(keywords):
    for label, x in _arrays():
        for kwargs in keywords:
            yield f"{label} {kwargs}", (x,), kwargs


@pytest.mark.parametrize(
    ("name", "x64"),
    [("cumulative_sum", True), ("cumulative_prod", True), ("cumsum", False), ("cumprod", False)],
)
def test_cumulative(name, x64):
    keywords = [{}, {"axis": 0}, {"axis": -1, "include_initial": True}, {"dtype": hd.float32, "axis": 0}]
    with jax.enable_x64(x64):
        calls = [(w, tuple(jnp.asarray(a) for a in args), k) for w, args, k in _unary_calls(keywords)]
        _check(name, calls)


@pytest.mark.parametrize("name", ["all", "any"])
def test_all_any(name):
    keywords = [{}, {"axis": 0}, {"keepdims": True}, {"axis": (0, 1), "keepdims": True}, {"axis": 2}]
    _check(name, list(_unary_calls(keywords)))


def test_roll():
    keywords = [
        {"shift": 0},
        {"shift": -3, "axis": 0},
        {"shift": (1, 2), "axis": (0, 1)},
        {"shift": 1.5},
        {"shift": [1], "axis": [0]},
    ]
    _check("roll", list(_unary_calls(keywords)))


def test_pad():
    calls = []
    for label, x in _arrays():
        for width, kwargs in [
            (1, {}),
            (((1, 2),), {}),
            (((2, 3),), {"mode": "wrap"}),
            (1, {"mode": "reflect"}),
            (1, {"mode": "symmetric"}),
            (1, {"constant_values": -0.0}),
            (((1, 0),), {"constant_values": np.nan}),
            ([[1, 1]], {}),
        ]:
            calls.append((f"{label} {width} {kwargs}", (x, width), kwargs))
    for where, args, kwargs in [
        *calls,
        ("strings", (jnp.ones(3), 1), {"mode": "edge", "constant_values": "a"}),
    ]:
        want = _outcome(_old_pad, *args, **kwargs)
        _assert_same(_outcome(ns.pad, *args, **kwargs), want, f"pad {where}")
        if not isinstance(want, Exception):
            _assert_same(_outcome(hd.pad, *args, **kwargs), want, f"hd.pad {where}")


def _old_pad(x, pad_width, mode="constant", constant_values=0):
    """The shim before its compiled program (jnp.pad eagerly)."""
    from hedera.backends._common import check_pad_mode, normalize_pad_width

    if mode != "constant":
        check_pad_mode(mode)
    widths = normalize_pad_width(pad_width, x.ndim)
    if not widths:
        return jnp.asarray(x)
    if mode == "constant":
        return jnp.pad(x, pad_width if type(pad_width) is int else widths, constant_values=constant_values)
    for axis, (before, after) in enumerate(widths):
        if (before or after) and x.shape[axis] == 0:
            raise hd.InvalidArgumentError("empty axis")
    return jnp.pad(x, pad_width, mode=mode)


def test_take_and_take_along_axis():
    take, along = [], []
    for label, x in _arrays():
        if x.ndim == 0:
            continue
        n = x.shape[0]
        for idx in (
            jnp.asarray([0, n - 1, -1] if n else [], np.int64),
            jnp.asarray([True]),
            jnp.asarray(np.array([[0, 0]], np.int8)).T,
            -1,
        ):
            for kwargs in ({}, {"axis": 0}):
                take.append((f"{label} {idx!r} {kwargs}", (x, idx), kwargs))
            if hasattr(idx, "ndim") and idx.ndim == x.ndim:
                along.append((f"{label} {idx!r}", (x, idx), {"axis": 0}))
        if x.ndim == 2 and x.shape[1]:
            along.append((label, (x, jnp.zeros((3, 1), np.int64)), {}))
    _check("take", take)
    _check("take_along_axis", along)


def test_static_arguments_equal_to_cached_ones_of_other_types():
    """jit keys a static argument by its top-level type and ==, so (1.0,) hits the entry of (1,): the
    front's checks refuse such values before, and a NumPy integer that jit cannot compare (== gives an
    array) makes the compiled function raise, and the C front then calls the shim."""
    x = jnp.asarray(np.arange(6.0, dtype=np.float32).reshape(2, 3))
    for front, cached, other in [
        (hd.roll, {"shift": (1,)}, {"shift": (1.0,)}),
        (hd.roll, {"shift": (1,), "axis": (0,)}, {"shift": (1,), "axis": (True,)}),
        (hd.all, {"axis": (0, 1)}, {"axis": np.int64(0)}),
        (hd.cumsum, {"axis": 1}, {"axis": np.int64(1)}),
        (hd.pad, {}, {"mode": "wrap"}),
    ]:
        args = (x, ((1, 1), (0, 2))) if front is hd.pad else (x,)
        front(*args, **cached)
        for _ in range(2):
            _assert_same(
                _outcome(front, *args, **other), _outcome(_python_front(front), *args, **other), str(other)
            )


@pytest.mark.parametrize(
    ("name", "keywords"),
    [
        ("linalg.eigh", [{}]),
        ("linalg.qr", [{}, {"mode": "complete"}, {"mode": "r"}]),
        ("linalg.slogdet", [{}]),
        ("linalg.svd", [{}, {"full_matrices": False}]),
    ],
)
def test_linalg(name, keywords):
    _check(name, [(f"{label} {k}", (x,), k) for label, x in _matrices() for k in keywords])


def test_meshgrid():
    a, b = jnp.asarray([1.0, -0.0, np.nan], np.float32), jnp.asarray([2, 3], np.int64)
    c = jnp.zeros((0,), np.float32)
    calls = [
        (f"{len(args)} {k}", args, k)
        for args in [(a,), (a, b), (a, a, c), (b, c)]
        for k in ({}, {"indexing": "ij"}, {"indexing": "xy"}, {"indexing": "ji"})
    ]
    calls.append(("2-d", (a.reshape(1, 3),), {}))
    _check("meshgrid", calls)


def test_compiled_shims_trace_as_the_shims_under_an_outer_jit():
    x = jnp.asarray(np.arange(6, dtype=np.float32).reshape(2, 3))
    for front, shim, kwargs in [
        (hd.cumsum, ns.cumsum, {"axis": 1}),
        (hd.all, ns.all, {"axis": 0}),
        (hd.roll, ns.roll, {"shift": 1}),
        (hd.linalg.svd, ns.linalg.svd, {}),
    ]:
        want = str(jax.make_jaxpr(lambda v, shim=shim, kwargs=kwargs: shim(v, **kwargs))(x))
        got = str(jax.make_jaxpr(lambda v, front=front, kwargs=kwargs: front(v, **kwargs))(x))
        assert got == want
    grad = jax.grad(lambda v: hd.sum(hd.cumsum(v, axis=1)))(x)
    np.testing.assert_array_equal(np.asarray(grad), [[3, 2, 1], [3, 2, 1]])


# ---- creation functions: native common cases ------------------------------------------------


@pytest.mark.parametrize("x64", [True, False], ids=["x64", "x32"])
def test_creation_native_common_cases(x64):
    dtypes = [
        None,
        hd.float32,
        hd.uint8,
        hd.bool,
        hd.complex64,
        hd.float16,
        hd.bfloat16,
        hd.float64,
        "float32",
    ]
    x = jnp.asarray(np.array([1.5, -0.0], np.float32))
    with jax.enable_x64(x64), hd.use_backend("jax"):
        for dtype in dtypes:
            kw = {} if dtype is None else {"dtype": dtype}
            calls = [
                ("zeros", (3,)),
                ("ones", ((2, 0),)),
                ("empty", (2,)),
                ("zeros_like", (x,)),
                ("ones_like", (x,)),
                ("empty_like", (x,)),
                ("eye", (2, 3)),
                ("arange", (5,)),
                ("arange", (-2,)),
                ("arange", (3, 9)),
                ("fft.fftfreq", (5,)),
                ("fft.rfftfreq", (4,)),
            ]
            for name, args in calls:
                shim = ns
                for part in name.split("."):
                    shim = getattr(shim, part)
                want = _outcome(shim, *args, **kw)
                extra = [{}]
                if name == "eye":
                    extra = [{}, {"k": 1}, {"k": -1}]
                elif name.startswith("fft."):
                    extra = [{}, {"d": 0.5}, {"d": -0.0}]
                for more in extra:
                    want = _outcome(shim, *args, **kw, **more)
                    for _ in range(2):
                        got = _outcome(_front(name), *args, **kw, **more)
                        if name.startswith("empty") and not isinstance(want, Exception):
                            assert (got.dtype, got.shape) == (want.dtype, want.shape), name
                        else:
                            _assert_same(got, want, f"{name}{args} {kw} {more} x64={x64}")
        if not x64:
            for name, args in [("zeros", (3,)), ("arange", (3,)), ("eye", (2,)), ("zeros_like", (x,))]:
                with pytest.raises(hd.UnsupportedDtypeError):
                    _front(name)(*args, dtype=hd.float64)


def test_from_dlpack():
    for _, x in _arrays():
        _assert_same(hd.from_dlpack(x), ns.from_dlpack(x), "from_dlpack")
        _assert_same(hd.from_dlpack(x), jnp.from_dlpack(x), "from_dlpack")
    strided = np.arange(6.0, dtype=np.float32)[::2]  # (jax raises for it; the shim copies)
    np.testing.assert_array_equal(np.asarray(ns.from_dlpack(strided)), strided)


# ---- rewritten shims against the code they replace --------------------------------------------


def _old_asarray(obj, dtype=None, device=None, copy=None):
    from hedera.backends.jax._core import scalar_dtype

    return jnp.asarray(obj, dtype=scalar_dtype(obj), copy=copy, device=device)


@pytest.mark.parametrize("x64", [True, False], ids=["x64", "x32"])
def test_asarray_at_the_defaults(x64):
    with jax.enable_x64(x64):
        objs = [
            [[False]],
            [1.0, -0.0],
            [1, 2],
            (1j, 2),
            [],
            [[np.nan]],
            1.0,
            -0.0,
            3,
            True,
            1j,
            np.float32(2.5),
            np.int64(3),
            np.array([1.5, -0.0]),
            np.array(2),
            jnp.asarray([1.0]),
            jnp.asarray(2.0),
        ]
        objs += [x for _, x in _arrays()]
        for obj in objs:
            _assert_same(ns.asarray(obj), _old_asarray(obj), f"asarray({obj!r})")
            _assert_same(hd.asarray(obj, backend="jax"), _old_asarray(obj), f"hd.asarray({obj!r})")
        x = jnp.asarray([1.0])
        assert ns.asarray(x) is x


def test_linspace():
    for start, stop, num, kwargs in [
        (-97.25, 99.75, 10, {}),
        (0, 1, 5, {"endpoint": False}),
        (1, 1, 0, {}),
        (-0.0, 0.0, 3, {}),
        (0, 10, 4, {"dtype": hd.float32}),
        (0j, 1, 3, {}),
        (np.nan, 1.0, 2, {}),
        (jnp.asarray(1.0), 2, 3, {}),
    ]:
        want = jnp.linspace(
            start,
            stop,
            num,
            endpoint=kwargs.get("endpoint", True),
            dtype=kwargs.get("dtype") and np.dtype(kwargs["dtype"].name),
            device=None,
        )
        _assert_same(
            ns.linspace(start, stop, num=num, **kwargs), want, f"linspace {start} {stop} {num} {kwargs}"
        )
        _assert_same(hd.linspace(start, stop, num=num, **kwargs, backend="jax"), want, "hd.linspace")
        _assert_same(hd.linspace(start, stop, num, **kwargs, backend="jax"), want, "hd.linspace")


def test_diff():
    for label, x in _arrays():
        if x.ndim == 0:
            continue
        p = x[..., :1]
        for kwargs in ({}, {"axis": 0, "n": 2}, {"prepend": p}, {"prepend": p, "append": p, "axis": -1}):
            want = _outcome(jnp.diff, x, **kwargs)
            _assert_same(_outcome(ns.diff, x, **kwargs), want, f"diff {label} {kwargs}")
            if not isinstance(want, Exception):
                _assert_same(_outcome(hd.diff, x, **kwargs), want, f"hd.diff {label} {kwargs}")


def _old_tensordot(x1, x2, axes=2):
    if axes.__class__ is not int and any(isinstance(a, int) for a in axes):
        axes = tuple((a,) if isinstance(a, int) else a for a in axes)
    return jnp.tensordot(x1, x2, axes)


def test_tensordot():
    rng = np.random.default_rng(2)
    f = rng.choice(np.array(POOL, np.float32), 24)
    a, b = jnp.asarray(f.reshape(2, 3, 4)), jnp.asarray(f[::-1].reshape(4, 3, 2).copy())
    i = jnp.asarray(rng.integers(-5, 5, 6).reshape(2, 3))
    s = jnp.asarray(np.float32(-0.0))
    c = jnp.asarray(np.array([1 + 1j, np.nan, -0.0], np.complex64))
    cases = [
        (a, b, 1),
        (a, b, 0),
        (a, b, ([2], [0])),
        (a, b, [[2, 1], [0, 1]]),
        (a, b, (2, 0)),
        (a, b, [2, 0]),
        (a, b, (2, [0])),
        (s, s, ([], [])),
        (s, s, 0),
        (i, i, ([0, 1], [0, 1])),
        (i, i.T, 1),
        (c, c, 1),
        (c, c, ([0], [0])),
        (a, b, 3),
        (a, b, ([2], [0], [1])),
        (a, b, ([2, 1], [0])),
        (a, b, ((2,), (2,))),
        (a, a, (np.int64(1), np.int64(1))),
        (a, b, (np.array([2]), np.array([0]))),
        (a, b, ([[2]], [[0]])),
        (i, jnp.asarray(rng.standard_normal(3).astype(np.float32)), ([1], [0])),
        (a, b, 2),
    ]
    for x1, x2, axes in cases:
        where = f"tensordot {x1.shape} {x2.shape} {axes!r}"
        _assert_same(_outcome(ns.tensordot, x1, x2, axes=axes), _outcome(_old_tensordot, x1, x2, axes), where)
        reference = _outcome(_python_front(hd.tensordot), x1, x2, axes=axes)  # (hedera's diagnosed errors)
        _assert_same(_outcome(hd.tensordot, x1, x2, axes=axes), reference, where)
    with jax.enable_x64(False):
        x = jnp.asarray(np.arange(4, dtype=np.float32).reshape(2, 2))
        _assert_same(ns.tensordot(x, x, axes=([1], [0])), _old_tensordot(x, x, ([1], [0])), "x32")


class _Counting:
    def __init__(self, native):
        self.native, self.calls = native, 0

    def __call__(self, *args, **kwargs):
        self.calls += 1
        return self.native(*args, **kwargs)


@pytest.mark.skipif(not _fastpath.enabled(), reason="pure-Python fronts: no C front")
def test_the_c_front_takes_the_native_common_cases(monkeypatch):
    """Each spec is one the C front accepts (a spec it refuses, meshgrid's 64 arguments say, would
    quietly leave every call on the shim)."""
    x = jnp.asarray(np.arange(4.0, dtype=np.float32))
    m = jnp.asarray(np.eye(2, dtype=np.float32))
    i = jnp.asarray(np.array([0, 1]))
    calls = [
        ("cumsum", (x,), {"axis": 0}),
        ("cumulative_prod", (x,), {}),
        ("all", (x,), {}),
        ("any", (x,), {"axis": 0}),
        ("roll", (x,), {"shift": 1}),
        ("take", (x, i), {"axis": 0}),
        ("take_along_axis", (x, i), {}),
        ("meshgrid", (x, x), {}),
        ("meshgrid", (x,), {"indexing": "ij"}),
        ("linalg.qr", (m,), {}),
        ("linalg.svd", (m,), {}),
        ("linalg.eigh", (m,), {}),
        ("linalg.slogdet", (m,), {}),
        ("zeros", (3,), {"dtype": hd.int8}),
        ("ones", (3,), {}),
        ("empty", (3,), {}),
        ("eye", (2, 3), {"k": 1}),
        ("arange", (4,), {}),
        ("zeros_like", (x,), {}),
        ("ones_like", (x,), {"dtype": hd.float32}),
        ("empty_like", (x,), {}),
        ("from_dlpack", (x,), {}),
        ("fft.fftfreq", (4,), {"d": 0.5}),
        ("fft.rfftfreq", (4,), {}),
        ("sum", (x,), {"dtype": hd.float32}),
        ("prod", (x,), {}),
        ("linalg.trace", (m,), {"offset": 1}),
        ("broadcast_arrays", (x, x), {}),
        ("linalg.matrix_rank", (m,), {}),
        ("linalg.pinv", (m,), {}),
        ("einsum", ("ij,jk->ik", m, m), {}),
        ("linspace", (0.0, 1.0), {"num": 3}),
    ]
    for name, args, kwargs in calls:
        shim = ns
        for part in name.split("."):
            shim = getattr(shim, part)
        counting = _Counting(shim.__hedera_native__[0])
        monkeypatch.setattr(shim, "__hedera_native__", (counting, *shim.__hedera_native__[1:]))
        on_numpy = [np.asarray(a) if hasattr(a, "shape") else a for a in args]
        with hd.use_backend("numpy"):  # (another last hit first: the front reads the spec at the next)
            for _ in range(2):  # (the first may be a cache miss, which the Python front decides)
                _front(name)(*on_numpy, **{k: v for k, v in kwargs.items() if k != "dtype"})
        with hd.use_backend("jax"):
            for _ in range(2):
                _front(name)(*args, **kwargs)
        assert counting.calls >= 1, name


@pytest.mark.parametrize("x64", [True, False], ids=["x64", "x32"])
def test_native_dtype_and_device_fast_paths(x64):
    """hedera dtypes by name and devices by their type: what the general lookups give (or raise)."""
    from hedera.backends.jax import _core

    with jax.enable_x64(x64):
        for d in hd.dtypes.all_dtypes:
            for spelling in (d, d.name):  # (a name takes the general lookup)
                try:
                    want = _core.dtype_unchecked(spelling)
                    if want in _core._WIDE and not x64:
                        want = hd.UnsupportedDtypeError
                except Exception as e:
                    want = type(e)
                got = _outcome(_core.native_dtype, spelling)
                assert (type(got) if isinstance(got, Exception) else got) == want, (d, spelling)
    device = jax.devices()[0]
    for _ in range(2):
        assert _core.native_device(device) is device
        assert _core.native_device(jax.sharding.SingleDeviceSharding(device)).device_set == {device}
        with pytest.raises(hd.ArgumentTypeError):
            _core.native_device(3)
    assert _core.native_device("cpu") is jax.devices("cpu")[0]


def test_sum_prod_trace_and_broadcast_arrays():
    keywords = [{"keepdims": True}, {"axis": (0, 1), "dtype": hd.int32}, {"dtype": hd.float32}]
    calls = list(_unary_calls(keywords))
    _check("sum", calls)
    _check("prod", calls)
    matrices = [
        (f"{label} {k}", (x,), k)
        for label, x in _matrices()
        for k in ({}, {"offset": 1}, {"dtype": hd.float32})
    ]
    _check("linalg.trace", matrices)
    a, b = jnp.asarray([[1.0], [-0.0]], np.float32), jnp.asarray([np.nan, 2.0, 3.0], np.float32)
    w = jax.lax.broadcast(jnp.asarray(1.5), (3,))
    calls = [
        ("2", (a, b), {}),
        ("1", (b,), {}),
        ("weak", (w, a), {}),
        ("0-d", (jnp.asarray(2), b), {}),
        ("bad", (b, b[:2]), {}),
        ("scalar", (b, 1.5), {}),
    ]
    _check("broadcast_arrays", calls)


def test_matrix_rank_and_pinv_natives():
    for label, x in _matrices():
        if x.dtype.kind not in "fc":
            continue
        for kwargs in ({}, {"rtol": 0.5}, {"rtol": jnp.asarray(0.1, x.real.dtype)}):
            want = _outcome(ns.linalg.matrix_rank, x, **kwargs)
            _assert_same(_outcome(hd.linalg.matrix_rank, x, **kwargs), want, f"matrix_rank {label} {kwargs}")
        want = _outcome(ns.linalg.pinv, x)
        _assert_same(_outcome(hd.linalg.pinv, x), want, f"pinv {label}")
        _assert_same(_outcome(ns.linalg.pinv.__hedera_native__[0], x), want, f"pinv {label}")


def test_einsum():
    rng = np.random.default_rng(3)
    f = jnp.asarray(rng.choice(np.array(POOL, np.float32), 6).reshape(2, 3))
    g = jnp.asarray(rng.standard_normal((3, 2)).astype(np.float32))
    i = jnp.asarray(rng.integers(-3, 3, (1, 3, 1)).astype(np.int32))
    j = jnp.asarray(rng.integers(-3, 3, (1, 1, 1)).astype(np.int32))
    c = jnp.asarray(np.array([1 + 1j, complex(np.nan, 0), -0.0], np.complex64))
    bools = jnp.asarray(np.array([True, False, True]))
    calls = [
        ("matmul", ("ij,jk->ik", f, g), {}),
        ("ellipsis", ("...ij,...jk->...ik", i, j), {}),
        ("dot", ("i,i->", c, c), {}),
        ("trace", ("ii", g[:2]), {}),
        ("sum", ("ij->", f), {}),
        ("outer bool", ("i,j->ij", bools, bools), {}),
        ("three", ("ij,jk,kl->il", f, g, f), {}),
        ("bad", ("ij,jk->ik", f, f), {}),
        ("0-d", ("->", jnp.asarray(-0.0)), {}),
    ]
    _check("einsum", calls)


def test_linspace_compiled():
    calls = [
        (f"{args} {kw}", args, kw)
        for args, kw in [
            ((-97.25, 99.75), {"num": 10}),
            ((0, 1), {"num": 5, "endpoint": False}),
            ((1, 1), {"num": 0}),
            ((-0.0, 0.0), {"num": 3}),
            ((0, 10), {"num": 4, "dtype": hd.float32}),
            ((0j, 1), {"num": 3}),
            ((np.nan, 1.0), {"num": 2}),
            ((np.float32(1), 2), {"num": 3}),
            ((0, 2**40), {"num": 3}),
            ((0.0, 1.0), {}),
            ((0, 1), {"num": 3, "dtype": hd.int8}),
        ]
    ]
    with hd.use_backend("jax"):
        _check("linspace", calls)
        with pytest.raises(TypeError):
            hd.linspace(0.0, 1.0)


def test_repeat():
    x = jnp.asarray(np.array([1.5, -0.0, np.nan], np.float32))
    for repeats, kwargs in [
        (jnp.asarray([1, 0, 2]), {}),
        (2, {}),
        (jnp.asarray([3]), {"axis": 0}),
        (jnp.asarray(np.array([1, 2, 0], np.uint8)), {"axis": 0}),
    ]:
        want = jnp.repeat(x, repeats, **kwargs)
        _assert_same(hd.repeat(x, repeats, **kwargs), want, f"repeat {repeats} {kwargs}")
    for bad in (jnp.asarray([True, False, True]), jnp.asarray([1.0, 1.0, 1.0])):
        with pytest.raises(hd.DtypeError):
            hd.repeat(x, bad)


_REPEAT_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "float16", "float32", "float64"]


def _repeat_source(dtype, shape):
    """A NumPy array of ``dtype`` and ``shape``: special values for floats (a NaN payload, -0.0)."""
    size = int(np.prod(shape))
    rng = np.random.default_rng(size)
    if dtype == "bool":
        return rng.integers(0, 2, size).astype(bool).reshape(shape)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(-100, 100, size).astype(dtype).reshape(shape)
    f = np.resize(np.array([*POOL, 2.0, -1.0], np.float32), size)
    if size > 4:
        f.view(np.uint32)[4] |= 1  # a NaN with a payload
    if dtype == "complex64":
        c = np.empty(size, np.complex64)
        c.real, c.imag = f, f[::-1]
        return c.reshape(shape)
    a = f.astype(jnp.dtype(dtype))
    if size > 4 and a.itemsize == 2:
        a.view(np.uint16)[4] |= 1  # (the float32 payload does not survive the cast)
    return a.reshape(shape)


def _assert_repeat(x, counts, axis, label=""):
    """hd.repeat(x, counts, axis=axis) is jnp.repeat's answer (with axis=None where x is 0-d, which
    jnp.repeat repeats whole along axis 0 too) and, in values, np.repeat's."""
    native_axis = axis if np.ndim(x) else None
    want = jnp.repeat(x, counts, native_axis)
    where = f"{label} {jnp.asarray(x).dtype} {np.shape(x)} {np.asarray(counts)} {counts.dtype} axis={axis}"
    _assert_same(hd.repeat(x, counts, axis=axis), want, where)
    host_counts = np.asarray(counts).astype(np.int64)  # (np.repeat refuses uint64 counts)
    # (values: on XLA's CPU backend jnp.repeat quiets a bfloat16 NaN's payload, which np.repeat keeps)
    numpys = np.repeat(np.asarray(x), host_counts, native_axis)
    if numpys.dtype == jnp.bfloat16:
        want, numpys = np.asarray(want, np.float32), numpys.astype(np.float32)  # (NaNs NumPy knows)
    np.testing.assert_array_equal(want, numpys, where)


@pytest.mark.parametrize(
    ("dtype", "x64"),
    [(d, True) for d in [*_REPEAT_DTYPES, "bfloat16", "complex64"]] + [("int64", False)],
)
def test_repeat_by_counts_over_dtypes(dtype, x64):
    """The gather at host-computed positions answers as jnp.repeat's own program, in each x64 mode."""
    with jax.enable_x64(x64):
        x = jnp.asarray(_repeat_source(dtype, (2, 3)))
        counts = np.array([0, 3, 1], np.int32 if dtype in ("int8", "float16", "int32") else np.int64)
        _assert_repeat(x, jnp.asarray(counts), -1)  # (int64 counts become int32 where x64 is off)


def _f32(shape):
    return jnp.asarray(_repeat_source("float32", shape))


def _repeat_cases():
    """(label, x, counts, axis): every axis of a 3-d x (negative ones too) and axis=None; 0-d, 1-d and
    empty x; counts with zeros, all zeros, one count for all (a 0-d one too); weakly typed and
    committed x. (Mostly 3 repeats in all, as in test_repeat: jnp.repeat compiles its ops for each
    number of counts and total, ~0.2-0.5 s each here.)"""
    yield "0-d", _f32(()), [3], None
    yield "0-d axis 0", _f32(()), [3], 0
    yield "0-d weak", jnp.asarray(27.39), [3], None
    yield "0-d committed", jax.device_put(_f32(()), jax.devices()[0]), [3], None
    yield "1-d", _f32((3,)), [1, 0, 2], None
    yield "1-d zeros", _f32((3,)), [0, 0, 0], -1
    yield "1-d one count", _f32((3,)), [2], 0
    yield "1-d 0-d count", _f32((3,)), 1, -1
    yield "1-d weak", jax.lax.broadcast(jnp.asarray(27.39), (3,)), [1, 0, 2], 0
    yield "1-d committed", jax.device_put(_f32((3,)), jax.devices()[0]), [1, 0, 2], 0
    for axis, counts in {None: [k % 3 for k in range(12)], 0: [2, 1], 1: [1, 0, 2], 2: [2, 1]}.items():
        yield f"3-d axis {axis}", _f32((2, 3, 2)), counts, axis
        if axis is not None:
            yield f"3-d axis {axis - 3}", _f32((2, 3, 2)), counts, axis - 3
    yield "empty axis 0", _f32((2, 0, 3)), [1, 2], 0
    yield "empty axis 1", _f32((2, 0, 3)), [], 1
    yield "empty axis None", _f32((2, 0, 3)), [3], None


def test_repeat_by_counts_over_shapes_and_axes():
    for label, x, counts, axis in _repeat_cases():
        _assert_repeat(x, jnp.asarray(np.array(counts, np.int32)), axis, label)


def test_repeat_by_counts_under_transformations():
    """Under grad, jit and vmap (concrete counts) the gather's answers and gradient (a scatter-add) are
    jnp.repeat's; traced counts still raise jax's error, as jnp.repeat's."""
    x = jnp.asarray(np.array([[1.5, -2.0, 3.0], [0.25, 4.0, -1.0]], np.float32))
    counts = jnp.asarray([2, 0, 3])
    cotangent = jnp.asarray(np.random.default_rng(0).standard_normal((2, 5)).astype(np.float32))

    def loss(f):
        return lambda v: jnp.sum(f(v, counts, 1) * cotangent)

    ours, theirs = loss(lambda v, c, a: hd.repeat(v, c, axis=a)), loss(jnp.repeat)
    want = jax.grad(theirs)(x)
    _assert_same(jax.grad(ours)(x), want, "grad")
    _assert_same(jax.jit(lambda v: hd.repeat(v, counts, axis=1))(x), jnp.repeat(x, counts, 1), "jit")
    _assert_same(hd.grad(ours)(x), want, "hd.grad")
    vmapped = jax.vmap(lambda r: hd.repeat(r, counts))(x)
    _assert_same(vmapped, jax.vmap(lambda r: jnp.repeat(r, counts))(x), "vmap")
    with pytest.raises(jax.errors.ConcretizationTypeError):
        jax.jit(hd.repeat)(x, counts)


def test_repeat_by_counts_edge_inputs():
    """A Python scalar x, uint64 counts (which NumPy's repeat refuses: jnp.repeat's path), and the
    errors for counts of the wrong number or a negative count."""
    _assert_same(hd.repeat(1.5, jnp.asarray([3])), jnp.repeat(1.5, jnp.asarray([3])), "python scalar")
    x = jnp.asarray(_repeat_source("int16", (3,)))
    _assert_repeat(x, jnp.asarray(np.array([1, 0, 2], np.uint64)), 0)
    bad_counts = [
        ([1, 2], hd.ShapeError),
        ([[1, 2, 3]], hd.ShapeError),
        ([1, -1, 2], hd.InvalidArgumentError),
    ]
    for bad, error in bad_counts:
        with pytest.raises(error):
            hd.repeat(x, jnp.asarray(bad))
