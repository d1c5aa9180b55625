"""The docstring examples of hedera.vision run as doctests."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["cameras", "projective", "two_view", "optical_flow", "images", "rendering", "sdf"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"hedera.vision.{name}")
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
