"""hd.optim: the first steps of every optimizer against torch.optim's (or optax's and a NumPy
write-out for LAMB and LARS, which PyTorch lacks); schedules against torch.optim.lr_scheduler;
clipping against torch.nn.utils; the state as a Container (saved, loaded on another backend,
resumed); update under hd.jit; step(module, grads).

The optimizers need no autodiff, so they run on numpy too. Gradients are a fixed sequence of
random arrays (float64), the same for hedera and the reference.
"""

from __future__ import annotations

import numpy as np
import optax
import pytest
import torch

import hedera as hd

RNG = np.random.default_rng(5)
SHAPES = {"w": (3, 4), "b": (4,), "layer/k": (2, 2, 3)}
PARAMS = {k: RNG.normal(size=s) for k, s in SHAPES.items()}
GRADS = [{k: RNG.normal(size=s) for k, s in SHAPES.items()} for _ in range(4)]
STEPS = len(GRADS)


def container(flat: dict, backend: str, dtype=np.float64) -> hd.Container:
    return hd.Container({k: hd.asarray(np.asarray(v, dtype), backend=backend) for k, v in flat.items()})


def run_hedera(opt: hd.optim.Optimizer, backend: str, dtype=np.float64) -> list[dict]:
    params = container(PARAMS, backend, dtype)
    state = opt.init(params)
    out = []
    for g in GRADS:
        params, state = opt.update(container(g, backend, dtype), state, params)
        out.append({k: hd.to_numpy(v) for k, v in params.flatten_keys().items()})
    assert int(hd.to_numpy(state["step"])) == STEPS
    return out


def run_torch(make, schedule=None) -> list[dict]:
    params = {k: torch.tensor(v, requires_grad=True) for k, v in PARAMS.items()}
    opt = make(list(params.values()))
    sched = schedule(opt) if schedule else None
    out = []
    for g in GRADS:
        for k, p in params.items():
            p.grad = torch.tensor(g[k])
        opt.step()
        if sched:
            sched.step()
        out.append({k: p.detach().numpy().copy() for k, p in params.items()})
    return out


def assert_steps_close(got: list[dict], expected: list[dict], rtol=1e-10, atol=1e-12):
    for i, (g, e) in enumerate(zip(got, expected, strict=True)):
        for k in e:
            np.testing.assert_allclose(g[k], e[k], rtol=rtol, atol=atol, err_msg=f"step {i + 1}, {k}")


TORCH_CASES = {
    "sgd": (lambda: hd.optim.SGD(0.1), lambda p: torch.optim.SGD(p, lr=0.1)),
    "sgd_momentum_wd": (
        lambda: hd.optim.SGD(0.05, momentum=0.9, weight_decay=0.01),
        lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, weight_decay=0.01),
    ),
    "sgd_nesterov": (
        lambda: hd.optim.SGD(0.05, momentum=0.8, nesterov=True),
        lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.8, nesterov=True),
    ),
    "sgd_dampening": (
        lambda: hd.optim.SGD(0.05, momentum=0.9, dampening=0.3),
        lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, dampening=0.3),
    ),
    "adam": (lambda: hd.optim.Adam(0.01), lambda p: torch.optim.Adam(p, lr=0.01)),
    "adam_wd_amsgrad": (
        lambda: hd.optim.Adam(0.01, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.1, amsgrad=True),
        lambda p: torch.optim.Adam(p, lr=0.01, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.1, amsgrad=True),
    ),
    "adamw": (lambda: hd.optim.AdamW(0.01), lambda p: torch.optim.AdamW(p, lr=0.01)),
    "adamw_wd": (
        lambda: hd.optim.AdamW(0.02, weight_decay=0.5),
        lambda p: torch.optim.AdamW(p, lr=0.02, weight_decay=0.5),
    ),
    "rmsprop": (lambda: hd.optim.RMSprop(0.01), lambda p: torch.optim.RMSprop(p, lr=0.01)),
    "rmsprop_centered_momentum_wd": (
        lambda: hd.optim.RMSprop(0.01, alpha=0.9, momentum=0.5, centered=True, weight_decay=0.05),
        lambda p: torch.optim.RMSprop(p, lr=0.01, alpha=0.9, momentum=0.5, centered=True, weight_decay=0.05),
    ),
}


@pytest.mark.parametrize("case", list(TORCH_CASES))
def test_first_steps_match_torch_optim(case, backend):
    make_hd, make_torch = TORCH_CASES[case]
    assert_steps_close(run_hedera(make_hd(), backend), run_torch(make_torch))


