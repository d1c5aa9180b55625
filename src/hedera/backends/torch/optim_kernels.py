"""The fused optimizer kernels of :mod:`hedera.nn_ops` on torch: ``torch.optim``'s ``fused=True`` kernels.

``torch._fused_adam_``, ``torch._fused_adamw_`` and ``torch._fused_sgd_`` update every parameter in
one pass (read the parameter, its gradient and state, write the parameter and state), where
hedera's stages make one pass per elementwise operation (14 for Adam). They run eagerly only,
outside autograd and ``torch.func`` transforms, on plain tensors of one dtype (float32 or
float64) and device with matching shapes; anywhere else the kernels return None and
``hd.optim``'s stages run (under ``torch.compile`` those are what inductor fuses). They are
called exactly as ``torch.optim``'s ``_fused_adam``/``_fused_sgd`` call them, so the results equal
``torch.optim``'s with ``fused=True`` bit for bit (tests/optim/test_fused_optim.py).
"""

from __future__ import annotations

import itertools
import operator

import torch

#: float32 and float64 only: for float16 and bfloat16 the kernels compute in float32 (more exactly than
#: the stages, which compute in the parameters' dtype, as documented), which would change the values
#: by far more than the last bit
_FUSED_DTYPES = frozenset({torch.float32, torch.float64})
_TENSOR_ONLY = {torch.Tensor}
_dtype_of = operator.attrgetter("dtype")
_shape_of = operator.attrgetter("shape")
_requires_grad = operator.attrgetter("requires_grad")
_device_index = torch.Tensor.get_device  # -1 on the CPU; a C call, where .device makes an object
_is_contiguous = torch.Tensor.is_contiguous
_interpreters = torch._C._functorch.peek_interpreter_stack


def _applies(lists) -> bool:
    """Eagerly, outside transforms and autograd, on plain tensors of one floating dtype and device,
    the lists of one length and shapes (the first list's)."""
    if torch.compiler.is_compiling() or _interpreters() is not None:
        return False
    first = lists[0]
    shapes = list(map(_shape_of, first))
    for xs in lists[1:]:
        if len(xs) != len(first) or list(map(_shape_of, xs)) != shapes:
            return False
    tensors = list(itertools.chain.from_iterable(lists))
    if set(map(type, tensors)) != _TENSOR_ONLY or len(set(map(_dtype_of, tensors))) != 1:
        return False
    if tensors[0].dtype not in _FUSED_DTYPES or len(set(map(_device_index, tensors))) != 1:
        return False
    return not (torch.is_grad_enabled() and any(map(_requires_grad, tensors)))


def _contiguous(x):
    return x if x.is_contiguous() else x.contiguous()


def _contiguous_list(xs) -> list:
    """``xs`` as a list of contiguous tensors (a copy of each one that is not)."""
    return list(xs) if all(map(_is_contiguous, xs)) else list(map(_contiguous, xs))


def _owned(xs, reuse: bool) -> list:
    """``xs`` itself if given up (a contiguous copy where one is not), else contiguous copies.

    The kernels walk each tensor's memory in order, whatever its strides: every tensor of a
    parameter must be contiguous (torch.optim's fused=True computes garbage for a transposed
    gradient on CPU in torch 2.13).
    """
    if reuse:
        return _contiguous_list(xs)
    return [x.clone(memory_format=torch.contiguous_format) for x in xs]


def _detached(params) -> list:
    """The parameters, detached where one requires a gradient (under ``torch.no_grad``): the new
    parameters are never part of an autograd graph."""
    return [p.detach() for p in params] if any(map(_requires_grad, params)) else params


def _steps(count):
    """The update count as the float32 tensor ``torch.optim``'s fused kernels read (their
    ``state_steps``; a CUDA kernel reads the memory as float, where the CPU one converts)."""
    return count if count.dtype is torch.float32 else count.to(torch.float32)


def _lr(lr):
    """A float, or a 0-d tensor (a schedule's value) as torch's ``tensor_lr`` overload takes it."""
    return lr if type(lr) is float else torch.as_tensor(lr)


def fused_adam(
    params, grads, mu, nu, nu_max, count, lr, b1, b2, eps, weight_decay, decoupled, reuse_params, reuse_state
):
    lists = [params, grads, mu, nu] if nu_max is None else [params, grads, mu, nu, nu_max]
    if not _applies(lists) or type(count) is not torch.Tensor or count.ndim != 0:
        return None
    params = _detached(_owned(params, reuse_params))
    mu, nu = _owned(mu, reuse_state), _owned(nu, reuse_state)
    nu_max = [] if nu_max is None else _owned(nu_max, reuse_state)
    kernel = torch._fused_adamw_ if decoupled else torch._fused_adam_
    kernel(
        params,
        _contiguous_list(grads),  # (never written to)
        mu,
        nu,
        nu_max,
        [_steps(count)] * len(params),
        amsgrad=bool(nu_max),
        lr=_lr(lr),
        beta1=b1,
        beta2=b2,
        weight_decay=weight_decay,
        eps=eps,
        maximize=False,
    )
    return params, mu, nu, (nu_max or None)


def fused_sgd(
    params, grads, buf, count, lr, momentum, dampening, nesterov, weight_decay, reuse_params, reuse_state
):
    lists = [params, grads] if buf is None else [params, grads, buf]
    if not _applies(lists):
        return None
    params = _detached(_owned(params, reuse_params))
    buf = [] if buf is None else _owned(buf, reuse_state)
    torch._fused_sgd_(
        params,
        _contiguous_list(grads),  # (never written to)
        buf,
        weight_decay=weight_decay,
        momentum=momentum,
        lr=_lr(lr),
        dampening=dampening,
        nesterov=nesterov,
        maximize=False,
        is_first_step=bool(buf) and bool(count == 1),
    )
    return params, (buf or None)
