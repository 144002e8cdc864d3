"""index_report: what file indexes every live data file of a table holds, and what of it is
missing or stale against the table's current `file-index.*` options and schema.

It is what a user reads before `rewrite_file_index`: per data file its partition, bucket,
name and rows, each stored index (column, type, bytes, the row count it stores), where the
container lives (embedded in the manifest entry or a sidecar), and findings. A finding is
*stale* when a rewrite under the current options would change the file's index (something
declared is missing, something stored is no longer declared or was built with other
options, the column was dropped, the index disagrees with the file's row count, the
container sits on the wrong side of the in-manifest threshold, or it cannot be read);
the others (a column renamed or retyped since, a declared column the file does not have)
are notes: a rewrite leaves them as they are.

No data file is read: options are compared by building the declared index over one row
and comparing what the options alone decide (a bloom filter's bit count and hash
functions, each index type's format version). Index bytes are read through the table's
file IO, so tables on object stores work as local ones do.
"""

import functools
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Tuple

from pyfileindex.column_names import split_map_column

from . import _pypaimon
from .errors import PaimonMetadataError
from .index_bytes import EMBEDDED, SIDECAR, index_source, read_index_bytes
from .manifest import DataFile
from .options import FILE_INDEX_PREFIX, file_index_read_enabled
from .schema import SchemaInfo, translate_column
from .table import PaimonTableMetadata, open_metadata

# Finding kinds. Stale: a rewrite under the current options changes the file's index.
MISSING = "missing"  # declared now, the file has the column, its index lacks it
UNDECLARED = "undeclared"  # stored, no longer declared
OPTIONS = "options"  # stored with other options than declared now
DROPPED = "dropped"  # stored on a column the current schema no longer has
ROW_COUNT = "row-count"  # the index's stored row count is not the file's
PLACEMENT = "placement"  # embedded above the threshold, or a sidecar at or below it
CORRUPT = "corrupt"  # the container or one index in it cannot be read
UNREADABLE = "unreadable"  # the index bytes could not be fetched
INVALID_OPTIONS = "invalid-options"  # the current options cannot be applied to the file
# Notes: a rewrite keeps these as they are.
RENAMED = "renamed"  # the column has another name now (the index is found by field id)
TYPE_CHANGED = "type-changed"  # the column's type changed since the file was written
NOT_IN_FILE = "not-in-file"  # declared on a column added after the file was written

STALE_KINDS = frozenset({MISSING, UNDECLARED, OPTIONS, DROPPED, ROW_COUNT, PLACEMENT,
                         CORRUPT, UNREADABLE, INVALID_OPTIONS})

# What the options alone decide in each index type's facts (IndexReader.describe): equal
# facts of the stored index and of one built now with the declared options mean the same
# options. Layout options (bitmap index-block-size, range-bitmap chunk-size) shape the bytes
# only together with the data, so they are not compared.
OPTION_FACTS = {
    "bloom-filter": ("num_hash_functions", "num_bits"),
    "bitmap": ("version",),
    "bsi": ("version",),
    "range-bitmap": ("version",),
}
# Where each index type's facts hold the row count it stores (bloom filters store none).
ROW_COUNT_FACTS = ("row_count", "rows")


@dataclass(frozen=True)
class IndexFinding:
    """One thing missing, stale or worth knowing about a data file's index."""

    kind: str
    message: str
    column: Optional[str] = None  # the index column, as the file's schema names it
    index_type: Optional[str] = None

    @property
    def stale(self) -> bool:
        return self.kind in STALE_KINDS

    def to_dict(self) -> Dict[str, Any]:
        return {"kind": self.kind, "stale": self.stale, "column": self.column,
                "index_type": self.index_type, "message": self.message}


@dataclass(frozen=True)
class StoredIndexInfo:
    """One index in a data file's container."""

    column: str  # as stored: the name in the file's schema (map entries as `m[k]`)
    current_column: Optional[str]  # the same field's name now; None when it was dropped
    index_type: str
    bytes: int  # the index body's length in the container (0 for an empty index)
    row_count: Optional[int]  # the row count it stores; None when its type stores none
    declared: bool  # the current options declare it for this file
    details: Dict[str, str] = field(default_factory=dict)  # IndexReader.describe

    def to_dict(self) -> Dict[str, Any]:
        return {"column": self.column, "current_column": self.current_column,
                "index_type": self.index_type, "bytes": self.bytes,
                "row_count": self.row_count, "declared": self.declared,
                "details": dict(self.details)}


