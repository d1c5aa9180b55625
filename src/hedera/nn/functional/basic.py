"""Dense layers as functions: ``linear``, ``embedding``, ``dropout``."""

from __future__ import annotations

import hedera as hd
from hedera.helpers import finite_float
from hedera.typing import Array

from . import _args

__all__ = ["dropout", "embedding", "linear"]


def linear(x: Array, weight: Array, bias: Array | None = None) -> Array:
    """``x @ weight + bias``.

    Parameters
    ----------
    x : array, shape ``(..., in_features)``
    weight : array, shape ``(in_features, out_features)``
        (the transpose of ``torch.nn.Linear.weight``).
    bias : array, shape ``(out_features,)``, optional

    Returns
    -------
    array, shape ``(..., out_features)``

    Raises
    ------
    ShapeError
        If ``x``'s last axis is not ``in_features`` or the weight is not 2-d.
    """
    xs, ws = _args.shape_of(x), _args.shape_of(weight)
    if len(ws) != 2:
        raise hd.ShapeError(f"linear: weight must have shape (in_features, out_features), got shape {ws}")
    if len(xs) < 1 or (xs[-1] is not None and xs[-1] != ws[0]):
        raise hd.ShapeError(
            f"linear: x must have shape (..., {ws[0]}) for a weight of shape {ws} "
            f"(in_features, out_features), got shape {xs}"
        )
    _args.vector_param("linear", "bias", bias, ws[1])
    fused = hd.nn_ops.linear(x, weight, bias)  # one kernel where the backend has one (torch.addmm)
    if fused is not None:
        return fused
    y = hd.matmul(x, weight)
    return y if bias is None else hd.add(y, bias)


def embedding(ids: Array, weight: Array) -> Array:
    """Rows of ``weight`` picked by integer ``ids``: ``weight[ids]``.

    Parameters
    ----------
    ids : integer array, any shape
        Each in ``[0, num_embeddings)``: out-of-range ids are an error on torch and
        TensorFlow (CPU), while JAX clamps them.
    weight : array, shape ``(num_embeddings, embedding_dim)``

    Returns
    -------
    array, shape ``(*ids.shape, embedding_dim)``, ``weight``'s dtype

    Raises
    ------
    ShapeError
        ``weight`` is not 2-d.
    DtypeError
        ``ids`` is not of an integer dtype.
    """
    ws = _args.shape_of(weight)
    if len(ws) != 2:
        raise hd.ShapeError(
            f"embedding: weight must have shape (num_embeddings, embedding_dim), got shape {ws}"
        )
    if not hd.isdtype(hd.dtype(ids), "integral"):
        raise hd.DtypeError(f"embedding: ids must have an integer dtype, got {hd.dtype(ids).name}")
    shape = _args.shape_of(ids)
    rows = hd.take(weight, hd.reshape(ids, (-1,)), axis=0)
    if None in shape:
        return hd.reshape(rows, (*(-1 if d is None else d for d in shape), ws[1]))
    return hd.reshape(rows, (*shape, ws[1]))


def dropout(x: Array, rate: float, *, key: Array | None = None, training: bool = True) -> Array:
    """Zero each element with probability ``rate`` and scale the rest by ``1 / (1 - rate)``.

    Parameters
    ----------
    x : array
    rate : float in ``[0, 1]``
        The drop probability (PyTorch's ``p``).
    key : key array, optional
        A key from ``hd.random.key``/``hd.random.split`` of ``x``'s backend: the mask is
        a pure function of it (required inside ``hd.jit``). Without one, the
        backend's stateful generator draws it.
    training : bool
        ``False`` returns ``x`` unchanged, as does ``rate == 0``.

    Returns
    -------
    array, the shape and dtype of ``x``; the expected value of each element is ``x``'s.
    """
    rate = finite_float("dropout", "rate", rate, minimum=0.0, maximum=1.0)
    if not training or rate == 0.0:
        return x
    if rate == 1.0:
        return hd.zeros_like(x)
    keep = hd.random.bernoulli(hd.full_like(x, 1.0 - rate), key=key)
    return hd.where(keep, hd.multiply(x, 1.0 / (1.0 - rate)), hd.zeros_like(x))
