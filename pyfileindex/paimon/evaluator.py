"""Read-time file-index evaluation of one data file, as Paimon's FileIndexEvaluator does.

Steps (spec FORMAT-bloom-bsi-rangebitmap.md, 5.5):

1. more than 2^31 - 1 rows, or a 64-bit deletion vector -> REMAIN (no index consulted);
2. no predicate and no TopN: REMAIN, or with LIMIT n the first n live rows;
3. no index -> REMAIN;
4. selection = [0, rows) minus the deletion vector;
5. predicate: index answer AND selection (LIMIT ignored); TopN only: the range-bitmap
   TopN within the selection (the selection itself when it has at most n rows);
6. answer equal to the selection -> REMAIN; empty -> SKIP; else the row bitmap.

The caller always removes deleted rows afterwards, so REMAIN never brings them back.
"""

import warnings
from dataclasses import dataclass
from typing import Callable, List, Optional, Tuple

import numpy as np

from pyfileindex import IndexReader, RowCountMismatchError
from pyfileindex.predicate import Predicate
from pyfileindex.top_n import TopN

from .deletion_vectors import DeletionVector

MAX_INT_ROWS = 2 ** 31 - 1

REMAIN = "REMAIN"
SKIP = "SKIP"
ROWS = "ROWS"


@dataclass(frozen=True)
class IndexAnswer:
    """What the index says about one file: kind REMAIN / SKIP / ROWS (+ row ids)."""

    kind: str
    rows: Optional[np.ndarray] = None  # uint32 row ids for ROWS


def live_rows(row_count: int, dv: Optional[DeletionVector]) -> np.ndarray:
    """[0, row_count) minus the deleted positions, as uint32 row ids."""
    rows = np.arange(row_count, dtype=np.uint32)
    if dv is None or dv.cardinality == 0:
        return rows
    return np.setdiff1d(rows, dv.positions().astype(np.uint32), assume_unique=True)


def _collapse(rows: np.ndarray, live_count: int) -> IndexAnswer:
    if rows.size == 0:
        return IndexAnswer(SKIP)
    if rows.size == live_count:
        return IndexAnswer(REMAIN)
    return IndexAnswer(ROWS, rows)


def evaluate_file(load_index: Callable[[], Optional[bytes]], fields: List[Tuple[str, str]],
                  row_count: int, dv: Optional[DeletionVector],
                  predicate: Optional[Predicate], top_n: Optional[TopN] = None,
                  limit: Optional[int] = None, use_index: bool = True,
                  has_user_predicate: Optional[bool] = None,
                  file_name: str = "data file") -> IndexAnswer:
    """Evaluate one data file.

    `predicate` is already translated to the file's schema (None = nothing the index can
    be asked); `has_user_predicate` tells whether the query had one at all (a LIMIT may
    only cut rows of a file when it did not). `fields` is the file's row type. An index
    storing another row count than `row_count` (the manifest's) was written for other rows
    or is damaged: the file answers REMAIN, with a warning naming `file_name`.
    """
    if has_user_predicate is None:
        has_user_predicate = predicate is not None
    if row_count > MAX_INT_ROWS or (dv is not None and dv.is_64bit):
        return IndexAnswer(REMAIN)
    if not has_user_predicate and top_n is None:
        if limit is None:
            return IndexAnswer(REMAIN)
        live = live_rows(row_count, dv)
        return _collapse(live[:max(int(limit), 0)], live.size)
    if not use_index or (predicate is None and top_n is None) or (
            predicate is None and has_user_predicate):
        return IndexAnswer(REMAIN)
    data = load_index()
    if data is None:
        return IndexAnswer(REMAIN)
    try:
        return _ask_index(IndexReader(data, fields, row_count), row_count, dv, predicate, top_n)
    except RowCountMismatchError as error:
        warnings.warn(f"file index of {file_name} is not used: {error}", RuntimeWarning,
                      stacklevel=2)
        return IndexAnswer(REMAIN)


def _ask_index(reader: IndexReader, row_count: int, dv: Optional[DeletionVector],
               predicate: Optional[Predicate], top_n: Optional[TopN]) -> IndexAnswer:
    if predicate is not None:
        result = reader.evaluate(predicate)
        if result.kind == SKIP or result.skip:
            return IndexAnswer(SKIP)
        if result.kind == REMAIN:
            return IndexAnswer(REMAIN)
        rows = result.row_ids()
        if dv is None or dv.cardinality == 0:
            # Every row is live: no [0, rows) array to build and intersect with.
            return _collapse(rows, row_count)
        live = live_rows(row_count, dv)  # only now: most files of a selective query skip
        if live.size != row_count:
            rows = np.intersect1d(rows, live, assume_unique=True)
        return _collapse(rows, live.size)
    live = live_rows(row_count, dv)
    if live.size <= top_n.limit:
        return IndexAnswer(REMAIN) if live.size else IndexAnswer(SKIP)
    selection = None if live.size == row_count else live
    result = reader.top_n(top_n.column, top_n.limit, top_n.descending, top_n.nulls_first,
                          selection=selection, with_ties=top_n.with_ties)
    if result.kind == REMAIN:
        return IndexAnswer(REMAIN)
    if result.kind == SKIP:
        return IndexAnswer(SKIP)
    return _collapse(result.row_ids(), live.size)
