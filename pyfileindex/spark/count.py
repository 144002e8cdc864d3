"""count_table: COUNT(*) [WHERE predicate] of a Paimon table on Spark, from the file indexes
where they tell it exactly.

The driver asks the manifests and the file indexes (pyfileindex.paimon.count's
count_from_indexes: an exact count per file from bitmap, range-bitmap and bsi answers with
deletion vectors applied, 0 for a SKIP, the manifest's row count without a predicate). Those
answers are cheap (index bytes only, on the driver's threads, the GIL released), so they are
not sent to executors; the files left (REMAIN, a bloom filter's maybe, no index) are planned
with their indexes' row selections and read by Spark tasks as read_table reads, and their
matching rows counted by Spark. The predicate is bound as read_table binds it (Spark's -0.0
== 0.0), so the count equals Spark's own `filter(...).count()` over the same data.
"""

from typing import Optional

from . import tables
from .filters import with_spark_zeros


def count_table(spark, table_path: str, predicate=None, num_tasks: Optional[int] = None,
                catalog_options: tables.CatalogOptions = None):
    """A pyfileindex.paimon.CountResult: COUNT(*) of the table's rows matching `predicate`
    (pyfileindex.predicate tree or SQL-like text; None: every row)."""
    from pyfileindex.paimon.count import CountResult, count_columns, count_from_indexes
    from pyfileindex.paimon.plan import MERGE
    from pyfileindex.paimon.planner import plan_snapshot_files
    from pyfileindex.paimon.predicates import bind_to_schema

    from .read import plan_dataframe

    table_path = tables.table_location(table_path)
    meta = tables.open_metadata(table_path, catalog_options)
    current = meta.schema()
    bound = bind_to_schema(predicate, current)
    if bound is not None:
        bound = with_spark_zeros(bound)
    snapshot = meta.snapshot()
    counts = count_from_indexes(meta, current, bound, None, snapshot)
    read_count = files_read = read_skipped = 0
    if counts.to_read:
        plan = plan_snapshot_files(meta, current, bound, None, None, snapshot, counts.to_read)
        if plan.mode == MERGE:
            raise NotImplementedError("count_table counts append tables and primary-key "
                                      "tables with deletion vectors")
        files_read, read_skipped = plan.files_read, plan.files_skipped
        if files_read:
            df = plan_dataframe(spark, table_path, plan, count_columns(current, bound),
                                num_tasks, catalog_options)
            read_count = df.count()
    return CountResult(count=counts.count + read_count, files_total=counts.files_total,
                       files_from_index=counts.files_total - files_read,
                       files_skipped=counts.files_skipped + read_skipped,
                       files_read=files_read, mode=counts.mode)
