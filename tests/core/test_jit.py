"""hd.jit: compiled results equal eager ones, no retracing, no graph breaks, static arguments.

torch tests compile with dynamo's ``"eager"`` backend or a ``CompileCounter``
(dynamo traces the same graph; only inductor's code generation is skipped), and
one test uses the default inductor backend end to end.
"""

from __future__ import annotations

import numpy as np
import pytest

import hedera as hd
from conftest import require_backend


def npy(x):
    return np.asarray(hd.to_numpy(x))


def arr(backend, value, dtype=np.float64):
    return hd.asarray(np.asarray(value, dtype=dtype), backend=backend)


EAGER_TORCH = {"torch": {"backend": "eager", "fullgraph": True}}


# ---- composite functions: compiled == eager ------------------------------------------------------


def mlp(params, x):
    h = hd.tanh(x @ params["w1"] + params["b1"])
    return h @ params["w2"] + params["b2"]


def cross_entropy(params, x, labels):
    logits = mlp(params, x)
    logp = logits - hd.logsumexp(logits, axis=-1, keepdims=True)
    return -hd.mean(hd.sum(hd.one_hot(labels, 3, dtype=logp.dtype) * logp, axis=-1))


def linear_algebra(a, b, eye):
    x = hd.linalg.solve(a @ hd.matrix_transpose(a) + eye, b)
    return hd.linalg.det(a) * hd.sum(x**2) + hd.linalg.vector_norm(hd.cumulative_sum(b, axis=0))


def reductions(x):
    y = hd.where(x > 0, hd.sqrt(hd.abs(x)), hd.exp(x))
    return hd.stack([hd.max(y, axis=0), hd.min(y, axis=0), hd.std(y, axis=0), hd.sort(y, axis=0)[1]])


def _params(backend):
    rng = np.random.default_rng(0)
    shapes = {"w1": (4, 8), "b1": (8,), "w2": (8, 3), "b2": (3,)}
    return {k: arr(backend, rng.normal(size=s)) for k, s in shapes.items()}


def _cases(backend):
    rng = np.random.default_rng(1)
    params, x = _params(backend), arr(backend, rng.normal(size=(5, 4)))
    labels = arr(backend, [0, 2, 1, 1, 0], np.int64)
    a, b = arr(backend, rng.normal(size=(3, 3))), arr(backend, rng.normal(size=(3, 2)))
    return {
        "mlp": (mlp, (params, x)),
        "cross_entropy": (cross_entropy, (params, x, labels)),
        "linear_algebra": (linear_algebra, (a, b, arr(backend, np.eye(3)))),
        "reductions": (reductions, (x,)),
    }


@pytest.mark.parametrize("name", ["mlp", "cross_entropy", "linear_algebra", "reductions"])
def test_compiled_equals_eager(backend, name):
    fn, args = _cases(backend)[name]
    compiled = hd.jit(fn, backend_options=EAGER_TORCH)
    expected = npy(fn(*args))
    for _ in range(2):
        np.testing.assert_allclose(npy(compiled(*args)), expected, rtol=1e-10, atol=1e-12)


def test_torch_inductor_end_to_end():
    require_backend("torch")
    fn, args = _cases("torch")["cross_entropy"]
    compiled = hd.jit(fn, backend_options={"torch": {"fullgraph": True}})
    np.testing.assert_allclose(npy(compiled(*args)), npy(fn(*args)), rtol=1e-10)
    grads = hd.jit(hd.grad(fn), backend_options={"torch": {"fullgraph": True}})(*args)
    expected = hd.grad(fn)(*args)
    for k in expected:
        np.testing.assert_allclose(npy(grads[k]), npy(expected[k]), rtol=1e-8, atol=1e-12)


def test_numpy_runs_f_itself():
    jitted = hd.jit(mlp)
    assert jitted.compiled_for("numpy") is mlp
    params, x = _params("numpy"), np.ones((2, 4))
    np.testing.assert_array_equal(jitted(params, x), mlp(params, x))


# ---- tracing and graph breaks -------------------------------------------------------------------


class Traces:
    """Counts traces: Python side effects run once per trace under jax.jit and tf.function;
    for torch.compile, a dynamo CompileCounter backend counts compiled frames."""

    def __init__(self, backend):
        self.backend = backend
        self.python = 0
        self.options = {}
        if backend == "torch":
            from torch._dynamo.testing import CompileCounter

            self.counter = CompileCounter()
            self.options = {"torch": {"backend": self.counter, "fullgraph": True}}

    def tick(self):
        if self.backend != "torch":  # under dynamo a mutated counter would be guarded on: a retrace
            self.python += 1

    @property
    def count(self):
        return self.counter.frame_count if self.backend == "torch" else self.python


