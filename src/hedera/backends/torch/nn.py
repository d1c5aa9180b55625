"""Neural-network kernels for the torch backend: ``torch.nn.functional`` with hedera's layouts.

The kernels of :mod:`hedera.nn_ops`, with the same names and signatures in every
backend; arguments arrive normalised from :mod:`hedera.nn.functional`.
Channels-last inputs are viewed as channels-first (``movedim``, no copy) for
torch's kernels, and hedera's kernel layout ``(*k, in // groups, out)`` is
permuted to torch's ``(out, in // groups, *k)``. torch pads symmetrically only,
so asymmetric padding is applied with ``F.pad`` first.
"""

from __future__ import annotations

import math
import operator

import torch
import torch.nn.functional as F  # noqa: N812  (the universal spelling)

_CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}
_CONV_T = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}
_MAX_POOL = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}
_AVG_POOL = {1: F.avg_pool1d, 2: F.avg_pool2d, 3: F.avg_pool3d}

# ---- activations ------------------------------------------------------------------------------

relu = torch.relu
leaky_relu = F.leaky_relu
elu = F.elu
selu = torch.selu
silu = F.silu
mish = F.mish
sigmoid = torch.sigmoid
log_sigmoid = F.logsigmoid
hard_sigmoid = F.hardsigmoid
hard_swish = F.hardswish
softmax = torch.softmax
log_softmax = torch.log_softmax


def gelu(x, approximate):
    # torch spells the choice as a string
    return F.gelu(x, approximate="tanh" if approximate else "none")


def softplus(x):
    # F.softplus is linear above x = 20 (an error below 2.1e-9); logaddexp is exact everywhere
    return torch.logaddexp(x, torch.zeros((), dtype=x.dtype, device=x.device))


# ---- convolutions ----------------------------------------------------------------------------


def _to_first(x, channels_last):
    return x.movedim(-1, 1) if channels_last else x


def _from_first(y, channels_last):
    return y.movedim(1, -1) if channels_last else y


def _torch_pad(padding):
    """F.pad's flat list (last spatial axis first) for (low, high) pairs."""
    return [p for pair in reversed(padding) for p in pair]


def _symmetric(padding):
    return all(lo == hi for lo, hi in padding)


def conv(x, weight, bias, stride, padding, dilation, groups, channels_last):
    nd = len(stride)
    x = _to_first(x, channels_last)
    w = weight.permute(nd + 1, nd, *range(nd))  # (*k, I/g, O) -> (O, I/g, *k)
    if _symmetric(padding):
        pad = tuple(lo for lo, _ in padding)
    else:
        x = F.pad(x, _torch_pad(padding))
        pad = 0
    y = _CONV[nd](x, w, bias, stride, pad, dilation, groups)
    return _from_first(y, channels_last)


def conv_transpose(x, weight, bias, stride, padding, output_padding, dilation, groups, channels_last):
    nd = len(stride)
    x = _to_first(x, channels_last)
    w = weight.permute(nd + 1, nd, *range(nd))  # (*k, O/g, I) -> (I, O/g, *k)
    native = _symmetric(padding) and all(
        op < max(s, d) for op, s, d in zip(output_padding, stride, dilation, strict=True)
    )
    if native:
        pad = tuple(lo for lo, _ in padding)
        y = _CONV_T[nd](x, w, bias, stride, pad, tuple(output_padding), groups, dilation)
        return _from_first(y, channels_last)
    # torch crops symmetrically only: compute the full output, then crop (and pad) each side
    y = _CONV_T[nd](x, w, None, stride, 0, 0, groups, dilation)
    crop = [slice(None), slice(None)]
    grow = []
    for axis, ((lo, hi), op) in enumerate(zip(padding, output_padding, strict=True)):
        size = y.shape[axis + 2]
        crop.append(slice(lo, size - max(hi - op, 0)))
        grow.append((0, max(op - hi, 0)))
    y = y[tuple(crop)]
    if any(g for _, g in grow):
        y = F.pad(y, _torch_pad(grow))
    if bias is not None:
        y = y + bias.reshape(-1, *([1] * nd))
    return _from_first(y, channels_last)


# ---- pooling ---------------------------------------------------------------------------------


