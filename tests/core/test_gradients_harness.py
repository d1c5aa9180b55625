"""Gradients of every differentiable core function, on every autodiff backend.

One table (:data:`ROWS`) gives, for each differentiable function of
``hedera._api.FUNCTIONS``, inputs inside its smooth domain (``log`` gets positive
numbers, ``sort`` distinct ones, ``cholesky`` a symmetric positive definite
matrix) and, where the plain call does not fit, how to call it. For each row and
backend:

* ``test_gradient_matches_finite_differences``: ``hd.grad`` of a scalar loss
  (the outputs weighted by fixed random weights and summed; complex outputs by
  their real and imaginary parts) equals central finite differences of the same
  loss, in float64.
* ``test_gradients_agree_across_backends``: torch, jax and tensorflow give the
  same gradient.

:data:`NOT_DIFFERENTIABLE` lists the other functions with the reason, and
``test_table_covers_the_api`` checks that the two together cover the API table.
Inputs are fixed (seeded by the row's name), not hypothesis-drawn: finite
differences need points away from kinks and ties, which a fixed, checked point
guarantees.
"""

from __future__ import annotations

import functools
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

import hedera as hd
from conftest import AUTODIFF_BACKENDS, require_backend, selected_backends
from hedera._api import FUNCTIONS

# ---- input specs: rng -> numpy float64 array (or a constant of another dtype) -----------------


def uni(lo: float, hi: float, shape: tuple = (3,)) -> Callable:
    """Uniform in (lo, hi)."""
    return lambda rng: rng.uniform(lo, hi, shape)


def away0(shape: tuple = (3,)) -> Callable:
    """Random sign times a magnitude in (0.5, 2): away from zero."""
    return lambda rng: rng.choice([-1.0, 1.0], shape) * rng.uniform(0.5, 2.0, shape)


def distinct(shape: tuple = (3, 4)) -> Callable:
    """Distinct values at least 0.1 apart (no ties for sort/max/top_k)."""
    n = int(np.prod(shape))
    return lambda rng: (rng.permutation(n) * 0.3 + rng.uniform(0, 0.1, n) - 0.15 * n).reshape(shape)


def diagdom(n: int = 3) -> Callable:
    """A well-conditioned matrix: 2 I plus small noise (its symmetric part is positive definite)."""
    return lambda rng: 2.0 * np.eye(n) + rng.uniform(-0.3, 0.3, (n, n))


def spread(n: int = 3) -> Callable:
    """A matrix with well-separated eigenvalues/singular values (distinct, so eigenvectors are smooth)."""

    def make(rng: np.random.Generator) -> np.ndarray:
        q, _ = np.linalg.qr(rng.normal(size=(n, n)))
        return q @ np.diag(np.arange(1.0, n + 1) * 1.5) @ q.T + rng.uniform(-0.05, 0.05, (n, n))

    return make


def const(value: Any) -> Callable:
    """A constant (integer indices, a boolean mask): passed through, never differentiated."""
    return lambda rng: np.asarray(value)


@dataclass(frozen=True, eq=False)
class G:
    """One row: a function, its inputs, and how to call it.

    ``call(*arrays)`` defaults to ``hd.<qualname>(*arrays, **kwargs)``. Float64
    inputs are differentiated; constants (ints, bools) are not.
    """

    qualname: str
    inputs: tuple[Callable, ...]
    call: Callable | None = None
    kwargs: dict = field(default_factory=dict)
    label: str = ""
    tol: float = 1.0

    @property
    def id(self) -> str:
        return self.qualname + (f"[{self.label}]" if self.label else "")

    def function(self) -> Callable:
        if self.call is not None:
            return self.call
        target: Any = hd
        for part in self.qualname.split("."):
            target = getattr(target, part)
        return functools.partial(target, **self.kwargs)


def _sym(x: Any) -> Any:
    return (x + hd.matrix_transpose(x)) * 0.5


