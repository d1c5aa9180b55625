"""hd.value_and_grad on torch: plain torch.autograd on fresh leaves for a first-order gradient,
torch.func where a transformation composes. Both against torch.func computed directly."""

from __future__ import annotations

import pytest

import hedera as hd

torch = pytest.importorskip("torch")
func = torch.func


def loss(p, x):
    return (torch.tanh(x @ p["w"] + p["b"]) ** 2).sum() + 0.0 * p["unused"].sum()


def params():
    g = torch.Generator().manual_seed(0)
    return {
        "w": torch.randn(3, 2, generator=g, dtype=torch.float64),
        "b": torch.randn(2, generator=g, dtype=torch.float64),
        "unused": torch.ones(4, dtype=torch.float64),
    }


X = torch.linspace(-1, 1, 12, dtype=torch.float64).reshape(4, 3)


def test_first_order_gradient_is_torch_funcs():
    p = params()
    value, grads = hd.value_and_grad(loss)(p, X)
    expected_grads, expected_value = func.grad_and_value(loss)(p, X)
    assert torch.equal(value, expected_value)
    for k in p:
        torch.testing.assert_close(grads[k], expected_grads[k], rtol=1e-12, atol=1e-12)
    # the result is detached and the inputs untouched (no grad flag, no .grad)
    assert not value.requires_grad and not any(g.requires_grad for g in grads.values())
    assert not any(v.requires_grad or v.grad is not None for v in p.values())


def test_independent_output_and_aux():
    p = params()
    value, grads = hd.value_and_grad(lambda q: torch.tensor(2.0, dtype=torch.float64))(p)
    assert float(value) == 2.0 and all(bool((g == 0).all()) for g in grads.values())
    (value, aux), grads = hd.value_and_grad(lambda q: (loss(q, X), {"y": q["w"] * 2}), has_aux=True)(p)
    torch.testing.assert_close(aux["y"], p["w"] * 2)
    assert not aux["y"].requires_grad


def test_under_no_grad_and_for_inputs_in_a_graph():
    p = params()
    with torch.no_grad():
        _, grads = hd.value_and_grad(loss)(p, X)
    torch.testing.assert_close(grads["w"], func.grad(loss)(p, X)["w"])
    w = p["w"].clone().requires_grad_()  # differentiating through the gradient (torch.func keeps the graph)
    g = hd.grad(lambda w_: loss({**p, "w": w_}, X))(w)
    (g**2).sum().backward()
    expected = torch.autograd.grad((func.grad(lambda w_: loss({**p, "w": w_}, X))(w) ** 2).sum(), w)[0]
    torch.testing.assert_close(w.grad, expected)


def test_compositions_still_work():
    x = torch.tensor([0.3, -0.7], dtype=torch.float64)
    f = lambda v: (torch.sin(v) * v).sum()
    torch.testing.assert_close(
        hd.grad(lambda v: hd.grad(f)(v).sum())(x), func.grad(lambda v: func.grad(f)(v).sum())(x)
    )
    torch.testing.assert_close(
        hd.vmap(hd.grad(f))(torch.stack([x, 2 * x])), func.vmap(func.grad(f))(torch.stack([x, 2 * x]))
    )
    _, tangent = hd.jvp(hd.grad(f), (x,), (torch.ones_like(x),))
    torch.testing.assert_close(tangent, func.jvp(func.grad(f), (x,), (torch.ones_like(x),))[1])


def test_gradients_have_the_layout_of_their_contiguous_inputs():
    """torch.nn's gradient layout contract: a contiguous input's gradient is contiguous, also where
    the forward used it transposed (``w.T`` here, as the LSTM kernel hands ``torch.lstm`` hedera's
    weights), with torch.func's values; a non-contiguous input's gradient is left as autograd made it."""
    g = torch.Generator().manual_seed(1)
    w = torch.randn(3, 5, generator=g, dtype=torch.float64)
    x = torch.randn(4, 5, generator=g, dtype=torch.float64)
    wt = torch.randn(5, 3, generator=g, dtype=torch.float64).T  # non-contiguous (3, 5)

    def f(p):
        return (torch.sin(p["w"].T) * (x.T @ (x @ torch.cos(p["wt"]).T))).sum()

    p = {"w": w, "wt": wt}
    _, grads = hd.value_and_grad(f)(p)
    expected = func.grad(f)(p)
    leaf = w.detach().requires_grad_()
    assert not torch.autograd.grad(f({"w": leaf, "wt": wt}), leaf)[0].is_contiguous()  # what autograd makes
    assert grads["w"].is_contiguous() and grads["w"].stride() == w.stride()
    torch.testing.assert_close(grads["w"], expected["w"], rtol=1e-12, atol=1e-12)
    torch.testing.assert_close(grads["wt"], expected["wt"], rtol=1e-12, atol=1e-12)
