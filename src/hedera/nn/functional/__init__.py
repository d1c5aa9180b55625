"""``hedera.nn.functional``: neural-network operations as pure functions of native arrays.

Activations, layers as functions (``linear``, convolutions, pooling,
normalisation, dropout, embedding, attention, recurrent cells) and losses, with
the same semantics on NumPy (forward passes), PyTorch, JAX and TensorFlow.
Convolutions, pooling and activations run each framework's own kernel through
:mod:`hedera.nn_ops`; the rest is written in hedera's public API.

Conventions (docs/nn.md): ``data_format="channels_last"`` by default
(``(batch, *spatial, channels)``; ``"channels_first"`` for PyTorch's layout);
convolution weights ``(*kernel_size, in_channels // groups, out_channels)`` on
every backend and in both data formats; ``linear`` weights ``(in, out)``;
``padding`` ``"SAME"``, ``"VALID"``, an int or ``(low, high)`` pairs. Bad
strings raise :class:`hedera.InvalidArgumentError` naming the argument and the
allowed values; inputs of the wrong rank or channel count raise
:class:`hedera.ShapeError` naming the op and the expected shape.
"""

from __future__ import annotations

from types import SimpleNamespace as _SimpleNamespace

from hedera.helpers import check_public as _check_public

from .. import losses
from ..losses import *  # noqa: F403
from . import activations, attention, basic, conv, normalization, pooling, recurrent
from .activations import *  # noqa: F403
from .attention import *  # noqa: F403
from .basic import *  # noqa: F403
from .conv import *  # noqa: F403
from .normalization import *  # noqa: F403
from .pooling import *  # noqa: F403
from .recurrent import *  # noqa: F403

__all__ = [
    *activations.__all__,
    *attention.__all__,
    *basic.__all__,
    *conv.__all__,
    *normalization.__all__,
    *pooling.__all__,
    *recurrent.__all__,
    *losses.__all__,
]

#: the same functions without the argument checks, for hedera.nn's layers: a layer has checked
#: what it was built with, and the wrapper's array-kind lookups cost 50-150 ns per call (2-5 % of
#: a small ``linear``: measured on NumPy and torch, 4x3 by 3x5)
_unchecked = _SimpleNamespace(**{name: globals()[name] for name in __all__})

# the public functions check the kind of their array arguments (hedera.helpers.checked)
_check_public(globals(), __all__, package="hedera.nn")
