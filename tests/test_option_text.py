"""Option text read as Paimon's Java reads it: column lists (String.split and trim), memory
sizes (MemorySize.parse) and booleans (OptionsUtils.convertToBoolean). The expectations are
Java's answers for the same text (tests/test_java_differential_edges.py checks the native
writer against Java itself)."""

import pytest

from pyfileindex import _native
from pyfileindex.paimon.errors import PaimonMetadataError
from pyfileindex.paimon.options import (file_index_read_enabled, parse_memory_size,
                                        rename_index_columns)
from pyfileindex.schema import declared_index_columns, split_index_columns


@pytest.mark.parametrize("value,names", [
    ("a,b", ["a", "b"]),
    ("a,b,,", ["a", "b"]),          # trailing empty pieces are dropped, as by String.split
    (" a ,\tb\n", ["a", "b"]),
    ("a,\x01b\x1f", ["a", "b"]),    # trim drops every character <= ' '
    ("a\xa0, \u3000b", ["a\xa0", "\u3000b"]),  # and nothing above it
    ("a,\u2003, ", ["a"]),          # blank pieces (refused by Java) are not names
    ("m[k], m[ k ]", ["m[k]", "m[ k ]"]),
    (",", []),
    ("", []),
])
def test_column_lists_split_like_java(value, names):
    assert split_index_columns(value) == names


def test_declarations_read_the_same_lists():
    options = {"file-index.bitmap.columns": "a,\x01b,", "file-index.bsi.columns": ",",
               "file-index.bloom-filter.columns": "m[k]\x1f"}
    assert declared_index_columns(options) == {"bitmap": ["a", "b"],
                                               "bloom-filter": ["m[k]"]}
    assert rename_index_columns(options, {"a": "x", "b": None, "m": "n"}) == {
        "file-index.bitmap.columns": "x", "file-index.bloom-filter.columns": "n[k]"}


def test_the_python_reading_of_column_lists_matches_the_writers():
    # The table layer still reads `file-index.<type>.columns` itself where it has no row type
    # (renaming columns for older schemas); the native writer's plan must read the same names.
    fields = [("a", "STRING"), ("b", "INT"), ("m", "MAP<STRING, INT>")]
    options = {"file-index.bitmap.columns": "a,\x01b,",
               "file-index.bloom-filter.columns": "m[k]\x1f",
               "file-index.bsi.columns": " b , m[ k ] "}
    python = sorted((index_type, name) for index_type, names
                    in declared_index_columns(options).items() for name in names)
    native = sorted((d.index_type, d.column) for d in _native.declared_indexes(fields, options))
    assert python == native == [("bitmap", "a"), ("bitmap", "b"), ("bloom-filter", "m[k]"),
                                ("bsi", "b"), ("bsi", "m[ k ]")]


def test_the_native_grammar_of_lists_and_keys():
    assert _native.split_index_columns("a,,b,,") == [("a", False), ("", True), ("b", False)]
    assert _native.split_index_columns("") == [("", True)]
    assert _native.split_index_columns(",,") == []
    assert _native.split_index_columns("\x00 x \x7f\x20") == [("x \x7f", False)]
    assert _native.split_index_columns("\t\x1c\u2028\u3000,\x01,\xa0") == [
        ("\u2028\u3000", True), ("", False), ("\xa0", False)]  # \x01 trims away, not blank
    assert _native.parse_index_option_key("bucket") == (None, "", "", "")
    assert _native.parse_index_option_key("file-index.bitmap.columns") == (
        "columns", "bitmap", "", "")
    assert _native.parse_index_option_key("file-index.a.b.columns") == ("columns", "a.b", "", "")
    assert _native.parse_index_option_key("file-index.bloom-filter.m[k].fpp") == (
        "index-option", "bloom-filter", "m[k]", "fpp")
    for key in ("file-index.in-manifest-threshold", "file-index.read.enabled"):
        assert _native.parse_index_option_key(key)[0] == "table"
    for key in ("file-index.bitmap.version", "file-index..columns", "file-index.a.b.c.d"):
        assert _native.parse_index_option_key(key)[0] == "ignored"



@pytest.mark.parametrize("text,size", [
    ("500", 500), ("1kb", 1024), (" 16 M ", 16 << 20), ("\x012\x02GiBibytes\x1f", 2 << 30),
    ("8 Tb", 8 << 40), ("9223372036854775807", (1 << 63) - 1),
])
def test_memory_sizes_like_memory_size_parse(text, size):
    assert parse_memory_size(text) == size


@pytest.mark.parametrize("text", [
    "", " ", "kb", "1 \xa0kb",       # U+00A0 is not trimmed
    "\u0661\u0662",                  # Java's digits are ASCII
    "1 k b", "-1", "1.5kb",
    "9223372036854775808",           # beyond a long
    "8388608 tb",                    # the product is beyond a long
])
def test_memory_sizes_java_refuses(text):
    with pytest.raises(PaimonMetadataError, match="memory size"):
        parse_memory_size(text)


@pytest.mark.parametrize("value,enabled", [("true", True), ("FALSE", False), ("fAlse", False),
                                           (True, True), (False, False)])
def test_read_enabled_like_convert_to_boolean(value, enabled):
    assert file_index_read_enabled({"file-index.read.enabled": value}) is enabled
    assert file_index_read_enabled({}) is True


@pytest.mark.parametrize("value", [" false", "no", "0", ""])
def test_read_enabled_refuses_what_java_refuses(value):
    with pytest.raises(PaimonMetadataError, match="file-index.read.enabled"):
        file_index_read_enabled({"file-index.read.enabled": value})