def _complex(re: Any, im: Any) -> Any:
    return hd.add(hd.astype(re, hd.complex128), hd.multiply(hd.astype(im, hd.complex128), 1j))


def _c(fn: Callable) -> Callable:
    """``fn`` of a complex array built from two real inputs (real and imaginary parts)."""
    return lambda re, im: fn(_complex(re, im))


S34 = (3, 4)
_unary_real = {
    "abs": away0(), "acos": uni(-0.8, 0.8), "acosh": uni(1.2, 3.0), "asin": uni(-0.8, 0.8),
    "asinh": uni(-2, 2), "atan": uni(-2, 2), "atanh": uni(-0.8, 0.8), "ceil": uni(-2, 2),
    "cos": uni(-2, 2), "cosh": uni(-2, 2),
    "exp": uni(-2, 2), "expm1": uni(-2, 2), "floor": uni(-2, 2), "log": uni(0.5, 2), "log1p": uni(-0.5, 2),
    "log2": uni(0.5, 2), "log10": uni(0.5, 2), "negative": uni(-2, 2), "positive": uni(-2, 2),
    "reciprocal": away0(), "round": uni(-2, 2), "sign": away0(), "sin": uni(-2, 2), "sinh": uni(-2, 2),
    "square": uni(-2, 2), "sqrt": uni(0.5, 2), "tan": uni(-1.2, 1.2), "tanh": uni(-2, 2), "trunc": uni(-2, 2),
}  # fmt: skip
_binary_real = {
    "add": (uni(-2, 2), uni(-2, 2)), "atan2": (uni(-2, 2), away0()), "copysign": (away0(), away0()),
    "divide": (uni(-2, 2), away0()), "hypot": (away0(), away0()), "logaddexp": (uni(-2, 2), uni(-2, 2)),
    "maximum": (uni(-2, 2), uni(-2, 2)), "minimum": (uni(-2, 2), uni(-2, 2)),
    "multiply": (uni(-2, 2), uni(-2, 2)),
    "pow": (uni(0.5, 2), uni(-1.5, 1.5)), "remainder": (uni(2.2, 2.8), uni(1.0, 1.05)),
    "subtract": (uni(-2, 2), uni(-2, 2)),
}  # fmt: skip

