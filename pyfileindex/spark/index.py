"""index_table: rewrite_file_index distributed over Spark executors.

The driver lists the live data files of the latest snapshot (optionally only some
partitions) and splits them into groups; one Spark task per group reads its files and
builds their indexes natively under the table's current options, returning the index
bytes (never writing anything, so a task attempt that dies leaves nothing behind). The
driver stores each changed index as pyfileindex.paimon.rewrite does (embedded, or a new
sidecar under a name no snapshot uses) and commits one COMPACT snapshot.
"""

import os
import pickle
import time
import uuid
from dataclasses import dataclass
from typing import Iterator, List, Mapping, Optional, Sequence

import pyarrow as pa

from . import tables
from .progress import Counters, Progress

RESULT_SCHEMA = pa.schema([("position", pa.int64()), ("changed", pa.bool_()),
                           ("index", pa.binary())])
RESULT_DDL = "position bigint, changed boolean, index binary"


@dataclass
class IndexResult:
    snapshot_id: Optional[int]  # the COMPACT snapshot; None when no index changed
    files_total: int
    files_rewritten: int
    tasks: int
    bytes_read: int
    index_bytes: int
    seconds: float


def _index_task(table_path: str, groups_broadcast, counters: Optional[Counters],
                pause_per_file: float):
    def task(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        from pyfileindex.paimon import PaimonTableMetadata
        from pyfileindex.paimon.rewrite import _placed_as, build_file_index
        from pyfileindex.paimon.writer import FileIndexSpec
        groups = pickle.loads(groups_broadcast.value)
        meta = PaimonTableMetadata(table_path)
        threshold = FileIndexSpec.for_schema(meta.schema()).threshold
        for batch in batches:
            for group in batch.column(0).to_pylist():
                positions, changed, indexes = [], [], []
                for position, data_file in groups[group]:
                    index = build_file_index(meta, data_file)
                    same = (index == meta.index_bytes(data_file)
                            and _placed_as(data_file, index, threshold))
                    positions.append(position)
                    changed.append(not same)
                    indexes.append(None if same else index)
                    if counters is not None:
                        counters.files.add(1)
                        counters.rows.add(data_file.row_count)
                        counters.bytes.add(data_file.file_size)
                    if pause_per_file:
                        time.sleep(pause_per_file)
                yield pa.RecordBatch.from_arrays(
                    [pa.array(positions, pa.int64()), pa.array(changed, pa.bool_()),
                     pa.array(indexes, pa.binary())], schema=RESULT_SCHEMA)
    return task


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
                pause_per_file: float = 0.0) -> IndexResult:
    """Rebuild the file indexes of the table at `table_path` on the executors and commit
    them once. `options` are set on the table first (e.g. new `file-index.*`
    declarations). `num_tasks` defaults to the number of files, at most four times
    Spark's default parallelism. `pause_per_file` slows tasks down (failure tests)."""
    from pyfileindex.paimon import PaimonTableMetadata, _pypaimon_write
    from pyfileindex.paimon.rewrite import _new_meta, _partition_filter
    from pyfileindex.paimon.writer import FileIndexSpec

    table_path = os.path.abspath(os.fspath(table_path))
    if options:
        tables.set_table_options(table_path, options)
    meta = PaimonTableMetadata(table_path)
    current = meta.schema()
    if str(current.options.get("data-evolution.enabled", "false")).lower() == "true":
        raise NotImplementedError("index_table does not support data-evolution tables")
    snapshot = meta.snapshot()
    accept = _partition_filter(current, partitions, where)
    files = [f for f in meta.data_files(snapshot.id, with_deletion_vectors=False)
             if accept(f.partition)]
    sc = spark.sparkContext
    tasks = num_tasks or min(len(files), 4 * sc.defaultParallelism)
    groups = _groups(files, tasks) if files else []
    counters = Counters(sc)
    with Progress(sc, "index", counters, enabled=progress) as watch:
        rebuilt = []
        if groups:
            broadcast = sc.broadcast(pickle.dumps(groups))
            ids = spark.range(len(groups), numPartitions=len(groups))
            rows = ids.mapInArrow(_index_task(table_path, broadcast, counters,
                                              pause_per_file), RESULT_DDL).collect()
            broadcast.unpersist()
            rebuilt = sorted((r["position"], r["index"]) for r in rows if r["changed"])
        threshold = FileIndexSpec.for_schema(current).threshold
        new_sidecars: List[str] = []
        changes = []
        commit_user = str(uuid.uuid4())
        try:
            for position, index in rebuilt:
                data_file = files[position]
                new = _new_meta(meta, data_file, index, threshold, new_sidecars)
                changes.append((data_file.partition_values, data_file.bucket,
                                data_file.total_buckets, data_file.meta, new))
            if changes:
                _pypaimon_write.commit_compact(meta.table, commit_user, changes)
        except BaseException:
            landed = changes and _pypaimon_write.snapshot_committed_by(
                meta.table, commit_user, snapshot.id) is not None
            if not landed:
                for path in new_sidecars:
                    meta.table.file_io.delete_quietly(path)
            raise
    snapshot_id = None
    if changes:
        snapshot_id = _pypaimon_write.snapshot_committed_by(meta.table, commit_user, snapshot.id)
    return IndexResult(snapshot_id, len(files), len(changes), len(groups),
                       sum(f.file_size for f in files),
                       sum(len(i) for _, i in rebuilt if i is not None), watch.seconds)
