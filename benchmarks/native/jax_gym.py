"""hedera.gym functions written directly in JAX (baseline (b) of the library benchmark).

gymnasium's classic-control equations and constants, batched over leading dimensions.
"""

from __future__ import annotations

import jax.numpy as jnp

# CartPole
GRAVITY, MASSCART, MASSPOLE, LENGTH, FORCE_MAG, TAU, X_THRESHOLD = 9.8, 1.0, 0.1, 0.5, 10.0, 0.02, 2.4
TOTAL_MASS, POLEMASS_LENGTH = MASSPOLE + MASSCART, MASSPOLE * LENGTH
# Pendulum
MAX_SPEED, MAX_TORQUE, DT, G, M, L = 8.0, 2.0, 0.05, 10.0, 1.0, 1.0
# MountainCar
MIN_POSITION, MAX_POSITION, CAR_MAX_SPEED, POWER = -1.2, 0.6, 0.07, 0.0015


def cartpole_dynamics(state: jnp.ndarray, action: jnp.ndarray) -> jnp.ndarray:
    x, x_dot, theta, theta_dot = (state[..., i] for i in range(4))
    force = FORCE_MAG * jnp.clip(action[..., 0], -1.0, 1.0)
    costheta, sintheta = jnp.cos(theta), jnp.sin(theta)
    temp = (force + POLEMASS_LENGTH * theta_dot**2 * sintheta) / TOTAL_MASS
    thetaacc = (GRAVITY * sintheta - costheta * temp) / (
        LENGTH * (4.0 / 3.0 - MASSPOLE * costheta**2 / TOTAL_MASS)
    )
    xacc = temp - POLEMASS_LENGTH * thetaacc * costheta / TOTAL_MASS
    return jnp.stack(
        [x + TAU * x_dot, x_dot + TAU * xacc, theta + TAU * theta_dot, theta_dot + TAU * thetaacc], axis=-1
    )


def cartpole_reward(next_state: jnp.ndarray) -> jnp.ndarray:
    return jnp.cos(next_state[..., 2]) - 0.1 * (next_state[..., 0] / X_THRESHOLD) ** 2


def pendulum_dynamics(state: jnp.ndarray, action: jnp.ndarray) -> jnp.ndarray:
    th, thdot = state[..., 0], state[..., 1]
    u = jnp.clip(action[..., 0], -MAX_TORQUE, MAX_TORQUE)
    newthdot = thdot + (3 * G / (2 * L) * jnp.sin(th) + 3.0 / (M * L**2) * u) * DT
    newthdot = jnp.clip(newthdot, -MAX_SPEED, MAX_SPEED)
    return jnp.stack([th + newthdot * DT, newthdot], axis=-1)


def pendulum_reward(state: jnp.ndarray, action: jnp.ndarray) -> jnp.ndarray:
    th, thdot = state[..., 0], state[..., 1]
    u = jnp.clip(action[..., 0], -MAX_TORQUE, MAX_TORQUE)
    # the smoothly wrapped angle of hedera.gym.Pendulum.reward_fn (angle_smoothing = 0.1)
    w = 2.0 * jnp.atan2(jnp.sin(th / 2.0), jnp.sqrt(jnp.cos(th / 2.0) ** 2 + 0.1**2))
    return -(w**2 + 0.1 * thdot**2 + 0.001 * u**2)


def mountain_car_dynamics(state: jnp.ndarray, action: jnp.ndarray) -> jnp.ndarray:
    position, velocity = state[..., 0], state[..., 1]
    velocity = velocity + jnp.clip(action[..., 0], -1.0, 1.0) * POWER - 0.0025 * jnp.cos(3 * position)
    velocity = jnp.clip(velocity, -CAR_MAX_SPEED, CAR_MAX_SPEED)
    position = jnp.clip(position + velocity, MIN_POSITION, MAX_POSITION)
    velocity = jnp.where((position == MIN_POSITION) & (velocity < 0), 0.0, velocity)
    return jnp.stack([position, velocity], axis=-1)


FUNCTIONS = {
    "CartPole.dynamics": cartpole_dynamics,
    "CartPole.reward_fn": cartpole_reward,
    "Pendulum.dynamics": pendulum_dynamics,
    "Pendulum.reward_fn": pendulum_reward,
    "MountainCar.dynamics": mountain_car_dynamics,
}
