"""Lines of code (the paper's RQ2): a library written once in hedera vs once per framework.

Counted with pygount (lines of source: code and string lines, without blank lines, comments
and docstrings), for each of ``hedera.mech``, ``hedera.vision``, ``hedera.robot`` and
``hedera.gym`` that is installed:

* **library**: every module of the library, written once for the four frameworks;
* **subset**: the functions that ``benchmarks/native/`` implements directly in torch and in
  jax. For each, the hedera function's own source (``inspect.getsource``; its shared input
  checks and helpers not included) against the native ones. A native implementation has to
  be written once per framework: hedera's four (NumPy, PyTorch, JAX, TensorFlow) times the
  mean of the torch and jax versions.

The whole-library native figure is an estimate: the library's lines times the measured
native/hedera ratio of the subset, times four frameworks.

Usage::

    python benchmarks/lines_of_code.py           # -> results/lines_of_code.json, prints a table
    python benchmarks/lines_of_code.py --quick   # the same (it takes a second); used by the tests
"""

from __future__ import annotations

import argparse
import functools
import importlib
import inspect
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchlib
from pygount import SourceAnalysis

LIBRARIES = ("mech", "vision", "robot", "gym")
FRAMEWORKS = 4  # numpy, torch, jax, tensorflow
NATIVE = benchlib.HERE / "native"


def source_lines(path: Path) -> int:
    """pygount's source lines of a Python file: code and strings, no comments, docstrings, blanks."""
    return SourceAnalysis.from_file(str(path), "hedera", encoding="utf-8").source_count


def _source_lines_of_text(text: str) -> int:
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(text)
    try:
        return source_lines(Path(f.name))
    finally:
        Path(f.name).unlink()


def _native_functions(path: Path) -> dict[str, str]:
    """{name: source} of the top-level functions named in a native module's FUNCTIONS."""
    module_name = f"native.{path.stem}"
    try:
        module = importlib.import_module(module_name)
    except ImportError:  # the framework is not installed: count from the source text alone
        return {}
    return {name: inspect.getsource(fn) for name, fn in module.FUNCTIONS.items()}


def count_library(library: str) -> dict | None:
    try:
        module = importlib.import_module(f"hedera.{library}")
    except ImportError:
        return None
    folder = Path(module.__file__).parent
    files = sorted(folder.glob("*.py"))
    per_file = {f.name: source_lines(f) for f in files}
    out = {"library_lines": sum(per_file.values()), "files": per_file, "subset": {}}
    natives = {fw: _native_functions(NATIVE / f"{fw}_{library}.py") for fw in ("torch", "jax")}
    names = sorted(set(natives["torch"]) | set(natives["jax"]))
    for name in names:
        fn = functools.reduce(getattr, name.split("."), module)  # "Class.method" too
        entry = {"hedera": _source_lines_of_text(inspect.getsource(fn))}
        for fw, fns in natives.items():
            if name in fns:
                entry[fw] = _source_lines_of_text(fns[name])
        out["subset"][name] = entry
    if names:
        hedera_subset = sum(e["hedera"] for e in out["subset"].values())
        per_framework = statistics.fmean(
            sum(e[fw] for e in out["subset"].values() if fw in e) for fw in ("torch", "jax")
        )
        ratio = per_framework / hedera_subset
        out["summary"] = {
            "subset_functions": len(names),
            "subset_hedera_lines": hedera_subset,
            "subset_native_lines_per_framework": per_framework,
            "subset_native_lines_all_frameworks": per_framework * FRAMEWORKS,
            "subset_reduction": per_framework * FRAMEWORKS / hedera_subset,
            "native_over_hedera_per_framework": ratio,
            "library_native_estimate_all_frameworks": out["library_lines"] * ratio * FRAMEWORKS,
            "library_reduction_estimate": ratio * FRAMEWORKS,
        }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="smoke mode (the same count)")
    parser.add_argument("--output", type=Path, default=benchlib.RESULTS / "lines_of_code.json")
    args = parser.parse_args(argv)
    result = {**benchlib.header(args.quick), "tool": "pygount (source lines)", "frameworks": FRAMEWORKS}
    libraries, missing = {}, []
    for library in LIBRARIES:
        counted = count_library(library)
        if counted is None:
            missing.append(library)
        else:
            libraries[library] = counted
    result["libraries"], result["missing_libraries"] = libraries, missing
    benchlib.write_json(args.output, result)
    print("| library | hedera lines (once) | subset: hedera | subset: native x 4 | reduction |")
    print("|---|---:|---:|---:|---:|")
    for library, c in libraries.items():
        s = c.get("summary")
        if s:
            print(
                f"| {library} | {c['library_lines']} | {s['subset_hedera_lines']} | "
                f"{s['subset_native_lines_all_frameworks']:.0f} | {s['subset_reduction']:.1f}x |"
            )
        else:
            print(f"| {library} | {c['library_lines']} | | | |")
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
