"""pypaimon read builders pruned with file indexes: `prune` and `enable`.

A pypaimon user reads with `builder = table.new_read_builder().with_filter(p)...`,
`splits = builder.new_scan().plan().splits()` and `builder.new_read().to_arrow(splits)`.
`prune(builder)` returns the same kind of splits with the data files the indexes rule out
removed, and, where pypaimon's file-by-file reader can take them, the rows the indexes
select carried as row ranges (IndexedSplit, as pypaimon's global indexes do). pypaimon's
reader still applies the builder's filter, projection, limit and deletion vectors, so the
result is its unpruned result.

What is pruned:

* the splits are pypaimon's own plan (partition filter, buckets and stats already applied);
* append tables and primary-key tables with deletion vectors: each file as plan_read
  evaluates it, deletion vectors included; row ranges for ROWS answers;
* data-evolution tables: row-id groups the indexes rule out are dropped whole, and the
  rows they select are carried as row-id ranges;
* primary-key tables without deletion vectors: nothing (rows merge across files).
"""

from collections import namedtuple
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import _pypaimon, _pypaimon_read
from .deletion_vectors import DeletionVector, decode_deletion_vector
from .evaluator import ROWS
from .manifest import DataFile, data_file_from_meta
from .plan import MERGE, FilePlan, ReadPlan
from .planner import DEFAULT_MAX_WORKERS, plan_snapshot_files, table_mode
from .pypaimon_predicates import index_predicate
from .table import PaimonTableMetadata

# pypaimon's reader turns every row range into a batch of its own, and a batch costs more
# than reading a few thousand rows its filter then drops: selected rows closer than
# RANGE_GAP_ROWS are read as one range. A file whose ranges would then still cover more
# than MAX_RANGE_SHARE of its rows, or number more than MAX_RANGES_PER_FILE, is read whole
# (pypaimon's filter pushdown into Parquet does the rest).
RANGE_GAP_ROWS = 4096
MAX_RANGE_SHARE = 0.5
MAX_RANGES_PER_FILE = 64

_Snapshot = namedtuple("_Snapshot", "id")
FileKey = Tuple[tuple, int, str]  # (partition values, bucket, file name)


class PrunedSplits(list):
    """The surviving pypaimon splits (a list, to hand to `new_read().to_arrow` etc.),
    with `plan`: the ReadPlan of the files evaluated (None when nothing was evaluated)."""

    def __init__(self, splits, plan: Optional[ReadPlan] = None, reason: str = ""):
        super().__init__(splits)
        self.plan = plan
        self.reason = reason

    @property
    def files_skipped(self) -> int:
        return 0 if self.plan is None else self.plan.files_skipped

    @property
    def rows_selected(self) -> Optional[int]:
        return None if self.plan is None else self.plan.rows_selected

    def summary(self) -> str:
        if self.plan is None:
            return f"not pruned: {self.reason}"
        return self.plan.summary()


def prune(read_builder, splits: Optional[Sequence] = None,
          max_workers: int = DEFAULT_MAX_WORKERS) -> PrunedSplits:
    """The splits of `read_builder` (pypaimon's `ReadBuilder`) that its filter can match,
    pruned with the tables' file indexes; `splits` defaults to pypaimon's own plan.

    Read the result with `read_builder.new_read()` as usual (to_arrow, to_pandas,
    to_duckdb, to_ray, ...): the rows are those of the unpruned read.
    """
    if not _pypaimon_read.is_read_builder(read_builder):
        raise TypeError("prune expects a pypaimon ReadBuilder (table.new_read_builder()), "
                        f"got {type(read_builder).__name__}")
    table = _pypaimon_read.builder_table(read_builder)
    splits = list(_pypaimon_read.scan_splits(read_builder) if splits is None else splits)
    predicate = _pypaimon_read.builder_predicate(read_builder)
    if predicate is None:
        return PrunedSplits(splits, reason="the read builder has no filter")
    meta = PaimonTableMetadata(table=table)
    current = meta.schema()
    if table_mode(current) == MERGE:
        return PrunedSplits(splits, reason="primary keys without deletion vectors merge rows "
                                           "across files")
    # pypaimon's reader filters the surviving rows itself, with its own float semantics.
    bound = index_predicate(predicate, current, pypaimon_reader=True)
    if bound is None:
        return PrunedSplits(splits, reason="no index can answer the filter")
    prunable = [s for s in splits if _pypaimon_read.is_data_split(s)]
    files = _data_files(meta, prunable)
    plan = plan_snapshot_files(meta, current, bound, None, None,
                               _Snapshot(_pypaimon_read.snapshot_id_of(splits)),
                               list(files.values()), max_workers)
    by_key = {_key_of(p.file): p for p in plan.files}
    out = []
    for split in splits:
        if not _pypaimon_read.is_data_split(split):
            out.append(split)  # e.g. already an IndexedSplit: left as it is
            continue
        pruned = _prune_split(table, split, by_key)
        if pruned is not None:
            out.append(pruned)
    return PrunedSplits(out, plan)


