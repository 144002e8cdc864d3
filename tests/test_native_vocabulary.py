"""What Python asks the native library instead of keeping copies: MemorySize, datetime64
nanoseconds, and the indexes table options declare (with which of them take dictionaries)."""

import numpy as np
import pytest

from pyfileindex import _native
from pyfileindex.paimon.errors import PaimonMetadataError
from pyfileindex.paimon.options import parse_memory_size
from pyfileindex.predicate import PredicateError, timestamp_nanos
from pyfileindex.schema import dictionary_columns


def test_memory_size_is_the_native_parser():
    assert _native.parse_memory_size(" 16 KB ") == parse_memory_size(" 16 KB ") == 16 << 10
    with pytest.raises(_native.FileIndexError, match="unknown unit 'kib'"):
        _native.parse_memory_size("1 kib")
    with pytest.raises(PaimonMetadataError, match="memory size '1 kib' has unknown unit"):
        parse_memory_size("1 kib")
    with pytest.raises(PaimonMetadataError, match="does not start with a number"):
        parse_memory_size("kb")


@pytest.mark.parametrize("value,nanos", [
    (np.datetime64(5, "10ms"), 50_000_000),          # a unit with a multiple
    (np.datetime64("1970-01-02"), 86_400 * 10 ** 9),
    (np.datetime64("1970-02"), 31 * 86_400 * 10 ** 9),
    (np.datetime64(3, "W"), 21 * 86_400 * 10 ** 9),
    (np.datetime64(-1, "us"), -1_000),
    (np.datetime64(7_000, "ps"), 7),
    (np.datetime64("2300-01-01T00:00:00", "us"), 10_413_792_000 * 10 ** 9),  # past int64 ns
])
def test_datetime64_nanos_one_converter(value, nanos):
    assert _native.datetime64_nanos(value) == nanos
    assert timestamp_nanos(value) == nanos


@pytest.mark.parametrize("value,problem", [
    (np.datetime64("NaT"), "NaT"), (np.datetime64(1, "ps"), "below nanoseconds"),
])
def test_datetime64_nanos_refusals(value, problem):
    with pytest.raises(_native.FileIndexError, match=problem):
        _native.datetime64_nanos(value)
    with pytest.raises(PredicateError, match=problem):
        timestamp_nanos(value)


FIELDS = [("s", "STRING"), ("i", "INT"), ("m", "MAP<STRING, STRING>"), ("c", "CHAR(2)"),
          ("b", "BYTES"), ("t", "STRING")]


def test_declared_indexes_follow_the_writers_plan():
    declared = _native.declared_indexes(FIELDS, {
        "file-index.bitmap.columns": "s,i,m[k]", "file-index.bsi.columns": "i",
        "file-index.bloom-filter.columns": "c,b"})
    found = {(d.column, d.index_type): (d.field, d.takes_dictionaries) for d in declared}
    assert found == {("s", "bitmap"): ("s", True), ("i", "bitmap"): ("i", False),
                     ("m[k]", "bitmap"): ("m", False), ("i", "bsi"): ("i", False),
                     ("c", "bloom-filter"): ("c", True), ("b", "bloom-filter"): ("b", False)}
    assert _native.declared_indexes(FIELDS, {"bucket": "2"}) == []


def test_declared_indexes_refuse_what_the_writer_refuses():
    options = {"file-index.bitmap.columns": "nope"}
    with pytest.raises(_native.FileIndexError) as declared:
        _native.declared_indexes(FIELDS, options)
    with pytest.raises(_native.FileIndexError) as writer:
        _native.IndexWriter(FIELDS, options)
    assert str(declared.value) == str(writer.value)


def test_dictionary_columns_are_the_strings_every_index_takes_encoded():
    options = {"file-index.bitmap.columns": "s,c,m[k]", "file-index.bsi.columns": "i",
               "file-index.bloom-filter.columns": "b,t", "file-index.bsi.columns": "i"}
    assert dictionary_columns(FIELDS, options) == ["s", "c", "t"]
    # Options that do not fit the fields: nothing is read encoded; the write says why.
    assert dictionary_columns(FIELDS, {"file-index.bitmap.columns": "nope"}) == []


