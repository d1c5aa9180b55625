"""The error path of every front: what a front calls when its backend function raised.

:func:`diagnose` imports :mod:`hedera._diagnose` (and the API table it reads) on the first failed
call, not at ``import hedera``: parsing the table would add milliseconds to every import. A module
of its own, below the fronts and above ``_diagnose``, so that no import circle runs through
``_dispatch``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["diagnose"]


def diagnose(exc: BaseException, qualname: str, values: dict[str, Any]) -> None:
    """Raise the hedera error that explains ``exc`` (:func:`hedera._diagnose.diagnose`), or return."""
    from ._diagnose import diagnose as explain  # on the first failure (see the module docstring)

    explain(exc, qualname, values)
