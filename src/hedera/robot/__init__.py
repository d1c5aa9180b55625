"""hedera.robot: splines, manipulators and mobile robots, written once in hedera's public API.

Every function takes native arrays of any backend (NumPy, PyTorch, JAX,
TensorFlow), batched over leading dimensions, float32 or float64, and returns
arrays of the same backend; everything is differentiable on the autodiff backends.

* :func:`sample_spline_path`: polyharmonic (RBF) splines through anchors, for
  smooth paths (in 1-D with the default ``order=3``: the natural cubic spline);
* :class:`Manipulator`: a serial arm from a Denavit-Hartenberg table (classic or
  Craig's modified convention): link matrices, forward kinematics, points along
  the links; :class:`PandaManipulator` and :class:`MicoManipulator` with their
  published parameters;
* :class:`RigidMobile`: points on a rigid body (a drone) at given poses.

Units: metres and radians. Poses follow :mod:`hedera.mech` (``[R | t]`` maps a
frame's coordinates to the world's). See docs/robot.md.
"""

from __future__ import annotations

from hedera.helpers import check_public as _check_public

from . import manipulator, rigid_mobile, splines
from .manipulator import *  # noqa: F403
from .rigid_mobile import *  # noqa: F403
from .splines import *  # noqa: F403

__all__ = [*splines.__all__, *manipulator.__all__, *rigid_mobile.__all__]

# the public functions check the kind of their array arguments (hedera.helpers.checked)
_check_public(globals(), __all__)
