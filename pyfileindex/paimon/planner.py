"""plan_read: which data files (and which rows of them) a query must read.

Per table kind:

* append tables: every live file is evaluated as Paimon's FileIndexEvaluator does
  (evaluator.py), with the predicate moved to the file's schema by field id;
* primary-key tables with deletion vectors: the same per file (a key lives in exactly one
  non-deleted row of the level > 0 files, which is all a batch read sees; level-0 files
  are left out as Java's batch scan does), deleted rows never selected;
* primary-key tables without deletion vectors: rows must be merged across files, and
  dropping a file could resurrect an older version of a key, so nothing is pruned and
  the read goes through pypaimon's merge reader;
* data-evolution tables: files covering one row-id range are one group; each file's
  index is asked only about the columns it is the newest writer of (as Java's
  DataEvolutionSplitRead.skipByFileIndex), and the group's selection is the intersection.

Index bytes come from the manifest when embedded, else from the sidecar (on an object
store by ranged reads: the header, then only the bodies of the queried columns); sidecars
of many files on a remote store are read and evaluated on a thread pool (native evaluation
releases the GIL).
"""

import dataclasses
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from pyfileindex.column_names import split_map_column
from pyfileindex.predicate import Predicate
from pyfileindex.top_n import TopN

from .evaluator import REMAIN, ROWS, SKIP, IndexAnswer, evaluate_file, live_rows
from .file_pool import map_files
from .index_bytes import load_index
from .manifest import DataFile
from .options import file_index_read_enabled
from .plan import DATA_EVOLUTION, FILES, MERGE, FilePlan, ReadPlan
from .predicates import (
    PredicateLike,
    bind_to_schema,
    restrict_to_columns,
    translate_to_file,
)
from .schema import SchemaInfo
from .store import is_local
from .table import PaimonTableMetadata, open_metadata

DEFAULT_MAX_WORKERS = 8


def _true(options, key: str) -> bool:
    return str(options.get(key, "false")).strip().lower() == "true"


def table_mode(schema: SchemaInfo) -> str:
    if _true(schema.options, "data-evolution.enabled"):
        return DATA_EVOLUTION
    if schema.primary_keys and not _true(schema.options, "deletion-vectors.enabled"):
        return MERGE
    return FILES


class SchemaVersions:
    """Schema versions by id, loaded once per plan."""

    def __init__(self, meta: PaimonTableMetadata, current: SchemaInfo):
        self._meta = meta
        self._by_id: Dict[int, SchemaInfo] = {current.schema_id: current}

    def get(self, schema_id: int) -> SchemaInfo:
        if schema_id not in self._by_id:
            self._by_id[schema_id] = self._meta.schema(schema_id)
        return self._by_id[schema_id]


def columns_asked(file_schema: SchemaInfo, predicate: Optional[Predicate],
                  extra: Sequence[str] = ()) -> List[Tuple[str, str]]:
    """The file's (name, type) pairs of the columns a question reads."""
    wanted = set(extra)
    if predicate is not None:
        wanted.update(split_map_column(c).base for c in predicate.columns())
    return [(f.name, f.type) for f in file_schema.fields if f.name in wanted]


def _top_n_for_file(top_n: Optional[TopN], current: SchemaInfo,
                    file_schema: SchemaInfo) -> Optional[TopN]:
    """The TopN column renamed for the file, or None if the file cannot answer it."""
    if top_n is None:
        return None
    now = current.field_by_name(top_n.column)
    old = file_schema.field_by_id(now.field_id) if now is not None else None
    if old is None or old.base_type != now.base_type:
        return None
    return dataclasses.replace(top_n, column=old.name)


def _selection(answer: IndexAnswer, data_file: DataFile) -> Tuple[bool, Optional[np.ndarray]]:
    """(skipped, selection) of a file from its index answer; deleted rows never selected."""
    if answer.kind == SKIP:
        return True, None
    if answer.kind == ROWS:
        return False, answer.rows
    dv = data_file.deletion_vector
    if dv is None or dv.cardinality == 0:
        return False, None
    rows = live_rows(data_file.row_count, dv)
    return rows.size == 0, rows


def check_top_n_and_limit(current, top: Optional[TopN], limit) -> None:
    """ValueError for a TopN column the `current` schema lacks, a TopN WITH TIES, or a
    negative limit."""
    if top is not None and current.field_by_name(top.column) is None:
        raise ValueError(f"top_n column {top.column!r} is not in the table")
    if top is not None and top.with_ties:
        # A table read orders its rows and keeps the first n: it cannot return the ties.
        raise ValueError(f"top_n {top}: WITH TIES is not supported by table reads")
    if limit is not None and int(limit) < 0:
        raise ValueError(f"limit must not be negative, got {limit}")


