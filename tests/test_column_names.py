"""Index column names: `f0`, or `m[k]` for key k of MAP column m, read apart in one place."""

import pytest

from pyfileindex.column_names import ColumnName, map_entry_name, split_map_column


@pytest.mark.parametrize("name,base,key", [
    ("f0", "f0", None),
    ("m[k]", "m", "k"),
    ("m[]", "m", ""),
    ("m[a[b]]", "m", "a[b]"),     # the map column ends at the first '['
    ("m[k", "m[k", None),         # no closing ']': a plain name
    ("[k]", "[k]", None),         # no map column before '['
    ("a b[ k ]", "a b", " k "),
])
def test_split(name, base, key):
    column = split_map_column(name)
    assert column == ColumnName(base, key)
    assert column.is_map_entry is (key is not None)
    assert column.renamed(column.base) == name


def test_renamed_keeps_the_map_key():
    assert split_map_column("m[k]").renamed("n") == "n[k]"
    assert split_map_column("f0").renamed("g0") == "g0"
    assert map_entry_name("m", "k") == "m[k]"
    assert split_map_column(map_entry_name("m", "x]y")) == ("m", "x]y")
