"""hd.cond / switch / while_loop / fori_loop / scan / map on every backend, eager and compiled.

(test_control_matrix.py runs every cell of the support matrix on these programs; this file adds
more starting points, a reversed scan over a nest, and semantics details.)

References are plain NumPy loops written here; gradients are checked against central finite
differences in float64 (and so across backends).
"""

from __future__ import annotations

import numpy as np
import pytest

import hedera as hd

XS = np.linspace(-1.0, 1.0, 8).reshape(4, 2)
X0 = np.array([0.5, -1.0])


# ---- the programs, in hedera, and their NumPy references --------------------------------------


def scan_program(x, xs):
    c, ys = hd.scan(lambda c, xi: (c * hd.cos(xi) + xi, hd.sin(c)), x, xs)
    return hd.sum(c) + hd.sum(ys)


def scan_reference(x, xs):
    c, ys = x, []
    for xi in xs:
        ys.append(np.sin(c))
        c = c * np.cos(xi) + xi
    return c.sum() + np.sum(ys)


def reverse_scan_program(x, xs):
    c, ys = hd.scan(lambda c, xi: ({"a": c["a"] * hd.cos(xi)}, c["a"] ** 2), {"a": x}, xs, reverse=True)
    weights = hd.asarray([[1.0], [2.0], [3.0], [4.0]], dtype=hd.dtype(x), backend=hd.backend_of(x))
    return hd.sum(c["a"]) + hd.sum(ys * weights)


def reverse_scan_reference(x, xs):
    c, ys = x, [None] * len(xs)
    for t in range(len(xs) - 1, -1, -1):
        ys[t] = c**2
        c = c * np.cos(xs[t])
    return c.sum() + np.sum(np.stack(ys) * np.arange(1.0, 5.0)[:, None])


def cond_program(x, xs):
    return hd.sum(hd.cond(hd.sum(x) > 0, lambda v: hd.sin(v) * xs[0], lambda v: v**3, x))


def cond_reference(x, xs):
    return float(np.sum(np.sin(x) * xs[0] if x.sum() > 0 else x**3))


def switch_program(x, xs):
    index = hd.astype(hd.sum(hd.abs(x)) * 2, hd.int32)  # data-dependent; clamped to the last branch
    return hd.sum(hd.switch(index, [lambda v: v, lambda v: hd.sin(v), lambda v: v * xs[1]], x))


def switch_reference(x, xs):
    index = min(int(np.abs(x).sum() * 2), 2)
    return float(np.sum([x, np.sin(x), x * xs[1]][index]))


def while_program(x, xs):
    _, y = hd.while_loop(
        lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * 1.1 + hd.sin(c[1])), (0, x), max_iterations=6
    )
    return hd.sum(y)


def while_reference(x, xs):
    for _ in range(3):
        x = x * 1.1 + np.sin(x)
    return float(x.sum())


def fori_program(x, xs):
    # hd.take, not xs[i]: indexing with a loop index fails inside torch.compile's loop operator
    row = lambda i: hd.take(xs, hd.reshape(i, (1,)), axis=0)[0]
    return hd.sum(hd.fori_loop(0, 3, lambda i, c: c * hd.cos(row(i)) + hd.sin(c), x))


def fori_reference(x, xs):
    for i in range(3):
        x = x * np.cos(xs[i]) + np.sin(x)
    return float(x.sum())


def map_program(x, xs):
    return hd.sum(hd.map(lambda row: hd.sum(hd.tanh(row * x)), xs) ** 2)


def map_reference(x, xs):
    return float(np.sum(np.tanh(xs * x).sum(axis=1) ** 2))


PROGRAMS = {
    "scan": (scan_program, scan_reference),
    "scan_reverse_nest": (reverse_scan_program, reverse_scan_reference),
    "cond": (cond_program, cond_reference),
    "switch": (switch_program, switch_reference),
    "while_loop": (while_program, while_reference),
    "fori_loop": (fori_program, fori_reference),
    "map": (map_program, map_reference),
}
STARTS = (X0, -X0)  # both branches of cond; switch indices 2 and 2 (clamped), 1 for 0.3 * X0


def _arrays(backend, *values):
    return [hd.asarray(v, dtype=hd.float64, backend=backend) for v in values]


