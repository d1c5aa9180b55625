"""Devices (tensorflow backend).

hedera spells devices ``"cpu"``, ``"gpu:0"``; TensorFlow's ``"/GPU:0"`` and
``"/job:localhost/replica:0/task:0/device:GPU:0"`` and ``tf.config.LogicalDevice``
objects are accepted wherever a device is.
"""

from __future__ import annotations

import tensorflow as tf

from ..._api import names_in
from ._core import device_name, native_device

__all__ = names_in("device")  # the API table's device rows


def device(x, /):
    """hedera's spelling of the device ``x`` lives on (``"cpu"``, ``"gpu:0"``).

    A symbolic tensor inside ``tf.function`` is not placed yet: its device is the
    default one (``"gpu:0"`` where a GPU is visible, else ``"cpu"``).
    """
    return device_name(x.device)


def to_device(x, device, /, *, stream=None):
    """A copy of ``x`` on ``device``; ``x`` itself if it is already there. ``stream`` is ignored."""
    target = native_device(device)
    if x.device and native_device(x.device) == target:
        return x
    with tf.device(target):
        return tf.identity(x)
