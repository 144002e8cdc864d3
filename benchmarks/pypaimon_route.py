"""pypaimon's own reads against the same reads pruned by pyfileindex (the pypaimon route,
`pyfileindex.paimon.prune`), and against pypaimon with the `pypaimon-rust` native reader
(`read.native.enabled`) when that package is installed, alone and reading the pruned
splits ("+native"). Not a timed test; prints a table.

    python benchmarks/pypaimon_route.py [--files 40] [--rows-per-file 250000] [--repeat 3]
        [--warehouse DIR] [--queries WORD ...]

One append table on local disk: `id` BIGINT unique (bloom filter), `tag` STRING (bitmap),
`score` DOUBLE (range bitmap), `note` STRING (no index); every index in a sidecar. The
point, IN and range queries have their answers in one file, and no file's min/max
statistics rule a query out (see Data). Each route runs once to warm the cache, then
`--repeat` rounds, each running every route once in an order that rotates from round to
round, so a drifting machine weighs on all routes alike; the median is reported. Every
route's rows are checked equal to pypaimon's unpruned read. TopN has no pypaimon
read-builder form: its row runs plan_read with top_n, against pypaimon reading the column
and sorting.
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from timing import interleaved_medians, median_seconds

SCHEMA = pa.schema([("id", pa.int64()), ("tag", pa.string()), ("score", pa.float64()),
                    ("note", pa.string())])
OPTIONS = {"file-index.bloom-filter.columns": "id", "file-index.bitmap.columns": "tag",
           "file-index.range-bitmap.columns": "score",
           "file-index.in-manifest-threshold": "1b"}
SCORE_RANGE = 1_000_000.0
RANGE_SHARE = 0.001  # the range query's width, as a share of SCORE_RANGE


class Data:
    """The table's rows, file by file: ids a random permutation of all rows, scores uniform
    over SCORE_RANGE, so no file's min/max statistics exclude a query; only the file in the
    middle has scores in the range query's band and its own rare tags carry the answers."""

    def __init__(self, files: int, rows: int, seed: int = 43):
        self.files, self.rows = files, rows
        self.rng = np.random.default_rng(seed)
        self.ids = self.rng.permutation(files * rows).astype(np.int64)
        self.middle = files // 2
        self.low = SCORE_RANGE * 0.5
        self.high = self.low + SCORE_RANGE * RANGE_SHARE

    def piece(self, file: int) -> pa.Table:
        rows = self.rows
        ids = self.ids[file * rows:(file + 1) * rows]
        tags = np.array([f"common{i}" for i in range(8)], dtype=object)[np.arange(rows) % 8]
        tags[7::rows // 3] = f"rare{file}"  # three rows per file carry the file's rare tag
        score = self.rng.random(rows) * SCORE_RANGE
        if file != self.middle:  # out of the band, into the band's neighbourhood
            inside = (score >= self.low) & (score <= self.high)
            score[inside] -= SCORE_RANGE * RANGE_SHARE * 1.5
        note = np.array(["alpha", "beta", "gamma", "delta"], dtype=object)[np.arange(rows) % 4]
        return pa.table({"id": ids, "tag": pa.array(tags, pa.string()), "score": score,
                         "note": pa.array(note, pa.string())}, schema=SCHEMA)

    def point_id(self) -> int:
        return int(self.ids[self.middle * self.rows + 12345 % self.rows])


def build(warehouse: str, data: Data):
    from pypaimon import CatalogFactory, Schema

    from pyfileindex.paimon import write_table
    catalog = CatalogFactory.create({"warehouse": warehouse})
    catalog.create_database("bench", False)
    catalog.create_table("bench.events", Schema.from_pyarrow_schema(SCHEMA, options=OPTIONS),
                         False)
    table = catalog.get_table("bench.events")
    for file in range(data.files):
        write_table(table, data.piece(file))
    return catalog.get_table("bench.events")


def queries(data: Data):
    """(label, pypaimon filter maker) pairs; every answer lies in the middle file."""
    middle = data.middle
    return [
        ("point (bloom filter)  id = x", lambda pb: pb.equal("id", data.point_id())),
        ("point (bitmap)  tag = rare", lambda pb: pb.equal("tag", f"rare{middle}")),
        ("IN (bitmap)  tag IN (rare, absent)",
         lambda pb: pb.is_in("tag", [f"rare{middle}", "absent"])),
        ("0.1% range (range bitmap)", lambda pb: pb.between("score", data.low, data.high)),
        ("no index  note = 'gamma'", lambda pb: pb.equal("note", "gamma")),
    ]


def _files_in(splits) -> int:
    return sum(len(s.files) for s in splits)


def _sorted_rows(table: pa.Table):
    return table.sort_by([("id", "ascending")]) if table.num_rows else table


def run(table, data: Data, repeat: int, native_table, only=None) -> None:
    from pyfileindex.paimon import plan_read, prune, read_plan

    header = (f"{'query':36} {'rows':>7} {'pypaimon s':>10} {'files':>6} {'native s':>9} "
              f"{'pruned s':>9} {'+native s':>9} {'files':>6} {'plan s':>7}  speedup  equal")
    print(header)
    print("-" * len(header))
    for label, make in queries(data):
        if only and not any(word in label for word in only):
            continue

        def builder(source):
            b = source.new_read_builder()
            return b.with_filter(make(b.new_predicate_builder()))

        def plain(source):
            b = builder(source)
            splits = b.new_scan().plan().splits()
            return b.new_read().to_arrow(splits), splits

        def pruned(source):
            b = builder(source)
            splits = prune(b)
            return b.new_read().to_arrow(splits), splits

        want = _sorted_rows(plain(table)[0])
        routes = {"plain": lambda: plain(table), "pruned": lambda: pruned(table),
                  "plan": lambda: (None, prune(builder(table)))}
        if native_table is not None:
            routes["native"] = lambda: plain(native_table)
            routes["both"] = lambda: pruned(native_table)
        equal, splits_of = {}, {}

        def seen(route, result):
            rows, splits = result
            splits_of[route] = splits
            if rows is not None:  # compared as they come, then dropped
                equal[route] = equal.get(route, True) and _sorted_rows(rows).equals(want)

        took = interleaved_medians(routes, repeat, seen)
        plain_s, pruned_s, plan_s = took["plain"], took["pruned"], took["plan"]
        plain_splits, splits = splits_of["plain"], splits_of["pruned"]
        native = both = "-"
        ours, peer = pruned_s, plain_s
        if native_table is not None:
            native, both = f"{took['native']:.3f}", f"{took['both']:.3f}"
            peer, ours = min(plain_s, took["native"]), min(pruned_s, took["both"])
        equal = all(equal.values())
        print(f"{label:36} {want.num_rows:>7} {plain_s:>10.3f} {_files_in(plain_splits):>6} "
              f"{native:>9} {pruned_s:>9.3f} {both:>9} {_files_in(splits):>6} {plan_s:>7.3f}  "
              f"{peer / ours:>6.2f}x  {'yes' if equal else 'NO'}")
        print(f"{'':36} {splits.summary()}")
    if only and not any(word in "TopN" for word in only):
        return

    def plain_top():
        b = table.new_read_builder().with_projection(["id", "score"])
        data = b.new_read().to_arrow(b.new_scan().plan().splits())
        return data.take(pc.sort_indices(data, [("score", "descending")])[:10])

    def ours_top():
        return read_plan(plan_read(table, None, top_n=("score", 10, True)),
                         columns=["id", "score"])

    plain_s, want = median_seconds(plain_top, repeat)
    ours_s, got = median_seconds(ours_top, repeat)
    plan = plan_read(table, None, top_n=("score", 10, True))
    print(f"{'TopN score DESC LIMIT 10 (plan_read)':36} {want.num_rows:>7} {plain_s:>10.3f} "
          f"{data.files:>6} {'-':>9} {ours_s:>9.3f} {'-':>9} {plan.files_read:>6} {'':>7}  "
          f"{plain_s / ours_s:>6.1f}x  {'yes' if got.equals(want) else 'NO'}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=40)
    parser.add_argument("--rows-per-file", type=int, default=250_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--warehouse", help="reuse (or create) the table under this directory")
    parser.add_argument("--queries", nargs="*",
                        help="only the queries whose label holds one of these words")
    args = parser.parse_args(argv)
    if args.warehouse:
        return bench(args, args.warehouse)
    warehouse = tempfile.mkdtemp(prefix="pypaimon-route-")
    try:
        return bench(args, warehouse)
    finally:
        shutil.rmtree(warehouse, ignore_errors=True)


def bench(args, warehouse: str) -> int:
    data = Data(args.files, args.rows_per_file)
    from importlib.metadata import version
    start = time.perf_counter()
    if (Path(warehouse) / "bench.db" / "events").is_dir():
        from pypaimon import CatalogFactory
        table = CatalogFactory.create({"warehouse": warehouse}).get_table("bench.events")
    else:
        table = build(warehouse, data)
    print(f"pypaimon {version('pypaimon')}; table {warehouse}/bench.db/events: "
          f"{args.files} files x {args.rows_per_file:,} rows (ready in "
          f"{time.perf_counter() - start:.1f} s)")
    native_table = None
    if importlib.util.find_spec("pypaimon_rust") is not None:
        native_table = table.copy({"read.native.enabled": "true"})
        print(f"pypaimon-rust {version('pypaimon-rust')}: the native column reads with "
              "read.native.enabled")
    else:
        print("pypaimon-rust not installed: no native column")
    run(table, data, args.repeat, native_table, args.queries)
    return 0


if __name__ == "__main__":
    sys.exit(main())
