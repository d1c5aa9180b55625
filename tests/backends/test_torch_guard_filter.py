"""hd.jit's guard filter on torch matches dynamo's private names, so it is used only on the torch
releases where tests/core/test_compiled_dispatch.py proves it right; on others hd.jit passes none."""

from __future__ import annotations

import pathlib
import re

import numpy as np

import hedera as hd
from conftest import require_backend

ROOT = pathlib.Path(__file__).resolve().parents[2]


def pinned_torch() -> str:
    match = re.search(r"^torch==(\d+\.\d+)", (ROOT / "constraints.txt").read_text(), re.M)
    assert match, "constraints.txt pins no torch"
    return match.group(1)


def test_the_pinned_torch_is_a_tested_release():
    require_backend("torch")
    from hedera.backends.torch import autodiff

    assert pinned_torch() in autodiff.GUARD_FILTER_TESTED, (
        "constraints.txt pins a torch on which skip_hedera_guards is not proven: run "
        "tests/core/test_compiled_dispatch.py on it, then add the release to GUARD_FILTER_TESTED"
    )


def test_no_guard_filter_on_an_untested_release(monkeypatch):
    require_backend("torch")
    import torch

    from hedera.backends.torch import autodiff

    passed = []
    compile_ = torch.compile

    def recording_compile(f, **options):
        passed.append({k: dict(v) if isinstance(v, dict) else v for k, v in options.items()})  # (torch pops)
        return compile_(f, **options)

    monkeypatch.setattr(torch, "compile", recording_compile)

    def f(x):
        return hd.sin(x) * 2

    x = torch.ones(3)
    hd.jit(f)(x)
    assert passed[-1]["options"]["guard_filter_fn"] is autodiff.skip_hedera_guards
    monkeypatch.setattr(autodiff, "GUARD_FILTER_TESTED", frozenset())
    out = hd.jit(f)(x)
    assert "guard_filter_fn" not in (passed[-1].get("options") or {})
    np.testing.assert_allclose(out.numpy(), np.sin(np.ones(3)) * 2, rtol=1e-6)
