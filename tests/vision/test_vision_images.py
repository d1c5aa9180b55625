"""hedera.vision.images on every backend.

References: OpenCV's ``remap`` (INTER_LINEAR, BORDER_REPLICATE) for bilinear
resampling, scipy's ``uniform_filter`` for window sums, NumPy for gradients and
omni-image padding.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from scipy import ndimage

import hedera as hd
import hedera.vision as hv
from vision_reference import (
    check_gradient,
    seed_per_test,  # noqa: F401  (an autouse fixture)
    to_backend,
)

RNG = np.random.default_rng(4)


def cv2_remap(image, coords):
    """cv2.remap of a (H, W, C) float32 image at coords (..., 2), channel by channel."""
    u = coords[..., 0].reshape(1, -1).astype(np.float32)
    v = coords[..., 1].reshape(1, -1).astype(np.float32)
    out = [
        cv2.remap(image[..., c].astype(np.float32), u, v, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        for c in range(image.shape[-1])
    ]
    return np.stack(out, -1).reshape(*coords.shape[:-1], image.shape[-1])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_bilinear_resample_agrees_with_cv2_remap(backend, dtype):
    image = RNG.random((2, 6, 9, 3)).astype(np.float32)
    coords = RNG.uniform(0, 8, (2, 4, 5, 2)).astype(np.float32)
    coords[..., 1] *= 5 / 8
    coords[0, 0, :3] = [[0, 0], [8, 5], [3, 2]]  # exact pixel centres, the far corner included
    expected = np.stack([cv2_remap(image[b], coords[b]) for b in range(2)])
    out = hv.bilinear_resample(to_backend(image, backend, dtype), to_backend(coords, backend, dtype))
    assert tuple(out.shape) == (2, 4, 5, 3)
    np.testing.assert_allclose(hd.to_numpy(out), expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(hd.to_numpy(out)[0, 0, :3], image[0, [0, 5, 2], [0, 8, 3]], rtol=1e-6)


def test_bilinear_resample_border_replicates_edge_pixels(backend):
    image = RNG.random((4, 5, 2)).astype(np.float32)
    coords = np.array(
        [[-3.0, 1.5], [7.2, -1.0], [2.5, 9.0], [-0.4, -0.4], [4.3, 3.6], [1.25, 3.9]], np.float32
    )
    out = hv.bilinear_resample(
        to_backend(image, backend, np.float32), to_backend(coords, backend, np.float32)
    )
    np.testing.assert_allclose(hd.to_numpy(out), cv2_remap(image, coords), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(hd.to_numpy(out)[3], image[0, 0], rtol=1e-6)  # clamped to the corner pixel


def test_bilinear_resample_broadcasts_batch_and_handles_one_pixel_images(backend):
    image = RNG.random((1, 3, 4, 1))
    coords = RNG.uniform(0, 3, (5, 7, 2))  # batch of 5 against the image's batch of 1
    out = hv.bilinear_resample(to_backend(image, backend), to_backend(coords, backend))
    assert tuple(out.shape) == (5, 7, 1)
    np.testing.assert_allclose(hd.to_numpy(out)[2], cv2_remap(image[0], coords[2]), rtol=1e-5, atol=1e-6)
    tiny = hv.bilinear_resample(to_backend(np.full((1, 1, 2), 3.0), backend), to_backend(coords[0], backend))
    np.testing.assert_allclose(hd.to_numpy(tiny), 3.0)
    with pytest.raises(hd.ShapeError):
        hv.bilinear_resample(
            to_backend(np.ones((2, 3, 4, 1)), backend), to_backend(np.ones((3, 5, 2)), backend)
        )


def test_bilinear_resample_gradients(autodiff_backend):
    image = RNG.random((4, 5, 2))
    coords = np.array([[0.3, 0.7], [2.6, 1.2], [3.4, 2.8]])  # away from pixel lines (kinks)

    def by_image(img):
        return hv.bilinear_resample(img, hd.asarray(coords, backend=hd.backend_of(img)))

    def by_coords(c):
        return hv.bilinear_resample(hd.asarray(image, backend=hd.backend_of(c)), c)

    check_gradient(by_image, image, autodiff_backend)
    check_gradient(by_coords, coords, autodiff_backend)


def window_sum(x, k):
    return ndimage.uniform_filter(x, size=(k, k, 1), mode="constant", cval=0.0) * k * k


@pytest.mark.parametrize("k", [1, 3, 5])
def test_weighted_image_smooth(backend, k):
    mean = RNG.normal(size=(6, 7, 2))
    var = RNG.uniform(0.5, 2.0, (6, 7, 2))
    var[2, 3, 0] = np.inf  # no information at this pixel
    w = 1 / var
    total = window_sum(w, k)
    empty = total == 0  # only with k = 1, at the no-information pixel: documented as mean 0, variance 1e12
    expected_mean = np.where(empty, 0.0, window_sum(mean * w, k) / np.where(empty, 1.0, total))
    expected_var = np.where(empty, 1e12, 1 / np.where(empty, 1.0, total))
    m, v = hv.weighted_image_smooth(to_backend(mean, backend), to_backend(var, backend), k)
    np.testing.assert_allclose(hd.to_numpy(m), expected_mean, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(hd.to_numpy(v), expected_var, rtol=1e-10)
    with pytest.raises(hd.InvalidArgumentError):
        hv.weighted_image_smooth(to_backend(mean, backend), to_backend(var, backend), 2)


def test_weighted_image_smooth_without_information_is_finite(backend):
    m, v = hv.weighted_image_smooth(
        to_backend(np.ones((3, 3, 1)), backend), to_backend(np.full((3, 3, 1), np.inf), backend), 3
    )
    np.testing.assert_array_equal(hd.to_numpy(m), 0.0)
    assert np.all(np.isfinite(hd.to_numpy(v)))


def test_gradient_image(backend):
    image = RNG.normal(size=(2, 4, 5, 3))
    du = np.concatenate([np.diff(image, axis=-2), np.zeros((2, 4, 1, 3))], axis=-2)
    dv = np.concatenate([np.diff(image, axis=-3), np.zeros((2, 1, 5, 3))], axis=-3)
    out = hv.gradient_image(to_backend(image, backend))
    assert tuple(out.shape) == (2, 4, 5, 3, 2)
    np.testing.assert_allclose(hd.to_numpy(out), np.stack([du, dv], -1), rtol=1e-12)


def omni_reference(image, p):
    """Pad an (H, W, C) equirectangular image by index arithmetic: past a pole, half a turn around."""
    h, w, _ = image.shape
    out = np.zeros((h + 2 * p, w + 2 * p, image.shape[-1]))
    for i in range(h + 2 * p):
        for j in range(w + 2 * p):
            row, col = i - p, j - p
            if row < 0:
                row, col = -1 - row, col + w // 2
            elif row >= h:
                row, col = 2 * h - 1 - row, col + w // 2
            out[i, j] = image[row, col % w]
    return out


@pytest.mark.parametrize("pad", [0, 1, 3])
def test_pad_omni_image(backend, pad):
    image = RNG.normal(size=(2, 4, 6, 2))
    out = hd.to_numpy(hv.pad_omni_image(to_backend(image, backend), pad))
    assert out.shape == (2, 4 + 2 * pad, 6 + 2 * pad, 2)
    for b in range(2):
        np.testing.assert_array_equal(out[b], omni_reference(image[b], pad))


def test_pad_omni_image_rejects_odd_widths_and_big_pads(backend):
    with pytest.raises(hd.ShapeError):
        hv.pad_omni_image(to_backend(np.ones((4, 5, 1)), backend), 1)
    with pytest.raises(hd.InvalidArgumentError):
        hv.pad_omni_image(to_backend(np.ones((4, 6, 1)), backend), 5)


def test_smoothing_and_gradient_image_gradients(autodiff_backend):
    var = RNG.uniform(0.5, 2.0, (4, 4, 1))

    def smooth(mean):
        return hv.weighted_image_smooth(mean, hd.asarray(var, backend=hd.backend_of(mean)), 3)[0]

    check_gradient(smooth, RNG.normal(size=(4, 4, 1)), autodiff_backend)
    check_gradient(hv.gradient_image, RNG.normal(size=(3, 4, 1)), autodiff_backend)
