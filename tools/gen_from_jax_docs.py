"""Generate the coverage table of ``docs/interop.md``'s from_jax section from the primitive table.

The rows come from :mod:`hedera.interop._lax` (what each primitive becomes, where it cannot run)
and JAX's own list of primitives; this script only writes them between the section's markers.

Usage::

    python tools/gen_from_jax_docs.py           # rewrite the table in docs/interop.md
    python tools/gen_from_jax_docs.py --check   # exit 1 if it is stale (tests/interop/test_from_jax_docs.py)
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
os.environ.setdefault("JAX_PLATFORMS", "cpu")

from hedera.interop import _lax  # noqa: E402

DOC = ROOT / "docs" / "interop.md"
BEGIN = "<!-- begin generated: from_jax coverage (tools/gen_from_jax_docs.py; do not edit by hand) -->"
END = "<!-- end generated: from_jax coverage -->"


def render(text: str) -> str:
    """``text`` (the page) with the table between the markers replaced by the current one."""
    head, sep, rest = text.partition(BEGIN)
    if not sep or END not in rest:
        raise SystemExit(f"{DOC}: the markers {BEGIN!r} ... {END!r} are missing")
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n{_lax.coverage_markdown()}{END}{tail}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if docs/interop.md is stale")
    args = parser.parse_args()
    text = DOC.read_text()
    new = render(text)
    if args.check:
        if new != text:
            print(f"{DOC} is stale: run python tools/gen_from_jax_docs.py", file=sys.stderr)
            return 1
        return 0
    if new != text:
        tmp = DOC.with_suffix(".md.tmp")
        tmp.write_text(new)
        tmp.replace(DOC)  # atomic
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
