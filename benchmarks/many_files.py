"""Planning one predicate over many small index files: the cost per file, ours against Java.

A query plans a table by asking every data file's index, so a fixed cost per file (opening
the container, the first answer) multiplies by the file count. This case writes `count`
index files of FILE_ROWS rows each (one INT key column of cardinality 100: every file holds
every key, as buckets of a primary-key table do), then, for the index bytes embedded in the
manifest (held in memory) and for sidecar files (read from disk), times passes over all files:

- Java: FileIndexPredicate (over the bytes, or over the file through LocalFileIO) + evaluate
  + the answer's cardinality (tests/java ManyFiles.java, timed in the JVM);
- ours, op `files-*`: IndexReader(bytes or path, fields).evaluate(predicate) + cardinality,
  the same work;
- ours, op `plan-*`: the table layer's per-file path (pyfileindex.paimon.evaluator
  .evaluate_file: row-count check, index answer, row ids as a numpy array), what
  pyfileindex.paimon's planner runs per data file.

The files are copies of DISTINCT_BUILDS distinct builds (different seeds), so building them
takes seconds; every file is its own bytes object / file, so no answer is cached. Results are
rows of compare.py's table (java_us / ours_us per file).
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Dict, List, Optional

import cases
from timing import load_average, progress

FILE_ROWS = 20_000
DEFAULT_FILES = 10_000
QUICK_FILES = 1_000
DISTINCT_BUILDS = 8
COLUMN = cases.ColumnSpec("int", 100)
INDEX_TYPES = ("bitmap", "bsi", "range-bitmap", "bloom-filter")
MODES = ("embedded", "sidecar")
# Bloom filters sized for the file (Paimon's default of 1M items makes every one 600 KiB).
BLOOM_ITEMS = FILE_ROWS


def case_label(count: int) -> str:
    return f"{COLUMN.label} x {count:,} files"


def options(index_type: str) -> Dict[str, str]:
    out = {f"file-index.{index_type}.columns": cases.COLUMN}
    if index_type == "bloom-filter":
        out[f"file-index.bloom-filter.{cases.COLUMN}.items"] = str(BLOOM_ITEMS)
    return out


# Untimed file visits before the timed passes (at least one pass): the JIT needs thousands
# of calls, however few files a quick run has.
WARMUP_VISITS = 5_000


def rows(count: int, work: Path, java, passes: int = 3, warmup_passes: Optional[int] = None,
         index_types=INDEX_TYPES) -> List[dict]:
    if warmup_passes is None:
        warmup_passes = max(1, -(-WARMUP_VISITS // count))
    out = []
    for index_type in index_types:
        progress(f"many files: {count:,} x {FILE_ROWS:,}-row {index_type} indexes")
        folder = work / f"files-{index_type}"
        try:
            out += _one_index_type(index_type, count, folder, java, passes, warmup_passes)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    return out


def _one_index_type(index_type, count, folder, java, passes, warmup_passes) -> List[dict]:
    import pyfileindex as pfi

    fields = [(cases.COLUMN, COLUMN.paimon_type)]
    folder.mkdir(parents=True, exist_ok=True)
    built = []
    for seed in range(DISTINCT_BUILDS):
        column = cases.generate(COLUMN, FILE_ROWS, cases.SEED + seed)
        writer = pfi.IndexWriter(fields, options(index_type))
        writer.write(column.table())
        built.append(writer.finish())
    literal = column.literal(column.present()[0])  # every key is in every file
    for i in range(count):
        (folder / f"{i}.index").write_bytes(built[i % DISTINCT_BUILDS])
    paths = [str(folder / f"{i}.index") for i in range(count)]
    predicate = {"op": "eq", "column": cases.COLUMN, "literals": [literal]}
    base = {"case": case_label(count), "index": index_type, "rows": FILE_ROWS,
            "files": count, "index_bytes": len(built[0]), "load_avg": load_average()}

    out = []
    for mode in MODES:
        java_answer = None
        if java is not None:
            java_answer = java.harness.request({
                "op": "bench_files", "fields": [{"name": n, "type": t} for n, t in fields],
                "predicate": predicate, "dir": str(folder), "count": count, "mode": mode,
                "passes": passes, "warmup_passes": warmup_passes})
        for route in ("files", "plan"):
            ours = _ours(route, mode, paths, fields, predicate, passes, warmup_passes)
            row = dict(base, op=f"{route}-{mode}", ours_us=ours["median_ns_per_file"] / 1e3,
                       ours_tally=ours["tally"])
            if java_answer is not None:
                row["java_us"] = java_answer["median_ns_per_file"] / 1e3
                row["ratio"] = row["java_us"] / row["ours_us"]
                if route == "files":
                    theirs = {k: java_answer[k] for k in
                              ("skip_files", "remain_files", "rows_files", "total_rows")}
                    row["answers_equal"] = theirs == ours["tally"]
            else:
                row["ratio"] = None
            out.append(row)
    progress("  " + "; ".join(
        f"{r['op']} {r['ours_us']:.1f} µs/file"
        + (f" ({r['ratio']:.1f}x)" if r.get("ratio") else "") for r in out))
    return out


def _ours(route, mode, paths, fields, predicate_json, passes, warmup_passes) -> dict:
    from pyfileindex import IndexReader
    from pyfileindex.predicate import Leaf

    from pyfileindex.paimon.evaluator import ROWS, evaluate_file

    predicate = Leaf(predicate_json["op"], predicate_json["column"],
                     tuple(predicate_json["literals"]))
    if mode == "embedded":
        sources = [Path(p).read_bytes() for p in paths]  # as manifest entries carry them
    else:
        sources = paths

    def read(source):
        with open(source, "rb") as f:
            return f.read()

    if route == "files":
        def one_pass(tally):
            for source in sources:
                result = IndexReader(source, fields).evaluate(predicate)
                _count(tally, result.kind, result.cardinality)
    else:
        file_rows = FILE_ROWS

        def one_pass(tally):
            for source in sources:
                load = (lambda s=source: s) if mode == "embedded" else (lambda s=source: read(s))
                answer = evaluate_file(load, fields, file_rows, None, predicate)
                if answer.kind == ROWS:
                    _count(tally, "ROWS", answer.rows.size)
                else:
                    _count(tally, answer.kind, None)

    tally = _empty_tally()
    for _ in range(warmup_passes):
        one_pass(tally)
    times = []
    for _ in range(passes):
        tally = _empty_tally()
        start = time.perf_counter_ns()
        one_pass(tally)
        times.append(time.perf_counter_ns() - start)
    times.sort()
    median = times[len(times) // 2] if len(times) % 2 else (
        times[len(times) // 2 - 1] + times[len(times) // 2]) / 2
    return {"median_ns_per_file": median / len(sources), "tally": tally}


def _empty_tally() -> Dict[str, int]:
    return {"skip_files": 0, "remain_files": 0, "rows_files": 0, "total_rows": 0}


def _count(tally, kind, cardinality) -> None:
    if kind == "ROWS" and cardinality:
        tally["rows_files"] += 1
        tally["total_rows"] += cardinality
    elif kind == "REMAIN":
        tally["remain_files"] += 1
    else:
        tally["skip_files"] += 1
