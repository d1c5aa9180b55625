"""from_torch's higher-order ops: torch.cond, while_loop and scan onto hd.cond, hd.while_loop, hd.scan.

Each program is exported by torch.export (which emits the higher-order op into the graph), run on
every backend and compared with torch eager; gradients on jax and tensorflow against torch autograd.
"""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import hedera as hd  # noqa: E402
from conftest import require_backend  # noqa: E402


def branch(x: torch.Tensor) -> torch.Tensor:
    return torch.cond(x.sum() > 0, lambda v: v * 2, lambda v: v - 1, (x,))


def loop(x: torch.Tensor) -> tuple:
    from torch._higher_order_ops.while_loop import while_loop

    return while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * 2), (torch.tensor(0), x))


class Recurrence(torch.nn.Module):
    """An RNN cell under ``torch._higher_order_ops.scan``: parameters enter the body as closures
    (export passes them as the op's additional inputs), pytree carries and per-step outputs."""

    def __init__(self, reverse: bool = False, dim: int = 0) -> None:
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(3, 3))
        self.b = torch.nn.Parameter(torch.randn(3))
        self.reverse, self.dim = reverse, dim

    def forward(self, h0: torch.Tensor, xs: torch.Tensor) -> tuple:
        from torch._higher_order_ops.scan import scan

        def step(carry: tuple, x: dict) -> tuple:
            h, total = carry
            new = torch.tanh(h @ self.w + x["a"] * x["b"] + self.b)
            return (new, total + new.sum()), {"y": new * 2, "total": total.clone()}

        xs = {"a": xs, "b": xs.flip(-1)}
        return scan(step, (h0, torch.zeros(())), xs, dim=self.dim, reverse=self.reverse)


#: (reverse, dim, xs shape): forward scan over dim 0, reversed, and over dim 1
SCANS = [(False, 0, (5, 2, 3)), (True, 0, (4, 2, 3)), (True, 1, (2, 5, 3))]


def _recurrence(reverse: bool, dim: int, shape: tuple) -> tuple:
    torch.manual_seed(0)
    module = Recurrence(reverse, dim)
    return module, (torch.randn(2, 3), torch.randn(*shape))


def _leaves(tree: object) -> list:
    from torch.utils import _pytree

    return _pytree.tree_leaves(tree)


@pytest.mark.parametrize("jit", [False, True])
def test_cond_takes_the_branch_torch_takes(backend, jit):
    if not hasattr(hd, "cond"):
        pytest.skip("hd.cond is not in this hedera")
    prog = hd.interop.from_torch(branch, (torch.tensor([1.0, -3.0]),))
    assert "hd.cond(" in prog.code
    run = hd.jit(prog) if jit else prog
    for value in (torch.tensor([1.0, -3.0]), torch.tensor([-1.0, 3.0])):
        out = run({}, hd.asarray(value.numpy(), backend=backend))
        np.testing.assert_allclose(hd.to_numpy(out), branch(value).numpy())


@pytest.mark.parametrize("backend_name", ["jax", "tensorflow"])
def test_cond_gradient_matches_torch_autograd(backend_name):
    require_backend(backend_name)

    class Branchy(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.w = torch.nn.Parameter(torch.tensor([0.5, -2.0, 1.5]))

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return torch.cond(
                x.sum() > 0, lambda v, w: torch.sin(v * w), lambda v, w: (v - w) ** 2, (x, self.w)
            )

    module = Branchy()
    for value in (torch.tensor([1.0, -0.5, 2.0]), torch.tensor([-1.0, 0.5, -2.0])):
        prog = hd.interop.from_torch(module, (value,))
        x = hd.asarray(value.numpy(), backend=backend_name)
        loss = lambda p, prog=prog, x=x: hd.sum(prog(p, x) ** 2)
        grads = hd.grad(loss)(prog.parameters(backend=backend_name))
        module.zero_grad()
        (module(value) ** 2).sum().backward()
        np.testing.assert_allclose(hd.to_numpy(grads["w"]), module.w.grad.numpy(), rtol=1e-5)


def test_while_loop_runs_as_torch(backend):
    if not hasattr(hd, "while_loop"):
        pytest.skip("hd.while_loop is not in this hedera")
    x = torch.tensor([1.0, -3.0])
    prog = hd.interop.from_torch(loop, (x,))
    assert "hd.while_loop(" in prog.code
    count, value = prog({}, hd.asarray(x.numpy(), backend=backend))
    want_count, want_value = loop(x)
    assert int(hd.to_numpy(count)) == int(want_count)
    np.testing.assert_allclose(hd.to_numpy(value), want_value.numpy())


@pytest.mark.parametrize(("reverse", "dim", "shape"), SCANS)
def test_scan_runs_as_torch(backend, reverse, dim, shape):
    module, args = _recurrence(reverse, dim, shape)
    prog = hd.interop.from_torch(module, args)
    assert "_scan_hop(" in prog.code  # the scan stayed one op (onto hd.scan), not unrolled
    with torch.no_grad():
        want = module(*args)
    got = prog(prog.parameters(backend=backend), *[hd.asarray(a.numpy(), backend=backend) for a in args])
    got_leaves, want_leaves = _leaves(got), _leaves(want)
    assert len(got_leaves) == len(want_leaves) == 4
    for g, w in zip(got_leaves, want_leaves, strict=True):
        assert tuple(g.shape) == tuple(w.shape)
        np.testing.assert_allclose(hd.to_numpy(g), w.numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("backend_name", ["jax", "tensorflow"])
@pytest.mark.parametrize("jit", [False, True])
def test_scan_gradient_matches_torch_autograd(backend_name, jit):
    require_backend(backend_name)
    module, args = _recurrence(True, 1, (2, 5, 3))
    prog = hd.interop.from_torch(module, args)
    inputs = [hd.asarray(a.numpy(), backend=backend_name) for a in args]

    def loss(params: object) -> object:
        (h, total), ys = prog(params, *inputs)
        return hd.sum(h**2) + total + hd.sum(ys["y"] * ys["total"][None, :, None])

    grad = hd.grad(loss)
    grads = (hd.jit(grad) if jit else grad)(prog.parameters(backend=backend_name))
    module.zero_grad()
    (h, total), ys = module(*args)
    ((h**2).sum() + total + (ys["y"] * ys["total"][None, :, None]).sum()).backward()
    for name, param in module.named_parameters():
        np.testing.assert_allclose(hd.to_numpy(grads[name]), param.grad.numpy(), rtol=1e-4, atol=1e-6)
