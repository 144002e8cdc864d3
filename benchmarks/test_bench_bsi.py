"""pytest-benchmark suite: the bsi index (build, serialize, open, queries from bytes).

Run: .venv/bin/pytest benchmarks/test_bench_bsi.py [--quick] (see benchmarks/conftest.py).
"""

import suite

INDEX_TYPE = "bsi"


def test_build(benchmark, case, columns):
    suite.bench_build(benchmark, case, columns)


def test_serialize(benchmark, case, columns):
    suite.bench_serialize(benchmark, case, columns)


def test_open(benchmark, case, columns):
    suite.bench_open(benchmark, case, columns)


def test_query(benchmark, case, query, columns):
    suite.bench_query(benchmark, case, query, columns)
