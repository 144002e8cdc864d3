"""Loading Paimon schema files (pyfileindex.schema) and parsing Paimon type strings."""

import json
from pathlib import Path

import pytest

from conftest import GOLDEN_DIR
from pyfileindex.schema import (
    DataType,
    Field,
    SchemaError,
    declared_index_columns,
    load_schema,
    parse_schema,
    parse_type,
    type_string_from_json,
)

TABLES = GOLDEN_DIR / "paimon-java-tables"


def golden_schema(table: str, schema_id: int = 0) -> Path:
    name = table[:-3]  # "x.db" holds the table "x"
    return TABLES / table / name / "schema" / f"schema-{schema_id}"


def all_golden_schema_files():
    files = sorted(TABLES.glob("*/*/schema/schema-*"))
    assert files, f"no golden schema files under {TABLES}"
    return files


DATA_SET_A = [("f0", "STRING"), ("f1", "INT"), ("f2", "INT"), ("f3", "DOUBLE")]
DATA_SET_B = DATA_SET_A + [("f4", "TIMESTAMP(9)")]


class TestGoldenSchemas:
    def test_every_golden_schema_loads_and_its_types_parse(self):
        files = all_golden_schema_files()
        assert len(files) == 10
        for path in files:
            schema = load_schema(path)
            raw = json.loads(path.read_text())
            assert schema.id == raw["id"]
            assert [f.id for f in schema.fields] == [f["id"] for f in raw["fields"]]
            assert schema.row_type() == [(f["name"], f["type"]) for f in raw["fields"]]
            assert schema.options == raw["options"]
            assert schema.highest_field_id == raw["highestFieldId"]
            assert schema.version == 3
            assert schema.time_millis == raw["timeMillis"]
            for f in schema.fields:
                assert str(parse_type(f.type)) == f.type  # Java's spelling round-trips

    @pytest.mark.parametrize("table,row_type", [
        ("append_with_bitmap.db", DATA_SET_A),
        ("append_with_bitmap_v1.db", DATA_SET_A),
        ("append_with_bitmap_no_embedding.db", DATA_SET_A),
        ("append_with_bloomfilter.db", DATA_SET_B),
        ("append_with_bsi.db", DATA_SET_B),
        ("append_with_bsi_bitmap_bloomfilter.db", DATA_SET_B),
        ("data_evolution_with_index.db", DATA_SET_A),
    ])
    def test_row_types_of_the_append_tables(self, table, row_type):
        schema = load_schema(golden_schema(table))
        assert schema.row_type() == row_type
        assert schema.primary_keys == [] and schema.partition_keys == []

    def test_primary_key_table(self):
        schema = load_schema(golden_schema("pk_with_bitmap_dv.db"))
        assert schema.primary_keys == ["key"]
        key = schema.field_by_name("key")
        assert key == Field(0, "key", "INT NOT NULL")
        assert not key.nullable and key.data_type == DataType("INT", nullable=False)
        assert schema.options["deletion-vectors.enabled"] == "true"
        assert schema.index_columns() == {"bitmap": ["f0", "f1", "f2"]}

    def test_schema_evolution_links_fields_by_id(self):
        old = load_schema(golden_schema("append_with_bitmap_alter_table.db", 0))
        new = load_schema(golden_schema("append_with_bitmap_alter_table.db", 1))
        assert new.id == 1
        assert new.row_type() == [("f1", "BIGINT"), ("f4", "STRING"), ("f3", "DOUBLE"),
                                  ("f5", "INT")]
        assert new.field_by_id(0).name == "f4" and old.field_by_id(0).name == "f0"
        assert new.field_by_id(2) is None  # f2 was dropped
        assert new.index_columns() == {"bitmap": ["f1", "f4", "f5"]}
        assert new.options["file-index.bitmap.version"] == "1"

    def test_index_options(self):
        schema = load_schema(golden_schema("append_with_bsi_bitmap_bloomfilter.db"))
        assert schema.index_columns() == {
            "bsi": ["f1", "f2", "f4"],
            "bloom-filter": ["f0", "f1", "f2", "f3", "f4"],
            "bitmap": ["f0", "f1", "f2", "f4"],
        }
        assert schema.options["file-index.in-manifest-threshold"] == "1B"


