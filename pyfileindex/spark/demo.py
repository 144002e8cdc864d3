"""The demo: an events table written, indexed and queried through Spark.

    pyfileindex demo [--rows N] [--files F] [--master URL] [--warehouse DIR]

Generates an events data set with Spark (a low-cardinality category and country, a
high-cardinality user id, a numeric score with nulls, timestamps), writes it as a Paimon
table whose data files carry bitmap and bloom-filter indexes, adds range-bitmap indexes
with a distributed index rewrite, then runs point, IN, range, AND/OR, IS NULL, prefix LIKE
(answered from the bitmap dictionary, where Java answers REMAIN) and TopN queries, and a
COUNT(*) answered from the indexes. For each it prints files skipped, rows selected, the wall
time of the pruned read and of a plain Spark filter scan over the same data files, and whether
the two results are equal. Exit status 1 if any differs.
"""

import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import List, Optional, Tuple

DEFAULT_ROWS = 20_000_000
DEFAULT_FILES = 40
TABLE = "demo.db/events"
BASE_SECONDS = 1_700_000_000  # 2023-11-14 22:13:20 UTC
SPAN_SECONDS = 30 * 86400

WRITE_OPTIONS = {
    "file-index.bitmap.columns": "category,country,status",
    "file-index.bloom-filter.columns": "user_id",
    "file-index.bloom-filter.user_id.fpp": "0.01",
    # Keep small indexes in the manifest, larger ones as sidecars.
    "file-index.in-manifest-threshold": "500 b",
}
INDEX_OPTIONS = {"file-index.range-bitmap.columns": "score,ts"}
CATEGORIES = [("view", 400), ("click", 700), ("cart", 850), ("purchase", 950),
              ("refund", 990), ("chargeback", 1000)]
COUNTRIES = ["US", "DE", "FR", "GB", "JP", "BR", "IN", "CA", "AU", "ES", "IT", "NL",
             "SE", "PL", "MX", "KR", "CH", "AT", "IS", "LU"]