ROWS: list[G] = [
    *(G(name, (spec,)) for name, spec in _unary_real.items()),
    *(G(name, specs) for name, specs in _binary_real.items()),
    G("clip", (uni(-1, 1, (5,)),), kwargs={"min": -0.5, "max": 0.5}),
    G("conj", (uni(-2, 2), uni(-2, 2)), call=_c(hd.conj)),
    G("real", (uni(-2, 2), uni(-2, 2)), call=_c(hd.real)),
    G("imag", (uni(-2, 2), uni(-2, 2)), call=_c(hd.imag)),
    G("abs", (uni(-2, 2), uni(-2, 2)), call=_c(hd.abs), label="complex"),
    # creation
    G("asarray", (uni(-2, 2),)),
    G("full_like", (uni(-2, 2),), kwargs={"fill_value": 3.0}),
    G("ones_like", (uni(-2, 2),)),
    G("zeros_like", (uni(-2, 2),)),
    G("meshgrid", (uni(-2, 2), uni(-2, 2, (2,)))),
    G("tril", (uni(-2, 2, (3, 3)),)),
    G("triu", (uni(-2, 2, (3, 3)),), kwargs={"k": 1}),
    G("astype", (uni(-2, 2),), call=lambda x: hd.astype(x, hd.float64)),
    G("to_device", (uni(-2, 2),), call=lambda x: hd.to_device(x, "cpu")),
    # indexing
    G("take", (uni(-2, 2, S34), const([2, 0, 2])), kwargs={"axis": 1}),
    G("take_along_axis", (uni(-2, 2, S34), const([[0, 3], [1, 1], [2, 0]])), kwargs={"axis": 1}),
    # linear algebra
    G("matmul", (uni(-2, 2, (2, 3)), uni(-2, 2, (3, 4)))),
    G("matrix_transpose", (uni(-2, 2, (2, 3)),)),
    G("tensordot", (uni(-2, 2, (2, 3)), uni(-2, 2, (3, 4))), kwargs={"axes": 1}),
    G("vecdot", (uni(-2, 2, S34), uni(-2, 2, S34))),
    # manipulation
    G("broadcast_arrays", (uni(-2, 2, (3,)), uni(-2, 2, (2, 1)))),
    G("broadcast_to", (uni(-2, 2, (3,)),), call=lambda x: hd.broadcast_to(x, (2, 3))),
    G("concat", (uni(-2, 2, (2, 3)), uni(-2, 2, (1, 3))), call=lambda x, y: hd.concat([x, y])),
    G("expand_dims", (uni(-2, 2),), call=lambda x: hd.expand_dims(x, 0)),
    G("flip", (uni(-2, 2, S34),), kwargs={"axis": 1}),
    G("moveaxis", (uni(-2, 2, (2, 3, 4)),), call=lambda x: hd.moveaxis(x, 0, 2)),
    G("permute_dims", (uni(-2, 2, (2, 3, 4)),), call=lambda x: hd.permute_dims(x, (2, 0, 1))),
    G("repeat", (uni(-2, 2, (2, 3)),), call=lambda x: hd.repeat(x, 2, axis=1)),
    G("reshape", (uni(-2, 2, S34),), call=lambda x: hd.reshape(x, (2, 6))),
    G("roll", (uni(-2, 2, S34),), call=lambda x: hd.roll(x, 1, axis=1)),
    G("squeeze", (uni(-2, 2, (1, 3)),), call=lambda x: hd.squeeze(x, 0)),
    G("stack", (uni(-2, 2), uni(-2, 2)), call=lambda x, y: hd.stack([x, y], axis=1)),
    G("tile", (uni(-2, 2, (2, 3)),), call=lambda x: hd.tile(x, (2, 1))),
    G("unstack", (uni(-2, 2, S34),), kwargs={"axis": 1}),
    # searching, sorting, statistics, utility
    G("where", (const([True, False, True]), uni(-2, 2), uni(-2, 2))),
    G("sort", (distinct(),), kwargs={"axis": 1}),
    G("sort", (distinct(),), kwargs={"axis": 0, "descending": True}, label="descending"),
    G("cumulative_prod", (uni(0.5, 1.5, S34),), kwargs={"axis": 1}),
    G("cumulative_sum", (uni(-2, 2, S34),), kwargs={"axis": 0, "include_initial": True}),
    G("max", (distinct(),), kwargs={"axis": 1}),
    G("min", (distinct(),)),
    G("mean", (uni(-2, 2, S34),), kwargs={"axis": 0}),
    G("prod", (uni(0.5, 1.5, S34),), kwargs={"axis": 1}),
    G("std", (uni(-2, 2, S34),), kwargs={"axis": 1, "correction": 1}),
    G("sum", (uni(-2, 2, S34),), kwargs={"axis": 1, "keepdims": True}),
    G("var", (uni(-2, 2, S34),)),
    G("diff", (uni(-2, 2, S34),), kwargs={"axis": 1}),
    # extras
    G("cumprod", (uni(0.5, 1.5, S34),), kwargs={"axis": 0}),
    G("cumsum", (uni(-2, 2, S34),), kwargs={"axis": 1}),
    G("einsum", (uni(-2, 2, (2, 3)), uni(-2, 2, (3, 4))), call=lambda a, b: hd.einsum("ij,jk->ik", a, b)),
    G("gather_nd", (uni(-2, 2, S34), const([[0, 1], [2, 3], [0, 1]]))),
    G("logsumexp", (uni(-2, 2, S34),), kwargs={"axis": 1}),
    G("pad", (uni(-2, 2, (2, 3)),), call=lambda x: hd.pad(x, 1, mode="reflect")),
    G(
        "scatter_nd",
        (const([[0], [2], [0]]), uni(-2, 2, (3, 2))),
        call=lambda i, u: hd.scatter_nd(i, u, (4, 2)),
    ),
    G("split", (uni(-2, 2, (6, 2)),), call=lambda x: hd.split(x, 3)),
    G("top_k", (distinct(),), call=lambda x: hd.top_k(x, 2)),
    # linalg
    G("linalg.cholesky", (diagdom(),), call=lambda x: hd.linalg.cholesky(_sym(x))),
    G("linalg.cross", (uni(-2, 2, (2, 3)), uni(-2, 2, (2, 3)))),
    G("linalg.det", (diagdom(),)),
    G("linalg.diagonal", (uni(-2, 2, (3, 3)),), kwargs={"offset": 1}),
    G("linalg.eigh", (spread(),), call=lambda x: _eigh(hd.linalg.eigh(_sym(x)))),
    G("linalg.eigvalsh", (spread(),), call=lambda x: hd.linalg.eigvalsh(_sym(x))),
    G("linalg.inv", (diagdom(),)),
    G("linalg.matmul", (uni(-2, 2, (2, 3)), uni(-2, 2, (3, 2)))),
    G("linalg.matrix_norm", (uni(-2, 2, S34),)),
    G("linalg.matrix_norm", (spread(),), kwargs={"ord": "nuc"}, label="nuc"),
    G("linalg.matrix_power", (diagdom(),), call=lambda x: hd.linalg.matrix_power(x, 3)),
    G("linalg.matrix_transpose", (uni(-2, 2, (2, 3)),)),
    G("linalg.outer", (uni(-2, 2), uni(-2, 2, (2,)))),
    G("linalg.pinv", (diagdom(),)),
    G("linalg.qr", (diagdom(),)),
    G("linalg.slogdet", (diagdom(),), call=lambda x: hd.linalg.slogdet(x).logabsdet),
    G("linalg.solve", (diagdom(), uni(-2, 2, (3, 2)))),
    G("linalg.svd", (spread(),), call=lambda x: _svd(hd.linalg.svd(x, full_matrices=False))),
    G("linalg.svdvals", (spread(),)),
    G("linalg.tensordot", (uni(-2, 2, (2, 3)), uni(-2, 2, (3, 2))), kwargs={"axes": 1}),
    G("linalg.trace", (uni(-2, 2, (3, 3)),)),
    G("linalg.vecdot", (uni(-2, 2, S34), uni(-2, 2, S34))),
    G("linalg.vector_norm", (away0(S34),), kwargs={"axis": 1}),
    # fft: real inputs, and complex ones built from two real inputs
    G("fft.fft", (uni(-2, 2, (4,)),)),
    G("fft.fftn", (uni(-2, 2, (2, 4)),)),
    G("fft.ifft", (uni(-2, 2, (4,)), uni(-2, 2, (4,))), call=_c(hd.fft.ifft)),
    G("fft.ifftn", (uni(-2, 2, (2, 4)), uni(-2, 2, (2, 4))), call=_c(hd.fft.ifftn)),
    G("fft.rfft", (uni(-2, 2, (5,)),)),
    G("fft.rfftn", (uni(-2, 2, (2, 4)),)),
    G("fft.irfft", (uni(-2, 2, (3,)), uni(-2, 2, (3,))), call=_c(lambda z: hd.fft.irfft(z, n=4))),
    G("fft.irfftn", (uni(-2, 2, (2, 3)), uni(-2, 2, (2, 3))), call=_c(lambda z: hd.fft.irfftn(z, s=(2, 4)))),
    G("fft.hfft", (uni(-2, 2, (3,)), uni(-2, 2, (3,))), call=_c(lambda z: hd.fft.hfft(z, n=4))),
    G("fft.ihfft", (uni(-2, 2, (4,)),)),
    G("fft.fftshift", (uni(-2, 2, (5,)),)),
    G("fft.ifftshift", (uni(-2, 2, (5,)),)),
]


