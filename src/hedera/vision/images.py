"""Image operations: bilinear resampling (warping), weighted smoothing, gradients, omni-image padding.

Images are channels-last ``(..., H, W, C)``, float32 or float64, batched over
leading dimensions. Pixel coordinates are ``(u, v) = (column, row)`` with the
*centre* of the top-left pixel at the origin (OpenCV's convention: pixel ``(i, j)``
is sampled exactly at ``(u, v) = (j, i)``).
"""

from __future__ import annotations

import math

import hedera as hd
from hedera.helpers import integer

from ._helpers import Array, broadcast_shapes, check_floating, check_image, check_last_dim, safe_divide

__all__ = ["bilinear_resample", "weighted_image_smooth", "gradient_image", "pad_omni_image"]


def _broadcast_batch(image: Array, coords: Array) -> tuple[Array, Array, tuple[int, ...], tuple[int, ...]]:
    """``image`` and ``coords`` with their batch dimensions broadcast; also the batch and point shapes."""
    image_shape = tuple(image.shape)
    coords_shape = tuple(coords.shape)
    nb = len(image_shape) - 3
    if len(coords_shape) - 1 < nb:
        raise hd.ShapeError(
            f"coords: expected shape (*batch, *points, 2) with the image's {nb} batch dimension(s) first, "
            f"got shape {coords_shape} for an image of shape {image_shape}"
        )
    point_shape = coords_shape[nb:-1]
    batch = broadcast_shapes(image_shape[:nb], coords_shape[:nb], "image", "coords")
    image = hd.broadcast_to(image, batch + image_shape[-3:])
    coords = hd.broadcast_to(coords, batch + point_shape + (2,))
    return image, coords, batch, point_shape


def bilinear_resample(image: Array, coords: Array) -> Array:
    """Sample an image at real-valued pixel coordinates by bilinear interpolation (warping).

    Agrees with OpenCV's ``cv2.remap(image, u, v, cv2.INTER_LINEAR,
    borderMode=cv2.BORDER_REPLICATE)``.

    Parameters
    ----------
    image : array, shape (*B, H, W, C)
        Channels-last image(s).
    coords : array, shape (*B, *S, 2)
        Where to sample: ``(u, v)``, ``u`` along the width (column), ``v`` along the
        height (row); pixel ``(i, j)``'s centre is ``(j, i)``. The batch dimensions
        ``B`` come first and broadcast with the image's; any point shape ``S`` follows.

    Returns
    -------
    array, shape (*B, *S, C)
        The interpolated values. **Border**: the edge pixels repeat outwards
        (coordinates are clamped to ``[0, W - 1] x [0, H - 1]``), so samples outside
        the image take the value of the nearest edge point (``BORDER_REPLICATE``).
        Differentiable in the image and, almost everywhere, in the coordinates
        (zero gradient in the coordinates outside the image).
    """
    check_image(image, "image")
    check_last_dim(coords, 2, "coords", "pixel coordinates (u, v)")
    check_floating(image, "image")
    check_floating(coords, "coords")
    image, coords, batch, point_shape = _broadcast_batch(image, coords)
    height, width, channels = tuple(image.shape)[-3:]
    n_points = math.prod(point_shape)
    coords = hd.reshape(coords, (*batch, n_points, 2))
    u = hd.clip(coords[..., 0], 0.0, float(width - 1))
    v = hd.clip(coords[..., 1], 0.0, float(height - 1))
    # top-left neighbour, one pixel inside so that (u0 + 1, v0 + 1) exists (or equals it in 1-pixel images)
    u0 = hd.clip(hd.floor(u), 0.0, float(max(width - 2, 0)))
    v0 = hd.clip(hd.floor(v), 0.0, float(max(height - 2, 0)))
    fu = (u - u0)[..., None]
    fv = (v - v0)[..., None]
    iu0 = hd.astype(u0, hd.int32)
    iv0 = hd.astype(v0, hd.int32)
    iu1 = hd.minimum(iu0 + 1, width - 1)
    iv1 = hd.minimum(iv0 + 1, height - 1)
    flat = hd.reshape(image, (*batch, height * width, channels))

    def gather(iv: Array, iu: Array) -> Array:
        index = hd.broadcast_to((iv * width + iu)[..., None], (*batch, n_points, channels))
        return hd.take_along_axis(flat, index, axis=-2)

    top = gather(iv0, iu0) * (1.0 - fu) + gather(iv0, iu1) * fu
    bottom = gather(iv1, iu0) * (1.0 - fu) + gather(iv1, iu1) * fu
    out = top * (1.0 - fv) + bottom * fv
    return hd.reshape(out, (*batch, *point_shape, channels))


