"""Rewrite ``constraints.txt`` from what is installed in the running environment.

Run with the development environment's interpreter after changing dependencies::

    .venv/bin/python tools/update_constraints.py

Every installed distribution except hedera itself is pinned to its installed version. Pins
apply only on the Python version that produced them (``python_version == "3.11"``), except
the ones in ``EVERYWHERE``: on other Pythons pip resolves within pyproject's ranges.
"""

from __future__ import annotations

import importlib.metadata
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "constraints.txt"

#: pinned on every Python: torch (an unpinned one pulls a multi-GB CUDA build), ruff (its
#: formatting must not drift between machines)
EVERYWHERE = {"torch", "ruff"}

HEADER = """\
# Exact versions used for development and CI (Python {py}, Linux x86-64), as installed by
# scripts/setup.sh:  pip install -c constraints.txt -e ".[dev]"
# pyproject.toml keeps ranges; this file pins. On another Python version the pins marked
# python_version == "{py}" do not apply and pip resolves within pyproject's ranges.
# torch and ruff are pinned everywhere (ruff: its formatting must not drift between machines).
# torch: on this machine pip finds the local CPU wheel (2.13.0+cpu); an
# unpinned torch would pull a multi-GB CUDA build.
# Regenerate: .venv/bin/python tools/update_constraints.py
"""


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins() -> list[str]:
    py = f"{sys.version_info.major}.{sys.version_info.minor}"
    seen: dict[str, str] = {}
    for dist in importlib.metadata.distributions():
        name = dist.metadata["Name"]
        if name is None or _normalized(name) in ("hedera", "pip", "setuptools", "wheel"):
            continue
        version = dist.version.split("+")[0]  # 2.13.0+cpu -> 2.13.0: also matches the local build
        seen[_normalized(name)] = f"{name}=={version}"
    if "tensorflow-cpu" in seen and "tensorflow" not in seen:  # what the dev extra installs off x86-64
        seen["tensorflow"] = "tensorflow==" + seen["tensorflow-cpu"].split("==")[1]
    lines = []
    for key in sorted(seen, key=lambda k: (k not in EVERYWHERE, k)):
        marker = "" if key in EVERYWHERE else f' ; python_version == "{py}"'
        lines.append(seen[key] + marker)
    return lines


def main() -> None:
    py = f"{sys.version_info.major}.{sys.version_info.minor}"
    OUTPUT.write_text(HEADER.format(py=py) + "\n".join(pins()) + "\n")
    print(f"wrote {OUTPUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