def test_float32_parameters_keep_their_dtype(backend):
    opt = hd.optim.Adam(hd.optim.cosine_decay(0.01, 10))
    params = container(PARAMS, backend, np.float32)
    params, _ = opt.update(container(GRADS[0], backend, np.float32), opt.init(params), params)
    assert {hd.dtype(v) for v in hd.tree.leaves(params)} == {hd.float32}
    expected = run_torch(lambda p: torch.optim.Adam(p, lr=0.01))[0]
    for k, v in params.flatten_keys().items():
        np.testing.assert_allclose(hd.to_numpy(v), expected[k], rtol=1e-5, atol=1e-6)


# ---- LAMB and LARS: optax and NumPy written out ------------------------------------------------


def numpy_lamb(lr, b1, b2, eps, wd) -> list[dict]:
    """LAMB (You et al. 2019) with bias-corrected moments, trust ratio ||p|| / ||r|| per array."""
    p = {k: v.copy() for k, v in PARAMS.items()}
    m = {k: np.zeros_like(v) for k, v in p.items()}
    v = {k: np.zeros_like(x) for k, x in p.items()}
    out = []
    for t, g in enumerate(GRADS, start=1):
        for k in p:
            m[k] = b1 * m[k] + (1 - b1) * g[k]
            v[k] = b2 * v[k] + (1 - b2) * g[k] ** 2
            r = (m[k] / (1 - b1**t)) / (np.sqrt(v[k] / (1 - b2**t)) + eps) + wd * p[k]
            pn, rn = np.linalg.norm(p[k]), np.linalg.norm(r)
            ratio = pn / rn if pn > 0 and rn > 0 else 1.0
            p[k] = p[k] - lr * ratio * r
        out.append({k: x.copy() for k, x in p.items()})
    return out


def numpy_lars(lr, momentum, wd, tc) -> list[dict]:
    """LARS (You et al. 2017): local lr = tc * ||p|| / ||g + wd p||, momentum on the scaled step."""
    p = {k: v.copy() for k, v in PARAMS.items()}
    buf = {k: np.zeros_like(v) for k, v in p.items()}
    out = []
    for g in GRADS:
        for k in p:
            d = g[k] + wd * p[k]
            ratio = tc * np.linalg.norm(p[k]) / np.linalg.norm(d)
            buf[k] = momentum * buf[k] - lr * ratio * d
            p[k] = p[k] + buf[k]
        out.append({k: x.copy() for k, x in p.items()})
    return out


def run_optax(tx) -> list[dict]:
    import jax

    jax.config.update("jax_enable_x64", True)
    params = {k: jax.numpy.asarray(v) for k, v in PARAMS.items()}
    state = tx.init(params)
    out = []
    for g in GRADS:
        updates, state = tx.update({k: jax.numpy.asarray(v) for k, v in g.items()}, state, params)
        params = optax.apply_updates(params, updates)
        out.append({k: np.asarray(v) for k, v in params.items()})
    return out


def test_lamb_matches_optax_and_the_paper(backend):
    got = run_hedera(hd.optim.LAMB(0.01, betas=(0.9, 0.99), eps=1e-6, weight_decay=0.1), backend)
    assert_steps_close(got, numpy_lamb(0.01, 0.9, 0.99, 1e-6, 0.1))
    assert_steps_close(got, run_optax(optax.lamb(0.01, b1=0.9, b2=0.99, eps=1e-6, weight_decay=0.1)))


def test_lars_matches_optax_and_the_paper(backend):
    got = run_hedera(hd.optim.LARS(0.5, momentum=0.9, weight_decay=0.01, trust_coefficient=0.02), backend)
    assert_steps_close(got, numpy_lars(0.5, 0.9, 0.01, 0.02))
    tx = optax.lars(0.5, weight_decay=0.01, trust_coefficient=0.02, momentum=0.9)
    assert_steps_close(got, run_optax(tx))


def test_trust_ratio_is_one_for_zero_norms():
    params = hd.Container(w=np.zeros(3), v=np.ones(3))
    grads = hd.Container(w=np.ones(3), v=np.zeros(3))
    opt = hd.optim.LAMB(0.1)
    with np.errstate(all="raise"):  # no 0/0 anywhere, even in the branch not taken
        new, _ = opt.update(grads, opt.init(params), params)
    np.testing.assert_allclose(new["w"], -0.1 * 1 / (1 + 1e-6), rtol=1e-6)
    np.testing.assert_array_equal(new["v"], 1.0)


