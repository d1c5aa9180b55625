"""hd.optim's Adam and AdamW on TensorFlow run ``hd.nn_ops.fused_adam`` (hedera's formula in fewer
ops): their steps match torch.optim's within the tolerances of tests/optim/test_optim.py, eagerly, in
a ``tf.function`` and under ``hd.jit`` (with donation: ``ResourceApplyAdam`` in place on the
variables, equal to the other paths bit for bit); ``step`` equals ``update`` bit for bit; under a
gradient tape the door returns None and the (differentiable) stages run.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

import hedera as hd

tf = pytest.importorskip("tensorflow")

RNG = np.random.default_rng(12)
SHAPES = {"w": (6, 5), "b": (5,), "k": (2, 3, 4)}
PARAMS = {k: RNG.normal(size=s) for k, s in SHAPES.items()}
GRADS = [{k: RNG.normal(size=s) for k, s in SHAPES.items()} for _ in range(5)]

CASES = {
    "adam": (lambda: hd.optim.Adam(0.01), lambda p: torch.optim.Adam(p, lr=0.01)),
    "adam_wd_amsgrad": (
        lambda: hd.optim.Adam(0.01, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.1, amsgrad=True),
        lambda p: torch.optim.Adam(p, lr=0.01, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.1, amsgrad=True),
    ),
    "adamw": (
        lambda: hd.optim.AdamW(0.02, weight_decay=0.5),
        lambda p: torch.optim.AdamW(p, lr=0.02, weight_decay=0.5),
    ),
    "adamw_amsgrad": (
        lambda: hd.optim.AdamW(0.01, amsgrad=True),
        lambda p: torch.optim.AdamW(p, lr=0.01, amsgrad=True),
    ),
}
#: test_optim.py's tolerances: float64 (assert_steps_close) and float32
TOLERANCES = {"float64": {"rtol": 1e-10, "atol": 1e-12}, "float32": {"rtol": 1e-5, "atol": 1e-6}}
NP_DTYPES = {"float32": np.float32, "float64": np.float64}
TORCH_DTYPES = {"float32": torch.float32, "float64": torch.float64}


def torch_steps(make, dtype: str) -> list[dict]:
    params = {k: torch.nn.Parameter(torch.tensor(v, dtype=TORCH_DTYPES[dtype])) for k, v in PARAMS.items()}
    opt = make(list(params.values()))
    out = []
    for g in GRADS:
        for k, p in params.items():
            p.grad = torch.tensor(g[k], dtype=TORCH_DTYPES[dtype])
        opt.step()
        out.append({k: p.detach().numpy().copy() for k, p in params.items()})
    return out


def tf_tree(flat: dict, dtype: str) -> hd.Container:
    return hd.Container({k: tf.constant(v.astype(NP_DTYPES[dtype])) for k, v in flat.items()})


def run_updates(update, dtype: str) -> list[dict]:
    params = tf_tree(PARAMS, dtype)
    state = None
    out = []
    for g in GRADS:
        params, state = update(tf_tree(g, dtype), state, params)
        out.append({k: hd.to_numpy(params[k]) for k in SHAPES})
    return out


def assert_close(got: list[dict], expected: list[dict], dtype: str, what: str) -> None:
    for i, (g, e) in enumerate(zip(got, expected, strict=True)):
        for k in SHAPES:
            assert g[k].dtype == NP_DTYPES[dtype]
            np.testing.assert_allclose(g[k], e[k], **TOLERANCES[dtype], err_msg=f"{what}: step {i + 1}, {k}")


def functional(opt):
    def update(grads, state, params):
        return opt.update(grads, opt.init(params) if state is None else state, params)

    return update


@pytest.mark.parametrize("dtype", sorted(NP_DTYPES))
@pytest.mark.parametrize("case", sorted(CASES))
def test_eager_traced_and_jitted_updates_match_torch_optim(case, dtype):
    make_hd, make_torch = CASES[case]
    expected = torch_steps(make_torch, dtype)
    opt = make_hd()
    assert_close(run_updates(functional(opt), dtype), expected, dtype, "eager")
    traced = tf.function(opt.update)
    init = tf.function(opt.init)
    assert_close(
        run_updates(lambda g, s, p: traced(g, init(p) if s is None else s, p), dtype),
        expected,
        dtype,
        "tf.function",
    )
    jitted = hd.jit(opt.update)
    assert_close(
        run_updates(lambda g, s, p: jitted(g, opt.init(p) if s is None else s, p), dtype),
        expected,
        dtype,
        "hd.jit",
    )


@pytest.mark.parametrize("case", sorted(CASES))
def test_step_equals_update_bit_for_bit(case):
    make_hd, _ = CASES[case]
    functional_opt, stateful = make_hd(), make_hd()
    params = tf_tree(PARAMS, "float32")
    state = functional_opt.init(params)
    model = hd.nn.Module()
    for k, v in tf_tree(PARAMS, "float32").items():
        model.register_parameter(k, v)
    for g in GRADS:
        grads = tf_tree(g, "float32")
        params, state = functional_opt.update(grads, state, params)
        stateful.step(model, grads)
        for k in SHAPES:
            a, b = hd.to_numpy(params[k]), hd.to_numpy(model.parameters()[k])
            np.testing.assert_array_equal(a.view(np.int32), b.view(np.int32), err_msg=k)


def door_args(backend_dtype=None):
    dt = tf.float32 if backend_dtype is None else backend_dtype
    p = [tf.ones((3, 2), dt), tf.ones((4,), dt)]
    g = [tf.fill((3, 2), tf.constant(0.5, dt)), tf.fill((4,), tf.constant(-0.5, dt))]
    zeros = [tf.zeros_like(x) for x in p]
    return (
        p,
        g,
        zeros,
        list(zeros),
        None,
        tf.constant(1, tf.int32),
        0.1,
        0.9,
        0.999,
        1e-8,
        0.0,
        False,
        True,
        True,
    )


def test_the_door_runs_eagerly_and_in_a_trace_but_not_under_a_tape_or_for_half_floats():
    out = hd.nn_ops.fused_adam(*door_args())
    assert out is not None
    # Adam's first step moves every element by lr against the gradient's sign
    np.testing.assert_allclose(out[0][0].numpy(), 0.9, rtol=1e-6)
    np.testing.assert_allclose(out[0][1].numpy(), 1.1, rtol=1e-6)

    ran = []

    @tf.function
    def traced():
        result = hd.nn_ops.fused_adam(*door_args())
        ran.append(result is not None)
        return result[0] if result is not None else []

    np.testing.assert_allclose(traced()[0].numpy(), 0.9, rtol=1e-6)
    assert ran == [True]
    with tf.GradientTape():  # the update may be differentiated: the stages run
        assert hd.nn_ops.fused_adam(*door_args()) is None
    assert hd.nn_ops.fused_adam(*door_args(tf.float16)) is None  # the stages compute in float16
    mixed = door_args()
    mixed[1][1] = tf.cast(mixed[1][1], tf.float64)
    assert hd.nn_ops.fused_adam(*mixed) is None


def test_adam_stays_differentiable_through_the_stages_on_tensorflow():
    """Under hd.grad (a gradient tape) the door returns None and the stages' update is differentiated."""
    opt = hd.optim.Adam(0.1)
    grads = hd.Container(w=tf.constant(np.full(3, 2.0)))

    def moved(w):
        params = hd.Container(w=w)
        new, _ = opt.update(grads, opt.init(params), params)
        return hd.sum(new["w"])

    # the first step moves w by -lr * sign(g), a constant: d/dw sum(new w) is 1 per element
    got = hd.grad(moved)(tf.constant(np.ones(3)))
    np.testing.assert_allclose(hd.to_numpy(got), np.ones(3), rtol=1e-12)


