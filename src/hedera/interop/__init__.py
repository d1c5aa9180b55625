"""Interoperability with framework code: existing programs in, hedera programs as native modules out.

* ``from_torch(module_or_fn, example_args, ...)``: a PyTorch program (``torch.export``, lowered to
  Core ATen) as a hedera program that runs on every backend (``hedera.interop.torch``).
* ``from_jax(fn, *example_args)``: a JAX function (its jaxpr) as a hedera program
  (``hedera.interop.jax``); ``JaxModule(program, params)`` makes one and its parameters a module.
* ``to_torch``, ``to_keras``, ``to_flax``: a hedera module as a native ``torch.nn.Module``, Keras 3
  layer or flax module (``hedera.interop.native``).

Each submodule imports its framework only when it is used: ``import hedera.interop`` imports none.
"""

from __future__ import annotations

import importlib
from typing import Any

#: public name -> the submodule that defines it (loaded on first access, PEP 562)
_EXPORTS: dict[str, str] = {
    "from_torch": "hedera.interop.torch",
    "ExportError": "hedera.interop.torch",
    "from_jax": "hedera.interop.jax",
    "JaxModule": "hedera.interop.jax",
    "to_torch": "hedera.interop.native",
    "to_keras": "hedera.interop.native",
    "to_flax": "hedera.interop.native",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'hedera.interop' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
