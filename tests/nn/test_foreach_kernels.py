"""hd.nn_ops.foreach_*: the multi-tensor kernels give the loop of hedera's elementwise functions
bit for bit, on every backend (torch's through torch._foreach_*; the others loop), and write into
their inputs only when allowed; hd.optim through them: Optimizer.step (which writes its own state
in place on torch) gives Optimizer.update's values bit for bit and leaves an assigned state alone.
"""

from __future__ import annotations

import numpy as np
import pytest

import hedera as hd

SHAPES = [(3, 4), (5,), (2, 2, 3), ()]
BINARY = {
    "foreach_add": hd.add,
    "foreach_multiply": hd.multiply,
    "foreach_divide": hd.divide,
    "foreach_maximum": hd.maximum,
}
UNARY = {"foreach_sqrt": hd.sqrt, "foreach_square": hd.square}


def arrays(backend, dtype, seed, positive=False):
    rng = np.random.default_rng(seed)
    out = []
    for s in SHAPES:
        a = rng.normal(size=s)
        out.append(hd.asarray(np.abs(a) + 0.1 if positive else a, dtype=dtype, backend=backend))
    return out


def same_bits(got, expected):
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        assert hd.dtype(g) == hd.dtype(e)
        np.testing.assert_array_equal(hd.to_numpy(g), hd.to_numpy(e))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_kernels_are_the_loop_bit_for_bit(name, dtype, backend):
    kernel, fn = getattr(hd.nn_ops, name), BINARY[name]
    xs, ys = arrays(backend, dtype, 0), arrays(backend, dtype, 1, positive=True)
    same_bits(kernel(xs, ys), [fn(x, y) for x, y in zip(xs, ys, strict=True)])
    scalar = hd.asarray(0.37, dtype=dtype, backend=backend)
    same_bits(kernel(xs, scalar), [fn(x, scalar) for x in xs])
    if name != "foreach_maximum":
        same_bits(kernel(xs, 0.37), [fn(x, 0.37) for x in xs])
    expected = [fn(x, y) for x, y in zip(xs, ys, strict=True)]
    same_bits(kernel([hd.asarray(x, copy=True) for x in xs], ys, reuse=True), expected)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_kernels_are_the_loop_bit_for_bit(name, dtype, backend):
    kernel, fn = getattr(hd.nn_ops, name), UNARY[name]
    xs = arrays(backend, dtype, 2, positive=True)
    expected = [fn(x) for x in xs]
    same_bits(kernel(xs), expected)
    same_bits(kernel([hd.asarray(x, copy=True) for x in xs], reuse=True), expected)


def test_mixed_dtypes_promote_as_the_loop(backend):
    xs = arrays(backend, "float32", 3)
    ys = arrays(backend, "float64", 4)
    same_bits(hd.nn_ops.foreach_add(xs, ys), [hd.add(x, y) for x, y in zip(xs, ys, strict=True)])
    scalars = [hd.asarray(2.0, dtype="float64", backend=backend)] * len(xs)  # broadcast 0-d arrays
    same_bits(
        hd.nn_ops.foreach_multiply(xs, scalars), [hd.multiply(x, s) for x, s in zip(xs, scalars, strict=True)]
    )


def test_torch_kernels_write_into_xs_only_when_given_up_and_outside_autograd():
    torch = pytest.importorskip("torch")
    xs = [torch.ones(3), torch.ones(2)]
    out = hd.nn_ops.foreach_add(xs, 1.0)
    assert all(o.data_ptr() != x.data_ptr() for o, x in zip(out, xs, strict=True))
    assert all(bool((x == 1).all()) for x in xs)
    out = hd.nn_ops.foreach_add(xs, 1.0, reuse=True)
    assert [o.data_ptr() for o in out] == [x.data_ptr() for x in xs]
    tracked = [torch.ones(3, requires_grad=True)]
    out = hd.nn_ops.foreach_multiply(tracked, 2.0, reuse=True)  # in a graph: never in place
    assert out[0].data_ptr() != tracked[0].data_ptr() and out[0].requires_grad
    out[0].sum().backward()
    assert tracked[0].grad.tolist() == [2.0, 2.0, 2.0]


