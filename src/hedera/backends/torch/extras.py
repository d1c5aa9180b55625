"""hedera's functions beyond the standard (torch backend).

Semantics as documented in ``hedera.backends.numpy.extras``.
"""

from __future__ import annotations

import torch

from ... import dtypes as _hd
from ..._api import names_in
from ...errors import InvalidArgumentError, UnsupportedError
from .._common import (
    TopKResult,
    check_integer_indices,
    check_pad_mode,
    native_common_case,
    normalize_axis,
    normalize_pad_width,
)
from ._core import LIMITATIONS, TORCH_DTYPES, default_float, native_dtype, promote_all, result_dtype
from .statistical import cumulative_prod, cumulative_sum

__all__ = names_in("extra")  # the API table's extra rows

cumsum = cumulative_sum
cumprod = cumulative_prod

#: what torch.einsum calls (torch/functional.py) for two operands or fewer
_einsum = torch._VF.einsum


# (torch.isclose itself for two tensors of one dtype and shape: the C front skips this frame, and the
# keywords at their defaults, which torch parses for about 0.4 us)
@native_common_case(
    torch.isclose, 2, tuple(TORCH_DTYPES.values()), forwarded=("rtol", "atol", "equal_nan"), same_shape=True
)
def isclose(x1, x2, /, *, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Element-wise ``|x1 - x2| <= atol + rtol * |x2|``, as a boolean array."""
    # torch.isclose wants two tensors of one dtype
    if not isinstance(x1, torch.Tensor) or not isinstance(x2, torch.Tensor) or x1.dtype is not x2.dtype:
        x1, x2 = promote_all(x1, x2)
    if x1.shape != x2.shape:
        x1, x2 = torch.broadcast_tensors(x1, x2)
    return torch.isclose(x1, x2, rtol=rtol, atol=atol, equal_nan=equal_nan)


# (torch.allclose itself for two tensors of one dtype and shape, as isclose above: the keywords at
# their defaults, even positional, cost torch's parser ~1 us at 1 element)
@native_common_case(
    torch.allclose, 2, tuple(TORCH_DTYPES.values()), forwarded=("rtol", "atol", "equal_nan"), same_shape=True
)
def allclose(x1, x2, /, *, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether ``|x1 - x2| <= atol + rtol * |x2|`` everywhere (broadcasting); a Python bool."""
    plain = type(x1) is torch.Tensor and type(x2) is torch.Tensor
    if plain and x1.dtype is x2.dtype and x1.shape == x2.shape:
        # the common case: isclose, all and item in one (torch's own defaults, unparsed, where they are ours)
        if rtol.__class__ is float and atol.__class__ is float and equal_nan is False:
            if rtol == 1e-05 and atol == 1e-08:
                return torch.allclose(x1, x2)
        return torch.allclose(x1, x2, rtol, atol, equal_nan)
    return bool(torch.all(isclose(x1, x2, rtol=rtol, atol=atol, equal_nan=equal_nan)))


def einsum(subscripts, /, *operands):
    """Einstein summation over ``operands``, in NumPy's subscript notation (``"ij,jk->ik"``)."""
    # torch.einsum wants one dtype (a cast only where an operand has another: .to costs even as a no-op)
    dt = operands[0].dtype
    mixed = False
    for o in operands[1:]:
        if o.dtype is not dt:
            dt, mixed = result_dtype(dt, o.dtype), True
    if not (dt.is_floating_point or dt.is_complex) and operands[0].is_cuda:
        raise UnsupportedError(f"einsum: {LIMITATIONS['einsum']}")
    if mixed:
        operands = [o if o.dtype is dt else o.to(dt) for o in operands]
    if (
        len(operands) <= 2
        and subscripts.__class__ is str
        and operands[0].__class__ is torch.Tensor
        and operands[-1].__class__ is torch.Tensor
        and not torch.compiler.is_compiling()  # (dynamo cannot trace the binding: torch.einsum, below)
    ):
        # torch.einsum's own call for at most two plain tensors (no __torch_function__ to hand them
        # to, no contraction path to plan), without its ~4 us of Python (an import statement per call)
        out = _einsum(subscripts, operands)
    else:
        out = torch.einsum(subscripts, *operands)
    return out if out.dtype is dt else out.to(dt)  # torch sums small integers in int64


def _batch_index(x, indices, batch_dims):
    if indices.dtype not in (torch.int64, torch.int32):
        indices = indices.to(torch.int64)
    idx = list(torch.unbind(indices, -1))
    batch = []
    for b in range(batch_dims):
        shape = [1] * (indices.ndim - 1)
        shape[b] = x.shape[b]
        batch.append(torch.arange(x.shape[b], device=x.device).reshape(shape))
    return tuple(batch + idx)


def gather_nd(x, indices, /, *, batch_dims=0):
    """Gather slices of ``x`` at multi-indices, as ``tf.gather_nd`` (see the numpy backend)."""
    check_integer_indices("gather_nd", "indices", indices)
    return x[_batch_index(x, indices, batch_dims)]


def scatter_nd(indices, updates, shape, /):
    """A zero array of ``shape`` with ``updates`` added at ``indices``, as ``tf.scatter_nd``; repeats sum."""
    check_integer_indices("scatter_nd", "indices", indices)
    if indices.dtype is not torch.int64:
        indices = indices.to(torch.int64)
    zeros = torch.zeros(tuple(shape), dtype=updates.dtype, device=updates.device)
    return torch.index_put(zeros, tuple(torch.unbind(indices, -1)), updates, accumulate=True)


def logsumexp(x, /, *, axis=None, keepdims=False):
    """``log(sum(exp(x), axis))``, computed stably."""
    if axis is None:
        axis = tuple(range(x.ndim))
    if axis == () or x.ndim == 0:  # torch.logsumexp cannot reduce over no axis
        return x.clone() if x.dtype.is_floating_point else x.to(default_float())
    return torch.logsumexp(x, axis, keepdims)


def one_hot(indices, num_classes, /, *, dtype=None, axis=-1):
    """One-hot encoding of integer ``indices`` along a new axis; out-of-range indices give zero rows.

    ``dtype`` defaults to torch's default floating dtype.
    """
    check_integer_indices("one_hot", "indices", indices)  # a float 0.7 would match no class
    classes = torch.arange(num_classes, device=indices.device)
    out = (torch.unsqueeze(indices, -1) == classes).to(native_dtype(dtype) or default_float())
    return torch.movedim(out, -1, normalize_axis(axis, indices.ndim + 1))


def _source_positions(n, before, after, mode, device):
    """For each position of a padded axis, the position of ``x`` it copies (non-constant modes)."""
    i = torch.arange(-before, n + after, device=device)
    if mode == "edge":
        return torch.clamp(i, 0, n - 1)
    if mode == "wrap":
        return torch.remainder(i, n)
    if mode == "symmetric":
        i = torch.remainder(i, 2 * n)
        return torch.where(i >= n, 2 * n - 1 - i, i)
    if n == 1:  # reflect: a single element reflects onto itself
        return torch.zeros_like(i)
    i = torch.remainder(i, 2 * (n - 1))
    return torch.where(i >= n, 2 * (n - 1) - i, i)


def pad(x, /, pad_width, *, mode="constant", constant_values=0):
    """Pad ``x``. ``pad_width`` as in NumPy; ``mode`` one of constant, reflect, symmetric, edge, wrap."""
    if mode != "constant":
        check_pad_mode(mode)
    widths = normalize_pad_width(pad_width, x.ndim)
    if mode == "constant":
        if type(constant_values) is not float and isinstance(constant_values, torch.Tensor):
            constant_values = constant_values.item()
        # torch lists the last axis first
        flat = widths[0] if len(widths) == 1 else [w for pair in reversed(widths) for w in pair]
        if x.dtype.is_complex:  # torch's pad value must be real: pad the two parts
            c = complex(constant_values)
            parts = (torch.real(x), torch.imag(x)), (c.real, c.imag)
            re, im = (torch.constant_pad_nd(p, flat, v) for p, v in zip(*parts, strict=True))
            return torch.complex(re, im)
        # F.pad's own op, without its Python wrapper (~200 ns); a Python -0.0 keeps its sign
        return torch.constant_pad_nd(x, flat, constant_values)
    out = x
    for axis, (before, after) in enumerate(widths):
        if before == after == 0:
            continue
        n = x.shape[axis]
        if n == 0:
            raise InvalidArgumentError(f"pad: cannot pad an empty axis ({axis}) in mode {mode!r}")
        out = torch.index_select(out, axis, _source_positions(n, before, after, mode, x.device))
    return out


def split(x, indices_or_sections, /, *, axis=0):
    """Split ``x`` along ``axis`` into equal sections (an int) or at the given indices (a sequence)."""
    axis = normalize_axis(axis, x.ndim)
    if isinstance(indices_or_sections, int):
        if indices_or_sections <= 0 or x.shape[axis] % indices_or_sections:
            raise InvalidArgumentError(
                f"indices_or_sections: {indices_or_sections} does not divide axis {axis} "
                f"of size {x.shape[axis]}"
            )
    elif isinstance(indices_or_sections, torch.Tensor):
        indices_or_sections = [int(i) for i in indices_or_sections.tolist()]
    else:
        indices_or_sections = [int(i) for i in indices_or_sections]
    return tuple(torch.tensor_split(x, indices_or_sections, dim=axis))


def top_k(x, k, /, *, axis=-1, largest=True):
    """The ``k`` largest (or smallest) elements along ``axis`` and their indices, sorted.

    Among equal elements the lower index comes first (a stable sort; torch.topk does
    not promise an order among ties).
    """
    n = x.shape[axis] if x.ndim else 1
    if not 0 <= k <= n:
        raise InvalidArgumentError(f"k: expected 0 <= k <= {n}, got {k}")
    order = torch.argsort(x, dim=axis, descending=largest, stable=True)
    idx = torch.narrow(order, axis, 0, k)
    return TopKResult(torch.take_along_dim(x, idx, dim=axis), idx)


def to_numpy(x, /):
    """``x`` as a NumPy array: detached, on the CPU, conjugation resolved (a copy only where needed).

    bfloat16 becomes an ``ml_dtypes.bfloat16`` array where ml_dtypes is installed.
    """
    if x.dtype is torch.bfloat16:
        try:
            import ml_dtypes
        except ImportError:
            raise _hd.UnsupportedDtypeError(
                "to_numpy: NumPy has no bfloat16; install ml_dtypes, or cast with hd.astype first"
            ) from None
        bits = x.detach().cpu().view(torch.int16).numpy()
        return bits.view(ml_dtypes.bfloat16)
    return x.numpy(force=True)
