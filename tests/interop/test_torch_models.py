"""from_torch on whole models: transformers' BERT, ViT, ResNet and Llama, and torch.nn built-ins.

Random initialisation from small configurations (tests/interop/torch_models.py); nothing is
downloaded. The references are torch eager and torch autograd on the original module.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from torch.utils import _pytree  # noqa: E402
from torch_models import MODELS  # noqa: E402

import hedera as hd  # noqa: E402
from conftest import require_backend  # noqa: E402

FORWARD_TOL = 1e-4
GRAD_RTOL = 1e-3


@functools.cache
def converted(name: str) -> tuple:
    """(module, example args, program, torch's output leaves) of one model, converted once."""
    module, args = MODELS[name]()
    prog = hd.interop.from_torch(module, args)
    with torch.no_grad():
        want = [leaf.numpy() for leaf in _pytree.tree_leaves(module(*args))]
    return module, args, prog, want


@functools.cache
def torch_gradients(name: str) -> tuple[dict, list, float]:
    """torch autograd's gradients of :func:`_loss` with respect to every parameter (zeros if unused)."""
    module, args, _, want = converted(name)
    cotangents = _cotangents(want)
    module.zero_grad()
    leaves = _pytree.tree_leaves(module(*args))
    loss = sum(
        (leaf * torch.from_numpy(c)).sum()
        for leaf, c in zip(leaves, cotangents, strict=True)
        if c is not None
    )
    loss.backward()
    grads = {
        n: (p.grad if p.grad is not None else torch.zeros_like(p)).numpy().copy()
        for n, p in module.named_parameters()
    }
    return grads, cotangents, float(loss)


def _cotangents(outputs: list) -> list:
    rng = np.random.default_rng(0)
    return [rng.standard_normal(o.shape).astype(o.dtype) if o.dtype.kind == "f" else None for o in outputs]


def _inputs(args: tuple, backend: str) -> list:
    return [hd.asarray(a.numpy(), backend=backend) for a in args]


def _assert_outputs(out: object, want: list, backend: str, name: str) -> None:
    got = _pytree.tree_leaves(out)
    assert len(got) == len(want), f"{name} on {backend}"
    for g, w in zip(got, want, strict=True):
        g = hd.to_numpy(g)
        assert g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=FORWARD_TOL, atol=FORWARD_TOL, err_msg=f"{name} on {backend}")


def _loss_fn(prog: object, cotangents: list, with_outputs: bool = False) -> object:
    """The weighted sum of the program's outputs (``(loss, output leaves)`` ``with_outputs``)."""

    def loss(params: object, *inputs: object) -> object:
        leaves = _pytree.tree_leaves(prog(params, *inputs))
        total = 0.0
        for leaf, c in zip(leaves, cotangents, strict=True):
            if c is not None:
                total = total + hd.sum(leaf * hd.asarray(c, backend=hd.backend_of(leaf)))
        return (total, leaves) if with_outputs else total

    return loss


@pytest.mark.parametrize("name", list(MODELS))
def test_forward_matches_torch_eager(name, backend):
    _, args, prog, want = converted(name)
    out = prog(prog.parameters(backend=backend), *_inputs(args, backend))
    _assert_outputs(out, want, backend, name)


#: models whose forward alone is compiled in the ci run (every model under -m slow); the gradient
#: test below compares every model's outputs under hd.jit (the compiled value_and_grad's)
JIT_CI = ("resnet",)


@pytest.mark.parametrize(
    "name", [m if m in JIT_CI else pytest.param(m, marks=pytest.mark.slow) for m in MODELS]
)
@pytest.mark.parametrize("backend_name", ["jax", "tensorflow"])
def test_forward_under_jit(name, backend_name):
    require_backend(backend_name)
    _, args, prog, want = converted(name)
    out = hd.jit(prog)(prog.parameters(backend=backend_name), *_inputs(args, backend_name))
    _assert_outputs(out, want, backend_name, name)


@pytest.mark.parametrize("name", list(MODELS))
@pytest.mark.parametrize("backend_name", ["jax", "tensorflow"])
def test_gradients_match_torch_autograd(name, backend_name):
    """hd.grad of the converted program, compiled with hd.jit, against torch autograd (1e-3 relative);
    the compiled program's outputs against torch eager's (1e-4)."""
    require_backend(backend_name)
    _, args, prog, outputs = converted(name)
    if not prog.parameter_names:
        pytest.skip("no parameters")
    want, cotangents, want_loss = torch_gradients(name)
    (loss, got), grads = hd.jit(hd.value_and_grad(_loss_fn(prog, cotangents, True), has_aux=True))(
        prog.parameters(backend=backend_name), *_inputs(args, backend_name)
    )
    _assert_outputs(got, outputs, backend_name, f"{name} under hd.jit")
    np.testing.assert_allclose(float(loss), want_loss, rtol=1e-4, atol=1e-4)
    assert sorted(grads.keys()) == sorted(want)
    # relative to each tensor's scale; gradients that are zero in exact arithmetic (attention's
    # key bias: softmax ignores it) are float noise, measured against 1e-3 of the largest gradient
    floor = 1e-3 * max(float(np.abs(w).max()) for w in want.values())
    for n, w in want.items():
        g = hd.to_numpy(grads[n])
        scale = max(float(np.abs(w).max()), floor)
        assert np.abs(g - w).max() <= GRAD_RTOL * scale, (
            f"{name} {n} on {backend_name}: {np.abs(g - w).max()} vs {scale}"
        )