@pytest.mark.parametrize("b", ["torch", "jax", "tensorflow"])
def test_no_retracing_for_the_same_shapes(b):
    require_backend(b)
    traces = Traces(b)

    def f(w, x):
        traces.tick()
        return hd.sum(hd.tanh(hd.matmul(x, w)) ** 2)

    compiled = hd.jit(f, backend_options=traces.options)
    w = arr(b, np.ones((3,)))
    for seed in range(4):  # new values, same shapes and dtypes
        compiled(w, arr(b, np.random.default_rng(seed).normal(size=(2, 3))))
    assert traces.count == 1
    if b != "torch":  # torch may mark the new size dynamic instead of specialising
        compiled(w, arr(b, np.ones((5, 3))))
        assert traces.count == 2


def test_no_graph_breaks_under_torch_fullgraph():
    require_backend("torch")
    import torch

    w, x = arr("torch", np.ones((3,))), arr("torch", np.ones((2, 3)))

    def f(w, x):
        return hd.sum(hd.tanh(hd.matmul(x, w)) ** 2)

    explanation = torch._dynamo.explain(f)(w, x)
    assert explanation.graph_break_count == 0
    assert explanation.graph_count == 1
    for transform in (hd.grad(f), hd.vmap(f, in_axes=(None, 0))):
        torch._dynamo.reset()
        explanation = torch._dynamo.explain(transform)(w, x)
        assert explanation.graph_break_count == 0, explanation.break_reasons
    compiled = torch.compile(f, fullgraph=True, backend="eager")
    np.testing.assert_allclose(npy(compiled(w, x)), npy(f(w, x)))


@pytest.mark.parametrize("b", ["torch", "jax", "tensorflow"])
def test_static_arguments(b):
    require_backend(b)
    traces = Traces(b)

    def f(x, n, *, mode):
        traces.tick()
        y = x
        for _ in range(n):  # Python control flow on static arguments
            y = y * 2 if mode == "double" else y + 1
        return y

    compiled = hd.jit(f, static_argnums=1, static_argnames="mode", backend_options=traces.options)
    x = arr(b, [1.0, 2.0])
    np.testing.assert_array_equal(npy(compiled(x, 3, mode="double")), [8.0, 16.0])
    np.testing.assert_array_equal(npy(compiled(x, 3, mode="double")), [8.0, 16.0])
    assert traces.count == 1
    np.testing.assert_array_equal(npy(compiled(x, 2, mode="add")), [3.0, 4.0])
    assert traces.count == 2


# ---- composition and dispatch ---------------------------------------------------------------------


def test_jit_composes_with_grad(autodiff_backend):
    b = autodiff_backend
    fn, args = _cases(b)["cross_entropy"]
    expected = hd.grad(fn)(*args)
    for compiled in (
        hd.jit(hd.grad(fn), backend_options=EAGER_TORCH),
        hd.grad(hd.jit(fn, backend_options={"torch": {"backend": "eager"}})),
    ):
        got = compiled(*args)
        for k in expected:
            np.testing.assert_allclose(npy(got[k]), npy(expected[k]), rtol=1e-9, atol=1e-12)


def test_jit_of_vmap_of_grad(autodiff_backend):
    b = autodiff_backend
    rng = np.random.default_rng(3)
    w, xs = arr(b, rng.normal(size=3)), arr(b, rng.normal(size=(4, 3)))

    def loss(w, x):
        return hd.sum(hd.sin(x * w))

    per_example = hd.vmap(hd.grad(loss), in_axes=(None, 0))
    np.testing.assert_allclose(
        npy(hd.jit(per_example, backend_options=EAGER_TORCH)(w, xs)), npy(per_example(w, xs)), rtol=1e-10
    )


def test_one_function_compiles_per_backend():
    require_backend("torch")
    require_backend("jax")
    compiled = hd.jit(mlp, backend_options=EAGER_TORCH)
    out_torch = compiled(_params("torch"), arr("torch", np.ones((2, 4))))
    out_jax = compiled(_params("jax"), arr("jax", np.ones((2, 4))))
    assert hd.backend_of(out_torch) == "torch" and hd.backend_of(out_jax) == "jax"
    np.testing.assert_allclose(npy(out_torch), npy(out_jax), rtol=1e-10)
    assert compiled.compiled_for("torch") is not compiled.compiled_for("jax")


