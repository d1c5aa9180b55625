"""Bad input to the control-flow fronts: the same hedera error on every backend, naming the leaf."""

from __future__ import annotations

import numpy as np
import pytest

import hedera as hd


def _x(backend, value=(1.0, 2.0), dtype=hd.float32):
    return hd.asarray(np.asarray(value), dtype=dtype, backend=backend)


def _traced(backend, fn):
    """``fn`` eagerly, and under hd.jit on jax and tensorflow (torch compiles seconds per case)."""
    yield fn
    if backend in ("jax", "tensorflow"):
        yield lambda: hd.jit(fn)()


def test_body_changing_the_carry_structure(backend):
    init = {"a": _x(backend), "b": _x(backend)}
    for run in _traced(
        backend, lambda: hd.while_loop(lambda c: hd.sum(c["a"]) < 10, lambda c: {"a": c["a"] * 2}, init)
    ):
        with pytest.raises(hd.errors.StructureError, match="while_loop: body_fn's output"):
            run()


def test_body_changing_a_leaf_shape_names_its_path(backend):
    init = {"a": _x(backend), "b": [_x(backend)]}

    def body(c, x):
        return {"a": c["a"], "b": [hd.concat([c["b"][0], c["b"][0]])]}, x

    xs = _x(backend, np.zeros((3, 2)))
    for run in _traced(backend, lambda: hd.scan(body, init, xs)):
        with pytest.raises(hd.ShapeError, match=r"scan: f's carry carry\['b'\]\[0\] has shape \(4,\)"):
            run()


def test_body_changing_a_leaf_dtype(backend):
    init = (_x(backend),)
    for run in _traced(backend, lambda: hd.fori_loop(0, 3, lambda i, c: (hd.astype(c[0], hd.int32),), init)):
        with pytest.raises(hd.DtypeError, match=r"fori_loop: body_fn's output carry\[0\] has dtype int32"):
            run()


def test_branches_whose_outputs_differ(backend):
    x = _x(backend)
    pred = hd.asarray(True, backend=backend)
    cases = [
        (lambda v: (v, v), lambda v: v, hd.errors.StructureError, "structure"),
        (lambda v: v, lambda v: v[:1], hd.ShapeError, "shape"),
        (lambda v: v, lambda v: hd.astype(v, hd.int32), hd.DtypeError, "dtype"),
    ]
    for true_fn, false_fn, error, what in cases:
        for run in _traced(backend, lambda t=true_fn, f=false_fn: hd.cond(pred, t, f, x)):
            with pytest.raises(error, match=f"cond: .*{what}"):
                run()
    branches = [lambda v: v, lambda v: hd.astype(v, hd.int32)]
    with pytest.raises(hd.DtypeError, match=r"switch: branches\[1\]'s output"):
        hd.switch(hd.asarray(0, backend=backend), branches, x)


def test_predicates_must_be_scalar_booleans(backend):
    x = _x(backend)
    with pytest.raises(hd.ShapeError, match="cond: pred must be a scalar"):
        hd.cond(x > 0, lambda v: v, lambda v: v, x)
    with pytest.raises(hd.DtypeError, match="cond: pred must have a bool dtype"):
        hd.cond(hd.sum(x), lambda v: v, lambda v: v, x)
    with pytest.raises(hd.ShapeError, match="while_loop: cond_fn's output must be a scalar"):
        hd.while_loop(lambda c: c < 10, lambda c: c * 2, x)
    with pytest.raises(hd.DtypeError, match="switch: index must have a integral dtype"):
        hd.switch(hd.sum(x), [lambda v: v], x)


def test_xs_of_different_leading_lengths_and_length_contradicting_xs(backend):
    xs = {"u": _x(backend, np.zeros((3, 2))), "v": _x(backend, np.zeros((4,)))}
    with pytest.raises(
        hd.ShapeError,
        match=r"scan: xs leaves have different leading lengths: xs\['u'\] has 3, xs\['v'\] has 4",
    ):
        hd.scan(lambda c, x: (c, None), _x(backend), xs)
    with pytest.raises(
        hd.InvalidArgumentError, match=r"scan: length=5 contradicts xs: xs has leading length 3"
    ):
        hd.scan(lambda c, x: (c, None), _x(backend), _x(backend, np.zeros((3, 2))), length=5)
    with pytest.raises(hd.ShapeError, match="scan: xs is a scalar"):
        hd.scan(lambda c, x: (c, None), _x(backend), _x(backend, 1.0))
    with pytest.raises(hd.InvalidArgumentError, match="scan: give xs or length"):
        hd.scan(lambda c, x: (c, None), _x(backend))


