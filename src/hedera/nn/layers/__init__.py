"""``hd.nn`` layers: modules over ``hd.nn.functional``, with PyTorch's names and defaults.

Every layer with parameters takes the keyword arguments ``key`` (initializer seed:
the same one gives the same initial weights on every backend), ``dtype``,
``backend`` and ``device`` (see :class:`Layer`), and builds lazily on its first call
when its input size is given as ``None``. Weights use hedera's layouts:
``(in, out)`` for linear maps, ``(*kernel_size, in // groups, out)`` for convolutions.
Inputs are ``channels_last`` by default (``data_format="channels_first"`` for
PyTorch's layout). Wrong input ranks or channel counts raise
:class:`hedera.ShapeError` naming the layer and the expected shape.
"""

from __future__ import annotations

from . import activations, attention, conv, linear, normalization, pooling, recurrent
from ._base import Layer
from .activations import *  # noqa: F403
from .attention import *  # noqa: F403
from .conv import *  # noqa: F403
from .linear import *  # noqa: F403
from .normalization import *  # noqa: F403
from .pooling import *  # noqa: F403
from .recurrent import *  # noqa: F403

__all__ = [
    "Layer",
    *activations.__all__,
    *attention.__all__,
    *conv.__all__,
    *linear.__all__,
    *normalization.__all__,
    *pooling.__all__,
    *recurrent.__all__,
]