def central_differences(reference, x, xs, eps=1e-6):
    grad = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        plus, minus = x.copy(), x.copy()
        plus[i] += eps
        minus[i] -= eps
        grad[i] = (reference(plus, xs) - reference(minus, xs)) / (2 * eps)
    return grad


# ---- forward, eager and compiled ----------------------------------------------------------------


@pytest.mark.parametrize("name", list(PROGRAMS))
@pytest.mark.parametrize("start", [X0, -X0, 0.3 * X0], ids=["pos", "neg", "small"])
def test_eager_forward_matches_numpy_loop(backend, name, start):
    program, reference = PROGRAMS[name]
    x, xs = _arrays(backend, start, XS)
    np.testing.assert_allclose(hd.to_numpy(program(x, xs)), reference(start, XS), rtol=1e-12)


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_compiled_forward_matches_numpy_loop(autodiff_backend, name):
    if autodiff_backend == "torch" and name != "scan_reverse_nest":
        pytest.skip("torch.compile takes seconds per program: test_control_matrix.py runs the others")
    program, reference = PROGRAMS[name]
    compiled = hd.jit(program)
    for start in STARTS:
        x, xs = _arrays(autodiff_backend, start, XS)
        np.testing.assert_allclose(hd.to_numpy(compiled(x, xs)), reference(start, XS), rtol=1e-12)