@pytest.mark.parametrize("dtype", sorted(NP_DTYPES))
def test_a_warm_up_from_a_zero_learning_rate_matches_torch_optim(dtype):
    """A warm-up schedule starts at lr = 0, and a feature that is always 0 has a zero gradient
    (v = 0): the kernel must not divide by lr there (it gave 0 * inf = NaN)."""
    schedule = hd.optim.linear_warmup(0.01, 3)
    rates = [float(schedule(i)) for i in range(len(GRADS))]
    grads = [{k: v.copy() for k, v in g.items()} for g in GRADS]
    for g in grads:
        g["w"][0] = 0.0
    assert rates[0] == 0.0
    params = {k: torch.nn.Parameter(torch.tensor(v, dtype=TORCH_DTYPES[dtype])) for k, v in PARAMS.items()}
    reference = torch.optim.Adam(list(params.values()), lr=rates[0])
    expected = []
    for lr, g in zip(rates, grads, strict=True):
        reference.param_groups[0]["lr"] = lr
        for k, p in params.items():
            p.grad = torch.tensor(g[k], dtype=TORCH_DTYPES[dtype])
        reference.step()
        expected.append({k: p.detach().numpy().copy() for k, p in params.items()})
    opt = hd.optim.Adam(schedule)
    params_tf, state, got = tf_tree(PARAMS, dtype), None, []
    for g in grads:
        params_tf, state = functional(opt)(tf_tree(g, dtype), state, params_tf)
        got.append({k: hd.to_numpy(params_tf[k]) for k in SHAPES})
    np.testing.assert_array_equal(got[0]["w"], PARAMS["w"].astype(NP_DTYPES[dtype]))  # lr 0: unchanged
    assert_close(got, expected, dtype, "warm-up")


