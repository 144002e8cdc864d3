"""Table schemas by schema id, and linking fields across schema versions.

Paimon identifies a column by its field id; names and types may change with
ALTER TABLE. A file index stores the column names of the schema its data file
was written with (the file's schema id), so a predicate on the current schema
has to be translated through field ids before it can be asked of the index.
"""

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from . import _pypaimon
from .errors import PaimonMetadataError

_NOT_NULL_SUFFIX = " NOT NULL"


@dataclass(frozen=True)
class FieldInfo:
    """One top-level column of a schema version."""

    field_id: int
    name: str
    type: str  # Paimon type string as in the schema file, e.g. "INT NOT NULL"
    nullable: bool
    data_type: Any = field(default=None, repr=False, compare=False)  # pypaimon DataType

    @property
    def base_type(self) -> str:
        """The type string without the NOT NULL suffix, e.g. 'TIMESTAMP(9)'."""
        if self.type.endswith(_NOT_NULL_SUFFIX):
            return self.type[:-len(_NOT_NULL_SUFFIX)]
        return self.type


@dataclass(frozen=True)
class SchemaInfo:
    """One schema version of a table (the content of schema/schema-<id>)."""

    schema_id: int
    fields: Tuple[FieldInfo, ...]
    primary_keys: Tuple[str, ...]
    partition_keys: Tuple[str, ...]
    options: Dict[str, str]
    highest_field_id: int
    raw: Any = field(default=None, repr=False, compare=False)  # pypaimon TableSchema

    @property
    def field_names(self) -> List[str]:
        return [f.name for f in self.fields]

    def field_by_id(self, field_id: int) -> Optional[FieldInfo]:
        for f in self.fields:
            if f.field_id == field_id:
                return f
        return None

    def field_by_name(self, name: str) -> Optional[FieldInfo]:
        for f in self.fields:
            if f.name == name:
                return f
        return None


def schema_info_from_pypaimon(table_schema) -> SchemaInfo:
    fields = tuple(
        FieldInfo(
            field_id=f.id,
            name=f.name,
            type=_pypaimon.type_string(f.type),
            nullable=bool(getattr(f.type, "nullable", True)),
            data_type=f.type,
        )
        for f in table_schema.fields)
    return SchemaInfo(
        schema_id=table_schema.id,
        fields=fields,
        primary_keys=tuple(table_schema.primary_keys or ()),
        partition_keys=tuple(table_schema.partition_keys or ()),
        options=dict(table_schema.options or {}),
        highest_field_id=table_schema.highest_field_id,
        raw=table_schema,
    )


def load_schema(table, schema_id: int) -> SchemaInfo:
    """Schema version `schema_id` of the table."""
    table_schema = _pypaimon.schema_by_id(table, schema_id)
    if table_schema is None:
        raise PaimonMetadataError(
            f"table {table.table_path} has no schema {schema_id}")
    return schema_info_from_pypaimon(table_schema)


def load_all_schemas(table) -> List[SchemaInfo]:
    """Every schema version still on disk, ascending by id."""
    return [schema_info_from_pypaimon(s) for s in _pypaimon.all_schemas(table)]


@dataclass(frozen=True)
class FieldChange:
    """How one field id looks in an older and a newer schema."""

    field_id: int
    old: Optional[FieldInfo]  # None: the field was added after the old schema
    new: Optional[FieldInfo]  # None: the field was dropped

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


def compare_schemas(old: SchemaInfo, new: SchemaInfo) -> Dict[int, FieldChange]:
    """Field id -> its old and new form, for every id in either schema."""
    ids = [f.field_id for f in old.fields]
    ids += [f.field_id for f in new.fields if old.field_by_id(f.field_id) is None]
    return {fid: FieldChange(fid, old.field_by_id(fid), new.field_by_id(fid)) for fid in ids}


def _split_map_key(column: str) -> Tuple[str, str]:
    """'m[k]' -> ('m', '[k]'); a plain column -> (column, '').

    Nested index columns are written as `<mapcol>[<key>]`, split at the first
    '[' (see the index option syntax); only the map column can be renamed.
    """
    bracket = column.find("[")
    if bracket > 0 and column.endswith("]"):
        return column[:bracket], column[bracket:]
    return column, ""


def translate_column(column: str, from_schema: SchemaInfo,
                     to_schema: SchemaInfo) -> Optional[str]:
    """Name of `column` (from `from_schema`) in `to_schema`, linked by field id.

    Works for plain index column names and for nested `m[k]` names. Returns
    None when the column does not exist in `from_schema` or was dropped.
    """
    base, suffix = _split_map_key(column)
    source = from_schema.field_by_name(base)
    if source is None:
        return None
    target = to_schema.field_by_id(source.field_id)
    if target is None:
        return None
    return target.name + suffix


def field_in_schema(field_id: int, schema: SchemaInfo) -> FieldInfo:
    """The field with `field_id` in `schema`; error if the schema lacks it."""
    found = schema.field_by_id(field_id)
    if found is None:
        raise PaimonMetadataError(
            f"schema {schema.schema_id} has no field with id {field_id}")
    return found
