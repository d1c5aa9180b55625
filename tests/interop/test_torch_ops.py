"""from_torch, op by op: every Core ATen op of the installed torch, on every backend, against torch eager.

The op list is read from torch (ops tagged ``torch.Tag.core``). Each op's inputs are the samples of
PyTorch's own OpInfo database (``op_db``) for the torch function that lowers to it (or, for the
few ops no OpInfo reaches, a small hand-written call of the op itself). A sample is exported as a
one-op program, converted, run on each backend and compared with torch eager. The op table's
claims are what is tested: an op the table supports on a backend must match torch there; one it
declares unsupported must raise ``hd.UnsupportedError`` naming the op. The coverage test counts the
claims against the >= 95% target.

Samples per op: ``HEDERA_OP_SAMPLES`` (a number, or ``all``); by default 2 under the ``ci``
hypothesis profile (int64 for the ops whose integer semantics differ from float's) and all of them,
in float32 and int64 for every op, under ``thorough`` (``HYPOTHESIS_PROFILE=thorough``). An op may
also refuse a particular sample at run time with ``hd.UnsupportedError`` naming it (an integer
convolution on TensorFlow), never with a wrong answer; an op that refuses every sample on a
backend its row claims fails the test.
"""

from __future__ import annotations

import functools
import os

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("expecttest")

import hedera as hd  # noqa: E402
from conftest import ALL_BACKENDS, require_backend, selected_backends  # noqa: E402
from hedera.interop import _aten  # noqa: E402
from hedera.interop.torch import core_aten_ops  # noqa: E402

THOROUGH = os.environ.get("HYPOTHESIS_PROFILE") == "thorough"
_SAMPLES = os.environ.get("HEDERA_OP_SAMPLES", "all" if THOROUGH else "2")
SAMPLES = 10**9 if _SAMPLES == "all" else int(_SAMPLES)


CORE = core_aten_ops()

#: core op -> the OpInfo names whose samples reach it (default: the op's own name)
OPINFO = {
    "_adaptive_avg_pool2d": ["nn.functional.adaptive_avg_pool2d"],
    "_adaptive_avg_pool3d": ["nn.functional.adaptive_avg_pool3d"],
    "adaptive_avg_pool1d": ["nn.functional.adaptive_avg_pool1d"],
    "_cdist_forward": ["cdist"],
    "_pdist_forward": ["nn.functional.pdist"],
    "_embedding_bag": ["nn.functional.embedding_bag"],
    "_fft_r2c": ["fft.rfft", "fft.rfft2"],
    "_fft_c2r": ["fft.irfft"],
    "_native_batch_norm_legit_no_training": ["nn.functional.batch_norm"],
    "_softmax": ["softmax"],
    "_log_softmax": ["log_softmax"],
    "avg_pool1d": ["nn.functional.avg_pool1d"],
    "avg_pool2d": ["nn.functional.avg_pool2d"],
    "avg_pool3d": ["nn.functional.avg_pool3d"],
    "convolution": ["nn.functional.conv2d", "nn.functional.conv1d", "nn.functional.conv_transpose2d"],
    "elu": ["nn.functional.elu"],
    "gelu": ["nn.functional.gelu"],
    "hardtanh": ["nn.functional.hardtanh"],
    "leaky_relu": ["nn.functional.leaky_relu"],
    "relu": ["nn.functional.relu"],
    "embedding": ["nn.functional.embedding"],
    "max_pool2d_with_indices": ["nn.functional.max_pool2d"],
    "max_pool3d_with_indices": ["nn.functional.max_pool3d"],
    "upsample_bilinear2d": ["nn.functional.upsample_bilinear", "nn.functional.interpolate"],
    "grid_sampler_2d": ["nn.functional.grid_sample"],
    "native_layer_norm": ["nn.functional.layer_norm"],
    "native_group_norm": ["nn.functional.group_norm"],
    "constant_pad_nd": ["nn.functional.pad", "constant_pad_nd"],
    "col2im": ["nn.functional.fold"],
    "bitwise_not": ["bitwise_not"],
    "index": ["index_select", "take_along_dim"],
    "split_with_sizes": ["split_with_sizes", "split"],
    "squeeze": ["squeeze", "squeeze_multiple"],
    "var": ["var", "var_mean"],
    "scatter_reduce": [
        "scatter_reduce.sum",
        "scatter_reduce.prod",
        "scatter_reduce.amax",
        "scatter_reduce.mean",
    ],
    "max": ["max.reduction_with_dim"],
    "min": ["min.reduction_with_dim"],
    "prod": ["prod"],
    "amax": ["amax"],
    "div": ["div.no_rounding_mode", "div.floor_rounding", "div.trunc_rounding"],
    "pow": ["pow"],
    "full": ["full"],
    "arange": ["arange"],
    "as_strided": ["as_strided"],
    "index_put": ["index_put"],
    "nonzero": ["nonzero"],
    "sort": ["sort"],
    "topk": ["topk"],
}


