"""The C hot path of the fronts (hedera/_fastfront.c, hedera/_fastpath.py).

Each accelerated front must behave exactly as the Python front it wraps: same results, same
errors, same caching; the Python front stays reachable as ``_fastpath.python_front(front)``.
CI builds the extension and sets ``HEDERA_REQUIRE_FAST_PATH=1`` (checked in
test_front_generated.py); scripts/test.sh also runs the dispatch tests once more with
``HEDERA_PURE_PYTHON=1``, the fallback, where this file is skipped.
"""

from __future__ import annotations

import inspect
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import hedera as hd
from conftest import require_backend
from hedera import _fastpath, _front
from hedera.errors import BackendMismatchError, BroadcastError, InvalidAxisError, NotAnArrayError, ShapeError

pytestmark = pytest.mark.skipif(not _fastpath.enabled(), reason="hedera._fastfront is not in use")


def array(backend: str, values, dtype=np.float32):
    return hd.asarray(np.asarray(values, dtype=dtype), backend=backend)


def both(front):
    """The accelerated front and the Python front behind it."""
    python = _fastpath.python_front(front)
    assert python is not front
    return front, python


def outcome(f, *args, **kwargs):
    """What a call does: its result as NumPy, or its exception's class and message."""
    try:
        result = f(*args, **kwargs)
    except Exception as error:
        return type(error), str(error)
    if isinstance(result, (list, tuple)):
        return [hd.to_numpy(r) for r in result]
    return hd.to_numpy(result)


def assert_same_outcome(front, *args, **kwargs):
    fast, python = both(front)
    expected, got = outcome(python, *args, **kwargs), outcome(fast, *args, **kwargs)
    if isinstance(expected, tuple):
        assert got == expected
    else:
        np.testing.assert_equal(got, expected)
    return got


# ---- same behaviour as the Python fronts -------------------------------------------------------


def test_cache_hits_and_misses_match_the_python_front(backend):
    x = array(backend, [0.5, -1.0, 2.0])
    for _ in range(2):  # the first call may miss and fill the cache, the second hits it
        assert_same_outcome(hd.sin, x)
        assert_same_outcome(hd.add, x, x)
        assert_same_outcome(hd.where, x > 0, x, x)
    assert type(x) in _front._sin_by_type


@pytest.mark.parametrize("scalar", [2, 2.5, True])
def test_mixed_types_use_the_tuple_key(backend, scalar):
    x = array(backend, [1.0, 2.0])
    for _ in range(2):
        assert_same_outcome(hd.add, x, scalar)
        assert_same_outcome(hd.maximum, scalar, x)
        assert_same_outcome(hd.clip, x, 0.0, 1.5)
    assert (type(x), type(scalar)) in _front._add_by_type


def test_keywords_and_arrays_passed_by_keyword(backend):
    x = array(backend, [[1.0, 2.0], [3.0, 4.0]])
    assert_same_outcome(hd.sum, x, axis=0)
    assert_same_outcome(hd.clip, x, min=1.5, max=3.5)  # optional arrays by keyword: completed by C
    assert_same_outcome(hd.where, x > 0, x, x2=x)  # required arrays by keyword: the Python front decides
    assert_same_outcome(hd.concat, [x, x], axis=1)
    assert_same_outcome(hd.meshgrid, x[0], x[1], indexing="ij")
    assert_same_outcome(hd.einsum, "ij->j", x)
    assert_same_outcome(hd.einsum, subscripts="ij->j")  # by keyword: the Python front's TypeError


