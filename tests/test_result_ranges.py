"""IndexResult.ranges(): the maximal runs of the selected rows, the same rows row_ids() lists,
whatever containers hold them (runs of a sorted column, bitsets and arrays of a shuffled one,
both at once after AND / OR)."""

import numpy as np
import pyarrow as pa
import pytest

import pyfileindex as pfi
from pyfileindex import col

ROWS = 300_000
FIELDS = [("sorted", "INT"), ("shuffled", "INT"), ("rare", "INT"), ("clustered", "STRING")]
OPTIONS = {"file-index.bitmap.columns": "sorted,shuffled,rare,clustered"}


def _runs_of(rows: np.ndarray) -> list:
    """Maximal runs of ascending row ids, by numpy: where the next row is not this one + 1."""
    if len(rows) == 0:
        return []
    rows = rows.astype(np.int64)
    breaks = np.flatnonzero(np.diff(rows) != 1)
    begins = np.concatenate(([rows[0]], rows[breaks + 1]))
    ends = np.concatenate((rows[breaks] + 1, [rows[-1] + 1]))
    return list(zip(begins.tolist(), ends.tolist()))


@pytest.fixture(scope="module")
def reader():
    rng = np.random.default_rng(20261127)
    clustered = np.repeat(np.arange(ROWS // 1000), 1000)
    table = pa.table({
        "sorted": pa.array(np.sort(rng.integers(0, 40, ROWS)).astype(np.int32)),
        "shuffled": pa.array(rng.integers(0, 3, ROWS).astype(np.int32)),  # bitset containers
        "rare": pa.array(rng.integers(0, 100, ROWS).astype(np.int32)),  # array containers
        "clustered": pa.array([None if k % 7 == 0 else f"c{k % 9}" for k in clustered]),
    })
    return pfi.IndexReader(pfi.build_index(table, FIELDS, OPTIONS), FIELDS)


@pytest.mark.parametrize("predicate", [
    col("sorted") == 7,
    col("sorted") != 7,
    col("sorted").isin([1, 2, 3, 30]),
    col("shuffled") == 1,
    col("shuffled") != 2,
    col("rare") == 5,
    (col("rare") == 5) | (col("sorted") == 3),
    col("clustered") == "c3",
    col("clustered").is_null(),
    col("clustered").is_not_null(),
    (col("sorted") != 5) & (col("shuffled") == 0),
    (col("sorted") == 5) | (col("clustered") == "c4"),
    col("sorted") == 1000,
], ids=str)
def test_ranges_are_the_maximal_runs_of_the_row_ids(reader, predicate):
    result = reader.evaluate(predicate)
    assert result.kind == "ROWS"
    ranges = result.ranges()
    assert ranges == _runs_of(result.row_ids())
    assert sum(end - begin for begin, end in ranges) == result.cardinality


def test_ranges_of_other_kinds_are_none(reader):
    assert reader.evaluate(col("missing") == 1).ranges() is None  # REMAIN