class TestNestedTypesFromJson:
    def test_map_array_row_multiset_vector(self):
        text = json.dumps({"id": 0, "fields": [
            {"id": 0, "name": "m",
             "type": {"type": "MAP", "key": "STRING NOT NULL", "value": "INT"}},
            {"id": 1, "name": "a", "type": {"type": "ARRAY NOT NULL", "element": "BIGINT"}},
            {"id": 2, "name": "r", "type": {"type": "ROW", "fields": [
                {"id": 3, "name": "x", "type": "INT", "description": "it's x"},
                {"id": 4, "name": "y`q", "type": {"type": "MAP", "key": "STRING",
                                                  "value": {"type": "ARRAY", "element": "DOUBLE"}}},
            ]}},
            {"id": 5, "name": "ms", "type": {"type": "MULTISET", "element": "STRING"}},
            {"id": 6, "name": "v",
             "type": {"type": "VECTOR NOT NULL", "element": "FLOAT", "length": 3}},
        ], "options": {}, "partitionKeys": [], "primaryKeys": []})
        schema = parse_schema(text)
        assert schema.row_type() == [
            ("m", "MAP<STRING NOT NULL, INT>"),
            ("a", "ARRAY<BIGINT> NOT NULL"),
            ("r", "ROW<`x` INT COMMENT 'it''s x', `y``q` MAP<STRING, ARRAY<DOUBLE>>>"),
            ("ms", "MULTISET<STRING>"),
            ("v", "VECTOR<FLOAT, 3> NOT NULL"),
        ]
        map_type = schema.field_by_name("m").data_type
        assert map_type.root == "MAP"
        assert map_type.key == DataType("VARCHAR", nullable=False, length=2147483647)
        assert map_type.value == DataType("INT")
        row_type = schema.field_by_name("r").data_type
        assert [f.name for f in row_type.fields] == ["x", "y`q"]
        assert row_type.fields[0].description == "it's x"
        for name, type_text in schema.row_type():
            assert str(parse_type(type_text)) == type_text

    @pytest.mark.parametrize("node,message", [
        ({"type": "MAP", "key": "INT"}, "lacks 'value'"),
        ({"type": "WIDGET"}, "unknown nested type"),
        ({"element": "INT"}, "without a 'type'"),
        (42, "string or an object"),
    ])
    def test_malformed_nested_types(self, node, message):
        with pytest.raises(SchemaError, match=message):
            type_string_from_json(node)