#: ops that only a direct call reaches (backward ops, symbolic sizes, RNG, aliases): op -> samples
def _direct_cases() -> dict[str, list[tuple]]:
    g = torch.Generator().manual_seed(0)

    def rn(*shape: int) -> torch.Tensor:
        return torch.randn(*shape, generator=g)

    aten = torch.ops.aten
    x4 = rn(2, 3, 6, 6)
    w = rn(4, 3, 3, 3)
    idx = torch.tensor([[0, 2], [1, 0]])
    ln_x = rn(3, 5)
    ln_out = aten.native_layer_norm(ln_x, [5], rn(5), rn(5), 1e-5)
    gn_x = rn(2, 4, 3, 3)
    gn = aten.native_group_norm(gn_x, rn(4), rn(4), 2, 4, 9, 2, 1e-5)
    mp_x = rn(1, 2, 4, 4)
    mp_out, mp_idx = aten.max_pool2d_with_indices(mp_x, [2, 2], [2, 2])
    return {
        "alias": [(lambda x: aten.alias(x) * 1, (rn(3, 2),))],
        "copy": [(lambda x, y: aten.copy(x, y), (rn(3, 2), rn(2)))],
        "_to_copy": [
            (lambda x: x.to(torch.int64), (rn(4) * 5,)),
            (lambda x: x.to(torch.float32), (torch.arange(4),)),
        ],
        "clone": [(lambda x: x.clone() + 0, (rn(3),))],
        "_local_scalar_dense": [(lambda x: torch.full((2,), x.sum().item()), (rn(3),))],
        "native_dropout": [(lambda x: aten.native_dropout(x, 0.5, False), (rn(3, 4),))],
        "avg_pool2d_backward": [
            (
                lambda gr, x: aten.avg_pool2d_backward(gr, x, [2, 2], [2, 2], [0, 0], False, True, None),
                (rn(2, 3, 3, 3), x4),
            )
        ],
        "_adaptive_avg_pool2d_backward": [
            (lambda gr, x: aten._adaptive_avg_pool2d_backward(gr, x), (rn(2, 3, 2, 2), x4))
        ],
        "convolution_backward": [
            (
                lambda gr, x, ww: aten.convolution_backward(
                    gr, x, ww, [4], [1, 1], [0, 0], [1, 1], False, [0, 0], 1, [True, True, True]
                ),
                (rn(2, 4, 4, 4), x4, w),
            )
        ],
        "embedding_dense_backward": [
            (lambda gr, i: aten.embedding_dense_backward(gr, i, 4, -1, False), (rn(2, 2, 3), idx))
        ],
        "max_pool2d_with_indices_backward": [
            (
                lambda gr, x, i: aten.max_pool2d_with_indices_backward(
                    gr, x, [2, 2], [2, 2], [0, 0], [1, 1], False, i
                ),
                (rn(*mp_out.shape), mp_x, mp_idx),
            )
        ],
        "native_layer_norm_backward": [
            (
                lambda gr, x, m, r, ww, b: aten.native_layer_norm_backward(
                    gr, x, [5], m, r, ww, b, [True, True, True]
                ),
                (rn(3, 5), ln_x, ln_out[1], ln_out[2], rn(5), rn(5)),
            )
        ],
        "native_group_norm_backward": [
            (
                lambda gr, x, m, r, ww: aten.native_group_norm_backward(
                    gr, x, m, r, ww, 2, 4, 9, 2, [True, True, True]
                ),
                (rn(2, 4, 3, 3), gn_x, gn[1], gn[2], rn(4)),
            )
        ],
        "_native_batch_norm_legit": [
            (
                lambda x, ww, b: aten._native_batch_norm_legit.no_stats(x, ww, b, True, 0.1, 1e-5),
                (rn(4, 3, 2), rn(3), rn(3)),
            )
        ],
        "fill": [(lambda x: aten.fill(x, 2.5), (rn(3),))],
        "empty": [(lambda x: torch.empty(3, 2).fill_(1.0) + x, (rn(2),))],
        "empty_strided": [(lambda x: aten.empty_strided([3, 2], [2, 1]).fill_(2.0) + x, (rn(2),))],
        "scalar_tensor": [(lambda x: aten.scalar_tensor(3.0) * x, (rn(2),))],
        "index": [
            (lambda x, i: x[i], (rn(4, 3), torch.tensor([3, 0, 1]))),
            (lambda x, i: x[:, i], (rn(4, 3), torch.tensor([[2, 0]]))),
        ],
        "col2im": [(lambda x: torch.nn.functional.fold(x, (4, 5), (2, 2)), (rn(1, 12, 12),))],
        "rand": [(lambda x: torch.rand(200) + x, (torch.zeros(()),))],
        "randn": [(lambda x: torch.randn(400) + x, (torch.zeros(()),))],
        "randperm": [(lambda x: torch.randperm(10) + x, (torch.zeros((), dtype=torch.int64),))],
        "sym_size": [(lambda x: x.reshape(x.shape[0] * x.shape[1]), (rn(3, 4),))],
        "reflection_pad1d": [(lambda x: torch.nn.functional.pad(x, (2, 1), mode="reflect"), (rn(2, 3, 5),))],
        "reflection_pad2d": [
            (lambda x: torch.nn.functional.pad(x, (1, 2, 2, 0), mode="reflect"), (rn(1, 2, 4, 5),))
        ],
        "replication_pad2d": [
            (lambda x: torch.nn.functional.pad(x, (1, 2, 2, 0), mode="replicate"), (rn(1, 2, 4, 5),))
        ],
        "upsample_nearest2d": [
            (
                lambda x: torch.nn.functional.interpolate(x, scale_factor=2.0, mode="nearest"),
                (rn(1, 2, 3, 4),),
            ),
            (lambda x: torch.nn.functional.interpolate(x, size=(5, 7), mode="nearest"), (rn(1, 2, 3, 4),)),
        ],
        "reflection_pad3d": [
            (lambda x: torch.nn.functional.pad(x, (1, 2, 0, 1, 2, 1), mode="reflect"), (rn(1, 2, 3, 4, 4),))
        ],
        "replication_pad3d": [
            (lambda x: torch.nn.functional.pad(x, (1, 2, 0, 1, 2, 1), mode="replicate"), (rn(1, 2, 3, 4, 4),))
        ],
        "_embedding_bag": [],
        "resize_": [],
    }


