"""``hd.asarray(x, backend=...)`` between every pair of backends, for every memory layout.

DLPack moves compact arrays; views (transposed, strided, reversed), 0-d and empty arrays,
booleans and the dtypes only some frameworks have must convert too, with dtype, shape
and values kept (or raise ``UnsupportedDtypeError`` where the target lacks the dtype).
"""

from __future__ import annotations

import numpy as np
import pytest

import hedera as hd
from conftest import ALL_BACKENDS, require_backend

BASE = np.arange(24.0).reshape(4, 6)

#: NumPy arrays in the layouts a framework can hand over (NumPy alone makes negative strides)
LAYOUTS = {
    "compact": BASE,
    "transposed": BASE.T,
    "strided": BASE[::2, 1::3],
    "reversed": BASE[::-1, ::-2],
    "0-d": np.float32(3.5),
    "empty": np.zeros((0, 3), np.int16),
    "bool": np.array([[True, False]]),
    "complex": np.array([1 + 2j, -3j], np.complex64),
    "uint16": np.array([1, 65535], np.uint16),
}


def _source(backend: str, layout: str):
    """The layout as an array of ``backend`` (a view of it where the framework has views)."""
    x = LAYOUTS[layout]
    if backend == "numpy":
        return x
    if layout in ("transposed", "strided", "reversed"):  # the same view, made by the framework
        full = hd.asarray(BASE, backend=backend)
        if layout == "transposed":
            return hd.matrix_transpose(full)
        if layout == "strided":
            return hd.at(full)[::2, 1::3].get()
        return hd.at(hd.flip(full, axis=(0, 1)))[:, ::2].get()
    return hd.asarray(x, backend=backend)


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("target", ALL_BACKENDS)
def test_asarray_between_backends(backend, target, layout):
    require_backend(target)
    try:
        x = _source(backend, layout)
    except hd.UnsupportedDtypeError:
        pytest.skip(f"{backend} has no {LAYOUTS[layout].dtype}")
    expected = np.asarray(hd.to_numpy(x))
    try:
        y = hd.asarray(x, backend=target)
    except hd.UnsupportedDtypeError:
        assert hd.dtype(x).name in ("uint16",) and target == "torch"
        return
    assert hd.backend_of(y) == target
    assert hd.dtype(y) == hd.dtype(x) and tuple(y.shape) == expected.shape
    np.testing.assert_array_equal(np.asarray(hd.to_numpy(y)), expected)
    np.testing.assert_array_equal(np.asarray(hd.to_numpy(hd.asarray(x, backend=target, copy=True))), expected)


def test_from_dlpack_of_numpy_views(backend):
    """torch aborted the process on negative strides; JAX raised its own error on any non-compact buffer."""
    xp = hd.namespace(backend)
    for layout in ("transposed", "strided", "reversed"):
        x = LAYOUTS[layout]
        np.testing.assert_array_equal(np.asarray(hd.to_numpy(xp.from_dlpack(x))), x)
    if backend in ("torch", "jax"):
        with pytest.raises(BufferError):
            xp.from_dlpack(LAYOUTS["reversed"], copy=False)


@pytest.mark.parametrize("source", ["numpy", "torch", "tensorflow"])
def test_host_arrays_into_jax_are_uncommitted_unless_a_device_is_given(source):
    """As jnp.asarray makes them: uncommitted (on the default device, free to join arrays on other
    devices); DLPack's import, which hd.asarray used, commits them to the CPU. ``device=`` commits
    them, as in jax; ``copy=False`` shares memory through DLPack, so it commits them too."""
    require_backend("jax")
    require_backend(source)
    import jax
    import jax.numpy as jnp

    values = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    x = hd.asarray(values, backend=source)
    y = hd.asarray(x, backend="jax")
    assert y.committed is jnp.asarray(values).committed is False
    np.testing.assert_array_equal(np.asarray(y), values)
    cpu = jax.devices("cpu")[0]
    assert hd.asarray(x, backend="jax", device="cpu").committed is jnp.asarray(values, device=cpu).committed
    assert hd.asarray(x, backend="jax", device="cpu").committed is True
    assert hd.asarray(hd.matrix_transpose(x), backend="jax").committed is False  # (torch: a view)
