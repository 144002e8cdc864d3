"""Planning a point query over many data files: a table on the local S3 server (moto on
127.0.0.1, tests/s3_server.py) against the same table on local disk, and against opening
every data file's Parquet footer (what pruning by Parquet statistics costs). Not a timed
test; prints a table.

    python benchmarks/s3_planning.py [--files 1000] [--rows-per-file 2000] [--repeat 3]
                                     [--plan-memory]

Every data file gets a sidecar holding three indexes (bitmap on category, BSI on id, range
bitmap on score). On S3 the planner fetches each sidecar's header and only the BSI body a
point query on id needs (ranged reads); the request and byte counts are summed per plan.
Peak memory is reported so a larger --files shows planning does not hold every index;
--plan-memory also plans once more in a fresh process per table and reports that
process's resident memory before planning (imports, catalog, table opened) and its peak,
so the planning alone is measured, not the building.
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import statistics
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

SCHEMA = pa.schema([("id", pa.int64()), ("category", pa.string()), ("score", pa.float64())])
OPTIONS = {"file-index.bitmap.columns": "category", "file-index.bsi.columns": "id",
           "file-index.range-bitmap.columns": "score", "file-index.in-manifest-threshold": "1b"}


def piece(start: int, rows: int) -> pa.Table:
    ids = np.arange(start, start + rows, dtype=np.int64)
    return pa.table({"id": ids, "category": pa.array([f"c{i % 7}" for i in ids]),
                     "score": (ids % 997).astype(np.float64) / 7}, schema=SCHEMA)


def build(catalog, files: int, rows: int):
    """The table with `files` data files in one snapshot: one indexed write per file (as
    Spark tasks do), every write's messages committed together."""
    from pypaimon import Schema

    from pyfileindex.paimon import _pypaimon_write
    from pyfileindex.paimon.writer import new_indexed_write

    catalog.create_database("db", True)
    catalog.create_table("db.t", Schema.from_pyarrow_schema(SCHEMA, options=OPTIONS), False)
    table = catalog.get_table("db.t")
    messages = []
    for i in range(files):
        write, commit = new_indexed_write(table)
        try:
            write.write_arrow(piece(i * rows, rows))
            messages.extend(write.prepare_commit())
        finally:
            write.close()
            commit.close()
    commit = table.new_batch_write_builder().new_commit()
    try:
        _pypaimon_write.commit_or_abort(table, commit, messages)
    finally:
        commit.close()
    return catalog.get_table("db.t")


def time_plan(table, predicate: str, repeat: int):
    from pyfileindex.paimon import plan_read

    seconds, plan = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        plan = plan_read(table, predicate)
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds), plan


def time_footers(table, repeat: int) -> float:
    """Open every live data file and read its Parquet footer, through the table's file IO."""
    import pyarrow.parquet as pq

    from pyfileindex.paimon import PaimonTableMetadata
    from pyfileindex.paimon.store import open_input

    files = PaimonTableMetadata(table=table).data_files()
    seconds = []
    for _ in range(repeat):
        start = time.perf_counter()
        for f in files:
            source = open_input(table.file_io, f.path)
            try:
                pq.ParquetFile(source).metadata
            finally:
                source.close()
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds)


def _resident_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() / 2**20


def _peak_mb() -> float:
    """This process's peak resident memory (VmHWM: unlike ru_maxrss, not inherited from
    the parent across fork and exec)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM in /proc/self/status")


def _plan_once(catalog_options: dict, predicate: str, results) -> None:
    """In a fresh process: resident MB with the table opened, then peak MB after one
    plan, and the plan's skipped/total files."""
    from pypaimon import CatalogFactory

    from pyfileindex.paimon import plan_read

    table = CatalogFactory.create(catalog_options).get_table("db.t")
    before = _resident_mb()
    start = time.perf_counter()
    plan = plan_read(table, predicate)
    seconds = time.perf_counter() - start
    results.put((before, _peak_mb(), seconds, plan.files_skipped, plan.files_total))


def plan_memory(catalog_options: dict, predicate: str):
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    child = context.Process(target=_plan_once, args=(catalog_options, predicate, results))
    child.start()
    child.join()  # the result is a small tuple: it never blocks the child's exit
    if child.exitcode != 0:
        raise RuntimeError(f"the planning process failed (exit status {child.exitcode})")
    return results.get(timeout=60)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--rows-per-file", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--plan-memory", action="store_true",
                        help="also plan once in a fresh process per table and report its "
                             "memory")
    args = parser.parse_args()

    from pypaimon import CatalogFactory
    from s3_server import S3Server

    work = Path(tempfile.mkdtemp(prefix="pfi-s3-bench-"))
    server = S3Server(work).start()
    try:
        bucket = server.create_bucket("bench")
        catalog_options = {"local disk": {"warehouse": str(work / "wh")},
                           "S3 (moto, 127.0.0.1)": server.catalog_options(bucket)}
        catalogs = {name: CatalogFactory.create(options)
                    for name, options in catalog_options.items()}
        target = args.files * args.rows_per_file // 2 + 17
        predicate = f"id = {target}"
        print(f"{args.files} data files x {args.rows_per_file} rows, sidecars with 3 indexes; "
              f"point query {predicate!r}; median of {args.repeat}")
        print(f"{'table':<22} {'build s':>8} {'plan s':>8} {'footers s':>10} {'skipped':>9} "
              f"{'requests':>9} {'fetched MB':>11} {'sidecars MB':>12}")
        for name, catalog in catalogs.items():
            start = time.perf_counter()
            table = build(catalog, args.files, args.rows_per_file)
            built = time.perf_counter() - start
            plan_seconds, plan = time_plan(table, predicate, args.repeat)
            footer_seconds = time_footers(table, args.repeat)
            fetches = [f.index_fetch for f in plan.files if f.index_fetch is not None]
            requests = sum(f.requests for f in fetches)
            fetched = sum(f.fetched for f in fetches) / 2**20
            sizes = sum(f.size for f in fetches) / 2**20
            print(f"{name:<22} {built:>8.1f} {plan_seconds:>8.2f} {footer_seconds:>10.2f} "
                  f"{f'{plan.files_skipped}/{plan.files_total}':>9} "
                  f"{requests if fetches else '-':>9} "
                  f"{f'{fetched:.1f}' if fetches else '-':>11} "
                  f"{f'{sizes:.1f}' if fetches else '-':>12}")
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"peak resident memory of this process: {peak:.0f} MB")
        if args.plan_memory:
            print("planning alone, one plan in a fresh process:")
            print(f"{'table':<22} {'plan s':>8} {'skipped':>9} {'before MB':>10} "
                  f"{'peak MB':>8} {'growth MB':>10}")
            for name, options in catalog_options.items():
                before, peak, seconds, skipped, total = plan_memory(options, predicate)
                print(f"{name:<22} {seconds:>8.2f} {f'{skipped}/{total}':>9} "
                      f"{before:>10.0f} {peak:>8.0f} {peak - before:>10.0f}")
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