BY_ID = {row.id: row for row in ROWS}
assert len(BY_ID) == len(ROWS), "row ids must be unique"


def _eigh(result: Any) -> tuple:
    # eigenvectors are defined up to sign: their squares are not
    return result.eigenvalues, result.eigenvectors**2


def _svd(result: Any) -> tuple:
    return result.S, result.U**2, result.Vh**2


#: functions with no gradient to check, and why
NOT_DIFFERENTIABLE: dict[str, str] = {
    **dict.fromkeys(["arange", "empty", "eye", "full", "linspace", "ones", "zeros"], "no array input"),
    "fft.fftfreq": "no array input",
    "fft.rfftfreq": "no array input",
    "empty_like": "uninitialised values",
    "from_dlpack": "an interchange protocol, not arithmetic",
    "to_numpy": "leaves the framework",
    "device": "returns a device, not an array",
    **dict.fromkeys(["can_cast", "finfo", "iinfo", "isdtype", "result_type"], "a dtype query"),
    **dict.fromkeys(
        [
            "equal",
            "greater",
            "greater_equal",
            "less",
            "less_equal",
            "not_equal",
            "isfinite",
            "isinf",
            "isnan",
            "logical_and",
            "logical_not",
            "logical_or",
            "logical_xor",
            "signbit",
            "all",
            "any",
            "allclose",
            "isclose",
            "isin",
        ],
        "boolean output",
    ),
    **dict.fromkeys(
        [
            "bitwise_and",
            "bitwise_left_shift",
            "bitwise_invert",
            "bitwise_or",
            "bitwise_right_shift",
            "bitwise_xor",
        ],
        "integer-only operation",
    ),
    **dict.fromkeys(
        ["argmax", "argmin", "argsort", "count_nonzero", "nonzero", "searchsorted", "linalg.matrix_rank"],
        "integer output",
    ),
    "one_hot": "integer input",
    "floor_divide": "integer-valued; torch defines no derivative",
    "nextafter": "a bit-level step, no derivative (torch defines none)",
    **dict.fromkeys(
        ["unique_all", "unique_counts", "unique_inverse", "unique_values"],
        "data-dependent output shape (untraceable under jax)",
    ),
}


