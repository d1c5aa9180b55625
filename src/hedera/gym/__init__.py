"""hedera.gym: differentiable environments, written once in hedera's public API.

``CartPole``, ``Pendulum`` and ``MountainCar`` (gymnasium's classic-control dynamics,
CartPole with a continuous action), ``Reacher(num_joints)`` and ``Swimmer(num_urchins)``
(after the 2021 Ivy gym). Each environment has two faces:

* the gymnasium ``Env`` API, duck-typed (hedera.gym never imports gymnasium):
  ``reset(seed=...) -> (obs, info)``, ``step(action) -> (obs, reward, terminated,
  truncated, info)``, ``action_space``/``observation_space`` (:class:`spaces.Box`),
  ``render() -> (H, W, 3) uint8``, ``get_state()``/``set_state(state)``;
* a pure, batched, differentiable functional API on native arrays of any backend:
  ``env.step_fn(state, action) -> (next_state, obs, reward)``, ``env.initial_state(key,
  batch_shape)``, ``env.observe(state)``, and :func:`rollout` / :func:`policy_rollout`, which
  :func:`hedera.grad` differentiates end to end and :func:`hedera.jit` compiles.

See docs/gym.md.
"""

from __future__ import annotations

from hedera.helpers import check_public as _check_public

from . import spaces
from ._base import Env, policy_rollout, rollout
from .classic_control import CartPole, MountainCar, Pendulum
from .reacher import Reacher
from .swimmer import Swimmer

__all__ = [
    "Env",
    "CartPole",
    "Pendulum",
    "MountainCar",
    "Reacher",
    "Swimmer",
    "rollout",
    "policy_rollout",
    "spaces",
]

# the public functions check the kind of their array arguments (hedera.helpers.checked)
_check_public(globals(), __all__)
