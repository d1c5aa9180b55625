"""The fronts' up-front argument checks (hedera/_argkinds.py): the C front's fast tests and the
generated Python front's, with check_argument deciding where they fail.

Each case is run through the public front (the C builtin where the extension is built) and the
Python front behind it (``_fastpath.python_front``; the same function without the extension), on
every backend: both must accept the legitimate values (ints, NumPy integer scalars, tuples and
lists of them, -1 in reshape, bools and NumPy scalars as fill values) with the native result, and
refuse the wrong kinds with the same hedera error and message. The bad-input sweep
(tests/project/test_bad_input_sweep.py) covers every parameter; this file covers the mechanism:
positional and keyword arguments, keyword names built at run time, ``backend=``, and the table.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import hedera as hd
from hedera import _argkinds, _fastpath
from hedera._api import ARGUMENT_KINDS, FUNCTIONS
from hedera._front_rows import front_name


def _fronts(qualname: str):
    fn = hd
    for part in qualname.split("."):
        fn = getattr(fn, part)
    python = _fastpath.python_front(fn)
    return (fn, python) if python is not fn else (fn,)


def _x(backend: str, shape=(2, 3)):
    return hd.asarray(np.arange(np.prod(shape), dtype=np.float32).reshape(shape), backend=backend)


#: (function, positional arguments after x, keywords, expected error class, words of its message)
BAD = [
    ("sum", (), {"axis": True}, hd.ArgumentTypeError, "sum: axis must be an int or a tuple of ints or None"),
    ("sum", (), {"axis": (0, 1.0)}, hd.ArgumentTypeError, "sum: axis must be"),
    ("sum", (), {"axis": "0"}, hd.ArgumentTypeError, "got str '0'"),
    ("sum", (), {"axis": [0, 1]}, hd.ArgumentTypeError, "got list [0, 1]"),
    ("argsort", (), {"axis": None}, hd.ArgumentTypeError, "argsort: axis must be an int, got NoneType"),
    ("tril", (), {"k": 0.5}, hd.ArgumentTypeError, "tril: k must be an int, got float 0.5"),
    ("tril", (), {"k": np.bool_(True)}, hd.ArgumentTypeError, "tril: k must be an int"),
    ("reshape", ((-2, 3),), {}, hd.InvalidArgumentError, "reshape: shape must be"),
    ("reshape", (None,), {}, hd.ArgumentTypeError, "reshape: shape must be"),
    ("std", (), {"correction": None}, hd.ArgumentTypeError, "std: correction must be a number, got NoneType"),
    ("top_k", (-1,), {}, hd.InvalidArgumentError, "top_k: k must be an int >= 0, got -1"),
    ("top_k", (2.0,), {}, hd.ArgumentTypeError, "top_k: k must be an int >= 0, got float 2.0"),
    ("split", (True,), {}, hd.ArgumentTypeError, "split: indices_or_sections must be"),
    ("split", ([1, 2.0],), {}, hd.ArgumentTypeError, "got list [1, 2.0]"),
    ("split", ((True,),), {}, hd.ArgumentTypeError, "got tuple (True,)"),
    ("moveaxis", (False, 1), {}, hd.ArgumentTypeError, "moveaxis: source must be"),
    ("repeat", (2.0,), {}, hd.ArgumentTypeError, "repeat: repeats must be an int >= 0 or an integer array"),
    ("linalg.tensordot", (), {"axes": -1}, hd.InvalidArgumentError, "tensordot: axes must be an int >= 0"),
    ("linalg.tensordot", (), {"axes": ([1], [0.0])}, hd.ArgumentTypeError, "got tuple ([1], [0.0])"),
    ("linalg.tensordot", (), {"axes": ([1], [0], [1])}, hd.ArgumentTypeError, "tensordot: axes must be"),
    ("linalg.tensordot", (), {"axes": (1, [True])}, hd.ArgumentTypeError, "got tuple (1, [True])"),
    ("fft.fft", (), {"n": True}, hd.ArgumentTypeError, "fft.fft: n must be an int >= 1 or None"),
    ("fft.fft", (), {"axis": None}, hd.ArgumentTypeError, "fft.fft: axis must be an int"),
    ("diff", (), {"n": None}, hd.ArgumentTypeError, "diff: n must be an int >= 0, got NoneType None"),
    ("isclose", (), {"rtol": "1e-5"}, hd.ArgumentTypeError, "isclose: rtol must be a number, got str"),
    # flags: JAX and TensorFlow took any value by its truthiness ("no" as True), NumPy an int
    ("sum", (), {"keepdims": "no"}, hd.ArgumentTypeError, "sum: keepdims must be a bool, got str 'no'"),
    ("mean", (), {"keepdims": 1}, hd.ArgumentTypeError, "mean: keepdims must be a bool, got int 1"),
    ("sort", (), {"stable": None}, hd.ArgumentTypeError, "sort: stable must be a bool, got NoneType"),
    ("argsort", (), {"descending": 0.0}, hd.ArgumentTypeError, "argsort: descending must be a bool"),
    ("isclose", (), {"equal_nan": "yes"}, hd.ArgumentTypeError, "isclose: equal_nan must be a bool"),
    ("astype", (hd.float64,), {"copy": None}, hd.ArgumentTypeError, "astype: copy must be a bool, got"),
    ("reshape", ((3, 2),), {"copy": "no"}, hd.ArgumentTypeError, "reshape: copy must be a bool or None"),
    ("top_k", (1,), {"largest": 1}, hd.ArgumentTypeError, "top_k: largest must be a bool, got int 1"),
]


@pytest.mark.parametrize("bad", [b"i,i->", 3, None, ["i,i->"]], ids=["bytes", "int", "None", "list"])
def test_einsum_subscripts_must_be_a_str(backend, bad):
    """NumPy and torch took bytes subscripts, JAX and TensorFlow refused them with a TypeError of
    their own (and an int or None with a TypeError or an AttributeError): a str, up front (the
    fast test of the kind ``str``: an exact str)."""
    x = _x(backend, (3,))
    messages = set()
    for front in _fronts("einsum"):
        with pytest.raises(hd.ArgumentTypeError) as raised:
            front(bad, x, x)
        messages.add(str(raised.value))
        assert float(front(type("Subscripts", (str,), {})("i,i->"), x, x)) == 5.0  # a str subclass is a str
    assert messages == {f"einsum: subscripts must be a str, got {type(bad).__name__} {bad!r}"}


@pytest.mark.parametrize(
    ("name", "args", "kwargs", "error", "words"), BAD, ids=[f"{b[0]}-{b[2] or b[1]}" for b in BAD]
)
def test_refused_alike_by_both_fronts(backend, name, args, kwargs, error, words):
    x = _x(backend, (2, 3) if name != "linalg.tensordot" else (3, 3))
    extra = (x,) if name in ("linalg.tensordot", "isclose") else ()
    messages = set()
    for front in _fronts(name):
        with pytest.raises(error) as raised:
            front(x, *extra, *args, **kwargs)
        assert isinstance(raised.value, hd.HederaError)
        assert words in str(raised.value)
        messages.add(str(raised.value))
    assert len(messages) == 1  # the C front and the Python front say the same


#: creation calls (no arrays: on the backend's current backend, and with backend=)
BAD_CREATION = [
    ("zeros", (np.array([2, 3]),), {}, hd.ArgumentTypeError, "zeros: shape must be"),
    ("zeros", ((True, 3),), {}, hd.ArgumentTypeError, "zeros: shape must be"),
    (
        "ones",
        ((2, -3),),
        {},
        hd.InvalidArgumentError,
        "ones: shape must be an int >= 0 or a tuple of ints >= 0",
    ),
    ("full", ((2,), "a"), {}, hd.ArgumentTypeError, "full: fill_value must be a number, got str 'a'"),
    ("full", ((2,), None), {}, hd.ArgumentTypeError, "full: fill_value must be a number"),
    ("eye", (True,), {}, hd.ArgumentTypeError, "eye: n_rows must be an int >= 0"),
    ("linspace", (0.0, 1.0, 2.5), {}, hd.ArgumentTypeError, "linspace: num must be an int >= 0"),
    ("arange", (5,), {"step": None}, hd.ArgumentTypeError, "arange: step must be a number"),
    ("linspace", (0.0, None, 5), {}, hd.ArgumentTypeError, "linspace: stop must be a number, got NoneType"),
]


@pytest.mark.parametrize(
    ("name", "args", "kwargs", "error", "words"),
    BAD_CREATION,
    ids=[f"{b[0]}-{b[1]!r:.20}" for b in BAD_CREATION],
)
def test_creation_refused_alike(backend, name, args, kwargs, error, words):
    """With backend= (the C front's named path) and on the current backend."""
    for front in _fronts(name):
        with pytest.raises(error) as raised:
            front(*args, **kwargs, backend=backend)
        assert words in str(raised.value)
        with pytest.raises(error) as raised:
            _current(front, backend, args, kwargs)
        assert words in str(raised.value)


def _current(front, backend, args, kwargs):
    with hd.use_backend(backend):
        return front(*args, **kwargs)


def test_integer_likes_and_legitimate_values_pass(backend):
    x = _x(backend)
    ref = np.arange(6, dtype=np.float32).reshape(2, 3)
    for sum_ in _fronts("sum"):
        np.testing.assert_allclose(hd.to_numpy(sum_(x, axis=np.int64(1))), ref.sum(axis=1))
        np.testing.assert_allclose(hd.to_numpy(sum_(x, axis=(0, np.int32(1)))), ref.sum())
        np.testing.assert_allclose(hd.to_numpy(sum_(x, axis=())), ref)
    for reshape in _fronts("reshape"):
        assert tuple(reshape(x, (-1,)).shape) == (6,)
        assert tuple(reshape(x, (np.int64(3), -1)).shape) == (3, 2)
    for tril in _fronts("tril"):
        np.testing.assert_allclose(hd.to_numpy(tril(x, k=np.int64(-1))), np.tril(ref, k=-1))
    for full in _fronts("full"):
        np.testing.assert_array_equal(
            hd.to_numpy(full((2,), True, dtype=hd.bool, backend=backend)), [True, True]
        )
        np.testing.assert_allclose(hd.to_numpy(full((2,), np.float32(1.5), backend=backend)), [1.5, 1.5])
    for split in _fronts("split"):  # split points (any int), as a list or a tuple
        assert [tuple(p.shape) for p in split(x, [1], axis=1)] == [(2, 1), (2, 2)]
        assert [tuple(p.shape) for p in split(x, (-2,), axis=1)] == [(2, 1), (2, 2)]
    for tensordot in _fronts("tensordot"):
        np.testing.assert_allclose(
            hd.to_numpy(tensordot(x, x, axes=([1], [1]))), np.tensordot(ref, ref, axes=([1], [1]))
        )
        np.testing.assert_allclose(
            hd.to_numpy(tensordot(x, x, axes=((0,), (0,)))), np.tensordot(ref, ref, axes=((0,), (0,)))
        )
        for mixed in ((1, 1), (1, [1]), ((0,), 0)):  # an int in the pair: one axis, as NumPy
            np.testing.assert_allclose(
                hd.to_numpy(tensordot(x, x, axes=mixed)), np.tensordot(ref, ref, axes=mixed)
            )
    for full in _fronts("full"):
        np.testing.assert_allclose(hd.to_numpy(full(2, 1 + 2j, backend=backend)), [1 + 2j, 1 + 2j])
    for zeros in _fronts("zeros"):
        assert tuple(zeros((np.int64(2), 3), backend=backend).shape) == (2, 3)
        assert tuple(zeros(4, backend=backend).shape) == (4,)
        assert tuple(zeros([2, 3], backend=backend).shape) == (2, 3)
        assert tuple(zeros(x.shape, backend=backend).shape) == (2, 3)  # torch.Size, tf.TensorShape
    for reshape in _fronts("reshape"):
        assert tuple(reshape(x, x.shape[::-1]).shape) == (3, 2)


def test_flags_take_python_and_numpy_bools(backend):
    """A flag is True, False or a NumPy bool (as torch takes), with the answer of the Python bool."""
    x = _x(backend)
    for front in _fronts("sum"):
        assert tuple(front(x, keepdims=np.True_).shape) == (1, 1)
        assert tuple(front(x, axis=0, keepdims=np.False_).shape) == (3,)
    for front in _fronts("sort"):
        np.testing.assert_array_equal(
            hd.to_numpy(front(x, descending=np.True_, stable=False)), hd.to_numpy(hd.sort(x, descending=True))
        )
    for front in _fronts("linspace"):
        np.testing.assert_allclose(
            hd.to_numpy(front(0.0, 1.0, 5, endpoint=False, backend=backend)), [0, 0.2, 0.4, 0.6, 0.8]
        )
        with pytest.raises(hd.ArgumentTypeError, match="linspace: endpoint must be a bool"):
            front(0.0, 1.0, 5, endpoint="no", backend=backend)


def test_keyword_names_built_at_run_time_are_checked(backend):
    """A keyword name that is not interned (built by join, passed through **kwargs) is still found."""
    x = _x(backend)
    name = "".join(["ax", "is"])
    for front in _fronts("sum"):
        with pytest.raises(hd.ArgumentTypeError, match="sum: axis"):
            front(x, **{name: True})


def test_front_checks_match_the_python_signatures():
    """The checks' positions are where the front's signature puts each parameter."""
    for fn in FUNCTIONS:
        if fn.manual:
            continue
        front = getattr(hd._front, front_name(fn))
        params = list(inspect.signature(_fastpath.python_front(front)).parameters.values())
        for name, position, *_ in _argkinds.front_checks(fn):
            p = next(p for p in params if p.name == name)
            if p.kind is p.KEYWORD_ONLY:
                assert position == -1, (fn.qualname, name)
            else:
                assert params.index(p) == position, (fn.qualname, name)


def test_every_table_kind_has_a_rule():
    """Every kind the API table names (other than option strings) is one the fronts check."""
    for kind in ARGUMENT_KINDS.values():
        if isinstance(kind, str):
            assert kind.rstrip("?") in _argkinds.ARGUMENT_KINDS, kind
