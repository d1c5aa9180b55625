"""hedera.gym functions written directly in PyTorch (baseline (b) of the library benchmark).

gymnasium's classic-control equations and constants, batched over leading dimensions.
"""

from __future__ import annotations

import torch

# CartPole
GRAVITY, MASSCART, MASSPOLE, LENGTH, FORCE_MAG, TAU, X_THRESHOLD = 9.8, 1.0, 0.1, 0.5, 10.0, 0.02, 2.4
TOTAL_MASS, POLEMASS_LENGTH = MASSPOLE + MASSCART, MASSPOLE * LENGTH
# Pendulum
MAX_SPEED, MAX_TORQUE, DT, G, M, L = 8.0, 2.0, 0.05, 10.0, 1.0, 1.0
# MountainCar
MIN_POSITION, MAX_POSITION, CAR_MAX_SPEED, POWER = -1.2, 0.6, 0.07, 0.0015


def cartpole_dynamics(state: torch.Tensor, action: torch.Tensor) -> torch.Tensor:
    x, x_dot, theta, theta_dot = state.unbind(-1)
    force = FORCE_MAG * action[..., 0].clamp(-1.0, 1.0)
    costheta, sintheta = torch.cos(theta), torch.sin(theta)
    temp = (force + POLEMASS_LENGTH * theta_dot**2 * sintheta) / TOTAL_MASS
    thetaacc = (GRAVITY * sintheta - costheta * temp) / (
        LENGTH * (4.0 / 3.0 - MASSPOLE * costheta**2 / TOTAL_MASS)
    )
    xacc = temp - POLEMASS_LENGTH * thetaacc * costheta / TOTAL_MASS
    return torch.stack(
        [x + TAU * x_dot, x_dot + TAU * xacc, theta + TAU * theta_dot, theta_dot + TAU * thetaacc], dim=-1
    )


def cartpole_reward(next_state: torch.Tensor) -> torch.Tensor:
    return torch.cos(next_state[..., 2]) - 0.1 * (next_state[..., 0] / X_THRESHOLD) ** 2


def pendulum_dynamics(state: torch.Tensor, action: torch.Tensor) -> torch.Tensor:
    th, thdot = state.unbind(-1)
    u = action[..., 0].clamp(-MAX_TORQUE, MAX_TORQUE)
    newthdot = thdot + (3 * G / (2 * L) * torch.sin(th) + 3.0 / (M * L**2) * u) * DT
    newthdot = newthdot.clamp(-MAX_SPEED, MAX_SPEED)
    return torch.stack([th + newthdot * DT, newthdot], dim=-1)


def pendulum_reward(state: torch.Tensor, action: torch.Tensor) -> torch.Tensor:
    th, thdot = state.unbind(-1)
    u = action[..., 0].clamp(-MAX_TORQUE, MAX_TORQUE)
    # the smoothly wrapped angle of hedera.gym.Pendulum.reward_fn (angle_smoothing = 0.1)
    w = 2.0 * torch.atan2(torch.sin(th / 2.0), torch.sqrt(torch.cos(th / 2.0) ** 2 + 0.1**2))
    return -(w**2 + 0.1 * thdot**2 + 0.001 * u**2)


def mountain_car_dynamics(state: torch.Tensor, action: torch.Tensor) -> torch.Tensor:
    position, velocity = state.unbind(-1)
    velocity = velocity + action[..., 0].clamp(-1.0, 1.0) * POWER - 0.0025 * torch.cos(3 * position)
    velocity = velocity.clamp(-CAR_MAX_SPEED, CAR_MAX_SPEED)
    position = (position + velocity).clamp(MIN_POSITION, MAX_POSITION)
    velocity = torch.where((position == MIN_POSITION) & (velocity < 0), 0.0, velocity)
    return torch.stack([position, velocity], dim=-1)


FUNCTIONS = {
    "CartPole.dynamics": cartpole_dynamics,
    "CartPole.reward_fn": cartpole_reward,
    "Pendulum.dynamics": pendulum_dynamics,
    "Pendulum.reward_fn": pendulum_reward,
    "MountainCar.dynamics": mountain_car_dynamics,
}