def test_non_callables_and_bad_arguments(backend):
    x = _x(backend)
    with pytest.raises(hd.InvalidArgumentError, match="cond: true_fn must be callable"):
        hd.cond(hd.asarray(True, backend=backend), 3, lambda v: v, x)
    with pytest.raises(hd.InvalidArgumentError, match="switch: branches must be a non-empty sequence"):
        hd.switch(0, [], x)
    with pytest.raises(hd.InvalidArgumentError, match=r"switch: branches\[1\] must be callable"):
        hd.switch(0, [lambda v: v, None], x)
    with pytest.raises(hd.InvalidArgumentError, match="while_loop: body_fn must be callable"):
        hd.while_loop(lambda c: False, "body", x)
    with pytest.raises(hd.InvalidArgumentError, match="while_loop: max_iterations must be an int >= 0"):
        hd.while_loop(lambda c: False, lambda c: c, x, max_iterations=-1)
    with pytest.raises(hd.InvalidArgumentError, match="scan: f must be callable"):
        hd.scan(None, x, length=2)
    with pytest.raises(hd.InvalidArgumentError, match="scan: unroll must be a positive int"):
        hd.scan(lambda c, _: (c, None), x, length=2, unroll=0)
    with pytest.raises(hd.InvalidArgumentError, match="map: f must be callable"):
        hd.map(1, x)
    with pytest.raises(hd.errors.StructureError, match=r"scan: f must return a pair \(carry, y\)"):
        hd.scan(lambda c, _: c, x, length=2)


def test_mixed_backends_raise(backend):
    other = "numpy" if backend != "numpy" else "torch"
    if other not in hd.available_backends():
        pytest.skip(f"{other} is not installed")
    with pytest.raises(hd.BackendMismatchError, match="scan"):
        hd.scan(lambda c, x: (c, x), _x(backend), hd.asarray(np.zeros((2, 2)), backend=other))


def _at_step(k, good, bad):
    """A function of the carry that returns ``good(...)`` until its ``k``-th call, then ``bad(...)``
    (eager loops check every step's output: the first steps pass, a later one must still raise)."""
    calls = []

    def fn(*args):
        calls.append(None)
        return (bad if len(calls) >= k else good)(*args)

    return fn


_LATER_STEP_CASES = {
    # carry kind: (init, good body, bad bodies [(body, error class, message)])
    "array": (
        lambda b: _x(b),
        lambda c: c * 2,
        [
            (lambda c: hd.astype(c, hd.int32), hd.DtypeError, r"carry has dtype int32"),
            (lambda c: c[:1], hd.ShapeError, r"carry has shape \(1,\)"),
            (lambda c: (c, c), hd.errors.StructureError, r"has structure"),
        ],
    ),
    "tuple": (
        lambda b: (_x(b), _x(b, (3.0,))),
        lambda c: (c[0] * 2, c[1]),
        [
            (lambda c: (c[0], hd.astype(c[1], hd.int32)), hd.DtypeError, r"carry\[1\] has dtype int32"),
            (lambda c: (c[0], hd.concat([c[1], c[1]])), hd.ShapeError, r"carry\[1\] has shape \(2,\)"),
            (lambda c: [c[0], c[1]], hd.errors.StructureError, r"has structure"),
            (lambda c: (c[0], c[1], c[1]), hd.errors.StructureError, r"has structure"),
            (lambda c: (c[0], (c[1],)), hd.errors.StructureError, r"has structure"),
            (lambda c: (c[0], "x"), hd.NotAnArrayError, r"carry\[1\] must be an array, got str"),
        ],
    ),
    "dict": (
        lambda b: {"a": _x(b), "b": [_x(b, (3.0,))]},
        lambda c: {"a": c["a"] * 2, "b": c["b"]},
        [
            (lambda c: {"a": c["a"], "c": c["b"]}, hd.errors.StructureError, r"has structure"),
            (lambda c: {"a": c["a"], "b": [c["a"]]}, hd.ShapeError, r"carry\['b'\]\[0\] has shape \(2,\)"),
        ],
    ),
}


@pytest.mark.parametrize("kind", sorted(_LATER_STEP_CASES))
def test_a_bad_carry_on_a_later_eager_step_raises(backend, kind):
    init, good, bads = _LATER_STEP_CASES[kind]
    for bad, error, message in bads:
        body = _at_step(3, good, bad)
        with pytest.raises(error, match=f"scan: f's carry .*{message}"):
            hd.scan(lambda c, x, body=body: (body(c), x), init(backend), _x(backend, np.zeros((5, 2))))
        body = _at_step(3, good, bad)
        with pytest.raises(error, match=f"while_loop: body_fn's output .*{message}"):
            hd.while_loop(lambda c: hd.asarray(True, backend=backend), body, init(backend), max_iterations=5)


def test_a_bad_y_or_predicate_on_a_later_eager_step_raises(backend):
    x = _x(backend)
    y = _at_step(3, lambda c: c, lambda c: c[:1])
    with pytest.raises(hd.ShapeError, match=r"scan: f's y y has shape \(1,\), but the first step's y"):
        hd.scan(lambda c, _: (c, y(c)), x, length=5)
    y = _at_step(3, lambda c: (c, c), lambda c: (c, hd.astype(c, hd.int32)))
    with pytest.raises(hd.DtypeError, match=r"scan: f's y y\[1\] has dtype int32"):
        hd.scan(lambda c, _: (c, y(c)), x, length=5)
    true = hd.asarray(True, backend=backend)
    cases = [
        (lambda c: hd.sum(c), hd.DtypeError, "while_loop: cond_fn's output must have a bool dtype"),
        (lambda c: c > 0, hd.ShapeError, r"while_loop: cond_fn's output must be a scalar \(shape \(\)\)"),
    ]
    for bad, error, message in cases:
        pred = _at_step(3, lambda c: true, bad)
        with pytest.raises(error, match=message):
            hd.while_loop(pred, lambda c: c * 2, x, max_iterations=5)
