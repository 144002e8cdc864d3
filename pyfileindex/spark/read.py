"""read_table: a predicate -> a DataFrame of exactly the matching rows of a Paimon table.

Planning happens on the driver with the table's file indexes (pyfileindex.paimon's
planner): embedded indexes come with the manifest; when many files keep their index in a
sidecar, those files are evaluated by Spark tasks in parallel on the executors. Each
surviving file is read by one task (files are packed into a few tasks per core) that
opens only that file, takes only the selected
rows, and applies the predicate exactly (an index answer is a superset), so the
DataFrame always equals Spark's own `filter` over the same data. TopN and LIMIT are
applied by Spark on top.
"""

import pickle
import time
from dataclasses import dataclass
from typing import Iterator, List, Optional, Sequence

import pyarrow as pa

from . import tables
from .filters import quoted_name, spark_condition, with_spark_zeros

# Below this many sidecar-indexed files the driver evaluates them itself (threads): a
# Spark task costs a few hundred milliseconds, evaluating one index a few.
DISTRIBUTE_MIN_SIDECARS = 256
# Read tasks per core: surviving files are packed into this many tasks per core, so small
# selections do not pay one Spark task per file.
READ_TASKS_PER_CORE = 2
PLAN_RESULT_DDL = "plans binary"


@dataclass
class ReadResult:
    dataframe: object  # pyspark DataFrame
    plan: object  # pyfileindex.paimon.ReadPlan
    plan_seconds: float

    @property
    def files_skipped(self) -> int:
        return self.plan.files_skipped

    @property
    def files_total(self) -> int:
        return self.plan.files_total

    @property
    def rows_selected(self) -> int:
        return self.plan.rows_selected


