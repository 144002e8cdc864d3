"""Index files that do not belong to their data file or change underneath a reader: a row count
other than the data file's makes an index corrupt (RowCountMismatchError; the table layer reads
the file without its index and warns), and a reader opened on a path keeps answering whatever
happens to the file afterwards."""

import os
import shutil
import struct
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pyarrow as pa
import pytest

import pyfileindex as pfi
from pyfileindex import col
from pyfileindex.paimon import plan_read

from golden_tables import table_dir

FIELDS = [("i", "INT"), ("b", "BIGINT"), ("s", "STRING")]
ROWS = 40
OPTIONS = {
    "file-index.bitmap.columns": "i",
    "file-index.range-bitmap.columns": "i",
    "file-index.bsi.columns": "b",
    "file-index.bloom-filter.columns": "s",
}


def _container(rows: int, options=OPTIONS) -> bytes:
    table = pa.table({
        "i": pa.array([k % 4 for k in range(rows)], pa.int32()),
        "b": pa.array([k * 10 for k in range(rows)], pa.int64()),
        "s": pa.array([f"v{k % 7}" for k in range(rows)]),
    })
    return pfi.build_index(table, FIELDS, options)


@pytest.fixture(scope="module")
def container() -> bytes:
    return _container(ROWS)


def _answer(result):
    rows = result.row_ids()
    return result.kind, None if rows is None else rows.tolist()


def test_the_data_files_row_count_answers_as_an_unknown_one(container):
    for predicate in (col("i") == 2, col("i") != 2, col("b") > 200, col("s") == "v3"):
        unknown = pfi.IndexReader(container, FIELDS).evaluate(predicate)
        given = pfi.IndexReader(container, FIELDS, row_count=ROWS).evaluate(predicate)
        assert _answer(given) == _answer(unknown)
    assert pfi.IndexReader(container, FIELDS, row_count=ROWS).top_n("i", 3).row_ids().size == 3


@pytest.mark.parametrize("row_count", [0, ROWS - 1, ROWS + 1, 2**31 - 1, 2**40])
def test_another_row_count_makes_each_index_storing_one_corrupt(container, row_count):
    reader = pfi.IndexReader(container, FIELDS, row_count=row_count)
    says = f"stores a row count of {ROWS}, the data file has {row_count} rows"
    for predicate in (col("i") == 2, col("i").not_in([1]), col("b") > 5):
        with pytest.raises(pfi.RowCountMismatchError, match=says) as raised:
            reader.evaluate(predicate)
        assert isinstance(raised.value, pfi.CorruptIndexError)
    with pytest.raises(pfi.RowCountMismatchError, match=says):
        reader.top_n("i", 3)
    with pytest.raises(pfi.RowCountMismatchError, match=says):
        reader.describe("b", "bsi")
    # A bloom filter stores no row count: it cannot disagree, and still answers.
    assert reader.evaluate(col("s") == "absent").kind == "SKIP"


def test_a_row_count_must_be_a_count(container):
    with pytest.raises(pfi.FileIndexError, match="row_count must not be negative, got -1"):
        pfi.IndexReader(container, FIELDS, row_count=-1)
    with pytest.raises(TypeError, match="row_count must be an int, got str"):
        pfi.IndexReader(container, FIELDS, row_count="40")
    with pytest.raises(TypeError, match="got bool"):
        pfi.IndexReader(container, FIELDS, row_count=True)
    assert pfi.open_index(container, FIELDS, row_count=ROWS).evaluate(col("i") == 1).kind == "ROWS"


def _bitmap_row_count_set(data: bytes, row_count: int) -> bytes:
    """`data` with every bitmap index's stored row count (after its version byte) replaced."""
    damaged = bytearray(data)
    for entry in pfi.IndexReader(data).entries:
        if entry.index_type == "bitmap" and entry.offset >= 0:
            damaged[entry.offset + 1:entry.offset + 5] = struct.pack(">i", row_count)
    return bytes(damaged)


def test_the_issues_bitmap_claiming_two_billion_rows_is_corrupt_for_its_data_file():
    table = pa.table({"f0": pa.array([1, 2, 1, 3, 1, 2, 1, 4], pa.int32())})
    fields = [("f0", "INT")]
    data = pfi.build_index(table, fields, {"file-index.bitmap.columns": "f0"})
    damaged = _bitmap_row_count_set(data, 2**31 - 1)
    assert pfi.IndexReader(damaged, fields).describe("f0", "bitmap")["row_count"] == str(2**31 - 1)
    with pytest.raises(pfi.RowCountMismatchError, match="2147483647, the data file has 8 rows"):
        pfi.IndexReader(damaged, fields, row_count=8).evaluate(col("f0") != 1)
    assert pfi.IndexReader(data, fields, row_count=8).evaluate(col("f0") != 1).row_ids().tolist() \
        == [1, 3, 5, 7]


