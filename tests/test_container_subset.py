"""Sidecars read in part: a container cut down to the queried columns' indexes answers as the
whole container does, and a head that cannot be cut down leaves the whole container to the
native reader."""

from __future__ import annotations

import struct

import numpy as np
import pyarrow as pa
import pytest

import pyfileindex as pfi
from pyfileindex import col
from pyfileindex import plan_container_subset
from pyfileindex.paimon.ranged import HEADER_PROBE, fetch_index

FIELDS = [("id", "BIGINT"), ("tag", "STRING"), ("score", "DOUBLE"), ("m", "MAP<STRING, INT>")]
OPTIONS = {"file-index.bloom-filter.columns": "id",
           "file-index.bitmap.columns": "tag,m[a]",
           "file-index.range-bitmap.columns": "score,id"}
ROWS = 5000


@pytest.fixture(scope="module")
def container() -> bytes:
    n = ROWS
    table = pa.table({
        "id": pa.array(range(n), pa.int64()),
        "tag": [None if i % 97 == 0 else f"t{i % 37}" for i in range(n)],
        "score": [float(i % 101) for i in range(n)],
        "m": pa.array([[("a", i % 5)] for i in range(n)], pa.map_(pa.string(), pa.int32())),
    })
    data = pfi.build_index(table, FIELDS, OPTIONS)
    assert len(data) > 4 * HEADER_PROBE
    return data


def _subset(data: bytes, columns) -> bytes:
    """The container plan_container_subset lays out for `columns`, its bodies copied from
    `data` where the plan says."""
    head, bodies, size, _ = plan_container_subset(data, len(data), columns)
    out = bytearray(size)
    out[:len(head)] = head
    for source, length, at in bodies:
        out[at:at + length] = data[source:source + length]
    return bytes(out)


QUESTIONS = [
    ({"id"}, col("id") == 4321),
    ({"id"}, col("id").isin([7, 9999])),
    ({"id"}, col("id").between(100, 140)),
    ({"tag"}, col("tag") == "t5"),
    ({"tag"}, col("tag").is_null()),
    ({"tag"}, col("tag").startswith("t1")),
    ({"score"}, col("score") > 99.5),
    ({"m[a]"}, col("m[a]") == 3),
    ({"tag", "score"}, (col("tag") == "t3") & (col("score") < 10.0)),
    ({"id", "m[a]"}, (col("id") < 50) | (col("m[a]") == 1)),
]


def _answer(data, predicate):
    result = pfi.IndexReader(data, FIELDS, ROWS).evaluate(predicate)
    rows = result.row_ids() if result.kind == "ROWS" else np.array([], np.uint32)
    return result.kind, result.skip, rows.tolist()


@pytest.mark.parametrize("columns,predicate", QUESTIONS, ids=[str(p) for _, p in QUESTIONS])
def test_a_subset_answers_like_the_whole_container(container, columns, predicate):
    subset = _subset(container, columns)
    assert len(subset) < len(container)
    assert {e.column for e in pfi.IndexReader(subset).entries} == columns
    assert _answer(subset, predicate) == _answer(container, predicate)


def test_the_subset_keeps_every_index_of_a_column_in_head_order(container):
    whole = [(e.column, e.index_type, e.length) for e in pfi.IndexReader(container).entries]
    subset = [(e.column, e.index_type, e.length)
              for e in pfi.IndexReader(_subset(container, {"id", "score"})).entries]
    assert subset == [e for e in whole if e[0] in ("id", "score")]
    assert [t for c, t, _ in subset if c == "id"] == ["bloom-filter", "range-bitmap"]
    assert pfi.IndexReader(_subset(container, set())).entries == []
    listed = plan_container_subset(container, len(container), {"id"})[3]
    assert listed == list(dict.fromkeys(e.column for e in pfi.IndexReader(container).entries))


