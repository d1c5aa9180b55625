"""Shared test setup: the backend fixture and hypothesis profiles.

* ``backend`` runs a test once per backend. A backend whose framework is missing
  is skipped with a visible reason, unless ``HEDERA_REQUIRE_BACKENDS`` names it
  (CI sets ``numpy,torch,jax,tensorflow``): then the test fails.
* Hypothesis profiles: ``ci`` (default; few examples, derandomized) and
  ``thorough`` (``HYPOTHESIS_PROFILE=thorough``).
"""

from __future__ import annotations

import importlib.util
import os

import pytest
from hypothesis import HealthCheck, settings

ALL_BACKENDS = ("numpy", "torch", "jax", "tensorflow")
AUTODIFF_BACKENDS = ("torch", "jax", "tensorflow")
_FRAMEWORK = {"numpy": "numpy", "torch": "torch", "jax": "jax", "tensorflow": "tensorflow", "mxnet": "mxnet"}

settings.register_profile(
    "ci",
    max_examples=12,
    derandomize=True,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
settings.register_profile(
    "thorough",
    max_examples=300,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def required_backends() -> set[str]:
    return {b.strip() for b in os.environ.get("HEDERA_REQUIRE_BACKENDS", "").split(",") if b.strip()}


def selected_backends() -> tuple[str, ...]:
    """Backends to run: ``HEDERA_BACKENDS`` (comma-separated) narrows the default four."""
    chosen = os.environ.get("HEDERA_BACKENDS")
    if chosen:
        return tuple(b.strip() for b in chosen.split(",") if b.strip())
    return ALL_BACKENDS


def require_backend(name: str) -> None:
    """Skip (locally) or fail (when required, as in CI) if ``name``'s framework is missing."""
    if importlib.util.find_spec(_FRAMEWORK[name]) is None:
        message = f"backend {name!r}: framework {_FRAMEWORK[name]!r} is not installed"
        if name in required_backends():
            pytest.fail(message + " but HEDERA_REQUIRE_BACKENDS requires it")
        pytest.skip(message)
    if name == "jax":
        import jax

        # hedera never turns x64 on by itself; the tests do, so float64 is tested on jax too
        jax.config.update("jax_enable_x64", True)


@pytest.fixture(params=selected_backends())
def backend(request) -> str:
    require_backend(request.param)
    return request.param


@pytest.fixture(params=[b for b in selected_backends() if b in AUTODIFF_BACKENDS])
def autodiff_backend(request) -> str:
    require_backend(request.param)
    return request.param


@pytest.fixture
def xp(backend):
    """The backend namespace under test."""
    import hedera as hd

    return hd.namespace(backend)
