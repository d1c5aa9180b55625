"""Code written against hedera's public API, for the type checker (``scripts/test.sh`` runs mypy
on it and on the modules it imports, with hedera's annotations: ``src/hedera/py.typed``).

Not a test module: it is never run, only checked. Each line is a use a user writes; a wrong
annotation in hedera (a return type, a parameter's type) makes mypy fail here.
"""

from __future__ import annotations

import numpy as np

import hedera as hd
from hedera.typing import Array, DTypeLike, Nest


def loss(params: Nest, x: Array) -> Array:
    w = params["w"]
    return hd.mean(hd.square(hd.matmul(x, w)))


def uses() -> None:
    x: Array = hd.ones((3, 3), dtype=hd.float32)
    y = hd.add(x, 1.0)
    close: bool = hd.allclose(x, y)
    where: str = hd.device(x)
    host: np.ndarray = hd.to_numpy(y)
    q, r = hd.linalg.qr(x)
    values, indices = hd.top_k(hd.reshape(x, (9,)), 2)
    parts: tuple[Array, ...] = hd.split(x, 3, axis=0)
    s = hd.squeeze(hd.expand_dims(x, axis=0), axis=0)
    d = hd.vecdot(x, y, axis=-1)
    dtype: DTypeLike = hd.result_type(x, y)
    same: bool = hd.isdtype(hd.float32, "real floating")
    grads = hd.grad(loss)({"w": x}, y)
    compiled = hd.jit(loss)
    tree = hd.tree.map(lambda a: a * 2, {"w": x})
    container = hd.Container(w=x)
    with hd.use_backend("numpy"):
        z = hd.zeros(3)
    del (
        close,
        where,
        host,
        q,
        r,
        values,
        indices,
        parts,
        s,
        d,
        dtype,
        same,
        grads,
        compiled,
        tree,
        container,
        z,
    )
