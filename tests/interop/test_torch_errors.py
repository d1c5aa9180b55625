"""from_torch's bad input: clear hedera errors, the same class on every backend, nothing cast silently."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import hedera as hd  # noqa: E402
from hedera.interop import ExportError  # noqa: E402


class DataDependentBranch(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.sum() > 0:  # a Python branch on a tensor's value: export cannot trace it
            return x * 2
        return x


@pytest.fixture(scope="module")
def linear_program():
    torch.manual_seed(0)
    lin = torch.nn.Linear(3, 2)
    return lin, hd.interop.from_torch(lin, (torch.ones(4, 3),))


def test_untraceable_module_raises_export_error_with_torch_message_and_fix():
    with pytest.raises(ExportError) as info:
        hd.interop.from_torch(DataDependentBranch(), (torch.ones(3),))
    message = str(info.value)
    assert isinstance(info.value, hd.HederaError) and isinstance(info.value, ValueError)
    assert "DataDependentBranch" in message
    assert "dynamic_shapes" in message and "strict=False" in message
    assert "data-dependent" in message.lower() or "guard" in message.lower()  # torch's own words


def test_wrong_shape_raises_shape_error_naming_the_argument(linear_program, backend):
    _, prog = linear_program
    params = prog.parameters(backend=backend)
    with pytest.raises(hd.ShapeError, match=r"argument 'input' has shape \(5, 3\).*\(4, 3\)"):
        prog(params, hd.asarray(np.ones((5, 3), np.float32), backend=backend))


def test_wrong_dtype_raises_dtype_error_and_is_never_cast(linear_program, backend):
    _, prog = linear_program
    params = prog.parameters(backend=backend)
    with pytest.raises(hd.DtypeError, match=r"argument 'input' has dtype float64.*float32"):
        prog(params, hd.asarray(np.ones((4, 3)), dtype=hd.float64, backend=backend))


def test_dynamic_dimension_accepts_other_sizes(backend):
    torch.manual_seed(0)
    lin = torch.nn.Linear(3, 2)
    batch = torch.export.Dim("batch")
    prog = hd.interop.from_torch(lin, (torch.ones(4, 3),), dynamic_shapes=({0: batch},))
    x = np.random.default_rng(0).standard_normal((7, 3)).astype(np.float32)
    out = prog(prog.parameters(backend=backend), hd.asarray(x, backend=backend))
    np.testing.assert_allclose(
        hd.to_numpy(out), lin(torch.from_numpy(x)).detach().numpy(), rtol=1e-5, atol=1e-6
    )
    with pytest.raises(hd.ShapeError, match="argument 'input'"):
        prog(prog.parameters(backend=backend), hd.asarray(np.ones((7, 4), np.float32), backend=backend))


def test_missing_or_unknown_parameters_raise_structure_error(linear_program):
    _, prog = linear_program
    params = prog.parameters(backend="numpy")
    del params["bias"]
    with pytest.raises(hd.errors.StructureError, match="lacks bias"):
        prog(params, np.ones((4, 3), np.float32))
    params = prog.parameters(backend="numpy")
    params["extra"] = np.ones(2, np.float32)
    with pytest.raises(hd.errors.StructureError, match="unknown names extra"):
        prog(params, np.ones((4, 3), np.float32))


def test_op_without_lowering_raises_unsupported_naming_op_and_node():
    def bag(weight: torch.Tensor, ids: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.embedding_bag(ids, weight, offsets, mode="sum")

    args = (torch.randn(10, 3), torch.tensor([1, 2, 4, 5]), torch.tensor([0, 2]))
    with pytest.raises(
        hd.UnsupportedError, match=r"aten\._embedding_bag\w*\.default \(graph node '_embedding_bag\w*'\)"
    ):
        hd.interop.from_torch(bag, args)


def test_op_unsupported_on_a_backend_raises_there_only():
    """convolution_backward is lowered with hd.vjp: not on numpy, which has no autodiff."""
    aten = torch.ops.aten
    x, w, g = torch.randn(1, 2, 4, 4), torch.randn(3, 2, 3, 3), torch.randn(1, 3, 2, 2)

    def backward(gr: torch.Tensor, x: torch.Tensor, w: torch.Tensor) -> tuple:
        return aten.convolution_backward(
            gr, x, w, [3], [1, 1], [0, 0], [1, 1], False, [0, 0], 1, [True, True, True]
        )

    table = torch.export.default_decompositions()
    for name in aten.convolution_backward.overloads():
        table.pop(getattr(aten.convolution_backward, name), None)

    class Backward(torch.nn.Module):
        def forward(self, *a: torch.Tensor) -> tuple:
            return backward(*a)

    exported = torch.export.export(Backward(), (g, x, w)).run_decompositions(table)
    prog = hd.interop.from_torch(exported, (g, x, w))
    with pytest.raises(hd.UnsupportedError, match=r"aten\.convolution_backward.*numpy"):
        prog({}, g.numpy(), x.numpy(), w.numpy())
    gx, gw, gb = prog({}, g, x, w)  # torch: through hd.vjp
    want = backward(g, x, w)
    for got, ref in zip((gx, gw, gb), want, strict=True):
        np.testing.assert_allclose(got.numpy(), ref.numpy(), rtol=1e-4, atol=1e-5)


def test_input_mutation_is_refused():
    def bump(x: torch.Tensor) -> torch.Tensor:
        x.add_(1)
        return x * 2

    with pytest.raises(hd.UnsupportedError, match="in place"):
        hd.interop.from_torch(bump, (torch.ones(3),))


def test_higher_order_cond_is_mapped_or_refused_by_name():
    def branch(x: torch.Tensor) -> torch.Tensor:
        return torch.cond(x.sum() > 0, lambda v: v * 2, lambda v: v - 1, (x,))

    x = torch.tensor([1.0, -3.0])
    if not hasattr(hd, "cond"):
        with pytest.raises(hd.UnsupportedError, match="cond"):
            hd.interop.from_torch(branch, (x,))
        return
    prog = hd.interop.from_torch(branch, (x,))
    for value in (x, -x):
        np.testing.assert_allclose(prog({}, value.numpy()), branch(value).numpy())


def test_wrong_argument_structure_raises(linear_program):
    _, prog = linear_program
    with pytest.raises(hd.errors.StructureError, match="structure"):
        prog(prog.parameters(backend="numpy"), np.ones((4, 3), np.float32), np.ones(3, np.float32))
