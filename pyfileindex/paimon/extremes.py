"""min_max: SELECT min(column), max(column) of a table, from range-bitmap indexes where they can
tell.

A range-bitmap index stores its column's smallest and largest key in its header. Per live
data file (the files a batch read sees):

* no deleted row: the header's min and max;
* deleted rows (a deletion vector): the smallest and largest key among the live rows, found
  in the index (a TopN of one row each way within the live rows), since the header's may
  belong to a deleted row;
* a column the file's schema does not have: every row is NULL there, nothing to read;
* no range-bitmap on the column (or a changed type, a file over 2^31 rows, a 64-bit deletion
  vector, a primary-key file with retraction rows): the column is read through read_plan.

FLOAT / DOUBLE follow Java's (and Spark's) order, which the index keeps: -0.0 below 0.0 and
NaN above every other value (so a column with a NaN has max NaN). NULLs are ignored; a table
without a value has (None, None).
"""

import math
from dataclasses import dataclass
from typing import Any, List, Optional, Tuple

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pyfileindex import IndexNotFoundError, IndexReader, RowCountMismatchError

from .count import countable_from_indexes
from .file_pool import map_files
from .index_bytes import load_index
from .manifest import DataFile
from .plan import FILES
from .planner import DEFAULT_MAX_WORKERS, SchemaVersions, plan_snapshot_files, table_mode
from .table import open_metadata

_UNKNOWN = object()  # a file the index cannot answer: read it


@dataclass(frozen=True)
class MinMaxResult:
    """min and max of a column over a table's live rows (None when no row holds a value),
    with how many live data files were answered from their index alone and how many read."""

    min: Any
    max: Any
    files_total: int
    files_from_index: int
    files_read: int
    mode: str

    def summary(self) -> str:
        return (f"min {self.min!r}, max {self.max!r}; {self.files_from_index}/"
                f"{self.files_total} files answered from indexes, {self.files_read} read "
                f"({self.mode})")


def _order_key(value):
    """Java's order: for floats -0.0 below 0.0 and NaN above everything."""
    if isinstance(value, float):
        if math.isnan(value):
            return (1, 0.0, True)
        return (0, value, math.copysign(1.0, value) > 0)
    return value


def _combine(pairs: List[Tuple[Any, Any]]) -> Tuple[Any, Any]:
    pairs = [p for p in pairs if p is not None]
    if not pairs:
        return None, None
    low = min((p[0] for p in pairs), key=_order_key)
    high = max((p[1] for p in pairs), key=_order_key)
    return low, high


def _python_value(scalar: pa.Scalar) -> Any:
    """An Arrow scalar as the value IndexReader.min_max gives (timestamps: datetime64[ns])."""
    if pa.types.is_timestamp(scalar.type):
        return np.datetime64(scalar.cast(pa.timestamp("ns")).value, "ns")
    if pa.types.is_floating(scalar.type):
        return float(scalar.as_py())
    return scalar.as_py()


def _float_min_max(values: np.ndarray) -> Optional[Tuple[float, float]]:
    if values.size == 0:
        return None
    nan = np.isnan(values)
    plain = values[~nan]
    if plain.size == 0:
        return float("nan"), float("nan")
    low, high = float(plain.min()), float(plain.max())
    if low == 0.0 and np.any((plain == 0.0) & np.signbit(plain)):
        low = -0.0
    if high == 0.0 and np.any((plain == 0.0) & ~np.signbit(plain)):
        high = 0.0
    return low, (float("nan") if nan.any() else high)


def column_min_max(values) -> Optional[Tuple[Any, Any]]:
    """(min, max) of an Arrow column's non-NULL values in Java's order, None if it has none."""
    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks() if values.num_chunks else pa.array([], values.type)
    values = values.drop_null()
    if len(values) == 0:
        return None
    if pa.types.is_floating(values.type):
        return _float_min_max(values.cast(pa.float64()).to_numpy(zero_copy_only=False))
    found = pc.min_max(values)
    return _python_value(found["min"]), _python_value(found["max"])


def _live_rows(data_file: DataFile):
    """The live rows as a pyroaring BitMap, or None when none is deleted."""
    dv = data_file.deletion_vector
    if dv is None or dv.cardinality == 0:
        return None
    from pyroaring import BitMap
    live = BitMap(range(data_file.row_count))
    live -= dv.bitmap
    return live


def min_max(table, column: str, snapshot_id: Optional[int] = None,
            max_workers: int = DEFAULT_MAX_WORKERS) -> MinMaxResult:
    """SELECT min(column), max(column) of `table` (path, pypaimon table or
    PaimonTableMetadata), from the range-bitmap index of each live data file that has one;
    the other files' column is read."""
    meta = open_metadata(table)
    current = meta.schema()
    now = current.field_by_name(column)
    if now is None:
        raise ValueError(f"column {column!r} is not in the table; columns: "
                         f"{', '.join(f.name for f in current.fields)}")
    snapshot = meta.snapshot(snapshot_id)
    files = meta.data_files(snapshot.id)
    mode = table_mode(current)
    primary_keys = bool(current.primary_keys)
    if mode == FILES and primary_keys:
        files = [f for f in files if f.level > 0]  # as plan_read: Java's batch scan
    schemas = SchemaVersions(meta, current)
    for f in files:
        schemas.get(f.schema_id)

    def ask(data_file: DataFile):
        if mode != FILES or not countable_from_indexes(data_file, primary_keys):
            return _UNKNOWN
        old = schemas.get(data_file.schema_id).field_by_id(now.field_id)
        if old is None:
            return None  # added later: NULL in every row of this file
        if old.base_type != now.base_type:
            return _UNKNOWN
        data, _ = load_index(meta.table, data_file, {old.name})
        if data is None:
            return _UNKNOWN
        try:
            reader = IndexReader(data, [(old.name, old.type)], data_file.row_count)
            return reader.min_max(old.name, selection=_live_rows(data_file))
        except (IndexNotFoundError, RowCountMismatchError):
            return _UNKNOWN

    answers = map_files(ask, files, max_workers)
    to_read = [f for f, answer in zip(files, answers) if answer is _UNKNOWN]
    pairs = [answer for answer in answers if answer is not _UNKNOWN]
    if to_read:
        from .reader import read_plan
        plan = plan_snapshot_files(meta, current, None, None, None, snapshot, to_read,
                                   max_workers)
        data = read_plan(plan, columns=[column], max_workers=max_workers)
        pairs.append(column_min_max(data.column(column)))
    low, high = _combine(pairs)
    return MinMaxResult(min=low, max=high, files_total=len(files),
                        files_from_index=len(files) - len(to_read), files_read=len(to_read),
                        mode=mode)