def test_calls_without_arrays_run_on_the_current_backend(backend):
    compiled = hd.jit(lambda n: hd.ones((n,)) * 2, static_argnums=0, backend_options=EAGER_TORCH)
    with hd.use_backend(backend):
        out = compiled(3)
    assert hd.backend_of(out) == backend
    np.testing.assert_array_equal(npy(out), [2.0, 2.0, 2.0])


def test_decorator_forms(backend):
    @hd.jit
    def double(x):
        return x * 2

    @hd.jit(static_argnums=1)
    def power(x, n):
        return x**n

    x = arr(backend, [1.0, 2.0])
    np.testing.assert_array_equal(npy(double(x)), [2.0, 4.0])
    np.testing.assert_array_equal(npy(power(x, 3)), [1.0, 8.0])
    assert double.__name__ == "double"


def test_tensorflow_xla():
    require_backend("tensorflow")
    fn, args = _cases("tensorflow")["mlp"]
    np.testing.assert_allclose(npy(hd.jit(fn, jit_compile=True)(*args)), npy(fn(*args)), rtol=1e-10)


def test_tensorflow_autograph_converts_user_code_not_hedera():
    require_backend("tensorflow")

    def f(x):
        if hd.sum(x) > 0:  # a tensor condition: needs AutoGraph inside tf.function
            return hd.sum(x**2)
        return -hd.sum(x)

    x = arr("tensorflow", [1.0, 2.0])
    np.testing.assert_allclose(npy(hd.jit(f)(x)), 5.0)
    np.testing.assert_allclose(npy(hd.jit(hd.grad(f))(x)), [2.0, 4.0])
    np.testing.assert_allclose(npy(hd.jit(hd.grad(f))(-x)), [-1.0, -1.0])


def test_hedera_errors_keep_their_class_inside_compiled_code(autodiff_backend):
    x = arr(autodiff_backend, np.ones((2, 3)))
    with pytest.raises(hd.InvalidAxisError):
        hd.jit(lambda x: hd.sum(x, axis=5), backend_options={"torch": {"backend": "eager"}})(x)


def test_errors():
    require_backend("torch")
    with pytest.raises(hd.InvalidArgumentError, match="static_argnums must be an int or a tuple of ints"):
        hd.jit(mlp, static_argnums="x")
    with pytest.raises(hd.InvalidArgumentError, match="must be callable"):
        hd.jit(3)
    with pytest.raises(hd.BackendMismatchError, match=r"args\[0\] is torch, args\[1\] is numpy"):
        hd.jit(lambda a, b: a)(arr("torch", [1.0]), np.ones(1))


# ---- the per-call path --------------------------------------------------------------------------


def test_repeated_calls_reuse_the_compiled_function_for_every_kind_of_signature(backend):
    """Array/scalar signatures are remembered by type, nests are walked: all give eager results."""

    def f(x, p, *, scale, n=1):
        return {"y": x * scale + p["a"] * n, "z": [p["b"][0] + 1.0]}

    compiled = hd.jit(f, static_argnames="n", backend_options=EAGER_TORCH)
    x, a, b = arr(backend, [1.0, 2.0]), arr(backend, [3.0, 4.0]), arr(backend, [5.0, 6.0])
    for n in (1, 1, 2, 2):
        for scale in (2.0, arr(backend, 2.0)):
            out = compiled(x, {"a": a, "b": (b,)}, scale=scale, n=n)
            np.testing.assert_allclose(npy(out["y"]), [2.0 + 3.0 * n, 4.0 + 4.0 * n])
            np.testing.assert_allclose(npy(out["z"][0]), [6.0, 7.0])


def test_containers_and_namedtuples_find_their_backend(backend):
    from collections import namedtuple

    Pair = namedtuple("Pair", "w b")
    compiled = hd.jit(lambda c, p: c["w"] * p.w + p.b, backend_options=EAGER_TORCH)
    w = arr(backend, [1.0, 2.0])
    for _ in range(2):
        out = compiled(hd.Container(w=w), Pair(w, 1.0))
        assert hd.backend_of(out) == backend
        np.testing.assert_allclose(npy(out), [2.0, 5.0])


