"""hd.grad, value_and_grad, jacobian, vjp, jvp, vmap, stop_gradient, execute_with_gradients.

Each behaviour runs on every autodiff backend (the ``autodiff_backend``
fixture); numpy's refusals and its loop ``vmap`` are tested separately. The
functions differentiated are written with hedera's front (``hd.sum``,
``hd.sin``...), so the same code runs everywhere. Expected values are
analytic, computed with NumPy. Per-function gradients against finite
differences live in ``test_gradients_harness.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

import hedera as hd


def arr(backend: str, value, dtype=np.float64):
    return hd.asarray(np.asarray(value, dtype=dtype), backend=backend)


def npy(x):
    return np.asarray(hd.to_numpy(x))


def close(x, expected, rtol=1e-10, atol=1e-12):
    np.testing.assert_allclose(npy(x), np.asarray(expected, dtype=np.float64), rtol=rtol, atol=atol)


X = [0.5, -1.0, 2.0]


def cube_sum(x):
    return hd.sum(x**3)


# ---- gradients --------------------------------------------------------------------------------


def test_grad_value_and_grad(autodiff_backend):
    x = arr(autodiff_backend, X)
    close(hd.grad(cube_sum)(x), 3 * np.square(X))
    value, g = hd.value_and_grad(cube_sum)(x)
    close(value, np.sum(np.power(X, 3)))
    close(g, 3 * np.square(X))
    assert type(g) is type(x)


def test_gradient_keeps_dtype(autodiff_backend):
    x = arr(autodiff_backend, X, np.float32)
    g = hd.grad(cube_sum)(x)
    assert hd.dtype(g) == hd.float32
    close(g, 3 * np.square(X), rtol=1e-6)


def test_argnums_and_keyword_arguments(autodiff_backend):
    b = autodiff_backend

    def f(x, y, z, *, scale):
        return scale * hd.sum(x * y + z**2)

    x, y, z = arr(b, [1.0, 2.0]), arr(b, [3.0, 4.0]), arr(b, [5.0, 6.0])
    gx, gz = hd.grad(f, argnums=(0, 2))(x, y, z, scale=2.0)
    close(gx, [6.0, 8.0])
    close(gz, [20.0, 24.0])
    close(hd.grad(f, argnums=-2)(x, y, z, scale=1.0), [1.0, 2.0])


def test_has_aux_passes_aux_through(autodiff_backend):
    def f(x):
        y = x * 2
        return hd.sum(y), {"y": y, "note": "python values pass too"}

    x = arr(autodiff_backend, X)
    (value, aux), _ = hd.value_and_grad(f, has_aux=True)(x)
    close(value, 2 * np.sum(X))
    close(aux["y"], 2 * np.asarray(X))
    assert aux["note"] == "python values pass too"
    g2, aux2 = hd.grad(f, has_aux=True)(x)
    close(g2, [2.0, 2.0, 2.0])
    close(aux2["y"], 2 * np.asarray(X))


def test_nests_come_back_in_their_structure(autodiff_backend):
    b = autodiff_backend
    params = {
        "layers": [{"w": arr(b, [[1.0, 2.0]]), "b": arr(b, 0.5)}, (arr(b, [3.0]),)],
        "scale": arr(b, 2.0),
    }

    def loss(p):
        layer, (extra,) = p["layers"]
        return p["scale"] * (hd.sum(layer["w"] ** 2) + layer["b"] + hd.sum(extra))

    g = hd.grad(loss)(params)
    assert hd.tree.structure_equal(g, params)
    assert isinstance(g["layers"][1], tuple)
    close(g["layers"][0]["w"], [[4.0, 8.0]])
    close(g["layers"][0]["b"], 2.0)
    close(g["layers"][1][0], [2.0])
    close(g["scale"], 5.0 + 0.5 + 3.0)


def test_container_gradients(autodiff_backend):
    b = autodiff_backend
    params = hd.Container(w=arr(b, [1.0, -1.0]), inner={"b": arr(b, 3.0)})
    value, g = hd.execute_with_gradients(lambda p: hd.sum(p.w**2) * p.inner.b, params)
    assert isinstance(g, hd.Container)
    close(value, 6.0)
    close(g.w, [6.0, -6.0])
    close(g.inner.b, 2.0)


def test_complex_gradient_convention(autodiff_backend):
    # f(x + iy) = x**2 + y**2 + 3y: the gradient is df/dx + i df/dy on every backend (torch's and TF's
    # convention; jax's own is the conjugate), so that z - lr * grad descends
    z = hd.asarray(np.array([1.0 + 2.0j]), backend=autodiff_backend)
    g = hd.grad(lambda z: hd.sum(hd.real(z * hd.conj(z)) + 3 * hd.imag(z)))(z)
    np.testing.assert_allclose(npy(g), [2.0 + 7.0j])


def test_integer_arguments_outside_argnums(autodiff_backend):
    b = autodiff_backend
    idx = arr(b, [2, 0], np.int64)
    g = hd.grad(lambda x, i: hd.sum(hd.take(x, i)))(arr(b, X), idx)
    close(g, [1.0, 0.0, 1.0])


def test_second_order(autodiff_backend):
    x = arr(autodiff_backend, 1.5)
    f = lambda x: x**3
    close(hd.grad(hd.grad(f))(x), 6 * 1.5)
    close(hd.grad(hd.grad(hd.grad(f)))(x), 6.0)


@pytest.mark.parametrize("mode", ["reverse", "forward"])
def test_hessian_through_jacobian(autodiff_backend, mode):
    a = np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]])
    x = np.array([0.3, -0.2, 0.5])
    b = autodiff_backend
    a_b = arr(b, a)

    def f(x):
        return 0.5 * hd.sum(x * hd.matmul(a_b, x)) + hd.sum(hd.sin(x))

    hess = hd.jacobian(hd.grad(f), mode=mode)(arr(b, x))
    close(hess, a - np.diag(np.sin(x)))


@pytest.mark.parametrize("mode", ["reverse", "forward"])
def test_jacobian_of_nests(autodiff_backend, mode):
    b = autodiff_backend

    def f(x, y):
        return {"sum": x * y[0], "sq": x**2}

    x, y = arr(b, [1.0, 2.0]), (arr(b, 3.0),)
    jac = hd.jacobian(f, argnums=(0, 1), mode=mode)(x, y)
    assert set(jac) == {"sum", "sq"}
    d_sum_dx, (d_sum_dy0,) = jac["sum"]
    close(d_sum_dx, [[3.0, 0.0], [0.0, 3.0]])
    close(d_sum_dy0, [1.0, 2.0])
    close(jac["sq"][0], [[2.0, 0.0], [0.0, 4.0]])
    assert tuple(jac["sq"][1][0].shape) == (2,)
    single = hd.jacobian(lambda x: x**2, mode=mode)(x)
    close(single, [[2.0, 0.0], [0.0, 4.0]])


@pytest.mark.parametrize("mode", ["reverse", "forward"])
def test_jacobian_has_aux(autodiff_backend, mode):
    x = arr(autodiff_backend, [1.0, 2.0])
    jac, aux = hd.jacobian(lambda x: (x**2, {"n": 3, "s": hd.sum(x)}), mode=mode, has_aux=True)(x)
    close(jac, [[2.0, 0.0], [0.0, 4.0]])
    assert aux["n"] == 3
    close(aux["s"], 3.0)


def test_vjp_and_jvp_agree(autodiff_backend):
    b = autodiff_backend
    rng = np.random.default_rng(0)
    w = arr(b, rng.normal(size=(3, 2)))

    def f(x):
        return {"out": hd.tanh(hd.matmul(x, w)), "norm": hd.sum(x**2)}

    x = arr(b, rng.normal(size=(2, 3)))
    t = rng.normal(size=(2, 3))
    ct = {"out": rng.normal(size=(2, 2)), "norm": np.float64(0.7)}
    out, pullback = hd.vjp(f, x)
    (x_ct,) = pullback({k: arr(b, v) for k, v in ct.items()})
    out2, t_out = hd.jvp(f, (x,), (arr(b, t),))
    close(out["out"], out2["out"])
    lhs = np.sum(npy(x_ct) * t)
    rhs = np.sum(npy(t_out["out"]) * ct["out"]) + float(npy(t_out["norm"])) * 0.7
    np.testing.assert_allclose(lhs, rhs, rtol=1e-10)
    (again,) = pullback({k: arr(b, v) for k, v in ct.items()})  # the pullback may be reused
    close(again, npy(x_ct))


def test_vjp_jvp_has_aux(autodiff_backend):
    b = autodiff_backend
    x = arr(b, X)
    _, pullback, aux = hd.vjp(lambda x: (x * 2, {"aux": x + 1}), x, has_aux=True)
    close(aux["aux"], np.asarray(X) + 1)
    close(pullback(arr(b, [1.0, 1.0, 1.0]))[0], [2.0, 2.0, 2.0])
    _, t_out, aux = hd.jvp(lambda x: (x * 2, 5), (x,), (arr(b, [1.0, 0.0, 0.0]),), has_aux=True)
    close(t_out, [2.0, 0.0, 0.0])
    assert aux == 5


def test_stop_gradient(autodiff_backend):
    x = arr(autodiff_backend, X)
    g = hd.grad(lambda x: hd.sum(x * hd.stop_gradient(x)))(x)
    close(g, X)
    nest = hd.stop_gradient({"a": x, "b": [x]})
    close(nest["b"][0], X)


# ---- vmap -------------------------------------------------------------------------------------


def test_vmap_in_and_out_axes(backend):
    b = backend
    rng = np.random.default_rng(1)
    m, v = rng.normal(size=(4, 3)), rng.normal(size=(3, 5))
    out = hd.vmap(lambda row, w: hd.sum(row * w), in_axes=(0, None))(arr(b, m), arr(b, v[:, 0]))
    close(out, m @ v[:, 0])
    m5 = rng.normal(size=(5, 3))
    out = hd.vmap(lambda row, col: hd.sum(row * col), in_axes=(0, 1))(arr(b, m5), arr(b, v))
    close(out, np.einsum("ij,ji->i", m5, v))
    cols = hd.vmap(lambda col: col * 2, in_axes=1, out_axes=1)(arr(b, v))
    close(cols, 2 * v)
    const = hd.vmap(lambda row: hd.sum(arr(b, v)), out_axes=None)(arr(b, m))
    close(const, v.sum())


def test_vmap_nested_in_axes_and_outputs(backend):
    b = backend
    batch = {"x": arr(b, np.arange(6.0).reshape(2, 3)), "w": arr(b, [1.0, 2.0, 3.0])}

    def f(d):
        return {"dot": hd.sum(d["x"] * d["w"]), "x2": d["x"] * 2}

    out = hd.vmap(f, in_axes=({"x": 0, "w": None},))(batch)
    close(out["dot"], [8.0, 26.0])
    close(out["x2"], 2 * np.arange(6.0).reshape(2, 3))


def test_per_example_gradients(autodiff_backend):
    b = autodiff_backend
    rng = np.random.default_rng(2)
    w, xs = rng.normal(size=3), rng.normal(size=(5, 3))

    def loss(w, x):
        return hd.sum(hd.tanh(x * w))

    per_example = hd.vmap(hd.grad(loss), in_axes=(None, 0))(arr(b, w), arr(b, xs))
    expected = [xs[i] * (1 - np.tanh(xs[i] * w) ** 2) for i in range(5)]
    close(per_example, expected)
    summed = hd.grad(lambda w: hd.sum(hd.vmap(loss, in_axes=(None, 0))(w, arr(b, xs))))(arr(b, w))
    close(summed, np.sum(expected, axis=0))


# ---- numpy ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda x: hd.grad(cube_sum)(x),
        lambda x: hd.value_and_grad(cube_sum)(x),
        lambda x: hd.jacobian(lambda x: x * 2)(x),
        lambda x: hd.vjp(lambda x: x * 2, x),
        lambda x: hd.jvp(lambda x: x * 2, (x,), (x,)),
        lambda x: hd.execute_with_gradients(cube_sum, {"x": x}),
    ],
    ids=["grad", "value_and_grad", "jacobian", "vjp", "jvp", "execute_with_gradients"],
)
def test_numpy_has_no_autodiff(call):
    with pytest.raises(
        hd.NoAutodiffError, match=r"numpy has no automatic differentiation.*torch, jax or tensorflow"
    ):
        call(np.array(X))


def test_numpy_vmap_and_stop_gradient():
    x = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(hd.vmap(lambda r: r * 2, in_axes=1, out_axes=1)(x), x * 2)
    assert hd.stop_gradient(x) is x


# ---- errors -----------------------------------------------------------------------------------


def test_error_non_scalar_output(autodiff_backend):
    with pytest.raises(hd.ShapeError, match=r"scalar \(shape \(\)\), got shape \(3,\)"):
        hd.grad(lambda x: x * 2)(arr(autodiff_backend, X))


def test_error_integer_output(autodiff_backend):
    with pytest.raises(hd.DtypeError, match="real floating-point scalar"):
        hd.grad(lambda x: hd.astype(hd.sum(x), hd.int32))(arr(autodiff_backend, X))


def test_error_output_not_an_array(autodiff_backend):
    with pytest.raises(hd.NotAnArrayError, match="must return a scalar array"):
        hd.grad(lambda x: 1.0)(arr(autodiff_backend, X))


def test_error_has_aux_without_pair(autodiff_backend):
    with pytest.raises(hd.InvalidArgumentError, match=r"has_aux=True.*pair"):
        hd.grad(cube_sum, has_aux=True)(arr(autodiff_backend, X))


def test_error_argnums_out_of_range(autodiff_backend):
    x = arr(autodiff_backend, X)
    with pytest.raises(
        hd.InvalidArgumentError, match=r"argnums=2 is out of range for a call with 2 positional"
    ):
        hd.grad(lambda a, b: hd.sum(a * b), argnums=(0, 2))(x, x)
    with pytest.raises(hd.InvalidArgumentError, match="argnums"):
        hd.grad(cube_sum, argnums="x")


def test_error_non_array_leaf_names_its_path(autodiff_backend):
    params = {"w": arr(autodiff_backend, X), "b": 1.0}
    with pytest.raises(hd.NotAnArrayError, match=r"args\[0\]\['b'\] must be an array"):
        hd.grad(lambda p: hd.sum(p["w"]) + p["b"])(params)


def test_error_integer_leaf_names_its_path(autodiff_backend):
    params = {"w": arr(autodiff_backend, X), "n": arr(autodiff_backend, [1, 2], np.int64)}
    with pytest.raises(hd.DtypeError, match=r"args\[0\]\['n'\] has dtype"):
        hd.grad(lambda p: hd.sum(p["w"]))(params)


def test_error_mixed_backends_in_a_tree(autodiff_backend):
    other = "jax" if autodiff_backend != "jax" else "torch"
    from conftest import require_backend

    require_backend(other)
    params = {"a": arr(autodiff_backend, X), "b": arr(other, X)}
    with pytest.raises(hd.BackendMismatchError, match=r"args\[0\]\['a'\] is .*args\[0\]\['b'\] is"):
        hd.grad(lambda p: hd.sum(p["a"]))(params)


def test_error_bad_jacobian_mode():
    with pytest.raises(hd.InvalidArgumentError, match="mode must be 'reverse' or 'forward'"):
        hd.jacobian(cube_sum, mode="sideways")


def test_error_vjp_cotangent_shape(autodiff_backend):
    _, pullback = hd.vjp(lambda x: x * 2, arr(autodiff_backend, X))
    with pytest.raises(hd.ShapeError, match="cotangent has shape"):
        pullback(arr(autodiff_backend, [1.0, 2.0]))


def test_error_jvp_tangent_mismatch(autodiff_backend):
    b = autodiff_backend
    with pytest.raises(hd.ShapeError, match="tangent has shape"):
        hd.jvp(lambda x: x, (arr(b, X),), (arr(b, [1.0]),))
    with pytest.raises(hd.InvalidArgumentError, match="tangents have structure"):
        hd.jvp(lambda x: x, (arr(b, X),), ({"t": arr(b, X)},))


def test_error_vmap_arguments(backend):
    x = arr(backend, np.ones((3, 2)))
    with pytest.raises(hd.ShapeError, match=r"batch sizes differ.*args\[0\] has 3.*args\[1\] has 2"):
        hd.vmap(lambda a, b: a)(x, arr(backend, np.ones((2, 2))))
    with pytest.raises(hd.InvalidArgumentError, match="in_axes has 1 entries but f was called with 2"):
        hd.vmap(lambda a, b: a, in_axes=(0,))(x, x)
    with pytest.raises(hd.InvalidAxisError, match="in_axes=2 is out of range"):
        hd.vmap(lambda a: a, in_axes=2)(x)
    with pytest.raises(hd.InvalidArgumentError, match="maps no argument"):
        hd.vmap(lambda a: a, in_axes=None)(x)
    with pytest.raises(hd.NotAnArrayError, match=r"args\[1\] must be an array"):
        hd.vmap(lambda a, s: a * s)(x, 2.0)
    assert tuple(hd.vmap(lambda a, s: a * s, in_axes=(0, None))(x, 2.0).shape) == (3, 2)