def _window_sum(image: Array, kernel_size: int) -> Array:
    """Sum over each pixel's ``k x k`` window, zeros outside the image: ``(..., H, W, C)`` kept."""
    half = kernel_size // 2
    height, width = tuple(image.shape)[-3:-1]
    pad = [(0, 0)] * (len(tuple(image.shape)) - 3) + [(half, half), (half, half), (0, 0)]
    padded = hd.pad(image, pad)
    total = hd.zeros_like(image)
    for di in range(kernel_size):
        for dj in range(kernel_size):
            total = total + padded[..., di : di + height, dj : dj + width, :]
    return total


def weighted_image_smooth(mean: Array, variance: Array, kernel_size: int) -> tuple[Array, Array]:
    """Smooth an image of Gaussian estimates by inverse-variance weighting over a ``k x k`` window.

    Each pixel's ``k x k`` neighbourhood (the pixel at its centre) holds independent
    Gaussian estimates ``N(mean, variance)`` per channel; they are fused as
    product of Gaussians:

    ``mean' = sum(mean / variance) / sum(1 / variance)``,
    ``variance' = 1 / sum(1 / variance)``.

    Parameters
    ----------
    mean : array, shape (..., H, W, C)
    variance : array, shape (..., H, W, C)
        Positive; ``inf`` marks a pixel with no information (zero weight).
    kernel_size : int
        Odd ``k >= 1``.

    Returns
    -------
    mean, variance : array, shape (..., H, W, C)
        Near the border only the in-image part of the window counts. Where a
        window holds no information at all the mean is 0 and the variance 1e12.
    """
    check_image(mean, "mean")
    check_image(variance, "variance")
    check_floating(mean, "mean")
    if kernel_size.__class__ is not int:
        integer("weighted_image_smooth", "kernel_size", kernel_size)  # a float, a bool...: a TypeError
    if kernel_size < 1 or kernel_size % 2 == 0:
        raise hd.InvalidArgumentError(f"kernel_size: expected an odd int >= 1, got {kernel_size!r}")
    weight = 1.0 / variance
    weight_sum = _window_sum(weight, kernel_size)
    weighted_mean_sum = _window_sum(mean * weight, kernel_size)
    return safe_divide(weighted_mean_sum, weight_sum), safe_divide(hd.ones_like(weight_sum), weight_sum)


def gradient_image(image: Array) -> Array:
    """Image gradients by forward differences.

    Parameters
    ----------
    image : array, shape (..., H, W, C)

    Returns
    -------
    array, shape (..., H, W, C, 2)
        ``[..., 0]``: ``d/du``, ``image[i, j + 1] - image[i, j]`` (0 in the last column);
        ``[..., 1]``: ``d/dv``, ``image[i + 1, j] - image[i, j]`` (0 in the last row).
        The same values as ``tf.image.image_gradients`` (which returns ``(dy, dx)``).
    """
    check_image(image, "image")
    check_floating(image, "image")
    du = image[..., :, 1:, :] - image[..., :, :-1, :]
    dv = image[..., 1:, :, :] - image[..., :-1, :, :]
    du = hd.concat([du, hd.zeros_like(image[..., :, :1, :])], axis=-2)
    dv = hd.concat([dv, hd.zeros_like(image[..., :1, :, :])], axis=-3)
    return hd.stack([du, dv], axis=-1)


def pad_omni_image(image: Array, pad_size: int) -> Array:
    """Pad an equirectangular (360 x 180 degree) omni image with its own continuation.

    Columns span azimuth (the image wraps around horizontally) and rows span
    inclination from the zenith (row 0) to the nadir (last row); see
    :mod:`hedera.vision.projective` for the angular pixel convention.

    Parameters
    ----------
    image : array, shape (..., H, W, C)
        ``W`` even (a shift of ``W / 2`` columns is half a turn).
    pad_size : int
        ``p``, with ``0 <= p <= H``.

    Returns
    -------
    array, shape (..., H + 2p, W + 2p, C)
        Above row 0 come rows ``0, 1, ..., p - 1`` again, in reverse order (the
        row nearest the image first) and shifted by half a turn (``W / 2``
        columns): looking past the zenith is looking down the other side.
        Likewise below the last row. Then ``p`` columns wrap around at each side.
    """
    check_image(image, "image")
    height, width = tuple(image.shape)[-3:-1]
    if pad_size.__class__ is not int:
        integer("pad_omni_image", "pad_size", pad_size)
    if not 0 <= pad_size <= height:
        raise hd.InvalidArgumentError(f"pad_size: expected an int in [0, {height}], got {pad_size!r}")
    if width % 2:
        raise hd.ShapeError(
            f"image: an omni image needs an even width (half a turn = W / 2), got W = {width}"
        )
    if pad_size == 0:
        return image
    p = pad_size
    top = hd.roll(hd.flip(image[..., :p, :, :], axis=-3), width // 2, axis=-2)
    bottom = hd.roll(hd.flip(image[..., height - p :, :, :], axis=-3), width // 2, axis=-2)
    tall = hd.concat([top, image, bottom], axis=-3)
    return hd.concat([tall[..., :, width - p :, :], tall, tall[..., :, :p, :]], axis=-2)
