"""``hd.optim``: optimizers over Containers of native arrays, on every backend.

Functional, as optax::

    opt = hd.optim.Adam(1e-3)
    state = opt.init(params)                              # a Container of arrays
    params, state = opt.update(grads, state, params)      # pure: hd.jit-able

or stateful, as PyTorch::

    opt.step(model, grads)                                # model's parameters updated

Optimizers (``SGD``, ``Adam``, ``AdamW``, ``RMSprop``, ``LAMB``, ``LARS``) are
chains of stages (:mod:`hedera.optim.base`); :func:`chain` composes stages and
optimizers, e.g. gradient clipping first. Learning rates may be schedules
(:mod:`hedera.optim.schedules`). The state is a Container of arrays: save it
with ``hd.save`` next to the model's state. See docs/nn.md.
"""

from __future__ import annotations

from . import base, optimizers, schedules
from .base import *  # noqa: F403
from .optimizers import *  # noqa: F403
from .schedules import *  # noqa: F403

__all__ = [*base.__all__, *optimizers.__all__, *schedules.__all__]
