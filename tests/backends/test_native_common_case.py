"""The C front's native common case (``hedera.backends._common.native_common_case``) keeps its promise.

A conformance shim marked with ``__hedera_native__`` promises that, for the calls its spec
describes (positional count, keywords at their defaults or forwarded, one dtype among the listed
ones, equal shapes where it says so), its answer is the native function's wherever the native
returns one (where the native raises, the C front calls the shim). The C front then calls the
native function and skips the shim, while the Python fronts, torch.compile and
``hd.namespace(b).f`` still call the shim: both must give the same answer to the bit, or the
answer would depend on how a function is called.

* :func:`test_shim_answers_as_its_native_does`: on the test harness's inputs (the rows of
  tests/core/test_functions.py, special values included), every call the C front would send to
  the native gets the same result from the native and the shim (type, dtype, shape, values, NaN
  places, signs of zeros), unless the native raises.
* :func:`test_front_calls_the_native_exactly_where_promised`: the C front does call the native
  for those calls, and the shim for the others (other dtypes, a keyword off its default, other
  shapes).
* :func:`test_front_falls_back_to_the_shim_where_the_native_raises`: the shim's answer, not the
  native's error.
"""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import hedera as hd
from conftest import _FRAMEWORK, require_backend, selected_backends
from hedera import _fastpath
from hedera._api import BY_QUALNAME, FUNCTIONS

_CORE = str(Path(__file__).resolve().parents[1] / "core")
if _CORE not in sys.path:
    sys.path.insert(0, _CORE)

from harness import for_backend, lookup  # noqa: E402
from test_functions import ROWS  # noqa: E402

_ROWS = {row.qualname: row for row in ROWS}


def _marked(backend: str) -> list[str]:
    ns = hd.namespace(backend)
    out = []
    for f in FUNCTIONS:
        try:
            shim = lookup(ns, f.qualname)
        except AttributeError:
            continue
        if hasattr(shim, "__hedera_native__"):
            out.append(f.qualname)
    return out


def _is_default(value: Any, default: Any) -> bool:
    """The C front's test (hedera/_fastfront.c, is_default)."""
    if value is default:
        return True
    if type(value) is not type(default):
        return False
    if type(value) is float:
        return value == default and math.copysign(1.0, value) == math.copysign(1.0, default)
    return type(value) in (int, str) and value == default


def _arity(qualname: str) -> int:
    """The front's leading array arguments (those the C front reads the dtype of)."""
    function = BY_QUALNAME[qualname]
    count = 0
    for name in function.param_names:
        if name not in function.array_params:
            break
        count += 1
    return count


def _translated(entry: tuple, value: Any) -> tuple[Any] | None:
    """The C front's translation of a keyword's value (hedera/_fastfront.c, translated_keyword), as a
    one-item tuple, or None: none."""
    _, pairs, types = entry
    for i in range(0, len(pairs), 2):
        if pairs[i] is value:
            return (pairs[i + 1],)
    return (value,) if type(value) in types else None


def _native_call(spec: tuple, qualname: str, args: tuple, kwargs: dict) -> dict | None:
    """The keywords the native gets where the C front calls it for this call, else None."""
    _, least, most, dtypes, keywords = spec[:5]
    same_shape = len(spec) > 5 and spec[5]
    if not least <= len(args) <= most:
        return None
    kept = {}
    for name, value in kwargs.items():
        if name not in keywords:
            return None
        entry = keywords[name]
        if type(entry) is tuple:  # a translated keyword: (default, pairs, types)
            if _is_default(value, entry[0]):
                continue
            translation = _translated(entry, value)
            if translation is None:
                return None
            kept[name] = translation[0]
        elif entry is Ellipsis:
            kept[name] = value
        elif not _is_default(value, entry):
            return None
    if dtypes is not None and not BY_QUALNAME[qualname].array_params:  # (the leading arguments' types)
        if not all(any(type(a) is t for t in types) for a, types in zip(args, dtypes, strict=False)):
            return None
    elif dtypes is not None:
        arrays = args[: _arity(qualname)]
        if len({type(a) for a in arrays}) != 1:
            return None
        if dtypes is Ellipsis:  # (one_type: arrays of one type, any dtypes)
            return kept
        if len(dtypes) == 2 and all(type(d) is tuple for d in dtypes):  # (leading, shared)
            if not any(getattr(arrays[0], "dtype", None) is d for d in dtypes[0]):
                return None
            arrays, dtypes = arrays[1:], dtypes[1]
        first = getattr(arrays[0], "dtype", None)
        if not any(first is d for d in dtypes) or any(a.dtype is not first for a in arrays):
            return None
        if same_shape and any(a.shape != arrays[0].shape for a in arrays):
            return None
    return kept


