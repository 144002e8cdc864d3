"""A prefix LIKE on a STRING column: the answer from the file's index (bitmap V2, range-bitmap)
against what a user does today, reading the column from the Parquet data file and filtering
with pyarrow. Not a timed test; prints a table.

    python benchmarks/like_prefix.py [--rows 1000000] [--cardinality 100000] [--repeat 5]

One data file: `s` STRING of `cardinality` distinct 12..20-byte ASCII values (a 4-letter
prefix shared by about 1/676 of them), shuffled, 10% NULL. The queries are `s LIKE 'qz%'` for a
2-letter prefix present in the data, and `s LIKE '%qzx'` (a scan of the whole dictionary, within
the default scan limit at 100,000 distinct values); each route's row ids are checked equal. Times are medians of
`--repeat` runs after one warm-up: "index" opens the container from its bytes and evaluates
(row ids materialized), "pyarrow" reads the column from the Parquet file (in the page cache)
and runs pyarrow.compute.starts_with.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

import pyfileindex as pfi
from pyfileindex.predicate import col
from timing import median_seconds

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


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--cardinality", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)

    column = make_column(args.rows, args.cardinality)
    table = pa.table({"s": column})
    first = column.drop_null()[0].as_py()
    prefix, suffix = first[:2], first[-3:]
    with tempfile.TemporaryDirectory() as work:
        path = Path(work) / "data.parquet"
        pq.write_table(table, path)

        indexes = {name: pfi.build_index(table, FIELDS, options)
                   for name, options in INDEXES.items()}
        print(f"{args.rows:,} rows, {args.cardinality:,} distinct values")
        print(f"{'query':<18} {'route':<28} {'median ms':>10} {'vs pyarrow':>11} {'rows':>8}")
        # The prefix is the case; the suffix, a scan of the whole dictionary, shows
        # what a pattern without a literal prefix costs.
        queries = [(f"s LIKE '{prefix}%'", col("s").like(prefix + "%"), pc.starts_with, prefix),
                   (f"s LIKE '%{suffix}'", col("s").like("%" + suffix), pc.ends_with, suffix)]
        for text, predicate, arrow_function, literal in queries:
            def pyarrow_route():
                values = pq.read_table(path, columns=["s"]).column("s")
                mask = pc.fill_null(arrow_function(values, pattern=literal), False)
                return np.flatnonzero(mask.to_numpy(zero_copy_only=False))

            expected = pyarrow_route()
            baseline, _ = median_seconds(pyarrow_route, args.repeat)
            print(f"{text:<18} {'pyarrow (read + filter)':<28} {baseline * 1e3:>10.2f} "
                  f"{'1.00x':>11} {len(expected):>8,}")
            for name, data in indexes.items():
                def index_route():
                    return pfi.IndexReader(data, FIELDS).evaluate(predicate).row_ids()

                got = index_route()
                if not np.array_equal(np.asarray(got, dtype=np.int64), expected):
                    print(f"{name}: DIFFERENT rows for {text}", file=sys.stderr)
                    return 1
                seconds, _ = median_seconds(index_route, args.repeat)
                print(f"{'':<18} {name + ' index':<28} {seconds * 1e3:>10.2f} "
                      f"{baseline / seconds:>10.1f}x {len(got):>8,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