def entered_python_front(front, *args, **kwargs) -> bool:
    """Whether a call of the builtin ``front`` runs the Python front behind it (its frame)."""
    code = _fastpath.python_front(front).__code__
    seen = []

    def profile(frame, event, arg):
        if event == "call":
            seen.append(frame.f_code)

    sys.setprofile(profile)
    try:
        front(*args, **kwargs)
    finally:
        sys.setprofile(None)
    return code in seen


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [((), {}), ((0.0,), {}), ((), {"max": 1.0}), ((), {"min": 0.0}), ((), {"min": 0.0, "max": 1.0}),
     ((0.0,), {"max": 1.0}), ((None, None), {})],
)  # fmt: skip
def test_omitted_or_keyword_optional_arrays_are_served_by_the_c_front(backend, args, kwargs):
    """clip's min and max default to None: hd.clip(x) and hd.clip(x, max=1.0) are completed by C to
    the positional call the Python front makes (clip(x, None, 1.0)), looked up and run without the
    Python front's frame, with its answer; array bounds by keyword too."""
    x = array(backend, [-2.0, 0.5, 3.0])
    for _ in range(2):  # a miss that fills the cache, then the last hit
        assert_same_outcome(hd.clip, x, *args, **kwargs)
    assert not entered_python_front(hd.clip, x, *args, **kwargs)
    bounds = {k: array(backend, [v]) for k, v in kwargs.items()}
    for _ in range(2):
        assert_same_outcome(hd.clip, x, *args, **bounds)
    assert not entered_python_front(hd.clip, x, *args, **bounds)


def test_odd_calls_of_optional_arrays_end_as_in_the_python_front(backend):
    """The calls C does not complete (an unknown keyword, a bound given twice, no x, x by keyword)
    and bad bounds or mixed backends end as in the Python front: the same error."""
    x = array(backend, [-2.0, 0.5, 3.0])
    other = "numpy" if backend != "numpy" else "torch"
    require_backend(other)
    odd_calls = [
        ((x,), {"mn": 0.0}),
        ((x, 0.0), {"min": 1.0}),
        ((), {"min": 0.0}),
        ((), {"x": x}),
        ((x,), {"max": "one"}),
        ((x,), {"min": [0.0]}),
    ]
    for args, kwargs in odd_calls:
        expected = assert_same_outcome(hd.clip, *args, **kwargs)
        assert isinstance(expected, tuple) and issubclass(expected[0], TypeError)
    assert issubclass(outcome(hd.clip, x, max="one")[0], NotAnArrayError)
    y = array(other, [1.0])
    for kwargs in ({"max": y}, {"min": y, "max": 1.0}):
        assert_same_outcome(hd.clip, x, **kwargs)
        assert issubclass(outcome(hd.clip, x, **kwargs)[0], BackendMismatchError)


def test_keyword_only_arrays_are_left_to_the_python_front(backend):
    """searchsorted's sorter and diff's prepend/append are arrays the C front does not look at: a
    call without them runs from C (the arrays before them keyed as usual), one that passes them
    runs the Python front, with its answer and its errors (mixed backends among them)."""
    x, v = array(backend, [1.0, 2.0, 3.0]), array(backend, [2.5])
    order = array(backend, [0, 1, 2], dtype=np.int64)
    for _ in range(2):
        assert_same_outcome(hd.searchsorted, x, v)
        assert_same_outcome(hd.searchsorted, x, v, side="right")
        assert_same_outcome(hd.diff, x)
        assert_same_outcome(hd.diff, x, n=2)
    assert not entered_python_front(hd.searchsorted, x, v, side="right")
    assert not entered_python_front(hd.diff, x, axis=0)
    assert entered_python_front(hd.searchsorted, x, v, sorter=order)
    assert entered_python_front(hd.diff, x, prepend=x[:1])
    assert_same_outcome(hd.searchsorted, x, v, sorter=order)
    assert_same_outcome(hd.diff, x, prepend=x[:1], append=x[:1])
    other = "numpy" if backend != "numpy" else "torch"
    require_backend(other)
    y = array(other, [0.0])
    for front, kwargs in ((hd.searchsorted, {"sorter": array(other, [0, 1, 2], dtype=np.int64)}),
                          (hd.diff, {"append": y})):  # fmt: skip
        args = (x, v) if front is hd.searchsorted else (x,)
        assert_same_outcome(front, *args, **kwargs)
        assert issubclass(outcome(front, *args, **kwargs)[0], BackendMismatchError)


