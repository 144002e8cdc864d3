"""Table schemas by schema id, and linking fields across schema versions.

Paimon identifies a column by its field id; names and types may change with
ALTER TABLE. A file index stores the column names of the schema its data file
was written with (the file's schema id), so a predicate on the current schema
has to be translated through field ids before it can be asked of the index.
"""

from dataclasses import dataclass
from typing import Dict, List, Optional

from pyfileindex._deprecation import deprecated_names
from pyfileindex.column_names import split_map_column
from pyfileindex.schema import Field, Schema

from . import _pypaimon
from .errors import PaimonMetadataError

# The table layer once had its own schema classes; they are pyfileindex.schema's now, which
# the older names still reach.
SchemaInfo = Schema
FieldInfo = Field


def schema_info_from_pypaimon(table_schema) -> Schema:
    """A Schema from pypaimon's TableSchema (kept as `raw`, for its Arrow schema)."""
    fields = [
        Field(f.id, f.name, _pypaimon.type_string(f.type),
              description=getattr(f, "description", None))
        for f in table_schema.fields]
    return Schema(
        id=table_schema.id,
        fields=fields,
        options=dict(table_schema.options or {}),
        partition_keys=list(table_schema.partition_keys or ()),
        primary_keys=list(table_schema.primary_keys or ()),
        highest_field_id=table_schema.highest_field_id,
        comment=getattr(table_schema, "comment", None),
        time_millis=getattr(table_schema, "time_millis", None),
        raw=table_schema,
    )


def load_schema_by_id(table, schema_id: int) -> Schema:
    """Schema version `schema_id` of the table."""
    table_schema = _pypaimon.schema_by_id(table, schema_id)
    if table_schema is None:
        raise PaimonMetadataError(
            f"table {table.table_path} has no schema {schema_id}")
    return schema_info_from_pypaimon(table_schema)


def load_all_schemas(table) -> List[Schema]:
    """Every schema version still on disk, ascending by id."""
    return [schema_info_from_pypaimon(s) for s in _pypaimon.all_schemas(table)]


# Was load_schema, the name of pyfileindex.schema.load_schema(path) (a schema file) too.
__getattr__ = deprecated_names(__name__, {"load_schema": (
    "pyfileindex.paimon.load_schema_by_id", load_schema_by_id)})


@dataclass(frozen=True)
class FieldChange:
    """How one field id looks in an older and a newer schema."""

    field_id: int
    old: Optional[Field]  # None: the field was added after the old schema
    new: Optional[Field]  # None: the field was dropped

    @property
    def dropped(self) -> bool:
        return self.new is None

    @property
    def added(self) -> bool:
        return self.old is None

    @property
    def renamed(self) -> bool:
        return self.old is not None and self.new is not None and self.old.name != self.new.name

    @property
    def type_changed(self) -> bool:
        return self.old is not None and self.new is not None and self.old.type != self.new.type


def compare_schemas(old: Schema, new: Schema) -> Dict[int, FieldChange]:
    """Field id -> its old and new form, for every id in either schema."""
    ids = [f.field_id for f in old.fields]
    ids += [f.field_id for f in new.fields if old.field_by_id(f.field_id) is None]
    return {fid: FieldChange(fid, old.field_by_id(fid), new.field_by_id(fid)) for fid in ids}


def translate_column(column: str, from_schema: Schema,
                     to_schema: Schema) -> Optional[str]:
    """Name of `column` (from `from_schema`) in `to_schema`, linked by field id.

    Works for plain index column names and for nested `m[k]` names. Returns
    None when the column does not exist in `from_schema` or was dropped.
    """
    name = split_map_column(column)  # only the map column can be renamed, not its key
    source = from_schema.field_by_name(name.base)
    if source is None:
        return None
    target = to_schema.field_by_id(source.field_id)
    if target is None:
        return None
    return name.renamed(target.name)


def field_in_schema(field_id: int, schema: Schema) -> Field:
    """The field with `field_id` in `schema`; error if the schema lacks it."""
    found = schema.field_by_id(field_id)
    if found is None:
        raise PaimonMetadataError(
            f"schema {schema.schema_id} has no field with id {field_id}")
    return found