def _required(qualname: str) -> int:
    """The positional parameters without a default."""
    params = [p for p in BY_QUALNAME[qualname].signature if not isinstance(p, str)]
    return sum(1 for p in params if p.default is None)


def _outcome(fn, args, kwargs):
    try:
        with np.errstate(all="ignore"):
            return fn(*args, **kwargs)
    except Exception as error:  # the same exception class from both is the same answer
        return error


#: functions whose values are unspecified (only the type, dtype and shape are compared)
_UNINITIALIZED = frozenset({"empty", "empty_like"})


def _assert_same(got: Any, want: Any, where: str, values: bool = True) -> None:
    if isinstance(want, Exception):
        raise AssertionError(f"{where}: native gave {got!r}, the shim raised {want!r}")
    assert type(got) is type(want), f"{where}: native gave a {type(got)}, the shim a {type(want)}"
    if isinstance(want, (tuple, list)):
        assert len(got) == len(want), where
        for g, w in zip(got, want, strict=True):
            _assert_same(g, w, where, values)
        return
    if not hasattr(want, "dtype"):
        assert got == want or (got != got and want != want), f"{where}: {got!r} != {want!r}"
        return
    assert got.dtype == want.dtype and tuple(got.shape) == tuple(want.shape), f"{where}: {got!r} != {want!r}"
    if not values:
        return
    g, w = np.asarray(hd.to_numpy(got)), np.asarray(hd.to_numpy(want))
    parts = ((g.real, w.real), (g.imag, w.imag)) if w.dtype.kind == "c" else ((g, w),)
    for a, b in parts:
        assert np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"), f"{where}: {g!r} != {w!r}"
        if a.dtype.kind == "f":
            assert np.array_equal(np.signbit(a), np.signbit(b)), f"{where}: zero signs differ: {g!r}, {w!r}"


def _may_pass(name: str, value: Any, keywords: dict) -> bool:
    if name not in keywords:
        return False
    entry = keywords[name]
    if type(entry) is tuple:
        return _is_default(value, entry[0]) or _translated(entry, value) is not None
    return entry is Ellipsis or _is_default(value, entry)


def _marked_functions() -> list[tuple[str, str]]:
    """(backend, qualname) of every marked shim, on the selected backends whose framework is installed."""
    found = importlib.util.find_spec
    return [(b, q) for b in selected_backends() if found(_FRAMEWORK[b]) is not None for q in _marked(b)]


