"""Build hedera's optional C extension; everything else about the package is in pyproject.toml.

``hedera._fastfront`` is the hot path of the front functions (src/hedera/_fastfront.c). It is
optional: where it cannot be compiled (no C compiler), the install still succeeds and hedera runs
its pure-Python fronts, which behave the same and cost one Python frame more per call.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("hedera._fastfront", ["src/hedera/_fastfront.c"], optional=True),
    ]
)
