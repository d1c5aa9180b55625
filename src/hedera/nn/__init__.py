"""``hedera.nn``: neural networks written once in hedera's public API, run on every backend.

``hedera.nn.functional`` holds the operations as pure functions (docs/nn.md).
"""

from __future__ import annotations

from . import functional, losses
