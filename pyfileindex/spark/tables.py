"""Paimon table paths for the pipeline: create a table, change its options, open it.

A table is addressed by its directory, laid out as Paimon's filesystem catalog does:
`<warehouse>/<database>.db/<table>`, a local directory or a URI on an object store
(`s3://bucket/warehouse/db.db/t`). Creating a table or changing its options goes through
pypaimon's filesystem catalog on that warehouse; `catalog_options` (e.g. `fs.s3.endpoint`,
`fs.s3.accessKeyId`) configure its file IO, on the driver and in every task.
"""

import os
from typing import Dict, Mapping, Optional, Tuple

import pyarrow as pa

CatalogOptions = Optional[Mapping[str, str]]


def table_location(path: str) -> str:
    """A table path as the pipeline passes it around: a URI stays as it is, a local path
    becomes absolute."""
    from pyfileindex.paimon.store import scheme_of
    text = os.fspath(path)
    if scheme_of(text) not in ("", "file"):
        return text.rstrip("/")
    return os.path.abspath(text)


def split_table_path(path: str) -> Tuple[str, str]:
    """'<warehouse>/<db>.db/<table>' -> (warehouse, 'db.table')."""
    path = table_location(path)
    parent, _, name = path.rstrip("/").rpartition("/")
    warehouse, _, database_dir = parent.rpartition("/")
    if not warehouse and parent.startswith("/"):
        warehouse = "/"
    if not database_dir.endswith(".db") or not name or len(database_dir) <= 3 or not warehouse:
        raise ValueError(f"table path must look like <warehouse>/<database>.db/<table>, "
                         f"got {path}")
    return warehouse, f"{database_dir[:-3]}.{name}"


def table_exists(path: str, catalog_options: CatalogOptions = None) -> bool:
    """Has the table at `path` a schema? Asked through the table's file IO."""
    from pypaimon.common.file_io import FileIO
    from pypaimon.common.options import Options
    path = table_location(path)
    return FileIO.get(path, Options(dict(catalog_options or {}))).exists(f"{path}/schema")


def _catalog(warehouse: str, catalog_options: CatalogOptions = None):
    from pypaimon import CatalogFactory
    return CatalogFactory.create({**dict(catalog_options or {}), "warehouse": warehouse})


def create_table(path: str, arrow_schema: pa.Schema,
                 options: Optional[Mapping[str, str]] = None,
                 partition_keys=None, catalog_options: CatalogOptions = None) -> str:
    """Create an append table (no primary key) at `path`; returns its location."""
    from pypaimon import Schema
    warehouse, identifier = split_table_path(path)
    catalog = _catalog(warehouse, catalog_options)
    catalog.create_database(identifier.split(".")[0], True)
    schema = Schema.from_pyarrow_schema(arrow_schema, partition_keys=list(partition_keys or []),
                                        options=dict(options or {}))
    catalog.create_table(identifier, schema, False)
    return table_location(path)


def set_table_options(path: str, options: Mapping[str, str],
                      catalog_options: CatalogOptions = None) -> None:
    """Set table options (a new schema version), e.g. to declare more file indexes."""
    if not options:
        return
    from pypaimon.schema.schema_change import SchemaChange
    warehouse, identifier = split_table_path(path)
    changes = [SchemaChange.set_option(k, str(v)) for k, v in options.items()]
    _catalog(warehouse, catalog_options).alter_table(identifier, changes, False)


def open_metadata(path: str, catalog_options: CatalogOptions = None):
    """PaimonTableMetadata of the table at `path`."""
    from pyfileindex.paimon import PaimonTableMetadata
    return PaimonTableMetadata(table_location(path), options=dict(catalog_options or {}))


def open_table(path: str, catalog_options: CatalogOptions = None):
    return open_metadata(path, catalog_options).table


def table_arrow_schema(table) -> pa.Schema:
    from pyfileindex.paimon import _pypaimon
    return _pypaimon.arrow_schema(table.table_schema)


def table_options(table) -> Dict[str, str]:
    return dict(table.table_schema.options)


def nullable(schema: pa.Schema) -> pa.Schema:
    return pa.schema([f.with_nullable(True) for f in schema])


def conform_batch(batch: pa.RecordBatch, target: pa.Schema) -> pa.RecordBatch:
    """A batch from Spark as the table's Arrow schema (column order, types, NOT NULL)."""
    columns = []
    for f in target:
        index = batch.schema.get_field_index(f.name)
        if index < 0:
            raise ValueError(f"the data has no column {f.name!r}; it has "
                             f"{', '.join(batch.schema.names)}")
        values = batch.column(index)
        if not values.type.equals(f.type):
            values = values.cast(f.type)
        if not f.nullable and values.null_count:
            raise ValueError(f"column {f.name!r} is NOT NULL in the table but the data "
                             "has nulls")
        columns.append(values)
    return pa.RecordBatch.from_arrays(columns, schema=target)
