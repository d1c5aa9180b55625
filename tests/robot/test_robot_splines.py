"""hedera.robot splines against scipy (natural cubic spline, RBFInterpolator), on every backend.

References: ``scipy.interpolate.CubicSpline(bc_type="natural")`` (a 1-D polyharmonic
spline of order 3 with an affine part *is* the natural cubic spline) and
``scipy.interpolate.RBFInterpolator`` with the matching kernel and ``degree=1`` in
several input dimensions. Gradients against central finite differences in float64.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.interpolate import CubicSpline, RBFInterpolator

import hedera as hd
from hedera.robot import evaluate_spline, fit_spline, sample_spline_path
from robot_reference import central_difference

KERNELS = {1: "linear", 2: "thin_plate_spline", 3: "cubic"}


@pytest.fixture
def rng(request):
    """A generator seeded by the test's own id, so that a test's inputs do not depend on which
    tests ran before it in the process (order, -k selection, xdist scheduling)."""
    return np.random.default_rng(zlib.crc32(request.node.nodeid.encode()))


def arr(x, backend, dtype=np.float64):
    return hd.asarray(np.asarray(x, dtype=dtype), backend=backend)


def anchor_times(n, rng):
    t = np.sort(rng.uniform(0.0, 1.0, n))
    t[0], t[-1] = 0.0, 1.0
    return t


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_1d_is_the_natural_cubic_spline(backend, dtype, rng):
    # float32: the dense kernel system's condition number grows as spacing**-3, so spread anchors
    t = (
        anchor_times(7, rng)
        if dtype == np.float64
        else np.linspace(0, 1, 7) + np.array([0, 0.03, -0.02, 0.04, 0, 0.02, 0])
    )
    vals = rng.normal(size=(7, 3))
    s = np.linspace(0.0, 1.0, 41)
    out = sample_spline_path(
        arr(t[:, None], backend, dtype), arr(vals, backend, dtype), arr(s[:, None], backend, dtype)
    )
    assert tuple(out.shape) == (41, 3) and hd.dtype(out) == hd.dtype(arr(0.0, backend, dtype))
    expected = CubicSpline(t, vals, bc_type="natural")(s)
    # float64: a random draw may put two anchors close; the error bound follows the condition
    # number (~ spacing**-3), so one ulp of it, not a fixed 1e-10 that a CPU's rounding can miss
    tol = 5e-4 if dtype == np.float32 else max(1e-10, np.finfo(np.float64).eps * np.diff(t).min() ** -3)
    np.testing.assert_allclose(hd.to_numpy(out), expected, atol=tol, rtol=tol)


@settings(max_examples=6, suppress_health_check=[HealthCheck.function_scoped_fixture])  # backend: a name only
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(3, 9), d_out=st.integers(1, 4))
def test_interpolates_its_anchors(backend, seed, n, d_out):
    rng = np.random.default_rng(seed)
    t = np.linspace(0.0, 1.0, n) + rng.uniform(-0.3, 0.3, n) / n
    vals = rng.normal(size=(n, d_out))
    out = sample_spline_path(arr(t[:, None], backend), arr(vals, backend), arr(t[:, None], backend))
    np.testing.assert_allclose(hd.to_numpy(out), vals, atol=1e-8)


@pytest.mark.parametrize("order", [1, 2, 3])
@pytest.mark.parametrize("d_in", [2, 3])
def test_multidimensional_inputs_match_scipy_rbf(backend, order, d_in, rng):
    x = rng.uniform(size=(12, d_in))
    f = rng.normal(size=(12, 2))
    xs = rng.uniform(-0.2, 1.2, size=(9, d_in))
    expected = RBFInterpolator(x, f, kernel=KERNELS[order], degree=1)(xs)
    out = sample_spline_path(arr(x, backend), arr(f, backend), arr(xs, backend), order=order)
    np.testing.assert_allclose(hd.to_numpy(out), expected, atol=1e-8, rtol=1e-8)


def test_batched_and_broadcast(backend, rng):
    t = anchor_times(5, rng)
    vals = rng.normal(size=(2, 3, 5, 4))
    s = np.linspace(0.0, 1.0, 11)
    out = sample_spline_path(arr(t[:, None], backend), arr(vals, backend), arr(s[:, None], backend))
    assert tuple(out.shape) == (2, 3, 11, 4)
    for i in range(2):
        for j in range(3):
            expected = CubicSpline(t, vals[i, j], bc_type="natural")(s)
            np.testing.assert_allclose(hd.to_numpy(out)[i, j], expected, atol=1e-10)
    # per-batch anchor times too
    times = np.stack([anchor_times(5, rng) for _ in range(3)])[..., None]  # (3, 5, 1)
    out = sample_spline_path(arr(times, backend), arr(vals, backend), arr(s[:, None], backend))
    expected = CubicSpline(times[2, :, 0], vals[1, 2], bc_type="natural")(s)
    np.testing.assert_allclose(hd.to_numpy(out)[1, 2], expected, atol=1e-10)


def test_fit_then_evaluate_equals_sample(backend, rng):
    t, vals, s = anchor_times(6, rng)[:, None], rng.normal(size=(6, 2)), rng.uniform(size=(8, 1))
    coeffs = fit_spline(arr(t, backend), arr(vals, backend))
    assert tuple(coeffs.shape) == (8, 2)
    out = evaluate_spline(arr(t, backend), coeffs, arr(s, backend))
    np.testing.assert_allclose(
        hd.to_numpy(out),
        hd.to_numpy(sample_spline_path(arr(t, backend), arr(vals, backend), arr(s, backend))),
    )


def test_smooth_no_kinks_at_the_anchors(backend, rng):
    # C2 in 1-D: on a fine grid the second difference never jumps by more than the largest
    # third derivative allows (a kink in the slope or curvature at an anchor would), and it is
    # zero at both ends (natural boundary conditions)
    t = anchor_times(6, rng)
    vals = rng.normal(size=(6, 1))
    s = np.linspace(0.0, 1.0, 2001)
    h = s[1] - s[0]
    out = hd.to_numpy(
        sample_spline_path(arr(t[:, None], backend), arr(vals, backend), arr(s[:, None], backend))
    )
    second = np.diff(out[:, 0], 2) / h**2
    third = np.max(np.abs(CubicSpline(t, vals[:, 0], bc_type="natural")(s, 3)))
    assert np.max(np.abs(np.diff(second))) < 2 * third * h + 1e-3
    assert abs(second[0]) < 2 * third * h + 1e-3 and abs(second[-1]) < 2 * third * h + 1e-3


@pytest.mark.parametrize("wrt", ["anchor_vals", "anchor_points", "sample_points"])
@pytest.mark.parametrize("order", [2, 3])
def test_gradients_match_finite_differences(autodiff_backend, wrt, order, rng):
    t = anchor_times(5, rng)[:, None]
    vals = rng.normal(size=(5, 2))
    s = np.array([[0.05], [0.33], [0.5], [0.91]])
    weights = rng.normal(size=(4, 2))
    inputs = {"anchor_points": t, "anchor_vals": vals, "sample_points": s}

    def scalar(x, backend):
        args = {**{k: arr(v, backend) for k, v in inputs.items()}, wrt: x}
        return hd.sum(sample_spline_path(**args, order=order) * arr(weights, backend))

    grad = hd.grad(lambda x: scalar(x, autodiff_backend))(arr(inputs[wrt], autodiff_backend))
    expected = central_difference(lambda x: float(scalar(x, "numpy")), inputs[wrt])
    np.testing.assert_allclose(hd.to_numpy(grad), expected, atol=1e-6, rtol=1e-5)


def test_gradient_finite_when_sampling_at_the_anchors(autodiff_backend, rng):
    t = np.linspace(0.0, 1.0, 4)[:, None]
    vals = rng.normal(size=(4, 3))
    for order in (1, 2, 3):
        grad = hd.grad(
            lambda s, o=order: hd.sum(
                sample_spline_path(arr(t, autodiff_backend), arr(vals, autodiff_backend), s, order=o)
            )
        )(arr(t, autodiff_backend))
        assert np.all(np.isfinite(hd.to_numpy(grad)))


def test_bad_inputs(backend, rng):
    t, vals = arr(np.linspace(0, 1, 4)[:, None], backend), arr(rng.normal(size=(4, 2)), backend)
    with pytest.raises(hd.ShapeError, match="anchor_vals"):
        sample_spline_path(t, vals[:3], t)
    with pytest.raises(hd.ShapeError, match="sample_points"):
        sample_spline_path(t, vals, arr(np.zeros((3, 2)), backend))
    with pytest.raises(hd.InvalidArgumentError, match="order"):
        sample_spline_path(t, vals, t, order=4)
    with pytest.raises(hd.ShapeError, match="anchor"):
        sample_spline_path(t[0], vals, t)
