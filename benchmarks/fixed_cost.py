#!/usr/bin/env python3
"""The fixed cost of one index file: open, and open + the first answer, in CPU time per call.

    python benchmarks/fixed_cost.py                        # 10,000 rows, the target columns
    python benchmarks/fixed_cost.py --rows 200000 --index range-bitmap
    python benchmarks/fixed_cost.py --columns int:10,string:100

Each call opens the index from bytes (IndexReader) and, for a query, asks it once and reads
the answer's row count, as planning a file does. Times are the thread's CPU time per call
(best of 5 loops), so other processes on a busy host inflate them less than wall-clock time;
a loop of calls on one file keeps its bytes in cache, so this is the floor of a file's cost,
not the cost of a cold file (benchmarks/many_files.py measures many distinct files).
Pyfileindex only: compare.py --rows 10000 puts the same operations beside Java's.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cases  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--index", choices=cases.INDEX_TYPES, help="one index type only")
    parser.add_argument("--columns", default="int:10,int:1000,int:1000000,string:100,string:100000",
                        help="kind:cardinality list (default: %(default)s)")
    parser.add_argument("--calls", type=int, default=3000, help="calls per timed loop of a query")
    args = parser.parse_args()

    import pyfileindex as pfi

    specs = [cases.ColumnSpec(kind, int(card))
             for kind, card in (item.split(":") for item in args.columns.split(","))]
    print(f"{args.rows:,} rows; CPU ns per call (open) and per open + first answer (queries)")
    for spec in specs:
        for index_type in cases.INDEX_TYPES:
            if not spec.supports(index_type) or args.index not in (None, index_type):
                continue
            case = cases.Case(spec, index_type)
            column = cases.generate(spec, args.rows)
            writer = pfi.IndexWriter(case.fields, case.options)
            writer.write(column.table())
            data = writer.finish()
            fields = case.fields
            cells = [f"{spec.label:14s} {index_type:13s} {len(data):>9,} B",
                     f"open {_best(lambda: pfi.IndexReader(data, fields), args.calls * 10):6.0f}"]
            for query in cases.queries(case, column):
                cells.append(f"{query.name} {_best(_asker(pfi, data, fields, query), args.calls):7.0f}")
            print("  ".join(cells), flush=True)


def _asker(pfi, data, fields, query):
    if query.op == "topn":
        return lambda: pfi.IndexReader(data, fields).top_n(
            cases.COLUMN, query.limit, descending=query.descending).cardinality
    predicate = query.ours()
    return lambda: pfi.IndexReader(data, fields).evaluate(predicate).cardinality


def _best(call, calls: int) -> float:
    for _ in range(max(1, calls // 10)):
        call()
    best = float("inf")
    for _ in range(5):
        start = time.thread_time_ns()
        for _ in range(calls):
            call()
        best = min(best, (time.thread_time_ns() - start) / calls)
    return best


if __name__ == "__main__":
    main()