@dataclass(frozen=True)
class FileIndexReport:
    """The file indexes of one live data file, and what is missing or stale in them."""

    partition: Dict[str, Any]
    bucket: int
    file_name: str
    row_count: int
    schema_id: int  # the schema the file (and its index) was written with
    location: Optional[str]  # "embedded", "sidecar" or None (no index)
    sidecar: Optional[str]  # the sidecar's file name when location is "sidecar"
    container_bytes: int  # the whole container's size (0: no index)
    indexes: Tuple[StoredIndexInfo, ...]
    findings: Tuple[IndexFinding, ...]

    @property
    def stale(self) -> bool:
        """A rewrite under the current options would change this file's index."""
        return any(f.stale for f in self.findings)

    def to_dict(self) -> Dict[str, Any]:
        return {"partition": {k: _json_value(v) for k, v in self.partition.items()},
                "bucket": self.bucket, "file_name": self.file_name,
                "row_count": self.row_count, "schema_id": self.schema_id,
                "location": self.location, "sidecar": self.sidecar,
                "container_bytes": self.container_bytes, "stale": self.stale,
                "indexes": [i.to_dict() for i in self.indexes],
                "findings": [f.to_dict() for f in self.findings]}


def _json_value(value):
    if isinstance(value, (str, int, float, bool, type(None))):
        return value
    return str(value)


def index_report(table, snapshot_id: Optional[int] = None,
                 max_workers: int = 8) -> List[FileIndexReport]:
    """One FileIndexReport per live data file of the snapshot (latest when None) of
    `table` (a path, a pypaimon table or a PaimonTableMetadata), in manifest order,
    judged against the table's current options and schema."""
    meta = open_metadata(table)
    current = meta.schema()
    files = meta.data_files(snapshot_id, with_deletion_vectors=False)
    judge = _Judge(meta, current)
    for data_file in files:
        judge.file_schema(data_file.schema_id)  # loaded up front, outside the pool
    if len(files) <= 1 or max_workers <= 1:
        return [judge.report(f) for f in files]
    with ThreadPoolExecutor(max_workers=min(max_workers, len(files))) as pool:
        return list(pool.map(judge.report, files))


def table_summary(meta_or_table) -> Dict[str, Any]:
    """What the report of a table judges against: its current schema id, whether reads
    consult the indexes, the `file-index.*` options, and those of them no writer reads
    (such as `file-index.bitmap.version`: per-column options only count)."""
    meta = open_metadata(meta_or_table)
    current = meta.schema()
    options = {k: v for k, v in current.options.items() if k.startswith(FILE_INDEX_PREFIX)}
    try:
        read_enabled: Optional[bool] = file_index_read_enabled(current.options)
    except PaimonMetadataError:
        read_enabled = None
    from pyfileindex import _native
    ignored = sorted(k for k in options if _native.parse_index_option_key(k)[0] == "ignored")
    return {"table": meta.path, "schema_id": current.schema_id,
            "read_enabled": read_enabled, "options": options, "ignored_options": ignored}


