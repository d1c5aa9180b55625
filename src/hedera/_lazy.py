"""Modules that hedera's own modules use but ``import hedera`` need not pay for.

``optree = on_first_use("optree", globals())`` binds, in the calling module, a stand-in for
``optree`` that imports the real module on its first attribute read, runs the hooks registered
with :func:`when_imported` (``hd.Container`` registers as an optree node there), and then rebinds
every global that held the stand-in to the real module. From then on ``optree.tree_flatten`` is a
global and an attribute load on the real module, as after a top-level ``import optree``: the
stand-in costs nothing per call, only the first use pays the import (optree alone is about a
tenth of ``import hedera``; ``json``, ``uuid`` and ``zlib`` go the same way for ``hd.save``).

A module already in ``sys.modules`` (imported by the program, or by an earlier first use) is
bound directly, with its hooks run at once. Not :class:`importlib.util.LazyLoader`: that puts a
half-made module in ``sys.modules``, which a program importing optree itself would then see.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Callable
from typing import Any

# module name -> hooks still to run on its first import, in registration order
_HOOKS: dict[str, list[Callable[[types.ModuleType], None]]] = {}


class _OnFirstUse(types.ModuleType):
    """The stand-in bound for a module not imported yet (see the module docstring)."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        # (globals dict, name) pairs that hold this stand-in, to rebind on the first use
        self._hedera_bindings: list[tuple[dict[str, Any], str]] = []

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__") and attr.endswith("__"):  # copy/pickle/inspect probing: no import
            raise AttributeError(attr)
        return getattr(_load(self.__name__), attr)


_STAND_INS: dict[str, _OnFirstUse] = {}


def _load(name: str) -> types.ModuleType:
    module = importlib.import_module(name)
    for hook in _HOOKS.pop(name, ()):
        hook(module)
    stand_in = _STAND_INS.pop(name, None)
    if stand_in is not None:
        for namespace, key in stand_in._hedera_bindings:
            if namespace.get(key) is stand_in:
                namespace[key] = module
    return module


def on_first_use(name: str, namespace: dict[str, Any], as_name: str | None = None) -> Any:
    """Module ``name`` for the module whose globals are ``namespace``, imported on its first use.

    Returns the module itself when it is imported already, else its stand-in, which rebinds
    ``namespace[as_name]`` (default: ``name``'s last part) to the module on the first use.
    """
    if name in sys.modules:
        return _load(name)
    stand_in = _STAND_INS.get(name)
    if stand_in is None:
        stand_in = _STAND_INS[name] = _OnFirstUse(name)
    stand_in._hedera_bindings.append((namespace, as_name or name.rpartition(".")[2]))
    return stand_in


def when_imported(name: str, hook: Callable[[types.ModuleType], None]) -> None:
    """Run ``hook(module)`` once module ``name`` is imported: now if it is, else at its first use
    through a stand-in of :func:`on_first_use` (or :func:`ensure_imported`)."""
    _HOOKS.setdefault(name, []).append(hook)
    if name in sys.modules:
        _load(name)


def ensure_imported(name: str) -> types.ModuleType:
    """Import module ``name`` now, running its hooks and rebinding its stand-ins (once)."""
    return _load(name)