@pytest.mark.parametrize("name", [*sorted(BINARY), "foreach_square"])
def test_out_arrays_give_the_loop_bit_for_bit_and_torch_writes_large_ones(name, backend):
    """``out``: arrays given up, which torch writes the results of large tensors into (small ones and
    other backends: new arrays); the values are the loop's either way."""
    rng = np.random.default_rng(5)
    shapes = [(256, 160), (7,), (300, 120)]  # 40,960 and 36,000 elements: torch's `out` path
    xs = [hd.asarray(rng.normal(size=s), dtype="float32", backend=backend) for s in shapes]
    ys = [hd.asarray(np.abs(rng.normal(size=s)) + 0.1, dtype="float32", backend=backend) for s in shapes]
    out = [hd.zeros_like(x) for x in xs]
    kernel = getattr(hd.nn_ops, name)
    if name == "foreach_square":
        got, expected = kernel(xs, out=out), [hd.square(x) for x in xs]
    else:
        got, expected = kernel(xs, ys, out=out), [BINARY[name](x, y) for x, y in zip(xs, ys, strict=True)]
    same_bits(got, expected)
    if backend == "torch":
        assert [g is o for g, o in zip(got, out, strict=True)] == [True, False, True]


def test_bad_input_names_the_kernel():
    with pytest.raises(hd.InvalidArgumentError, match=r"nn_ops\.foreach_add: xs must be a list"):
        hd.nn_ops.foreach_add(np.ones(3), 1.0)
    assert hd.nn_ops.foreach_sqrt([]) == []


OPTIMIZERS = {
    "adam": lambda: hd.optim.Adam(0.01, weight_decay=0.01),
    "adamw_amsgrad": lambda: hd.optim.AdamW(0.01, amsgrad=True, clip_global_norm=1.0),
    "sgd_nesterov": lambda: hd.optim.SGD(0.1, momentum=0.9, nesterov=True),
    "sgd_dampening": lambda: hd.optim.SGD(0.1, momentum=0.9, dampening=0.2),
    "rmsprop_centered": lambda: hd.optim.RMSprop(0.01, centered=True, momentum=0.5),
    "lamb": lambda: hd.optim.LAMB(0.01),
}


@pytest.mark.parametrize("width", [4, 192])  # 192: a 256 x 192 weight, large enough for torch's `out` path
@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_step_in_place_is_update_bit_for_bit(name, width, backend):
    with hd.use_backend(backend):
        model = hd.nn.Sequential(hd.nn.Linear(256, width, key=0), hd.nn.Linear(width, 2, key=1))
    rng = np.random.default_rng(7)
    grads = [
        model.parameters().map(
            lambda p: hd.asarray(rng.normal(size=tuple(p.shape)), dtype=hd.dtype(p), backend=backend)
        )
        for _ in range(4)  # from the third step, step's kept temporaries are written into
    ]
    functional = OPTIMIZERS[name]()
    params, state = model.parameters(), functional.init(model.parameters())
    stateful = OPTIMIZERS[name]()
    for g in grads:
        params, state = functional.update(g, state, params)
        stateful.step(model, g)
    same_bits(hd.tree.leaves(model.parameters()), hd.tree.leaves(params))
    same_bits(hd.tree.leaves(stateful.state), hd.tree.leaves(state))


def test_step_leaves_an_assigned_state_alone(backend):
    with hd.use_backend(backend):
        model = hd.nn.Linear(3, 2, key=0)
    opt = hd.optim.Adam(0.1)
    grads = model.parameters().map(hd.ones_like)
    opt.step(model, grads)
    saved = opt.state
    before = [np.array(hd.to_numpy(x), copy=True) for x in hd.tree.leaves(saved)]
    opt.state = saved  # assigned: step must not write into these arrays
    opt.step(model, grads)
    for b, x in zip(before, hd.tree.leaves(saved), strict=True):
        np.testing.assert_array_equal(hd.to_numpy(x), b)
    assert int(hd.to_numpy(opt.state["step"])) == 2