def test_asarray_runs_on_the_arrays_backend_else_the_current_one(backend):
    """asarray's C front: an array's type goes to its own backend's asarray, a list or Python
    scalar to the current backend's (a C front keyed on it, which follows use_backend at each
    call, hit or miss); backend= goes to the Python front, which converts."""
    other = "numpy" if backend != "numpy" else "torch"
    require_backend(other)
    x = array(backend, [1.0, 2.0])
    for _ in range(2):
        for current in (backend, other, backend):
            with hd.use_backend(current):
                assert hd.backend_of(hd.asarray([1.0, 2.0])) == current
                assert hd.backend_of(hd.asarray(2.5, dtype=hd.float64)) == current
                assert hd.backend_of(hd.asarray(x)) == backend
                assert hd.backend_of(hd.asarray(x, backend=other)) == other
                assert_same_outcome(hd.asarray, (1, 2), dtype=hd.int16)
                assert_same_outcome(hd.asarray, [1, 2], dtype="no such dtype")
                assert_same_outcome(hd.asarray, [1, 2], bogus=1)
    with hd.use_backend(other):
        assert not entered_python_front(hd.asarray, [1.0, 2.0])
        assert not entered_python_front(hd.asarray, x, dtype=hd.float32)
        assert entered_python_front(hd.asarray, x, backend=other)


def test_sequences(backend):
    x = array(backend, [1.0, 2.0])
    assert_same_outcome(hd.concat, [x, x])
    assert_same_outcome(hd.concat, (x, x, x))
    assert_same_outcome(hd.stack, [x])
    assert_same_outcome(hd.concat, iter([x, x]))  # not a list or tuple: the Python front decides
    assert_same_outcome(hd.broadcast_arrays, x, x[:1])
    for odd in ([], [x, 1.0], [1.0, x], x):
        assert_same_outcome(hd.concat, odd)


def test_einsum_finds_its_operands_after_the_subscripts(backend):
    """einsum's arrays follow its subscripts (VARIADIC_AFTER_FIRST): the C front keys them on
    their common type, and every other call (no operands, a Python scalar or a list among them,
    bad subscripts, mismatched shapes) ends as in the Python front: hedera's error or the same
    answer."""
    x = array(backend, [[1.0, 2.0], [3.0, 4.0]])
    v = array(backend, [1.0, -1.0])
    for _ in range(2):  # a miss that fills the cache, then the last hit
        np.testing.assert_allclose(assert_same_outcome(hd.einsum, "ij,j->i", x, v), [-1.0, -1.0])
        assert_same_outcome(hd.einsum, "ii", x)
        assert_same_outcome(hd.einsum, "i,i->", v, v)
    assert type(x) in _front._einsum_by_type
    odd_calls = [
        ("ij",),  # no operands
        (),  # no subscripts either
        ("ij,j->i", x, [1.0, -1.0]),
        ("ij,j->i", [[1.0]], v),
        ("ij,jk->ik", x, array(backend, [[1.0, 2.0, 3.0]] * 3)),  # 'j': 2 against 3
        ("ijk->i", x),  # too many subscripts for operand 0
        ("ij->k", x),  # an output label of no input
    ]
    for args in odd_calls:
        assert_same_outcome(hd.einsum, *args)
    assert issubclass(outcome(hd.einsum, "ij")[0], NotAnArrayError)
    assert issubclass(outcome(hd.einsum, "ij,j->i", x, [1.0, -1.0])[0], NotAnArrayError)
    assert issubclass(outcome(hd.einsum, "ij,jk->ik", x, array(backend, [[1.0]] * 3))[0], ShapeError)