@pytest.mark.parametrize("backend_name", ["tensorflow", "torch"])
def test_eager_gradients_match_jit(backend_name):
    """Eager hd.grad (no compiler) gives the same gradients as the compiled one."""
    require_backend(backend_name)
    _, args, prog, _ = converted("conv_transpose2d")
    want, cotangents, _ = torch_gradients("conv_transpose2d")
    grads = hd.grad(_loss_fn(prog, cotangents))(
        prog.parameters(backend=backend_name), *_inputs(args, backend_name)
    )
    for n, w in want.items():
        np.testing.assert_allclose(hd.to_numpy(grads[n]), w, rtol=GRAD_RTOL, atol=GRAD_RTOL * np.abs(w).max())


@pytest.mark.parametrize("backend_name", ["jax", "torch"])
def test_vmap_over_a_batch_of_inputs(backend_name):
    require_backend(backend_name)
    module, args, prog, _ = converted("conv_transpose2d")
    stacked = torch.stack([args[0], 2 * args[0], -args[0]])
    with torch.no_grad():
        want = np.stack([module(s).numpy() for s in stacked])
    params = prog.parameters(backend=backend_name)
    out = hd.vmap(lambda x: prog(params, x))(hd.asarray(stacked.numpy(), backend=backend_name))
    np.testing.assert_allclose(hd.to_numpy(out), want, rtol=FORWARD_TOL, atol=FORWARD_TOL)


def test_output_structure_is_the_modules():
    module, args, prog, _ = converted("bert")
    out = prog(prog.parameters(backend="numpy"), *_inputs(args, "numpy"))
    assert type(out) is type(module(*args))
    assert isinstance(out.last_hidden_state, np.ndarray)
    assert out.last_hidden_state.shape == (2, 8, 32)
    _, _, lstm_prog, _ = converted("lstm")
    y, (h, c) = lstm_prog(lstm_prog.parameters(backend="numpy"), *_inputs(converted("lstm")[1], "numpy"))
    assert (y.shape, h.shape, c.shape) == ((3, 5, 8), (2, 3, 8), (2, 3, 8))


def test_parameters_and_buffers_are_named_like_state_dict():
    module, _, prog, _ = converted("batch_norm2d")
    state = module.state_dict()
    assert set(prog.parameter_names) == {n for n, _ in module.named_parameters()}
    assert set(prog.buffer_names) <= set(state)
    params = prog.parameters(backend="numpy")
    buffers = prog.buffers(backend="numpy")
    for n in params.keys():
        np.testing.assert_array_equal(params[n], state[n].numpy())
    for n in buffers.keys():
        np.testing.assert_array_equal(buffers[n], state[n].numpy())


def test_code_is_pure_hedera():
    _, _, prog, _ = converted("resnet")
    assert prog.code.startswith("def forward(state, constants, inputs):")
    assert "torch" not in prog.code
    assert "aten.convolution(" in prog.code


def test_renaming_lowerings_are_written_as_direct_calls():
    """No op-table frame for the nodes that only rename (the forward tests above check the values)."""
    _, _, prog, _ = converted("llama")
    code = prog.code
    for lowering in ("view", "permute", "expand", "unsqueeze", "clone", "assertion"):
        assert f"aten.{lowering}(" not in code, lowering
    assert "aten.add(" not in code  # llama adds without alpha
    for direct in ("hd.reshape(", "hd.permute_dims(", "hd.broadcast_to(", "hd.expand_dims(", "hd.add("):
        assert direct in code, direct


def test_training_mode_batch_norm_returns_its_buffer_updates():
    torch.manual_seed(0)
    bn = torch.nn.BatchNorm2d(3).train()
    x = torch.randn(4, 3, 2, 2)
    prog = hd.interop.from_torch(bn, (x,))
    params = prog.parameters(backend="numpy")
    out, updates = prog.apply(params, x.numpy())
    want = bn(x)  # torch updates its running statistics in place
    np.testing.assert_allclose(out, want.detach().numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(updates["running_mean"], bn.running_mean.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(updates["running_var"], bn.running_var.numpy(), rtol=1e-5, atol=1e-6)
    assert int(updates["num_batches_tracked"]) == int(bn.num_batches_tracked)
