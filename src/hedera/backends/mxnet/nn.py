"""Neural-network kernels (mxnet backend): not provided yet; every kernel raises ``UnsupportedError``.

``hd.nn`` layers built from the Array API functions alone (``Linear`` with ``tanh``, say) run
through the namespace; the convolution, pooling and normalisation kernels of
``hedera.nn_ops`` need this module.
"""

from __future__ import annotations

from ...errors import UnsupportedError


def __getattr__(name: str):
    if name.startswith("__"):
        raise AttributeError(name)
    raise UnsupportedError(f"nn_ops.{name}: hedera.nn_ops has no mxnet kernels yet")
