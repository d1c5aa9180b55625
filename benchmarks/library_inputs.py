"""Inputs for the library benchmark, at the sizes the demos use, for every public function.

Each library has a table of builders keyed by *parameter name* (most functions share their
parameter names: ``quaternion``, ``rot_mat``, ``calib_mat``, ``depth``...) and per-function
overrides where one name means different shapes. ``library_overhead.py`` discovers the
functions (the library's ``__all__``) and asks :func:`inputs` for each; a function whose
parameters have no builder is reported as skipped, never silently dropped.

Sizes (the demos'):

* ``hedera.mech``: batches of 200 rotations/poses/points (``examples/mech_pose_fit.py``).
* ``hedera.vision``: 120 x 160 images (``examples/render_scene.py``), 60 point
  correspondences (``examples/vision_camera_fit.py``), 2000 surface points and 3 objects for
  the signed distances, 200 triangles, a 16^3 voxel grid.
* ``hedera.robot``: a 6-anchor spline of 6-number poses sampled at 48 points and 48 poses of a
  6-point drone body (``examples/plan_drone.py``), 32 joint configurations of the Panda and the
  Mico (``examples/plan_manipulator.py``).
* ``hedera.gym`` (no demo yet): the pure functional API (``step_fn``, ``dynamics``,
  ``observe``...) of each environment on a batch of 128 states, ``rollout`` and
  ``policy_rollout`` of CartPole over 50 steps of that batch. The stateful gymnasium methods
  (``reset``, ``step``, ``render``...) are listed as not measured: they are not pure functions
  of arrays, and their work is ``step_fn``'s.

Public classes: their public methods are benchmarked on an instance (``instances``), named
``Class.method``.

Values are computed in NumPy (some with hedera on the NumPy backend, which is fine: inputs
need to be valid, not independent) and converted to the benchmarked backend as float32.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

import hedera as hd

MECH_BATCH = 200
IMAGE_DIMS = (120, 160)
N_CORRESPONDENCES = 60
N_SURFACE_POINTS = 2000
N_TRIANGLES = 200


class Skip(Exception):
    """No input builder for this function (reported, with the reason)."""


def _rotations(n: int, seed: int) -> np.ndarray:
    from scipy.spatial.transform import Rotation

    return Rotation.random(n, random_state=seed)


def _mech_values() -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    rng = np.random.default_rng(0)
    n = MECH_BATCH
    rot, rot2 = _rotations(n, 0), _rotations(n, 1)
    q, q2 = rot.as_quat(), rot2.as_quat()
    rot_vec = rot.as_rotvec()
    angle = np.linalg.norm(rot_vec, axis=-1, keepdims=True)
    axis = rot_vec / angle
    axis_angle = np.concatenate([axis, angle], -1)
    polar = np.stack([np.arccos(axis[:, 2]), np.arctan2(axis[:, 1], axis[:, 0]), angle[:, 0]], -1)
    euler = rot.as_euler("ZYX")
    t, t2 = rng.uniform(-1, 1, (n, 3)), rng.uniform(-1, 1, (n, 3))
    mat_pose = np.concatenate([rot.as_matrix(), t[..., None]], -1)
    mat_pose2 = np.concatenate([rot2.as_matrix(), t2[..., None]], -1)
    points = rng.uniform(-1, 1, (n, 3))
    small = _rotations(n, 2).as_rotvec() * 0.01
    velocity = np.concatenate([rng.uniform(-1, 1, (n, 3)), _from_rotvec(small)], -1)
    params = {
        "rot_mat": rot.as_matrix(), "quaternion": q, "quaternion0": q, "quaternion1": q,
        "quaternion2": q2, "euler": euler, "convention": "ZYX", "axis_angle": axis_angle,
        "polar_axis_angle": polar, "rot_vec": rot_vec, "scale": 0.5, "t": 0.3,
        "body_pos": t, "target_pos": t2,
        "quaternion_pose": np.concatenate([t, q], -1),
        "quaternion_pose1": np.concatenate([t, q], -1),
        "quaternion_pose2": np.concatenate([t2, q2], -1),
        "euler_pose": np.concatenate([t, euler], -1),
        "axis_angle_pose": np.concatenate([t, axis_angle], -1),
        "rot_vec_pose": np.concatenate([t, rot_vec], -1),
        "mat_pose": mat_pose, "mat_pose1": mat_pose, "mat_pose2": mat_pose2,
        "quaternion_velocity": velocity, "delta_t": 0.1,
        "coords": points, "matrices": mat_pose, "transform": mat_pose,
        "polar_coords": np.stack([polar[:, 1], polar[:, 0], 1 + angle[:, 0]], -1),
        "cartesian_coords": points, "batch_shape": (n,), "key": "key", "dtype": hd.float32,
    }  # fmt: skip
    overrides = {
        "homogeneous_to_cartesian_coords": {"coords": np.concatenate([points, np.ones((n, 1))], -1)},
    }
    return params, overrides


def _from_rotvec(rot_vec: np.ndarray) -> np.ndarray:
    from scipy.spatial.transform import Rotation

    return Rotation.from_rotvec(rot_vec).as_quat()


def _camera(rot_vec: list[float], center: list[float]) -> dict[str, np.ndarray]:
    from scipy.spatial.transform import Rotation

    h, w = IMAGE_DIMS
    calib = np.array([[150.0, 0, (w - 1) / 2], [0, 150.0, (h - 1) / 2], [0, 0, 1]])
    rot = Rotation.from_rotvec(rot_vec).as_matrix()
    center = np.asarray(center, float)
    ext = np.concatenate([rot, -rot @ center[:, None]], -1)
    return {
        "calib_mat": calib, "inv_calib_mat": np.linalg.inv(calib), "rot_mat": rot,
        "cam_center": center, "ext_mat": ext, "inv_ext_mat": np.concatenate([rot.T, center[:, None]], -1),
        "full_mat": calib @ ext,
    }  # fmt: skip


def _vision_values() -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    import hedera.vision as hv

    rng = np.random.default_rng(0)
    h, w = IMAGE_DIMS
    cam1 = _camera([0.05, -0.1, 0.0], [0.0, 0.0, -4.0])
    cam2 = _camera([0.0, 0.1, 0.02], [0.5, 0.1, -4.0])
    depth = rng.uniform(2.0, 5.0, (h, w, 1))
    ds_pixel = hv.depth_to_ds_pixel_coords(depth)
    cam_coords = hv.ds_pixel_to_cam_coords(ds_pixel, cam1["inv_calib_mat"])
    world = hv.cam_to_world_coords(cam_coords, cam1["inv_ext_mat"])
    sphere = hv.cam_to_sphere_coords(cam_coords)
    pixel = ds_pixel[..., :2] / ds_pixel[..., 2:]
    points = rng.uniform(-1.0, 1.0, (N_CORRESPONDENCES, 3))
    pix1 = hv.world_to_pixel_coords(points, cam1["full_mat"])
    pix2 = hv.world_to_pixel_coords(points, cam2["full_mat"])
    rel = hv.relative_ext_mat(cam1["ext_mat"], cam2["ext_mat"])
    flow = hv.flow_from_depth_and_cam_mats(depth, cam1["calib_mat"], cam1["ext_mat"], cam2["ext_mat"])
    image = rng.uniform(0, 1, (h, w, 3))
    surface = rng.uniform(-2, 2, (N_SURFACE_POINTS, 3))
    centers = rng.uniform(-1, 1, (3, 3))
    cuboid_poses = np.concatenate([_rotations(3, 3).as_matrix(), centers[..., None]], -1)
    tri_centres = rng.uniform([10, 10], [w - 10, h - 10], (N_TRIANGLES, 1, 2))
    triangles = tri_centres + rng.uniform(-8, 8, (N_TRIANGLES, 3, 2))
    cloud = hv.world_to_ds_pixel_coords(surface, cam1["full_mat"])
    params = {
        **cam1,
        "persp_angles": np.array([1.0, 0.8]), "image_dims": IMAGE_DIMS,
        "focal_lengths": np.array([150.0, 150.0]), "pp_offsets": np.array([(w - 1) / 2, (h - 1) / 2]),
        "calib_mat1": cam1["calib_mat"], "calib_mat2": cam2["calib_mat"],
        "ext_mat1": cam1["ext_mat"], "ext_mat2": cam2["ext_mat"],
        "full_mat1": cam1["full_mat"], "full_mat2": cam2["full_mat"],
        "cam1_to_cam2_ext_mat": rel, "cam_tm1_to_t_ext_mat": rel,
        "depth": depth, "depth1": depth, "radial_depth": depth, "pixel_coords": pixel,
        "ds_pixel_coords": ds_pixel, "ds_pixel_coords1": ds_pixel, "cam_coords": cam_coords,
        "cam_coords1": cam_coords, "cam_coords_t": cam_coords, "cam_coords_tm1": cam_coords,
        "world_coords": world, "sphere_coords": sphere, "pixels_per_degree": 2.0,
        "angular_pixel_coords": hv.sphere_to_angular_pixel_coords(sphere, 2.0),
        "origin1": points, "direction1": rng.normal(size=points.shape),
        "origin2": points + 1.0, "direction2": rng.normal(size=points.shape),
        "pixel_coords1": pix1, "pixel_coords2": pix2, "flow": flow, "flow_t_to_tm1": flow,
        "delta_t": 0.1, "image1": image, "image2": image[:, ::-1], "search_range": 2,
        "image": image, "coords": pixel[..., ::-1] * 0.9, "mean": image,
        "variance": rng.uniform(0.5, 1.5, (h, w, 3)), "kernel_size": 3, "pad_size": 2,
        "points": surface, "centers": centers, "radii": np.array([0.3, 0.5, 0.7]),
        "cuboid_poses": cuboid_poses, "cuboid_dims": np.array([[0.5, 0.4, 0.3]] * 3),
        "pixel_coords_triangles": triangles, "depths": rng.uniform(2, 5, (N_TRIANGLES, 3)),
        "grid_shape": (16, 16, 16), "dtype": hd.float32, "batch_shape": (),
    }  # fmt: skip
    overrides = {
        "quantize_to_image": {"ds_pixel_coords": cloud},
        "coords_to_voxel_grid": {"coords": surface},
        "sphere_sdf": {"points": surface[:, None]},
        "cuboid_sdf": {"points": surface[:, None]},
    }
    return params, overrides


#: examples/plan_drone.py: 6 anchor poses (6 numbers), 48 samples; plan_manipulator.py: 32
#: joint configurations sampled along the path
DRONE_POSES, MANIPULATOR_BATCH = 48, 32
SPLINE_ANCHORS, SPLINE_SAMPLES, SPLINE_VALUES = 6, 48, 6


def _robot_values() -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    import hedera.robot as robot

    rng = np.random.default_rng(0)
    n, m = DRONE_POSES, MANIPULATOR_BATCH
    anchors = np.linspace(0.0, 1.0, SPLINE_ANCHORS)[:, None]
    vals = rng.uniform(-1, 1, (SPLINE_ANCHORS, SPLINE_VALUES))
    rot = _rotations(n, 0)
    t = rng.uniform(-1, 1, (n, 3))
    params = {
        "anchor_points": anchors, "anchor_vals": vals, "order": 3,
        "sample_points": np.linspace(0.0, 1.0, SPLINE_SAMPLES)[:, None],
        "coefficients": robot.fit_spline(anchors, vals),
        "mat_poses": np.concatenate([rot.as_matrix(), t[..., None]], -1),
        "rot_vec_poses": np.concatenate([t, rot.as_rotvec()], -1),
        "quaternion_poses": np.concatenate([t, rot.as_quat()], -1),
        "samples_per_metre": 25.0,
    }  # fmt: skip
    overrides = {
        "PandaManipulator": {"joint_angles": rng.uniform(-1, 1, (m, 7))},
        "MicoManipulator": {"joint_angles": rng.uniform(-1, 1, (m, 6))},
    }
    return params, overrides


def _robot_instances() -> dict[str, Callable[[], Any] | str]:
    import hedera.robot as robot

    drone = [[0.0, 0, 0], [0.15, 0, 0], [-0.15, 0, 0], [0, 0.15, 0], [0, -0.15, 0], [0, 0, 0.05]]
    return {
        "PandaManipulator": robot.PandaManipulator,
        "MicoManipulator": robot.MicoManipulator,
        "RigidMobile": lambda: robot.RigidMobile(drone),
        "Manipulator": "the base class: its methods are measured on PandaManipulator and MicoManipulator",
    }


GYM_BATCH, GYM_STEPS = 128, 50
GYM_ENVS = ("CartPole", "Pendulum", "MountainCar", "Reacher", "Swimmer")
#: stateful gymnasium-API methods: not pure functions of arrays (they read and write the
#: environment's own state and return Python floats and bools); their work is step_fn's
_GYM_STATEFUL = ("reset", "step", "get_state", "set_state", "render", "close")


def _gym_values() -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    import hedera.gym as gym

    rng = np.random.default_rng(0)
    key = hd.random.key(0, backend="numpy")
    overrides: dict[str, dict[str, Any]] = {}
    for name in GYM_ENVS:
        env = getattr(gym, name)()
        state = np.asarray(env.initial_state(key, (GYM_BATCH,)), np.float64)
        space = env.action_space
        low, high = np.asarray(space.low, float), np.asarray(space.high, float)
        action = rng.uniform(low, high, (GYM_BATCH, *space.shape))
        next_state = np.asarray(env.step_fn(state, action)[0], np.float64)
        overrides[name] = {"state": state, "action": action, "next_state": next_state}
        overrides[name]["theta"] = state[..., 0]  # Pendulum.smooth_angle(theta)
        for method in _GYM_STATEFUL:
            overrides[f"{name}.{method}"] = {"__skip__": "stateful gymnasium API (its work is step_fn's)"}
    cartpole = overrides["CartPole"]
    actions = rng.uniform(-1, 1, (GYM_STEPS, GYM_BATCH, 1))
    params = {
        "key": "key", "batch_shape": (GYM_BATCH,), "env": gym.CartPole(),
        "state": cartpole["state"], "actions": actions, "num_steps": GYM_STEPS,
        "policy": _zero_policy,
    }  # fmt: skip
    return params, overrides


def _zero_policy(obs: Any) -> Any:
    """A policy for policy_rollout: zero force (CartPole's action is one number)."""
    return hd.zeros_like(obs[..., :1])


def _gym_instances() -> dict[str, Callable[[], Any] | str]:
    import hedera.gym as gym

    return {
        **{name: getattr(gym, name) for name in GYM_ENVS},
        "Env": "the abstract base class: its methods are measured on the environments",
    }


#: library -> function computing (parameter builders, per-function overrides) in NumPy
VALUES: dict[str, Callable[[], tuple[dict[str, Any], dict[str, dict[str, Any]]]]] = {
    "mech": _mech_values,
    "vision": _vision_values,
    "robot": _robot_values,
    "gym": _gym_values,
}

#: library -> {class name: a factory of the instance whose public methods are benchmarked, or
#: why the class is not}
INSTANCES: dict[str, Callable[[], dict[str, Callable[[], Any] | str]]] = {
    "robot": _robot_instances,
    "gym": _gym_instances,
    "vision": lambda: {
        **dict.fromkeys(
            ("Intrinsics", "Extrinsics", "CameraGeometry"),
            "a camera container (its from_* constructors compose the camera functions timed here)",
        ),
        **dict.fromkeys(
            ("QuantizedImage", "VoxelGrid", "Rasterization"),
            "a result type (NamedTuple) of a function timed here",
        ),
    },
}


def instances(library: str) -> dict[str, Callable[[], Any] | str]:
    """Instance factories (or reasons) for the library's public classes."""
    return INSTANCES[library]() if library in INSTANCES else {}


_CACHE: dict[str, tuple[dict[str, Any], dict[str, dict[str, Any]]]] = {}


def is_static(value: Any) -> bool:
    """Whether an argument is a constant (closed over under ``hd.jit``) rather than an array.

    Arrays are what has a shape and a dtype; numbers, strings, tuples, dtypes, environments and
    policies are constants.
    """
    return not (hasattr(value, "shape") and hasattr(value, "dtype"))


def _convert(value: Any, backend: str) -> Any:
    if isinstance(value, str) and value == "key":
        return hd.random.key(0, backend=backend)
    if isinstance(value, np.ndarray):
        return hd.asarray(value.astype(np.float32), backend=backend)
    return value


def inputs(library: str, name: str, fn: Callable, backend: str) -> dict[str, Any]:
    """Keyword arguments for ``fn`` on ``backend``; raises :class:`Skip` where there is no builder."""
    if library not in VALUES:
        raise Skip(f"no input builders for hedera.{library} yet")
    if library not in _CACHE:
        _CACHE[library] = VALUES[library]()
    params, overrides = _CACHE[library]
    if inspect.isclass(fn):
        reason = instances(library).get(name)
        raise Skip(reason if isinstance(reason, str) else "a class: its constructors are not timed")
    owner = name.split(".")[0] if "." in name else None
    chosen = {**params, **overrides.get(owner, {}), **overrides.get(name, {})}
    if "__skip__" in chosen:
        raise Skip(chosen["__skip__"])
    kwargs = {}
    for pname, p in inspect.signature(fn).parameters.items():
        if pname in chosen and (p.default is inspect.Parameter.empty or pname in _OPTIONAL_USED):
            kwargs[pname] = _convert(chosen[pname], backend)
        elif p.default is inspect.Parameter.empty:
            raise Skip(f"no input builder for parameter {pname!r}")
    return kwargs


#: optional parameters given a value (keys of random functions, dtypes of creation functions)
_OPTIONAL_USED = {"key", "dtype", "batch_shape"}