def test_the_header_alone_plans_the_subset(container):
    head_length = min(e.offset for e in pfi.IndexReader(container).entries if not e.empty)
    assert (plan_container_subset(container[:head_length], len(container), {"tag"})
            == plan_container_subset(container, len(container), {"tag"}))
    with pytest.raises(pfi.CorruptIndexError, match="head length"):
        plan_container_subset(container[:head_length - 1], len(container), {"tag"})
    with pytest.raises(pfi.FileIndexError, match="first bytes of a container"):
        plan_container_subset(container, len(container) - 1, {"tag"})


def test_an_empty_index_stays_empty():
    """start -1 (an index that saw no value) answers SKIP for an equality: it must survive."""
    data = _container([("tag", [("bitmap", -1, 0)]), ("id", [("bitmap", 0, 4)])], bytes(4))
    subset = _subset(data, {"tag"})
    (entry,) = pfi.IndexReader(subset).entries
    assert (entry.column, entry.offset, entry.length, entry.empty) == ("tag", -1, 0, True)
    assert pfi.IndexReader(subset, FIELDS, ROWS).evaluate(col("tag") == "t5").skip


def _file_io(path):
    from pypaimon.common.file_io import FileIO
    from pypaimon.common.options import Options
    return FileIO.get(str(path), Options({}))


def test_fetch_reads_the_header_and_the_wanted_bodies_only(tmp_path, container):
    path = tmp_path / "data.parquet.index"
    path.write_bytes(container)
    (tag,) = [e for e in pfi.IndexReader(container).entries if e.column == "tag"]
    assert tag.offset > HEADER_PROBE
    buffer, fetch = fetch_index(_file_io(path), str(path), {"tag"})
    assert isinstance(buffer, (bytes, bytearray)) and len(buffer) < HEADER_PROBE + tag.length
    assert (fetch.size, fetch.requests, fetch.bodies) == (len(container), 3, 1)
    assert fetch.fetched == HEADER_PROBE + tag.length
    assert _answer(buffer, col("tag") == "t5") == _answer(container, col("tag") == "t5")

    # Adjacent bodies (id's bloom filter and range bitmap) come in one ranged read; a body
    # starting inside the probe (score's) is read only from where the probe ends.
    (score,) = [e for e in pfi.IndexReader(container).entries if e.column == "score"]
    assert score.offset < HEADER_PROBE < score.offset + score.length
    for columns, bodies, fetched in [
            ({"id"}, 2, HEADER_PROBE + sum(e.length for e in pfi.IndexReader(container).entries
                                           if e.column == "id")),
            ({"score"}, 1, score.offset + score.length)]:
        buffer, fetch = fetch_index(_file_io(path), str(path), columns)
        assert (fetch.requests, fetch.bodies, fetch.fetched) == (3, bodies, fetched)
        for question_columns, predicate in QUESTIONS:
            if question_columns <= columns:
                assert _answer(buffer, predicate) == _answer(container, predicate)

    whole, fetch = fetch_index(_file_io(path), str(path), None)
    assert whole == container and fetch.bodies == -1


def _corrupt(data: bytes, at: int, raw: bytes) -> bytes:
    return data[:at] + raw + data[at + len(raw):]


def _first_start_at(data: bytes) -> int:
    """Byte position of the first entry's start in the head."""
    (name_length,) = struct.unpack_from(">H", data, 20)
    pos = 20 + 2 + name_length + 4
    (type_length,) = struct.unpack_from(">H", data, pos)
    return pos + 2 + type_length


