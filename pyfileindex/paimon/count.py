"""count_rows: COUNT(*) [WHERE predicate] of a table, from the file indexes where they can tell.

Per live data file (the files a batch read sees, as plan_read picks them):

* no predicate: the manifest's row count less the deletion vector's cardinality; nothing
  is read;
* a predicate: the file's index is asked for an exact count of the live rows
  (IndexReader.count, deletion vector excluded natively). Bitmap, range-bitmap and bsi
  answers are exact, and any SKIP is an exact 0; a REMAIN, a bloom filter's maybe or an
  answer the index cannot make exact (FLOAT / DOUBLE comparisons, ...) leaves the file to
  be read;
* the files left are planned and read as read_plan reads them (the index's row selection,
  the table's file IO, the exact filter) and their rows counted.

A count from an index is only used where the index holds what the read would filter on:
the file has the query's whole predicate (no leaf dropped by schema evolution), it is
under 2^31 rows with a 32-bit deletion vector, and for a primary-key table it holds no
retraction rows (the manifest's delete count is 0). Primary-key tables without deletion
vectors and data-evolution tables are read (merged / stitched rows have no per-file count).

`count_from_indexes` is the index part alone; the Spark helper (pyfileindex.spark.count)
reads the files it leaves on the executors.
"""

from dataclasses import dataclass
from typing import List, Optional, Tuple

from pyfileindex import IndexReader, RowCountMismatchError
from pyfileindex.predicate import Leaf, Predicate

from .evaluator import MAX_INT_ROWS
from .index_bytes import load_index
from .manifest import DataFile
from .file_pool import map_files
from .options import file_index_read_enabled
from .planner import (
    DEFAULT_MAX_WORKERS,
    SchemaVersions,
    bind_for_indexes,
    columns_asked,
    plan_snapshot_files,
    table_mode,
)
from .plan import FILES
from .predicates import PredicateLike, base_columns, translate_to_file
from .table import open_metadata


@dataclass(frozen=True)
class CountResult:
    """COUNT(*) of a table, with how each live data file was answered.

    `files_from_index` counts the files answered without reading data: an exact count from
    the file index, a SKIP, or (no predicate) the manifest's row count; `files_read` the
    files whose rows were read and counted. `files_skipped` (a part of `files_from_index`)
    are the files an index said no row of can match.
    """

    count: int
    files_total: int
    files_from_index: int
    files_skipped: int
    files_read: int
    mode: str

    def __int__(self) -> int:
        return self.count

    def summary(self) -> str:
        return (f"{self.count} rows; {self.files_from_index}/{self.files_total} files answered "
                f"from indexes or metadata ({self.files_skipped} skipped), "
                f"{self.files_read} read ({self.mode})")


def _leaf_count(node: Optional[Predicate]) -> int:
    if node is None:
        return 0
    if isinstance(node, Leaf):
        return 1
    return sum(_leaf_count(child) for child in node.children)


def countable_from_indexes(data_file: DataFile, primary_keys: bool) -> bool:
    """Can rows of this file be counted without reading it (given an exact index answer)?"""
    dv = data_file.deletion_vector
    if data_file.row_count > MAX_INT_ROWS or (dv is not None and dv.is_64bit):
        return False
    # A primary-key file may hold retraction rows, which a read drops.
    return not primary_keys or data_file.delete_row_count == 0


def _live_count(data_file: DataFile) -> int:
    dv = data_file.deletion_vector
    return data_file.row_count - (dv.cardinality if dv is not None else 0)


@dataclass
class IndexCounts:
    """What the indexes and manifests answered of a COUNT: rows counted, files answered
    (`files_skipped` of them matched no row), and the live files left to read."""

    count: int
    files_total: int
    files_answered: int
    files_skipped: int
    to_read: List[DataFile]
    mode: str


