"""A prefix LIKE on a STRING column: the answer from the file's index (bitmap V2, range-bitmap)
against what a user does today, reading the column from the Parquet data file and filtering
with pyarrow. Not a timed test; prints a table.

    python benchmarks/like_prefix.py [--rows 1000000] [--cardinality 100000] [--repeat 5]

One data file: `s` STRING of `cardinality` distinct 12..20-byte ASCII values (a 4-letter
prefix shared by about 1/676 of them), shuffled, 10% NULL. The query is `s LIKE 'qz%'`-style
for a prefix present in the data; each route's row ids are checked equal. Times are medians of
`--repeat` runs after one warm-up: "index" opens the container from its bytes and evaluates
(row ids materialized), "pyarrow" reads the column from the Parquet file (in the page cache)
and runs pyarrow.compute.starts_with.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

import pyfileindex as pfi
from pyfileindex.predicate import col

FIELDS = [("s", "STRING")]
INDEXES = {"bitmap": {"file-index.bitmap.columns": "s"},
           "range-bitmap": {"file-index.range-bitmap.columns": "s"}}


def make_column(rows: int, cardinality: int, seed: int = 44) -> pa.Array:
    rng = np.random.default_rng(seed)
    letters = np.frombuffer(b"abcdefghijklmnopqrstuvwxyz", dtype=np.uint8)
    lengths = rng.integers(12, 21, cardinality)
    pool = ["".join(map(chr, rng.choice(letters, n))) for n in lengths]
    picks = rng.integers(0, cardinality, rows)
    values = np.array(pool, dtype=object)[picks]
    values[rng.random(rows) < 0.1] = None
    return pa.array(values, pa.string())


def median_seconds(action, repeat: int) -> float:
    action()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--cardinality", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)

    column = make_column(args.rows, args.cardinality)
    table = pa.table({"s": column})
    prefix = column.drop_null()[0].as_py()[:2]
    with tempfile.TemporaryDirectory() as work:
        path = Path(work) / "data.parquet"
        pq.write_table(table, path)

        def pyarrow_route():
            values = pq.read_table(path, columns=["s"]).column("s")
            mask = pc.fill_null(pc.starts_with(values, pattern=prefix), False)
            return np.flatnonzero(mask.to_numpy(zero_copy_only=False))

        expected = pyarrow_route()
        baseline = median_seconds(pyarrow_route, args.repeat)
        print(f"{args.rows:,} rows, {args.cardinality:,} distinct values, query s LIKE "
              f"'{prefix}%': {len(expected):,} rows match")
        print(f"{'route':<28} {'median ms':>10} {'vs pyarrow':>11}")
        print(f"{'pyarrow (read + starts_with)':<28} {baseline * 1e3:>10.2f} {'1.00x':>11}")
        predicate = col("s").like(prefix + "%")
        for name, options in INDEXES.items():
            data = pfi.build_index(table, FIELDS, options)

            def index_route():
                return pfi.IndexReader(data, FIELDS).evaluate(predicate).row_ids()

            got = index_route()
            if not np.array_equal(np.asarray(got, dtype=np.int64), expected):
                print(f"{name}: DIFFERENT rows", file=sys.stderr)
                return 1
            seconds = median_seconds(index_route, args.repeat)
            print(f"{name + ' index':<28} {seconds * 1e3:>10.2f} {baseline / seconds:>10.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
