"""Paimon schema files (`<table>/schema/schema-<id>`) and Paimon type strings.

`Schema` and `Field` are the one schema model of the package: read from a schema file
here, or from pypaimon's TableSchema by the table layer (pyfileindex.paimon.schema).

A schema file is JSON written by Java's TableSchema: `version`, `id`, `fields`
(each with `id`, `name`, `type`, optional `description` / `defaultValue`),
`highestFieldId`, `partitionKeys`, `primaryKeys`, `options`, `comment`,
`timeMillis`.  A field's `type` is either a type string (atomic types, e.g.
"INT NOT NULL", "TIMESTAMP(9)", "DECIMAL(10, 2)") or, for nested types, a JSON
object as written by Paimon's DataType.serializeJson:

    {"type": "MAP" | "MAP NOT NULL", "key": <type>, "value": <type>}
    {"type": "ARRAY" | "MULTISET" [+ " NOT NULL"], "element": <type>}
    {"type": "VECTOR" [+ " NOT NULL"], "element": <type>, "length": n}
    {"type": "ROW" [+ " NOT NULL"], "fields": [<field>, ...]}

Everything here turns both forms into one type-string form, e.g.
"MAP<STRING, INT>", which is what the native bindings and the predicate
binder consume. Type strings are parsed by the native library's grammar
(pyfileindex._native.parse_type_tree), the one its writers and readers use.
"""

import functools
import json
import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union


__all__ = [
    "DataType",
    "Field",
    "Schema",
    "SchemaError",
    "load_schema",
    "parse_schema",
    "parse_type",
    "type_string_from_json",
]

# VARCHAR / VARBINARY of this length are spelled STRING / BYTES (Java MAX_LENGTH).
MAX_LENGTH = 2147483647

_NOT_NULL = " NOT NULL"


class SchemaError(ValueError):
    """A schema file or a type string is malformed."""


# ---------------------------------------------------------------------------------------------
# Type strings
# ---------------------------------------------------------------------------------------------

INTEGRAL_ROOTS = ("TINYINT", "SMALLINT", "INT", "BIGINT")
INTEGRAL_RANGES = {
    "TINYINT": (-(2 ** 7), 2 ** 7 - 1),
    "SMALLINT": (-(2 ** 15), 2 ** 15 - 1),
    "INT": (-(2 ** 31), 2 ** 31 - 1),
    "BIGINT": (-(2 ** 63), 2 ** 63 - 1),
}


@dataclass(frozen=True)
class DataType:
    """A parsed Paimon type.  `str(t)` gives Paimon's SQL spelling (asSQLString)."""

    root: str
    nullable: bool = True
    length: Optional[int] = None  # CHAR, VARCHAR, BINARY, VARBINARY, VECTOR
    precision: Optional[int] = None  # DECIMAL, TIME, TIMESTAMP, TIMESTAMP_LTZ
    scale: Optional[int] = None  # DECIMAL
    element: Optional["DataType"] = None  # ARRAY, MULTISET, VECTOR
    key: Optional["DataType"] = None  # MAP
    value: Optional["DataType"] = None  # MAP
    fields: Tuple["Field", ...] = ()  # ROW

    @property
    def is_integral(self) -> bool:
        return self.root in INTEGRAL_ROOTS

    @property
    def is_string(self) -> bool:
        return self.root in ("CHAR", "VARCHAR")

    @property
    def is_binary(self) -> bool:
        return self.root in ("BINARY", "VARBINARY")

    @property
    def is_timestamp(self) -> bool:
        return self.root in ("TIMESTAMP", "TIMESTAMP_LTZ")

    def __str__(self) -> str:
        return self._text

    @functools.cached_property
    def _text(self) -> str:
        # The native printer's spelling, the one its writers and readers put in messages.
        from pyfileindex import _native

        return _native.type_string(self._tree())

    def _tree(self) -> tuple:
        """This type as pyfileindex._native.parse_type_tree's nested tuples."""
        root = self.root
        precision = 0
        if root in _LENGTH_ROOTS:
            precision = self._required("length", self.length)
        elif root in _PRECISION_ROOTS:
            precision = self._required("precision", self.precision)
        scale = self._required("scale", self.scale) if root == "DECIMAL" else 0
        names: Tuple[str, ...] = ()
        descriptions: Tuple[str, ...] = ()
        if root in ("ARRAY", "MULTISET", "VECTOR"):
            children: Tuple[DataType, ...] = (self._required("element", self.element),)
        elif root == "MAP":
            children = (self._required("key", self.key), self._required("value", self.value))
        elif root == "ROW":
            children = tuple(f.data_type for f in self.fields)
            names = tuple(f.name for f in self.fields)
            descriptions = tuple(f.description or "" for f in self.fields)
        else:
            children = ()
        return (root, self.nullable, precision, scale, tuple(c._tree() for c in children),
                names, descriptions)

    def _required(self, part: str, value: Any) -> Any:
        if value is None:
            raise SchemaError(f"type {self.root} needs its {part}")
        return value