# ---- gradients ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_reverse_gradient_matches_central_differences(autodiff_backend, name):
    program, reference = PROGRAMS[name]
    for start in STARTS:
        x, xs = _arrays(autodiff_backend, start, XS)
        expected = central_differences(reference, start, XS)
        np.testing.assert_allclose(hd.to_numpy(hd.grad(program)(x, xs)), expected, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_forward_mode_matches_central_differences(autodiff_backend, name):
    program, reference = PROGRAMS[name]
    tangent = np.array([0.3, -0.7])
    for start in STARTS:
        x, xs = _arrays(autodiff_backend, start, XS)
        t = hd.asarray(tangent, dtype=hd.float64, backend=autodiff_backend)
        _, got = hd.jvp(lambda v, xs=xs: program(v, xs), (x,), (t,))
        expected = float(central_differences(reference, start, XS) @ tangent)
        np.testing.assert_allclose(hd.to_numpy(got), expected, rtol=1e-6, atol=1e-8)


def test_while_loop_without_max_iterations_reverse_mode(autodiff_backend):
    """Differentiable on torch and tensorflow; on jax a hedera error saying to pass max_iterations."""

    def f(x):
        return hd.sum(hd.while_loop(lambda c: hd.sum(c) < 10.0, lambda c: c * 1.5, x))

    x = hd.asarray([1.0, 2.0], dtype=hd.float64, backend=autodiff_backend)
    if autodiff_backend == "jax":
        with pytest.raises(hd.UnsupportedError, match="max_iterations"):
            hd.grad(f)(x)
        with pytest.raises(hd.UnsupportedError, match="max_iterations"):
            hd.grad(hd.jit(f))(x)
        # with the bound it is differentiable: 1.5 ** 3 * (1 + 2) = 10.125 >= 10 after three steps
        bounded = hd.grad(
            lambda v: hd.sum(
                hd.while_loop(lambda c: hd.sum(c) < 10.0, lambda c: c * 1.5, v, max_iterations=8)
            )
        )
        np.testing.assert_allclose(hd.to_numpy(bounded(x)), [1.5**3] * 2, rtol=1e-12)
    else:
        np.testing.assert_allclose(hd.to_numpy(hd.grad(f)(x)), [1.5**3] * 2, rtol=1e-12)


def test_while_loop_stops_at_max_iterations(backend):
    x = hd.asarray(1.0, dtype=hd.float64, backend=backend)
    out = hd.while_loop(lambda c: c < 1e9, lambda c: c * 2, x, max_iterations=5)
    assert float(out) == 32.0


# ---- vmap ---------------------------------------------------------------------------------------


def test_vmap_of_cond_with_a_batched_predicate_selects_per_example(backend):
    rows = np.array([[1.0, 2.0], [-3.0, -4.0], [0.5, -0.25]])
    f = hd.vmap(lambda v: hd.cond(hd.sum(v) > 0, lambda u: hd.sin(u), lambda u: u**2, v))
    got = hd.to_numpy(f(hd.asarray(rows, dtype=hd.float64, backend=backend)))
    expected = np.where(rows.sum(axis=1, keepdims=True) > 0, np.sin(rows), rows**2)
    np.testing.assert_allclose(got, expected, rtol=1e-12)


def test_vmap_of_scan(backend):
    starts = np.stack([X0, -X0, 2 * X0])
    xs = hd.asarray(XS, dtype=hd.float64, backend=backend)
    got = hd.vmap(lambda x: scan_program(x, xs))(hd.asarray(starts, dtype=hd.float64, backend=backend))
    np.testing.assert_allclose(hd.to_numpy(got), [scan_reference(s, XS) for s in starts], rtol=1e-12)


def test_vmap_of_while_loop_with_max_iterations_freezes_each_example(backend):
    """Batched predicate: each example stops on its own (jax's batched while_loop semantics)."""
    starts = np.array([1.0, 3.0, 20.0])
    f = hd.vmap(lambda c: hd.while_loop(lambda v: v < 10.0, lambda v: v * 2, c, max_iterations=10))
    got = hd.to_numpy(f(hd.asarray(starts, dtype=hd.float64, backend=backend)))
    np.testing.assert_allclose(got, [16.0, 12.0, 20.0])


# ---- semantics details ----------------------------------------------------------------------------


def test_switch_clamps_the_index(backend):
    x = hd.asarray(2.0, dtype=hd.float64, backend=backend)
    branches = [lambda v: v + 1, lambda v: v * 10]
    for index, expected in ((-5, 3.0), (0, 3.0), (1, 20.0), (7, 20.0)):
        assert float(hd.switch(hd.asarray(index, backend=backend), branches, x)) == expected


def test_scan_length_without_xs_and_empty_scans(backend):
    init = hd.asarray([1.0, 2.0], dtype=hd.float64, backend=backend)
    carry, ys = hd.scan(lambda c, _: (c * 2, hd.sum(c)), init, length=3)
    np.testing.assert_array_equal(hd.to_numpy(carry), [8.0, 16.0])
    np.testing.assert_array_equal(hd.to_numpy(ys), [3.0, 6.0, 12.0])
    carry, ys = hd.scan(
        lambda c, x: (c + x, x * 2), init, hd.asarray(np.zeros((0, 2)), dtype=hd.float64, backend=backend)
    )
    np.testing.assert_array_equal(hd.to_numpy(carry), [1.0, 2.0])
    assert tuple(ys.shape) == (0, 2)


def test_fori_loop_with_array_bounds(backend):
    lower, upper = hd.asarray(2, backend=backend), hd.asarray(5, backend=backend)
    init = hd.asarray(0, dtype=hd.dtype(lower), backend=backend)
    assert int(hd.fori_loop(lower, upper, lambda i, c: c + i, init)) == 2 + 3 + 4


def test_carries_are_nests(backend):
    init = hd.Container({"pos": hd.asarray([0.0, 1.0], backend=backend), "n": hd.asarray(0, backend=backend)})

    def body(carry):
        return hd.Container({"pos": carry["pos"] + 1.0, "n": carry["n"] + 1})

    out = hd.while_loop(lambda c: c["n"] < 4, body, init)
    assert isinstance(out, hd.Container)
    np.testing.assert_array_equal(hd.to_numpy(out["pos"]), [4.0, 5.0])
    assert int(out["n"]) == 4


def test_vmap_of_an_unbounded_while_loop(backend):
    """jax, tensorflow and numpy run each example to its end; torch needs max_iterations."""
    starts = hd.asarray([1.0, 3.0, 20.0], dtype=hd.float64, backend=backend)
    f = hd.vmap(lambda c: hd.while_loop(lambda v: v < 10.0, lambda v: v * 2, c))
    if backend == "torch":
        with pytest.raises(hd.UnsupportedError, match="max_iterations"):
            f(starts)
    else:
        np.testing.assert_allclose(hd.to_numpy(f(starts)), [16.0, 12.0, 20.0])
