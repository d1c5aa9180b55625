"""CartPole, Pendulum and MountainCar: gymnasium's classic-control dynamics, differentiable and batched.

The dynamics are gymnasium's (``gymnasium/envs/classic_control``) equation for equation,
clipping included, so that the same state and action give the same next state (the tests
check it against gymnasium itself). The rewards are smooth versions of gymnasium's, so that
gradients through a rollout carry information; gymnasium's own reward of each Env-API step
is in ``info["gym_reward"]``, and :meth:`gym_reward_fn` computes it functionally.
"""

from __future__ import annotations

import math
from typing import Any

import hedera as hd
from hedera.typing import Array

from ._base import Env

__all__ = ["CartPole", "Pendulum", "MountainCar"]


def _uniform(key: Array | None, shape: tuple[int, ...], low: float, high: float, dtype: Any) -> Array:
    return hd.random.uniform(shape, low, high, dtype=dtype, key=key)


class CartPole(Env):
    """CartPole-v1 with a continuous action: a pole hinged on a cart that moves along a track.

    * **State** ``(..., 4)``: cart position ``x`` (m), cart velocity ``x_dot`` (m/s), pole angle
      ``theta`` (rad, 0 upright, positive clockwise as in gymnasium), pole angular velocity
      ``theta_dot`` (rad/s). The observation is the state.
    * **Action** ``(..., 1)`` in ``[-1, 1]``: the horizontal force on the cart is
      ``force_mag * clip(a, -1, 1)`` with ``force_mag = 10`` N; gymnasium's discrete actions
      ``1``/``0`` are ``a = +1``/``-1``.
    * **Dynamics**: gymnasium's ``CartPoleEnv.step`` (Florian's equations, explicit Euler,
      ``tau = 0.02`` s, gravity 9.8, cart 1 kg, pole 0.1 kg, half-length 0.5 m).
    * **Reward** (smooth, of the next state): ``cos(theta) - 0.1 (x / 2.4)^2``: 1 with the pole
      upright over the track's centre. gymnasium's is ``1`` per step until the pole falls
      (``|theta| > 12 deg`` or ``|x| > 2.4``), then ``0`` after the terminating step.
    * **Start**: every state variable uniform in ``[-0.05, 0.05]``.
    * **Termination**: ``|x| > 2.4`` or ``|theta| > 12 deg``; truncation after 500 steps.
    """

    state_size = 4
    action_size = 1
    obs_size = 4
    max_episode_steps = 500
    render_shape = (250, 600)

    gravity = 9.8
    masscart = 1.0
    masspole = 0.1
    total_mass = masspole + masscart
    length = 0.5  # half the pole's length
    polemass_length = masspole * length
    force_mag = 10.0
    tau = 0.02
    theta_threshold_radians = 12 * 2 * math.pi / 360
    x_threshold = 2.4

    def _observation_bounds(self) -> tuple[Any, Any]:
        high = [self.x_threshold * 2, hd.inf, self.theta_threshold_radians * 2, hd.inf]
        return [-h for h in high], high

    def _initial_state(self, key: Array | None, batch_shape: tuple[int, ...], dtype: Any) -> Array:
        return _uniform(key, (*batch_shape, 4), -0.05, 0.05, dtype)

    def observe(self, state: Array) -> Array:
        return state

    def dynamics(self, state: Array, action: Array) -> Array:
        """The next state ``(..., 4)`` (gymnasium's equations; the action is clipped to ``[-1, 1]``)."""
        x, x_dot, theta, theta_dot = state[..., 0], state[..., 1], state[..., 2], state[..., 3]
        force = self.force_mag * hd.clip(action[..., 0], -1.0, 1.0)
        costheta, sintheta = hd.cos(theta), hd.sin(theta)
        temp = (force + self.polemass_length * theta_dot**2 * sintheta) / self.total_mass
        thetaacc = (self.gravity * sintheta - costheta * temp) / (
            self.length * (4.0 / 3.0 - self.masspole * costheta**2 / self.total_mass)
        )
        xacc = temp - self.polemass_length * thetaacc * costheta / self.total_mass
        # explicit Euler, gymnasium's default kinematics_integrator
        new = (
            x + self.tau * x_dot,
            x_dot + self.tau * xacc,
            theta + self.tau * theta_dot,
            theta_dot + self.tau * thetaacc,
        )
        return hd.stack(hd.broadcast_arrays(*new), axis=-1)  # x, theta: without the action's batch dimensions

    def reward_fn(self, next_state: Array) -> Array:
        """The smooth reward ``cos(theta) - 0.1 (x / 2.4)^2`` of the state reached, ``(...)``."""
        return hd.cos(next_state[..., 2]) - 0.1 * (next_state[..., 0] / self.x_threshold) ** 2

    def step_fn(self, state: Array, action: Array) -> tuple[Array, Array, Array]:
        next_state = self.dynamics(state, action)
        return next_state, next_state, self.reward_fn(next_state)

    def terminated_fn(self, state: Array) -> Array:
        return (hd.abs(state[..., 0]) > self.x_threshold) | (
            hd.abs(state[..., 2]) > self.theta_threshold_radians
        )

    def gym_reward_fn(self, state: Array, action: Array, next_state: Array) -> Array:
        """gymnasium's reward for a step from a live state: 1 (also on the step the pole falls)."""
        shape, dtype = tuple(next_state.shape[:-1]), hd.dtype(next_state)
        return hd.ones(shape, dtype=dtype, device=hd.device(next_state), backend=hd.backend_of(next_state))

    def _on_reset(self) -> None:
        self._steps_beyond_terminated: int | None = None

    def _info(self, state: Array, action: Array, next_state: Array, terminated: bool) -> dict:
        if not terminated:
            gym_reward = 1.0
        elif self._steps_beyond_terminated is None:
            self._steps_beyond_terminated = 0
            gym_reward = 1.0
        else:  # stepping on after the pole fell: gymnasium's "undefined behaviour" gives 0
            self._steps_beyond_terminated += 1
            gym_reward = 0.0
        return {"gym_reward": gym_reward}

    def _draw(self, canvas, s: list[float]):
        x, theta = s[0], s[2]
        span = self.x_threshold * 1.25
        canvas = canvas((-span, span), (-1.0, 1.5))
        canvas.segments([(-span, -0.1), (span, -0.1)], 0.02, (0.0, 0.0, 0.0))  # track
        canvas.box((x, 0.0), (0.25, 0.15), 0.0, (0.15, 0.15, 0.15))  # cart
        tip = (x + 2 * self.length * math.sin(theta), 0.0 + 2 * self.length * math.cos(theta))
        canvas.segments([(x, 0.0), tip], 0.06, (0.8, 0.6, 0.4))  # pole
        canvas.circle((x, 0.0), 0.03, (0.5, 0.5, 0.8))  # axle
        return canvas