@pytest.mark.parametrize(("backend", "qualname"), _marked_functions())
def test_shim_answers_as_its_native_does(backend, qualname):
    require_backend(backend)
    shim = lookup(hd.namespace(backend), qualname)
    spec = shim.__hedera_native__
    keywords = spec[4]
    taken = []

    # drop: the case without the keywords that keep the C front off the native (still a valid call: they
    # are optional keyword-only parameters), so that most draws exercise the native common case
    # spelling: dtypes as hedera's or as the framework's own (a translated keyword takes both)
    @given(case=_ROWS[qualname].cases, drop=st.booleans(), variant=st.booleans(),
           spelling=st.sampled_from(("hedera", "native")))  # fmt: skip
    def check(case, drop, variant, spelling):
        kwargs = {k: v for k, v in case.kwargs.items() if not drop or _may_pass(k, v, keywords)}
        args = case.args
        if variant and type(args[0]) is tuple and len(args[0]) == 1:  # zeros((3,)) as zeros(3), too
            args = (args[0][0], *args[1:])
        if variant and len(spec) > 5 and spec[5]:  # (a shape condition: the operands broadcast, too)
            n = _arity(qualname)
            try:
                args = (*(np.array(a) for a in np.broadcast_arrays(*args[:n])), *args[n:])
            except ValueError:
                pass
        with hd.use_backend(backend):
            args = for_backend(args, backend, spelling)
            kwargs = {k: for_backend(v, backend, spelling) for k, v in kwargs.items()}
            native_kwargs = _native_call(spec, qualname, args, kwargs)
            if native_kwargs is None:
                return
            got = _outcome(spec[0], args, native_kwargs)
            if isinstance(got, Exception):
                return  # the C front calls the shim then
            taken.append(case)
            want = _outcome(shim, args, kwargs)
        _assert_same(got, want, f"{backend} {qualname}{case!r}", qualname not in _UNINITIALIZED)

    check()
    assert taken, f"no drawn case of {qualname} took the native common case: the check is empty"


class _Counting:
    """A native stand-in that counts its calls and forwards them."""

    def __init__(self, native):
        self.native, self.calls = native, []

    def __call__(self, *args, **kwargs):
        self.calls.append(sorted(kwargs))
        return self.native(*args, **kwargs)