class TestTypeStrings:
    @pytest.mark.parametrize("text,canonical", [
        ("INT", "INT"),
        ("integer", "INT"),
        ("INT NOT NULL", "INT NOT NULL"),
        ("INT NULL", "INT"),
        ("STRING", "STRING"),
        ("VARCHAR(2147483647)", "STRING"),
        ("VARCHAR", "VARCHAR(1)"),
        ("CHAR(3)", "CHAR(3)"),
        ("BYTES", "BYTES"),
        ("BINARY(4)", "BINARY(4)"),
        ("DECIMAL", "DECIMAL(10, 0)"),
        ("DECIMAL(5)", "DECIMAL(5, 0)"),
        ("NUMERIC(38, 18)", "DECIMAL(38, 18)"),
        ("DOUBLE PRECISION", "DOUBLE"),
        ("TIME", "TIME(0)"),
        ("TIME(3) WITHOUT TIME ZONE", "TIME(3)"),
        ("TIMESTAMP", "TIMESTAMP(6)"),
        ("TIMESTAMP(9) WITHOUT TIME ZONE", "TIMESTAMP(9)"),
        ("TIMESTAMP(3) WITH LOCAL TIME ZONE", "TIMESTAMP(3) WITH LOCAL TIME ZONE"),
        ("TIMESTAMP_LTZ(9)", "TIMESTAMP(9) WITH LOCAL TIME ZONE"),
        ("BOOLEAN", "BOOLEAN"),
        ("DATE NOT NULL", "DATE NOT NULL"),
        ("MAP<STRING, INT>", "MAP<STRING, INT>"),
        ("MAP<STRING NOT NULL, ARRAY<INT NOT NULL>> NOT NULL",
         "MAP<STRING NOT NULL, ARRAY<INT NOT NULL>> NOT NULL"),
        ("INT ARRAY", "ARRAY<INT>"),
        ("ROW<`a` INT, b STRING 'c'>", "ROW<`a` INT, `b` STRING COMMENT 'c'>"),
        ("ROW<>", "ROW<>"),
        ("VARIANT", "VARIANT"),
    ])
    def test_parse_and_spell(self, text, canonical):
        assert str(parse_type(text)) == canonical

    def test_facets(self):
        assert parse_type("DECIMAL(10, 2)").precision == 10
        assert parse_type("DECIMAL(10, 2)").scale == 2
        assert parse_type("TIMESTAMP(9)").precision == 9 and parse_type("TIMESTAMP(9)").is_timestamp
        assert parse_type("TIMESTAMP_LTZ(3)").root == "TIMESTAMP_LTZ"
        assert parse_type("SMALLINT").is_integral and not parse_type("FLOAT").is_integral
        assert parse_type("CHAR(2)").is_string and parse_type("BYTES").is_binary

    @pytest.mark.parametrize("text,message", [
        ("WIDGET", "unknown type 'WIDGET'"),
        ("", "unexpected end"),
        ("DECIMAL(10,", "expected an integer"),
        ("MAP<STRING>", "expected ','"),
        ("INT INT", "unexpected 'INT'"),
        ("CHAR(x)", "expected an integer"),
        ("ROW<a INT b>", "expected ',' or '>'"),
        # Parameters outside the ranges Java's type constructors accept (the C++ parser's too).
        ("CHAR(0)", "CHAR length must be 1..2147483647"),
        ("VARBINARY(0)", "VARBINARY length must be 1"),
        ("VARCHAR(2147483648)", "VARCHAR length must be 1"),
        ("DECIMAL(39, 0)", "DECIMAL precision must be 1..38"),
        ("DECIMAL(5, 6)", "scale 0..precision"),
        ("TIME(10)", "TIME precision must be 0..9"),
        ("ARRAY<TIMESTAMP(10) NOT NULL>", "TIMESTAMP precision must be 0..9"),
        ("TIMESTAMP(12) WITH LOCAL TIME ZONE", "precision must be 0..9"),
    ])
    def test_bad_type_strings(self, text, message):
        with pytest.raises(SchemaError, match=message) as info:
            parse_type(text)
        assert "position" in str(info.value)


class TestSchemaErrors:
    @pytest.mark.parametrize("text,message", [
        ("not json", "not valid JSON"),
        ("[]", "must be an object"),
        ('{"id": 0}', "'fields' is missing"),
        ('{"id": 0, "fields": [{"id": 0, "type": "INT"}]}', "'name' is missing"),
        ('{"id": 0, "fields": [{"id": 0, "name": "a"}]}', "field 'a': 'type' is missing"),
        ('{"id": 0, "fields": [{"id": "x", "name": "a", "type": "INT"}]}',
         "'id' is missing or not"),
        ('{"id": 0, "fields": [{"id": 0, "name": "a", "type": "INT"}, '
         '{"id": 1, "name": "a", "type": "INT"}]}', "duplicate field names: a"),
        ('{"id": 0, "fields": [], "primaryKeys": ["k"]}', "primary keys name unknown fields: k"),
        ('{"id": 0, "fields": [], "options": []}', "'options' is not an object"),
        ('{"id": 0, "fields": [], "partitionKeys": "p"}', "'partitionKeys' is not a list"),
    ])
    def test_clear_errors(self, text, message):
        with pytest.raises(SchemaError, match=message):
            parse_schema(text)

    def test_load_schema_names_the_file(self, tmp_path):
        path = tmp_path / "schema-0"
        path.write_text("{")
        with pytest.raises(SchemaError, match=str(path)):
            load_schema(path)
        with pytest.raises(FileNotFoundError):
            load_schema(tmp_path / "missing")


def test_declared_index_columns_trims_and_ignores_other_options():
    options = {
        "file-index.bitmap.columns": " f0 , m[k] ",
        "file-index.bloom-filter.columns": "",
        "file-index.bitmap.f0.version": "1",
        "file-index.read.enabled": "true",
        "bucket": "-1",
    }
    assert declared_index_columns(options) == {"bitmap": ["f0", "m[k]"]}
