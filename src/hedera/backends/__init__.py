"""Backend namespaces: ``hedera.backends.<name>`` for numpy, torch, jax, tensorflow (and mxnet).

Each is a complete Python Array API (2024.12) namespace over its framework's
native arrays and dtypes, plus hedera's extras (``einsum``, ``pad``, ...). Every
backend folder has the same file names, one per API category.

Import them through :func:`hedera.namespace` (``hd.namespace("torch")``) so
that a missing framework gives a clear error.
"""
