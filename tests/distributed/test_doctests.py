"""The docstring examples of hedera.distributed run as doctests (numpy: one device)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["_spec", "_mesh", "_api", "_layout"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"hedera.distributed.{name}")
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted > 0