def test_type_strings_are_parsed_by_the_native_grammar():
    from pyfileindex.schema import DataType, SchemaError, parse_type

    assert _native.parse_type_tree("DECIMAL(10, 2) NOT NULL") == (
        "DECIMAL", False, 10, 2, (), (), ())
    with pytest.raises(SchemaError, match=r"^cannot parse Paimon type 'INT INT' at position 5: "
                                          r"unexpected 'INT'$"):
        parse_type("INT INT")
    row = parse_type("ROW<`a b` INT NOT NULL COMMENT 'x', c VECTOR<FLOAT, 4>>")
    assert [(f.name, f.type, f.description) for f in row.fields] == [
        ("a b", "INT NOT NULL", "x"), ("c", "VECTOR<FLOAT, 4>", None)]
    assert row.fields[1].data_type == DataType("VECTOR", length=4, element=DataType("FLOAT"))
    assert parse_type("INT ARRAY") == DataType("ARRAY", element=DataType("INT"))


def test_type_names_are_printed_by_the_native_printer():
    from pyfileindex.schema import DataType, Field, SchemaError, parse_type

    # A parsed type prints as its tree does natively, and as Java spells it.
    for text, spelled in [("VARCHAR(2147483647) NOT NULL", "STRING NOT NULL"),
                          ("TIMESTAMP_LTZ(3)", "TIMESTAMP(3) WITH LOCAL TIME ZONE"),
                          ("MAP<BYTES, DECIMAL(38, 4)>", "MAP<BYTES, DECIMAL(38, 4)>"),
                          ("ROW<`a``b` INT COMMENT 'it''s', c ARRAY<TIME>>",
                           "ROW<`a``b` INT COMMENT 'it''s', `c` ARRAY<TIME(0)>>")]:
        assert str(parse_type(text)) == spelled
        assert _native.type_string(_native.parse_type_tree(text)) == spelled
    # A type built in Python too, its field types in any spelling the grammar reads.
    built = DataType("ROW", nullable=False, fields=(Field(0, "x", "INTEGER"),
                                                    Field(1, "y", "CHAR(3)", "id")))
    assert str(built) == "ROW<`x` INT, `y` CHAR(3) COMMENT 'id'> NOT NULL"
    assert str(DataType("VECTOR", length=8, element=DataType("DOUBLE"))) == "VECTOR<DOUBLE, 8>"
    # One that lacks a part says which, instead of printing "None".
    with pytest.raises(SchemaError, match="type DECIMAL needs its scale"):
        str(DataType("DECIMAL", precision=10))
    with pytest.raises(SchemaError, match="type ARRAY needs its element"):
        str(DataType("ARRAY"))
    with pytest.raises(ValueError, match="unknown Paimon type root 'NUMBER'"):
        _native.type_string(("NUMBER", True, 0, 0, (), (), ()))
    with pytest.raises(ValueError, match="type MAP has 2 child types, got 1"):
        _native.type_string(("MAP", True, 0, 0, (("INT", True, 0, 0, (), (), ()),), (), ()))


def test_columns_of_types_no_index_takes_do_not_block_the_others():
    import pyarrow as pa

    import pyfileindex as pfi

    # VECTOR and GEOMETRY columns parse now: a table holding them indexes its other columns.
    fields = [("v", "VECTOR<FLOAT, 2>"), ("g", "GEOMETRY"), ("s", "STRING")]
    data = pfi.build_index(pa.table({"s": ["a", "b", "a"]}), fields,
                           {"file-index.bitmap.columns": "s"})
    reader = pfi.IndexReader(data, fields)
    assert list(reader.evaluate(pfi.col("s") == "a").row_ids()) == [0, 2]
    with pytest.raises(_native.FileIndexError):
        pfi.IndexWriter(fields, {"file-index.bitmap.columns": "v"})
