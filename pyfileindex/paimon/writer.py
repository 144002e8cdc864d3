"""Writing append tables through pypaimon with the file indexes Java would write.

For every data file pypaimon writes, the index is built natively over the same rows in
the same order with the table's `file-index.*` options. A container of at most
`file-index.in-manifest-threshold` bytes (default 500) is embedded in the manifest entry
(`_EMBEDDED_FILE_INDEX`); a larger one is written as `<data file>.index` next to the data
file (temp name then rename; on object stores one complete object, see store.py) and
listed in `_EXTRA_FILES`, before any commit can reference it. How the hook sits in pypaimon: see _pypaimon_write.py.
"""

import functools
import re
import uuid
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import pyarrow as pa

import pyfileindex as pfi

from . import _pypaimon_write
from .errors import PaimonMetadataError
from .manifest import INDEX_FILE_SUFFIX
from .options import in_manifest_threshold, rename_index_columns
from .predicates import schema_fields
from .schema import SchemaInfo, schema_info_from_pypaimon
from .store import describe, is_object_store, put_new_object
from .table import open_metadata


@dataclass(frozen=True)
class FileIndexSpec:
    """How a data file's index is built: its row type, the options, the threshold."""

    fields: Tuple[Tuple[str, str], ...]
    options: Dict[str, str]
    threshold: int

    @classmethod
    def for_schema(cls, schema: SchemaInfo, options: Optional[Mapping[str, str]] = None
                   ) -> "FileIndexSpec":
        opts = dict(schema.options if options is None else options)
        return cls(tuple(schema_fields(schema)), opts, in_manifest_threshold(opts))

    @classmethod
    def for_file(cls, current: SchemaInfo, file_schema: SchemaInfo) -> "FileIndexSpec":
        """The current options applied to a file written under an older schema: declared
        columns are mapped to the file's names by field id (and left out when the file
        lacks them), as Java's index rewrite does."""
        if current.schema_id == file_schema.schema_id:
            return cls.for_schema(current)
        mapping = {}
        for f in current.fields:
            old = file_schema.field_by_id(f.field_id)
            mapping[f.name] = None if old is None else old.name
        return cls(tuple(schema_fields(file_schema)),
                   rename_index_columns(current.options, mapping),
                   in_manifest_threshold(current.options))

    @functools.cached_property
    def declared(self) -> List[Any]:
        """The indexes the options declare on these fields (pyfileindex._native.DeclaredIndex),
        as the native writer reads the options: its errors are raised here."""
        from pyfileindex import _native

        return _native.declared_indexes(self.fields, self.options)

    @property
    def declares_indexes(self) -> bool:
        return bool(self.declared)

    @property
    def indexed_columns(self) -> List[str]:
        """The fields some index is declared on, in row-type order: the only columns
        a build needs to read."""
        declared = {index.field for index in self.declared}
        return [name for name, _ in self.fields if name in declared]

    @property
    def dictionary_columns(self) -> List[str]:
        """Columns whose indexes all take dictionary-encoded strings as they are: read
        dictionary-encoded (as Parquet stores such columns), their indexes work once per
        distinct value, not once per row."""
        from pyfileindex.schema import dictionary_fields

        return dictionary_fields(self.fields, self.declared)

    def restricted_to(self, column_names: Sequence[str]) -> "FileIndexSpec":
        """Only the given columns (a partial-column write): other declarations dropped."""
        present = set(column_names)
        fields = tuple(f for f in self.fields if f[0] in present)
        mapping = {name: (name if name in present else None) for name, _ in self.fields}
        return FileIndexSpec(fields, rename_index_columns(self.options, mapping), self.threshold)

    def build(self, data) -> Optional[bytes]:
        """Container bytes for one data file's rows (Arrow table or batch), or None."""
        if not self.declares_indexes:
            return None
        names = data.schema.names
        spec = self if all(n in names for n, _ in self.fields) else self.restricted_to(names)
        if not spec.declares_indexes:
            return None
        return pfi.build_index(data, list(spec.fields), spec.options)

    def embeds(self, index: bytes) -> bool:
        return len(index) <= self.threshold  # strictly greater -> sidecar