def _escape_identifier(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def _escape_string(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _row_field_string(f: "Field") -> str:
    # Java DataField.asSQLString: `name` TYPE [COMMENT '...'].
    text = f"{_escape_identifier(f.name)} {f.type}"
    if f.description:
        text += f" COMMENT {_escape_string(f.description)}"
    return text


def parse_type(text: Union[str, DataType]) -> DataType:
    """Parse a Paimon type string such as "DECIMAL(10, 2) NOT NULL" or "MAP<STRING, INT>".

    The native library's grammar reads it (the one the index writers and readers use): Java's
    atomic spellings (aliases like INTEGER, NUMERIC, BYTES, DOUBLE PRECISION, TIMESTAMP(3)
    WITH LOCAL TIME ZONE) plus the nested spellings this module produces. Raises SchemaError
    naming the position of the problem.
    """
    if isinstance(text, DataType):
        return text
    if not isinstance(text, str):
        raise SchemaError(f"a type must be a string, got {type(text).__name__}")
    return _parse_type_text(text)


@functools.lru_cache(maxsize=4096)
def _parse_type_text(text: str) -> DataType:
    from pyfileindex import _native

    try:
        tree = _native.parse_type_tree(text)
    except _native.FileIndexError as exc:
        raise SchemaError(str(exc)) from None
    return _data_type_from_tree(tree)


_LENGTH_ROOTS = ("CHAR", "VARCHAR", "BINARY", "VARBINARY", "VECTOR")
_PRECISION_ROOTS = ("DECIMAL", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ")


def _data_type_from_tree(tree: tuple) -> DataType:
    """pyfileindex._native.parse_type_tree's nested tuples -> DataType."""
    root, nullable, precision, scale, children, names, descriptions = tree
    parts: Dict[str, Any] = {"nullable": nullable}
    if root in _LENGTH_ROOTS:
        parts["length"] = precision
    if root in _PRECISION_ROOTS:
        parts["precision"] = precision
    if root == "DECIMAL":
        parts["scale"] = scale
    inner = [_data_type_from_tree(child) for child in children]
    if root in ("ARRAY", "MULTISET", "VECTOR"):
        parts["element"] = inner[0]
    elif root == "MAP":
        parts["key"], parts["value"] = inner
    elif root == "ROW":
        parts["fields"] = tuple(Field(i, name, str(field_type), description or None)
                                for i, (name, field_type, description)
                                in enumerate(zip(names, inner, descriptions)))
    return DataType(root, **parts)


def type_string_from_json(node: Any) -> str:
    """The type-string form of a schema file's `type` value (string or JSON object)."""
    if isinstance(node, str):
        return node
    if not isinstance(node, Mapping):
        raise SchemaError(f"a type must be a string or an object, got {json.dumps(node)}")
    type_name = node.get("type")
    if not isinstance(type_name, str):
        raise SchemaError(f"nested type object without a 'type' string: {json.dumps(node)}")
    suffix = _NOT_NULL if "NOT NULL" in type_name else ""
    head = type_name.split()[0].upper() if type_name.split() else ""
    try:
        if head in ("ARRAY", "MULTISET"):
            return f"{head}<{type_string_from_json(node['element'])}>{suffix}"
        if head == "VECTOR":
            element = type_string_from_json(node["element"])
            return f"VECTOR<{element}, {int(node['length'])}>{suffix}"
        if head == "MAP":
            key = type_string_from_json(node["key"])
            value = type_string_from_json(node["value"])
            return f"MAP<{key}, {value}>{suffix}"
        if head == "ROW":
            parts = [_row_field_string(_field_from_json(f)) for f in node["fields"]]
            return "ROW<" + ", ".join(parts) + ">" + suffix
    except KeyError as exc:
        raise SchemaError(f"{head} type object lacks {exc.args[0]!r}: {json.dumps(node)}") from None
    raise SchemaError(f"unknown nested type {type_name!r}")


# ---------------------------------------------------------------------------------------------
# Schema files
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Field:
    """One column: Paimon field id, name and type string (e.g. "INT NOT NULL")."""

    id: int
    name: str
    type: str
    description: Optional[str] = None
    default_value: Optional[str] = None

    @property
    def data_type(self) -> DataType:
        return parse_type(self.type)

    @property
    def nullable(self) -> bool:
        return not self.type.endswith(_NOT_NULL)

    @property
    def field_id(self) -> int:
        """The Paimon field id (`id`): what links a column across schema versions."""
        return self.id

    @property
    def base_type(self) -> str:
        """The type string without the NOT NULL suffix, e.g. 'TIMESTAMP(9)'."""
        return self.type[:-len(_NOT_NULL)] if self.type.endswith(_NOT_NULL) else self.type


@dataclass(frozen=True)
class Schema:
    """The content of one `schema/schema-<id>` file."""

    id: int
    fields: List[Field]
    options: Dict[str, str] = field(default_factory=dict)
    partition_keys: List[str] = field(default_factory=list)
    primary_keys: List[str] = field(default_factory=list)
    highest_field_id: Optional[int] = None
    version: Optional[int] = None
    comment: Optional[str] = None
    time_millis: Optional[int] = None
    # The object this schema was read from, when a library read it (pypaimon's TableSchema
    # for the table layer); not part of the schema's value.
    raw: Any = field(default=None, repr=False, compare=False)

    @property
    def schema_id(self) -> int:
        """The schema id (`id`), as data files and snapshots name their schema."""
        return self.id

    def row_type(self) -> List[Tuple[str, str]]:
        """[(name, type string)] in column order: what the native layer takes as `fields`."""
        return [(f.name, f.type) for f in self.fields]

    @property
    def field_names(self) -> List[str]:
        return [f.name for f in self.fields]

    def field_by_id(self, field_id: int) -> Optional[Field]:
        for f in self.fields:
            if f.id == field_id:
                return f
        return None

    def field_by_name(self, name: str) -> Optional[Field]:
        for f in self.fields:
            if f.name == name:
                return f
        return None

    def index_columns(self) -> Dict[str, List[str]]:
        """{index type: [column, ...]} declared by `file-index.<type>.columns` options."""
        return declared_index_columns(self.options)


def split_index_columns(value: str) -> List[str]:
    """The names a `file-index.<type>.columns` value declares, read as Paimon reads it (the
    native writer's reading: String.split(",") with trailing empty pieces dropped, then each
    piece String.trim()-ed). Blank pieces, which Paimon refuses, are left out here; the native
    writer refuses them."""
    from pyfileindex import _native

    return [name for name, blank in _native.split_index_columns(str(value)) if not blank]


def declared_index_columns(options: Mapping[str, str]) -> Dict[str, List[str]]:
    """{index type: [column, ...]} from `file-index.<type>.columns` options, the keys read by
    the native writer's grammar."""
    from pyfileindex import _native

    declared: Dict[str, List[str]] = {}
    for key, value in options.items():
        kind, index_type, _, _ = _native.parse_index_option_key(key)
        if kind != "columns" or value is None:
            continue
        names = split_index_columns(value)
        if names:
            declared[index_type] = names
    return declared


def dictionary_columns(fields: Sequence[Tuple[str, str]], options: Mapping[str, str]) -> List[str]:
    """The columns of `fields` ((name, type) pairs) to read dictionary-encoded, as Parquet
    stores strings: those whose every declared index takes such arrays as they are, working
    once per distinct value (the native writer says which do). In field order; none when the
    options do not fit the fields (building the index then reports why)."""
    from pyfileindex import _native  # the writer's own plan of the options

    try:
        declared = _native.declared_indexes(fields, options)
    except (_native.FileIndexError, TypeError):
        return []
    return dictionary_fields(fields, declared)


def dictionary_fields(fields: Sequence[Tuple[str, str]], declared: Sequence[Any]) -> List[str]:
    """The fields whose every declared index (pyfileindex._native.declared_indexes) takes
    dictionary-encoded strings as they are, in field order."""
    takes: Dict[str, bool] = {}
    for index in declared:
        takes[index.field] = takes.get(index.field, True) and index.takes_dictionaries
    return [name for name, _ in fields if takes.get(name, False)]


def _require(obj: Mapping, key: str, kinds, what: str):
    value = obj.get(key)
    if not isinstance(value, kinds) or isinstance(value, bool):
        raise SchemaError(f"{what}: '{key}' is missing or not a {_kind_name(kinds)}")
    return value


def _kind_name(kinds) -> str:
    kinds = kinds if isinstance(kinds, tuple) else (kinds,)
    names = {int: "number", str: "string", list: "list", dict: "object"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _field_from_json(node: Any) -> Field:
    if not isinstance(node, Mapping):
        raise SchemaError(f"a field must be an object, got {json.dumps(node)}")
    name = _require(node, "name", str, "field")
    what = f"field {name!r}"
    if "id" in node:
        field_id = _require(node, "id", int, what)
    else:
        field_id = -1  # nested ROW fields written without ids get them assigned by Java
    if "type" not in node:
        raise SchemaError(f"{what}: 'type' is missing")
    try:
        type_text = type_string_from_json(node["type"])
    except SchemaError as exc:
        raise SchemaError(f"{what}: {exc}") from None
    description = node.get("description")
    default_value = node.get("defaultValue")
    return Field(field_id, name, type_text,
                 None if description is None else str(description),
                 None if default_value is None else str(default_value))


def _string_list(source: Mapping, key: str) -> List[str]:
    value = source.get(key)
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SchemaError(f"schema: '{key}' is not a list of names")
    return list(value)


def parse_schema(source: Union[str, bytes, Mapping]) -> Schema:
    """A Schema from a schema file's JSON text (or the already decoded object)."""
    if isinstance(source, (str, bytes)):
        try:
            source = json.loads(source)
        except ValueError as exc:
            raise SchemaError(f"schema is not valid JSON: {exc}") from None
    if not isinstance(source, Mapping):
        raise SchemaError("schema JSON must be an object")
    raw_fields = _require(source, "fields", list, "schema")
    fields = [_field_from_json(f) for f in raw_fields]
    names = [f.name for f in fields]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise SchemaError(f"schema has duplicate field names: {', '.join(duplicates)}")
    options = source.get("options")
    options = {} if options is None else options
    if not isinstance(options, Mapping):
        raise SchemaError("schema: 'options' is not an object")
    partition_keys = _string_list(source, "partitionKeys")
    primary_keys = _string_list(source, "primaryKeys")
    for kind, keys in (("partition", partition_keys), ("primary", primary_keys)):
        unknown = [k for k in keys if k not in names]
        if unknown:
            raise SchemaError(
                f"schema {kind} keys name unknown fields: {', '.join(map(str, unknown))}")
    schema_id = source.get("id", 0)
    if not isinstance(schema_id, int) or isinstance(schema_id, bool):
        raise SchemaError("schema: 'id' is not a number")
    return Schema(
        id=schema_id,
        fields=fields,
        options={str(k): "" if v is None else str(v) for k, v in options.items()},
        partition_keys=partition_keys,
        primary_keys=primary_keys,
        highest_field_id=source.get("highestFieldId"),
        version=source.get("version"),
        comment=source.get("comment"),
        time_millis=source.get("timeMillis"),
    )


def load_schema(path: Union[str, "os.PathLike[str]"]) -> Schema:
    """Read a Paimon schema file (e.g. `<table>/schema/schema-0`)."""
    with open(path, "rb") as handle:
        text = handle.read()
    try:
        return parse_schema(text)
    except SchemaError as exc:
        raise SchemaError(f"{os.fspath(path)}: {exc}") from None