def _key_of(data_file: DataFile) -> FileKey:
    return data_file.partition_values, data_file.bucket, data_file.file_name


def _data_files(meta: PaimonTableMetadata, splits) -> Dict[FileKey, DataFile]:
    """Every file of the splits as a DataFile with its deletion vector."""
    table = meta.table
    files: Dict[FileKey, DataFile] = {}
    buffers: Dict[str, bytes] = {}
    for split in splits:
        buckets = _pypaimon_read.total_buckets(split)
        for file_meta, deletion_file in zip(split.files, _pypaimon_read.deletion_files(split)):
            data_file = data_file_from_meta(table, split.partition, split.bucket, buckets,
                                            file_meta,
                                            _pypaimon_read.resolved_file_path(file_meta))
            if deletion_file is not None:
                data_file.deletion_vector = _deletion_vector(table, deletion_file, buffers)
            files[_key_of(data_file)] = data_file
    return files


def _deletion_vector(table, deletion_file, buffers: Dict[str, bytes]) -> DeletionVector:
    path, offset, length = _pypaimon_read.deletion_file_location(deletion_file)
    if path not in buffers:
        buffers[path] = _pypaimon.read_file_bytes(table, path)
    return decode_deletion_vector(buffers[path], offset, length)


def _prune_split(table, split, by_key: Dict[FileKey, FilePlan]):
    partition = tuple(_pypaimon.partition_dict(split.partition).values())
    plans = [by_key.get((partition, split.bucket, f.file_name)) for f in split.files]
    kept = {f.file_name for f, p in zip(split.files, plans) if p is None or not p.skipped}
    if not kept:
        return None
    pruned = split if len(kept) == len(split.files) else _pypaimon_read.keep_files(split, kept)
    kept_plans = [p for f, p in zip(split.files, plans) if f.file_name in kept]
    if _pypaimon_read.is_data_evolution(table):
        ranges = _row_id_group_ranges(pruned.files, kept_plans)
    elif _pypaimon_read.reads_files_one_by_one(table, pruned):
        ranges = _row_ranges(table, pruned.files, kept_plans)
    else:
        ranges = None
    return pruned if ranges is None else _pypaimon_read.with_row_ranges(pruned, ranges)


def _row_id_group_ranges(files, plans: List[Optional[FilePlan]]
                         ) -> Optional[List[Tuple[int, int]]]:
    """Row-id ranges of a data-evolution split: each row-id group's selected rows (all
    files of a group share the group's answer), or None when no group has a selective
    answer worth carrying."""
    groups: Dict[Tuple[int, int], Optional[List[Tuple[int, int]]]] = {}
    for file_meta, plan in zip(files, plans):
        if file_meta.first_row_id is None:
            return None
        key = (int(file_meta.first_row_id), int(file_meta.row_count))
        if key not in groups or groups[key] is None:
            groups[key] = _file_ranges(plan)
    if all(r is None for r in groups.values()):
        return None
    ranges: List[Tuple[int, int]] = []
    for (first, count), group_ranges in sorted(groups.items()):
        if group_ranges is None:
            group_ranges = [(0, count - 1)] if count else []
        ranges.extend((a + first, b + first) for a, b in group_ranges)
    return ranges


