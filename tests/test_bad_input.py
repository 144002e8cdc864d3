"""Bad input through the Python API: damaged index bytes, wrong argument types, unknown
options and unsupported column types each give a Python exception naming the problem, never a
crash or an exception of some other kind."""

import datetime
import random
import warnings

import numpy as np
import pyarrow as pa
import pyroaring
import pytest

import pyfileindex as pfi
from pyfileindex import col

FIELDS = [("s", "STRING"), ("i", "INT"), ("b", "BIGINT"), ("d", "DOUBLE")]
ROWS = 600

# Every index type, bitmap V1 and V2 (with blocks small enough to have several), and options
# that keep the container a few KB, so that every byte of it can be cut at.
OPTIONS = {
    "file-index.bitmap.columns": "s,i",
    "file-index.bitmap.i.version": "1",
    "file-index.bitmap.s.index-block-size": "64b",
    "file-index.bloom-filter.columns": "s,b",
    "file-index.bloom-filter.s.items": "100",
    "file-index.bloom-filter.b.items": "100",
    "file-index.bsi.columns": "i,b",
    "file-index.range-bitmap.columns": "i,d,s",
}

PREDICATES = [
    col("s") == "v5",
    col("s").isin(["v1", "v9", "absent"]),
    col("s") != "v3",
    col("s").is_null(),
    col("i") == 7,
    col("i") < 300,
    col("i").not_in([1, 2, 3]),
    col("b") > 0,
    col("b").is_not_null(),
    col("d") <= 0.5,
    (col("i") >= 10) & (col("s") == "v2"),
    (col("b") < 0) | (col("d") > 0.9),
]


def _table() -> pa.Table:
    rng = np.random.default_rng(20261126)
    return pa.table({
        "s": pa.array([None if k % 17 == 0 else f"v{k % 40}" for k in range(ROWS)]),
        "i": pa.array(rng.integers(0, 400, ROWS).astype(np.int32)),
        "b": pa.array(rng.integers(-10**6, 10**6, ROWS)),
        "d": pa.array(np.round(rng.random(ROWS), 2)),
    })


@pytest.fixture(scope="module")
def container() -> bytes:
    data = pfi.build_index(_table(), FIELDS, OPTIONS)
    assert data is not None and len(data) < 64 * 1024
    return data


def _read_everything(data: bytes) -> list:
    """Opens `data` and asks every question the API has of each index in it."""
    reader = pfi.IndexReader(data, FIELDS)
    answers = []
    for predicate in PREDICATES:
        result = reader.evaluate(predicate)
        assert result.kind in ("SKIP", "REMAIN", "ROWS")
        rows = result.row_ids()
        if rows is not None:  # a set of row ids: ascending, each once
            assert result.kind == "ROWS" and np.all(np.diff(rows.astype(np.int64)) > 0)
        answers.append((result.kind, None if rows is None else rows.tolist()))
    for top, most in ((reader.top_n("i", 10), 10),
                      (reader.top_n("d", 5, descending=True, with_ties=True), None)):
        assert top.kind in ("SKIP", "REMAIN", "ROWS")
        rows = top.row_ids()
        if most is not None and rows is not None:
            assert rows.size <= most  # without ties, at most the limit
        answers.append((top.kind, None if rows is None else rows.tolist()))
    for entry in reader.entries:
        answers.append(sorted(reader.describe(entry.column, entry.index_type).items()))
    return answers


def test_the_container_holds_every_index_type(container):
    entries = {(e.column, e.index_type) for e in pfi.IndexReader(container, FIELDS).entries}
    assert {t for _, t in entries} == {"bitmap", "bloom-filter", "bsi", "range-bitmap"}
    assert pfi.IndexReader(container, FIELDS).describe("i", "bitmap")["version"] == "1"
    assert pfi.IndexReader(container, FIELDS).describe("s", "bitmap")["version"] == "2"
    _read_everything(container)  # the intact bytes answer every question


