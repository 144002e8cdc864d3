"""The Spark pipeline's benchmarks (issue 8), on the demo's events data.

    python benchmarks/compare.py --spark-only --rows 2000000     # Spark alone, small
    python benchmarks/compare.py --spark-only                    # demo size: 20M rows

One table of the demo's events (pyfileindex.spark.demo) is written WITHOUT file indexes
into `--spark-files` data files; then:

1. Index build against a scan of the indexed columns ("index build"). Baseline: Spark's
   own Parquet reader over the table's data files, counting the non-null values of each
   column the demo indexes (category, country, status, user_id, score, ts) -- the
   cheapest query that makes Spark read every value of those columns (no Parquet
   aggregate push-down). Ours: the distributed index job (pyfileindex.spark.index_table)
   building the demo's indexes over the same files: it reads the same columns, builds
   every index, ships the bytes to the driver, stores them (manifest or sidecars) and
   commits, all inside the timed call. Each round copies the unindexed table first
   (untimed) and runs both sides on the copy, so every timed build does the full work.
   Target: the build takes at most 10% longer than the scan.
2. Selective query against a plain filter scan ("selective query"). A point query on the
   high-cardinality user_id (the demo's bloom-filter query): ours is
   pyfileindex.spark.read_table (plan with the file indexes, read only surviving files
   and selected rows), baseline is Spark's filter over the same data files (plain_filter);
   both collect the matching rows, which must be equal. Target: >= 10x faster when at
   most 1% of the files survive.

Each side runs once untimed (JVM JIT, page cache), then `--spark-repeat` timed runs,
alternating sides; the median is reported.

The indexes are the demo's as declared (pyfileindex.spark.demo.WRITE_OPTIONS and
INDEX_OPTIONS). Their bloom filter keeps Paimon's default of 1M expected items, so each
file's user_id filter is about 1.2 MB however few rows the file has: it dominates the
index bytes at 200 files, and its real false-positive rate is far below the declared
fpp, which is what lets a point query leave 2 of 200 files.

Contract with compare.py: `rows(args)` returns result rows shaped like compare.py's (keys
case, index ("spark"), op, java_us -> the baseline's time, ours_us -> the pipeline's
time, ratio = baseline/ours, bytes_equal None), plus rows, files_total,
files_surviving, result_rows, answers_equal and the runs.
"""

from __future__ import annotations

import collections
import dataclasses
import os
import shutil
import statistics
import sys
import tempfile
import time
from typing import Callable, Dict, List, Tuple

from timing import load_average, progress

QUICK_ROWS = 2_000_000
DEFAULT_FILES = 200  # enough that a point query can leave <= 1% of the files
DEFAULT_REPEAT = 3
INDEX = "spark"
BUILD_OP = "index build"
QUERY_OP = "selective query"
# The bench's own Spark settings: count(col) must read the column, never Parquet footers.
SESSION_CONF = {"spark.sql.parquet.aggregatePushdown": "false"}


def available() -> bool:
    """True when the Spark pipeline and pyspark are importable."""
    try:
        import pyfileindex.spark  # noqa: F401
        import pyspark  # noqa: F401
    except ImportError:
        return False
    return True


@dataclasses.dataclass(frozen=True)
class Settings:
    rows: int
    files: int
    repeat: int

    @classmethod
    def from_args(cls, args) -> "Settings":
        from pyfileindex.spark import demo
        rows = getattr(args, "rows", None) or (
            QUICK_ROWS if getattr(args, "quick", False) else demo.DEFAULT_ROWS)
        files = getattr(args, "spark_files", None) or DEFAULT_FILES
        repeat = getattr(args, "spark_repeat", None) or DEFAULT_REPEAT
        if rows < files:
            raise ValueError(f"spark: {rows} rows cannot fill {files} data files")
        return cls(rows, files, repeat)

    @property
    def label(self) -> str:
        return f"events {self.rows:,} rows, {self.files} files"