# ---- schedules -------------------------------------------------------------------------------


def torch_lrs(make_scheduler, n: int) -> list[float]:
    opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
    sched = make_scheduler(opt)
    lrs = []
    for _ in range(n):
        lrs.append(opt.param_groups[0]["lr"])
        opt.step()
        sched.step()
    return lrs


SCHEDULES = {
    "step": (hd.optim.step_decay(0.1, 3, 0.5), lambda o: torch.optim.lr_scheduler.StepLR(o, 3, 0.5)),
    "exponential": (hd.optim.exponential_decay(0.1, 0.9),
                    lambda o: torch.optim.lr_scheduler.ExponentialLR(o, 0.9)),
    "cosine": (hd.optim.cosine_decay(0.1, 10, 0.01),
               lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, 10, eta_min=0.01)),
    "warmup": (hd.optim.linear_warmup(0.1, 5, start_factor=0.2),
               lambda o: torch.optim.lr_scheduler.LinearLR(o, 0.2, 1.0, total_iters=5)),
}  # fmt: skip


@pytest.mark.parametrize("name", list(SCHEDULES))
def test_schedules_match_torch_lr_schedulers(name, backend):
    schedule, make = SCHEDULES[name]
    expected = torch_lrs(make, 11)
    np.testing.assert_allclose([schedule(i) for i in range(11)], expected, rtol=1e-12)
    steps = hd.asarray(np.arange(11, dtype=np.int32), backend=backend)
    got = hd.to_numpy(schedule(steps))
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, expected, rtol=1e-6)
    steps64 = hd.asarray(np.arange(11, dtype=np.float64), backend=backend)
    np.testing.assert_allclose(hd.to_numpy(schedule(steps64)), expected, rtol=1e-12)


def test_warmup_then_cosine_matches_torch_sequential():
    schedule = hd.optim.linear_warmup(hd.optim.cosine_decay(0.1, 10), 4, start_factor=0.25)

    def make(o):
        warm = torch.optim.lr_scheduler.LinearLR(o, 0.25, 1.0, total_iters=4)
        cos = torch.optim.lr_scheduler.CosineAnnealingLR(o, 10)
        return torch.optim.lr_scheduler.SequentialLR(o, [warm, cos], milestones=[4])

    np.testing.assert_allclose([schedule(i) for i in range(14)], torch_lrs(make, 14), rtol=1e-9, atol=1e-12)


def test_scheduled_optimizer_matches_torch(backend):
    schedule = hd.optim.linear_warmup(hd.optim.cosine_decay(0.05, 3), 2, start_factor=0.5)

    def make_sched(o):
        warm = torch.optim.lr_scheduler.LinearLR(o, 0.5, 1.0, total_iters=2)
        cos = torch.optim.lr_scheduler.CosineAnnealingLR(o, 3)
        return torch.optim.lr_scheduler.SequentialLR(o, [warm, cos], milestones=[2])

    got = run_hedera(hd.optim.SGD(schedule, momentum=0.9), backend)
    assert_steps_close(got, run_torch(lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9), make_sched))


def test_bad_schedule_arguments():
    with pytest.raises(hd.InvalidArgumentError, match="step_size must be a positive int"):
        hd.optim.step_decay(0.1, 0)
    with pytest.raises(hd.ArgumentTypeError, match="SGD: lr must be a finite number >= 0 or a schedule"):
        hd.optim.SGD("fast")  # a wrong kind: a TypeError
    with pytest.raises(hd.InvalidArgumentError, match="SGD: lr must be a finite number >= 0"):
        hd.optim.SGD(float("nan"))


# ---- clipping ---------------------------------------------------------------------------------


def test_clip_by_global_norm_matches_torch(backend):
    grads = {k: 3.0 * v for k, v in GRADS[0].items()}
    tensors = {k: torch.zeros(v.shape, dtype=torch.float64, requires_grad=True) for k, v in grads.items()}
    for k, t in tensors.items():
        t.grad = torch.tensor(grads[k])
    total = torch.nn.utils.clip_grad_norm_(list(tensors.values()), max_norm=2.0)
    stage = hd.optim.clip_by_global_norm(2.0)
    g = container(grads, backend)
    np.testing.assert_allclose(hd.to_numpy(hd.optim.global_norm(g)), total.item(), rtol=1e-12)
    opt = hd.optim.chain(stage, hd.optim.SGD(1.0))
    zero = container({k: np.zeros_like(v) for k, v in grads.items()}, backend)
    new, _ = opt.update(g, opt.init(zero), zero)
    for k, t in tensors.items():  # torch divides by norm + 1e-6
        np.testing.assert_allclose(-hd.to_numpy(new[k]), t.grad.numpy(), rtol=1e-6)
    small = container({k: 1e-3 * v for k, v in grads.items()}, backend)  # below the limit: unchanged
    new, _ = opt.update(small, opt.init(zero), zero)
    for k, v in grads.items():
        np.testing.assert_allclose(-hd.to_numpy(new[k]), 1e-3 * v, rtol=1e-12)


