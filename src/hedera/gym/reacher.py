"""Reacher: a planar arm of ``num_joints`` unit links whose tip must reach a goal (after the 2021 Ivy gym)."""

from __future__ import annotations

import math
from typing import Any

import hedera as hd
from hedera.helpers import positive_int
from hedera.typing import Array

from ._base import Env

__all__ = ["Reacher"]


class Reacher(Env):
    """A planar ``n``-link arm (links of length 1, base at the origin) reaching for a goal point.

    * **State** ``(..., 2 n + 2)``: joint angles ``q`` (rad, each relative to the previous link;
      the first to the world ``x`` axis, counter-clockwise), joint velocities ``q_dot`` (rad/s),
      and the goal ``(x, y)`` (m).
    * **Observation** ``(..., 3 n + 2)``: ``(cos q, sin q, q_dot, goal)``.
    * **Action** ``(..., n)``: joint accelerations (rad/s^2) ``torque_scale * clip(a, -1, 1)``.
    * **Dynamics**: independent double integrators, semi-implicit Euler with ``dt = 0.05`` s:
      ``q_dot += dt * acc``, then ``q += dt * q_dot`` (the 2021 Ivy Reacher's).
    * **Reward** (smooth, of the state reached): ``exp(-|tip - goal|^2)``, in ``(0, 1]``, 1 on the
      goal (the 2021 Ivy Reacher's; gymnasium's MuJoCo Reacher is a different, 3D-simulated task).
    * **Start**: angles uniform in ``[-pi, pi]``, velocities in ``[-1, 1]``, the goal uniform
      over the disc of radius ``n`` (the arm's reach).
    * No termination; truncation after 200 steps.

    Differences from the 2021 Ivy Reacher: relative joint angles (Ivy summed absolute link
    angles), goals drawn within reach (Ivy drew them from the square ``[-n, n]^2``), and
    actions clipped to the action space.

    Parameters
    ----------
    num_joints : int
        ``n >= 1``.
    """

    max_episode_steps = 200
    render_shape = (400, 400)
    dt = 0.05
    torque_scale = 1.0

    def __init__(self, num_joints: int = 2, **kwargs: Any) -> None:
        self.num_joints = n = positive_int("Reacher", "num_joints", num_joints)
        self.state_size, self.action_size, self.obs_size = 2 * n + 2, n, 3 * n + 2
        super().__init__(**kwargs)

    def _initial_state(self, key: Array | None, batch_shape: tuple[int, ...], dtype: Any) -> Array:
        n = self.num_joints
        u = hd.random.uniform((*batch_shape, 2 * n + 2), -1.0, 1.0, dtype=dtype, key=key)
        radius = n * hd.sqrt((u[..., -2] + 1.0) / 2.0)  # uniform over the disc's area
        phi = math.pi * u[..., -1]
        goal = hd.stack([radius * hd.cos(phi), radius * hd.sin(phi)], axis=-1)
        return hd.concat([math.pi * u[..., :n], u[..., n : 2 * n], goal], axis=-1)

    def joint_positions(self, state: Array) -> Array:
        """The base, every joint and the tip: ``(..., n + 1, 2)`` (m); ``[..., -1, :]`` is the tip."""
        absolute = hd.cumulative_sum(state[..., : self.num_joints], axis=-1)
        xs = hd.cumulative_sum(hd.cos(absolute), axis=-1, include_initial=True)
        ys = hd.cumulative_sum(hd.sin(absolute), axis=-1, include_initial=True)
        return hd.stack([xs, ys], axis=-1)

    def tip(self, state: Array) -> Array:
        """The end effector's position ``(..., 2)`` (m)."""
        absolute = hd.cumulative_sum(state[..., : self.num_joints], axis=-1)
        return hd.stack([hd.sum(hd.cos(absolute), axis=-1), hd.sum(hd.sin(absolute), axis=-1)], axis=-1)

    def observe(self, state: Array) -> Array:
        n = self.num_joints
        q = state[..., :n]
        return hd.concat([hd.cos(q), hd.sin(q), state[..., n:]], axis=-1)

    def dynamics(self, state: Array, action: Array) -> Array:
        """The next state ``(..., 2 n + 2)``."""
        n = self.num_joints
        q, q_dot, goal = state[..., :n], state[..., n : 2 * n], state[..., 2 * n :]
        q_dot = q_dot + self.dt * self.torque_scale * hd.clip(action, -1.0, 1.0)
        q = q + self.dt * q_dot
        goal = hd.broadcast_to(goal, (*q.shape[:-1], 2))  # the action may add batch dimensions
        return hd.concat([q, q_dot, goal], axis=-1)

    def reward_fn(self, next_state: Array) -> Array:
        """``exp(-|tip - goal|^2)`` ``(...)``."""
        diff = self.tip(next_state) - next_state[..., 2 * self.num_joints :]
        return hd.exp(-hd.sum(diff * diff, axis=-1))

    def step_fn(self, state: Array, action: Array) -> tuple[Array, Array, Array]:
        next_state = self.dynamics(state, action)
        return next_state, self.observe(next_state), self.reward_fn(next_state)

    def _draw(self, canvas, s: list[float]):
        n = self.num_joints
        bound = n + 0.3
        canvas = canvas((-bound, bound), (-bound, bound))
        goal = (s[2 * n], s[2 * n + 1])
        canvas.circle(goal, 0.2, (0.4, 0.6, 1.0))
        points, angle = [(0.0, 0.0)], 0.0
        for q in s[:n]:
            angle += q
            points.append((points[-1][0] + math.cos(angle), points[-1][1] + math.sin(angle)))
        canvas.segments(points, 0.2, (0.0, 0.0, 0.0))
        for p in points[:-1]:
            canvas.circle(p, 0.1, (0.5, 0.5, 0.5))
        reward = math.exp(-((points[-1][0] - goal[0]) ** 2 + (points[-1][1] - goal[1]) ** 2))
        canvas.circle(points[-1], 0.1, (1.0 - reward, reward, 0.0))
        return canvas
