"""The calls into pypaimon's read API (read builders, splits, plans) that pruning makes.

Kept in one file for the reason _pypaimon.py gives: some of these (the read builder's
filter, IndexedSplit, Range) are not documented API, and an upgrade that moves them
should break only here.
"""

from typing import Any, List, Optional, Sequence, Tuple


def is_read_builder(value) -> bool:
    from pypaimon.read.read_builder import ReadBuilder
    return isinstance(value, ReadBuilder)


def builder_table(read_builder):
    return read_builder.table


def builder_predicate(read_builder):
    """The pypaimon Predicate given to `with_filter` (None when none was)."""
    return getattr(read_builder, "_predicate", None)


def scan_splits(read_builder) -> List[Any]:
    """pypaimon's own plan of the read builder: partition, bucket and stats pruning done
    (the unpruned scan of a builder that pyfileindex.paimon.enable made prune)."""
    new_scan = getattr(read_builder, "_pyfileindex_plain_new_scan", read_builder.new_scan)
    return list(new_scan().plan().splits())


def is_data_split(split) -> bool:
    from pypaimon.read.split import DataSplit
    return type(split) is DataSplit


def resolved_file_path(file_meta) -> Optional[str]:
    """Where the split's data file lives as pypaimon's scan resolved it (its external path,
    else the bucket directory), the path pypaimon's reader opens; None when unset."""
    path = getattr(file_meta, "file_path", None)
    return str(path) if path else None


def deletion_files(split) -> List[Optional[Any]]:
    """One DeletionFile (or None) per file of the split."""
    files = split.data_deletion_files
    return list(files) if files is not None else [None] * len(split.files)


def deletion_file_location(deletion_file) -> Tuple[str, int, int]:
    return deletion_file.dv_index_path, deletion_file.offset, deletion_file.length


def total_buckets(split) -> int:
    value = getattr(split, "total_buckets", None)
    return -1 if value is None else int(value)


def keep_files(split, names) -> Optional[Any]:
    """The split with only the files named in `names` (None when none is left)."""
    return split.filter_file(lambda meta: meta.file_name in names)


def with_row_ranges(split, ranges: Sequence[Tuple[int, int]]):
    """The split reading only the rows in the inclusive `ranges` (split-local positions, or
    row ids on row-tracking tables), as pypaimon's global indexes hand rows to its reader."""
    from pypaimon.globalindex.indexed_split import IndexedSplit
    from pypaimon.utils.range import Range
    return IndexedSplit(split, [Range(int(a), int(b)) for a, b in ranges])


def row_tracking_enabled(table) -> bool:
    return bool(table.options.row_tracking_enabled())


def is_data_evolution(table) -> bool:
    return bool(table.options.data_evolution_enabled())


def reads_files_one_by_one(table, split) -> bool:
    """Does pypaimon read this split file by file at physical positions (its raw reader),
    where row ranges can be given? Not for merge reads nor data-evolution groups."""
    if table.options.data_evolution_enabled():
        return False
    if table.is_primary_key_table:
        return bool(split.raw_convertible) and not getattr(split, "is_streaming", False)
    return True


def new_plan(splits: List[Any], snapshot_id: Optional[int]):
    from pypaimon.read.plan import Plan
    return Plan(list(splits), snapshot_id)


def snapshot_id_of(splits: List[Any]) -> Optional[int]:
    for split in splits:
        value = getattr(split, "snapshot_id", None)
        if value is not None:
            return int(value)
    return None