def _row_ranges(table, files, plans: List[Optional[FilePlan]]
                ) -> Optional[List[Tuple[int, int]]]:
    """Inclusive ranges of the rows to read, in the coordinates pypaimon's reader takes
    (row ids with row tracking, else positions in the files laid end to end); None when
    no file has a selective index answer worth carrying."""
    use_row_ids = _pypaimon_read.row_tracking_enabled(table)
    per_file = [_file_ranges(p) for p in plans]
    if all(r is None for r in per_file):
        return None
    ranges: List[Tuple[int, int]] = []
    offset = 0
    for file_meta, file_ranges in zip(files, per_file):
        base = offset
        if use_row_ids:
            if file_meta.first_row_id is None:
                return None
            base = int(file_meta.first_row_id)
        if file_ranges is None:
            file_ranges = [(0, int(file_meta.row_count) - 1)] if file_meta.row_count else []
        ranges.extend((first + base, last + base) for first, last in file_ranges)
        offset += int(file_meta.row_count)
    return ranges


def _file_ranges(plan: Optional[FilePlan]) -> Optional[List[Tuple[int, int]]]:
    """The file's selected rows as a few inclusive position ranges, or None to read it
    whole."""
    if plan is None or plan.answer != ROWS or plan.selection is None:
        return None
    ranges = coalesced_runs(plan.selection, RANGE_GAP_ROWS)
    covered = sum(last - first + 1 for first, last in ranges)
    if len(ranges) > MAX_RANGES_PER_FILE or covered > MAX_RANGE_SHARE * plan.file.row_count:
        return None
    return ranges


def coalesced_runs(rows: np.ndarray, gap: int = 1) -> List[Tuple[int, int]]:
    """Ascending row positions as inclusive (first, last) ranges; positions at most `gap`
    apart share a range (gap 1: exact runs of consecutive positions)."""
    if rows.size == 0:
        return []
    values = rows.astype(np.int64)
    breaks = np.flatnonzero(np.diff(values) > gap)
    starts = np.concatenate(([values[0]], values[breaks + 1]))
    ends = np.concatenate((values[breaks], [values[-1]]))
    return [(int(a), int(b)) for a, b in zip(starts, ends)]


# ---- enable(table): the table's own read builders prune ----------------------------------

_ENABLED_ATTR = "_pyfileindex_new_read_builder"


def enable(table, max_workers: int = DEFAULT_MAX_WORKERS):
    """Make `table` (a pypaimon FileStoreTable) prune with its file indexes: read builders
    from its `new_read_builder()` plan pruned splits. Only this table object changes
    (copies made from it afterwards do not); `disable(table)` undoes it. Returns `table`."""
    if not callable(getattr(table, "new_read_builder", None)):
        raise TypeError(f"expected a pypaimon table, got {type(table).__name__}")
    if is_enabled(table):
        return table
    original = table.new_read_builder

    def new_read_builder():
        return _pruning(original(), max_workers)

    table.new_read_builder = new_read_builder
    setattr(table, _ENABLED_ATTR, original)
    return table


def disable(table):
    """Undo `enable(table)` (nothing when it was not enabled). Returns `table`."""
    if is_enabled(table):
        del table.__dict__["new_read_builder"]
        delattr(table, _ENABLED_ATTR)
    return table


def is_enabled(table) -> bool:
    return _ENABLED_ATTR in getattr(table, "__dict__", {})


def _pruning(read_builder, max_workers: int):
    """`read_builder` whose scans plan pruned splits."""
    plain_new_scan = read_builder.new_scan

    def new_scan():
        return _PruningScan(read_builder, plain_new_scan(), max_workers)

    read_builder.new_scan = new_scan
    read_builder._pyfileindex_plain_new_scan = plain_new_scan
    return read_builder


class _PruningScan:
    """A pypaimon TableScan whose plan() keeps only what the file indexes let through."""

    def __init__(self, read_builder, scan, max_workers: int):
        self._read_builder = read_builder
        self._scan = scan
        self._max_workers = max_workers

    def plan(self):
        plan = self._scan.plan()
        pruned = prune(self._read_builder, plan.splits(), self._max_workers)
        out = _pypaimon_read.new_plan(pruned, getattr(plan, "snapshot_id", None))
        out.pruned = pruned  # files skipped / rows selected, for whoever wants them
        return out

    def __getattr__(self, name):
        return getattr(self._scan, name)