def _plan_task(table_path: str, snapshot_id: int, groups_broadcast, bound, top, limit,
               catalog_options: tables.CatalogOptions = None):
    def task(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        from pyfileindex.paimon.planner import SchemaVersions, plan_files
        groups = pickle.loads(groups_broadcast.value)
        meta = tables.open_metadata(table_path, catalog_options)
        current = meta.schema()
        schemas = SchemaVersions(meta, current)
        for batch in batches:
            for group in batch.column(0).to_pylist():
                files = groups[group]
                plans = plan_files(meta, files, current, schemas, bound, top, limit,
                                    True, 4)
                for plan in plans:  # the driver has the DataFile already
                    plan.file = None
                yield pa.RecordBatch.from_arrays(
                    [pa.array([pickle.dumps(plans)], pa.binary())], names=["plans"])
    return task


def plan_table(spark, table_path: str, predicate=None, top_n=None, limit=None,
               distribute_min_sidecars: int = DISTRIBUTE_MIN_SIDECARS,
               catalog_options: tables.CatalogOptions = None):
    """A pyfileindex.paimon.ReadPlan; sidecar indexes are evaluated on the executors
    when at least `distribute_min_sidecars` files have one."""
    from pyfileindex.paimon import plan_read
    from pyfileindex.top_n import TopN
    from pyfileindex.paimon.options import file_index_read_enabled
    from pyfileindex.paimon.plan import FILES, ReadPlan
    from pyfileindex.paimon.planner import (SchemaVersions, cut_after_limit, plan_files,
                                            check_top_n_and_limit, plan_snapshot_files,
                                            table_mode)
    from pyfileindex.paimon.predicates import bind_to_schema

    meta = tables.open_metadata(table_path, catalog_options)
    current = meta.schema()
    bound = bind_to_schema(predicate, current)
    if bound is not None:  # the rows Spark's own filter keeps, -0.0 == 0.0 included
        bound = with_spark_zeros(bound)
    top = TopN.of(top_n)
    plain = (spark is None or current.primary_keys or table_mode(current) != FILES
             or not file_index_read_enabled(current.options)
             or (bound is None and top is None))
    if plain:
        return plan_read(meta, bound, top_n=top_n, limit=limit)
    check_top_n_and_limit(current, top, limit)
    snapshot = meta.snapshot()
    files = meta.data_files(snapshot.id)
    sidecar = [i for i, f in enumerate(files) if meta.index_source(f) == "sidecar"]
    if len(sidecar) < distribute_min_sidecars:  # the driver's own threads: no Spark job
        return plan_snapshot_files(meta, current, bound, top, limit, snapshot, files)
    limit = None if limit is None else int(limit)
    schemas = SchemaVersions(meta, current)
    with_sidecar = set(sidecar)
    on_driver = [i for i in range(len(files)) if i not in with_sidecar]
    plans = [None] * len(files)
    for i, plan in zip(on_driver, plan_files(meta, [files[i] for i in on_driver], current,
                                              schemas, bound, top, limit, True, 4)):
        plans[i] = plan
    sc = spark.sparkContext
    num_groups = min(len(sidecar), 2 * sc.defaultParallelism)
    chunks = [sidecar[g::num_groups] for g in range(num_groups)]
    broadcast = sc.broadcast(pickle.dumps([[files[i] for i in chunk] for chunk in chunks]))
    try:
        rows = spark.range(num_groups, numPartitions=num_groups).mapInArrow(
            _plan_task(meta.path, snapshot.id, broadcast, bound, top, limit, catalog_options),
            PLAN_RESULT_DDL).collect()
    finally:
        broadcast.unpersist()
    # Each group comes back as one row, in task order (one row per task).
    for chunk, row in zip(chunks, rows):
        for i, plan in zip(chunk, pickle.loads(row["plans"])):
            plan.file = files[i]
            plans[i] = plan
    if bound is None and top is None and limit is not None:
        cut_after_limit(plans, limit)
    return ReadPlan(table=meta.table, snapshot_id=snapshot.id, schema=current,
                    predicate=bound, top_n=top, limit=limit, mode=FILES, files=plans)


def _read_task(table_path: str, snapshot_id: int, units_broadcast, columns, out_schema,
               catalog_options: tables.CatalogOptions = None):
    def task(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        from pyfileindex.paimon import read_plan
        from pyfileindex.paimon.plan import ReadPlan
        units, schema, predicate, mode = pickle.loads(units_broadcast.value)
        table = tables.open_table(table_path, catalog_options)
        for batch in batches:
            for task_id in batch.column(0).to_pylist():
                for unit in units[task_id]:
                    plan = ReadPlan(table=table, snapshot_id=snapshot_id, schema=schema,
                                    predicate=predicate, top_n=None, limit=None, mode=mode,
                                    files=unit)
                    data = read_plan(plan, columns, max_workers=1)
                    for piece in data.to_batches(max_chunksize=65536):
                        yield tables.conform_batch(piece, out_schema)
    return task


def _read_units(plan) -> List[list]:
    from pyfileindex.paimon.plan import DATA_EVOLUTION
    if plan.mode != DATA_EVOLUTION:
        return [[f] for f in plan.surviving()]
    groups = {}
    for f in plan.surviving():
        groups.setdefault(f.group, []).append(f)
    return list(groups.values())


def _pack_units(units: List[list], tasks: int) -> List[List[list]]:
    """Units spread over `tasks` tasks, largest first onto the least loaded task (by rows
    to read), each task keeping its units in table order."""
    tasks = max(1, min(tasks, len(units)))
    loads = [0] * tasks
    assignment: List[List[int]] = [[] for _ in range(tasks)]
    order = sorted(range(len(units)), key=lambda i: -sum(f.rows_selected for f in units[i]))
    for i in order:
        target = loads.index(min(loads))
        assignment[target].append(i)
        loads[target] += max(1, sum(f.rows_selected for f in units[i]))
    return [[units[i] for i in sorted(chosen)] for chosen in assignment if chosen]


def _output_schema(plan, columns: Optional[Sequence[str]]) -> pa.Schema:
    from pyfileindex.paimon import _pypaimon
    arrow = _pypaimon.arrow_schema(plan.schema.raw)
    names = list(columns) if columns is not None else arrow.names
    for name in names:
        if name not in arrow.names:
            raise ValueError(f"column {name!r} is not in the table; columns: "
                             f"{', '.join(arrow.names)}")
    return tables.nullable(pa.schema([arrow.field(n) for n in names]))


def _spark_schema(arrow_schema: pa.Schema):
    from pyspark.sql.pandas.types import from_arrow_schema
    return from_arrow_schema(arrow_schema, prefer_timestamp_ntz=True)


def plan_dataframe(spark, table_path: str, plan, columns: Optional[Sequence[str]] = None,
                   num_tasks: Optional[int] = None,
                   catalog_options: tables.CatalogOptions = None):
    """The rows of a ReadPlan's surviving files matching its predicate (no TopN / LIMIT), as
    a DataFrame read by Spark tasks (`num_tasks`, default two per core)."""
    out_schema = _output_schema(plan, columns)
    units = _read_units(plan)
    spark_schema = _spark_schema(out_schema)
    if not units:
        return spark.createDataFrame([], spark_schema)
    sc = spark.sparkContext
    packed = _pack_units(units, num_tasks or READ_TASKS_PER_CORE * sc.defaultParallelism)
    payload = pickle.dumps((packed, plan.schema, plan.predicate, plan.mode))
    broadcast = sc.broadcast(payload)
    names = list(out_schema.names)
    return spark.range(len(packed), numPartitions=len(packed)).mapInArrow(
        _read_task(table_path, plan.snapshot_id, broadcast, names, out_schema,
                   catalog_options),
        spark_schema)


def read_table(spark, table_path: str, predicate=None, columns: Optional[Sequence[str]] = None,
               top_n=None, limit: Optional[int] = None,
               distribute_min_sidecars: int = DISTRIBUTE_MIN_SIDECARS,
               num_tasks: Optional[int] = None,
               catalog_options: tables.CatalogOptions = None) -> ReadResult:
    """The rows of the table matching `predicate` (pyfileindex.predicate tree or SQL-like
    text), then TopN ((column, n[, descending[, nulls_first]])) and LIMIT, as a
    DataFrame; only surviving files and selected rows are read, by `num_tasks` Spark
    tasks (default: two per core). `catalog_options` configure the table's file IO (e.g.
    fs.s3.* for an s3:// table), in every task too."""
    from pyspark.sql import functions as F
    from pyfileindex.paimon.plan import MERGE

    table_path = tables.table_location(table_path)
    start = time.monotonic()
    plan = plan_table(spark, table_path, predicate, top_n, limit, distribute_min_sidecars,
                      catalog_options)
    plan_seconds = time.monotonic() - start
    if plan.mode == MERGE:
        raise NotImplementedError("read_table reads append tables and primary-key tables "
                                  "with deletion vectors")
    df = plan_dataframe(spark, table_path, plan, columns, num_tasks, catalog_options)
    if plan.top_n is not None:
        column = F.col(quoted_name(plan.top_n.column))
        if plan.top_n.descending:
            order = column.desc_nulls_first() if plan.top_n.nulls_first else \
                column.desc_nulls_last()
        else:
            order = column.asc_nulls_first() if plan.top_n.nulls_first else \
                column.asc_nulls_last()
        df = df.orderBy(order).limit(plan.top_n.limit)
    if plan.limit is not None:
        df = df.limit(plan.limit)
    return ReadResult(df, plan, plan_seconds)


def _scan_task(table_path: str, paths_broadcast, out_schema: pa.Schema,
               catalog_options: tables.CatalogOptions = None):
    def task(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        from pyfileindex.paimon.store import read_columns
        paths = pickle.loads(paths_broadcast.value)
        file_io = tables.open_table(table_path, catalog_options).file_io
        for batch in batches:
            for index in batch.column(0).to_pylist():
                data = read_columns(file_io, paths[index], out_schema.names)
                for piece in data.to_batches(max_chunksize=65536):
                    yield tables.conform_batch(piece, out_schema)
    return task


def plain_scan(spark, table_path: str, catalog_options: tables.CatalogOptions = None):
    """Every row of the latest snapshot's data files, no file index: the baseline
    `read_table` is compared with. Append tables written as Parquet. A local table is read
    by Spark's own Parquet reader; a table on an object store (which Spark's reader cannot
    reach without Hadoop's S3 connector) by one task per file through the table's file IO."""
    from pyfileindex.paimon.store import is_object_store
    meta = tables.open_metadata(table_path, catalog_options)
    files = meta.data_files()
    if not files:
        raise ValueError(f"table {table_path} has no data files")
    if any(not f.path.endswith(".parquet") for f in files):
        raise NotImplementedError("plain_scan reads Parquet data files only")
    if not is_object_store(meta.path):
        return spark.read.parquet(*[meta.filesystem_path(f.path) for f in files])
    from pyfileindex.paimon import _pypaimon
    out_schema = tables.nullable(_pypaimon.arrow_schema(meta.table.table_schema))
    sc = spark.sparkContext
    broadcast = sc.broadcast(pickle.dumps([f.path for f in files]))
    return spark.range(len(files), numPartitions=len(files)).mapInArrow(
        _scan_task(meta.path, broadcast, out_schema, catalog_options),
        _spark_schema(out_schema))


def plain_filter(spark, table_path: str, predicate,
                 catalog_options: tables.CatalogOptions = None):
    """plain_scan filtered by Spark with the predicate (a tree or text), bound to the table's
    schema as read_table binds it."""
    from pyfileindex.paimon.predicates import bind_to_schema
    df = plain_scan(spark, table_path, catalog_options)
    if predicate is None:
        return df
    schema = tables.open_metadata(table_path, catalog_options).schema()
    return df.filter(spark_condition(bind_to_schema(predicate, schema), df.schema))