def test_table_covers_the_api() -> None:
    covered = {row.qualname for row in ROWS}
    assert not covered & set(NOT_DIFFERENTIABLE), "a function is in both tables"
    missing = [f.qualname for f in FUNCTIONS if f.qualname not in covered | set(NOT_DIFFERENTIABLE)]
    assert not missing, f"functions with neither a gradient row nor a reason: {missing}"
    unknown = (covered | set(NOT_DIFFERENTIABLE)) - {f.qualname for f in FUNCTIONS}
    assert not unknown, f"rows for functions the API table lacks: {unknown}"


# ---- the check --------------------------------------------------------------------------------


def _inputs(row: G) -> list[np.ndarray]:
    rng = np.random.default_rng(zlib.crc32(row.id.encode()))
    return [make(rng) for make in row.inputs]


def _outputs(out: Any) -> list[Any]:
    if isinstance(out, (tuple, list)):
        return [leaf for o in out for leaf in _outputs(o)]
    return [out]


def _is_float(x: Any) -> bool:
    return hd.isdtype(hd.dtype(x), ("real floating", "complex floating"))


class _Loss:
    """The row's outputs (float ones), weighted by fixed random weights and summed: a scalar."""

    def __init__(self, row: G, backend: str, arrays: list[np.ndarray]) -> None:
        self.fn = row.function()
        self.backend = backend
        self._compiled: Any = None
        self.wrt = tuple(i for i, a in enumerate(arrays) if a.dtype == np.float64)
        self.consts = {i: hd.asarray(a, backend=backend) for i, a in enumerate(arrays) if i not in self.wrt}
        outs = _outputs(self.fn(*self._args([hd.asarray(arrays[i], backend=backend) for i in self.wrt])))
        rng = np.random.default_rng(7)
        self.weights = []
        for o in outs:
            if not _is_float(o):
                self.weights.append(None)
                continue
            shape = tuple(o.shape)
            parts = 2 if hd.isdtype(hd.dtype(o), "complex floating") else 1
            self.weights.append(
                [hd.asarray(rng.uniform(0.5, 1.5, shape), backend=backend) for _ in range(parts)]
            )

    def _args(self, diff: Any) -> list[Any]:
        args, it = [], iter(diff)
        for i in range(len(self.wrt) + len(self.consts)):
            args.append(self.consts[i] if i in self.consts else next(it))
        return args

    def __call__(self, *diff: Any) -> Any:
        total = None
        for o, w in zip(_outputs(self.fn(*self._args(diff))), self.weights, strict=True):
            if w is None:
                continue
            if len(w) == 2:
                term = hd.sum(hd.real(o) * w[0]) + hd.sum(hd.imag(o) * w[1])
            else:
                term = hd.sum(o * w[0])
            total = term if total is None else total + term
        return total

    def value(self, arrays: list[np.ndarray]) -> float:
        if self._compiled is None:  # jax dispatches each eager op slowly: compile the loss once
            self._compiled = hd.jit(self) if self.backend == "jax" else self
        return float(
            hd.to_numpy(self._compiled(*(hd.asarray(arrays[i], backend=self.backend) for i in self.wrt)))
        )