def test_errors_are_diagnosed_as_in_the_python_front(backend):
    x = array(backend, [[1.0, 2.0, 3.0]])
    _, message = assert_same_outcome(hd.sum, x, axis=5)
    assert "axis" in message
    assert issubclass(outcome(hd.sum, x, axis=5)[0], InvalidAxisError)
    assert issubclass(outcome(hd.add, x, array(backend, [1.0, 2.0]))[0], BroadcastError)
    assert issubclass(outcome(hd.sin, [1.0, 2.0])[0], NotAnArrayError)
    assert issubclass(outcome(hd.sin, "x")[0], NotAnArrayError)


def call(*args, **kwargs):
    return args, kwargs


@pytest.mark.parametrize(
    "front, good, bad",
    [
        (hd.clip, call(0.0, 1.0), [call(0, 1, 2), call(0.0, 1.0, 2), call(min=0, out=1), call(0, 1, min=0)]),
        (hd.sum, call(), [call(0, None, False), call(axis=0, bogus=1), call(0, axis=0)]),
        (hd.reshape, call((4,)), [call((4,), 1, 2), call((4,), shape=(4,))]),
        (hd.linalg.inv, call(), [call(1), call(bogus=1)]),
    ],
)
def test_calls_that_do_not_fit_the_signature_raise_pythons_type_error(backend, front, good, bad):
    """A call the Python front's signature rejects (too many positional arguments, an unknown
    keyword, an argument given twice) raises the TypeError CPython raises for the Python front,
    with its message, also once the C front has a last hit and passes the call to the backend
    function, whose failure it explains."""
    x = array(backend, [[1.0, 2.0], [3.0, 4.0]])
    args, kwargs = good
    for _ in range(2):
        front(x, *args, **kwargs)
    for args, kwargs in bad:
        for _ in range(2):
            expected = assert_same_outcome(front, x, *args, **kwargs)
            assert isinstance(expected, tuple) and expected[0] is TypeError


#: calls the Python front's signature rejects but a backend function may take (NumPy's ufuncs
#: take out= and a second positional as the output; jax's reshape takes order=): each after a good
#: call (the same front, no extra argument), which gives the C front its last hit
CALLS_BACKENDS_MAY_TAKE = [
    (hd.sin, call(), call("x")),
    (hd.sin, call(), call(out="x")),
    (hd.sin, call(), call(where=True)),
    (hd.sin, call(), call(x="x")),
    (hd.add, call("x"), call("x", "x")),
    (hd.add, call("x"), call("x", out="x")),
    (hd.matmul, call("x"), call("x", "x")),
    (hd.matmul, call("x"), call("x", out="x")),
    (hd.reshape, call((4,)), call((4,), order="C")),
]


def with_arrays(values, x):
    """``values`` with each "x" (also inside a tuple) replaced by the array ``x``."""
    if values == "x":
        return x
    return tuple(with_arrays(v, x) for v in values) if isinstance(values, tuple) else values


@pytest.mark.parametrize("front, good, bad", CALLS_BACKENDS_MAY_TAKE)
def test_calls_a_backend_would_take_raise_pythons_type_error_after_a_hit(backend, front, good, bad):
    """Such a call raises the TypeError (class and message) of the pure-Python front and leaves its
    arrays as they were, also after a good call has set the C front's last hit, whose hot path
    would otherwise hand the arguments to the backend function as they are."""
    x = array(backend, [[1.0, 2.0], [3.0, 4.0]])
    before = hd.to_numpy(x).copy()
    args, kwargs = good
    front(x, *with_arrays(args, x), **{k: with_arrays(v, x) for k, v in kwargs.items()})
    args, kwargs = bad
    args = with_arrays(args, x)
    kwargs = {k: with_arrays(v, x) for k, v in kwargs.items()}
    for _ in range(2):
        expected = assert_same_outcome(front, x, *args, **kwargs)
        assert isinstance(expected, tuple) and expected[0] is TypeError
    np.testing.assert_equal(hd.to_numpy(x), before)