def test_clip_by_value_matches_torch(backend):
    tensors = {k: torch.zeros(v.shape, dtype=torch.float64, requires_grad=True) for k, v in GRADS[1].items()}
    for k, t in tensors.items():
        t.grad = torch.tensor(GRADS[1][k])
    torch.nn.utils.clip_grad_value_(list(tensors.values()), 0.5)
    opt = hd.optim.SGD(1.0, clip_value=0.5)
    zero = container({k: np.zeros_like(v) for k, v in GRADS[1].items()}, backend)
    new, _ = opt.update(container(GRADS[1], backend), opt.init(zero), zero)
    for k, t in tensors.items():
        np.testing.assert_array_equal(-hd.to_numpy(new[k]), t.grad.numpy())


# ---- state, compilation, step(module) ---------------------------------------------------------


def test_state_is_a_container_that_saves_loads_and_resumes(backend, tmp_path):
    opt = hd.optim.chain(hd.optim.clip_by_global_norm(10.0), hd.optim.Adam(0.01, amsgrad=True))
    params = container(PARAMS, "numpy")
    state = opt.init(params)
    for g in GRADS[:2]:
        params, state = opt.update(container(g, "numpy"), state, params)
    assert isinstance(state, hd.Container)
    assert sorted(state) == ["adam", "clip_by_global_norm", "learning_rate", "step"]
    hd.save({"params": params, "opt": state}, tmp_path / "ckpt.safetensors")
    loaded = hd.load(tmp_path / "ckpt.safetensors", backend=backend)
    p2, s2 = loaded["params"], loaded["opt"]
    for g in GRADS[2:]:
        params, state = opt.update(container(g, "numpy"), state, params)
        p2, s2 = opt.update(container(g, backend), s2, p2)
    assert hd.backend_of(hd.tree.leaves(p2)[0]) == backend
    assert p2.all_close(params, rtol=1e-12, atol=1e-14)
    assert int(hd.to_numpy(s2["step"])) == STEPS


def test_update_under_jit_matches_eager(autodiff_backend):
    schedule = hd.optim.linear_warmup(hd.optim.cosine_decay(0.01, 10), 2)
    opt = hd.optim.chain(hd.optim.clip_by_global_norm(1.0), hd.optim.AdamW(schedule))
    compiled = hd.jit(opt.update)
    params = container(PARAMS, autodiff_backend, np.float32)
    p1, s1 = params, opt.init(params)
    p2, s2 = params, opt.init(params)
    for g in GRADS:
        grads = container(g, autodiff_backend, np.float32)
        p1, s1 = opt.update(grads, s1, p1)
        p2, s2 = compiled(grads, s2, p2)
    assert p2.all_close(p1, rtol=1e-5, atol=1e-6)
    assert s2.all_close(s1, rtol=1e-5, atol=1e-6)


def test_step_updates_the_module_in_place(backend):
    with hd.use_backend(backend):
        model = hd.nn.Linear(3, 4, key=0)
    w0 = hd.to_numpy(model.weight)
    opt = hd.optim.SGD(0.5)
    grads = model.parameters().map(hd.ones_like)
    opt.step(model, grads)
    opt.step(model, grads)
    np.testing.assert_allclose(hd.to_numpy(model.weight), w0 - 1.0, rtol=1e-6)
    assert int(hd.to_numpy(opt.state["step"])) == 2
    assert hd.backend_of(model.weight) == backend


def test_bad_optimizer_arguments():
    with pytest.raises(hd.InvalidArgumentError, match="nesterov needs momentum"):
        hd.optim.SGD(0.1, nesterov=True)
    with pytest.raises(
        hd.InvalidArgumentError, match=r"Adam: betas\[0\] must be a finite number >= 0.0 and < 1.0"
    ):
        hd.optim.Adam(betas=(1.0, 0.9))
    with pytest.raises(hd.InvalidArgumentError, match="must be a Container"):
        hd.optim.SGD(0.1).init([np.zeros(2)])
