"""A torch.func transform active inside ``torch.compile`` around hedera's control flow (torch only).

torch 2.13 cannot trace its ``cond``/``while_loop`` operators inside a ``torch.func`` transform in
a compiled region, so the construct raises :class:`hd.UnsupportedError` there, at trace time.
Dynamo treats it as any exception of traced code: it propagates; under ``fullgraph=True`` dynamo's
error is raised from it (with hedera's message). Before the fix the test itself
(``maybe_current_level()``, which returns an int) was what dynamo could not trace: the graph
broke there, with dynamo's reason.
"""

from __future__ import annotations

import pytest

import hedera as hd
from conftest import require_backend


def cond_program(x):
    return hd.sum(hd.cond(hd.sum(x) > 0, lambda v: v * v, lambda v: -v, x))


def scan_program(x):
    _, ys = hd.scan(lambda c, xi: (c + xi, c * xi), hd.zeros_like(x[0]), x)
    return hd.sum(ys)


PROGRAMS = {"cond": cond_program, "scan": scan_program}
X = [1.5, 2.0]


@pytest.fixture
def torch():
    require_backend("torch")
    import torch

    torch._dynamo.reset()
    yield torch
    torch._dynamo.reset()


def _messages(error: BaseException) -> str:
    """The messages of ``error`` and of every exception it was raised from."""
    seen = []
    while error is not None and error not in seen:
        seen.append(error)
        error = error.__cause__ or error.__context__
    return "\n".join(f"{type(e).__name__}: {e}" for e in seen)


@pytest.mark.parametrize("construct", list(PROGRAMS))
def test_fullgraph_reports_hederas_unsupported_error(torch, construct):
    program = PROGRAMS[construct]
    grad = torch.compile(lambda v: torch.func.grad(program)(v), fullgraph=True, backend="eager")
    with pytest.raises(torch._dynamo.exc.Unsupported) as caught:  # raised from the error it observed
        grad(torch.tensor(X))
    text = _messages(caught.value)
    assert "UnsupportedError" in text
    assert f"{construct}: torch.compile cannot trace torch's {construct} operator inside a torch.func" in text


@pytest.mark.parametrize("construct", list(PROGRAMS))
def test_without_fullgraph_hederas_error_propagates(torch, construct):
    program = PROGRAMS[construct]
    grad = torch.compile(lambda v: torch.func.grad(program)(v), backend="eager")
    with pytest.raises(hd.UnsupportedError, match=f"{construct}: torch.compile cannot trace .* torch.func"):
        grad(torch.tensor(X))