# `.<final name>.<32 hex digits>.tmp`: hidden, and the final name can be read back
# (the orphan clean-up removes those a killed writer left).
_TEMPORARY_NAME = re.compile(r"\.(?P<name>.+)\.[0-9a-f]{32}\.tmp")


def temporary_name_target(name: str) -> Optional[str]:
    """The final name a temporary file `name` of write_temporary was meant for, else None."""
    match = _TEMPORARY_NAME.fullmatch(name)
    return None if match is None else match.group("name")


def write_temporary(file_io, path: str, data: bytes) -> str:
    """Write `data` under a fresh temporary name beside `path` and return that name."""
    directory, name = path.rsplit("/", 1) if "/" in path else ("", path)
    temp = f".{name}.{uuid.uuid4().hex}.tmp"
    if directory:
        temp = f"{directory}/{temp}"
    try:
        with file_io.new_output_stream(temp) as out:
            out.write(data)
    except BaseException:
        file_io.delete_quietly(temp)
        raise
    return temp


def write_file_atomically(file_io, path: str, data: bytes) -> None:
    """Write under a temporary name in the same directory, then rename into place."""
    temp = write_temporary(file_io, path, data)
    try:
        if not file_io.rename(temp, path):
            raise PaimonMetadataError(f"cannot rename {temp} to {path}")
    except BaseException:
        file_io.delete_quietly(temp)
        raise


def write_new_file(file_io, path: str, data: bytes) -> None:
    """Publish `data` as the new file `path`, whole or not at all; an error if the name
    is taken (an existing file is never replaced)."""
    if is_object_store(path):
        if not put_new_object(file_io, path, data):
            raise PaimonMetadataError(f"{describe(path)} already exists; it is not replaced")
    else:
        write_file_atomically(file_io, path, data)


def _attacher(file_io, spec: FileIndexSpec):
    def attach(meta, index: bytes, data_file_path: str) -> Optional[str]:
        if spec.embeds(index):
            meta.embedded_index = index
            return None
        name = meta.file_name + INDEX_FILE_SUFFIX
        path = meta.aligned_file_path(name)
        write_new_file(file_io, path, index)
        meta.extra_files = list(meta.extra_files or []) + [name]
        return path
    return attach


def open_table(table):
    """A table path, a pypaimon table or a PaimonTableMetadata -> pypaimon FileStoreTable."""
    return open_metadata(table).table


def new_indexed_write(table, overwrite: Optional[dict] = None):
    """(table write, table commit) for pypaimon: every data file the write produces
    carries its file index. Use like pypaimon's: write_arrow(...), prepare_commit(),
    then commit(messages) on the commit object (or commit messages gathered elsewhere,
    e.g. from Spark tasks)."""
    table = open_table(table)
    schema = schema_info_from_pypaimon(table.table_schema)
    if schema.primary_keys:
        raise NotImplementedError(
            "write_table writes append tables; primary-key tables are not supported")
    spec = FileIndexSpec.for_schema(schema)
    return _pypaimon_write.new_batch_write(table, spec.build, _attacher(table.file_io, spec),
                                           overwrite)


def write_table(table, data, overwrite: Optional[dict] = None) -> Optional[int]:
    """Write Arrow data (Table, RecordBatch or a sequence of them) to an append table with
    file indexes and commit it. Returns the new snapshot id (None if nothing was written).

    `overwrite`: None appends; a partition spec dict ({} = whole table) overwrites.
    """
    table = open_table(table)
    write, commit = new_indexed_write(table, overwrite)
    messages = []
    try:
        try:
            for piece in _pieces(data):
                write.write_arrow(piece)
            messages = write.prepare_commit()
        except BaseException:
            write.abort()
            raise
        snapshot_id = _pypaimon_write.commit_or_abort(table, commit, messages)
    finally:
        write.close()
        commit.close()
    if not any(m.new_files for m in messages):
        return None
    return snapshot_id


def _pieces(data) -> List[Any]:
    if isinstance(data, (pa.Table, pa.RecordBatch)):
        return [data]
    return list(data)
