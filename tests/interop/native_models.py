"""Shared pieces of the native-wrapper tests: one small model, its data, and a hedera training loop.

Also a script: ``python tests/interop/native_models.py keras STEPS`` trains the model in Keras'
``Model.fit`` on the backend ``KERAS_BACKEND`` names and prints the losses as JSON (Keras fixes its
backend per process, so tests run the non-default backend through it in a subprocess).
"""

from __future__ import annotations

import json
import sys

import numpy as np

import hedera as hd

LR = 0.05


def model(backend: str = "numpy") -> hd.nn.Module:
    """Linear -> BatchNorm -> ReLU -> Linear, the same initial values every time."""
    with hd.use_backend(backend):
        return hd.nn.Sequential(
            hd.nn.Linear(3, 8, key=0), hd.nn.BatchNorm(8), hd.nn.ReLU(), hd.nn.Linear(8, 2, key=1)
        )


def data() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(16, 3)).astype(np.float32)
    y = np.stack([np.sin(x[:, 0]) + x[:, 1], x[:, 2] ** 2], axis=1).astype(np.float32)
    return x, y


def hedera_losses(optimizer: hd.optim.Optimizer, steps: int, backend: str = "torch") -> list[float]:
    """The full-batch MSE before each of ``steps`` updates by ``optimizer``, in hedera itself."""
    net = model(backend)
    x, y = (hd.asarray(a, backend=backend) for a in data())

    def loss_fn(params, buffers):
        out, new_buffers = net.apply(params, x, buffers=buffers, training=True, return_buffers=True)
        return hd.mean((out - y) ** 2), new_buffers

    params, buffers = net.parameters(), net.buffers()
    state = optimizer.init(params)
    losses = []
    for _ in range(steps):
        (loss, buffers), grads = hd.value_and_grad(loss_fn, has_aux=True)(params, buffers)
        params, state = optimizer.update(grads, state, params)
        losses.append(float(hd.to_numpy(loss)))
    return losses


def keras_fit_losses(steps: int) -> list[float]:
    """The losses ``Model.fit`` reports training ``to_keras(model())`` with SGD, one full batch per epoch."""
    import keras

    layer = hd.interop.to_keras(model())
    net = keras.Sequential([keras.Input((3,)), layer])
    net.compile(optimizer=keras.optimizers.SGD(LR), loss="mse")
    x, y = data()
    history = net.fit(x, y, batch_size=len(x), epochs=steps, shuffle=False, verbose=0)
    return [float(v) for v in history.history["loss"]]


if __name__ == "__main__":
    if sys.argv[1] == "keras":
        import keras

        print(json.dumps({"backend": keras.backend.backend(), "losses": keras_fit_losses(int(sys.argv[2]))}))
