"""hedera.mech rotations against scipy.spatial.transform.Rotation, on every backend.

Inputs are built with NumPy/scipy, converted with ``hd.asarray(..., backend=)``;
outputs come back with ``hd.to_numpy``. Near-singular rotations (identity, tiny
angles, the Taylor-branch switch, angles at and near pi, gimbal lock) are part
of every comparison.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import stats
from scipy.spatial.transform import Rotation, Slerp

import hedera as hd
import hedera.mech as mech
from mech_reference import (
    CONVENTIONS,
    REPRESENTATIONS,
    TOL,
    as_matrix,
    gimbal_euler,
    representation,
    sample_rotations,
    to_backend,
    unit,
    wrapped_difference,
)

DTYPES = ("float32", "float64")
BATCH = len(sample_rotations())  # one batch size throughout: jax compiles each op once per shape
PAIRS = [(a, b) for a, b in itertools.permutations(REPRESENTATIONS, 2)]


def convert(src: str, dst: str, x, convention: str):
    fn = getattr(mech, f"{src}_to_{dst}")
    return fn(x, convention) if "euler" in (src, dst) else fn(x)


def assert_close(actual, expected, dtype, scale=1.0):
    tol = TOL[dtype]
    np.testing.assert_allclose(
        hd.to_numpy(actual), expected, rtol=tol["rtol"] * scale, atol=tol["atol"] * scale
    )


def assert_same_quaternion(actual, expected, dtype, scale=1.0):
    """Equal up to the sign (q and -q are the same rotation)."""
    a = hd.to_numpy(actual).astype(np.float64)
    sign = np.where(np.sum(a * expected, axis=-1, keepdims=True) < 0, -1.0, 1.0)
    np.testing.assert_allclose(a * sign, expected, rtol=0, atol=TOL[dtype]["atol"] * scale)


# ---- every pair of representations --------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("src", "dst"), PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_conversion_pairs_give_the_same_rotation(backend, src, dst, dtype):
    rotations = sample_rotations()
    truth = rotations.as_matrix()
    conventions = ("xyz", "ZXZ") if "euler" in (src, dst) else ("xyz",)
    for convention in conventions:
        value = representation(rotations, src, convention)
        if src == "quaternion":  # any non-zero multiple stands for the same rotation
            value = value * np.linspace(-2.0, 3.0, len(value))[:, None]
            value[np.abs(value).max(axis=-1) < 0.1] *= 10.0
        out = convert(src, dst, to_backend(value, backend, dtype), convention)
        got = hd.to_numpy(out).astype(np.float64)
        assert got.shape == representation(rotations, dst, convention).shape
        assert hd.dtype(out) == getattr(hd, dtype)
        scale = 30.0 if dtype == "float32" else 1e3  # conditioning near pi and at the Taylor switch
        np.testing.assert_allclose(
            as_matrix(got, dst, convention), truth, atol=TOL[dtype]["atol"] * scale, rtol=0
        )
        if dst in ("axis_angle", "polar_axis_angle") and src != "rot_vec":
            angle = got[..., -1]
            assert np.all(angle >= 0) and np.all(angle <= np.pi + 1e-6)
        if dst == "axis_angle":
            np.testing.assert_allclose(np.linalg.norm(got[..., :3], axis=-1), 1.0, atol=1e-5)


# ---- canonical values, exactly as scipy -----------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
def test_matrix_and_quaternion_match_scipy(backend, dtype):
    r = sample_rotations()
    q, m = r.as_quat(), r.as_matrix()
    assert_close(mech.quaternion_to_rot_mat(to_backend(q, backend, dtype)), m, dtype)
    expected = Rotation.from_matrix(m).as_quat()  # same method: same sign
    got = mech.rot_mat_to_quaternion(to_backend(m, backend, dtype))
    if dtype == "float64":
        assert_close(got, expected, dtype)
    else:  # float32 rounding may break a near-tie in the method's choice: the sign may differ
        assert_same_quaternion(got, expected, dtype)
    canonical = mech.canonicalize_quaternion(to_backend(-q, backend, dtype))
    assert_close(canonical, Rotation.from_quat(-q).as_quat(canonical=True), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_rot_vec_matches_scipy(backend, dtype):
    r = sample_rotations()
    rv, q = r.as_rotvec(), r.as_quat()
    assert_close(
        mech.rot_vec_to_quaternion(to_backend(rv, backend, dtype)), Rotation.from_rotvec(rv).as_quat(), dtype
    )
    assert_close(mech.rot_vec_to_rot_mat(to_backend(rv, backend, dtype)), r.as_matrix(), dtype)
    # as_rotvec canonicalises (angle in [0, pi]); exactly at pi the sign is scipy's rule too
    scale = 1.0 if dtype == "float64" else 30.0
    assert_close(mech.quaternion_to_rot_vec(to_backend(q, backend, dtype)), r.as_rotvec(), dtype, scale)
    assert_close(
        mech.quaternion_to_rot_vec(to_backend(-3.0 * q, backend, dtype)), r.as_rotvec(), dtype, scale
    )


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("convention", CONVENTIONS)
def test_euler_matches_scipy(backend, convention, dtype):
    r = sample_rotations()
    e = r.as_euler(convention, suppress_warnings=True)
    scale = 1.0 if dtype == "float64" else 4.0
    # Euler -> rotation: same composition as scipy, so the same quaternion, sign included
    assert_close(
        mech.euler_to_quaternion(to_backend(e, backend, dtype), convention),
        Rotation.from_euler(convention, e).as_quat(),
        dtype,
        scale,
    )
    # (at gimbal lock scipy's angles stand for a rotation up to 1e-7 away from r: use theirs)
    assert_close(
        mech.euler_to_rot_mat(to_backend(e, backend, dtype), convention),
        Rotation.from_euler(convention, e).as_matrix(),
        dtype,
        scale,
    )
    # rotation -> Euler: scipy's angles, wrapped to [-pi, pi)
    for got in (
        mech.quaternion_to_euler(to_backend(r.as_quat(), backend, dtype), convention),
        mech.rot_mat_to_euler(to_backend(r.as_matrix(), backend, dtype), convention),
    ):
        got = hd.to_numpy(got).astype(np.float64)
        np.testing.assert_allclose(
            as_matrix(got, "euler", convention), r.as_matrix(), atol=1e-4 if dtype == "float32" else 1e-6
        )
        if dtype == "float64":
            np.testing.assert_allclose(wrapped_difference(got, e), 0.0, atol=1e-9)
            assert np.all(got >= -np.pi) and np.all(got < np.pi)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("convention", CONVENTIONS)
def test_euler_at_gimbal_lock_follows_scipy(backend, convention, dtype):
    """Middle angle at its limits: scipy sets the third angle to 0; so does hedera."""
    angles = np.resize(gimbal_euler(convention), (BATCH, 3))  # one batch size: fewer jax compilations
    r = Rotation.from_euler(convention, angles)
    expected = r.as_euler(convention, suppress_warnings=True)
    for got in (
        mech.quaternion_to_euler(to_backend(r.as_quat(), backend, dtype), convention),
        mech.rot_mat_to_euler(to_backend(r.as_matrix(), backend, dtype), convention),
    ):
        got = hd.to_numpy(got).astype(np.float64)
        assert np.all(np.isfinite(got))
        np.testing.assert_allclose(
            as_matrix(got, "euler", convention), r.as_matrix(), atol=2e-4 if dtype == "float32" else 3e-7
        )
        if dtype == "float64":  # float32 rounding moves the middle angle across scipy's 1e-7 threshold
            # within 1e-9 of the limit the first/third split is ill-conditioned: compare where it is not
            np.testing.assert_allclose(wrapped_difference(got, expected)[..., 1], 0.0, atol=1e-8)
            exact = np.isin(angles[:, 1], (0.0, np.pi, np.pi / 2, -np.pi / 2))  # the lock itself
            np.testing.assert_allclose(got[exact][:, 2], 0.0, atol=1e-12)  # the third angle, either case
            np.testing.assert_allclose(wrapped_difference(got[exact], expected[exact]), 0.0, atol=1e-7)


@pytest.mark.parametrize("dtype", DTYPES)
def test_axis_forms_match_numpy(backend, dtype):
    r = sample_rotations()
    aa = representation(r, "axis_angle")
    paa = representation(r, "polar_axis_angle")
    scale = 1.0 if dtype == "float64" else 30.0
    assert_close(mech.axis_angle_to_polar_axis_angle(to_backend(aa, backend, dtype)), paa, dtype, scale)
    assert_close(mech.polar_axis_angle_to_axis_angle(to_backend(paa, backend, dtype)), aa, dtype, scale)
    assert_close(mech.axis_angle_to_rot_vec(to_backend(aa, backend, dtype)), r.as_rotvec(), dtype, scale)
    assert_close(mech.rot_vec_to_axis_angle(to_backend(r.as_rotvec(), backend, dtype)), aa, dtype, scale)
    got = hd.to_numpy(mech.quaternion_to_axis_angle(to_backend(r.as_quat(), backend, dtype)))
    np.testing.assert_allclose(got[..., 3], aa[..., 3], atol=TOL[dtype]["atol"] * scale)
    # the axis is defined where the angle is not ~0
    defined = aa[..., 3] > 1e-3
    np.testing.assert_allclose(got[defined, :3], aa[defined, :3], atol=TOL[dtype]["atol"] * scale)
    np.testing.assert_array_equal(got[0], [0.0, 0.0, 1.0, 0.0])  # the identity: axis z by convention


# ---- round trips ----------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("rep", [r for r in REPRESENTATIONS if r != "rot_mat"])
def test_round_trips_through_matrix_and_quaternion(backend, rep, dtype):
    r = sample_rotations()
    convention = "YXZ" if rep == "euler" else "xyz"
    value = representation(r, rep, convention)
    keep = np.ones(len(value), bool)
    if rep in ("axis_angle", "polar_axis_angle", "rot_vec", "euler"):
        # at pi, (axis, pi) and (-axis, pi) are the same rotation: compare those as rotations
        keep = np.abs(np.linalg.norm(r.as_rotvec(), axis=-1) - np.pi) > 1e-3
    if rep == "euler":  # away from gimbal lock, where the angles are unique
        keep &= np.abs(np.abs(value[:, 1]) - np.pi / 2) > 1e-3
    x = to_backend(value, backend, dtype)
    scale = 1.0 if dtype == "float64" else 30.0
    for via in [v for v in ("rot_mat", "quaternion", "rot_vec") if v != rep]:
        back = convert(via, rep, convert(rep, via, x, convention), convention)
        got = hd.to_numpy(back).astype(np.float64)
        np.testing.assert_allclose(
            as_matrix(got, rep, convention), r.as_matrix(), atol=TOL[dtype]["atol"] * 30
        )
        if rep == "quaternion":
            assert_same_quaternion(back, value, dtype, scale)
        elif rep == "axis_angle":
            defined = keep & (value[:, 3] > 1e-3)
            np.testing.assert_allclose(got[defined], value[defined], atol=TOL[dtype]["atol"] * scale * 10)
        else:
            np.testing.assert_allclose(got[keep], value[keep], atol=TOL[dtype]["atol"] * scale * 10)


_angle = st.floats(-np.pi, np.pi, allow_nan=False)
_SUPPRESS = [*settings.default.suppress_health_check, HealthCheck.function_scoped_fixture]


@settings(suppress_health_check=_SUPPRESS)
@given(
    angles=st.tuples(_angle, st.one_of(_angle, st.sampled_from([0.0, np.pi / 2, -np.pi / 2, np.pi])), _angle),
    convention=st.sampled_from(CONVENTIONS),
)
def test_euler_round_trip_property(backend, angles, convention):
    """Any angles, gimbal lock included: Euler -> quaternion -> Euler is the same rotation as scipy's."""
    e = np.array(angles)
    expected = Rotation.from_euler(convention, e).as_matrix()
    q = mech.euler_to_quaternion(to_backend(e, backend, "float64"), convention)
    back = hd.to_numpy(mech.quaternion_to_euler(q, convention))
    np.testing.assert_allclose(as_matrix(back, "euler", convention), expected, atol=1e-9)
    scipy_angles = Rotation.from_euler(convention, e).as_euler(convention, suppress_warnings=True)
    if np.all(np.abs(wrapped_difference(scipy_angles, back)) < 1e-6):
        return
    # only at (or within rounding of) gimbal lock may the split between first and third angle differ
    assert np.min(np.abs(wrapped_difference(back[1], [0.0, np.pi, np.pi / 2, -np.pi / 2]))) < 1e-6