DIRECT = _direct_cases()
#: size queries that export folds into sym_size arithmetic: their lowerings are checked directly
SIZE_QUERIES = {
    "sym_numel": lambda t: t.numel(),
    "sym_stride": lambda t: t.stride(1),
    "sym_storage_offset": lambda t: t.storage_offset(),
    "sym_is_contiguous": lambda t: t.is_contiguous(),
}
#: ops whose result is random: compared by shape, dtype and distribution, not values
RANDOM = {"rand": (0.3, 0.7), "randn": (-0.3, 0.3), "randperm": None}
#: symbolic-size ops appear only in programs exported with dynamic dimensions
DYNAMIC = {"sym_size", "sym_numel", "sym_stride", "sym_storage_offset", "sym_is_contiguous"}


@functools.cache
def _opinfos() -> dict[str, list]:
    from torch.testing._internal.common_methods_invocations import op_db
    from torch.testing._internal.opinfo import core as opinfo_core

    # OpInfo.sample_inputs looks for the unittest.TestCase running it (its per-sample skips) with
    # inspect.stack(), which reads the source of every frame: about 0.5 s per call under pytest,
    # a third of this file's time. These tests are pytest functions: there is no such TestCase.
    opinfo_core.extract_test_fn = lambda: None
    table: dict[str, list] = {}
    for info in op_db:
        table.setdefault(
            info.name if not info.variant_test_name else f"{info.name}.{info.variant_test_name}", []
        ).append(info)
        table.setdefault(info.name, []).append(info)
    return table