class Pendulum(Env):
    """Pendulum-v1: swing a pendulum up and keep it upright with a limited torque.

    * **State** ``(..., 2)``: angle ``theta`` (rad, 0 upright; not wrapped) and angular velocity
      ``theta_dot`` (rad/s, within ``[-8, 8]`` after a step).
    * **Observation** ``(..., 3)``: ``(cos theta, sin theta, theta_dot)``.
    * **Action** ``(..., 1)``: the torque (N m), clipped to ``[-2, 2]``.
    * **Dynamics**: gymnasium's ``PendulumEnv.step``: ``g = 10``, ``m = l = 1``, ``dt = 0.05`` s,
      ``theta_dot += (3 g / (2 l) sin theta + 3 / (m l^2) u) dt`` clipped to ``[-8, 8]``, then
      ``theta += theta_dot dt`` (semi-implicit Euler).
    * **Reward** (smooth; like gymnasium's, of the state *before* the step and the clipped
      torque): ``-(w(theta)^2 + 0.1 theta_dot^2 + 0.001 u^2)`` with the smoothly wrapped angle
      ``w(theta) = 2 atan2(sin(theta / 2), sqrt(cos(theta / 2)^2 + 0.1^2))``. gymnasium's uses
      the wrapped angle ``angle_normalize(theta)`` in ``[-pi, pi)``, whose square has a kink at
      the bottom (``theta = pi``) and jumps in its gradient there; ``w`` rounds that kink over
      about 0.2 rad (``w(pi) = pi - 0.2`` instead of ``pi``) and is within 1 % of the wrapped
      angle elsewhere, so the rewards are close (tested) while the gradient is defined
      everywhere and, as gymnasium's, points away from the bottom: swinging pays. (A cost in
      ``1 - cos theta`` would be flat at the bottom and make every partial swing cost more
      than hanging still, a local optimum that gradient-based planners do not leave.)
    * **Start**: ``theta`` uniform in ``[-pi, pi]``, ``theta_dot`` in ``[-1, 1]``.
    * No termination; truncation after 200 steps.
    """

    state_size = 2
    action_size = 1
    obs_size = 3
    max_episode_steps = 200
    render_shape = (400, 400)

    max_speed = 8.0
    max_torque = 2.0
    dt = 0.05
    g = 10.0
    m = 1.0
    l = 1.0  # noqa: E741
    #: how far (rad) the reward's smoothly wrapped angle rounds the kink of the wrapped angle at the bottom
    angle_smoothing = 0.1

    def _action_bounds(self) -> tuple[Any, Any]:
        return -self.max_torque, self.max_torque

    def _observation_bounds(self) -> tuple[Any, Any]:
        return [-1.0, -1.0, -self.max_speed], [1.0, 1.0, self.max_speed]

    def _initial_state(self, key: Array | None, batch_shape: tuple[int, ...], dtype: Any) -> Array:
        u = _uniform(key, (*batch_shape, 2), -1.0, 1.0, dtype)
        return hd.stack([math.pi * u[..., 0], u[..., 1]], axis=-1)

    def observe(self, state: Array) -> Array:
        theta = state[..., 0]
        return hd.stack([hd.cos(theta), hd.sin(theta), state[..., 1]], axis=-1)

    def dynamics(self, state: Array, action: Array) -> Array:
        """The next state ``(..., 2)`` (gymnasium's equations and clipping)."""
        th, thdot = state[..., 0], state[..., 1]
        u = hd.clip(action[..., 0], -self.max_torque, self.max_torque)
        newthdot = thdot + (3 * self.g / (2 * self.l) * hd.sin(th) + 3.0 / (self.m * self.l**2) * u) * self.dt
        newthdot = hd.clip(newthdot, -self.max_speed, self.max_speed)
        return hd.stack([th + newthdot * self.dt, newthdot], axis=-1)

    def smooth_angle(self, theta: Array) -> Array:
        """The smoothly wrapped angle ``2 atan2(sin(theta / 2), sqrt(cos(theta / 2)^2 + s^2))``, ``s = 0.1``.

        In ``(-pi, pi)``, ``2 pi``-periodic, smooth; about ``theta / 1.005`` near the top.
        """
        half = theta / 2.0
        return 2.0 * hd.atan2(hd.sin(half), hd.sqrt(hd.cos(half) ** 2 + self.angle_smoothing**2))

    def reward_fn(self, state: Array, action: Array) -> Array:
        """The smooth reward ``-(w(th)^2 + 0.1 thdot^2 + 0.001 u^2)`` ``(...)`` of a step from ``state``."""
        th, thdot = state[..., 0], state[..., 1]
        u = hd.clip(action[..., 0], -self.max_torque, self.max_torque)
        return -(self.smooth_angle(th) ** 2 + 0.1 * thdot**2 + 0.001 * u**2)

    def step_fn(self, state: Array, action: Array) -> tuple[Array, Array, Array]:
        next_state = self.dynamics(state, action)
        return next_state, self.observe(next_state), self.reward_fn(state, action)

    def gym_reward_fn(self, state: Array, action: Array, next_state: Array) -> Array:
        """gymnasium's reward ``-(angle_normalize(th)^2 + 0.1 thdot^2 + 0.001 u^2)``."""
        th, thdot = state[..., 0], state[..., 1]
        u = hd.clip(action[..., 0], -self.max_torque, self.max_torque)
        wrapped = hd.remainder(th + math.pi, 2 * math.pi) - math.pi
        return -(wrapped**2 + 0.1 * thdot**2 + 0.001 * u**2)

    def _info(self, state: Array, action: Array, next_state: Array, terminated: bool) -> dict:
        return {"gym_reward": float(self.gym_reward_fn(state, action, next_state))}

    def _draw(self, canvas, s: list[float]):
        theta = s[0]
        canvas = canvas((-2.2, 2.2), (-2.2, 2.2))
        tip = (-self.l * math.sin(theta), self.l * math.cos(theta))  # theta = 0 points up
        canvas.segments([(0.0, 0.0), tip], 0.2, (0.8, 0.3, 0.3))
        canvas.circle((0.0, 0.0), 0.05, (0.0, 0.0, 0.0))
        return canvas