def test_einsum_with_an_extra_keyword_raises_pythons_type_error_after_a_hit(backend):
    x = array(backend, [[1.0, 2.0], [3.0, 4.0]])
    before = hd.to_numpy(x).copy()
    hd.einsum("ij->ij", x)
    for _ in range(2):
        expected = assert_same_outcome(hd.einsum, "ij->ij", x, out=x)
        assert isinstance(expected, tuple) and expected[0] is TypeError
    np.testing.assert_equal(hd.to_numpy(x), before)


@pytest.mark.parametrize(
    ("args", "kwargs", "binds"),
    [
        ((1, 2), {}, True),
        ((1, 2, 3), {}, True),
        ((1, 2, 3, 4), {}, False),  # too many positional arguments
        ((1,), {"b": 2, "c": 3}, True),
        ((1,), {"d": 4}, True),
        ((1, 2), {"b": 2}, False),  # b given twice
        ((1,), {"a": 1}, False),  # a is positional-only
        ((1,), {"bogus": 1}, False),
    ],
)
def test_the_polyfill_sends_calls_that_do_not_bind_to_the_python_front(args, kwargs, binds):
    def front(a, /, b=None, c=None, *, d=None):
        pass

    bounds = _fastpath._signature_bounds(front)
    assert _fastpath._binds(bounds, args, kwargs) is binds
    assert _fastpath._fits(inspect.signature(front), args, kwargs) is binds


def test_creation_calls_that_do_not_fit_the_signature_raise_pythons_type_error(backend):
    """The same for the fronts without arrays, on the current backend's last hit."""
    bad_calls = [
        (hd.ones, call((3,), None, None, None, None)),
        (hd.ones, call()),
        (hd.ones, call((3,), bogus=1)),
        (hd.arange, call(1, 2, 3, None, None, None)),
        (hd.eye, call(2, bogus=1)),
    ]
    with hd.use_backend(backend):
        hd.ones((3,)), hd.arange(3), hd.eye(2)
        for front, (args, kwargs) in bad_calls:
            for _ in range(2):
                expected = assert_same_outcome(front, *args, **kwargs)
                assert isinstance(expected, tuple) and expected[0] is TypeError


def test_creation_fronts_follow_the_current_backend(backend):
    """Fronts without arrays are keyed on the current backend's name: each of use_backend,
    set_backend and the default must reach that backend's function, hit or miss."""
    assert _fastpath.python_front(hd.zeros) is not hd.zeros
    other = "numpy" if backend != "numpy" else "torch"
    require_backend(other)
    for _ in range(2):
        with hd.use_backend(backend):
            assert hd.backend_of(hd.zeros(3)) == backend
            assert_same_outcome(hd.arange, 1, 7, 2)
            assert_same_outcome(hd.fft.fftfreq, 4)
            with hd.use_backend(other):
                assert hd.backend_of(hd.ones((2, 2))) == other
            assert hd.backend_of(hd.ones((2, 2))) == backend
            assert issubclass(outcome(hd.zeros, "three")[0], TypeError)
            assert_same_outcome(hd.zeros, "three")
        hd.set_backend(backend)
        try:
            assert hd.backend_of(hd.linspace(0.0, 1.0, 3)) == backend
            with hd.use_backend(other):
                assert hd.backend_of(hd.linspace(0.0, 1.0, 3)) == other
        finally:
            hd.set_backend(None)
        assert hd.backend_of(hd.eye(2)) == hd.current_backend()


def test_mixed_backends_raise(backend):
    other = "numpy" if backend != "numpy" else "torch"
    require_backend(other)
    x, y = array(backend, [1.0]), array(other, [1.0])
    for args in ((x, y), (y, x)):
        assert issubclass(outcome(hd.add, *args)[0], BackendMismatchError)
    assert issubclass(outcome(hd.concat, [x, y])[0], BackendMismatchError)
    assert issubclass(outcome(hd.where, x > 0, x, y)[0], BackendMismatchError)
    for operands in ((x, y), (y, x)):
        assert_same_outcome(hd.einsum, "i,i->", *operands)
        assert issubclass(outcome(hd.einsum, "i,i->", *operands)[0], BackendMismatchError)