def _opinfo_cases(op: str, dtype: torch.dtype) -> list[tuple]:
    """(fn, tensors) pairs from the OpInfo samples of ``op``'s torch functions, in ``dtype``."""
    cases = []
    for name in OPINFO.get(op, [op]):
        for info in _opinfos().get(name, []):
            if dtype not in info.supported_dtypes("cpu"):
                continue
            for sample in itertools.islice(info.sample_inputs("cpu", dtype), 4 * SAMPLES):  # some fail
                cases.append(_one_op_program(info, sample))
        if len(cases) >= 4 * SAMPLES:
            break
    return cases


import itertools  # noqa: E402


def _one_op_program(info: object, sample: object) -> tuple:
    """``sample`` as a function of its tensors only (the other arguments are constants)."""
    from torch.utils import _pytree

    leaves, spec = _pytree.tree_flatten((sample.input, sample.args, sample.kwargs))
    where = [i for i, leaf in enumerate(leaves) if isinstance(leaf, torch.Tensor)]
    consts = list(leaves)

    def fn(*tensors: torch.Tensor) -> object:
        filled = list(consts)
        for i, t in zip(where, tensors, strict=True):
            filled[i] = t
        x, args, kwargs = _pytree.tree_unflatten(filled, spec)
        return info.op(x, *args, **kwargs)

    return fn, tuple(leaves[i].detach().clone() for i in where)


def _graph_ops(prog: object) -> set[str]:
    return {
        n.target._schema.name.split("::")[1]
        for n in prog.exported_program.graph.nodes
        if n.op == "call_function" and isinstance(n.target, torch._ops.OpOverload)
    }


def _backend_array(t: torch.Tensor, backend: str) -> object:
    return hd.asarray(t.numpy(), backend=backend)


def _leaves(out: object) -> list:
    from torch.utils import _pytree

    return [leaf for leaf in _pytree.tree_leaves(out)]


#: ops whose index output is unspecified among equal values (torch documents no tie order)
TIED_INDICES = {"topk", "sort"}


def _compare(op: str, got: object, want: object, backend: str) -> None:
    got_leaves, want_leaves = _leaves(got), _leaves(want)
    if op in TIED_INDICES and want_leaves[0].dtype != torch.float32:
        got_leaves, want_leaves = got_leaves[:1], want_leaves[:1]  # integer samples have ties
    assert len(got_leaves) == len(want_leaves), (
        f"{op} on {backend}: {len(got_leaves)} outputs, torch {len(want_leaves)}"
    )
    for g, w in zip(got_leaves, want_leaves, strict=True):
        if not isinstance(w, torch.Tensor):
            assert g == w, f"{op} on {backend}: {g!r} != {w!r}"
            continue
        g = hd.to_numpy(g)
        w = w.detach().numpy()
        assert g.shape == w.shape, f"{op} on {backend}: shape {g.shape}, torch {w.shape}"
        assert g.dtype == w.dtype, f"{op} on {backend}: dtype {g.dtype}, torch {w.dtype}"
        if op in RANDOM:
            _check_random(op, g)
            continue
        if w.dtype.kind in "fc":
            np.testing.assert_allclose(
                g, w, rtol=2e-4, atol=2e-5, equal_nan=True, err_msg=f"{op} on {backend}"
            )
        else:
            np.testing.assert_array_equal(g, w, err_msg=f"{op} on {backend}")


def _check_random(op: str, values: np.ndarray) -> None:
    bounds = RANDOM[op]
    if bounds is None:  # a permutation
        assert sorted(values.tolist()) == list(range(values.size))
        return
    assert bounds[0] < values.mean() < bounds[1], f"{op}: mean {values.mean()}"
    if op == "rand":
        assert values.min() >= 0 and values.max() < 1


def _cases(op: str, dtype: torch.dtype) -> list[tuple]:
    if op in DIRECT:
        return DIRECT[op] if dtype == torch.float32 else []
    return _opinfo_cases(op, dtype)


