"""COUNT(*) and min/max answered from file indexes (pyfileindex.paimon.count_rows / min_max)
against what a user does today: read the data files with pypaimon and count (or take the
min/max) with pyarrow. Not a timed test; prints a table.

    python benchmarks/count_min_max.py [--files 40] [--rows-per-file 250000] [--repeat 3]
        [--warehouse DIR]

One append table on local disk, every index in a sidecar: `id` BIGINT (range bitmap),
`tag` STRING (bitmap, eight common values and one rare value per file), `x` DOUBLE with NaN
in a tenth of the rows (bitmap), `note` STRING (no index). Each route runs once to warm the
cache, then `--repeat` times; the median is reported, with the files each answer read. Every
answer is checked equal to the pyarrow one.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from timing import median_seconds

SCHEMA = pa.schema([("id", pa.int64()), ("tag", pa.string()), ("x", pa.float64()),
                    ("note", pa.string())])
OPTIONS = {"file-index.range-bitmap.columns": "id", "file-index.bitmap.columns": "tag,x",
           "file-index.in-manifest-threshold": "1b"}


def piece(file: int, rows: int, rng) -> pa.Table:
    ids = np.arange(file * rows, (file + 1) * rows, dtype=np.int64)
    tags = np.array([f"common{i}" for i in range(8)], dtype=object)[np.arange(rows) % 8]
    tags[7::max(rows // 3, 1)] = f"rare{file}"
    x = rng.random(rows)
    x[rng.random(rows) < 0.1] = np.nan
    return pa.table({"id": ids, "tag": tags, "x": x,
                     "note": np.array(["n"] * rows, dtype=object)}, schema=SCHEMA)


def build(warehouse: str, files: int, rows: int):
    from pypaimon import CatalogFactory, Schema

    from pyfileindex.paimon import write_table
    catalog = CatalogFactory.create({"warehouse": warehouse})
    catalog.create_database("db", True)
    catalog.create_table("db.counts", Schema.from_pyarrow_schema(SCHEMA, options=OPTIONS), False)
    rng = np.random.default_rng(43)
    for file in range(files):
        write_table(catalog.get_table("db.counts"), piece(file, rows, rng))
    return catalog.get_table("db.counts")


def pyarrow_read(table, columns):
    """Today's route: pypaimon reads the columns of every data file."""
    builder = table.new_read_builder().with_projection(columns)
    return builder.new_read().to_arrow(builder.new_scan().plan().splits())


def run(table, files: int, rows: int, repeat: int) -> int:
    from pyfileindex.paimon import count_rows, min_max
    from pyfileindex.paimon.arrow_filter import predicate_mask
    from pyfileindex.paimon.predicates import bind_to_schema
    from pyfileindex.paimon.table import open_metadata

    schema = open_metadata(table).schema()
    middle = files // 2
    low, high = middle * rows + rows // 4, middle * rows + rows // 2
    counts = [
        ("COUNT(*)", None),
        ("COUNT tag = rare (bitmap)", f"tag = 'rare{middle}'"),
        ("COUNT tag IN (2 common) (bitmap)", "tag IN ('common1', 'common2')"),
        ("COUNT id BETWEEN (range bitmap)", f"id BETWEEN {low} AND {high}"),
        ("COUNT x IS NAN (bitmap)", "x IS NAN"),
        ("COUNT note = 'n' (no index)", "note = 'n'"),
    ]
    print(f"{files} files x {rows:,} rows; median of {repeat}")
    print(f"{'answer':<36} {'indexes s':>10} {'files read':>11} {'pyarrow s':>10}  speed-up")
    bad = 0
    for label, text in counts:
        bound = bind_to_schema(text, schema) if text else None
        columns = sorted(set(bound.columns())) if bound is not None else ["id"]

        def today():
            data = pyarrow_read(table, columns)
            if bound is None:
                return data.num_rows
            return pc.sum(predicate_mask(data, bound)).as_py() or 0

        ours_s, ours = median_seconds(lambda: count_rows(table, text), repeat)
        plain_s, plain = median_seconds(today, repeat)
        bad += ours.count != plain
        print(f"{label:<36} {ours_s:>10.4f} {f'{ours.files_read}/{ours.files_total}':>11} "
              f"{plain_s:>10.4f}  {plain_s / ours_s:>6.1f}x"
              f"{'' if ours.count == plain else '  DIFFERENT'}")

    def today_min_max():
        found = pc.min_max(pyarrow_read(table, ["id"]).column("id"))
        return found["min"].as_py(), found["max"].as_py()

    ours_s, ours = median_seconds(lambda: min_max(table, "id"), repeat)
    plain_s, plain = median_seconds(today_min_max, repeat)
    bad += (ours.min, ours.max) != plain
    print(f"{'min(id), max(id) (range bitmap)':<36} {ours_s:>10.4f} "
          f"{f'{ours.files_read}/{ours.files_total}':>11} {plain_s:>10.4f}  "
          f"{plain_s / ours_s:>6.1f}x{'' if (ours.min, ours.max) == plain else '  DIFFERENT'}")
    return 1 if bad else 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=40)
    parser.add_argument("--rows-per-file", type=int, default=250_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--warehouse", default=None)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="pyfileindex-count-") as scratch:
        warehouse = args.warehouse or str(Path(scratch) / "warehouse")
        start = time.perf_counter()
        table = build(warehouse, args.files, args.rows_per_file)
        print(f"table written in {time.perf_counter() - start:.1f} s")
        return run(table, args.files, args.rows_per_file, args.repeat)


if __name__ == "__main__":
    sys.exit(main())