def _native_pad(padding, window):
    """Whether torch's own pooling padding fits: symmetric and at most half the window."""
    return _symmetric(padding) and all(lo <= k // 2 for (lo, _), k in zip(padding, window, strict=True))


def max_pool(x, window, stride, padding, channels_last):
    nd = len(window)
    x = _to_first(x, channels_last)
    if _native_pad(padding, window):
        pad = tuple(lo for lo, _ in padding)
    else:
        x = F.pad(x, _torch_pad(padding), value=-math.inf)
        pad = 0
    y = _MAX_POOL[nd](x, window, stride, pad)
    return _from_first(y, channels_last)


def avg_pool(x, window, stride, padding, count_include_pad, channels_last):
    nd = len(window)
    x = _to_first(x, channels_last)
    if _native_pad(padding, window):
        pad = tuple(lo for lo, _ in padding)
        y = _AVG_POOL[nd](x, window, stride, pad, False, count_include_pad)
        return _from_first(y, channels_last)
    size = x.shape[2:]
    x = F.pad(x, _torch_pad(padding))
    y = _AVG_POOL[nd](x, window, stride, 0)
    if not count_include_pad:  # rescale by the share of each window inside the input
        ones = F.pad(torch.ones((1, 1, *size), dtype=x.dtype, device=x.device), _torch_pad(padding))
        y = y / _AVG_POOL[nd](ones, window, stride, 0)
    return _from_first(y, channels_last)


# ---- multi-tensor kernels (hd.nn_ops.foreach_*): torch._foreach_* ------------------------------------
#
# One call for a whole list. Where the loop of hedera's elementwise functions would promote dtypes,
# broadcast or treat complex numbers its own way, the kernel falls back to that loop, so the
# results are always the loop's, bit for bit (tests/nn/test_foreach_kernels.py). Under
# torch.compile the loop is traced (inductor fuses it; the checks would only add guards).

_FOREACH_DTYPES = frozenset({torch.float16, torch.bfloat16, torch.float32, torch.float64})
_TENSOR_ONLY = {torch.Tensor}
_dtype_of = operator.attrgetter("dtype")
_shape_of = operator.attrgetter("shape")
_requires_grad = operator.attrgetter("requires_grad")


def _plain(xs) -> bool:
    """Whether every x is a tensor of one real floating dtype (what the fast kernels handle)."""
    if set(map(type, xs)) != _TENSOR_ONLY:
        return False
    dtypes = set(map(_dtype_of, xs))
    return len(dtypes) == 1 and not dtypes.isdisjoint(_FOREACH_DTYPES)


def _fits(xs, ys) -> bool:
    """Whether ``ys`` (a list or one scalar) combines with ``xs`` without promotion or broadcasting."""
    if type(ys) is float:
        return _plain(xs)
    if isinstance(ys, torch.Tensor):
        return ys.ndim == 0 and ys.dtype is xs[0].dtype and _plain(xs)
    if isinstance(ys, (list, tuple)) and len(ys) == len(xs) and _plain(xs):
        return _plain([xs[0], *ys]) and list(map(_shape_of, xs)) == list(map(_shape_of, ys))
    return False


def _writable(xs) -> bool:
    """Whether results may be written into ``xs``: no autograd graph or functorch transform sees them.

    Not under ``torch.compile``, which fuses the out-of-place kernels itself.
    """
    if torch.compiler.is_compiling():
        return False
    if torch.is_grad_enabled() and any(map(_requires_grad, xs)):
        return False
    return not torch._C._functorch.is_functorch_wrapped_tensor(xs[0])


#: tensors of at least this many elements are written into the caller's ``out`` arrays
#: (``torch.mul(x, y, out=o)``): a fresh allocation of that size costs more than the kernel
#: (measured on the MLP's Adam step: 1.7-1.9 ms with fresh temporaries, 1.0 ms reusing them); smaller
#: ones go through one foreach call (a Python call per tensor would cost more than their allocation)
_OUT_MIN_NUMEL = 1 << 15


def _into(per_tensor, out_of_place, xs, ys, out) -> list:
    """``op(x, y)`` for each x, written into ``out[i]`` where x is large and ``out[i]`` matches it."""
    scalar = not isinstance(ys, (list, tuple))
    results: list = [None] * len(xs)
    rest = []
    for i, (x, o) in enumerate(zip(xs, out, strict=True)):
        if (
            x.numel() >= _OUT_MIN_NUMEL
            and type(o) is torch.Tensor
            and o.shape == x.shape
            and o.dtype is x.dtype
        ):
            per_tensor(x, ys if scalar else ys[i], out=o)
            results[i] = o
        else:
            rest.append(i)
    if rest:
        done = out_of_place([xs[i] for i in rest], ys if scalar else [ys[i] for i in rest])
        for i, r in zip(rest, done, strict=True):
            results[i] = r
    return results


def _usable_out(out, xs) -> bool:
    return isinstance(out, (list, tuple)) and len(out) == len(xs) and _writable(out)


def _foreach_binary(name: str, out_of_place, in_place, per_tensor, lists_only: bool = False):
    from ...nn_ops import loop_kernel

    loop = loop_kernel(name)

    def kernel(xs, ys, reuse, out=None):
        scalar_ys = not isinstance(ys, (list, tuple))
        if torch.compiler.is_compiling() or (lists_only and scalar_ys) or not _fits(xs, ys):
            return loop(xs, ys)
        if reuse and _writable(xs):
            in_place(xs, ys)
            return list(xs)
        if out is not None and _usable_out(out, xs):
            return _into(per_tensor, out_of_place, xs, ys, out)
        return list(out_of_place(xs, ys))

    kernel.__name__ = kernel.__qualname__ = name
    return kernel


def _foreach_unary(name: str, out_of_place, in_place, per_tensor=None):
    from ...nn_ops import loop_kernel

    loop = loop_kernel(name)

    def kernel(xs, reuse, out=None):
        if torch.compiler.is_compiling() or not _plain(xs):
            return loop(xs)
        if reuse and _writable(xs):
            in_place(xs)
            return list(xs)
        if out is not None and per_tensor is not None and _usable_out(out, xs):
            return _into(per_tensor, lambda xs, ys: out_of_place(xs), xs, xs, out)
        return list(out_of_place(xs))

    kernel.__name__ = kernel.__qualname__ = name
    return kernel


def _foreach_square(xs):
    return torch._foreach_mul(xs, xs)


def _foreach_square_(xs):
    torch._foreach_mul_(xs, xs)


foreach_add = _foreach_binary("foreach_add", torch._foreach_add, torch._foreach_add_, torch.add)
foreach_multiply = _foreach_binary("foreach_multiply", torch._foreach_mul, torch._foreach_mul_, torch.mul)
foreach_divide = _foreach_binary("foreach_divide", torch._foreach_div, torch._foreach_div_, torch.div)
foreach_maximum = _foreach_binary(
    "foreach_maximum", torch._foreach_maximum, torch._foreach_maximum_, torch.maximum, True
)
foreach_sqrt = _foreach_unary("foreach_sqrt", torch._foreach_sqrt, torch._foreach_sqrt_)
foreach_square = _foreach_unary("foreach_square", _foreach_square, _foreach_square_, torch.mul)

# the fused optimizer kernels (hd.nn_ops.fused_adam, fused_sgd): torch.optim's fused=True kernels
from .optim_kernels import fused_adam, fused_sgd  # noqa: E402, F401

# ---- fused recurrent layers ---------------------------------------------------------------------
# torch.lstm / torch.gru run the whole time loop in C++ (one autograd node per step's ops, no
# Python per step); hedera's weights (in, gates * hidden) are the transposes of torch's. Eagerly
# only. Under torch.compile, hedera's hd.scan loop (torch's while_loop operator) is what traces,
# except inside a torch.func transform (hd.jit of a training step: hd.value_and_grad is torch.func
# there), where torch 2.13 cannot trace the while_loop operator (hd.scan raises there): then the
# layer is the same cell written out over the time steps, which inductor fuses (torch.lstm's own
# decomposition fails under torch.func in fake tensors). Under torch.func transforms eagerly
# (hd.grad of hd.grad...), hd.scan's Python loop runs.

_transforms_active = torch._C._are_functorch_transforms_active  # readable by dynamo, unlike the stack


def _same_floating(arrays) -> bool:
    """Tensors of one floating dtype (hedera's loop promotes mixed ones)."""
    tensors = [a for a in arrays if a is not None]
    dtype = tensors[0].dtype
    return dtype.is_floating_point and all(type(a) is torch.Tensor and a.dtype is dtype for a in tensors)


def _fused_applies(*arrays) -> bool:
    """Eagerly, outside transforms, on tensors of one floating dtype."""
    if torch.compiler.is_compiling() or torch._C._functorch.peek_interpreter_stack() is not None:
        return False
    return _same_floating(arrays)


def _written_out_applies(*arrays) -> bool:
    """Under torch.compile inside a torch.func transform, where hd.scan's while_loop cannot trace."""
    return torch.compiler.is_compiling() and _transforms_active() and _same_floating(arrays)


def _rnn_weights(w_ih, w_hh, b_ih, b_hh) -> tuple[list, bool]:
    """torch's flat weight list for one layer, and whether it has biases (a missing one is zeros)."""
    if b_ih is None and b_hh is None:
        return [w_ih.T, w_hh.T], False
    if b_ih is None:
        b_ih = torch.zeros_like(b_hh)
    if b_hh is None:
        b_hh = torch.zeros_like(b_ih)
    return [w_ih.T, w_hh.T, b_ih, b_hh], True


def _over_time(cell, x, state, w_ih, b_ih):
    """``cell(gates_x_t, state) -> (state, h)`` at each step of batch-first ``x``: ``(outputs, state)``."""
    gates_x = x @ w_ih
    if b_ih is not None:
        gates_x = gates_x + b_ih
    outputs = []
    for t in range(x.shape[1]):
        state, h = cell(gates_x[:, t], state)
        outputs.append(h)
    return torch.stack(outputs, 1), state


def _lstm_written_out(x, h, c, w_ih, w_hh, b_ih, b_hh):
    """hedera's LSTM cell (recurrent.py's ``_lstm_step``) over the time steps, in torch ops."""

    def cell(gates_t, state):
        h, c = state
        gates = gates_t + h @ w_hh
        if b_hh is not None:
            gates = gates + b_hh
        i, f, g, o = gates.chunk(4, -1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o) * torch.tanh(c)
        return (h, c), h

    out, (h, c) = _over_time(cell, x, (h, c), w_ih, b_ih)
    return out, h, c


def _gru_written_out(x, h, w_ih, w_hh, b_ih, b_hh):
    """hedera's GRU cell (recurrent.py's ``gru_cell``) over the time steps, in torch ops."""

    def cell(gates_t, h):
        xr, xz, xn = gates_t.chunk(3, -1)
        hh = h @ w_hh
        if b_hh is not None:
            hh = hh + b_hh
        hr, hz, hn = hh.chunk(3, -1)
        r = torch.sigmoid(xr + hr)
        z = torch.sigmoid(xz + hz)
        n = torch.tanh(xn + r * hn)
        h = n + z * (h - n)
        return h, h

    return _over_time(cell, x, h, w_ih, b_ih)


def lstm(x, h, c, w_ih, w_hh, b_ih, b_hh):
    if _written_out_applies(x, h, c, w_ih, w_hh, b_ih, b_hh):
        return _lstm_written_out(x, h, c, w_ih, w_hh, b_ih, b_hh)
    if not _fused_applies(x, h, c, w_ih, w_hh, b_ih, b_hh):
        return None
    weights, biased = _rnn_weights(w_ih, w_hh, b_ih, b_hh)
    out, h, c = torch.lstm(x, (h[None], c[None]), weights, biased, 1, 0.0, False, False, True)
    return out, h[0], c[0]


def gru(x, h, w_ih, w_hh, b_ih, b_hh):
    if _written_out_applies(x, h, w_ih, w_hh, b_ih, b_hh):
        return _gru_written_out(x, h, w_ih, w_hh, b_ih, b_hh)
    if not _fused_applies(x, h, w_ih, w_hh, b_ih, b_hh):
        return None
    weights, biased = _rnn_weights(w_ih, w_hh, b_ih, b_hh)
    out, h = torch.gru(x, h[None], weights, biased, 1, 0.0, False, False, True)
    return out, h[0]


def gather_classes(x, targets):
    if type(targets) is not torch.Tensor or targets.dtype is not torch.int64:
        return None  # torch.gather takes int64 indices only; hedera's take_along_axis converts
    return x.gather(-1, targets.unsqueeze(-1)).squeeze(-1)


def attention(query, key, value, scale):
    # F.scaled_dot_product_attention: torch's fused kernel (what torch.nn.MultiheadAttention
    # calls), one autograd node where the written-out softmax(q k^T s) v makes five
    lead = query.shape[:-2]
    if query.ndim < 3 or key.shape[:-2] != lead or value.shape[:-2] != lead:
        return None  # broadcast leading axes: hedera's written-out form
    if not _fused_applies(query, key, value):
        return None
    return F.scaled_dot_product_attention(query, key, value, scale=scale)


def layer_norm(x, normalized_shape, weight, bias, eps):
    # F.layer_norm: one autograd node (what torch.nn.LayerNorm calls) where hedera's written-out
    # mean / variance / scale makes eight, forward and backward
    if not _fused_applies(x, weight, bias):
        return None
    return F.layer_norm(x, normalized_shape, weight, bias, eps)
