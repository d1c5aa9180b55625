"""hedera.vision: 3D vision, written once in hedera's public API.

Cameras, single- and two-view geometry, optical flow, image warping and
smoothing, rendering of points and triangles, voxel grids and signed distance
functions. Every function takes native arrays of any backend (NumPy, PyTorch,
JAX, TensorFlow), batched over leading dimensions, float32 or float64, returns
arrays of the same backend, and is differentiable on the autodiff backends.

Conventions (see docs/vision.md):

* pinhole cameras without distortion; camera frame ``x`` right, ``y`` down,
  ``z`` forward (OpenCV's);
* pixel coordinates ``(u, v)``: ``u`` along the width (column), ``v`` along the
  height (row), the *centre* of the top-left pixel at the origin (pixel row
  ``i``, column ``j`` is centred on ``(j, i)``), as OpenCV's ``projectPoints``
  and ``remap``; ``image_dims`` is ``(H, W)``;
* ``K = [[fx, 0, cx], [0, fy, cy], [0, 0, 1]]``; the extrinsic matrix
  ``E = [R | t]`` maps world to camera, the camera centre is ``C = -R^T t``;
  the full matrix is ``P = K E``;
* homogeneous pixel-depth coordinates ``(u d, v d, d)``, ``d`` the depth
  (camera ``z``);
* images channels-last ``(..., H, W, C)``, depth images ``(..., H, W, 1)``.
"""

from __future__ import annotations

from hedera.helpers import check_public as _check_public

from . import cameras, images, optical_flow, projective, rendering, sdf, two_view
from .cameras import *  # noqa: F403
from .images import *  # noqa: F403
from .optical_flow import *  # noqa: F403
from .projective import *  # noqa: F403
from .rendering import *  # noqa: F403
from .sdf import *  # noqa: F403
from .two_view import *  # noqa: F403

__all__ = [
    *cameras.__all__,
    *projective.__all__,
    *two_view.__all__,
    *optical_flow.__all__,
    *images.__all__,
    *rendering.__all__,
    *sdf.__all__,
]

# the public functions check the kind of their array arguments (hedera.helpers.checked)
_check_public(globals(), __all__)