def test_mixed_backends_raise_after_a_remembered_signature():
    """A call that mixes backends raises naming the arguments, also where a pure one was cached."""
    require_backend("torch")
    t, n = arr("torch", [1.0]), np.ones(1)
    compiled = hd.jit(lambda a, b=None, *, c=None: a, backend_options=EAGER_TORCH)
    compiled(t, t, c=t)
    compiled(t, {"x": t})
    with pytest.raises(hd.BackendMismatchError, match=r"args\[0\] is torch, args\[1\] is numpy"):
        compiled(t, n)
    with pytest.raises(hd.BackendMismatchError, match=r"args are torch, kwargs are numpy"):
        compiled(t, t, c=n)
    with pytest.raises(hd.BackendMismatchError, match=r"args\[0\] is torch, args\[1\]\['x'\] is numpy"):
        compiled(t, {"x": n})
    with pytest.raises(hd.BackendMismatchError, match=r"args\[0\]\[0\] is torch"):
        compiled([t, hd.Container(x=n)])
    compiled({f"w{i}": t for i in range(10)})  # many arrays of one type: checked in one go
    with pytest.raises(hd.BackendMismatchError, match=r"args\[0\]\['w9'\] is numpy"):
        compiled({f"w{i}": t if i < 9 else n for i in range(10)})
    with pytest.raises(hd.BackendMismatchError, match=r"args\[0\]\[0\] is torch, args\[1\]\[0\] is numpy"):
        compiled([t] * 10, [n] * 10)


def test_calls_without_arrays_follow_the_current_backend_on_every_call():
    require_backend("jax")
    compiled = hd.jit(lambda n: hd.ones((n,)), static_argnums=0)
    for name in ("numpy", "jax", "numpy"):
        with hd.use_backend(name):
            assert hd.backend_of(compiled(2)) == name


def test_jax_traces_once_per_function_across_jit_objects():
    """As ``jax.jit(f)(x)`` in a loop traces once, so does ``hd.jit(f)(x)``; ``f`` is not kept alive."""
    require_backend("jax")
    import gc
    import weakref

    traces = []

    def f(x):
        traces.append(1)
        return x * 2

    x = arr("jax", [1.0])
    for _ in range(3):
        np.testing.assert_array_equal(npy(hd.jit(f)(x)), [2.0])
    assert len(traces) == 1
    ref = weakref.ref(f)
    del f
    gc.collect()
    assert ref() is None


def test_jax_jit_of_a_callable_without_weakrefs():
    require_backend("jax")

    class Scale:
        __slots__ = ("k",)

        def __init__(self, k):
            self.k = k

        def __call__(self, x):
            return x * self.k

    np.testing.assert_array_equal(npy(hd.jit(Scale(3.0))(arr("jax", [1.0]))), [3.0])


def test_stateful_random_raises_inside_jit_on_every_call_path(backend):
    """The in-jit flag is set for every backend, whatever path the call takes (nests, scalars)."""
    f = hd.jit(lambda p, s: p["x"] + s * hd.random.normal(p["x"].shape))
    with pytest.raises(hd.InvalidArgumentError, match=r"stateful call \(no key=\) inside hd.jit"):
        f({"x": arr(backend, [0.0])}, 1.0)


# ---- the C call path (hedera._fastfront.JitCall): positional arrays of one type, no keywords -----


def test_the_fast_call_path_keeps_every_check_after_a_remembered_signature():
    """Once ``f(t, t)`` is remembered for the C path, calls of other signatures still take the
    checks: keywords of another backend, positional arrays of two backends, nests."""
    require_backend("torch")
    t, n = arr("torch", [1.0]), np.ones(1)
    compiled = hd.jit(lambda a, b, c=None: a + b, backend_options=EAGER_TORCH)
    for _ in range(2):
        np.testing.assert_array_equal(npy(compiled(t, t)), [2.0])
    with pytest.raises(hd.BackendMismatchError, match=r"args are torch, kwargs are numpy"):
        compiled(t, t, c=n)
    with pytest.raises(hd.BackendMismatchError, match=r"args\[0\] is torch, args\[1\] is numpy"):
        compiled(t, n)
    with pytest.raises(hd.BackendMismatchError, match=r"args\[0\] is torch, args\[1\]\[0\] is numpy"):
        compiled(t, [n])
    np.testing.assert_array_equal(npy(compiled(t, t, c=t)), [2.0])
    np.testing.assert_array_equal(npy(compiled(n, n)), [2.0])  # another backend: its own function
    np.testing.assert_array_equal(npy(compiled(t, t)), [2.0])