def plan_read(table, predicate: PredicateLike = None, snapshot_id: Optional[int] = None,
              top_n=None, limit: Optional[int] = None,
              max_workers: int = DEFAULT_MAX_WORKERS) -> ReadPlan:
    """Plan a read of `table` (path, pypaimon table or PaimonTableMetadata).

    `predicate`: a pyfileindex.predicate tree, SQL-like text or a pypaimon Predicate
    (PredicateBuilder's), on the current schema.
    `top_n`: TopN or (column, n[, descending[, nulls_first]]); `limit`: row count.
    """
    meta = open_metadata(table)
    current = meta.schema()
    bound, exact_filter = bind_for_indexes(predicate, current)
    top = TopN.of(top_n)
    check_top_n_and_limit(current, top, limit)
    snapshot = meta.snapshot(snapshot_id)
    if exact_filter is None:
        return plan_snapshot_files(meta, current, bound, top, limit, snapshot,
                                   meta.data_files(snapshot.id), max_workers)
    # Rows the indexes cannot judge still go through the filter, so TopN and LIMIT must
    # not cut files here (they would, with no index-answerable predicate left).
    plan = plan_snapshot_files(meta, current, bound, None, None, snapshot,
                               meta.data_files(snapshot.id), max_workers)
    plan.top_n, plan.exact_filter = top, exact_filter
    plan.limit = None if limit is None else int(limit)
    return plan


def bind_for_indexes(predicate, current: SchemaInfo):
    """(bound tree for the indexes, exact pypaimon filter or None)."""
    from .pypaimon_predicates import index_predicate, is_exact, is_pypaimon_predicate
    if predicate is not None and is_pypaimon_predicate(predicate):
        if is_exact(predicate, current):
            return bind_to_schema(predicate, current), None
        # Leaves no index answers drop out of what the indexes are asked (a superset);
        # the read then applies the whole pypaimon predicate.
        return index_predicate(predicate, current), predicate
    return bind_to_schema(predicate, current), None


def plan_snapshot_files(meta, current, bound, top, limit, snapshot, files: List[DataFile],
                        max_workers: int = DEFAULT_MAX_WORKERS) -> ReadPlan:
    """plan_read's plan for the live `files` of `snapshot` (already read by the caller),
    `bound` and `top` bound to the `current` schema."""
    mode = table_mode(current)
    schemas = SchemaVersions(meta, current)
    use_index = file_index_read_enabled(current.options)
    if current.primary_keys and mode == FILES:
        files = [f for f in files if f.level > 0]  # Java's batch scan skips level 0 here

    if mode == MERGE:
        plans = [FilePlan(f, False, None, REMAIN, meta.index_source(f)) for f in files]
    elif mode == DATA_EVOLUTION:
        plans = _plan_data_evolution(meta, files, current, schemas, bound, use_index,
                                     max_workers)
    else:
        plans = plan_files(meta, files, current, schemas, bound, top, limit, use_index,
                            max_workers)
        if bound is None and top is None and limit is not None:
            cut_after_limit(plans, int(limit))
    return ReadPlan(table=meta.table, snapshot_id=snapshot.id, schema=current,
                    predicate=bound, top_n=top, limit=None if limit is None else int(limit),
                    mode=mode, files=plans)


def plan_files(meta, files, current, schemas, bound, top, limit, use_index, max_workers):
    """A FilePlan per file of an append (or deletion-vector) table: its index answer to
    `bound` and `top`, read through the table's file IO."""
    for f in files:
        schemas.get(f.schema_id)  # load schemas up front, outside the pool

    def plan_one(data_file: DataFile) -> FilePlan:
        file_schema = schemas.get(data_file.schema_id)
        file_predicate = translate_to_file(bound, current, file_schema)
        file_top = _top_n_for_file(top, current, file_schema)
        extra = (file_top.column,) if file_top is not None else ()
        columns = set(file_predicate.columns()) if file_predicate is not None else set()
        columns.update(extra)
        fetches = []

        def load():
            data, fetch = load_index(meta.table, data_file, columns)
            fetches.append(fetch)
            return data

        answer = evaluate_file(
            load,
            columns_asked(file_schema, file_predicate, extra),
            data_file.row_count, data_file.deletion_vector, file_predicate,
            top_n=file_top if bound is None else None,
            limit=limit, use_index=use_index, has_user_predicate=bound is not None,
            file_name=data_file.file_name)
        if top is not None and bound is None and file_top is None:
            answer = IndexAnswer(REMAIN)
        skipped, selection = _selection(answer, data_file)
        return FilePlan(data_file, skipped, selection, answer.kind, meta.index_source(data_file),
                        index_fetch=fetches[0] if fetches else None)

    return map_files(plan_one, files, _index_workers(files, max_workers))


