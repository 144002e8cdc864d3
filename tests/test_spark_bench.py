"""benchmarks/spark_pipeline.py end to end at a tiny size: the result rows compare.py
prints and checks, and equal answers of the pruned read and the plain filter scan. No
timing is asserted (the numbers of a 200k-row run mean nothing)."""

import argparse
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspark")  # the [spark] extra; ./dev setup installs it

BENCHMARKS = str(Path(__file__).resolve().parents[1] / "benchmarks")
sys.path.append(BENCHMARKS)

import compare  # noqa: E402
import spark_pipeline  # noqa: E402
import targets  # noqa: E402

# compare.py puts its folder first on sys.path; keep it last, so its conftest.py and
# helper modules never shadow the tests' own.
sys.path[:] = [p for p in sys.path if p != BENCHMARKS] + [BENCHMARKS]

ROWS = 200_000
FILES = 8
DEMO_INDEXED = {"category", "country", "status", "user_id", "score", "ts"}


def _target(results, text_start):
    return next(e for e in targets.evaluate(results) if e["target"].startswith(text_start))


@pytest.mark.spark
@pytest.mark.timeout(300)
def test_rows_measure_build_and_pruned_query():
    from pyfileindex.spark.session import spark_session

    spark = spark_session("local[2]", "pyfileindex-bench-test")
    try:
        args = argparse.Namespace(spark=True, rows=ROWS, spark_files=FILES, spark_repeat=1)
        rows = spark_pipeline.rows(args, spark)
    finally:
        spark.stop()

    assert not [r["error"] for r in rows if r.get("error")]
    assert [r["op"] for r in rows] == [spark_pipeline.BUILD_OP, spark_pipeline.QUERY_OP]
    for r in rows:
        assert r["index"] == spark_pipeline.INDEX
        assert r["case"] == f"events {ROWS:,} rows, {FILES} files"
        assert r["rows"] == ROWS
        assert r["java_us"] > 0 and r["ours_us"] > 0
        assert r["ratio"] == pytest.approx(r["java_us"] / r["ours_us"])
        assert r["bytes_equal"] is None
        assert len(r["baseline_runs_s"]) == len(r["ours_runs_s"]) == 1

    build, query = rows
    assert build["files_total"] == build["files_indexed"] == FILES
    assert set(build["indexed_columns"]) == DEMO_INDEXED
    assert build["index_bytes"] > 0
    assert build["build_overhead_pct"] == pytest.approx(
        (build["ours_us"] / build["java_us"] - 1) * 100)

    assert query["answers_equal"] is True
    assert query["result_rows"] >= 1  # equal answers on an empty result would prove little
    assert query["files_total"] == FILES
    assert 1 <= query["files_surviving"] < FILES
    assert query["rows_selected"] >= query["result_rows"]

    # compare.py can print them, and the build target is judged on them; the query
    # target is not, since with 8 files more than 1% of them survive.
    table = compare.format_table(rows)
    assert spark_pipeline.QUERY_OP in table and "yes" in table
    assert _target(rows, "Spark: index build")["met"] in (True, False)
    assert _target(rows, "Spark: selective query")["met"] is None


def test_selective_target_only_judges_queries_leaving_at_most_one_percent():
    def row(surviving, ratio):
        return {"case": "c", "index": spark_pipeline.INDEX, "op": spark_pipeline.QUERY_OP,
                "files_total": 200, "files_surviving": surviving, "ratio": ratio}

    entry = _target([row(2, 12.0), row(3, 1.0)], "Spark: selective query")
    assert (entry["met"], entry["rows"], entry["worst"]) == (True, 1, 12.0)
    assert _target([row(2, 9.0)], "Spark: selective query")["met"] is False
    build = {"case": "c", "index": spark_pipeline.INDEX, "op": spark_pipeline.BUILD_OP,
             "java_us": 100.0, "ours_us": 115.0}
    entry = _target([build], "Spark: index build")
    assert entry["met"] is False and entry["worst"] == pytest.approx(15.0)