def donated_update(opt):
    """``opt.update`` under ``hd.jit(..., donate_argnums=(1, 2))``: the state and the parameters live
    in variables, which ``ResourceApplyAdam`` updates in place (Adam without decay or AMSGrad)."""
    jitted = hd.jit(lambda g, s, p: opt.update(g, s, p), donate_argnums=(1, 2))
    return lambda g, s, p: jitted(g, opt.init(p) if s is None else s, p)


@pytest.mark.parametrize("dtype", sorted(NP_DTYPES))
@pytest.mark.parametrize("case", sorted(CASES))
def test_donated_updates_match_torch_optim_and_the_eager_ones_bit_for_bit(case, dtype):
    make_hd, make_torch = CASES[case]
    got = run_updates(donated_update(make_hd()), dtype)
    assert_close(got, torch_steps(make_torch, dtype), dtype, "donated hd.jit")
    eager = run_updates(functional(make_hd()), dtype)
    for i, (a, b) in enumerate(zip(got, eager, strict=True)):
        for k in SHAPES:
            np.testing.assert_array_equal(a[k], b[k], err_msg=f"step {i + 1}, {k}")


def test_a_donated_adam_step_updates_the_variables_in_place():
    """One ``ResourceApplyAdam`` per parameter, and no new array assigned to the parameters' or
    the moments' variables (only the step count's)."""
    opt = hd.optim.Adam(0.01)
    step = hd.jit(lambda g, s, p: opt.update(g, s, p), donate_argnums=(1, 2))
    params = tf_tree(PARAMS, "float32")
    grads = tf_tree(GRADS[0], "float32")
    step(grads, opt.init(params), params)
    function = step.compiled_for("tensorflow")._function
    ops = [op.type for op in function.get_concrete_function(grads).graph.get_operations()]
    assert ops.count("ResourceApplyAdam") == len(SHAPES)
    assert ops.count("AssignVariableOp") == 1  # the step count


def test_donated_in_place_updates_keep_the_semantics_of_new_arrays():
    """Two updates from the same parameters, and the old parameters returned in their donated
    place (the new ones elsewhere): the values are the eager ones, and the variables hold what the
    function returned for them (the old values), though Adam ran on them in place."""
    opt = hd.optim.Adam(0.01)
    grads = [tf_tree(g, "float32") for g in GRADS[:2]]

    def twice(params, state):
        first, _ = opt.update(grads[0], state, params)
        second, _ = opt.update(grads[1], state, params)  # from the same (old) parameters
        return params, state, first, second

    params = tf_tree(PARAMS, "float32")
    state = opt.init(params)
    expected = twice(params, state)
    compiled = hd.jit(twice, donate_argnums=(0, 1))
    for _ in range(2):  # the second call passes the variables back in
        params, state, first, second = compiled(params, state)
        for k in SHAPES:
            np.testing.assert_array_equal(hd.to_numpy(first[k]), hd.to_numpy(expected[2][k]))
            np.testing.assert_array_equal(hd.to_numpy(second[k]), hd.to_numpy(expected[3][k]))
            np.testing.assert_array_equal(hd.to_numpy(params[k]), PARAMS[k].astype(np.float32))


def test_a_donated_state_updated_in_place_but_not_returned():
    """The function returns the new parameters only: the moments' variables, updated in place by
    the kernel, are not returned; each call's values are the eager ones from the state given."""
    opt = hd.optim.Adam(0.01)
    grads = tf_tree(GRADS[0], "float32")
    compiled = hd.jit(lambda params, state: opt.update(grads, state, params)[0], donate_argnums=(0, 1))
    params = tf_tree(PARAMS, "float32")
    state = opt.init(params)
    first = compiled(params, state)
    expected = opt.update(grads, opt.init(params), params)[0]
    for k in SHAPES:
        np.testing.assert_array_equal(hd.to_numpy(first[k]), hd.to_numpy(expected[k]))
    second = compiled(first, state)  # the parameters' variables, the start state again
    expected = opt.update(grads, opt.init(params), expected)[0]
    for k in SHAPES:
        np.testing.assert_array_equal(hd.to_numpy(second[k]), hd.to_numpy(expected[k]))