HOSTILE = {
    "magic": lambda d: _corrupt(d, 0, b"\x00\x00\x00\x00\x00\x00\x00\x01"),
    "version": lambda d: _corrupt(d, 8, struct.pack(">i", 2)),
    "body past the end": lambda d: _corrupt(d, _first_start_at(d) + 4,
                                            struct.pack(">i", len(d))),
    "body inside the head": lambda d: _corrupt(d, _first_start_at(d), struct.pack(">i", 8)),
    "bodies overlapping": lambda d: _corrupt(d, _first_start_at(d) + 4,
                                             struct.pack(">i", len(d) // 2)),
    "start -2": lambda d: _corrupt(d, _first_start_at(d), struct.pack(">i", -2)),
    "negative column count": lambda d: _corrupt(d, 16, struct.pack(">i", -1)),
    "column count past the head": lambda d: _corrupt(d, 16, struct.pack(">i", 1000)),
    "name not UTF-8": lambda d: _corrupt(d, 22, b"\xff"),
}


# Damage the native header parser refuses: such a sidecar is read whole, for the native
# reader to report.
REFUSED = {"magic", "version", "body past the end", "body inside the head", "start -2",
           "negative column count", "column count past the head", "name not UTF-8"}


def _outcome(data, predicate):
    try:
        return _answer(data, predicate)
    except pfi.FileIndexError as error:
        return type(error).__name__


@pytest.mark.parametrize("damage", sorted(HOSTILE))
def test_a_damaged_head_is_read_whole_or_answers_as_the_whole_container(tmp_path, container,
                                                                        damage):
    data = HOSTILE[damage](container)
    assert len(data) == len(container)
    columns = {"id", "tag"}
    path = tmp_path / "data.parquet.index"
    path.write_bytes(data)
    buffer, fetch = fetch_index(_file_io(path), str(path), columns)
    if damage in REFUSED:
        with pytest.raises(pfi.FileIndexError):
            plan_container_subset(data, len(data), columns)
        assert buffer == data and fetch.bodies == -1
    for question_columns, predicate in QUESTIONS:
        if question_columns <= columns:
            assert _outcome(buffer, predicate) == _outcome(data, predicate)


def _utf(text: str) -> bytes:
    raw = text.encode()
    return struct.pack(">H", len(raw)) + raw


def _container(columns, body: bytes) -> bytes:
    """A version-1 container of `columns`: (name, [(index type, body offset, length)]), an
    offset of -1 marking an empty index."""
    head_length = 24 + sum(2 + len(name.encode()) + 4
                           + sum(2 + len(kind.encode()) + 8 for kind, _, _ in indexes)
                           for name, indexes in columns)
    head = [struct.pack(">qiii", 1493475289347502, 1, head_length, len(columns))]
    for name, indexes in columns:
        head.append(_utf(name) + struct.pack(">i", len(indexes)))
        for kind, offset, length in indexes:
            start = offset if offset < 0 else head_length + offset
            head.append(_utf(kind) + struct.pack(">ii", start, length))
    return b"".join(head) + struct.pack(">i", 0) + body


@pytest.mark.parametrize("columns", [
    [("a", [("bitmap", 0, 32)]), ("a", [("bsi", 32, 32)])],  # a column listed twice
    [("a", [("bitmap", 32, 32), ("bsi", 0, 32)])],  # bodies out of header order
    [("a", [("bitmap", 0, 32), ("bsi", 16, 32)])],  # bodies sharing bytes
], ids=["listed twice", "out of order", "overlapping"])
def test_a_head_that_cannot_be_cut_down_is_read_whole(tmp_path, columns):
    fine = _container([("a", [("bitmap", 0, 32)]), ("b", [("bitmap", 32, 32)])], bytes(64))
    head, bodies, size, listed = plan_container_subset(fine, len(fine), {"b"})
    assert (bodies, size, listed) == ([(len(fine) - 32, 32, len(head))], len(head) + 32,
                                      ["a", "b"])
    data = _container(columns, bytes(64))
    with pytest.raises(pfi.UnsupportedError):
        plan_container_subset(data, len(data), {"a"})
    path = tmp_path / "data.parquet.index"
    path.write_bytes(data + bytes(HEADER_PROBE))  # longer than the probe: a cut is tried
    buffer, fetch = fetch_index(_file_io(path), str(path), {"a"})
    assert bytes(buffer) == data + bytes(HEADER_PROBE) and fetch.bodies == -1