# ---- the mechanism itself, on functions of the test's own --------------------------------------


def explain_nothing(exception, args, kwargs):
    """An error path that finds nothing to say (the backend's exception propagates)."""


@pytest.mark.parametrize(
    ("arity", "args", "expected"),
    [
        (1, (1.0,), ("fast", 1.0)),
        (1, ("s",), ("slow", "s")),  # str: not in the cache
        (2, (1.0, 2.0), ("fast", 1.0)),
        (2, (1.0, 2), ("tuple", 1.0)),  # (float, int): the tuple key
        (2, (1.0,), ("slow", 1.0)),  # fewer positional arguments than arrays
        (_fastpath.SEQUENCE, ([1.0, 2.0],), ("fast", [1.0, 2.0])),
        (_fastpath.SEQUENCE, ([1.0, 2],), ("slow", [1.0, 2])),
        (_fastpath.SEQUENCE, ([],), ("slow", [])),
        (_fastpath.VARIADIC, (1.0, 2.0), ("fast", 1.0)),
        (_fastpath.VARIADIC, (), None),
        (_fastpath.VARIADIC_AFTER_FIRST, ("s", 1.0, 2.0), ("fast", "s")),  # the first is not keyed
        (_fastpath.VARIADIC_AFTER_FIRST, (1.0, "s"), ("slow", 1.0)),
        (_fastpath.VARIADIC_AFTER_FIRST, ("s", 1.0, 2), ("slow", "s")),  # mixed types
        (_fastpath.VARIADIC_AFTER_FIRST, ("s",), ("slow", "s")),  # no arrays
        (_fastpath.VARIADIC_AFTER_FIRST, (), None),
    ],
)
def test_lookup_rules(arity, args, expected):
    def fast(*a):
        return ("fast", a[0])

    def via_tuple(*a):
        return ("tuple", a[0])

    def python(*a):
        return ("slow", a[0]) if a else None

    front = _fastpath._extension.make_front(
        python,
        explain_nothing,
        {float: fast, (float, int): via_tuple},
        arity,
        b"f",
        b"f(*a)\n--\n\n",
        __name__,
    )
    assert front(*args) == expected


@pytest.mark.parametrize(
    ("args", "kwargs", "expected"),
    [
        ((1.0,), {}, ("fast", (1.0, None, None), {})),
        ((1.0, 2.0), {}, ("fast", (1.0, 2.0, None), {})),
        ((1.0,), {"hi": 2.0}, ("fast", (1.0, None, 2.0), {})),
        ((1.0,), {"hi": 2.0, "lo": 0.5}, ("fast", (1.0, 0.5, 2.0), {})),
        ((1.0, 0.5, 2.0), {}, ("fast", (1.0, 0.5, 2.0), {})),
        ((1.0,), {"other": 2.0}, ("slow", (1.0,), {"other": 2.0})),  # not an optional array
        ((1.0, 0.5), {"lo": 2.0}, ("slow", (1.0, 0.5), {"lo": 2.0})),  # given twice
        ((), {"lo": 2.0}, ("slow", (), {"lo": 2.0})),  # the first array is not optional
        (("s",), {}, ("slow", ("s", None, None), {})),  # completed, then a miss
    ],
)
def test_optional_arrays_are_completed_as_the_python_front_passes_them(args, kwargs, expected):
    """A call that omits the optional arrays (the last of the arity, default None) or passes them
    by keyword reaches its target with all of them positionally, the omitted ones None; every other
    call goes to the Python front as it was made."""
    none = type(None)
    cache = {(float, none, none): (target := lambda *a, **k: ("fast", a, k)), (float, float, none): target,
             (float, none, float): target, float: target}  # fmt: skip
    front = _fastpath._extension.make_front(
        lambda *a, **k: ("slow", a, k), explain_nothing, cache, 3, b"f", b"", __name__, (), None, ("lo", "hi")
    )
    for _ in range(2):
        assert front(*args, **kwargs) == expected