class _Judge:
    """Judges data files against one current schema; caches file schemas and the facts of
    reference indexes (built once per index type, column type and options)."""

    def __init__(self, meta: PaimonTableMetadata, current: SchemaInfo):
        self.meta = meta
        self.current = current
        self._schemas: Dict[int, SchemaInfo] = {current.schema_id: current}
        self._arrow_schemas: Dict[int, Any] = {}

    def file_schema(self, schema_id: int) -> SchemaInfo:
        if schema_id not in self._schemas:
            self._schemas[schema_id] = self.meta.schema(schema_id)
        return self._schemas[schema_id]

    def report(self, data_file: DataFile) -> FileIndexReport:
        file_schema = self.file_schema(data_file.schema_id)
        findings: List[IndexFinding] = []
        expected, threshold = self._expected(data_file, file_schema, findings)
        try:
            location = index_source(data_file)
            sidecar = data_file.index_file_names[0] if location == SIDECAR else None
        except PaimonMetadataError as exc:  # more than one sidecar listed
            location, sidecar = SIDECAR, None
            findings.append(IndexFinding(CORRUPT, str(exc)))
        indexes: List[StoredIndexInfo] = []
        size = 0
        if location == EMBEDDED or sidecar is not None:
            try:
                data = read_index_bytes(self.meta.table, data_file)
            except (OSError, PaimonMetadataError) as exc:
                data = None
                findings.append(IndexFinding(UNREADABLE, f"cannot read the index: {exc}"))
            if data is not None:
                size = len(data)
                indexes = self._stored(data, data_file, file_schema, expected, findings)
                if expected:  # with nothing declared, a rewrite removes the index
                    _check_placement(location, size, threshold, findings)
        present = {(i.column, i.index_type) for i in indexes}
        # A container that cannot be read says nothing of what it lacks.
        if not any(f.kind in (CORRUPT, UNREADABLE) and f.column is None for f in findings):
            for (column, index_type) in expected:
                if (column, index_type) not in present:
                    findings.append(IndexFinding(
                        MISSING, f"{index_type} on {column} is declared but not in the index",
                        column, index_type))
        self._notes(file_schema, findings)
        return FileIndexReport(
            partition=dict(data_file.partition), bucket=data_file.bucket,
            file_name=data_file.file_name, row_count=data_file.row_count,
            schema_id=data_file.schema_id, location=location, sidecar=sidecar,
            container_bytes=size, indexes=tuple(indexes), findings=tuple(findings))

    # ---- what the current options declare for the file

    def _expected(self, data_file: DataFile, file_schema: SchemaInfo,
                  findings: List[IndexFinding]):
        """({(column, index type): {option: value}} the current options declare for the
        file, in file-side names; the in-manifest threshold), or ({}, None) with an
        INVALID_OPTIONS finding when the options cannot be applied."""
        from .writer import FileIndexSpec
        try:
            spec = FileIndexSpec.for_file(self.current, file_schema)
            if data_file.write_cols is not None:
                spec = spec.restricted_to(data_file.write_cols)
            declared = spec.declared
        except (ValueError, PaimonMetadataError) as exc:  # FileIndexError is a ValueError
            findings.append(IndexFinding(INVALID_OPTIONS,
                                         f"the table's file-index options: {exc}"))
            return {}, None
        return ({(d.column, d.index_type): _index_options(spec.options, d.index_type, d.column)
                 for d in declared}, spec.threshold)

    # ---- what the file's container holds

    def _stored(self, data: bytes, data_file: DataFile, file_schema: SchemaInfo,
                expected: Mapping[Tuple[str, str], Dict[str, str]],
                findings: List[IndexFinding]) -> List[StoredIndexInfo]:
        from pyfileindex import IndexReader
        fields = [(f.name, f.type) for f in file_schema.fields]
        try:
            reader = IndexReader(data, fields)
            entries = reader.entries
        except (ValueError, KeyError) as exc:  # FileIndexError and its kinds
            findings.append(IndexFinding(CORRUPT, f"the index container cannot be read: {exc}"))
            return []
        out = []
        for entry in entries:
            column, index_type = entry.column, entry.index_type
            details: Dict[str, str] = {}
            if not entry.empty:
                try:
                    details = dict(reader.describe(column, index_type))
                except (ValueError, KeyError) as exc:
                    findings.append(IndexFinding(
                        CORRUPT, f"{index_type} on {column} cannot be read: {exc}",
                        column, index_type))
            stored_rows = _stored_row_count(details)
            current_column = translate_column(column, file_schema, self.current)
            declared = (column, index_type) in expected
            out.append(StoredIndexInfo(column, current_column, index_type,
                                       0 if entry.empty else int(entry.length),
                                       stored_rows, declared, details))
            if stored_rows is not None and stored_rows != data_file.row_count:
                findings.append(IndexFinding(
                    ROW_COUNT, f"{index_type} on {column} stores {stored_rows} rows, the data "
                               f"file has {data_file.row_count}", column, index_type))
            if current_column is None and file_schema.field_by_name(
                    split_map_column(column).base) is not None:
                findings.append(IndexFinding(
                    DROPPED, f"{index_type} on {column}: the column was dropped from the table",
                    column, index_type))
            elif not declared:
                findings.append(IndexFinding(
                    UNDECLARED, f"{index_type} on {column} is no longer declared",
                    column, index_type))
            elif details:
                self._compare_options(column, index_type, details, expected[(column,
                                      index_type)], file_schema, findings)
        return out

    def _compare_options(self, column: str, index_type: str, details: Mapping[str, str],
                         options: Dict[str, str], file_schema: SchemaInfo,
                         findings: List[IndexFinding]) -> None:
        keys = OPTION_FACTS.get(index_type)
        if not keys:
            return
        base = split_map_column(column).base
        reference = _reference_facts(index_type, column, base,
                                     file_schema.field_by_name(base).type,
                                     self._arrow_type(file_schema, base),
                                     tuple(sorted(options.items())))
        if reference is None:
            return
        differing = [k for k in keys if k in reference and details.get(k) != reference[k]]
        if differing:
            stored = ", ".join(f"{k}={details.get(k)}" for k in differing)
            wanted = ", ".join(f"{k}={reference[k]}" for k in differing)
            declared = ", ".join(f"{k}={v}" for k, v in sorted(options.items())) or "defaults"
            findings.append(IndexFinding(
                OPTIONS, f"{index_type} on {column} was built with other options "
                         f"(stored {stored}; the declared {declared} give {wanted})",
                column, index_type))

    # ---- notes

    def _notes(self, file_schema: SchemaInfo, findings: List[IndexFinding]) -> None:
        if file_schema.schema_id == self.current.schema_id:
            return
        seen = {(f.column, f.kind) for f in findings}
        for now in self._declared_fields:
            old = file_schema.field_by_id(now.field_id)
            if old is None:
                findings.append(IndexFinding(
                    NOT_IN_FILE, f"{now.name} is declared but was added after the file was "
                                 f"written: no index can be built for it", now.name))
                continue
            if old.name != now.name and (old.name, RENAMED) not in seen:
                findings.append(IndexFinding(
                    RENAMED, f"{old.name} is {now.name} now (the index is found by field id)",
                    old.name))
            if old.type != now.type:
                findings.append(IndexFinding(
                    TYPE_CHANGED, f"{now.name} was {old.type} when the file was written, "
                                  f"{now.type} now", old.name))

    def _arrow_type(self, file_schema: SchemaInfo, name: str):
        """The Arrow type pypaimon reads column `name` of `file_schema` as."""
        if file_schema.schema_id not in self._arrow_schemas:
            self._arrow_schemas[file_schema.schema_id] = _pypaimon.arrow_schema(file_schema.raw)
        return self._arrow_schemas[file_schema.schema_id].field(name).type

    @functools.cached_property
    def _declared_fields(self):
        """The current schema's fields some `file-index.*.columns` option names."""
        from pyfileindex.schema import declared_index_columns
        names = set()
        for columns in declared_index_columns(self.current.options).values():
            names.update(split_map_column(c).base for c in columns)
        return tuple(f for f in self.current.fields if f.name in names)


