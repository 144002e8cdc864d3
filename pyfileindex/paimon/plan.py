"""What a planned read is: the live data files of a snapshot, each with the rows to read."""

from dataclasses import dataclass, field
from typing import Any, List, Optional, Tuple

import numpy as np

from pyfileindex.predicate import Predicate
from pyfileindex.top_n import TopN

from .manifest import DataFile
from .schema import SchemaInfo

# How a plan is read.
FILES = "files"  # each data file on its own: append tables, primary keys with deletion vectors
MERGE = "merge"  # primary keys without deletion vectors: merge-on-read through pypaimon
DATA_EVOLUTION = "data-evolution"  # files of one row-id range are stitched column-wise


@dataclass
class FilePlan:
    """One live data file and what to read of it."""

    file: DataFile
    skipped: bool
    # None: every row of the file (it has no deleted rows); else ascending uint32 row ids,
    # never containing a deleted row.
    selection: Optional[np.ndarray]
    answer: str  # the index's answer: "REMAIN", "ROWS" or "SKIP" (also "LIMIT" for a cut)
    index_source: Optional[str] = None  # "embedded", "sidecar" or None
    group: Optional[int] = None  # data evolution: row-id range group of the file
    read_columns: Optional[Tuple[str, ...]] = None  # data evolution: columns taken from it
    # A sidecar read by ranged reads (object stores): requests and bytes (ranged.IndexFetch).
    index_fetch: Any = None

    @property
    def live_rows(self) -> int:
        dv = self.file.deletion_vector
        return self.file.row_count - (dv.cardinality if dv is not None else 0)

    @property
    def rows_selected(self) -> int:
        if self.skipped:
            return 0
        return self.live_rows if self.selection is None else int(self.selection.size)


@dataclass
class ReadPlan:
    """The result of plan_read: files, row selections and counts.

    `predicate` is bound to the current `schema`; reading the plan always applies it
    (or `exact_filter` when set) exactly, so index answers (supersets) never leak extra rows.
    """

    table: Any = field(repr=False)  # pypaimon FileStoreTable
    snapshot_id: Optional[int]
    schema: SchemaInfo = field(repr=False)
    predicate: Optional[Predicate]
    top_n: Optional[TopN]
    limit: Optional[int]
    mode: str
    files: List[FilePlan]
    # A pypaimon Predicate given to plan_read: read_plan filters with it exactly, since
    # `predicate` (what the indexes were asked) may have left some of its leaves out.
    exact_filter: Any = field(default=None, repr=False)

    def _units(self) -> List[FilePlan]:
        # A data-evolution group is one set of rows spread over several files.
        if self.mode != DATA_EVOLUTION:
            return self.files
        seen, units = set(), []
        for plan in self.files:
            if plan.group not in seen:
                seen.add(plan.group)
                units.append(plan)
        return units

    @property
    def files_total(self) -> int:
        return len(self.files)

    @property
    def files_skipped(self) -> int:
        return sum(1 for f in self.files if f.skipped)

    @property
    def files_read(self) -> int:
        return self.files_total - self.files_skipped

    @property
    def rows_total(self) -> int:
        return sum(u.live_rows for u in self._units())

    @property
    def rows_selected(self) -> int:
        return sum(u.rows_selected for u in self._units())

    def surviving(self) -> List[FilePlan]:
        return [f for f in self.files if not f.skipped]

    def summary(self) -> str:
        return (f"{self.files_skipped}/{self.files_total} files skipped, "
                f"{self.rows_selected}/{self.rows_total} rows selected ({self.mode})")