def test_the_last_hit_follows_the_argument_types():
    """Each front remembers its last cache hit; calls alternating between keys must still each
    reach their own function, whichever key was remembered."""

    def tagged(tag):
        return lambda *a: (tag, a[0])

    cache = {float: tagged("float"), int: tagged("int"), (float, int): tagged("float,int"),
             (int, float): tagged("int,float")}  # fmt: skip
    front = _fastpath._extension.make_front(
        lambda *a: ("slow", a[0]), explain_nothing, cache, 2, b"f", b"f(*a)\n--\n\n", __name__
    )
    calls = [((1.0, 2.0), "float"), ((1, 2), "int"), ((1.0, 2), "float,int"), ((1, 2.0), "int,float"),
             (("a", "b"), "slow"), ((1, 2), "int"), ((1, 2), "int"), ((2.0, 1), "float,int")]  # fmt: skip
    for _ in range(2):
        for args, tag in calls:
            assert front(*args) == (tag, args[0])


def test_the_last_hit_holds_its_references_and_releases_them():
    """The remembered type and function stay alive while remembered (a freed type's address could
    be reused by another type) and are released when the front is, cycles included."""
    import gc
    import weakref

    class Tracked:
        pass

    def target(x):
        return "hit"

    cache = {Tracked: target}
    front = _fastpath._extension.make_front(lambda x: "slow", explain_nothing, cache, 1, b"f", b"", __name__)
    assert front(Tracked()) == "hit"
    type_ref, target_ref = weakref.ref(Tracked), weakref.ref(target)
    cache.clear()
    del Tracked, target
    gc.collect()
    assert type_ref() is not None and target_ref() is not None  # the front's last hit keeps them
    assert front(type_ref()()) == "hit"  # cleared cache, same type: the function the key maps to
    del front
    gc.collect()
    assert type_ref() is None and target_ref() is None


def test_an_exception_goes_to_explain_once_and_base_exceptions_pass_through():
    """The backend's exception and the call's arguments go to explain, which raises hedera's error
    or returns (the backend's exception then propagates); the call is not run again."""
    calls = []

    def failing(x, **kwargs):
        calls.append("backend")
        raise ValueError("backend failed")

    def interrupted(x):
        raise KeyboardInterrupt

    def python(x):
        calls.append("python")

    def explain(exception, args, kwargs):
        calls.append(("explain", type(exception).__name__, args, kwargs))
        if kwargs.get("diagnose"):
            raise TypeError("diagnosed") from exception

    front = _fastpath._extension.make_front(
        python, explain, {float: failing, int: interrupted}, 1, b"f", b"", __name__
    )
    with pytest.raises(TypeError, match="diagnosed") as raised:
        front(1.0, diagnose=True)
    assert isinstance(raised.value.__cause__, ValueError)
    assert calls == ["backend", ("explain", "ValueError", (1.0,), {"diagnose": True})]
    calls.clear()
    with pytest.raises(ValueError, match="backend failed"):
        front(2.0)
    assert calls == ["backend", ("explain", "ValueError", (2.0,), {})]
    with pytest.raises(KeyboardInterrupt):
        front(1)


def test_bad_arguments_to_make_front():
    with pytest.raises(ValueError, match="arity"):
        _fastpath._extension.make_front(len, len, {}, 0, b"f", b"", __name__)
    with pytest.raises(TypeError):
        _fastpath._extension.make_front(len, len, [], 1, b"f", b"", __name__)
    with pytest.raises(TypeError, match="callable"):
        _fastpath._extension.make_front(len, None, {}, 1, b"f", b"", __name__)
    for arity, optional in ((1, ("x",)), (_fastpath.VARIADIC, ("x",)), (2, ("a", "b"))):
        with pytest.raises(ValueError, match="optional"):
            _fastpath._extension.make_front(len, len, {}, arity, b"f", b"", __name__, (), None, optional)
    with pytest.raises(TypeError, match="optional"):
        _fastpath._extension.make_front(len, len, {}, 2, b"f", b"", __name__, (), None, (1,))


