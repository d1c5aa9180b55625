"""docs/interop.md's from_jax coverage table is what tools/gen_from_jax_docs.py makes of the table now."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_coverage_table_is_fresh():
    pytest.importorskip("jax")
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_from_jax_docs.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_control_flow_rows_say_what_they_need_or_run():
    pytest.importorskip("jax")
    import hedera as hd
    from hedera.interop import _lax

    rows = {name: status for name, _, status in _lax.coverage_rows()}
    for prim, fn in (("cond", "switch"), ("while", "while_loop"), ("scan", "scan")):
        expected = "yes" if hasattr(hd, fn) else f"needs hd.{fn}"
        assert set(rows[prim].values()) == {expected}
