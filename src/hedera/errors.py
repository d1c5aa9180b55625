"""hedera's exception hierarchy.

Every error hedera raises for bad input is a :class:`HederaError` *and* the
matching built-in exception, so existing ``except ValueError`` / ``except
TypeError`` clauses keep working. The same bad input raises the same class on
every backend; messages name the offending argument and what was expected.
"""

from __future__ import annotations

__all__ = [
    "HederaError",
    "BackendError",
    "UnknownBackendError",
    "BackendNotInstalledError",
    "BackendMismatchError",
    "NotAnArrayError",
    "ArgumentTypeError",
    "InvalidAxisError",
    "ShapeError",
    "BroadcastError",
    "DtypeError",
    "UnsupportedDtypeError",
    "UnsupportedError",
    "InvalidArgumentError",
    "NoAutodiffError",
    "StructureError",
    "CheckpointError",
    "CheckpointFileError",
    "CheckpointNotFoundError",
    "CheckpointPermissionError",
    "CheckpointIsADirectoryError",
    "StateMismatchError",
    "LaunchError",
]


class HederaError(Exception):
    """Base class of every exception hedera raises on purpose."""

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        # TF AutoGraph re-raises an error from inside tf.function as its own class only if its
        # __init__ is Exception.__init__ (else as a StagingError); keep hedera's classes intact.
        # OSError's own __init__ is kept: it sets errno, strerror and filename (CheckpointFileError).
        if issubclass(cls, OSError):
            cls.__init__ = OSError.__init__  # type: ignore[misc]
        elif not issubclass(cls, ImportError):
            cls.__init__ = Exception.__init__  # type: ignore[misc]


class BackendError(HederaError):
    """Base class of errors about backends themselves."""


class UnknownBackendError(BackendError, ValueError):
    """A backend name that hedera does not know (``hd.use_backend("caffe")``)."""


class BackendNotInstalledError(BackendError, ImportError):
    """The backend is known but its framework is not installed; the message says how to install it."""


class BackendMismatchError(BackendError, TypeError):
    """Arrays of two different frameworks were passed to one call."""


class ArgumentTypeError(HederaError, TypeError):
    """An argument of the wrong kind: a float, str, bool, None or array where an int or a shape goes,
    a non-callable where a function goes, ... The message names the function and the argument."""


class NotAnArrayError(ArgumentTypeError):
    """An argument that must be an array (of a known framework) was something else."""


class InvalidAxisError(HederaError, ValueError, IndexError):
    """An ``axis`` argument is out of range for the array's rank.

    Subclasses both ``ValueError`` and ``IndexError``, like NumPy's ``AxisError``.
    """


class ShapeError(HederaError, ValueError):
    """Array shapes that do not fit the operation (``matmul`` of ``(2, 3)`` by ``(4, 5)``, say)."""


class BroadcastError(ShapeError):
    """Array shapes that do not broadcast together."""


class DtypeError(HederaError, TypeError):
    """An array of a dtype the function does not accept (``bitwise_and`` on floats, say)."""


class UnsupportedDtypeError(DtypeError):
    """The backend's framework has no such dtype (``uint32`` on torch, say). Never converted silently."""


class UnsupportedError(HederaError, NotImplementedError):
    """The backend cannot do this operation; the message says why and, where possible, what to use."""


class InvalidArgumentError(HederaError, ValueError):
    """A non-array argument has a wrong value (an unknown ``mode`` string, a negative size, ...)."""


class NoAutodiffError(HederaError, NotImplementedError):
    """Automatic differentiation was requested from a backend that has none (numpy)."""


class StructureError(HederaError, ValueError):
    """Nested containers whose structures (keys, node types, lengths) do not match where they must."""


class CheckpointError(HederaError, ValueError):
    """A file :func:`hedera.load` cannot read: not safetensors, truncated or corrupt; the message names it."""


class CheckpointFileError(CheckpointError, OSError):
    """:func:`hedera.save` or :func:`hedera.load` could not write or read the file (an ``OSError``).

    ``filename`` is the path the user gave (never hedera's temporary file); ``errno`` and
    ``strerror`` are the operating system's.
    """


class CheckpointNotFoundError(CheckpointFileError, FileNotFoundError):
    """The file to load, or the directory to save into, does not exist."""


class CheckpointPermissionError(CheckpointFileError, PermissionError):
    """The file (or its directory) may not be read or written."""


class CheckpointIsADirectoryError(CheckpointFileError, IsADirectoryError):
    """The path names a directory, not a file."""


class StateMismatchError(StructureError):
    """A saved state that does not fit a module (``Module.load_state``).

    The message lists every missing or unexpected name and every shape or dtype mismatch at once.
    """


class LaunchError(HederaError, RuntimeError):
    """A rank of :func:`hedera.distributed.launch` raised, died, or did not finish in time.

    Attributes
    ----------
    rank : int or None
        The first rank that failed (``None`` for a timeout of several ranks).
    remote_traceback : str
        That rank's formatted traceback (empty for a rank that died without one).
    """

    rank: int | None = None
    remote_traceback: str = ""
