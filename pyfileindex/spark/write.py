"""write_dataframe: a Spark DataFrame -> an append Paimon table with file indexes.

Each Spark task (mapInArrow, so rows stay in Arrow batches) opens the table with pypaimon
and writes its rows through pyfileindex's indexing table write: every data file gets its
index built natively from the same rows in the same order. A task returns its pypaimon
commit messages, pickled, as one binary row; the driver commits them all at once.

Retries are safe: a task attempt writes files under fresh names, and nothing references
them until the driver's single commit, which takes each Spark partition's messages from
exactly one successful attempt. An attempt that fails in Python deletes its files; one
that dies leaves unreferenced files (Paimon's orphan cleanup removes them).
"""

import pickle
from dataclasses import dataclass
from typing import Iterator, Mapping, Optional, Sequence

import pyarrow as pa

from . import tables
from .progress import Counters, Progress

RESULT_SCHEMA = pa.schema([("messages", pa.binary()), ("rows", pa.int64()),
                           ("files", pa.int64()), ("bytes", pa.int64())])
RESULT_DDL = "messages binary, rows bigint, files bigint, bytes bigint"


@dataclass
class WriteResult:
    snapshot_id: Optional[int]
    rows: int
    files: int
    bytes: int
    seconds: float


def _write_task(table_path: str, counters: Optional[Counters], names: Sequence[str],
                catalog_options: tables.CatalogOptions = None):
    def task(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        from pyfileindex.paimon.writer import new_indexed_write
        from pyfileindex.spark.worker_memory import keep_freed_heap
        keep_freed_heap()  # one file's scratch serves the next without fresh page faults
        table = tables.open_table(table_path, catalog_options)
        target = tables.table_arrow_schema(table)
        write, commit = new_indexed_write(table)
        rows = 0
        try:
            try:
                for batch in batches:
                    if batch.num_rows:
                        batch = pa.RecordBatch.from_arrays(batch.columns, names=names)
                        write.write_arrow_batch(tables.conform_batch(batch, target))
                        rows += batch.num_rows
                messages = write.prepare_commit()
            except BaseException:
                write.abort()
                raise
        finally:
            write.close()
            commit.close()
        files = [f for m in messages for f in m.new_files]
        size = sum(int(f.file_size) for f in files)
        if counters is not None:
            counters.rows.add(rows)
            counters.files.add(len(files))
            counters.bytes.add(size)
        yield pa.RecordBatch.from_arrays(
            [pa.array([pickle.dumps(messages)], pa.binary()), pa.array([rows], pa.int64()),
             pa.array([len(files)], pa.int64()), pa.array([size], pa.int64())],
            schema=RESULT_SCHEMA)
    return task


def _arrow_schema_of(df) -> pa.Schema:
    from pyspark.sql.pandas.types import to_arrow_schema
    schema = to_arrow_schema(df.schema)
    # Spark's TIMESTAMP (with local time zone) reaches Arrow as UTC instants.
    return pa.schema([f.with_type(pa.timestamp(f.type.unit)) if
                      pa.types.is_timestamp(f.type) and f.type.tz else f for f in schema])


def write_dataframe(df, table_path: str, options: Optional[Mapping[str, str]] = None,
                    partition_keys: Sequence[str] = (), num_tasks: Optional[int] = None,
                    progress: bool = True,
                    catalog_options: tables.CatalogOptions = None) -> WriteResult:
    """Append the rows of `df` to the Paimon table at `table_path` (created with `options`
    and `partition_keys` when it does not exist) and commit once. `num_tasks` repartitions
    the DataFrame first (each task writes at least one data file). `catalog_options`
    configure the table's file IO (e.g. fs.s3.* for an s3:// table), in every task too."""
    table_path = tables.table_location(table_path)
    if not tables.table_exists(table_path, catalog_options):
        tables.create_table(table_path, _arrow_schema_of(df), options, partition_keys,
                            catalog_options)
    elif options:
        tables.set_table_options(table_path, options, catalog_options)
    if num_tasks is not None:
        df = df.repartition(int(num_tasks))
    # mapInArrow resolves each column by its unquoted name, which fails for names with a
    # dot ("a.b" reads as field b of a): the task sees positional names and restores these.
    names = list(df.columns)
    df = df.toDF(*[f"_{i}" for i in range(len(names))])
    sc = df.sparkSession.sparkContext
    counters = Counters(sc)
    with Progress(sc, "write", counters, enabled=progress) as watch:
        results = df.mapInArrow(_write_task(table_path, counters, names, catalog_options),
                                RESULT_DDL).collect()
        messages = [m for r in results for m in pickle.loads(r["messages"])]
        snapshot_id = commit_messages(table_path, messages, catalog_options)
    return WriteResult(snapshot_id, sum(r["rows"] for r in results),
                       sum(r["files"] for r in results), sum(r["bytes"] for r in results),
                       watch.seconds)


def commit_messages(table_path: str, messages,
                    catalog_options: tables.CatalogOptions = None) -> Optional[int]:
    """Commit every task's messages in one snapshot; on failure delete the files only
    if the commit certainly did not land."""
    from pyfileindex.paimon import _pypaimon_write
    table = tables.open_table(table_path, catalog_options)
    if not any(m.new_files for m in messages):
        return None
    commit = table.new_batch_write_builder().new_commit()
    try:
        return _pypaimon_write.commit_or_abort(table, commit, messages)
    finally:
        commit.close()