@pytest.mark.parametrize("b", ["numpy", "torch", "jax", "tensorflow"])
def test_alternating_backends_each_get_their_compiled_function(b):
    require_backend(b)
    compiled = hd.jit(lambda x, y: x * y + 1.0, backend_options=EAGER_TORCH)
    x, n = arr(b, [2.0, 3.0]), np.array([2.0, 3.0])
    for _ in range(3):
        out = compiled(x, x)
        assert hd.backend_of(out) == b
        np.testing.assert_array_equal(npy(out), [5.0, 10.0])
        assert type(compiled(n, n)) is np.ndarray


def test_the_fast_call_path_sets_the_in_jit_flag_around_each_call():
    """numpy runs ``f`` on every call: the flag is seen set inside and reset after, on the C path."""
    from hedera.jit import in_jit

    seen = []

    def f(x, y):
        seen.append(in_jit.get())
        return x + y

    compiled = hd.jit(f)
    x = np.ones(2)
    for _ in range(3):
        compiled(x, x)
        assert in_jit.get() is False
    assert seen == [True, True, True]
    draw = hd.jit(lambda x: x + hd.random.normal(x.shape))
    for _ in range(3):  # the stateful-random check, on the first call's path and on the C path
        with pytest.raises(hd.InvalidArgumentError, match=r"stateful call \(no key=\) inside hd.jit"):
            draw(x)
        assert in_jit.get() is False


def test_the_fast_call_path_raises_the_eager_hedera_error_on_torch():
    """torch.compile reports errors its own way; the C path hands them to the same diagnosis as
    the Python path, which raises the hedera error of the eager call, chained to torch's."""
    require_backend("torch")
    compiled = hd.jit(lambda x, y: hd.sum(x, axis=x.ndim + 3) + y, backend_options=EAGER_TORCH)
    x = arr("torch", np.ones((2, 3)))
    for _ in range(3):
        with pytest.raises(hd.InvalidAxisError) as caught:
            compiled(x, x)
    assert caught.value.__context__ is not None or caught.value.__cause__ is not None


def test_static_arguments_and_methods_do_not_take_the_fast_call_path():
    require_backend("jax")
    traces = []

    def scaled(x, k):
        traces.append(k)
        return x * k

    compiled = hd.jit(scaled, static_argnums=1)
    x = arr("jax", [1.0])
    for k in (2, 2, 3):
        np.testing.assert_array_equal(npy(compiled(x, k)), [float(k)])
    assert traces == [2, 3]

    class Model:
        k = 4.0

        @hd.jit
        def apply(self, x):
            return x * self.k

    for _ in range(2):  # (a numpy array: jax would need the instance declared static)
        np.testing.assert_array_equal(Model().apply(np.ones(1)), [4.0])


def test_jitted_objects_are_collected_with_their_compiled_functions():
    """The C path's references (type, compiled function, flag, diagnose) are visited by the GC."""
    import gc
    import weakref

    compiled = hd.jit(lambda x: x + 1.0)
    compiled(np.ones(1))
    compiled(np.ones(1))
    compiled.cycle = compiled  # a reference cycle through the instance dict
    ref = weakref.ref(compiled)
    del compiled
    gc.collect()
    assert ref() is None


def test_remembered_signatures_run_in_c_without_the_python_call():
    """With the extension, a remembered signature's call does not enter ``Jitted._call`` (the C
    base looks it up on the instance: replaced here by one that counts)."""
    from hedera import _fastpath

    if not _fastpath.enabled():
        pytest.skip("pure-Python fallback (HEDERA_PURE_PYTHON=1 or no C extension): no C call path")
    compiled = hd.jit(lambda x, y, scale=1.0: (x + y) * scale)
    x = np.ones(2)
    compiled(x, x)
    python_calls = []

    def counted(*args, **kwargs):
        python_calls.append(len(args))
        return type(compiled)._call(compiled, *args, **kwargs)

    compiled._call = counted
    np.testing.assert_array_equal(compiled(x, x), [2.0, 2.0])
    assert python_calls == []
    np.testing.assert_array_equal(compiled(x, x, scale=2.0), [4.0, 4.0])  # keywords: Python
    np.testing.assert_array_equal(compiled(x, 1.0), [2.0, 2.0])  # two types: Python
    assert python_calls == [2, 2]
