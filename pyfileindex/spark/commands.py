"""What `pyfileindex spark write|index|query [--count]|pack` and `pyfileindex demo` do; cli.py
only parses arguments and calls these."""

import os
import sys
import time
from typing import Dict, List, Optional, Sequence

READERS = ("parquet", "orc", "json", "csv")


def _session(master: Optional[str], archive: Optional[str], conf: Dict[str, str]):
    from .session import spark_session
    return spark_session(master, "pyfileindex", archive, conf)


def write(table: str, inputs: Sequence[str], input_format: str, options: Dict[str, str],
          partition_keys: Sequence[str], tasks: Optional[int], master: Optional[str],
          archive: Optional[str], conf: Dict[str, str], out=sys.stdout,
          catalog_options: Optional[Dict[str, str]] = None) -> int:
    from .write import write_dataframe
    if input_format not in READERS:
        raise ValueError(f"--format must be one of {', '.join(READERS)}")
    spark = _session(master, archive, conf)
    reader = spark.read
    if input_format == "csv":
        reader = reader.option("header", "true").option("inferSchema", "true")
    df = getattr(reader, input_format)(*inputs)
    result = write_dataframe(df, table, options, partition_keys, tasks,
                             catalog_options=catalog_options)
    print(f"wrote {result.rows:,} rows into {result.files} data files "
          f"({result.bytes / 2**20:.1f} MB) in {result.seconds:.1f} s; snapshot "
          f"{result.snapshot_id}", file=out)
    return 0


def index(table: str, options: Dict[str, str], tasks: Optional[int], master: Optional[str],
          archive: Optional[str], conf: Dict[str, str], out=sys.stdout,
          catalog_options: Optional[Dict[str, str]] = None) -> int:
    from .index import index_table
    spark = _session(master, archive, conf)
    result = index_table(spark, table, options, num_tasks=tasks,
                         catalog_options=catalog_options)
    print(f"{result.files_rewritten}/{result.files_total} data files re-indexed by "
          f"{result.tasks} tasks ({result.bytes_read / 2**20:.1f} MB read) in "
          f"{result.seconds:.1f} s; snapshot {result.snapshot_id}", file=out)
    return 0


def query(table: str, predicate: Optional[str], columns: Optional[List[str]], top_n,
          limit: Optional[int], show: int, output: Optional[str], compare: bool,
          master: Optional[str], archive: Optional[str], conf: Dict[str, str],
          out=sys.stdout, catalog_options: Optional[Dict[str, str]] = None) -> int:
    from pyspark.sql import functions as F

    from .demo import _fingerprint
    from .filters import quoted_name
    from .read import plain_filter, read_table
    spark = _session(master, archive, conf)
    start = time.monotonic()
    result = read_table(spark, table, predicate or None, columns, top_n, limit,
                        catalog_options=catalog_options)
    print(f"plan: {result.plan.summary()} in {result.plan_seconds:.2f} s", file=out)
    df = result.dataframe
    if output:
        df.write.mode("errorifexists").parquet(output)
        print(f"rows written to {output}", file=out)
    else:
        rows = df.take(show + 1) if show >= 0 else df.collect()
        for row in rows[:show] if show >= 0 else rows:
            print("  " + ", ".join(f"{k}={v!r}" for k, v in row.asDict().items()), file=out)
        if show >= 0 and len(rows) > show:
            print(f"  ... (first {show} rows shown)", file=out)
    print(f"query took {time.monotonic() - start:.2f} s", file=out)
    if not compare:
        return 0
    if top_n is not None or limit is not None:
        raise ValueError("--compare checks predicate reads; drop --top-n and --limit")
    plain = plain_filter(spark, table, result.plan.predicate, catalog_options)
    if columns:
        plain = plain.select(*[F.col(quoted_name(c)) for c in columns])
    equal = _fingerprint(df) == _fingerprint(plain)
    print(f"equal to plain Spark filter: {'yes' if equal else 'NO'}", file=out)
    return 0 if equal else 1


def count(table: str, predicate: Optional[str], compare: bool, master: Optional[str],
          archive: Optional[str], conf: Dict[str, str], out=sys.stdout,
          catalog_options: Optional[Dict[str, str]] = None) -> int:
    from .count import count_table
    from .read import plain_filter
    spark = _session(master, archive, conf)
    start = time.monotonic()
    result = count_table(spark, table, predicate or None, catalog_options=catalog_options)
    print(f"count: {result.count}", file=out)
    print(f"  {result.files_from_index}/{result.files_total} files answered from indexes or "
          f"manifests alone ({result.files_skipped} with no matching row), "
          f"{result.files_read} read; {time.monotonic() - start:.2f} s", file=out)
    if not compare:
        return 0
    start = time.monotonic()
    plain = plain_filter(spark, table, predicate or None, catalog_options).count()
    equal = plain == result.count
    print(f"plain Spark count: {plain} in {time.monotonic() - start:.2f} s; equal: "
          f"{'yes' if equal else 'NO'}", file=out)
    return 0 if equal else 1


def pack(output: str, out=sys.stdout) -> int:
    from .packing import pack_environment
    start = time.monotonic()
    path = pack_environment(output, force=True)
    print(f"packed {sys.prefix} into {path} ({os.path.getsize(path) / 2**20:.0f} MB) in "
          f"{time.monotonic() - start:.1f} s; use --archive {path}", file=out)
    return 0


def demo(rows: int, files: int, master: Optional[str], warehouse: Optional[str],
         keep: bool, archive: Optional[str],
         catalog_options: Optional[Dict[str, str]] = None) -> int:
    from .demo import run_demo
    return run_demo(rows, files, master, warehouse, keep, archive,
                    catalog_options=catalog_options)
