"""Swimmer: a fish swims to a goal through a field of urchins it must not touch (after the 2021 Ivy gym)."""

from __future__ import annotations

import math
from typing import Any

import hedera as hd
from hedera.helpers import positive_int
from hedera.typing import Array

from ._base import Env

__all__ = ["Swimmer"]


class Swimmer(Env):
    """A point "fish" in the plane, pushed by its fins, seeking a goal among ``k`` static urchins.

    This is the 2021 Ivy gym's ``Swimmer`` (a path-finding task, not MuJoCo's articulated
    swimmer): the fish is a point mass driven by a bounded 2D acceleration, the urchins are
    spiky obstacles to keep away from, and the reward multiplies goal proximity by a factor
    that drops to zero at each urchin.

    * **State** ``(..., 2 k + 6)``: the urchins' positions ``(x_1, y_1, ..., x_k, y_k)``, the
      fish's position ``(x, y)`` and velocity ``(vx, vy)``, and the goal ``(gx, gy)`` (arbitrary
      length units; the world is about ``[-1, 1]^2``). The observation is the state.
    * **Action** ``(..., 2)``: the fish's acceleration ``clip(a, -1, 1)`` (units/s^2).
    * **Dynamics**: semi-implicit Euler with ``dt = 0.05`` s and no drag: ``v += dt * a``, then
      ``p += dt * v``; urchins and goal stay put (the 2021 Ivy Swimmer's).
    * **Reward** (smooth, of the state reached): ``exp(-|p - g|^2 / 2) * prod_i (1 - exp(-30 |p -
      u_i|^2))``, in ``[0, 1)``: 1 near the goal, 0 on an urchin (the 2021 Ivy Swimmer's).
    * **Start**: urchins, fish and goal uniform in ``[-1, 1]^2``, the fish at rest.
    * No termination; truncation after 500 steps.

    Parameters
    ----------
    num_urchins : int
        ``k >= 0``.
    """

    max_episode_steps = 500
    render_shape = (400, 400)
    action_size = 2
    dt = 0.05
    goal_width = 1.0  # the goal term is exp(-|p - g|^2 / (2 goal_width^2))
    urchin_sharpness = 30.0

    def __init__(self, num_urchins: int = 5, **kwargs: Any) -> None:
        self.num_urchins = k = positive_int("Swimmer", "num_urchins", num_urchins, minimum=0)
        self.state_size = self.obs_size = 2 * k + 6
        super().__init__(**kwargs)

    def _initial_state(self, key: Array | None, batch_shape: tuple[int, ...], dtype: Any) -> Array:
        k = self.num_urchins
        u = hd.random.uniform((*batch_shape, 2 * k + 6), -1.0, 1.0, dtype=dtype, key=key)
        return hd.concat(
            [u[..., : 2 * k + 2], 0.0 * u[..., 2 * k + 2 : 2 * k + 4], u[..., 2 * k + 4 :]], axis=-1
        )

    def position(self, state: Array) -> Array:
        """The fish's position ``(..., 2)``."""
        k = self.num_urchins
        return state[..., 2 * k : 2 * k + 2]

    def urchins(self, state: Array) -> tuple[Array, Array]:
        """The urchins' ``x`` and ``y`` coordinates, each ``(..., k)``."""
        k = self.num_urchins
        return state[..., 0 : 2 * k : 2], state[..., 1 : 2 * k : 2]

    def observe(self, state: Array) -> Array:
        return state

    def dynamics(self, state: Array, action: Array) -> Array:
        """The next state ``(..., 2 k + 6)``."""
        k = self.num_urchins
        position, velocity = state[..., 2 * k : 2 * k + 2], state[..., 2 * k + 2 : 2 * k + 4]
        velocity = velocity + self.dt * hd.clip(action, -1.0, 1.0)
        position = position + self.dt * velocity
        batch = tuple(velocity.shape[:-1])  # the action may add batch dimensions
        urchins = hd.broadcast_to(state[..., : 2 * k], (*batch, 2 * k))
        goal = hd.broadcast_to(state[..., 2 * k + 4 :], (*batch, 2))
        return hd.concat([urchins, position, velocity, goal], axis=-1)

    def reward_fn(self, next_state: Array) -> Array:
        """``exp(-|p - g|^2 / 2) * prod_i (1 - exp(-30 |p - u_i|^2))`` ``(...)``."""
        k = self.num_urchins
        p = self.position(next_state)
        to_goal = p - next_state[..., 2 * k + 4 :]
        reward = hd.exp(-0.5 * hd.sum(to_goal * to_goal, axis=-1) / self.goal_width**2)
        if k:
            ux, uy = self.urchins(next_state)
            d2 = (p[..., :1] - ux) ** 2 + (p[..., 1:] - uy) ** 2
            reward = reward * hd.prod(1.0 - hd.exp(-self.urchin_sharpness * d2), axis=-1)
        return reward

    def step_fn(self, state: Array, action: Array) -> tuple[Array, Array, Array]:
        next_state = self.dynamics(state, action)
        return next_state, next_state, self.reward_fn(next_state)

    def _draw(self, canvas, s: list[float]):
        k = self.num_urchins
        canvas = canvas((-1.5, 1.5), (-1.5, 1.5), background=(0.85, 0.93, 1.0))
        canvas.circle((s[2 * k + 4], s[2 * k + 5]), 0.2, (0.4, 0.6, 1.0))  # goal
        for i in range(k):  # urchins: a dark body with 15 spikes
            ux, uy = s[2 * i], s[2 * i + 1]
            canvas.circle((ux, uy), 0.06, (0.1, 0.0, 0.15))
            for j in range(15):
                tip = (ux + 0.2 * math.cos(2 * math.pi * j / 15), uy + 0.2 * math.sin(2 * math.pi * j / 15))
                canvas.segments([(ux, uy), tip], 0.015, (0.1, 0.0, 0.15))
        x, y, vx, vy = s[2 * k : 2 * k + 4]
        heading = math.atan2(vy, vx) if vx * vx + vy * vy > 1e-12 else 0.0
        reward = math.exp(-0.5 * ((x - s[2 * k + 4]) ** 2 + (y - s[2 * k + 5]) ** 2))
        for i in range(k):
            reward *= 1.0 - math.exp(-self.urchin_sharpness * ((x - s[2 * i]) ** 2 + (y - s[2 * i + 1]) ** 2))
        color = (1.0 - reward, reward, 0.0)
        canvas.box((x, y), (0.12, 0.06), heading, color)  # the fish's body, along its velocity
        tail = (x - 0.15 * math.cos(heading), y - 0.15 * math.sin(heading))
        canvas.box(tail, (0.04, 0.07), heading, color)
        return canvas