class MountainCar(Env):
    """MountainCarContinuous-v0: drive an underpowered car up a hill by rocking it.

    * **State** ``(..., 2)``: position (in ``[-1.2, 0.6]``) and velocity (in ``[-0.07, 0.07]``);
      the observation is the state. The ground's height is ``0.45 sin(3 position) + 0.55``.
    * **Action** ``(..., 1)``: the engine force, clipped to ``[-1, 1]``.
    * **Dynamics**: gymnasium's ``Continuous_MountainCarEnv.step``: ``velocity += force *
      0.0015 - 0.0025 cos(3 position)``, clipped to ``[-0.07, 0.07]``; ``position += velocity``,
      clipped to ``[-1.2, 0.6]``; at the left wall a negative velocity becomes 0.
    * **Reward** (smooth, of the state reached and the *unclipped* action, as gymnasium's):
      ``100 sigmoid((position - 0.45) / 0.1) - 0.1 a^2``: the goal bonus spread over the
      approach so that its gradient reaches the valley. gymnasium's is ``100`` on reaching the
      goal (``position >= 0.45`` and ``velocity >= 0``) minus ``0.1 a^2``.
    * **Start**: position uniform in ``[-0.6, -0.4]``, velocity 0.
    * **Termination**: ``position >= 0.45`` and ``velocity >= 0``; truncation after 999 steps.
    """

    state_size = 2
    action_size = 1
    obs_size = 2
    max_episode_steps = 999
    render_shape = (400, 600)

    min_position = -1.2
    max_position = 0.6
    max_speed = 0.07
    goal_position = 0.45
    goal_velocity = 0.0
    power = 0.0015
    #: the width (in position units) of the smoothed goal bonus
    reward_temperature = 0.1

    def _observation_bounds(self) -> tuple[Any, Any]:
        return [self.min_position, -self.max_speed], [self.max_position, self.max_speed]

    def _initial_state(self, key: Array | None, batch_shape: tuple[int, ...], dtype: Any) -> Array:
        position = _uniform(key, batch_shape, -0.6, -0.4, dtype)
        return hd.stack([position, hd.zeros_like(position)], axis=-1)

    def observe(self, state: Array) -> Array:
        return state

    def dynamics(self, state: Array, action: Array) -> Array:
        """The next state ``(..., 2)`` (gymnasium's equations and clipping)."""
        position, velocity = state[..., 0], state[..., 1]
        force = hd.clip(action[..., 0], -1.0, 1.0)
        velocity = velocity + force * self.power - 0.0025 * hd.cos(3 * position)
        velocity = hd.clip(velocity, -self.max_speed, self.max_speed)
        position = hd.clip(position + velocity, self.min_position, self.max_position)
        at_wall = (position == self.min_position) & (velocity < 0)
        velocity = hd.where(at_wall, hd.zeros_like(velocity), velocity)
        return hd.stack([position, velocity], axis=-1)

    def reward_fn(self, next_state: Array, action: Array) -> Array:
        """The smooth reward ``100 sigmoid((position - 0.45) / 0.1) - 0.1 a^2`` ``(...)``."""
        bonus = 100.0 / (1.0 + hd.exp(-(next_state[..., 0] - self.goal_position) / self.reward_temperature))
        return bonus - 0.1 * action[..., 0] ** 2

    def step_fn(self, state: Array, action: Array) -> tuple[Array, Array, Array]:
        next_state = self.dynamics(state, action)
        return next_state, next_state, self.reward_fn(next_state, action)

    def terminated_fn(self, state: Array) -> Array:
        return (state[..., 0] >= self.goal_position) & (state[..., 1] >= self.goal_velocity)

    def gym_reward_fn(self, state: Array, action: Array, next_state: Array) -> Array:
        """gymnasium's reward: ``100`` on reaching the goal, minus ``0.1 a^2``."""
        done = hd.astype(self.terminated_fn(next_state), hd.dtype(next_state))
        return 100.0 * done - 0.1 * action[..., 0] ** 2

    def _info(self, state: Array, action: Array, next_state: Array, terminated: bool) -> dict:
        return {"gym_reward": float(self.gym_reward_fn(state, action, next_state))}

    def _draw(self, canvas, s: list[float]):
        position = s[0]
        canvas = canvas((self.min_position, self.max_position), (-0.1, 1.1))

        def height(p: float) -> float:
            return 0.45 * math.sin(3 * p) + 0.55

        xs = [self.min_position + i * (self.max_position - self.min_position) / 100 for i in range(101)]
        canvas.fill_below(xs, [height(p) for p in xs], (0.75, 0.85, 0.65))
        flag = self.goal_position
        canvas.segments([(flag, height(flag)), (flag, height(flag) + 0.12)], 0.008, (0.0, 0.0, 0.0))
        canvas.box((flag + 0.03, height(flag) + 0.1), (0.03, 0.02), 0.0, (0.9, 0.8, 0.0))
        slope = math.atan(0.45 * 3 * math.cos(3 * position))
        normal = (-math.sin(slope), math.cos(slope))
        center = (position + 0.04 * normal[0], height(position) + 0.04 * normal[1])
        canvas.box(center, (0.07, 0.03), slope, (0.1, 0.1, 0.1))  # the car
        return canvas