def _dynamic(args: tuple) -> tuple:
    """Dimension 0 of every tensor argument dynamic (the one-op programs take ``*args``)."""
    return (tuple({0: torch.export.Dim.AUTO} if a.ndim else None for a in args),)


class _Program(torch.nn.Module):
    def __init__(self, fn: object) -> None:
        super().__init__()
        self.fn = fn

    def forward(self, *args: object) -> object:
        return self.fn(*args)


def _export_keeping(op: str, fn: object, args: tuple) -> object:
    """The one-op program of ``fn`` holding aten.``op``: exported, decomposed to Core ATen, converted.

    Some core ops (``fill``, ``col2im``, the backward ops...) are decomposed further by
    ``run_decompositions()``'s default table; for those the table is the default one minus ``op``.
    Returns None when the graph does not hold ``op`` either way.
    """
    dynamic = _dynamic(args) if op in DYNAMIC else None
    try:
        prog = hd.interop.from_torch(fn, args, dynamic_shapes=dynamic)
    except hd.UnsupportedError as e:
        # a sample that updates its input (batch norm's running stats), or that needs another,
        # non-core op (embedding's max_norm: embedding_renorm): refused by name, as it must be
        if "in place" in str(e) or f"aten.{op}." not in str(e):
            return None
        raise
    if op in _graph_ops(prog):
        return prog
    table = torch.export.default_decompositions()
    packet = getattr(torch.ops.aten, op)
    for name in packet.overloads():
        table.pop(getattr(packet, name), None)
    exported = torch.export.export(_Program(fn), args, dynamic_shapes=dynamic, strict=False)
    try:
        prog = hd.interop.from_torch(exported.run_decompositions(table), args)
    except hd.UnsupportedError as e:
        if "in place" in str(e):
            return None
        raise
    return prog if op in _graph_ops(prog) else None


def _check_size_query(op: str) -> None:
    t = torch.zeros(3, 4, 5)
    args = {"sym_stride": (1,)}.get(op, ())
    for backend in selected_backends():
        require_backend(backend)
        x = hd.asarray(t.numpy(), backend=backend)
        assert _aten.ROWS[op].fn(x, *args) == SIZE_QUERIES[op](t)


def _run_op(op: str, dtype: torch.dtype) -> None:
    if op in SIZE_QUERIES:
        if dtype != torch.float32:
            pytest.skip("a size query")
        _check_size_query(op)
        return
    cases = _cases(op, dtype)
    if not cases:
        if dtype == torch.float32 and not _cases(op, torch.int64):
            pytest.fail(f"no sample reaches aten.{op}")
        pytest.skip(f"aten.{op} has no {dtype} samples")
    reached = 0
    refused: dict[str, int] = {}
    for fn, args in cases:
        if reached >= SAMPLES:
            break
        try:
            want = fn(*args)
        except Exception:
            continue  # a sample torch itself rejects (error-input samples)
        prog = _export_keeping(op, fn, args)
        if prog is None:
            continue
        reached += 1
        for backend in selected_backends():
            require_backend(backend)
            row = _aten.ROWS.get(op)
            params = prog.state_dict(backend=backend)
            inputs = [_backend_array(a, backend) for a in args]
            if row is not None and backend in row.unsupported:
                with pytest.raises(hd.UnsupportedError, match=op):
                    prog(params, *inputs)
                continue
            try:
                got = prog(params, *inputs)
            except hd.UnsupportedError as e:  # this sample's arguments only: named, never wrong
                assert f"aten.{op}" in str(e), e
                refused[backend] = refused.get(backend, 0) + 1
                continue
            _compare(op, got, want, backend)
    if reached == 0:
        pytest.fail(f"none of {len(cases)} samples exports to a graph holding aten.{op}")
    everywhere = [b for b, n in refused.items() if n == reached and dtype == torch.float32]
    assert not everywhere, f"aten.{op} refused every float32 sample on {everywhere}: its row claims it"


SUPPORTED = [op for op in CORE if op in _aten.ROWS and len(_aten.ROWS[op].unsupported) < len(ALL_BACKENDS)]
UNLOWERED = [op for op in CORE if op not in _aten.ROWS]