def test_the_table_layer_reads_a_file_whose_index_disagrees_without_it(tmp_path):
    name = "append_with_bitmap_no_embedding"
    copy = tmp_path / f"{name}.db"
    shutil.copytree(table_dir(name).parent, copy)
    sidecars = sorted(copy.rglob("*.parquet.index"))
    assert sidecars  # the live one and its external-path copy
    for sidecar in sidecars:
        sidecar.write_bytes(_bitmap_row_count_set(sidecar.read_bytes(), 2**31 - 1))
    data_file = sidecars[0].name[:-len(".index")]
    with pytest.warns(RuntimeWarning, match=rf"file index of {data_file} is not used: .*"
                                            r"stores a row count of 2147483647, the data file "
                                            r"has 8 rows") as caught:
        plan = plan_read(copy / name, "f0 = 'Bob'")
    assert len([w for w in caught if w.category is RuntimeWarning]) == 1
    (only,) = plan.files
    assert only.answer == "REMAIN" and not only.skipped
    assert plan.rows_selected == 8
    # The intact table answers from its index, without a warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        intact = plan_read(table_dir(name), "f0 = 'Bob'")
    assert intact.files[0].answer == "ROWS" and intact.files[0].selection.tolist() == [1, 5]


# Opened on a path, then the file is truncated and rewritten with zeros: a reader that mapped the
# file died of SIGBUS reading a page past the new end (and read zeros within the last page), so
# the script runs in a child process.
_CHANGING_FILE = textwrap.dedent("""
    import sys
    import pyfileindex as pfi
    from pyfileindex import col
    path, fields = sys.argv[1], [("i", "INT"), ("b", "BIGINT"), ("s", "STRING")]
    asked = [col("i") == 2, col("b") > 200, col("s") == "v3", col("i") != 1]
    def answers(reader):
        out = []
        for predicate in asked:
            result = reader.evaluate(predicate)
            rows = result.row_ids()
            out.append((result.kind, None if rows is None else rows.tolist()))
        return out
    opened = pfi.IndexReader(path, fields)
    before = answers(pfi.IndexReader(path, fields))
    size = len(open(path, "rb").read())
    with open(path, "r+b") as f:
        f.truncate(16)
    after_truncation = answers(opened)
    with open(path, "wb") as f:
        f.write(bytes(size))
    after_rewrite = answers(opened)
    assert after_truncation == before and after_rewrite == before, (before, after_truncation)
    print("answers kept:", before[0][1][:3])
""")


def test_a_reader_on_a_path_survives_the_file_changing_underneath(tmp_path):
    # Distinct keys in a bitmap make the file span many pages.
    container = _container(6000, dict(OPTIONS, **{"file-index.bitmap.columns": "i,b"}))
    assert len(container) > 16 * 4096
    path = tmp_path / "data.parquet.index"
    path.write_bytes(container)
    done = subprocess.run([sys.executable, "-c", _CHANGING_FILE, str(path)],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert "answers kept: [2, 6, 10]" in done.stdout
    assert os.path.getsize(path) == len(container)  # rewritten with zeros by the child


@pytest.mark.parametrize("index", ["bitmap", "bloom-filter", "range-bitmap"])
@pytest.mark.parametrize("offsets, validity, row", [
    ([0, 20, 6], 0b01, "row 0 \\[0, 20\\) lie outside the data buffer of 6 bytes"),  # a null's end
    ([0, 1, 6, 1], 0b011, "row 1 \\[1, 6\\) lie outside the data buffer of 1 bytes"),
])
def test_arrow_string_offsets_outside_the_data_buffer_are_refused(index, offsets, validity, row):
    # The data buffer holds the last offset's bytes (the size the C data interface gives), and a
    # null row's garbage end offset lowers it below a valid row's end; pyarrow builds such
    # arrays without checking them (negative offsets it refuses itself). The valid row's bytes
    # were read out of bounds.
    rows = len(offsets) - 1
    buffers = [pa.py_buffer(bytes([validity])),
               pa.py_buffer(np.array(offsets, dtype=np.int32).tobytes()),
               pa.py_buffer(b"abcdef"[:offsets[-1]])]
    nulls = rows - bin(validity).count("1")
    lying = pa.Array.from_buffers(pa.string(), rows, buffers, null_count=nulls)
    with pytest.raises(pfi.FileIndexError, match="Arrow string offsets of " + row):
        pfi.build_index(pa.table({"s": lying}), [("s", "STRING")],
                        {f"file-index.{index}.columns": "s"})
