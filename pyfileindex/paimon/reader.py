"""read_plan: a ReadPlan into one Arrow table of exactly the rows the query asks for.

Only surviving files are opened (Parquet or ORC, through pyarrow and the table's file IO), only the needed
columns are read, row selections are applied with `take`, and columns are projected to
the table's current schema by field id (renamed columns found under their old names,
added columns filled with nulls, changed types cast). The predicate is then applied as
an exact Arrow filter, since an index answer is only a superset; TopN and LIMIT last.

Primary-key tables without deletion vectors are read through pypaimon's merge reader
(see planner.py); rows of primary-key files whose kind is a retraction are dropped.
"""

from typing import Dict, List, Optional, Sequence

import pyarrow as pa
import pyarrow.compute as pc

from . import _pypaimon, pypaimon_predicates
from .arrow_filter import filter_table
from .errors import PaimonMetadataError
from .file_pool import map_files
from .plan import DATA_EVOLUTION, MERGE, FilePlan, ReadPlan
from .predicates import base_columns
from .schema import SchemaInfo
from .store import read_columns

VALUE_KIND = "_VALUE_KIND"
_LIVE_KINDS = (0, 2)  # INSERT, UPDATE_AFTER


def _needed_columns(plan: ReadPlan, columns: Optional[Sequence[str]]) -> List[str]:
    names = [f.name for f in plan.schema.fields]
    wanted = list(names) if columns is None else list(columns)
    for name in wanted:
        if name not in names:
            raise ValueError(f"column {name!r} is not in the table; columns: {', '.join(names)}")
    extra = base_columns(plan.predicate)
    if plan.exact_filter is not None:
        extra.extend(pypaimon_predicates.columns(plan.exact_filter))
    if plan.top_n is not None:
        extra.append(plan.top_n.column)
    return [n for n in names if n in set(wanted) | set(extra)]


def _arrow_fields(schema: SchemaInfo) -> Dict[str, pa.Field]:
    arrow_schema = _pypaimon.arrow_schema(schema.raw)
    return {f.name: f for f in arrow_schema}


def read_plan(plan: ReadPlan, columns: Optional[Sequence[str]] = None,
              max_workers: int = 8) -> pa.Table:
    """The rows of the table satisfying the plan's predicate (then TopN / LIMIT), with
    `columns` (default: all) of the current schema, in plan order."""
    needed = _needed_columns(plan, columns)
    if plan.mode == MERGE:
        data = _pypaimon.read_merged(plan.table, plan.snapshot_id, needed)
    else:
        targets = _arrow_fields(plan.schema)
        units = _read_units(plan)
        pieces = map_files(lambda unit: _read_unit(plan, unit, needed, targets), units, max_workers)
        schema = pa.schema([targets[n] for n in needed])
        pieces = [p for p in pieces if p is not None and p.num_rows]
        data = pa.concat_tables(pieces) if pieces else schema.empty_table()
    if plan.exact_filter is not None:
        data = pypaimon_predicates.filter_table(data, plan.exact_filter, plan.schema)
    else:
        data = filter_table(data, plan.predicate)
    if plan.top_n is not None:
        order = "descending" if plan.top_n.descending else "ascending"
        placement = "at_start" if plan.top_n.nulls_first else "at_end"
        indices = pc.sort_indices(data, sort_keys=[(plan.top_n.column, order)],
                                  null_placement=placement)
        data = data.take(indices[:plan.top_n.limit])
    if plan.limit is not None:
        data = data.slice(0, plan.limit)
    keep = list(columns) if columns is not None else [f.name for f in plan.schema.fields]
    return data.select(keep)


def _read_units(plan: ReadPlan) -> List[List[FilePlan]]:
    """Surviving files; a data-evolution group is read as one unit."""
    if plan.mode != DATA_EVOLUTION:
        return [[f] for f in plan.surviving()]
    groups: Dict[int, List[FilePlan]] = {}
    for f in plan.surviving():
        groups.setdefault(f.group, []).append(f)
    return list(groups.values())


def _read_unit(plan: ReadPlan, unit: List[FilePlan], needed: List[str],
               targets: Dict[str, pa.Field]) -> Optional[pa.Table]:
    selection = unit[0].selection
    columns: Dict[str, pa.ChunkedArray] = {}
    row_count = unit[0].file.row_count
    keep_mask = None
    for file_plan in unit:
        data_file = file_plan.file
        file_schema = _schema_of(plan, data_file.schema_id)
        wanted = {}
        for name in needed:
            if name in columns:
                continue
            current = plan.schema.field_by_name(name)
            old = file_schema.field_by_id(current.field_id)
            if old is None:
                continue
            if file_plan.read_columns is not None and old.name not in file_plan.read_columns:
                continue
            wanted[name] = old.name
        is_pk = bool(plan.schema.primary_keys)
        read_names = list(dict.fromkeys(wanted.values()))
        if is_pk:
            read_names.append(VALUE_KIND)
        table = _read_file(plan, data_file, read_names)
        if selection is not None:
            table = table.take(pa.array(selection, type=pa.uint32()))
        if is_pk and VALUE_KIND in table.column_names:
            live = pc.is_in(table.column(VALUE_KIND), value_set=pa.array(_LIVE_KINDS, pa.int8()))
            keep_mask = live if keep_mask is None else pc.and_(keep_mask, live)
        for name, old_name in wanted.items():
            if old_name in table.column_names:
                columns[name] = table.column(old_name)
    n = row_count if selection is None else int(len(selection))
    arrays, fields = [], []
    for name in needed:
        target = targets[name]
        if name in columns:
            values = columns[name]
            if values.type != target.type:
                values = values.cast(target.type)
        else:
            values = pa.nulls(n, type=target.type)
            target = target.with_nullable(True)
        if values.null_count and not target.nullable:
            target = target.with_nullable(True)
        arrays.append(values)
        fields.append(target)
    out = pa.Table.from_arrays(arrays, schema=pa.schema(fields))
    if keep_mask is not None:
        out = out.filter(keep_mask)
    return out


_SCHEMA_CACHE_ATTR = "_schema_cache"


def _schema_of(plan: ReadPlan, schema_id: int) -> SchemaInfo:
    cache = plan.__dict__.setdefault(_SCHEMA_CACHE_ATTR, {plan.schema.schema_id: plan.schema})
    if schema_id not in cache:
        from .schema import load_schema_by_id
        cache[schema_id] = load_schema_by_id(plan.table, schema_id)
    return cache[schema_id]


def _read_file(plan: ReadPlan, data_file, names: List[str]) -> pa.Table:
    table = read_columns(plan.table.file_io, data_file.path, names)
    if table.num_rows != data_file.row_count:
        raise PaimonMetadataError(
            f"{data_file.file_name}: manifest says {data_file.row_count} rows, file has "
            f"{table.num_rows}")
    return table
