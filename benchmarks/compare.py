#!/usr/bin/env python3
"""pyfileindex against Java Paimon 2.0, side by side, in one run.

    python benchmarks/compare.py                 # standard matrix, 10M rows (BENCH_ROWS)
    python benchmarks/compare.py --quick         # 200k rows, base columns: under two minutes
    python benchmarks/compare.py --matrix full --json results.json
    python benchmarks/compare.py --only 'INT c=1k' --rows 1000000
    python benchmarks/compare.py --quick --rows 10000,200000,2000000   # a file-size sweep
    python benchmarks/compare.py --files-only --files 10000   # the many-files case alone
    python benchmarks/compare.py --spark-only --rows 2000000   # the Spark pipeline alone

For every case (a generated column + an index type) a fresh worker process measures
pyfileindex (benchmarks/ours_worker.py: build timing, peak memory, open, queries) and one
warmed JVM measures Paimon 2.0's own DataFileIndexWriter / FileIndexPredicate on the same
values (tests/java harness, timed in-JVM). Both write their index bytes to files, which must be
equal; query answers (kind + row count) must agree too.

--rows takes a comma-separated list: every case is then measured at each size (a sweep; the
JVM is warmed once). The many-files case (benchmarks/many_files.py) plans one predicate over
--files index files of 20,000 rows each, embedded and sidecar, and reports the cost per file
(default 10,000 files, 1,000 with --quick; --files 0 leaves it out, --files-only runs it alone).

Output: one table (case, rows, index, op, Java time, our time, Java/ours, our ns/row, our peak
memory during the build, index bytes, equal) and the issue's targets, met or missed.
--json FILE writes the same rows as a list of objects (keys: case, index, op, rows,
java_ns_per_row / ours_ns_per_row (build, serialize), java_us / ours_us (every op), ratio
(Java/ours), bytes_equal, answers_equal, index_bytes, peak_delta_bytes, input_bytes, ...).

--spark adds the Spark pipeline's two measurements (benchmarks/spark_pipeline.py: index
build vs a plain Spark scan of the indexed columns, pruned selective query vs a plain
Spark filter scan) on the demo's events data, --rows rows (default: the demo's 20M, 2M
with --quick) in --spark-files data files; their rows have index "spark", and there "Java" is the plain
Spark baseline. --spark-only (or --spark with an --only that selects no case) measures
the Spark pipeline alone, without the JVM harness.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import cases  # noqa: E402
import many_files  # noqa: E402
import spark_pipeline  # noqa: E402
import targets  # noqa: E402
from timing import Budget, load_average, progress  # noqa: E402


@dataclasses.dataclass(frozen=True)
class Plan:
    """How hard to measure: build repetitions and the query/open time budgets per side."""

    java_build_warmup: int
    java_build_warmup_rows: Optional[int]  # warm-up builds index only this prefix
    java_build_budget_s: float  # no further timed Java build after this long (>= 1 run)
    build_repeat: int
    ours_query: Budget
    java_query: Budget


QUICK_PLAN = Plan(
    java_build_warmup=3, java_build_warmup_rows=None, java_build_budget_s=5, build_repeat=3,
    ours_query=Budget(warmup=3, repeat=5, budget_s=0.03, max_runs=300),
    java_query=Budget(warmup=50, warmup_s=0.08, repeat=5, budget_s=0.06, max_runs=1000))
# JVM warm-up before the measured cases (results dropped): every index type's write and read
# paths, so the first measured cases do not pay for the JIT.
WARM_PLAN = Plan(
    java_build_warmup=4, java_build_warmup_rows=None, java_build_budget_s=0, build_repeat=1,
    ours_query=Budget(warmup=0, repeat=1, budget_s=0, max_runs=1),
    java_query=Budget(warmup=200, warmup_s=0.4, repeat=1, budget_s=0, max_runs=1))
WARM_ROWS = 100_000
FULL_PLAN = Plan(
    java_build_warmup=2, java_build_warmup_rows=1_000_000, java_build_budget_s=60,
    build_repeat=3,
    ours_query=Budget(warmup=3, repeat=5, budget_s=0.5, max_runs=2000),
    java_query=Budget(warmup=20, warmup_s=1.0, repeat=5, budget_s=1.0, max_runs=2000))


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    # SIGTERM as an exception, so the JVM is shut down and the work dir removed.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.from_json:
        results = json.loads(Path(args.from_json).read_text())
        if args.markdown:
            sizes = sorted({r["rows"] for r in results if r.get("rows") and not r.get("files")})
            print(format_sweep_markdown(results, sizes) if len(sizes) > 1
                  else format_markdown(results))
        else:
            print(format_table(results))
        print()
        print(targets.report(results))
        return 0
    sizes = args.rows or [cases.QUICK_ROWS if args.quick else cases.rows_from_env()]
    matrix_name = args.matrix or ("quick" if args.quick else "standard")
    if args.spark_only:
        args.spark = True
    files = args.files
    if files is None:
        files = 0 if args.spark_only else (
            many_files.QUICK_FILES if args.quick else many_files.DEFAULT_FILES)
    selected = [] if args.spark_only or args.files_only else [
        c for c in cases.matrix(matrix_name) if not args.only or re.search(args.only, c.name)]
    if not selected and not args.spark and not files:
        print("no case matches --only", file=sys.stderr)
        return 2

    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="pyfileindex-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    java = None
    if not args.no_java and (selected or files):
        from java_side import JavaBench

        java = JavaBench().start()
    try:
        print(environment(sizes, matrix_name, len(selected), java), file=sys.stderr)
        if java is not None:
            warm_up_java(java, selected, work)
        results: List[dict] = []
        began = time.monotonic()
        for rows in sizes:
            plan = QUICK_PLAN if args.quick or rows <= 1_000_000 else FULL_PLAN
            for number, case in enumerate(selected, 1):
                progress(f"[{number}/{len(selected)}] {case.name} ({rows:,} rows)")
                results += run_case(case, rows, plan, work, java)
        if files:
            results += many_files.rows(files, work, java)
        args.rows = args.rows[0] if args.rows else None  # the Spark pipeline takes one size
        results += spark_pipeline.rows(args)
        elapsed = time.monotonic() - began
    finally:
        if java is not None:
            java.close()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)

    print(format_table(results))
    print()
    print(targets.report(results))
    measured = (f"{len(selected)} cases at {_sizes_text(sizes)} rows" if selected
                else "no index cases")
    if files:
        measured += f" + {files:,} files x {many_files.FILE_ROWS:,} rows"
    if args.spark:
        measured += " + the Spark pipeline"
    print(f"\n{measured}, {elapsed:.0f} s; load average now {load_average()}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n")
        print(f"wrote {args.json}")
    failed = [r for r in results if r.get("bytes_equal") is False
              or r.get("answers_equal") is False or r.get("error")]
    return 1 if failed else 0


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help=f"{cases.QUICK_ROWS:,} rows, base columns, short budgets")
    parser.add_argument("--rows", type=_row_counts, metavar="N[,N...]",
                        help=f"rows per column, or a comma-separated list of sizes to sweep "
                             f"(default: BENCH_ROWS or {cases.FULL_ROWS:,})")
    parser.add_argument("--matrix", choices=("quick", "standard", "full"))
    parser.add_argument("--files", type=int, metavar="N",
                        help=f"index files in the many-files case (default "
                             f"{many_files.DEFAULT_FILES:,}, {many_files.QUICK_FILES:,} with "
                             f"--quick; 0: leave it out)")
    parser.add_argument("--files-only", action="store_true",
                        help="only the many-files case")
    parser.add_argument("--only", metavar="REGEX", help="cases whose name matches")
    parser.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    parser.add_argument("--keep", metavar="DIR", help="keep dumps and index bytes in DIR")
    parser.add_argument("--no-java", action="store_true", help="measure pyfileindex only")
    parser.add_argument("--from-json", metavar="FILE",
                        help="print the table and targets of a saved --json run, measure nothing")
    parser.add_argument("--markdown", action="store_true",
                        help="with --from-json: the table as Markdown (a sweep of sizes: one "
                             "row per case and op, a column per size)")
    parser.add_argument("--spark", action="store_true",
                        help="also the Spark pipeline benchmarks (see spark_pipeline.py)")
    parser.add_argument("--spark-only", action="store_true",
                        help="only the Spark pipeline benchmarks (no index cases, no JVM)")
    parser.add_argument("--spark-files", type=int, metavar="N",
                        help=f"data files of the Spark table "
                             f"(default {spark_pipeline.DEFAULT_FILES})")
    parser.add_argument("--spark-repeat", type=int, metavar="N",
                        help=f"timed runs per Spark side, after one warm-up "
                             f"(default {spark_pipeline.DEFAULT_REPEAT})")
    return parser.parse_args(argv)


def _row_counts(text: str) -> List[int]:
    sizes = [int(part.replace("_", "")) for part in text.split(",") if part.strip()]
    if not sizes or min(sizes) < 1:
        raise argparse.ArgumentTypeError(f"rows must be positive integers, got {text!r}")
    return sizes


def _sizes_text(sizes: List[int]) -> str:
    return ", ".join(f"{n:,}" for n in sizes)


# ------------------------------------------------------------------------------ one case


def warm_up_java(java, selected: List[cases.Case], work: Path) -> None:
    """Runs each index type (on INT and, where measured, STRING columns) once, unrecorded."""
    seen = set()
    for case in selected:
        kind = "string" if case.column.kind == "string" else "int"
        if (case.index_type, kind) in seen:
            continue
        seen.add((case.index_type, kind))
        spec = cases.ColumnSpec(kind, 1_000)
        progress(f"warming the JVM: {spec.label} / {case.index_type}")
        run_case(cases.Case(spec, case.index_type), WARM_ROWS, WARM_PLAN, work, java,
                 quiet=True)



def run_case(case: cases.Case, rows: int, plan: Plan, work: Path, java,
             quiet: bool = False) -> List[dict]:
    spec = case.column
    dump = work / f"{spec.key}-{rows}.dump"
    ours_bytes = work / f"{spec.key}-{rows}-{case.index_type}.ours"
    java_bytes = work / f"{spec.key}-{rows}-{case.index_type}.java"
    base = {"case": spec.label, "index": case.index_type, "rows": rows,
            "load_avg": load_average()}
    request = {
        "column": dataclasses.asdict(spec), "index": case.index_type, "rows": rows,
        "dump": str(dump) if java is not None else None, "bytes_out": str(ours_bytes),
        "build_repeat": plan.build_repeat,
        "query": dataclasses.asdict(plan.ours_query),
        "open": dataclasses.asdict(plan.ours_query),
    }
    try:
        ours = run_worker(request)
    except RuntimeError as e:
        progress(f"  pyfileindex failed: {e}")
        return [dict(base, op="build", error=f"pyfileindex: {e}")]

    java_build = java_open = None
    java_answers: Dict[str, dict] = {}
    if java is not None:
        try:
            java_build = java.build(case.fields, dump, case.options, java_bytes,
                                    repeat=plan.build_repeat, warmup=plan.java_build_warmup,
                                    warmup_rows=plan.java_build_warmup_rows,
                                    budget_s=plan.java_build_budget_s)
            jq = plan.java_query.java()
            java_open = java.open(case.fields, java_bytes, jq)
            for name, answer in ours["queries"].items():
                query = answer["query"]
                if "topn" in query:
                    java_answers[name] = java.topn(case.fields, java_bytes, cases.COLUMN,
                                                   query["topn"], query["descending"], jq)
                else:
                    java_answers[name] = java.query(case.fields, java_bytes, query, jq)
        except Exception as e:  # report and go on with the next case
            progress(f"  Java failed: {e}")
            java_build = java_build or {"error": str(e)}

    bytes_equal = None
    if java_build is not None and "error" not in java_build:
        bytes_equal = java_bytes.read_bytes() == ours_bytes.read_bytes()
    out = []
    size = ours["size"]
    peak = ours["peak_delta_bytes"]
    out.append(dict(
        base, op="build",
        ours_ns_per_row=ours["build"]["median_ns"] / rows,
        ours_us=ours["build"]["median_ns"] / 1e3,
        java_ns_per_row=_get(java_build, "median_ns", lambda v: v / rows),
        java_us=_get(java_build, "median_ns", lambda v: v / 1e3),
        index_bytes=size, java_index_bytes=_get(java_build, "size"),
        ours_runs=ours["build"]["runs"], java_runs=_get(java_build, "runs"),
        bytes_equal=bytes_equal, input_bytes=ours["input_bytes"],
        peak_delta_bytes=peak, write_peak_delta_bytes=ours["write_peak_delta_bytes"],
        kernel_hwm_delta_bytes=ours.get("kernel_hwm_delta_bytes"),
        peak_within_budget=None if peak is None else peak <= 2 * size,
        error=_get(java_build, "error"),
    ))
    out.append(dict(
        base, op="serialize",
        ours_ns_per_row=ours["build"]["finish_median_ns"] / rows,
        ours_us=ours["build"]["finish_median_ns"] / 1e3,
        java_ns_per_row=_get(java_build, "close_median_ns", lambda v: v / rows),
        java_us=_get(java_build, "close_median_ns", lambda v: v / 1e3),
        bytes_equal=bytes_equal,
    ))
    out.append(dict(
        base, op="open", ours_us=ours["open"]["median_ns"] / 1e3,
        java_us=_get(java_open, "median_ns", lambda v: v / 1e3), bytes_equal=bytes_equal,
    ))
    for name, answer in ours["queries"].items():
        theirs = java_answers.get(name)
        agree = None
        if theirs is not None:
            agree = (answer["result"], answer["cardinality"]) == (
                theirs["result"], theirs.get("cardinality"))
        out.append(dict(
            base, op=name, ours_us=answer["median_ns"] / 1e3,
            java_us=_get(theirs, "median_ns", lambda v: v / 1e3),
            result=answer["result"], result_rows=answer["cardinality"],
            ours_runs=answer["runs"], java_runs=_get(theirs, "runs"),
            java_result=_get(theirs, "result"), bytes_equal=bytes_equal,
            answers_equal=agree,
        ))
    for row in out:
        if row.get("java_us") and row.get("ours_us"):
            row["ratio"] = row["java_us"] / row["ours_us"]
        else:
            row["ratio"] = None
    if not quiet:
        progress("  " + "; ".join(f"{r['op']} {_fmt_ratio(r['ratio'])}" for r in out))
    return out


def _get(answer: Optional[dict], key: str, convert=None):
    if answer is None or answer.get(key) is None:
        return None
    value = answer[key]
    return convert(value) if convert else value


def run_worker(request: dict) -> dict:
    done = subprocess.run([sys.executable, str(HERE / "ours_worker.py"), json.dumps(request)],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip().splitlines()[-1] if done.stderr.strip()
                           else f"worker exit code {done.returncode}")
    return json.loads(done.stdout)


# ---------------------------------------------------------------------------- reporting

COLUMNS = ("case", "rows", "index", "op", "Java", "ours", "Java/ours", "ns/row", "peak Δ",
           "index bytes", "equal")
RIGHT = {1, 4, 5, 6, 7, 8, 9}


def format_table(results: List[dict]) -> str:
    lines = [_row_cells(r) for r in results]
    widths = [max(len(COLUMNS[i]), *(len(cells[i]) for cells in lines))
              for i in range(len(COLUMNS))]
    right = RIGHT

    def fmt(cells):
        return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    notes = ("Java, ours: build/serialize in ms, open/queries in µs (median); ns/row: ours; "
             "peak Δ: ours, highest sampled resident set above the input column during one build; "
             "equal: index bytes (build/serialize/open) or answers (queries) equal to Java's; "
             "ops files-*/plan-*: the many-files case, in µs per file (files: open + evaluate, "
             "plan: the table layer's per-file path; index bytes: one file's); "
             "index spark: Java = plain Spark (scan / filter scan), ours = the pipeline, in ms")
    return "\n".join([fmt(COLUMNS), fmt(["-" * w for w in widths]), *map(fmt, lines),
                      "", notes])


def format_markdown(results: List[dict]) -> str:
    lines = ["| " + " | ".join(COLUMNS) + " |",
             "|" + "|".join("---:" if i in RIGHT else "---"
                            for i in range(len(COLUMNS))) + "|"]
    lines += ["| " + " | ".join(cells) + " |" for cells in map(_row_cells, results)]
    return "\n".join(lines)


def format_sweep_markdown(results: List[dict], sizes: List[int]) -> str:
    """A sweep as one Markdown row per case, index and op: ours and Java/ours at each size
    (builds in ms, the rest in µs); the many-files rows follow in the plain layout."""
    head = ["case", "index", "op"] + [f"{_short_rows(n)} rows: ours (Java/ours)" for n in sizes]
    lines = ["| " + " | ".join(head) + " |",
             "|" + "|".join(["---"] * 3 + ["---:"] * len(sizes)) + "|"]
    by_key: Dict[tuple, Dict[int, dict]] = {}
    for r in results:
        if r.get("files") or r["index"] == spark_pipeline.INDEX or r.get("rows") not in sizes:
            continue
        by_key.setdefault((r["case"], r["index"], r["op"]), {})[r["rows"]] = r
    for (case, index, op), at in by_key.items():
        cells = [case, index, op]
        for n in sizes:
            r = at.get(n)
            if r is None or r.get("ours_us") is None:
                cells.append("-")
                continue
            build_like = op in ("build", "serialize")
            ours = f"{r['ours_us'] / 1e3:,.2f} ms" if build_like else f"{r['ours_us']:,.1f} µs"
            cells.append(f"{ours} ({_fmt_ratio(r.get('ratio'))})")
        lines.append("| " + " | ".join(cells) + " |")
    rest = [r for r in results if r.get("files")]
    if rest:
        lines += ["", format_markdown(rest)]
    return "\n".join(lines)


def _row_cells(r: dict) -> List[str]:
    build_like = r["op"] in ("build", "serialize") or r["index"] == spark_pipeline.INDEX
    if r.get("error") and r.get("ours_us") is None:
        return [r["case"], _short_rows(r.get("rows")), r["index"], r["op"], "error", "", "",
                "", "", "", r["error"][:40]]

    def time_text(us):
        if us is None:
            return "-"
        return f"{us / 1e3:,.1f} ms" if build_like else f"{us:,.1f} µs"

    equal = r.get("answers_equal") if r["op"] not in ("build", "serialize", "open") \
        else r.get("bytes_equal")
    return [
        r["case"], _short_rows(r.get("rows")), r["index"], r["op"],
        time_text(r.get("java_us")), time_text(r.get("ours_us")),
        _fmt_ratio(r.get("ratio")),
        f"{r['ours_ns_per_row']:.2f}" if build_like and r.get("ours_ns_per_row") else "",
        _mib(r.get("peak_delta_bytes")) if r["op"] == "build" else "",
        f"{r['index_bytes']:,}" if r["op"] == "build" or r.get("files") else "",
        {True: "yes", False: "NO", None: "-"}[equal],
    ]


def _short_rows(n) -> str:
    if not n:
        return "-"
    for unit, size in (("M", 1_000_000), ("k", 1_000)):
        if n >= size and n % (size // 10) == 0:
            return f"{n / size:g}{unit}"
    return str(n)


def _fmt_ratio(ratio) -> str:
    return "-" if ratio is None else f"{ratio:.1f}x"


def _mib(n) -> str:
    return "-" if n is None else f"{n / 2 ** 20:,.1f} MiB"


def environment(sizes: List[int], matrix_name: str, count: int, java) -> str:
    import pyfileindex

    cpu = platform.processor() or "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    java_text = "not measured" if java is None else f"Paimon {java.version()}"
    return (f"pyfileindex {pyfileindex.__version__} (CRoaring {pyfileindex.croaring_version()}), "
            f"Java {java_text}; {cpu}, {os.cpu_count()} cores; load {load_average()}\n"
            + (f"matrix {matrix_name}: {count} cases x {_sizes_text(sizes)} rows" if count
               else "no index cases"))


if __name__ == "__main__":
    sys.exit(main())
