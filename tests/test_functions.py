"""Every function of ``hedera._api.FUNCTIONS`` on every backend, against an independent reference.

The machinery is in tests/harness.py, the input strategies in tests/strategies.py.
Rows are grouped by API category. A row's comment says where the inputs are
restricted to the domain the standard specifies (and why).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import strategies as strat
from harness import Row, check
from hedera._api import FUNCTIONS

FLOAT = "real floating"
COMPLEX = "complex floating"
INEXACT = (FLOAT, COMPLEX)
REAL = ("integral", FLOAT)
INT = "integral"


def _float_default(case):
    return FLOAT


ROWS: list[Row] = [
    # ---- creation -------------------------------------------------------------------------------
    Row(
        "zeros",
        st.builds(
            lambda shape, d: strat.Case((shape,), {"dtype": d}),
            strat.shapes(),
            st.none() | strat.dtypes("numeric"),
        ),
        default_kind=lambda c: FLOAT if c.kwargs["dtype"] is None else None,
    ),
    # ---- elementwise ----------------------------------------------------------------------------
    Row("sin", strat.unary(INEXACT, special=True)),
    Row("add", strat.binary("numeric", special=True)),
    # ---- statistical ----------------------------------------------------------------------------
    Row("sum", strat.reduction(REAL), tol=100),
    # ---- sorting --------------------------------------------------------------------------------
    Row("sort", strat.unary(REAL, shape=strat.shapes(min_dims=1))),
    # ---- linalg ---------------------------------------------------------------------------------
    Row("linalg.matrix_transpose", strat.unary("numeric", shape=strat.shapes(min_dims=2))),
]

#: functions the harness does not run, each with the reason
NOT_IN_HARNESS: dict[str, str] = {}

_SUPPRESS = [*settings.default.suppress_health_check, HealthCheck.function_scoped_fixture]


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.id)
@settings(suppress_health_check=_SUPPRESS)
@given(data=st.data())
def test_function(row: Row, backend: str, data) -> None:
    case = data.draw(row.cases, label="case")
    spelling = data.draw(st.sampled_from(("hedera", "name", "native")), label="dtype spelling")
    check(row, case, backend, spelling)


def test_every_function_has_a_row() -> None:
    covered = {r.qualname for r in ROWS}
    missing = sorted(
        f.qualname for f in FUNCTIONS if f.qualname not in covered and f.qualname not in NOT_IN_HARNESS
    )
    assert not missing, f"functions with no harness row and no NOT_IN_HARNESS reason: {missing}"
    stale = sorted(set(NOT_IN_HARNESS) & covered)
    assert not stale, f"in NOT_IN_HARNESS but also have rows: {stale}"
    unknown = sorted(covered - {f.qualname for f in FUNCTIONS})
    assert not unknown, f"rows for functions not in the API table: {unknown}"
