"""The benchmarks every per-index-type file runs: each test_bench_*.py imports these tests
(pytest collects them there) and names its INDEX_TYPE, which conftest.py parametrizes by.

Each measures what compare.py measures, through pytest-benchmark: build (IndexWriter create +
write the Arrow column + finish), serialize (finish alone), open (IndexReader over the bytes)
and each query from bytes (open + evaluate + materialized answer). ns/row and rows/s go into
the benchmark's extra_info (shown by --benchmark-verbose / saved with --benchmark-json).
"""

from __future__ import annotations

import pyfileindex as pfi

import cases

BUILD_ROUNDS = 3


def _rows_info(benchmark, rows: int) -> None:
    median_s = benchmark.stats.stats.median
    benchmark.extra_info["rows"] = rows
    benchmark.extra_info["ns_per_row"] = round(median_s * 1e9 / rows, 3)
    benchmark.extra_info["rows_per_s"] = round(rows / median_s)


def _build(case: cases.Case, table) -> bytes:
    writer = pfi.IndexWriter(case.fields, case.options)
    writer.write(table)
    return writer.finish()


def test_build(benchmark, case: cases.Case, columns) -> None:
    benchmark.group = f"{case.index_type}: build"
    column = columns.get(case.column)
    table = column.table()
    data = benchmark.pedantic(_build, args=(case, table), rounds=BUILD_ROUNDS, iterations=1,
                              warmup_rounds=1)
    assert data, "the options declare an index: bytes expected"
    _rows_info(benchmark, column.rows)
    benchmark.extra_info["index_bytes"] = len(data)


def test_serialize(benchmark, case: cases.Case, columns) -> None:
    benchmark.group = f"{case.index_type}: serialize"
    column = columns.get(case.column)
    table = column.table()

    def written():
        writer = pfi.IndexWriter(case.fields, case.options)
        writer.write(table)
        return (writer,), {}

    data = benchmark.pedantic(lambda w: w.finish(), setup=written, rounds=BUILD_ROUNDS,
                              iterations=1)
    assert data
    _rows_info(benchmark, column.rows)


def _index(case: cases.Case, columns):
    column = columns.get(case.column)
    return column, _build(case, column.table())


def test_open(benchmark, case: cases.Case, columns) -> None:
    benchmark.group = f"{case.index_type}: open"
    _, data = _index(case, columns)
    reader = benchmark(pfi.IndexReader, data, case.fields)
    assert cases.COLUMN in reader.columns


def test_query(benchmark, case: cases.Case, query: str, columns) -> None:
    query_name = query  # conftest.py parametrizes `query` by name
    benchmark.group = f"{case.index_type}: query {query_name}"
    column, data = _index(case, columns)
    (query,) = [q for q in cases.queries(case, column) if q.name == query_name]
    if query.op == "topn":
        def ask():
            return pfi.IndexReader(data, case.fields).top_n(
                cases.COLUMN, query.limit, descending=query.descending)
    else:
        predicate = query.ours()

        def ask():
            return pfi.IndexReader(data, case.fields).evaluate(predicate)

    def ask_materialized():
        result = ask()
        return result.cardinality if result.kind == "ROWS" else result.kind

    benchmark(ask_materialized)
    result = ask()
    benchmark.extra_info["result"] = result.kind
    benchmark.extra_info["result_rows"] = result.cardinality
    # Literals come from the data: a present value never skips the file.
    if query_name == "point_absent":
        assert result.kind == "SKIP"
    else:
        assert result.kind in ("ROWS", "REMAIN")
        if result.kind == "ROWS":
            assert result.cardinality > 0