# ---- what the builtin looks like from Python ---------------------------------------------------


def test_name_signature_doc_and_pickling():
    for front in (hd.sin, hd.add, hd.concat, hd.meshgrid, hd.einsum, hd.linalg.matrix_norm, hd.fft.fft):
        python = _fastpath.python_front(front)
        assert front.__name__ == python.__name__
        assert front.__module__ == python.__module__
        expected = inspect.signature(python)
        plain = [p.replace(annotation=inspect.Parameter.empty) for p in expected.parameters.values()]
        assert inspect.signature(front) == expected.replace(
            parameters=plain, return_annotation=inspect.Signature.empty
        )
        assert inspect.getdoc(front) == inspect.getdoc(python)
        assert pickle.loads(pickle.dumps(front)) is front


# ---- torch.compile ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arity", "args", "expected"),
    [
        (1, (1.0, "s"), (float,)),
        (2, (1.0,), None),
        (_fastpath.SEQUENCE, ([1.0, 2],), (float, int)),
        (_fastpath.VARIADIC, (1.0, 2), (float, int)),
        (_fastpath.VARIADIC_AFTER_FIRST, ("s", 1.0, 2), (float, int)),
        (_fastpath.VARIADIC_AFTER_FIRST, ("s",), None),
    ],
)
def test_the_polyfill_finds_the_arrays_where_c_does(arity, args, expected):
    """What torch.compile traces for a builtin front (_trace_polyfill) names the backend from the
    types of the same arguments as the C front keys on."""
    assert _fastpath._argument_types(args, arity) == expected


@pytest.mark.parametrize(
    ("args", "kwargs", "expected"),
    [
        ((1.0,), {}, (1.0, None, None)),
        ((1.0,), {"hi": 2.0}, (1.0, None, 2.0)),
        ((1.0, 0.5), {"hi": 2.0}, (1.0, 0.5, 2.0)),
        ((1.0, 0.5, 2.0), {}, None),  # complete already
        ((1.0,), {"other": 2.0}, None),
        ((1.0, 0.5), {"lo": 2.0}, None),
        ((), {"lo": 2.0}, None),
    ],
)
def test_the_polyfill_completes_optional_arrays_as_c_does(args, kwargs, expected):
    assert _fastpath._completed_arguments(args, kwargs, 3, ("lo", "hi")) == expected
    assert _fastpath._completed_arguments(args, kwargs, 3, ()) is None


COMPILE_AFTER_HEDERA = """
import sys
import hedera as hd, torch
assert "torch._dynamo" not in sys.modules, "hedera or torch imported dynamo"
x = torch.linspace(-1, 1, 5)
def f(x):
    parts = [hd.sin(x), hd.add(x, 1.0), hd.clip(x, max=0.5), hd.clip(x)]
    return hd.sum(hd.concat(parts), axis=0) + hd.einsum("i,i->", x, x)
compiled = torch.compile(f, fullgraph=True)
assert torch.allclose(compiled(x), f(x))
"""

COMPILE_BEFORE_HEDERA = """
import torch, torch._dynamo
import hedera as hd
x = torch.linspace(-1, 1, 5)
compiled = torch.compile(lambda x: hd.where(x > 0, hd.exp(x), x), fullgraph=True)
assert torch.allclose(compiled(x), torch.where(x > 0, torch.exp(x), x))
"""


@pytest.mark.parametrize("script", [COMPILE_AFTER_HEDERA, COMPILE_BEFORE_HEDERA], ids=["after", "before"])
def test_torch_compile_traces_the_python_fronts_without_graph_breaks(script):
    """Dynamo cannot trace C; the fronts are registered as polyfilled builtins whenever dynamo
    is imported, before or after hedera, and fullgraph compilation succeeds."""
    require_backend("torch")
    run = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-3000:]
