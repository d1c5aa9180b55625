"""A torch.func transform around hedera's control flow under torch.compile (torch only).

torch 2.13 cannot trace its ``cond``/``while_loop`` operators inside a ``torch.func`` transform in
a compiled region, so the construct raises :class:`hd.UnsupportedError` there, at trace time.
Under ``fullgraph=True`` dynamo's error is raised from it (with hedera's message). Without it
dynamo falls back: it runs the transform eagerly, where the constructs are Python loops and
branches, and the result is the transform's, under every compiler backend ``hd.jit`` is given.
(torch's own ``"eager"`` backend, passed to ``torch.compile`` directly, fails there in torch 2.13
with no hedera code involved: see ``backends.torch.autodiff.eager_outside_transforms``.)
"""

from __future__ import annotations

import pytest
from test_control import X0, XS
from test_control_matrix import BATCH, CONSTRUCT_PROGRAMS, TANGENT

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


@pytest.mark.parametrize("backend", ["inductor", "aot_eager"])
@pytest.mark.parametrize("construct", list(PROGRAMS))
def test_without_fullgraph_the_transform_runs_eagerly(torch, construct, backend):
    """Before, hedera's UnsupportedError escaped here under the "eager" backend: a cached frame of
    hedera's is_compiling answered True to the eagerly run transform (see test_compiled_dispatch's
    test_trace_state_asked_by_code_running_eagerly_in_a_compiled_region)."""
    program = PROGRAMS[construct]
    grad = torch.compile(lambda v: torch.func.grad(program)(v), backend=backend)
    x = torch.tensor(X, dtype=torch.float64)
    torch.testing.assert_close(grad(x), torch.func.grad(program)(x), rtol=1e-12, atol=0)


# ---- hd.jit of a transform of a construct, under every compiler backend --------------------------

TRANSFORMS = ("grad", "jvp", "vmap")
#: torch.compile takes seconds per program: the other cells run in the slow suite only
FAST = {("cond", "grad"), ("scan", "grad"), ("while_loop(max_iterations=k)", "grad")}


def _transformed(program, transform):
    """``program`` (of ``(x, xs)``) under ``transform``, as a function of arrays only."""
    if transform == "grad":
        return hd.grad(program)
    if transform == "jvp":
        return lambda x, xs, t: hd.jvp(lambda v: program(v, xs), (x,), (t,))[1]
    return lambda batch, xs: hd.vmap(lambda v: program(v, xs))(batch)


def _transform_inputs(transform):
    x, xs, t, batch = (torch_tensor(v) for v in (X0, XS, TANGENT, BATCH))
    return {"grad": (x, xs), "jvp": (x, xs, t), "vmap": (batch, xs)}[transform]


def torch_tensor(values):
    return hd.asarray(values, dtype=hd.float64, backend="torch")


def _cells():
    for construct in CONSTRUCT_PROGRAMS:
        for transform in TRANSFORMS:
            if construct == "while_loop (no bound)" and transform == "vmap":
                continue  # an UnsupportedError cell of the matrix (pass max_iterations)
            for backend in ("eager", "aot_eager", None):
                slow = backend is None or (construct, transform) not in FAST
                marks = [pytest.mark.slow] if slow else []
                name = f"{construct}-{transform}-{backend or 'default'}"
                yield pytest.param(construct, transform, backend, marks=marks, id=name)


@pytest.mark.parametrize(("construct", "transform", "backend"), list(_cells()))
def test_hd_jit_of_a_transform_under_each_compiler_backend(torch, construct, transform, backend):
    """hd.jit(hd.grad(f)) (and jvp, vmap) of each construct gives the transform's eager result under
    the debugging backends as under the default one. Before, "eager" raised hd.UnsupportedError
    (the cached is_compiling frame), then failed in torch (its own eager backend, which dynamo lets
    compile frames inside an eagerly run torch.func transform)."""
    program = CONSTRUCT_PROGRAMS[construct][0]
    transformed = _transformed(program, transform)
    options = None if backend is None else {"torch": {"backend": backend}}
    args = _transform_inputs(transform)
    expected = transformed(*args)
    got = hd.jit(transformed, backend_options=options)(*args)
    torch.testing.assert_close(got, expected, rtol=1e-12, atol=0)