def users_for(rows: int) -> int:
    return max(rows // 2, 1000)


def events_dataframe(spark, rows: int, files: int):
    """Deterministic events: `files` Spark partitions of contiguous event ids."""
    from pyspark.sql import functions as F

    def bucket(salt: int, modulo: int):
        return F.pmod(F.xxhash64(F.col("id"), F.lit(salt)), F.lit(modulo))

    category = None
    for name, upper in CATEGORIES:
        condition = bucket(1, 1000) < upper
        category = F.when(condition, name) if category is None else category.when(condition, name)
    country = F.element_at(F.array(*[F.lit(c) for c in COUNTRIES]),
                           (F.floor(F.pow(bucket(2, 10000) / 10000.0, 3) * len(COUNTRIES))
                            + 1).cast("int"))
    step = SPAN_SECONDS / max(rows, 1)
    return spark.range(0, rows, numPartitions=files).select(
        F.col("id").alias("event_id"),
        bucket(3, users_for(rows)).alias("user_id"),
        category.alias("category"),
        F.when(bucket(4, 50) == 0, F.lit(None)).otherwise(country).alias("country"),
        F.when(bucket(5, 20) == 0, F.lit(None).cast("double"))
         .otherwise(F.round(bucket(6, 1_000_000) / 10000.0, 2)).alias("score"),
        F.expr(f"CAST(timestamp_seconds({BASE_SECONDS} + CAST(floor(id * {step!r}) AS BIGINT))"
               " AS TIMESTAMP_NTZ)").alias("ts"),
        F.when(bucket(7, 3) == 0, F.lit(None))
         .otherwise(F.element_at(F.array(F.lit("ok"), F.lit("retry"), F.lit("failed")),
                                 (bucket(8, 3) + 1).cast("int"))).alias("status"),
    )


def timestamp_text(seconds: float) -> str:
    import datetime
    moment = datetime.datetime.fromtimestamp(int(seconds), tz=datetime.timezone.utc)
    return moment.strftime("%Y-%m-%d %H:%M:%S")


def demo_queries(rows: int) -> List[Tuple[str, str, Optional[tuple]]]:
    """(label, predicate, top_n) for a table of `rows` rows; predicates are SQL that both
    pyfileindex and Spark read the same way."""
    user = 123457 % users_for(rows)
    day = BASE_SECONDS + 11 * 86400
    return [
        ("point (bloom filter)", f"user_id = {user}", None),
        ("IN (bitmap)", "country IN ('IS', 'LU')", None),
        ("range (range bitmap)",
         f"ts BETWEEN TIMESTAMP '{timestamp_text(day)}' AND "
         f"TIMESTAMP '{timestamp_text(day + 6 * 3600)}'", None),
        ("AND/OR", f"(category = 'chargeback' AND score >= 99.5) OR user_id = {user + 1}",
         None),
        ("IS NULL AND", "score IS NULL AND category = 'refund' AND status = 'failed'", None),
        ("LIKE prefix (bitmap)", "category LIKE 'charge%'", None),
        ("TopN score DESC LIMIT 10", "", ("score", 10, True, False)),
    ]


def demo_count_predicate(rows: int) -> str:
    """A COUNT(*) the bitmap (country) and range-bitmap (ts) indexes answer exactly."""
    day = BASE_SECONDS + 3 * 86400
    return (f"country IN ('IS', 'LU') AND ts BETWEEN TIMESTAMP '{timestamp_text(day)}' AND "
            f"TIMESTAMP '{timestamp_text(day + 2 * 86400)}'")


@dataclass
class CountOutcome:
    predicate: str
    count: int
    plain_count: int
    files_from_index: int
    files_read: int
    files_total: int
    count_seconds: float
    plain_seconds: float

    @property
    def equal(self) -> bool:
        return self.count == self.plain_count


def run_count(spark, table_path: str, predicate: str, catalog_options=None) -> CountOutcome:
    from .count import count_table
    from .read import plain_filter
    start = time.monotonic()
    result = count_table(spark, table_path, predicate, catalog_options=catalog_options)
    count_seconds = time.monotonic() - start
    start = time.monotonic()
    plain = plain_filter(spark, table_path, predicate, catalog_options).count()
    return CountOutcome(predicate, result.count, plain, result.files_from_index,
                        result.files_read, result.files_total, count_seconds,
                        time.monotonic() - start)


@dataclass
class QueryOutcome:
    label: str
    predicate: str
    files_skipped: int
    files_total: int
    rows_selected: int
    rows_returned: int
    pruned_seconds: float
    plain_seconds: float
    equal: bool


def _fingerprint(df):
    """(row count, order-independent sum of row hashes) computed by Spark."""
    from pyspark.sql import functions as F
    row = df.agg(F.count(F.lit(1)).alias("n"),
                 F.sum(F.xxhash64(*df.columns).cast("decimal(38,0)")).alias("h")).collect()[0]
    return int(row["n"]), row["h"]


def _top_values(df, column: str, n: int, descending: bool, nulls_first: bool):
    from pyspark.sql import functions as F
    c = F.col(column)
    order = (c.desc_nulls_first() if nulls_first else c.desc_nulls_last()) if descending else \
        (c.asc_nulls_first() if nulls_first else c.asc_nulls_last())
    return [r[0] for r in df.orderBy(order).limit(n).select(column).collect()]


def run_query(spark, table_path: str, label: str, predicate: str,
              top_n: Optional[tuple], catalog_options=None) -> QueryOutcome:
    from .read import plain_filter, read_table
    start = time.monotonic()
    result = read_table(spark, table_path, predicate or None, top_n=top_n,
                        catalog_options=catalog_options)
    if top_n is None:
        pruned = _fingerprint(result.dataframe)
    else:
        pruned = [r[top_n[0]] for r in result.dataframe.select(top_n[0]).collect()]
    pruned_seconds = time.monotonic() - start
    start = time.monotonic()
    plain_df = plain_filter(spark, table_path, predicate or None, catalog_options)
    if top_n is None:
        plain = _fingerprint(plain_df)
    else:
        plain = _top_values(plain_df, *top_n)
    plain_seconds = time.monotonic() - start
    returned = pruned[0] if top_n is None else len(pruned)
    order = f"ORDER BY {top_n[0]} {'DESC' if top_n[2] else 'ASC'} LIMIT {top_n[1]}" \
        if top_n else ""
    return QueryOutcome(label, predicate or order,
                        result.files_skipped, result.files_total, result.rows_selected,
                        returned, pruned_seconds, plain_seconds, pruned == plain)


def run_demo(rows: int = DEFAULT_ROWS, files: int = DEFAULT_FILES, master: Optional[str] = None,
             warehouse: Optional[str] = None, keep: bool = False, archive: Optional[str] = None,
             out=sys.stdout, catalog_options=None) -> int:
    """Run the demo; returns 0 when every query equals plain Spark, else 1. `warehouse`
    may be a URI on an object store (s3://bucket/warehouse) with `catalog_options`
    configuring its file IO (fs.s3.*)."""
    from . import session as spark_session
    from . import tables
    from .index import index_table
    from .write import write_dataframe

    if rows < files:
        raise ValueError(f"--rows ({rows}) must be at least the number of files ({files})")
    owned = warehouse is None
    warehouse = warehouse or tempfile.mkdtemp(prefix="pyfileindex-demo-")
    table_path = tables.table_location(f"{os.fspath(warehouse).rstrip('/')}/{TABLE}")
    if tables.table_exists(table_path, catalog_options):
        raise ValueError(f"{table_path} exists already; pick an empty --warehouse")

    def say(text=""):
        print(text, file=out, flush=True)

    total = time.monotonic()
    try:
        start = time.monotonic()
        spark = spark_session.spark_session(master, "pyfileindex-demo", archive)
        say(f"Spark {spark.version} on {spark.sparkContext.master} "
            f"(started in {time.monotonic() - start:.1f} s); table {table_path}")
        say(f"\n1. write {rows:,} events into {files} data files with bitmap + bloom-filter "
            "indexes")
        written = write_dataframe(events_dataframe(spark, rows, files), table_path,
                                  WRITE_OPTIONS, catalog_options=catalog_options)
        say(f"   {written.rows:,} rows, {written.files} files, "
            f"{written.bytes / 2**20:.1f} MB in {written.seconds:.1f} s "
            f"(snapshot {written.snapshot_id})")
        say("\n2. add range-bitmap indexes on score and ts (distributed index rewrite)")
        indexed = index_table(spark, table_path, INDEX_OPTIONS,
                              catalog_options=catalog_options)
        say(f"   {indexed.files_rewritten}/{indexed.files_total} files re-indexed by "
            f"{indexed.tasks} tasks, {indexed.bytes_read / 2**20:.1f} MB read, "
            f"{indexed.index_bytes / 2**20:.1f} MB of indexes in {indexed.seconds:.1f} s "
            f"(snapshot {indexed.snapshot_id})")
        say("\n3. queries: pruned read (file indexes) vs plain Spark filter scan")
        header = (f"   {'query':<26} {'files skipped':>14} {'rows selected':>14} "
                  f"{'rows':>10} {'pruned s':>9} {'plain s':>8}  equal")
        say(header)
        outcomes = []
        for label, predicate, top_n in demo_queries(rows):
            o = run_query(spark, table_path, label, predicate, top_n, catalog_options)
            outcomes.append(o)
            say(f"   {o.label:<26} {f'{o.files_skipped}/{o.files_total}':>14} "
                f"{o.rows_selected:>14,} {o.rows_returned:>10,} {o.pruned_seconds:>9.2f} "
                f"{o.plain_seconds:>8.2f}  {'yes' if o.equal else 'NO'}")
            say(f"     {o.predicate}")
        say("\n4. COUNT(*) from the indexes (exact answers read no data file) vs plain Spark "
            "count")
        counted = run_count(spark, table_path, demo_count_predicate(rows), catalog_options)
        say(f"   count {counted.count:,} (plain Spark {counted.plain_count:,}): "
            f"{counted.files_from_index}/{counted.files_total} files answered from indexes "
            f"alone, {counted.files_read} read; {counted.count_seconds:.2f} s vs plain "
            f"{counted.plain_seconds:.2f} s  equal {'yes' if counted.equal else 'NO'}")
        say(f"     {counted.predicate}")
        bad = [o.label for o in outcomes if not o.equal]
        if not counted.equal:
            bad.append("COUNT")
        say(f"\n{len(outcomes) + 1 - len(bad)}/{len(outcomes) + 1} queries equal plain Spark; "
            f"demo took {time.monotonic() - total:.1f} s")
        if bad:
            say("DIFFERENT: " + ", ".join(bad))
        return 1 if bad else 0
    finally:
        if owned and not keep:
            shutil.rmtree(warehouse, ignore_errors=True)
        elif keep or not owned:
            say(f"table kept at {table_path}")
