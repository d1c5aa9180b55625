"""hedera.mech: rotations, poses and positions in 3D, written once in hedera's public API.

Every function takes native arrays of any backend (NumPy, PyTorch, JAX,
TensorFlow), batched over leading dimensions, float32 or float64, and returns
arrays of the same backend; it is differentiable on the autodiff backends and
finite (values and gradients) at the identity rotation.

Conventions (see docs/mech.md):

* rotation matrices act on column vectors, ``p' = R @ p``;
* quaternions are scalar-last ``(x, y, z, w)``, as in scipy;
* Euler angles take a ``convention`` of three axis letters, lower case
  extrinsic (``"xyz"``), upper case intrinsic (``"XYZ"``), scipy's rule;
* axis-angle is ``(ax, ay, az, angle)``, polar axis-angle ``(theta, phi, angle)``,
  rotation vectors ``angle * axis``; all angles in radians;
* a pose maps ``p`` to ``R @ p + t``: matrix pose ``[R | t]`` ``(..., 3, 4)``,
  quaternion pose ``(tx, ty, tz, qx, qy, qz, qw)``, and Euler, axis-angle and
  rotation-vector poses likewise with the translation first.

Functions are named ``<from>_to_<to>``, e.g. :func:`quaternion_to_rot_mat`,
:func:`rot_mat_to_euler`, :func:`euler_to_quaternion`.
"""

from __future__ import annotations

from hedera.helpers import check_public as _check_public

from . import poses, positions, rotations
from .poses import *  # noqa: F403
from .positions import *  # noqa: F403
from .rotations import *  # noqa: F403

__all__ = [*rotations.__all__, *poses.__all__, *positions.__all__]

# the public functions check the kind of their array arguments (hedera.helpers.checked)
_check_public(globals(), __all__)