def count_from_indexes(meta, current, bound: Optional[Predicate], exact_filter, snapshot,
                       max_workers: int = DEFAULT_MAX_WORKERS) -> IndexCounts:
    """The part of a COUNT the manifests and file indexes answer exactly; `to_read` are the
    live files whose rows must be read and counted (all of them for merged tables)."""
    files = meta.data_files(snapshot.id)
    mode = table_mode(current)
    if mode != FILES:
        return IndexCounts(0, len(files), 0, 0, files, mode)
    primary_keys = bool(current.primary_keys)
    if primary_keys:
        files = [f for f in files if f.level > 0]  # as plan_read: Java's batch scan
    has_predicate = bound is not None or exact_filter is not None

    if not has_predicate:
        answers = [(_live_count(f) if countable_from_indexes(f, primary_keys) else None, False)
                   for f in files]
    elif bound is None or not file_index_read_enabled(current.options):
        answers = [(None, False)] * len(files)
    else:
        schemas = SchemaVersions(meta, current)
        for f in files:
            schemas.get(f.schema_id)
        leaves = _leaf_count(bound)

        def ask(data_file: DataFile) -> Tuple[Optional[int], bool]:
            if not countable_from_indexes(data_file, primary_keys):
                return None, False
            file_schema = schemas.get(data_file.schema_id)
            file_predicate = translate_to_file(bound, current, file_schema)
            if file_predicate is None or _leaf_count(file_predicate) != leaves:
                return None, False  # a leaf the file's index cannot be asked
            data, _ = load_index(meta.table, data_file, set(file_predicate.columns()))
            if data is None:
                return None, False
            dv = data_file.deletion_vector
            try:
                reader = IndexReader(data, columns_asked(file_schema, file_predicate),
                                     data_file.row_count)
                counted = reader.count(file_predicate,
                                       exclude=dv.bitmap if dv is not None and dv.cardinality
                                       else None)
            except RowCountMismatchError:
                return None, False  # as planning does: the index is not used
            # With leaves no index answers (a pypaimon filter), only "none match" is exact.
            if counted is not None and exact_filter is not None and counted != 0:
                return None, False
            return counted, counted == 0

        answers = map_files(ask, files, max_workers)

    answered = [n for n, _ in answers if n is not None]
    return IndexCounts(count=sum(answered), files_total=len(files),
                       files_answered=len(answered),
                       files_skipped=sum(1 for n, zero in answers if n is not None and zero),
                       to_read=[f for f, (n, _) in zip(files, answers) if n is None],
                       mode=mode)


def count_rows(table, predicate: PredicateLike = None, snapshot_id: Optional[int] = None,
               max_workers: int = DEFAULT_MAX_WORKERS) -> CountResult:
    """COUNT(*) of `table` (path, pypaimon table or PaimonTableMetadata) WHERE `predicate`
    (a pyfileindex.predicate tree, SQL-like text or a pypaimon Predicate, on the current
    schema), exact, reading only the data files no index or manifest count answers."""
    meta = open_metadata(table)
    current = meta.schema()
    bound, exact_filter = bind_for_indexes(predicate, current)
    snapshot = meta.snapshot(snapshot_id)
    counts = count_from_indexes(meta, current, bound, exact_filter, snapshot, max_workers)
    read_count, read_skipped, files_read = _read_and_count(
        meta, current, bound, exact_filter, snapshot, counts.to_read, max_workers)
    return CountResult(count=counts.count + read_count, files_total=counts.files_total,
                       files_from_index=counts.files_total - files_read,
                       files_skipped=counts.files_skipped + read_skipped,
                       files_read=files_read, mode=counts.mode)


def _read_and_count(meta, current, bound, exact_filter, snapshot, files: List[DataFile],
                    max_workers: int) -> Tuple[int, int, int]:
    """(rows counted, files the plan skipped, files read) of `files`, read as read_plan does."""
    if not files:
        return 0, 0, 0
    from .reader import read_plan

    plan = plan_snapshot_files(meta, current, bound, None, None, snapshot, files, max_workers)
    plan.exact_filter = exact_filter
    data = read_plan(plan, columns=count_columns(current, bound), max_workers=max_workers)
    return data.num_rows, plan.files_skipped, plan.files_read


def count_columns(current, bound) -> List[str]:
    # The fewest columns a read can count rows with: the predicate's, or the first one.
    columns = base_columns(bound)
    return columns if columns else [current.fields[0].name]
