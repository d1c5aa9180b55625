"""``hedera.nn``: neural networks written once in hedera's public API, run on every backend.

``hedera.nn.functional`` holds the operations as pure functions (docs/nn.md).
``hedera.nn.Module`` and the layers (``hd.nn.Linear``, ``hd.nn.Conv2d``, ...) hold
parameters for them; ``hedera.nn.init`` creates those parameters, the same on
every backend for the same seed.
"""

from __future__ import annotations

from . import functional, init, layers, losses
from .layers import *  # noqa: F403
from .layers import __all__ as _layers_all
from .module import Module, ModuleList, Sequential

__all__ = ["Module", "ModuleList", "Sequential", "functional", "init", "layers", "losses", *_layers_all]