def test_every_truncation_raises_corrupt_index_error(container):
    for length in range(len(container)):
        with pytest.raises(pfi.CorruptIndexError):
            _read_everything(container[:length])


def test_a_bad_magic_number_is_named(container):
    damaged = bytes([container[0] ^ 0xFF]) + container[1:]
    with pytest.raises(pfi.CorruptIndexError, match="magic"):
        pfi.IndexReader(damaged, FIELDS)


def _damaged_copies(container: bytes, seed: int, count: int):
    """Copies of `container` with 1-4 bytes overwritten, in the header and the bodies of the
    indexes whose every byte is structure (a bloom filter's bits are all valid data)."""
    reader = pfi.IndexReader(container, FIELDS)
    spans = [(0, min(e.offset for e in reader.entries))]
    spans += [(e.offset, e.offset + e.length) for e in reader.entries
              if e.index_type != "bloom-filter"]
    weights = [end - start for start, end in spans]
    rnd = random.Random(seed)
    for _ in range(count):
        damaged = bytearray(container)
        for _ in range(rnd.randint(1, 4)):
            start, end = rnd.choices(spans, weights)[0]
            damaged[rnd.randrange(start, end)] = rnd.randrange(256)
        yield bytes(damaged)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_damaged_bytes_raise_file_index_errors_only(container, seed):
    # Damage can leave bytes that still parse (an index has no checksum), so the promise is
    # about failures: each is of a kind damage gives (corrupt bytes; a version from the future;
    # Describe of an entry whose index type name was damaged), and none is a crash. Any other
    # FileIndexError (an InvalidArgument blaming the caller, an internal error) fails here.
    outcomes = {"answered": 0, "refused": 0}
    for damaged in _damaged_copies(container, seed, 700):
        try:
            _read_everything(damaged)
            outcomes["answered"] += 1
        except (pfi.CorruptIndexError, pfi.UnsupportedError, pfi.IndexNotFoundError) as error:
            assert str(error), "an error must say what is wrong"
            outcomes["refused"] += 1
    assert outcomes["refused"] > 0 and outcomes["answered"] > 0, outcomes