def _index_options(options: Mapping[str, str], index_type: str, column: str) -> Dict[str, str]:
    """The `file-index.<index_type>.<column>.<option>` entries of `options` as {option: value}."""
    from pyfileindex import _native
    out = {}
    for key, value in options.items():
        kind, key_type, key_column, option = _native.parse_index_option_key(key)
        if kind == "index-option" and key_type == index_type and key_column == column:
            out[option] = value
    return out


def _stored_row_count(details: Mapping[str, str]) -> Optional[int]:
    for key in ROW_COUNT_FACTS:
        if key in details:
            try:
                return int(details[key])
            except ValueError:
                return None
    return None


def _check_placement(location: Optional[str], size: int, threshold: int,
                     findings: List[IndexFinding]) -> None:
    # The writer embeds a container of at most `threshold` bytes (FileIndexSpec.embeds).
    if location == EMBEDDED and size > threshold:
        findings.append(IndexFinding(
            PLACEMENT, f"the {size}-byte index is embedded; above the in-manifest threshold "
                       f"of {threshold} bytes it belongs in a sidecar"))
    elif location == SIDECAR and size <= threshold:
        findings.append(IndexFinding(
            PLACEMENT, f"the {size}-byte index is a sidecar; at or below the in-manifest "
                       f"threshold of {threshold} bytes it belongs in the manifest"))


@functools.lru_cache(maxsize=256)
def _reference_facts(index_type: str, column: str, base: str, paimon_type: str, arrow_type,
                     options: Tuple[Tuple[str, str], ...]) -> Optional[Dict[str, str]]:
    """The facts of the index `index_type` on `column` (of table column `base`, Paimon type
    `paimon_type`, read as `arrow_type`) built now over one null row with `options`; None
    when no such index can be built (the writer reports refused options or types)."""
    import pyarrow as pa

    import pyfileindex as pfi

    fields = [(base, _nullable_type(paimon_type))]  # the reference row is a null
    table_options = {f"{FILE_INDEX_PREFIX}{index_type}.columns": column}
    for option, value in options:
        table_options[f"{FILE_INDEX_PREFIX}{index_type}.{column}.{option}"] = value
    try:
        built = pfi.build_index(pa.table({base: pa.nulls(1, arrow_type)}), fields,
                                table_options)
        if built is None:
            return None
        reader = pfi.IndexReader(built, fields)
        for entry in reader.entries:
            if entry.index_type == index_type and not entry.empty:
                return dict(reader.describe(entry.column, index_type))
        return None
    except (ValueError, KeyError, TypeError, pa.ArrowException):
        return None


def _nullable_type(paimon_type: str) -> str:
    """The type without its outer NOT NULL."""
    text = paimon_type.strip()
    return text[:-len("NOT NULL")].rstrip() if text.upper().endswith("NOT NULL") else text
