"""PaimonTableMetadata: one entry point over a table's metadata.

Read-only: snapshots, schema versions, live data files with their index bytes
and deletion vectors. It never imports the native core, so it can be used (and
tested) on its own.
"""

import functools
import os
from typing import Dict, List, Optional

from . import _pypaimon
from .deletion_vectors import DeletionVector, DeletionVectorKey, read_deletion_vectors
from .index_bytes import index_source, read_index_bytes
from .manifest import DataFile, live_data_files
from .schema import SchemaInfo, load_all_schemas, load_schema_by_id, translate_column
from .snapshot import load_snapshot
from .store import bound_store_requests, store_error


def _reads_store(what: str):
    """A method reading table metadata through the file IO: an OSError of the store
    (unreachable, refused, an object gone) becomes a StoreError naming the table's store
    and the reason (pyarrow's names the object), credentials scrubbed."""
    def wrap(method):
        @functools.wraps(method)
        def reading(self, *args, **kwargs):
            try:
                return method(self, *args, **kwargs)
            except OSError as exc:
                raise store_error(self.table.file_io, f"read the {what} of table", self.path,
                                  exc) from None
        return reading
    return wrap


class PaimonTableMetadata:
    """Metadata of one Paimon table directory.

    Give either `table_path` (a table directory such as `<warehouse>/<db>.db/<table>`,
    local or a URI like `s3://bucket/warehouse/db.db/t`, with `options` configuring its
    file IO as catalog options do, e.g. `fs.s3.endpoint`) or an already opened pypaimon
    table (`FileStoreTable`, e.g. from `catalog.get_table(...)`).
    """

    def __init__(self, table_path: Optional[str] = None, table=None,
                 options: Optional[Dict[str, str]] = None):
        if (table_path is None) == (table is None):
            raise ValueError("give exactly one of table_path or table")
        if table is None:
            table = _pypaimon.open_table(os.fspath(table_path), options)
        else:
            bound_store_requests(table.file_io, str(table.table_path))
        self.table = table

    @classmethod
    def from_warehouse(cls, warehouse, identifier: str,
                       options: Optional[Dict[str, str]] = None) -> "PaimonTableMetadata":
        """Open `<database>.<table>` of a filesystem warehouse, laid out as
        `<warehouse>/<database>.db/<table>` (Paimon's filesystem catalog)."""
        database, dot, name = identifier.partition(".")
        if not dot or not database or not name:
            raise ValueError(f"identifier must be 'database.table', got {identifier!r}")
        return cls(f"{os.fspath(warehouse).rstrip('/')}/{database}.db/{name}", options=options)

    @property
    def path(self) -> str:
        return str(self.table.table_path)

    @_reads_store("snapshot")
    def snapshot(self, snapshot_id: Optional[int] = None):
        """pypaimon Snapshot: the latest, or the one with `snapshot_id`."""
        return load_snapshot(self.table, snapshot_id)

    @_reads_store("schema")
    def schema(self, schema_id: Optional[int] = None) -> SchemaInfo:
        """Schema version `schema_id`; the table's current schema when None."""
        if schema_id is None:
            schema_id = self.table.table_schema.id
        return load_schema_by_id(self.table, schema_id)

    @_reads_store("schemas")
    def schemas(self) -> List[SchemaInfo]:
        return load_all_schemas(self.table)

    @_reads_store("manifests")
    def data_files(self, snapshot_id: Optional[int] = None,
                   with_deletion_vectors: bool = True) -> List[DataFile]:
        """Live data files of the snapshot (latest when `snapshot_id` is None)."""
        return live_data_files(self.table, self.snapshot(snapshot_id), with_deletion_vectors)

    @_reads_store("deletion vectors")
    def deletion_vectors(self, snapshot_id: Optional[int] = None
                         ) -> Dict[DeletionVectorKey, DeletionVector]:
        """(partition values, bucket, data file name) -> deletion vector."""
        return read_deletion_vectors(self.table, self.snapshot(snapshot_id))

    @_reads_store("file index")
    def index_bytes(self, data_file: DataFile) -> Optional[bytes]:
        """Serialized file index of `data_file` (embedded, else sidecar), or None."""
        return read_index_bytes(self.table, data_file)

    def index_source(self, data_file: DataFile) -> Optional[str]:
        """'embedded', 'sidecar' or None."""
        return index_source(data_file)

    def filesystem_path(self, path: str) -> str:
        """`path` as the table's filesystem sees it: a plain local path for
        local tables (resolved paths may be 'file:' URIs taken from Java)."""
        return _pypaimon.filesystem_path(self.table, path)

    def file_schema(self, data_file: DataFile) -> SchemaInfo:
        """The schema the data file (and its index) was written with."""
        return load_schema_by_id(self.table, data_file.schema_id)

    def index_column_for(self, column: str, data_file: DataFile,
                         schema_id: Optional[int] = None) -> Optional[str]:
        """Name under which `column` (of schema `schema_id`, default current) is
        stored in the index of `data_file`, linked by field id; None if the
        file's schema does not have that field.
        """
        return translate_column(column, self.schema(schema_id), self.file_schema(data_file))


def open_metadata(table) -> PaimonTableMetadata:
    """A table path, a pypaimon table or a PaimonTableMetadata -> PaimonTableMetadata,
    whose construction applied the file IO's request limits (planning, reading, writing
    and rewriting all take their table through here)."""
    if isinstance(table, PaimonTableMetadata):
        return table
    if isinstance(table, (str, os.PathLike)):
        return PaimonTableMetadata(os.fspath(table))
    return PaimonTableMetadata(table=table)