class TestWrongArgumentTypes:
    @pytest.mark.parametrize("fields, message", [
        (5, "fields must be a sequence"),
        ("s", "fields must be a sequence"),
        ([("s",)], r"\(name, Paimon type\) pair"),  # once read past the tuple's end
        ([("s", "STRING", "x")], r"\(name, Paimon type\) pair"),
        ([None], r"\(name, Paimon type\) pair or have \.name and \.type"),
        ([(1, "INT")], "a field name must be a str, got int"),
        ([("s", 5)], "field 's': the type must be a str"),
    ])
    def test_bad_fields(self, fields, message):
        with pytest.raises(TypeError, match=message):
            pfi.IndexWriter(fields, OPTIONS)
        with pytest.raises(TypeError, match=message):
            pfi.IndexReader(b"", fields)

    @pytest.mark.parametrize("options, message", [
        ([("file-index.bitmap.columns", "s")], "options must be a mapping"),
        ({1: "s"}, "option keys must be str"),
        ({"file-index.bitmap.columns": None}, "option 'file-index.bitmap.columns': the value"),
        ({"file-index.bitmap.columns": ["s"]}, "got list"),
    ])
    def test_bad_options(self, options, message):
        with pytest.raises(TypeError, match=message):
            pfi.IndexWriter(FIELDS, options)

    def test_option_values_may_be_numbers_and_booleans(self):
        writer = pfi.IndexWriter(FIELDS, {"file-index.bloom-filter.columns": "b",
                                          "file-index.bloom-filter.b.items": 300,
                                          "file-index.bloom-filter.b.fpp": np.float64(0.05),
                                          "file-index.read.enabled": True})
        assert not writer.empty

    @pytest.mark.parametrize("selection, error, message", [
        ([-1], pfi.FileIndexError, r"row id -1 is outside \[0, 2\^32\)"),
        (np.array([3, 2**40]), pfi.FileIndexError, "row id 1099511627776 is outside"),
        ([2**32], pfi.FileIndexError, "row id 4294967296 is outside"),
        (np.array([1.5, 3.0]), TypeError, "row ids must be integers, got float64"),
        ([[1, 2]], TypeError, "one-dimensional"),
        (7, TypeError, "one-dimensional"),
    ])
    def test_bad_top_n_selections(self, container, selection, error, message):
        # Each once went through a cast to uint32 that wrapped it onto other rows silently.
        with pytest.raises(error, match=message):
            pfi.IndexReader(container, FIELDS).top_n("i", 3, selection=selection)

    @pytest.mark.parametrize("limit, error, message", [
        (2.0, TypeError, "top_n limit must be an int, got float"),
        ("3", TypeError, "got str"),
        (True, TypeError, "got bool"),
        (-1, pfi.FileIndexError, "must not be negative"),
    ])
    def test_bad_top_n_limits(self, container, limit, error, message):
        with pytest.raises(error, match=message):
            pfi.IndexReader(container, FIELDS).top_n("i", limit)

    def test_a_top_n_limit_past_any_file_takes_every_row(self, container):
        # Limits from 2^31 up once failed converting to int32 ("value too large").
        reader = pfi.IndexReader(container, FIELDS)
        every = reader.top_n("i", ROWS).row_ids().tolist()
        assert len(every) == ROWS
        for limit in (2**31 - 1, 2**31, 2**40, np.int64(2**62)):
            assert reader.top_n("i", limit).row_ids().tolist() == every

    def test_top_n_selections_of_every_integer_kind(self, container):
        reader = pfi.IndexReader(container, FIELDS)
        rows = [5, 17, 300, 599]
        expected = reader.top_n("i", 2, selection=rows).row_ids().tolist()
        assert len(expected) == 2 and set(expected) <= set(rows)
        for same in (np.array(rows, dtype=np.int64), np.array(rows, dtype=np.uint16),
                     tuple(reversed(rows)), pyroaring.BitMap(rows)):
            assert reader.top_n("i", 2, selection=same).row_ids().tolist() == expected
        assert reader.top_n("i", 2, selection=[]).row_ids().tolist() == []

    def test_bad_reader_arguments(self, container):
        reader = pfi.IndexReader(container, FIELDS)
        with pytest.raises(TypeError, match="the column must be a str, got int"):
            reader.top_n(5, 1)
        with pytest.raises(TypeError, match="the index type must be a str, got NoneType"):
            reader.describe("s", None)
        with pytest.raises(TypeError):
            pfi.IndexReader(5, FIELDS)
        with pytest.raises(TypeError, match="expected Arrow data"):
            pfi.IndexWriter(FIELDS, OPTIONS).write([1, 2, 3])