def rows(args, spark=None) -> List[dict]:
    """The two Spark measurements as compare.py result rows ([] without --spark). Uses
    `spark` if given, else starts a local session and stops it afterwards."""
    if not getattr(args, "spark", False):
        return []
    if not available():
        print("spark: not measured -- pyfileindex.spark or pyspark is not importable "
              "(install the [spark] extra)", file=sys.stderr)
        return []
    settings = Settings.from_args(args)
    owned = spark is None
    if owned:
        from pyfileindex.spark.session import spark_session
        spark = spark_session(app_name="pyfileindex-bench", conf=SESSION_CONF)
    else:
        for key, value in SESSION_CONF.items():
            spark.conf.set(key, value)
    warehouse = tempfile.mkdtemp(prefix="pyfileindex-bench-spark-")
    out: List[dict] = []
    op = BUILD_OP
    try:
        table = write_table(spark, warehouse, settings)
        build_row, indexed_table = measure_index_build(spark, table, settings)
        out.append(build_row)
        op = QUERY_OP
        out.append(measure_selective_query(spark, indexed_table, settings))
    except Exception as e:  # like compare.py's cases: an error row, exit status 1
        progress(f"spark: {op} failed: {e!r}")
        out.append({"case": settings.label, "index": INDEX, "op": op, "rows": settings.rows,
                    "ratio": None, "bytes_equal": None, "error": f"spark: {e!r}"})
    finally:
        shutil.rmtree(warehouse, ignore_errors=True)
        if owned:
            spark.stop()
    return out


# ----------------------------------------------------------------------------- the table


def index_options() -> Dict[str, str]:
    """Every index the demo declares (written ones and the later range bitmaps)."""
    from pyfileindex.spark import demo
    return {**demo.WRITE_OPTIONS, **demo.INDEX_OPTIONS}


def indexed_columns(options: Dict[str, str]) -> List[str]:
    columns: List[str] = []
    for key, value in options.items():
        if key.startswith("file-index.") and key.endswith(".columns"):
            columns += [c.strip() for c in value.split(",")
                        if c.strip() and c.strip() not in columns]
    return columns


def write_table(spark, warehouse: str, settings: Settings) -> str:
    from pyfileindex.spark import demo
    from pyfileindex.spark.write import write_dataframe
    table = os.path.join(warehouse, demo.TABLE)
    progress(f"spark: writing {settings.label} without indexes")
    written = write_dataframe(demo.events_dataframe(spark, settings.rows, settings.files),
                              table, options=None, progress=False)
    progress(f"  {written.rows:,} rows, {written.files} files, "
             f"{written.bytes / 2 ** 20:.1f} MB in {written.seconds:.1f} s")
    if written.files < settings.files:
        raise RuntimeError(f"spark: wrote {written.files} data files, expected "
                           f"{settings.files}")
    return table


# ------------------------------------------------------------------------ 1. index build


def scan_indexed_columns(spark, table: str, columns: List[str]) -> List[int]:
    """Plain Spark over the data files: every value of `columns` is read (non-null
    counts), nothing else is computed."""
    from pyspark.sql import functions as F
    from pyfileindex.spark.read import plain_scan
    row = plain_scan(spark, table).agg(F.count(F.lit(1)),
                                       *[F.count(F.col(c)) for c in columns]).collect()[0]
    return list(row)


def fresh_copy(table: str, name: str) -> str:
    """A copy of the (unindexed) table beside it, flushed to disk, so the copy's files
    are equally in the page cache for the scan and the build that follow."""
    copy = os.path.join(os.path.dirname(table), name)
    shutil.copytree(table, copy)
    os.sync()
    return copy


