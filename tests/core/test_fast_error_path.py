"""The C fronts diagnose the exception the backend function raised: a failing call runs once.

A failing backend call used to be run a second time through the Python front, to diagnose it;
an expensive failing call, with its side effects, then ran twice. These tests put a function of
their own in a front's cache, for a class of their own (the cache maps argument types to backend
functions; a class no framework owns is never filled by hedera), and count its calls.
"""

from __future__ import annotations

import numpy as np
import pytest

import hedera as hd
from hedera import _dispatch, _fastpath, _front

pytestmark = pytest.mark.skipif(not _fastpath.enabled(), reason="the C extension is not in use")


class Opaque:
    """An argument type of this test's own."""


def counting(calls: list, error: Exception):
    def backend_function(*args, **kwargs):
        calls.append((args, kwargs))
        raise error

    return backend_function


def test_a_failing_call_runs_once_and_its_error_propagates():
    calls: list = []
    error = RuntimeError("the framework's own error")
    _front._sin_by_type[Opaque] = counting(calls, error)
    with pytest.raises(RuntimeError) as raised:
        hd.sin(Opaque())
    assert raised.value is error
    assert len(calls) == 1


def test_a_failing_call_that_diagnose_explains_runs_once_and_raises_hederas_error():
    """matmul of mismatched shapes: the diagnosis reads the arguments the C front hands over."""

    class Shaped(Opaque):
        def __init__(self, shape):
            self.shape, self.dtype = shape, np.dtype("float32")

    calls: list = []
    error = ValueError("mismatch, in the framework's words")
    _front._matmul_by_type[Shaped] = counting(calls, error)
    _dispatch._TYPE_TO_BACKEND[Shaped] = "numpy"  # diagnose's is_array: an array of a known framework
    try:
        with pytest.raises(hd.ShapeError, match="matmul: the last axis of x1") as raised:
            hd.matmul(Shaped((2, 3)), Shaped((4, 5)))
    finally:
        del _dispatch._TYPE_TO_BACKEND[Shaped]
    assert raised.value.__cause__ is error
    assert len(calls) == 1


def test_keyword_arguments_reach_the_diagnosis():
    calls: list = []
    error = ValueError("bad axis, in the framework's words")

    class Shaped(Opaque):
        shape, dtype = (2, 3), np.dtype("float32")

    _front._sum_by_type[Shaped] = counting(calls, error)
    _dispatch._TYPE_TO_BACKEND[Shaped] = "numpy"
    try:
        with pytest.raises(hd.InvalidAxisError, match=r"sum: axis=5 is out of range"):
            hd.sum(Shaped(), axis=5)
    finally:
        del _dispatch._TYPE_TO_BACKEND[Shaped]
    assert calls == [((calls[0][0][0],), {"axis": 5})]


def test_a_call_that_does_not_fit_the_signature_says_so():
    with pytest.raises(TypeError, match="positional argument"):
        hd.sin(np.ones(2), 3)