class TestOptions:
    def test_an_option_name_the_index_does_not_have_is_an_error(self):
        options = {"file-index.bloom-filter.columns": "s", "file-index.bloom-filter.s.fppp": "0.01"}
        with pytest.raises(pfi.FileIndexError,
                           match=r"'file-index.bloom-filter.s.fppp'.*no option 'fppp'.*items, fpp"):
            pfi.IndexWriter(FIELDS, options)
        with pytest.raises(pfi.FileIndexError, match="bsi index has no option 'version'.*none"):
            pfi.IndexWriter(FIELDS, {"file-index.bsi.columns": "i", "file-index.bsi.i.version": "1"})

    def test_a_bad_option_value_is_named(self):
        with pytest.raises(pfi.FileIndexError,
                           match="'bloom-filter' on column 's': option 'fpp': cannot parse 'often'"):
            pfi.IndexWriter(FIELDS, {"file-index.bloom-filter.columns": "s",
                                     "file-index.bloom-filter.s.fpp": "often"})
        with pytest.raises(pfi.FileIndexError, match="invalid version: 3"):
            pfi.IndexWriter(FIELDS, {"file-index.bitmap.columns": "s",
                                     "file-index.bitmap.s.version": "3"})

    def test_options_without_effect_warn_and_change_nothing(self):
        table = _table()
        declared = {"file-index.bloom-filter.columns": "s"}
        ineffective = dict(declared, **{"file-index.bloom-filter.fpp": "0.001",
                                        "file-index.bitmap.colums": "s"})
        with pytest.warns(UserWarning) as caught:
            writer = pfi.IndexWriter(FIELDS, ineffective)
        assert [str(w.message).split(" has no effect")[0] for w in caught] == [
            "file index option 'file-index.bloom-filter.fpp'",
            "file index option 'file-index.bitmap.colums'"]
        assert writer.ignored_options == ["file-index.bloom-filter.fpp", "file-index.bitmap.colums"]
        writer.write(table)
        assert writer.finish() == pfi.build_index(table, FIELDS, declared)  # as Java: ignored

    def test_table_options_that_mean_something_do_not_warn(self):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            writer = pfi.IndexWriter(FIELDS, dict(OPTIONS, **{
                "file-index.in-manifest-threshold": "1kb", "file-index.read.enabled": "true",
                "bucket": "-1", "file.format": "parquet"}))
        assert writer.ignored_options == []


class TestUnsupportedColumns:
    @pytest.mark.parametrize("index, column_type", [
        ("bsi", "STRING"), ("bsi", "DOUBLE"), ("bloom-filter", "BOOLEAN"),
        ("bloom-filter", "DECIMAL(10, 2)"), ("range-bitmap", "BYTES"),
        ("range-bitmap", "DECIMAL(20, 2)"), ("bitmap", "ARRAY<INT>"),
    ])
    def test_an_index_on_a_type_it_cannot_hold_is_refused(self, index, column_type):
        with pytest.raises(pfi.FileIndexError, match="column 'c'"):
            pfi.IndexWriter([("c", column_type)], {f"file-index.{index}.columns": "c"})

    def test_arrow_data_of_another_type_is_refused(self):
        writer = pfi.IndexWriter([("c", "STRING")], {"file-index.bitmap.columns": "c"})
        with pytest.raises(pfi.FileIndexError, match="column 'c'.*cannot hold Paimon type STRING"):
            writer.write(pa.table({"c": pa.array([1, 2], pa.int64())}))

    def test_a_column_the_fields_lack_is_refused(self):
        with pytest.raises(pfi.FileIndexError, match="column 'zz' does not exist"):
            pfi.IndexWriter(FIELDS, {"file-index.bitmap.columns": "zz"})

    def test_a_row_type_naming_a_field_twice_is_refused(self, container):
        twice = [("i", "INT"), ("i", "STRING")]
        with pytest.raises(pfi.FileIndexError, match="field 'i' appears more than once"):
            pfi.IndexWriter(twice, {"file-index.bitmap.columns": "i"})
        with pytest.raises(pfi.FileIndexError, match="field 'i' appears more than once"):
            pfi.IndexReader(container, list(reversed(twice)))  # read 'i' as STRING: "corrupt"

    def test_a_batch_naming_an_indexed_column_twice_is_refused(self):
        # Which of the two held the file's values cannot be told; the last one was indexed.
        twice = pa.Table.from_arrays(
            [pa.array([1, 2], pa.int32()), pa.array([3, 4], pa.int32()), pa.array(["a", "b"])],
            names=["i", "i", "x"])
        writer = pfi.IndexWriter(FIELDS, {"file-index.bitmap.columns": "i"})
        with pytest.raises(pfi.FileIndexError, match="column 'i' appears more than once"):
            writer.write(twice)
        unindexed = twice.rename_columns(["i", "x", "x"])  # only an unindexed name repeats
        data = pfi.build_index(unindexed, FIELDS, {"file-index.bitmap.columns": "i"})
        assert pfi.IndexReader(data, FIELDS).evaluate(col("i") == 2).row_ids().tolist() == [1]