@pytest.mark.parametrize("op", SUPPORTED)
def test_core_op_float32(op):
    _run_op(op, torch.float32)


#: int64 in the ci profile: ops whose integer results follow rules of their own (division,
#: rounding, bitwise, promotion of reductions, index arithmetic)
INT_CI = {
    "add",
    "sub",
    "mul",
    "div",
    "remainder",
    "fmod",
    "floor",
    "round",
    "abs",
    "neg",
    "sign",
    "pow",
    "maximum",
    "minimum",
    "clamp",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "bitwise_not",
    "eq",
    "lt",
    "where",
    "sum",
    "prod",
    "cumsum",
    "mean",
    "amax",
    "argmax",
    "max",
    "sort",
    "topk",
    "cat",
    "gather",
    "scatter",
    "index_put",
    "arange",
    "full",
    "constant_pad_nd",
    "avg_pool2d",
    "convolution",
}
INT_OPS = [
    op for op in SUPPORTED if op not in DIRECT and op not in SIZE_QUERIES and (THOROUGH or op in INT_CI)
]


@pytest.mark.parametrize("op", INT_OPS)
def test_core_op_int64(op):
    _run_op(op, torch.int64)


@pytest.mark.parametrize("op", UNLOWERED)
def test_unlowered_op_raises_naming_it(op):
    cases = _cases(op, torch.float32)
    for fn, args in cases[:1]:
        with pytest.raises(hd.UnsupportedError, match=op):
            hd.interop.from_torch(fn, args)


def test_coverage_target():
    """>= 95% of the Core ATen ops run on jax, tensorflow and numpy (as the table claims, tested above)."""
    assert len(CORE) >= 160, CORE
    for backend in ("jax", "tensorflow", "numpy"):
        ok = [op for op in CORE if op in _aten.ROWS and backend not in _aten.ROWS[op].unsupported]
        assert len(ok) / len(CORE) >= 0.95, (backend, sorted(set(CORE) - set(ok)))


def _sweep_findings() -> dict[str, tuple]:
    """Samples on which the all-samples sweep found a wrong answer or a framework error (now fixed)."""
    g = torch.Generator().manual_seed(0)
    x0, i0, s0 = torch.tensor(-4.8613), torch.tensor(0), torch.tensor(-8.8634)
    return {
        # a mask with more dimensions than the input widens the result
        "masked_scatter_wider_mask": (
            torch.masked_scatter,
            (
                torch.randn(5, generator=g),
                torch.rand(5, 5, generator=g) > 0.5,
                torch.randn(5, 5, generator=g),
            ),
        ),
        # a 0-d scatter ignored reduce= (a wrong answer)
        "scatter_0d_add": (lambda x, i, s: torch.scatter(x, 0, i, s, reduce="add"), (x0, i0, s0)),
        "scatter_0d_multiply": (lambda x, i, s: torch.scatter(x, 0, i, s, reduce="multiply"), (x0, i0, s0)),
        # round.decimals raised a TypeError
        "round_decimals": (lambda x: torch.round(x, decimals=2), (torch.randn(6, generator=g) * 10,)),
        "round_negative_decimals": (
            lambda x: torch.round(x, decimals=-1),
            (torch.randn(6, generator=g) * 100,),
        ),
        # aten.sort.stable's keyword raised a TypeError
        "sort_stable": (
            lambda x: torch.sort(x, stable=True, descending=True),
            (torch.tensor([3.0, 1.0, 3.0, 2.0, 1.0]),),
        ),
        # an empty batch made group norm's reshape(-1) ambiguous
        "group_norm_empty_batch": (
            lambda x, w, b: torch.nn.functional.group_norm(x, 2, w, b),
            (torch.randn(0, 4, 3, generator=g), torch.randn(4, generator=g), torch.randn(4, generator=g)),
        ),
    }


SWEEP_FINDINGS = _sweep_findings()


@pytest.mark.parametrize("case", list(SWEEP_FINDINGS))
def test_sweep_finding_matches_torch(case, backend):
    fn, args = SWEEP_FINDINGS[case]
    prog = hd.interop.from_torch(fn, args)
    got = prog({}, *[_backend_array(a, backend) for a in args])
    _compare(case, got, fn(*args), backend)
