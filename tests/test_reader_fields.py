"""IndexReader's row type: parsed once per distinct (name, type) list, never reused wrongly.

Opening many containers with one row type keeps its parse; these tests pin what that cache
must not change: every row type answers as its own, a list changed in place (shorter, longer
or an item replaced) is read afresh, unhashable or object fields still work, and a bad type
fails on every open.
"""

from __future__ import annotations

import collections

import pyarrow as pa
import pytest

import pyfileindex as pfi
from pyfileindex.predicate import col

ROWS = {"a": pa.array([1, 2, 3, 1], pa.int32()), "b": pa.array(["x", "y", "x", "z"])}


@pytest.fixture(scope="module")
def data() -> bytes:
    writer = pfi.IndexWriter([("a", "INT"), ("b", "STRING")],
                             {"file-index.bitmap.columns": "a,b"})
    writer.write(pa.table(ROWS))
    return writer.finish()


def _rows(reader, predicate):
    result = reader.evaluate(predicate)
    return None if result.kind != "ROWS" else list(result.row_ids())


def test_each_row_type_answers_as_its_own(data):
    both = [("a", "INT"), ("b", "STRING")]
    only_a = [("a", "INT")]
    for _ in range(3):  # the second and third opens take the kept parse
        assert _rows(pfi.IndexReader(data, both), col("b") == "x") == [0, 2]
        # A column missing from the row type answers REMAIN, whatever was opened before.
        assert _rows(pfi.IndexReader(data, only_a), col("b") == "x") is None
        assert _rows(pfi.IndexReader(data, only_a), col("a") == 1) == [0, 3]


def test_a_list_changed_in_place_is_read_afresh(data):
    fields = [("a", "INT"), ("b", "STRING")]
    assert _rows(pfi.IndexReader(data, fields), col("b") == "y") == [1]
    fields.pop()
    assert _rows(pfi.IndexReader(data, fields), col("b") == "y") is None
    fields.append(("b", "STRING"))
    assert _rows(pfi.IndexReader(data, fields), col("b") == "y") == [1]


def test_an_item_replaced_in_place_is_read_afresh(data):
    # The same list object, the same length, one item replaced: a row type of its own (the
    # last list opened is recognised by identity, its items too).
    fields = [("a", "INT"), ("b", "STRING")]
    assert _rows(pfi.IndexReader(data, fields), col("b") == "y") == [1]
    fields[1] = ("c", "STRING")
    assert _rows(pfi.IndexReader(data, fields), col("b") == "y") is None
    fields[1] = ("b", "STRING")
    assert _rows(pfi.IndexReader(data, fields), col("b") == "y") == [1]
    fields[0] = ("a", "NOPE")
    with pytest.raises(pfi.FileIndexError, match="NOPE"):
        pfi.IndexReader(data, fields)


def test_lists_and_field_objects_are_accepted(data):
    Field = collections.namedtuple("Field", "name type")  # a tuple, but not of two strs only
    forms = ([["a", "INT"], ["b", "STRING"]],
             [Field("a", "INT"), Field("b", "STRING")],
             (("a", "INT"), ("b", "STRING")))
    for fields in forms:
        assert _rows(pfi.IndexReader(data, fields), col("a") == 1) == [0, 3]


def test_a_bad_type_fails_on_every_open(data):
    for _ in range(2):
        with pytest.raises(pfi.FileIndexError, match="NOPE"):
            pfi.IndexReader(data, [("a", "INT"), ("b", "NOPE")])


def test_many_row_types_in_turn(data):
    # More row types than are kept: each still opens as its own.
    for k in range(200):
        fields = [("a", "INT"), (f"unused{k}", "BIGINT"), ("b", "STRING")]
        assert _rows(pfi.IndexReader(data, fields), col("b") == "z") == [3]