#: (backend, qualname, the calls that go to the native, those that go to the shim); x: float32,
#: i: int64, c: complex64, all with 3 elements
_ROUTES = [
    ("torch", "add", ["add(x, x)", "add(i, i)"], ["add(x, i)", "add(c, c)", "add(x, 1.0)"]),
    ("torch", "sum", ["sum(x)", "sum(x, axis=None, keepdims=False)", "sum(x, dtype=hd.float64)",
                      "sum(i, dtype=torch.float32)"],
     ["sum(x, axis=0)", "sum(x, dtype='float64')", "sum(x, dtype=np.float64)"]),
    ("torch", "prod", ["prod(x, dtype=hd.float32)", "prod(i, dtype=hd.int32)"], ["prod(x, dtype='float32')"]),
    ("torch", "full", ["full((3,), 1.5)", "full([2], 1)", "full((3,), True, dtype=hd.float64)",
                       "full((2,), 1j, device=torch.device('cpu'))"],
     ["full(3, 1.5)", "full((3,), np.float32(1.5))", "full((3,), torch.tensor(1))",
      "full((3,), 1, dtype=hd.int32)", "full((3,), 1.5, device='cpu')"]),
    ("torch", "full_like", ["full_like(x, 2.0)",
                            "full_like(x, 2, dtype=hd.float64, device=torch.device('cpu'))"],
     ["full_like(i, 2)", "full_like(x, 2, dtype=hd.int8)", "full_like(x, 2, dtype=torch.float64)"]),
    ("torch", "tanh", ["tanh(x)"], ["tanh(c)"]),
    ("tensorflow", "equal", ["equal(x, x)", "equal(x, i)"], ["equal(x, 1.0)", "equal(i, 2)", "equal(2, i)"]),
    ("torch", "where", ["where(x > 0, x, x)", "where(i > 0, c, c)"],
     ["where(x, x, x)", "where(x > 0, x, i)", "where(x > 0, x, 1.0)"]),
    ("torch", "matmul", ["matmul(x, x)", "matmul(i, i)", "matmul(c, c)"], ["matmul(x, i)", "matmul(i, x)"]),
    ("numpy", "sum", ["sum(x)", "sum(x, axis=0, keepdims=True)", "sum(x, dtype=None)"],
     ["sum(x, dtype=hd.float64)"]),
    ("numpy", "sign", ["sign(x)", "sign(i)"], ["sign(c)"]),
    ("numpy", "zeros", ["zeros(3)", "zeros((3,), dtype=None, device=None)"], ["zeros(3, dtype=hd.float32)"]),
    ("torch", "linalg.vecdot", ["linalg.vecdot(x, x)"], ["linalg.vecdot(x, x[None])", "linalg.vecdot(i, i)"]),
    ("torch", "zeros", ["zeros(3)"], ["zeros((3,))", "zeros(3, dtype=hd.float64)"]),
    ("torch", "var", ["var(x)", "var(x, correction=1)"], ["var(x, axis=0)", "var(i)"]),
    ("torch", "linalg.vector_norm", ["linalg.vector_norm(x)", "linalg.vector_norm(x, ord=2)"],
     ["linalg.vector_norm(x, axis=0)", "linalg.vector_norm(x, ord=1)"]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("backend", "qualname", "native_calls", "shim_calls"), _ROUTES, ids=lambda v: str(v)[:24]
)
def test_front_calls_the_native_exactly_where_promised(
    backend, qualname, native_calls, shim_calls, monkeypatch
):
    require_backend(backend)
    if not _fastpath.enabled():
        pytest.skip("pure-Python fronts (HEDERA_PURE_PYTHON=1 or no C extension): there is no C front")
    shim = lookup(hd.namespace(backend), qualname)
    counting = _Counting(shim.__hedera_native__[0])
    monkeypatch.setattr(shim, "__hedera_native__", (counting, *shim.__hedera_native__[1:]))
    other = "torch" if backend == "numpy" else "numpy"
    require_backend(other)
    data = np.array([1.5, -0.0, 2.0])
    arrays = {
        name: hd.asarray(data.astype(dtype), backend=backend)
        for name, dtype in (("x", np.float32), ("i", np.int64), ("c", np.complex64))
    }
    env = {"hd": hd, "np": np, **arrays, qualname.partition(".")[0]: lookup(hd, qualname.partition(".")[0])}
    if backend == "torch":
        import torch

        env["torch"] = torch
    switch = [hd.asarray(data, backend=other)] * _arity(qualname) or [3]
    switch += [1.0] * (_required(qualname) - len(switch))  # (full's fill_value, say)
    for call, to_native in [(c, True) for c in native_calls] + [(c, False) for c in shim_calls]:
        # calls on another backend first (twice: the first may be a cache miss, which the Python front
        # decides): the front's last hit changes, so that it reads the patched spec at the next hit
        with hd.use_backend(other):
            lookup(hd, qualname)(*switch)
            lookup(hd, qualname)(*switch)
        before = len(counting.calls)
        with hd.use_backend(backend):
            eval(call, env)  # twice: the first call after the switch may be a cache miss (the Python front)
            eval(call, env)
        assert (len(counting.calls) > before) is to_native, (
            f"{backend} {call}: native called {counting.calls}"
        )


def test_front_falls_back_to_the_shim_where_the_native_raises():
    """torch.linalg.cross (the native of torch's cross shim) raises for operands of different ranks,
    which the standard broadcasts: the C front then gives the shim's answer, not torch's error."""
    require_backend("torch")
    import torch

    shim = hd.namespace("torch").linalg.cross
    assert shim.__hedera_native__[0] is torch.linalg.cross
    a, b = np.array([1.0, 2.0, 3.0], np.float32), np.array([[0.0, 1.0, 0.5], [2.0, -1.0, 4.0]], np.float32)
    with pytest.raises(RuntimeError):
        torch.linalg.cross(torch.asarray(a), torch.asarray(b))
    for _ in range(2):  # (the first call may be a cache miss, which the Python front decides)
        got = hd.linalg.cross(torch.asarray(a), torch.asarray(b))
    np.testing.assert_array_equal(got.numpy(), np.cross(a, b))


def test_the_forwarded_bound_is_the_c_fronts():
    """native_common_case refuses a spec the C front would ignore (more arguments than it forwards)."""
    import re

    from hedera.backends._common import MAX_FORWARDED, native_common_case

    source = (Path(hd.__file__).parent / "_fastfront.c").read_text()
    assert re.search(r"#define MAX_FORWARDED (\d+)", source).group(1) == str(MAX_FORWARDED)
    with pytest.raises(AssertionError, match="forwards"):
        native_common_case(print, (1, MAX_FORWARDED + 1))
