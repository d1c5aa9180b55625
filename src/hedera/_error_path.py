"""The error path of every front: what a front calls when its backend function raised.

:func:`diagnose` imports :mod:`hedera._diagnose` on the first failed call, not at
``import hedera``: building its tables would add milliseconds to every import. A module
of its own, below the fronts and above ``_diagnose``, so that no import circle runs through
``_dispatch``.
"""

from __future__ import annotations

import inspect
from typing import Any

__all__ = ["bound_arguments", "diagnose", "diagnose_call"]


def diagnose(exc: BaseException, qualname: str, values: dict[str, Any]) -> None:
    """Raise the hedera error that explains ``exc`` (:func:`hedera._diagnose.diagnose`), or return."""
    from ._diagnose import diagnose as explain  # on the first failure (see the module docstring)

    explain(exc, qualname, values)


def bound_arguments(qualname: str, signature: inspect.Signature, args: tuple, kwargs: dict) -> dict[str, Any]:
    """A call's arguments by parameter name, defaults filled in, or a TypeError naming the
    function (``"linalg.inv(): missing a required argument: 'x'"``) when the call does not fit."""
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError as error:
        raise TypeError(f"{qualname}(): {error}") from None
    bound.apply_defaults()
    return dict(bound.arguments)


def diagnose_call(
    exc: BaseException, qualname: str, signature: inspect.Signature, args: tuple, kwargs: dict
) -> None:
    """:func:`diagnose` for a failed call given as its ``args`` and ``kwargs`` (the front's
    ``signature`` names them), or the TypeError of :func:`bound_arguments` when the call does not
    fit the signature, which is then why the backend function failed."""
    diagnose(exc, qualname, bound_arguments(qualname, signature, args, kwargs))