# ---- quaternion operations --------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
def test_quaternion_operations_match_scipy(backend, dtype):
    r1, r2 = Rotation.random(BATCH, random_state=1), Rotation.random(BATCH, random_state=2)
    q1, q2 = to_backend(r1.as_quat(), backend, dtype), to_backend(r2.as_quat(), backend, dtype)
    assert_close(mech.hamilton_product(q1, q2), (r1 * r2).as_quat(), dtype)
    assert_close(mech.inverse_quaternion(q1), r1.inv().as_quat(), dtype)
    assert_close(
        mech.inverse_quaternion(to_backend(2.0 * r1.as_quat(), backend, dtype)),
        r1.inv().as_quat() / 2.0,
        dtype,
    )
    assert_close(
        mech.normalize_quaternion(to_backend(-4.0 * r1.as_quat(), backend, dtype)), -r1.as_quat(), dtype
    )
    for scale in (0.0, 0.3, -1.7, 2.5):
        assert_same_quaternion(
            mech.scale_quaternion_rotation_angle(q1, scale), (r1**scale).as_quat(), dtype, 10
        )
    scales = np.linspace(-2, 2, BATCH)
    got = mech.scale_quaternion_rotation_angle(q1, to_backend(scales, backend, dtype))
    expected = np.stack([(r1[i] ** s).as_quat() for i, s in enumerate(scales)])
    assert_same_quaternion(got, expected, dtype, 10)
    # broadcasting of batch dimensions
    prod = mech.hamilton_product(q1[:, None, :], q2[None, :3, :])
    assert tuple(prod.shape) == (BATCH, 3, 4)
    assert_close(prod[4, 2], (r1[4] * r2[2]).as_quat(), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_slerp_matches_scipy(backend, dtype):
    r0, r1 = Rotation.random(BATCH, random_state=3), Rotation.random(BATCH, random_state=4)
    ts = np.linspace(0.0, 1.0, BATCH)
    expected = np.stack(
        [Slerp([0.0, 1.0], Rotation.concatenate([r0[i], r1[i]]))(t).as_quat() for i, t in enumerate(ts)]
    )
    q0, q1 = to_backend(r0.as_quat(), backend, dtype), to_backend(r1.as_quat(), backend, dtype)
    assert_same_quaternion(mech.slerp(q0, q1, to_backend(ts, backend, dtype)), expected, dtype, 10)
    assert_same_quaternion(mech.slerp(q0, q1, 0.0), r0.as_quat(), dtype, 10)
    assert_same_quaternion(mech.slerp(q0, q0, 0.7), r0.as_quat(), dtype, 10)  # no NaN on a zero arc


# ---- target facing -------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
def test_target_facing_rotation_matrix(backend, dtype):
    rng = np.random.default_rng(5)
    body, target = rng.normal(size=(BATCH, 3)), rng.normal(size=(BATCH, 3)) * 3.0
    rot = hd.to_numpy(
        mech.target_facing_rotation_matrix(
            to_backend(body, backend, dtype), to_backend(target, backend, dtype)
        )
    ).astype(np.float64)
    tol = 1e-4 if dtype == "float32" else 1e-12
    np.testing.assert_allclose(
        rot @ np.swapaxes(rot, -1, -2), np.broadcast_to(np.eye(3), rot.shape), atol=tol
    )
    np.testing.assert_allclose(np.linalg.det(rot), 1.0, atol=tol)
    np.testing.assert_allclose(rot[..., :, 2], unit(target - body), atol=tol)  # +z faces the target
    np.testing.assert_allclose(rot[..., 2, 0], 0.0, atol=tol)  # x is horizontal (world up is +z)
    assert np.all(rot[..., 2, 1] > 0)  # y leans up
    up = np.array([0.0, 1.0, 0.0])
    rot_y = hd.to_numpy(
        mech.target_facing_rotation_matrix(
            to_backend(body, backend, dtype),
            to_backend(target, backend, dtype),
            to_backend(up, backend, dtype),
        )
    )
    np.testing.assert_allclose(rot_y[..., 1, 0], 0.0, atol=tol)


# ---- random rotations ------------------------------------------------------------------------


def test_random_rotations_are_uniform_on_so3(backend):
    key = hd.random.key(7, backend=backend)
    q = mech.random_quaternion(4000, key=key, dtype=hd.float64)
    assert hd.backend_of(q) == backend
    q = hd.to_numpy(q)
    assert q.shape == (4000, 4)
    np.testing.assert_allclose(np.linalg.norm(q, axis=-1), 1.0, atol=1e-12)
    # the rotation angle of a Haar-random rotation has density (1 - cos t) / pi on [0, pi]
    angle = Rotation.from_quat(q).magnitude()
    assert stats.kstest(angle, lambda t: (t - np.sin(t)) / np.pi).pvalue > 1e-3
    # a rotated fixed vector is uniform on the sphere: each coordinate is uniform on [-1, 1]
    v = Rotation.from_quat(q).apply([0.0, 0.0, 1.0])
    for c in range(3):
        assert stats.kstest(v[:, c], stats.uniform(loc=-1, scale=2).cdf).pvalue > 1e-3
    # an explicit key makes the draw a pure function of it
    again = hd.to_numpy(mech.random_quaternion(4000, key=key, dtype=hd.float64))
    np.testing.assert_array_equal(q, again)
    other = hd.to_numpy(mech.random_quaternion(4000, key=hd.random.split(key)[0], dtype=hd.float64))
    assert not np.allclose(q, other)
    m = mech.random_rot_mat((2, 3), key=key, dtype=hd.float32)
    assert tuple(m.shape) == (2, 3, 3, 3) and m.dtype == hd.float32


# ---- batching, errors ----------------------------------------------------------------------


def test_unbatched_and_multi_batch_shapes(backend):
    r = Rotation.random(6, random_state=8)
    q = r.as_quat()
    single = mech.quaternion_to_euler(to_backend(q[0], backend, "float64"), "zyx")
    np.testing.assert_allclose(hd.to_numpy(single), r[0].as_euler("zyx"), atol=1e-12)
    batched = mech.quaternion_to_rot_mat(to_backend(q.reshape(2, 3, 4), backend, "float64"))
    np.testing.assert_allclose(hd.to_numpy(batched), r.as_matrix().reshape(2, 3, 3, 3), atol=1e-12)
    aa = mech.rot_mat_to_axis_angle(to_backend(r.as_matrix()[0], backend, "float64"))
    assert tuple(aa.shape) == (4,)


@pytest.mark.parametrize("bad", ["xy", "xyzx", "xXy", "xxy", "xyy", "abc", 3])
def test_invalid_conventions_raise(backend, bad):
    e = to_backend(np.zeros(3), backend, "float64")
    expected = hd.ArgumentTypeError if not isinstance(bad, str) else hd.InvalidArgumentError  # a wrong kind
    with pytest.raises(expected, match="euler_to_rot_mat: convention"):
        mech.euler_to_rot_mat(e, bad)
    with pytest.raises(expected, match="rot_mat_to_euler: convention"):
        mech.rot_mat_to_euler(to_backend(np.eye(3), backend, "float64"), bad)


def test_wrong_shapes_raise(backend):
    with pytest.raises(hd.ShapeError):
        mech.quaternion_to_rot_mat(to_backend(np.zeros(3), backend, "float64"))
    with pytest.raises(hd.ShapeError):
        mech.rot_mat_to_quaternion(to_backend(np.zeros((3, 4)), backend, "float64"))
    with pytest.raises(hd.ShapeError):
        mech.rot_vec_to_rot_mat(to_backend(np.zeros(4), backend, "float64"))
