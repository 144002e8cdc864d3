"""Dictionary-encoded Arrow columns (what pyarrow reads from Parquet with `read_dictionary`)
index to the same bytes as the plain column.

Bitmap, bloom-filter and range-bitmap indexes on strings take int32-indexed dictionaries as they
are (bitmaps and range-bitmaps intern each distinct value once, at its first row; a bloom filter
hashes each value some row uses once); every other layout gathers the rows first.
"""

from __future__ import annotations

import random
import string

import pyarrow as pa
import pytest

import pyfileindex as pfi

FIELDS = [("s", "STRING"), ("i", "INT")]


def _strings(rng: random.Random, distinct: int, rows: int, null_rate: float) -> list:
    pool = sorted({"".join(rng.choices(string.ascii_letters, k=rng.randint(0, 14)))
                   for _ in range(distinct)})
    return [None if rng.random() < null_rate else rng.choice(pool) for _ in range(rows)]


def _batches(values: list, sizes: list, encode) -> list:
    out, at = [], 0
    for size in sizes:
        chunk = pa.array(values[at:at + size], pa.string())
        out.append(pa.record_batch([encode(chunk), pa.array(range(at, at + size), pa.int32())],
                                   names=["s", "i"]))
        at += size
    return out


def _build(batches: list, options: dict) -> bytes:
    writer = pfi.IndexWriter(FIELDS, options)
    for batch in batches:
        writer.write(batch)
    return writer.finish()


def _plain(chunk):
    return chunk


def _int32_dictionary(chunk):
    return chunk.dictionary_encode()  # int32 indices: taken as they are by bitmap


def _shuffled_dictionary(chunk):
    # The chunk's values listed in a shuffled order, after two values no row uses: ids must
    # still come in row order (Java's HashMap sees rows, not dictionaries).
    pool = ["unused-1", "unused-2"] + sorted({v for v in chunk.to_pylist() if v is not None})
    random.Random(len(pool)).shuffle(pool)
    position = {v: k for k, v in enumerate(pool)}
    indices = pa.array([None if v is None else position[v] for v in chunk.to_pylist()],
                       pa.int32())
    return pa.DictionaryArray.from_arrays(indices, pa.array(pool, pa.string()))


def _int16_dictionary(chunk):
    encoded = chunk.dictionary_encode()
    return pa.DictionaryArray.from_arrays(encoded.indices.cast(pa.int16()), encoded.dictionary)


@pytest.mark.parametrize("version", ["1", "2"])
@pytest.mark.parametrize("distinct,null_rate", [(3, 0.3), (600, 0.05), (20000, 0.0)])
def test_bitmap_on_dictionary_strings_equals_plain(version, distinct, null_rate) -> None:
    # 20000 distinct values cross many of Java's HashMap resizes (the order is replayed row
    # by row); batches of varied sizes each bring their own dictionary, in another order.
    rng = random.Random(distinct * 7 + int(version))
    values = _strings(rng, distinct, 70_000, null_rate)
    sizes = [1, 65_535, 3, 4_461]
    options = {"file-index.bitmap.columns": "s", "file-index.bitmap.s.version": version}
    plain = _build(_batches(values, sizes, _plain), options)
    assert _build(_batches(values, sizes, _int32_dictionary), options) == plain
    assert _build(_batches(values, sizes, _shuffled_dictionary), options) == plain
    assert _build(_batches(values, sizes, _int16_dictionary), options) == plain


def test_dictionary_batches_with_shuffled_and_unused_values() -> None:
    # Dictionaries listing values in any order, some never used, an index sliced mid-array.
    rng = random.Random(5)
    values = _strings(rng, 50, 9_000, 0.1)
    pool = sorted({v for v in values if v is not None}) + ["never", "used"]
    rng.shuffle(pool)
    position = {v: k for k, v in enumerate(pool)}
    indices = pa.array([None if v is None else position[v] for v in values], pa.int32())
    whole = pa.DictionaryArray.from_arrays(indices, pa.array(pool, pa.string()))
    sliced = whole.slice(1_000, 7_000)
    options = {"file-index.bitmap.columns": "s"}
    expected = _build([pa.record_batch([pa.array(values[1_000:8_000], pa.string()),
                                        pa.array(range(7_000), pa.int32())], names=["s", "i"])],
                      options)
    got = _build([pa.record_batch([sliced, pa.array(range(7_000), pa.int32())],
                                  names=["s", "i"])], options)
    assert got == expected


@pytest.mark.parametrize("distinct,null_rate,fpp", [(3, 0.3, "0.1"), (900, 0.05, "0.1"),
                                                    (20000, 0.0, "0.01")])
def test_bloom_filter_on_dictionary_strings_equals_plain(distinct, null_rate, fpp) -> None:
    # Each batch's dictionary is hashed value by value (the used ones, once each): the bits
    # must be the ones every row sets, whatever the dictionary's order, unused or index width.
    rng = random.Random(distinct * 3 + 1)
    values = _strings(rng, distinct, 70_000, null_rate)
    sizes = [1, 65_535, 3, 4_461]
    options = {"file-index.bloom-filter.columns": "s", "file-index.bloom-filter.s.items": "30000",
               "file-index.bloom-filter.s.fpp": fpp}
    plain = _build(_batches(values, sizes, _plain), options)
    assert _build(_batches(values, sizes, _int32_dictionary), options) == plain
    assert _build(_batches(values, sizes, _shuffled_dictionary), options) == plain
    assert _build(_batches(values, sizes, _int16_dictionary), options) == plain
    reader = pfi.IndexReader(plain, FIELDS)
    present = next(v for v in values if v is not None)
    assert not reader.evaluate(pfi.col("s") == present).skip


