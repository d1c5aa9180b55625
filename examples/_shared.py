"""What the examples share: the ``--backend``/``--jit``/``--out`` arguments and saving a figure.

Each example runs as a script (``python examples/<name>.py``, which puts this folder on
``sys.path``) and is imported by its test (pytest's ``pythonpath`` lists this folder).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import tempfile
from typing import Any

import hedera as hd

#: the backends with gradients, in the order the examples run them
AUTODIFF_BACKENDS = ("torch", "jax", "tensorflow")
#: where the examples write their plots (git ignores it)
OUT_DIR = pathlib.Path(__file__).resolve().parent / "out"


def installed(backends: tuple[str, ...] = AUTODIFF_BACKENDS) -> list[str]:
    """Those of ``backends`` whose framework is installed, in the same order."""
    available = hd.available_backends()
    return [b for b in backends if b in available]


def add_backend_argument(
    parser: argparse.ArgumentParser, choices: tuple[str, ...] = AUTODIFF_BACKENDS
) -> None:
    """``--backend NAME`` (repeatable) among ``choices``; :func:`selected_backends` reads it."""
    parser.add_argument(
        "--backend",
        action="append",
        choices=choices,
        help="backend to run on (repeatable); default: every installed one of "
        + ", ".join(AUTODIFF_BACKENDS),
    )


def add_jit_argument(parser: argparse.ArgumentParser) -> None:
    """``--jit/--no-jit``; ``None`` (neither given) means :func:`jit_by_default`."""
    parser.add_argument(
        "--jit",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="compile with hd.jit (default: on jax and tensorflow, not on torch)",
    )


def add_out_argument(parser: argparse.ArgumentParser) -> None:
    """``--out FOLDER`` for the plots, default ``examples/out``."""
    parser.add_argument(
        "--out", type=pathlib.Path, default=OUT_DIR, help="output folder (default examples/out)"
    )


def selected_backends(args: argparse.Namespace) -> list[str]:
    """The backends named by ``--backend``, else every installed autodiff backend."""
    return args.backend or installed()


def jit_by_default(backend: str, jit: bool | None) -> bool:
    """``jit`` if given; else compile on jax and tensorflow but not on torch.

    ``torch.compile`` takes longer to compile these small steps than the few hundred eager
    steps of an example take to run.
    """
    return backend != "torch" if jit is None else jit


def save_figure(fig: Any, path: pathlib.Path, **savefig_kwargs: Any) -> pathlib.Path:
    """Save a matplotlib figure atomically (a temporary file, then a rename), and close it."""
    import matplotlib.pyplot as plt

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=path.suffix)
    try:
        with os.fdopen(fd, "wb") as f:
            fig.savefig(f, format=path.suffix.lstrip(".") or "png", **savefig_kwargs)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    finally:
        plt.close(fig)
    return path
