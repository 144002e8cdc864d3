"""index_table: rewrite_file_index distributed over Spark executors.

The driver lists the live data files of the latest snapshot (optionally only some
partitions) and splits them into groups; one Spark task per group reads its files'
indexed columns and builds their indexes natively under the table's current options.
The task stores each changed index itself (a new sidecar named with the task attempt's
own random token, temporary name then a rename that never replaces a file; one complete
object on an object store) and returns only small rows: the embedded bytes or the
sidecar's name. The driver commits one COMPACT snapshot. Sidecars of a failed commit are
deleted; a task attempt that fails in Python deletes its own; one that dies, or whose
result Spark discards, leaves unreferenced sidecars (remove_orphan_index_files).
"""

import pickle
import time
from dataclasses import dataclass
from typing import Iterator, List, Mapping, Optional, Sequence

import pyarrow as pa

from pyfileindex._deprecation import deprecated_names

from . import tables
from .progress import Counters, Progress

RESULT_SCHEMA = pa.schema([("position", pa.int64()), ("changed", pa.bool_()),
                           ("embedded", pa.binary()), ("sidecar", pa.string()),
                           ("size", pa.int64())])
RESULT_DDL = "position bigint, changed boolean, embedded binary, sidecar string, size bigint"


@dataclass
class IndexTableSummary:
    """What one index_table run did (not an index answer: that is pyfileindex.IndexResult)."""

    snapshot_id: Optional[int]  # the COMPACT snapshot; None when no index changed
    files_total: int
    files_rewritten: int
    tasks: int
    bytes_read: int
    index_bytes: int
    seconds: float


def _index_task(table_path: str, groups_broadcast, counters: Optional[Counters],
                pause_per_file: float, catalog_options: tables.CatalogOptions = None):
    def task(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        from pyfileindex.paimon.rewrite import delete_files, new_run_token
        from pyfileindex.paimon.writer import FileIndexSpec
        from pyfileindex.spark.worker_memory import keep_freed_heap
        keep_freed_heap()  # one file's scratch serves the next without fresh page faults
        groups = pickle.loads(groups_broadcast.value)
        meta = tables.open_metadata(table_path, catalog_options)
        threshold = FileIndexSpec.for_schema(meta.schema()).threshold
        published: List[str] = []
        # Each task attempt names its sidecars with its own token: a retried or
        # speculative attempt of the same group never takes (or deletes) another's.
        run_token = new_run_token()
        try:
            for batch in batches:
                for group in batch.column(0).to_pylist():
                    yield _index_group(meta, groups[group], threshold, published, counters,
                                       pause_per_file, run_token)
        except BaseException:
            delete_files(meta.table.file_io, published)
            raise
    return task


def _index_group(meta, group, threshold: int, published: List[str],
                 counters: Optional[Counters], pause_per_file: float,
                 run_token: str) -> pa.RecordBatch:
    from pyfileindex.paimon.rewrite import rebuild_and_store
    columns = {name: [] for name in RESULT_SCHEMA.names}
    for position, data_file in group:
        stored = rebuild_and_store(meta, data_file, threshold, published, run_token)
        columns["position"].append(position)
        columns["changed"].append(stored is not None)
        columns["embedded"].append(None if stored is None else stored.embedded)
        columns["sidecar"].append(None if stored is None else stored.sidecar)
        columns["size"].append(0 if stored is None else stored.size)
        if counters is not None:
            counters.files.add(1)
            counters.rows.add(data_file.row_count)
            counters.bytes.add(data_file.file_size)
        if pause_per_file:
            time.sleep(pause_per_file)
    return pa.RecordBatch.from_pydict(columns, schema=RESULT_SCHEMA)


def _stored(row):
    from pyfileindex.paimon.rewrite import StoredIndex
    embedded = row["embedded"]
    # Spark returns BINARY as bytearray; the commit hashes the entry's embedded index.
    return StoredIndex(None if embedded is None else bytes(embedded), row["sidecar"],
                       row["size"])


def _groups(files: Sequence, num_tasks: int) -> List[List]:
    """Contiguous groups of (position, file), balanced by bytes."""
    num_tasks = max(1, min(num_tasks, len(files)))
    target = sum(f.file_size for f in files) / num_tasks
    groups, current, size = [], [], 0
    for position, f in enumerate(files):
        current.append((position, f))
        size += f.file_size
        if size >= target and len(groups) < num_tasks - 1:
            groups.append(current)
            current, size = [], 0
    if current:
        groups.append(current)
    return groups


def index_table(spark, table_path: str, options: Optional[Mapping[str, str]] = None,
                partitions: Optional[Sequence[Mapping]] = None, where=None,
                num_tasks: Optional[int] = None, progress: bool = True,
                pause_per_file: float = 0.0,
                catalog_options: tables.CatalogOptions = None) -> IndexTableSummary:
    """Rebuild the file indexes of the table at `table_path` on the executors and commit
    them once. `options` are set on the table first (e.g. new `file-index.*`
    declarations). `num_tasks` defaults to the number of files, at most four times
    Spark's default parallelism. `pause_per_file` slows tasks down (failure tests).
    `catalog_options` configure the table's file IO, in every task too."""
    from pyfileindex.paimon.rewrite import commit_rebuilt, files_to_rebuild

    table_path = tables.table_location(table_path)
    if options:
        tables.set_table_options(table_path, options, catalog_options)
    meta = tables.open_metadata(table_path, catalog_options)
    snapshot, files = files_to_rebuild(meta, partitions, where)
    sc = spark.sparkContext
    tasks = num_tasks or min(len(files), 4 * sc.defaultParallelism)
    groups = _groups(files, tasks) if files else []
    counters = Counters(sc)
    with Progress(sc, "index", counters, enabled=progress) as watch:
        rows = []
        if groups:
            broadcast = sc.broadcast(pickle.dumps(groups))
            ids = spark.range(len(groups), numPartitions=len(groups))
            rows = ids.mapInArrow(_index_task(table_path, broadcast, counters,
                                              pause_per_file, catalog_options),
                                  RESULT_DDL).collect()
            broadcast.unpersist()
        rebuilt = [(files[r["position"]], _stored(r))
                   for r in sorted(rows, key=lambda r: r["position"]) if r["changed"]]
        published = [data_file.meta.aligned_file_path(stored.sidecar)
                     for data_file, stored in rebuilt if stored.sidecar is not None]
        snapshot_id = commit_rebuilt(meta, snapshot.id, rebuilt, published)
    return IndexTableSummary(snapshot_id, len(files), len(rebuilt), len(groups),
                             sum(f.file_size for f in files),
                             sum(stored.size for _, stored in rebuilt), watch.seconds)


# The summary was called IndexResult, the name of an index's answer too.
__getattr__ = deprecated_names("pyfileindex.spark", {"IndexResult": ("IndexTableSummary",
                                                                     IndexTableSummary)})