@pytest.mark.parametrize("index", ["bloom-filter", "bitmap", "range-bitmap"])
@pytest.mark.parametrize("string_type", [pa.string(), pa.large_string()])
@pytest.mark.parametrize("garbage", [2**31 - 100, 0])
def test_null_rows_string_offsets_pointing_anywhere_are_never_read(index, string_type, garbage):
    # Pairs of null rows whose shared offset points far past the data or back to its start
    # (pyarrow's default validation lets both through): only valid rows' bytes may be read,
    # so the index equals that of the same values with well-formed nulls. Distinct values keep
    # the bloom filter's table of recent values paused, so its blocks are hashed from offsets.
    rows = 100_000
    values = [f"value-{i:09d}".encode() for i in range(rows)]
    valid = np.ones(rows, dtype=bool)
    valid[1000:rows - 2:20] = False
    valid[1001:rows - 1:20] = False
    offsets = np.zeros(rows + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([len(v) for v in values])
    offsets[1001:rows - 1:20] = garbage  # between the two null rows of each pair
    offset_type = np.int32 if string_type == pa.string() else np.int64
    bitmap = np.packbits(valid, bitorder="little").tobytes()
    odd = pa.Array.from_buffers(
        string_type, rows,
        [pa.py_buffer(bitmap), pa.py_buffer(offsets.astype(offset_type).tobytes()),
         pa.py_buffer(b"".join(values))],
        null_count=int((~valid).sum()))
    clean = pa.array([v.decode() if ok else None for v, ok in zip(values, valid)], string_type)
    options = {f"file-index.{index}.columns": "s"}
    fields = [("s", "STRING")]
    assert pfi.build_index(pa.table({"s": odd}), fields, options) == \
        pfi.build_index(pa.table({"s": clean}), fields, options)

TEMPORAL_FIELDS = [("i", "INT"), ("d", "DATE"), ("t", "TIME"), ("ts", "TIMESTAMP(3)"),
                   ("m", "MAP<STRING, DATE>")]
DAY = datetime.date(2020, 1, 1)  # day 18262


@pytest.fixture(scope="module")
def temporal_reader():
    table = pa.table({
        "i": pa.array([18262, 1000], pa.int32()),
        "d": pa.array([DAY, datetime.date(1970, 1, 6)]),
        "t": pa.array([1000, 5], pa.time32("ms")),
        "ts": pa.array([1, 2], pa.timestamp("ms")),
    })
    fields = [f for f in TEMPORAL_FIELDS if f[0] != "m"]
    data = pfi.build_index(table, fields, {"file-index.bitmap.columns": "i,d,t,ts"})
    return pfi.IndexReader(data, TEMPORAL_FIELDS)


class TestTemporalLiterals:
    """DATE and TIME literals become ints (days, milliseconds): on an INT column they once
    matched rows as plain numbers. Each meets only a column of its own type."""

    @pytest.mark.parametrize("predicate, message", [
        (col("i") == DAY, "column 'i': DATE literal 2020-01-01 cannot be compared with a "
                          "column of type INT"),
        (col("i").isin([1000, datetime.time(0, 0, 1)]), "TIME literal 00:00:01 .* type INT"),
        (col("ts") == DAY, "DATE literal .* type TIMESTAMP\\(3\\)"),
        (col("m[a]") == datetime.time(1), "column 'm\\[a\\]': TIME literal .* type DATE"),
        ((col("d") == DAY) | ((col("t") > datetime.time(0)) & (col("i") < DAY)), "column 'i'"),
    ])
    def test_on_a_column_of_another_type_they_are_refused(self, temporal_reader, predicate,
                                                          message):
        with pytest.raises(pfi.FileIndexError, match=message):
            temporal_reader.evaluate(predicate)

    def test_on_their_own_columns_they_answer(self, temporal_reader):
        reader = temporal_reader
        assert reader.evaluate(col("d") == DAY).row_ids().tolist() == [0]
        assert reader.evaluate(col("d") == 18262).row_ids().tolist() == [0]  # Java's own form
        assert reader.evaluate(col("t") == datetime.time(0, 0, 1)).row_ids().tolist() == [0]
        assert reader.evaluate(col("m[a]") == DAY).kind == "REMAIN"  # no index on it
        assert reader.evaluate(col("absent") == DAY).kind == "REMAIN"


class TestPredicateSize:
    def test_long_and_or_chains_parse_flat(self, container):
        reader = pfi.IndexReader(container, FIELDS)
        for keyword, kind in (("AND", pfi.predicate.And), ("OR", pfi.predicate.Or)):
            text = f" {keyword} ".join(f"i = {k}" for k in range(5000))  # sqlglot: 5000 levels
            tree = pfi.parse_predicate(text)
            assert type(tree) is kind and len(tree.children) == 5000
            assert tree.children[0] == (col("i") == 0) and tree.children[-1] == (col("i") == 4999)
            assert reader.evaluate(tree).kind in ("SKIP", "ROWS")
        assert reader.evaluate(pfi.parse_predicate(
            " OR ".join(f"i = {k}" for k in range(5000)))).row_ids().size == ROWS

    def test_parentheses_nested_too_deeply_are_a_predicate_error(self):
        with pytest.raises(pfi.predicate.PredicateError, match="nests parentheses or NOT too deep"):
            pfi.parse_predicate("(" * 5000 + "i = 1" + ")" * 5000)
        with pytest.raises(pfi.predicate.PredicateError, match="nests parentheses or NOT too deep"):
            pfi.parse_predicate("NOT " * 5000 + "i = 1")

    def test_a_tree_nested_past_the_limit_is_refused_not_a_crash(self, container):
        # Alternating AND/OR does not flatten: 100,000 levels once overflowed the C stack.
        reader = pfi.IndexReader(container, FIELDS)
        tree = col("i") == 1
        for level in range(100_000):
            tree = (tree | (col("i") == 2)) if level % 2 else (tree & (col("i") == 3))
        with pytest.raises(pfi.FileIndexError, match="deeper than 512 levels"):
            reader.evaluate(tree)
        for levels, allowed in ((512, True), (513, False)):  # the C++ reader's own limit
            tree = col("i") == 1
            for level in range(levels):
                tree = (tree | (col("i") == 2)) if level % 2 else (tree & (col("i") == 3))
            if allowed:
                assert reader.evaluate(tree).kind in ("SKIP", "ROWS")
            else:
                with pytest.raises(pfi.FileIndexError, match="deeper than 512 levels"):
                    reader.evaluate(tree)


class TestOneWriterOneThread:
    def test_a_second_thread_is_refused_while_a_write_runs(self):
        import threading

        batch = _table().to_batches()[0]
        inside, tried = threading.Event(), threading.Event()

        def batches():  # pulled by the first thread's write(), which has released the GIL
            yield batch
            inside.set()
            tried.wait(30)
            yield batch

        writer = pfi.IndexWriter(FIELDS, OPTIONS)
        stream = pa.RecordBatchReader.from_batches(batch.schema, batches())
        first = threading.Thread(target=writer.write, args=(stream,))
        first.start()
        try:
            assert inside.wait(30)
            # Both calls once ran the native writer from two threads at once (a double free).
            with pytest.raises(pfi.FileIndexError, match=r"IndexWriter.write\(\) while another"):
                writer.write(batch)
            with pytest.raises(pfi.FileIndexError, match=r"IndexWriter.finish\(\) while another"):
                writer.finish()
        finally:
            tried.set()
            first.join(30)
        assert writer.row_count == 2 * batch.num_rows
        assert writer.finish() == pfi.build_index([batch, batch], FIELDS, OPTIONS)
