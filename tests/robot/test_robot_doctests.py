"""The docstring examples of hedera.robot run as doctests."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["splines", "manipulator", "rigid_mobile"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"hedera.robot.{name}")
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