@functools.cache
def _grads(row_id: str, backend: str) -> tuple[np.ndarray, ...]:
    row = BY_ID[row_id]
    arrays = _inputs(row)
    loss = _Loss(row, backend, arrays)
    diff = [hd.asarray(arrays[i], backend=backend) for i in loss.wrt]
    grads = hd.grad(loss, argnums=tuple(range(len(diff))))(*diff)
    return tuple(np.asarray(hd.to_numpy(g)) for g in grads)


def _finite_differences(row: G, backend: str, h: float = 1e-6) -> tuple[np.ndarray, ...]:
    arrays = _inputs(row)
    loss = _Loss(row, backend, arrays)
    out = []
    for i in loss.wrt:
        g = np.zeros_like(arrays[i])
        for idx in np.ndindex(arrays[i].shape):
            plus = [a.copy() for a in arrays]
            minus = [a.copy() for a in arrays]
            plus[i][idx] += h
            minus[i][idx] -= h
            g[idx] = (loss.value(plus) - loss.value(minus)) / (2 * h)
        out.append(g)
    return tuple(out)


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.id)
def test_gradient_matches_finite_differences(row: G, autodiff_backend: str) -> None:
    analytic = _grads(row.id, autodiff_backend)
    numeric = _finite_differences(row, autodiff_backend)
    for k, (a, n) in enumerate(zip(analytic, numeric, strict=True)):
        scale = max(1.0, float(np.max(np.abs(n))))
        np.testing.assert_allclose(
            a, n, rtol=1e-5 * row.tol, atol=1e-6 * row.tol * scale, err_msg=f"{row.id}: d/d input {k}"
        )


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.id)
def test_gradients_agree_across_backends(row: G) -> None:
    backends = [b for b in selected_backends() if b in AUTODIFF_BACKENDS]
    if len(backends) < 2:
        pytest.skip("needs two autodiff backends")
    for b in backends:
        require_backend(b)
    first, *rest = backends
    for other in rest:
        for k, (a, b) in enumerate(zip(_grads(row.id, first), _grads(row.id, other), strict=True)):
            np.testing.assert_allclose(
                b, a, rtol=1e-7, atol=1e-9, err_msg=f"{row.id}: d/d input {k}, {other} vs {first}"
            )
