"""hd.optim's fused tails on torch: Adam, AdamW and SGD run torch.optim's ``fused=True`` kernels
(``hd.nn_ops.fused_adam``/``fused_sgd``), so their steps equal torch.optim's with ``fused=True`` bit for
bit, parameters and state; the doors return None (and touch nothing) where no kernel applies, and
then the stages run: other backends, tensors that need a gradient, mixed dtypes, torch.func transforms.
``step`` writes into the parameters only where its own previous step made them.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

import hedera as hd

RNG = np.random.default_rng(11)
SHAPES = {"w": (6, 5), "b": (5,), "k": (2, 3, 4)}
PARAMS = {k: RNG.normal(size=s) for k, s in SHAPES.items()}
GRADS = [{k: RNG.normal(size=s) for k, s in SHAPES.items()} for _ in range(5)]

#: hedera optimizer, torch.optim one with fused=True, and the torch state names of hedera's state keys
CASES = {
    "adam": (lambda: hd.optim.Adam(0.01), lambda p: torch.optim.Adam(p, lr=0.01, fused=True)),
    "adam_wd_amsgrad": (
        lambda: hd.optim.Adam(0.01, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.1, amsgrad=True),
        lambda p: torch.optim.Adam(
            p, lr=0.01, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.1, amsgrad=True, fused=True
        ),
    ),
    "adamw": (
        lambda: hd.optim.AdamW(0.02, weight_decay=0.5),
        lambda p: torch.optim.AdamW(p, lr=0.02, weight_decay=0.5, fused=True),
    ),
    "adamw_amsgrad": (
        lambda: hd.optim.AdamW(0.01, amsgrad=True),
        lambda p: torch.optim.AdamW(p, lr=0.01, amsgrad=True, fused=True),
    ),
    "sgd": (lambda: hd.optim.SGD(0.1), lambda p: torch.optim.SGD(p, lr=0.1, fused=True)),
    "sgd_momentum_wd": (
        lambda: hd.optim.SGD(0.05, momentum=0.9, weight_decay=0.01),
        lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, weight_decay=0.01, fused=True),
    ),
    "sgd_nesterov": (
        lambda: hd.optim.SGD(0.05, momentum=0.8, nesterov=True),
        lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.8, nesterov=True, fused=True),
    ),
    "sgd_dampening": (
        lambda: hd.optim.SGD(0.05, momentum=0.9, dampening=0.3),
        lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, dampening=0.3, fused=True),
    ),
}
TORCH_STATE = {"mu": "exp_avg", "nu": "exp_avg_sq", "nu_max": "max_exp_avg_sq", "buf": "momentum_buffer"}
DTYPES = {"float32": torch.float32, "float64": torch.float64}


def tensors(flat: dict, dtype) -> dict:
    return {k: torch.tensor(v, dtype=dtype) for k, v in flat.items()}


def torch_steps(make, dtype) -> tuple[list[dict], dict]:
    """torch.optim's parameters after each step, and its state at the end (hedera's keys)."""
    params = {k: torch.nn.Parameter(v) for k, v in tensors(PARAMS, dtype).items()}
    opt = make(list(params.values()))
    out = []
    for g in GRADS:
        for k, p in params.items():
            p.grad = torch.tensor(g[k], dtype=dtype)
        opt.step()
        out.append({k: p.detach().clone() for k, p in params.items()})
    state = {}
    for ours, theirs in TORCH_STATE.items():
        if theirs in opt.state[params["w"]]:
            state[ours] = {k: opt.state[p][theirs] for k, p in params.items()}
    return out, state


def assert_same_bits(got, expected, what: str) -> None:
    assert got.dtype == expected.dtype and got.shape == expected.shape, what
    # the bit patterns, so that -0.0 against 0.0 and NaN payloads count too
    bits = {torch.float32: torch.int32, torch.float64: torch.int64}[got.dtype]
    assert torch.equal(got.contiguous().view(bits), expected.contiguous().view(bits)), what


def hedera_state(opt_state: hd.Container) -> dict:
    """The moment buffers of hedera's state, by hedera's key (``mu``, ``buf``...) and parameter name."""
    found = {}
    for stage in opt_state.values():
        if isinstance(stage, hd.Container):
            for key in TORCH_STATE:
                if key in stage:
                    found[key] = dict(stage[key].flatten_keys())
    return found


@pytest.mark.parametrize("dtype", sorted(DTYPES))
@pytest.mark.parametrize("case", sorted(CASES))
def test_update_and_step_equal_torch_optim_fused_bit_for_bit(case, dtype):
    make_hd, make_torch = CASES[case]
    dt = DTYPES[dtype]
    expected, expected_state = torch_steps(make_torch, dt)

    functional = make_hd()
    params = hd.Container(tensors(PARAMS, dt))
    state = functional.init(params)
    model = hd.nn.Module()
    for k, v in tensors(PARAMS, dt).items():
        model.register_parameter(k, v)
    stateful = make_hd()
    for i, g in enumerate(GRADS):
        grads = hd.Container(tensors(g, dt))
        params, state = functional.update(grads, state, params)
        stateful.step(model, grads)
        for k in SHAPES:
            assert_same_bits(params[k], expected[i][k], f"update: step {i + 1}, {k}")
            assert_same_bits(model.parameters()[k], expected[i][k], f"step: step {i + 1}, {k}")
    for name, opt_state in (("update", state), ("step", stateful.state)):
        got = hedera_state(opt_state)
        assert sorted(got) == sorted(expected_state), name
        for key, per_param in expected_state.items():
            for k, v in per_param.items():
                assert_same_bits(got[key][k], v, f"{name}: state {key}/{k}")
        assert int(opt_state["step"]) == len(GRADS)


def test_the_tail_is_fused_only_in_the_chains_it_matches():
    tails = {
        "adam": hd.optim.Adam(0.1, weight_decay=0.1),
        "adamw": hd.optim.AdamW(0.1),
        "sgd": hd.optim.SGD(0.1, momentum=0.9, weight_decay=0.1),
        "clip then adam": hd.optim.Adam(0.1, clip_global_norm=1.0),
    }
    for name, opt in tails.items():
        assert opt._tail is not None, name
    adam = hd.optim.Adam(0.1, clip_global_norm=1.0)
    assert [n for n, _ in adam.stages[adam._tail.start :]] == ["adam", "learning_rate"]
    lars = hd.optim.LARS(0.1)  # ends with momentum after the learning rate: not SGD's order
    assert lars._tail is None


#: the fused kernels each backend has (the others return None: the stages run)
HAS_KERNEL = {"torch": {"fused_adam", "fused_sgd"}, "tensorflow": {"fused_adam"}}


def test_doors_run_the_kernel_or_return_none(backend):
    p = [hd.asarray(np.ones((3, 2), np.float32), backend=backend)]
    g = [hd.asarray(np.full((3, 2), 0.5, np.float32), backend=backend)]
    z = [hd.zeros_like(p[0])]
    count = hd.asarray(1, dtype=hd.int32, backend=backend)
    adam = hd.nn_ops.fused_adam(
        p, g, z, [hd.zeros_like(p[0])], None, count, 0.1, 0.9, 0.999, 1e-8, 0.0, False, True, True
    )
    sgd = hd.nn_ops.fused_sgd(p, g, None, count, 0.1, 0.0, 0.0, False, 0.0, False, False)
    has = HAS_KERNEL.get(backend, set())
    assert (adam is not None) == ("fused_adam" in has) and (sgd is not None) == ("fused_sgd" in has)
    if adam is not None:
        new_p, mu, _, nu_max = adam
        assert nu_max is None
        # Adam's first step moves every element by lr (m_hat / sqrt(v_hat) = sign(g))
        np.testing.assert_allclose(hd.to_numpy(new_p[0]), 1.0 - 0.1, rtol=1e-6)
        np.testing.assert_allclose(hd.to_numpy(mu[0]), 0.1 * 0.5, rtol=1e-6)
    if backend == "torch":
        assert new_p[0] is p[0] and mu[0] is z[0]  # given up: written into
        assert sgd[0][0] is not p[0] and sgd[1] is None  # not given up: a copy
    else:  # touched nothing
        np.testing.assert_array_equal(hd.to_numpy(p[0]), 1.0)
        np.testing.assert_array_equal(hd.to_numpy(z[0]), 0.0)
    np.testing.assert_array_equal(hd.to_numpy(g[0]), 0.5)  # gradients are never written to


def test_torch_doors_copy_unless_given_up_and_refuse_gradients_and_mixed_dtypes():
    p = [torch.ones(4), torch.ones(3)]
    g = [torch.full((4,), 0.5), torch.full((3,), 0.5)]
    buf = [torch.zeros(4), torch.zeros(3)]
    count = torch.tensor(1, dtype=torch.int32)
    new_p, new_buf = hd.nn_ops.fused_sgd(p, g, buf, count, 0.1, 0.9, 0.0, False, 0.0, False, False)
    assert all(a is not b for a, b in zip(new_p, p, strict=True))
    assert torch.equal(p[0], torch.ones(4)) and torch.equal(buf[0], torch.zeros(4))  # copies were written
    assert torch.equal(new_buf[0], g[0]) and torch.allclose(new_p[0], torch.full((4,), 0.95))
    needs_grad = [torch.ones(4, requires_grad=True), torch.ones(3)]
    assert hd.nn_ops.fused_sgd(needs_grad, g, None, count, 0.1, 0.0, 0.0, False, 0.0, True, True) is None
    mixed = [torch.ones(4), torch.ones(3, dtype=torch.float64)]
    assert hd.nn_ops.fused_sgd(mixed, g, None, count, 0.1, 0.0, 0.0, False, 0.0, True, True) is None
    half = [torch.ones(4, dtype=torch.bfloat16), torch.ones(3, dtype=torch.bfloat16)]  # the stages' dtype
    half_g = [x.to(torch.bfloat16) for x in g]
    assert hd.nn_ops.fused_sgd(half, half_g, None, count, 0.1, 0.0, 0.0, False, 0.0, True, True) is None
    with torch.no_grad():  # no graph to keep: the kernel applies
        assert hd.nn_ops.fused_sgd(needs_grad, g, None, count, 0.1, 0.0, 0.0, False, 0.0, False, False)
    with pytest.raises(hd.InvalidArgumentError, match="fused_adam: xs must be a list"):
        hd.nn_ops.fused_adam(torch.ones(2), g, buf, buf, None, count, 0.1, 0.9, 0.9, 1e-8, 0.0, False, 0, 0)


class _CopyCounter(TorchDispatchMode):
    """Records the aten copies (clone, copy_, _to_copy) of tensors with elements, by op name."""

    COPIES = frozenset({"aten.clone", "aten.copy_", "aten._to_copy"})

    def __init__(self) -> None:
        super().__init__()
        self.copies: list[str] = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        name = str(func.overloadpacket)
        if name in self.COPIES and isinstance(args[0], torch.Tensor) and args[0].ndim > 0:
            self.copies.append(name)
        return func(*args, **(kwargs or {}))


#: the state arrays the fused kernel writes, per parameter, in the cases of the test below
WRITTEN_STATE = {"adam": 2, "adam_wd_amsgrad": 3, "adamw": 2, "sgd": 0, "sgd_momentum_wd": 1}


@pytest.mark.parametrize("case", sorted(WRITTEN_STATE))
def test_update_copies_each_array_it_writes_once_and_leaves_its_inputs(case):
    """update is pure on torch eager at the least cost: the fused kernel runs in place on one clone
    of each array it writes (each parameter and its moment buffers), and nothing else is copied;
    the parameters and state passed in keep their values (its results equal step's bit for bit:
    test_update_and_step_equal_torch_optim_fused_bit_for_bit)."""
    make_hd, _ = CASES[case]
    opt = make_hd()
    params = hd.Container(tensors(PARAMS, torch.float32))
    grads = hd.Container(tensors(GRADS[0], torch.float32))
    state = opt.init(params)
    params, state = opt.update(grads, state, params)  # a state with values
    before = [x.clone() for x in hd.tree.leaves((params, state))]
    with _CopyCounter() as counted:
        new_params, new_state = opt.update(grads, state, params)
    assert counted.copies == ["aten.clone"] * (len(SHAPES) * (1 + WRITTEN_STATE[case]))
    for x, kept in zip(hd.tree.leaves((params, state)), before, strict=True):
        if x.is_floating_point():
            assert_same_bits(x, kept, "an input of update")
        else:  # the step count
            assert torch.equal(x, kept)
    new, old = hd.tree.leaves((new_params, new_state)), hd.tree.leaves((params, state))
    assert all(a is not b for a, b in zip(new, old, strict=True))  # new arrays, the count too


def test_update_stays_differentiable_through_the_stages(autodiff_backend):
    """Under hd.grad (torch.func on torch) the fused kernel does not apply; the stages run."""
    opt = hd.optim.SGD(0.1, weight_decay=0.5)
    grads = hd.Container(w=hd.asarray(np.full(3, 2.0), backend=autodiff_backend))

    def moved(w):
        params = hd.Container(w=w)
        new, _ = opt.update(grads, opt.init(params), params)
        return hd.sum(new["w"])

    w = hd.asarray(np.ones(3), backend=autodiff_backend)
    np.testing.assert_allclose(hd.to_numpy(hd.grad(moved)(w)), np.full(3, 1.0 - 0.1 * 0.5), rtol=1e-12)


def test_step_writes_into_the_parameters_only_where_its_own_step_made_them():
    with hd.use_backend("torch"):
        model = hd.nn.Linear(4, 3, key=0)
    opt = hd.optim.Adam(0.1)
    grads = model.parameters().map(hd.ones_like)
    initial = model.parameters()
    before = {k: v.clone() for k, v in initial.flatten_keys().items()}
    opt.step(model, grads)
    for k, v in initial.flatten_keys().items():  # the caller's arrays: never written to
        assert torch.equal(v, before[k]), k
    after_first = model.parameters()
    kept = {k: v.clone() for k, v in after_first.flatten_keys().items()}
    opt.step(model, grads)
    now = model.parameters()
    for k, v in after_first.flatten_keys().items():  # the step's own arrays: written into, as torch.optim
        assert v.data_ptr() == now.flatten_keys()[k].data_ptr(), k
        assert not torch.equal(v, kept[k]), k
    model.set_parameters(initial.map(torch.clone))  # someone else's arrays again: copied, not written
    replaced = model.parameters()
    snapshot = {k: v.clone() for k, v in replaced.flatten_keys().items()}
    opt.step(model, grads)
    for k, v in replaced.flatten_keys().items():
        assert torch.equal(v, snapshot[k]), k


def transposed_copy(x: torch.Tensor) -> torch.Tensor:
    """``x``'s values in a non-contiguous tensor (the transpose of a contiguous one, transposed back)."""
    return x.t().contiguous().t() if x.ndim == 2 else x


@pytest.mark.parametrize("strided", ["grads", "params"])
@pytest.mark.parametrize("case", ["adam_wd_amsgrad", "adamw", "sgd_nesterov"])
def test_strided_arrays_give_the_contiguous_results(case, strided):
    """The kernels walk memory in order: a gradient strided unlike its parameter (a conv's or an
    RNN's weight gradient) must not scramble the update."""
    make_hd, _ = CASES[case]
    runs = {}
    for layout in ("contiguous", "strided"):
        opt = make_hd()
        params = hd.Container(tensors(PARAMS, torch.float32))
        if layout == "strided" and strided == "params":
            params = params.map(transposed_copy)
            assert not params["w"].is_contiguous()
        state = opt.init(params)
        for g in GRADS:
            grads = hd.Container(tensors(g, torch.float32))
            if layout == "strided" and strided == "grads":
                grads = grads.map(transposed_copy)
            params, state = opt.update(grads, state, params)
        runs[layout] = params
    for k in SHAPES:
        assert_same_bits(runs["strided"][k].contiguous(), runs["contiguous"][k], k)
