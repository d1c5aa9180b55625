"""Every cell of the control-flow support matrix (hedera._control_support.SUPPORT), run.

A "yes" cell checks the result against a NumPy loop (forward, vmap) or central finite
differences in float64 (reverse, forward-mode); an error cell checks that the hedera error is
raised, naming the construct. The last test checks that docs/control_flow.md shows the table.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_control import PROGRAMS, X0, XS, _arrays, central_differences

import hedera as hd
from conftest import require_backend, selected_backends
from hedera import _control_support as support


def unbounded_program(x, xs):
    return hd.sum(hd.while_loop(lambda c: hd.sum(c * c) < 4.0, lambda c: c * 1.5 + xs[0, 0] * 0.0, x))


def unbounded_reference(x, xs):
    while np.sum(x * x) < 4.0:
        x = x * 1.5
    return float(x.sum())


CONSTRUCT_PROGRAMS = {
    "cond": PROGRAMS["cond"],
    "switch": PROGRAMS["switch"],
    "while_loop(max_iterations=k)": PROGRAMS["while_loop"],
    "while_loop (no bound)": (unbounded_program, unbounded_reference),
    "scan": PROGRAMS["scan"],
    "fori_loop": PROGRAMS["fori_loop"],
    "map": PROGRAMS["map"],
}
TANGENT = np.array([0.3, -0.7])
BATCH = np.stack([X0, -X0, 0.3 * X0])
#: torch.compile takes seconds per program: these cells run in the slow suite only
FAST_TORCH_COMPILED = {"cond", "while_loop(max_iterations=k)", "scan"}


def _run(backend, stage, mode, program):
    """The cell's value as a NumPy array."""
    x, xs, t, batch = _arrays(backend, X0, XS, TANGENT, BATCH)
    compiled = stage == "compiled"
    if mode == "forward":
        return hd.to_numpy((hd.jit(program) if compiled else program)(x, xs))
    if mode == "reverse":
        if compiled and backend == "torch":  # autograd through the compiled call, as torch users do
            x.requires_grad_(True)
            hd.jit(program)(x, xs).backward()
            return hd.to_numpy(x.grad)
        grad = hd.grad(program)
        return hd.to_numpy((hd.jit(grad) if compiled else grad)(x, xs))
    if mode == "forward-mode":

        def tangent_out(v, u):
            return hd.jvp(lambda w: program(w, xs), (v,), (u,))[1]

        return hd.to_numpy((hd.jit(tangent_out) if compiled else tangent_out)(x, t))
    mapped = hd.vmap(lambda v: program(v, xs))
    return hd.to_numpy((hd.jit(mapped) if compiled else mapped)(batch))


def _expected(mode, reference):
    if mode == "forward":
        return reference(X0, XS)
    if mode == "vmap":
        return [reference(row, XS) for row in BATCH]
    grad = central_differences(reference, X0, XS)
    return grad if mode == "reverse" else float(grad @ TANGENT)


def _params():
    for (construct, backend), cells in support.SUPPORT.items():
        if backend not in selected_backends():
            continue  # (mxnet runs in its own venv: scripts/test-mxnet.sh sets HEDERA_BACKENDS=numpy,mxnet)
        for (stage, mode), value in cells.items():
            slow = backend == "torch" and stage == "compiled" and construct not in FAST_TORCH_COMPILED
            marks = [pytest.mark.slow] if slow else []
            name = f"{construct}-{backend}-{stage}-{mode}"
            yield pytest.param(construct, backend, stage, mode, value, marks=marks, id=name)


@pytest.mark.parametrize(("construct", "backend_name", "stage", "mode", "value"), list(_params()))
def test_cell(construct, backend_name, stage, mode, value):
    require_backend(backend_name)
    program, reference = CONSTRUCT_PROGRAMS[construct]
    if value.startswith("yes"):
        got = _run(backend_name, stage, mode, program)
        rtol = 1e-12 if mode in ("forward", "vmap") else 1e-6
        np.testing.assert_allclose(got, _expected(mode, reference), rtol=rtol, atol=1e-8)
        return
    error = getattr(hd, value.split(":")[0])
    name = construct.split("(")[0].split(" ")[0]
    if "hd.jvp's error" in value:  # raised by the transform, not the construct
        name = "jvp"
    with pytest.raises(error, match=name if error is hd.UnsupportedError else None):
        _run(backend_name, stage, mode, program)


def test_the_docs_show_the_table():
    page = (Path(__file__).parents[2] / "docs" / "control_flow.md").read_text()
    assert support.markdown() in page
