"""pytest-benchmark suites of pyfileindex (one file per index type: test_bench_<type>.py).

    .venv/bin/pytest benchmarks                      # 10M rows per column (BENCH_ROWS)
    .venv/bin/pytest benchmarks --quick              # 200k rows
    BENCH_ROWS=1000000 .venv/bin/pytest benchmarks -k "bitmap and build"
    .venv/bin/pytest benchmarks --bench-matrix full  # every null/order variant

Java Paimon's numbers for the same cases come from benchmarks/compare.py.
"""

from __future__ import annotations

import collections
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cases  # noqa: E402


def pytest_addoption(parser):
    group = parser.getgroup("pyfileindex benchmarks")
    group.addoption("--quick", action="store_true",
                    help=f"{cases.QUICK_ROWS:,} rows per column instead of BENCH_ROWS / 10M")
    group.addoption("--bench-matrix", default="standard", choices=("quick", "standard", "full"),
                    help="which columns x index types (benchmarks/cases.py)")


def pytest_generate_tests(metafunc):
    """Parametrizes `case` (and `query`) from the matrix for the module's INDEX_TYPE."""
    if "case" not in metafunc.fixturenames:
        return
    index_type = metafunc.module.INDEX_TYPE
    selected = [c for c in cases.matrix(metafunc.config.getoption("--bench-matrix"))
                if c.index_type == index_type]
    if "query" in metafunc.fixturenames:
        pairs = [(c, q) for c in selected for q in cases.QUERIES_BY_INDEX[index_type]]
        metafunc.parametrize("case,query", pairs,
                             ids=[f"{_case_id(c)}-{q}" for c, q in pairs])
    else:
        metafunc.parametrize("case", selected, ids=[_case_id(c) for c in selected])


def _case_id(case: cases.Case) -> str:
    return case.column.key


@pytest.fixture(scope="session")
def bench_rows(pytestconfig) -> int:
    return cases.QUICK_ROWS if pytestconfig.getoption("--quick") else cases.rows_from_env()


class _Columns:
    """Generated columns, the two most recent kept (10M-row columns are big)."""

    def __init__(self, rows: int) -> None:
        self.rows = rows
        self._cache: "collections.OrderedDict" = collections.OrderedDict()

    def get(self, spec: cases.ColumnSpec) -> cases.Column:
        if spec not in self._cache:
            while len(self._cache) >= 2:
                self._cache.popitem(last=False)
            self._cache[spec] = cases.generate(spec, self.rows)
        self._cache.move_to_end(spec)
        return self._cache[spec]


@pytest.fixture(scope="session")
def columns(bench_rows) -> _Columns:
    return _Columns(bench_rows)