def measure_index_build(spark, table: str, settings: Settings) -> Tuple[dict, str]:
    """Returns the result row and the last indexed copy of the table.

    Every round gets a fresh copy of the unindexed table: the scan and then the index
    build run on it, so each build does the whole job (build, store, commit). Dropping
    the indexes again in place instead is no option: re-adding a file entry identical to
    an earlier deleted one makes pypaimon's manifest reader lose the file."""
    from pyfileindex.spark.index import index_table
    from pyfileindex.spark.tables import set_table_options

    options = index_options()
    columns = indexed_columns(options)
    scan_times: List[float] = []
    build_times: List[float] = []
    builds = []
    progress(f"spark: index build of {', '.join(columns)} vs a Spark scan of them "
             f"(1 warm-up + {settings.repeat} runs each)")
    copy = None
    for round_number in range(settings.repeat + 1):  # round 0: warm-up, not recorded
        if copy is not None:
            shutil.rmtree(copy, ignore_errors=True)
        copy = fresh_copy(table, f"{os.path.basename(table)}_{round_number}")
        set_table_options(copy, options)
        started = time.perf_counter()
        counts = scan_indexed_columns(spark, copy, columns)
        scanned = time.perf_counter() - started
        if counts[0] != settings.rows:
            raise RuntimeError(f"spark: the scan counted {counts[0]} rows, wrote "
                               f"{settings.rows}")
        started = time.perf_counter()
        built = index_table(spark, copy, progress=False)
        indexed = time.perf_counter() - started
        if not built.files_rewritten == built.files_total == settings.files:
            raise RuntimeError(f"spark: the index build rewrote {built.files_rewritten} of "
                               f"{built.files_total} files, expected {settings.files}")
        if round_number:
            scan_times.append(scanned)
            build_times.append(indexed)
            builds.append(built)
    last = builds[-1]
    row = result_row(settings, BUILD_OP, scan_times, build_times)
    row.update(files_total=last.files_total, files_indexed=last.files_rewritten,
               index_tasks=last.tasks, bytes_read=last.bytes_read,
               index_bytes=last.index_bytes, indexed_columns=columns,
               build_overhead_pct=(row["ours_us"] / row["java_us"] - 1) * 100)
    progress(f"  scan {row['java_us'] / 1e6:.2f} s, index build {row['ours_us'] / 1e6:.2f} s"
             f" ({row['build_overhead_pct']:+.0f}%); {last.files_rewritten} files, "
             f"{last.index_bytes / 2 ** 20:.1f} MB of indexes")
    return row, copy


# --------------------------------------------------------------------- 2. selective query


def point_query(rows: int) -> str:
    """The demo's bloom-filter point query on user_id."""
    from pyfileindex.spark import demo
    return next(predicate for label, predicate, _ in demo.demo_queries(rows)
                if label.startswith("point"))


def _as_multiset(collected) -> collections.Counter:
    """Rows as an order-independent multiset (column order too: name -> value)."""
    return collections.Counter(tuple(sorted(r.asDict().items())) for r in collected)


def measure_selective_query(spark, table: str, settings: Settings) -> dict:
    from pyfileindex.spark.read import plain_filter, read_table

    predicate = point_query(settings.rows)
    answers = {"ours": [], "plain": []}
    plans = []

    def pruned():
        result = read_table(spark, table, predicate)
        answers["ours"].append(_as_multiset(result.dataframe.collect()))
        plans.append(result.plan)

    def plain():
        answers["plain"].append(_as_multiset(plain_filter(spark, table, predicate).collect()))

    progress(f"spark: {predicate}: pruned read vs Spark filter scan "
             f"(1 warm-up + {settings.repeat} runs each)")
    plain_times, pruned_times = alternate(plain, pruned, settings.repeat)
    expected = answers["plain"][0]
    equal = all(a == expected for side in answers.values() for a in side)
    plan = plans[-1]
    surviving = plan.files_total - plan.files_skipped
    row = result_row(settings, QUERY_OP, plain_times, pruned_times)
    row.update(predicate=predicate, files_total=plan.files_total,
               files_surviving=surviving, rows_selected=plan.rows_selected,
               result_rows=sum(expected.values()), answers_equal=equal)
    progress(f"  plain {row['java_us'] / 1e6:.2f} s, pruned {row['ours_us'] / 1e6:.2f} s "
             f"({row['ratio']:.1f}x); {surviving}/{plan.files_total} files survive, "
             f"{row['result_rows']} rows, {'equal' if equal else 'DIFFERENT'}")
    return row


# --------------------------------------------------------------------------- measuring


def alternate(a: Callable[[], object], b: Callable[[], object], repeat: int):
    """Wall times (s) of `a` and `b`: each once untimed, then `repeat` timed runs each,
    alternating so slow drift in the machine's load hits both sides alike."""
    a()
    b()
    times_a, times_b = [], []
    for _ in range(repeat):
        times_a.append(_timed(a))
        times_b.append(_timed(b))
    return times_a, times_b


def _timed(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def result_row(settings: Settings, op: str, baseline_s: List[float],
               ours_s: List[float]) -> dict:
    java_us = statistics.median(baseline_s) * 1e6
    ours_us = statistics.median(ours_s) * 1e6
    return {"case": settings.label, "index": INDEX, "op": op, "rows": settings.rows,
            "java_us": java_us, "ours_us": ours_us, "ratio": java_us / ours_us,
            "bytes_equal": None, "baseline_runs_s": baseline_s, "ours_runs_s": ours_s,
            "load_avg": load_average()}