def _index_workers(files: Sequence[DataFile], max_workers: int) -> int:
    """Threads for reading and evaluating the files' indexes: the pool overlaps the latency
    of sidecars on a remote store; local sidecars and embedded indexes are read and
    evaluated in the calling thread, where handing each file to a thread costs more than
    the file's read."""
    remote = any(not is_local(path) for f in files for path in f.index_file_paths)
    return max_workers if remote else 1


def cut_after_limit(plans: List[FilePlan], limit: int) -> None:
    """LIMIT without a predicate: files after the first `limit` rows are not read."""
    taken = 0
    for plan in plans:
        if plan.skipped:
            continue
        if taken >= limit:
            plan.skipped, plan.selection, plan.answer = True, None, "LIMIT"
            continue
        taken += plan.rows_selected


# ---- data evolution -------------------------------------------------------------------------

def _row_id_groups(files: List[DataFile]) -> List[List[DataFile]]:
    """Files grouped by overlapping row-id ranges, newest (max sequence number) first."""
    ordered = sorted(files, key=lambda f: (f.first_row_id if f.first_row_id is not None else -1))
    groups: List[List[DataFile]] = []
    end = None
    for f in ordered:
        first = f.first_row_id if f.first_row_id is not None else -1
        last = first + f.row_count - 1
        if groups and end is not None and first <= end:
            groups[-1].append(f)
            end = max(end, last)
        else:
            groups.append([f])
            end = last
    for group in groups:
        group.sort(key=lambda f: f.max_sequence_number, reverse=True)
        if len({(f.first_row_id, f.row_count) for f in group}) != 1:
            raise ValueError("data files of one row-id range must all cover the same rows: "
                             + ", ".join(f.file_name for f in group))
    return groups


def _written_fields(data_file: DataFile, file_schema: SchemaInfo):
    if data_file.write_cols is None:
        return list(file_schema.fields)
    return [f for f in file_schema.fields if f.name in data_file.write_cols]


def _plan_data_evolution(meta, files, current, schemas, bound, use_index, max_workers):
    groups = _row_id_groups(files)
    owners: List[List[Tuple[DataFile, Tuple[str, ...], Tuple[str, ...]]]] = []
    for group in groups:
        claimed, owned = set(), []
        for data_file in group:
            file_schema = schemas.get(data_file.schema_id)
            mine = [f for f in _written_fields(data_file, file_schema) if f.field_id not in claimed]
            claimed.update(f.field_id for f in mine)
            current_names = tuple(c.name for c in (current.field_by_id(f.field_id) for f in mine)
                                  if c is not None)
            owned.append((data_file, tuple(f.name for f in mine), current_names))
        owners.append(owned)

    def plan_group(index: int) -> List[FilePlan]:
        owned = owners[index]
        rows: Optional[np.ndarray] = None
        skipped = False
        kind = REMAIN
        if bound is not None and use_index:
            for data_file, _, current_names in owned:
                file_schema = schemas.get(data_file.schema_id)
                asked = translate_to_file(restrict_to_columns(bound, set(current_names)),
                                          current, file_schema)
                if asked is None:
                    continue
                answer = evaluate_file(lambda f=data_file: meta.index_bytes(f),
                                       columns_asked(file_schema, asked), data_file.row_count,
                                       None, asked, has_user_predicate=True,
                                       file_name=data_file.file_name)
                if answer.kind == SKIP:
                    skipped, rows, kind = True, None, SKIP
                    break
                if answer.kind == ROWS:
                    rows = answer.rows if rows is None else np.intersect1d(rows, answer.rows)
                    kind = ROWS
                    if rows.size == 0:
                        skipped, rows, kind = True, None, SKIP
                        break
        return [FilePlan(data_file, skipped, rows, kind, meta.index_source(data_file),
                         group=index, read_columns=names)
                for data_file, names, _ in owned]

    for group in groups:
        for data_file in group:
            schemas.get(data_file.schema_id)
    planned = map_files(plan_group, list(range(len(groups))), max_workers)
    return [plan for group_plans in planned for plan in group_plans]