def test_bloom_filter_on_dictionaries_of_every_layout() -> None:
    # Kept: 32- and 64-bit offsets, dictionary values sliced out of a longer array, a sliced
    # index array. Gathered: int64 indices, a null dictionary value.
    rng = random.Random(17)
    values = _strings(rng, 400, 20_000, 0.1)
    plain = pa.array(values, pa.string())
    encoded = plain.dictionary_encode()
    options = {"file-index.bloom-filter.columns": "s", "file-index.bloom-filter.s.items": "3000"}

    def build(column) -> bytes:
        return _build([pa.record_batch([column, pa.array(range(len(column)), pa.int32())],
                                       names=["s", "i"])], options)

    expected = build(plain)
    padded = pa.concat_arrays([pa.array(["pad", "pad2"]), encoded.dictionary]).slice(2)
    layouts = {
        "large_string values": pa.DictionaryArray.from_arrays(
            encoded.indices, encoded.dictionary.cast(pa.large_string())),
        "sliced values": pa.DictionaryArray.from_arrays(encoded.indices, padded),
        "int64 indices": pa.DictionaryArray.from_arrays(encoded.indices.cast(pa.int64()),
                                                        encoded.dictionary),
        "a null value": pa.DictionaryArray.from_arrays(
            encoded.indices, pa.concat_arrays([encoded.dictionary, pa.array([None], pa.string())])),
    }
    for name, column in layouts.items():
        assert build(column) == expected, name
    assert build(encoded.slice(777, 15_000)) == build(plain.slice(777, 15_000))


@pytest.mark.parametrize("sort", [False, True])
@pytest.mark.parametrize("distinct,null_rate", [(3, 0.3), (900, 0.05), (20000, 0.0)])
def test_range_bitmap_on_dictionary_strings_equals_plain(distinct, null_rate, sort) -> None:
    # Sorted rows take the interner's ascending path, shuffled ones its hash table; a value
    # repeated from an earlier batch's dictionary must find its id.
    rng = random.Random(distinct * 5 + sort)
    values = _strings(rng, distinct, 70_000, null_rate)
    if sort:
        values = sorted(values, key=lambda v: (v is not None, v or ""))
    sizes = [1, 65_535, 3, 4_461]
    options = {"file-index.range-bitmap.columns": "s"}
    plain = _build(_batches(values, sizes, _plain), options)
    assert _build(_batches(values, sizes, _int32_dictionary), options) == plain
    assert _build(_batches(values, sizes, _shuffled_dictionary), options) == plain
    assert _build(_batches(values, sizes, _int16_dictionary), options) == plain


@pytest.mark.parametrize("options", [
    {"file-index.bitmap.columns": "s", "file-index.bloom-filter.columns": "s",
     "file-index.range-bitmap.columns": "s"},
    {"file-index.bitmap.columns": "s", "file-index.range-bitmap.columns": "s"},
])
def test_several_index_types_on_one_dictionary_column(options) -> None:
    rng = random.Random(11)
    values = _strings(rng, 300, 20_000, 0.1)
    sizes = [12_000, 8_000]
    plain = _build(_batches(values, sizes, _plain), options)
    assert _build(_batches(values, sizes, _int32_dictionary), options) == plain


def test_null_dictionary_values_are_null_rows() -> None:
    # A valid index pointing at a null dictionary value is a null row (gathered path).
    dictionary = pa.array(["a", None, "b"], pa.string())
    indices = pa.array([0, 1, 2, None, 1, 0], pa.int32())
    encoded = pa.DictionaryArray.from_arrays(indices, dictionary)
    options = {"file-index.bitmap.columns": "s"}
    ids = pa.array(range(6), pa.int32())
    got = _build([pa.record_batch([encoded, ids], names=["s", "i"])], options)
    expected = _build([pa.record_batch([pa.array(["a", None, "b", None, None, "a"]), ids],
                                       names=["s", "i"])], options)
    assert got == expected
    reader = pfi.IndexReader(got, FIELDS)
    assert list(reader.evaluate(pfi.col("s").is_null()).row_ids()) == [1, 3, 4]


def test_out_of_range_dictionary_index_is_refused() -> None:
    indices = pa.array([0, 5, 1], pa.int32())
    encoded = pa.DictionaryArray.from_arrays(indices, pa.array(["x", "y"]), safe=False)
    writer = pfi.IndexWriter(FIELDS, {"file-index.bitmap.columns": "s"})
    with pytest.raises(pfi.FileIndexError, match="dictionary index 5 is out of range"):
        writer.write(pa.record_batch([encoded, pa.array([1, 2, 3], pa.int32())],
                                     names=["s", "i"]))


def test_index_rebuilds_read_string_columns_as_dictionaries() -> None:
    from pyfileindex.paimon.writer import FileIndexSpec

    spec = FileIndexSpec(
        (("category", "STRING"), ("code", "VARCHAR(3)"), ("status", "STRING"),
         ("user_id", "BIGINT"), ("n", "INT"), ("m", "MAP<STRING, STRING>"),
         ("email", "STRING"), ("city", "STRING")),
        {"file-index.bitmap.columns": "category,code,status,n,m[k]",
         "file-index.bloom-filter.columns": "user_id,status,email",
         "file-index.range-bitmap.columns": "city,code"}, 500)
    # user_id and n are no strings, m is indexed by map key.
    assert spec.dictionary_columns == ["category", "code", "status", "email", "city"]
