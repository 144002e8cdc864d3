"""Measures pyfileindex on one benchmark case, in a process of its own.

    python benchmarks/ours_worker.py '<request JSON>'   ->   one JSON object on stdout

Why a process per case: peak memory. tracemalloc only sees Python allocations, not the
native writer's, so the worker samples the exact resident set (resident_sampler.py: a thread
polling /proc/self/statm while the native build runs without the GIL). After the timed builds
it hands the C library's free heap back (glibc malloc_trim: heap freed by the column's
generation and earlier builds would otherwise be reused without its pages counting), notes
the resident set, runs one more build and takes the highest sample. The difference is
everything the build touched beyond the input column: native index structures, the
serialized container and the returned bytes object. The kernel's high-water mark (VmHWM,
reset through /proc/self/clear_refs) is reported beside it, as `kernel_hwm_delta_bytes`: it
is approximate by a few hundred KiB (see resident_sampler.py), which hid most of the peak of
indexes of a few dozen KiB. A fresh process keeps memory freed by an earlier case from hiding
a later case's peak.

Request keys: column (cases.ColumnSpec fields), index, rows, seed, dump (path: write the Java
column dump there if missing, or null), bytes_out (path for our index bytes), build_repeat,
query (timing.Budget fields), open (timing.Budget fields).
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import json
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cases  # noqa: E402
import timing  # noqa: E402
from column_dump import write_dump  # noqa: E402
from resident_sampler import ResidentSampler  # noqa: E402


def _status_kib(field: str) -> int:
    with open("/proc/self/status") as status:
        match = re.search(rf"^{field}:\s+(\d+) kB", status.read(), re.M)
    if match is None:
        raise RuntimeError(f"/proc/self/status has no {field}")
    return int(match.group(1))


def _return_free_heap() -> None:
    """Hands the C library's free heap back to the system (glibc; elsewhere nothing)."""
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass


def _reset_hwm() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def run(request: dict) -> dict:
    import pyfileindex as pfi

    spec = cases.ColumnSpec(**request["column"])
    case = cases.Case(spec, request["index"])
    began = time.perf_counter()
    column = cases.generate(spec, request["rows"], request.get("seed", cases.SEED))
    table = column.table()
    dump = request.get("dump")
    if dump and not Path(dump).exists():
        write_dump(column, Path(dump))
    generated_s = time.perf_counter() - began
    fields, options = case.fields, case.options

    # 1. Build timing: create + write + finish, and finish (serialization) alone, after a
    #    100-row build (one-time initialization: lazy imports, the allocator's first arenas)
    #    and one whole untimed build.
    small = pfi.IndexWriter(fields, options)
    small.write(table.slice(0, 100))
    small.finish()
    del small
    finish_ns = []

    def build():
        w = pfi.IndexWriter(fields, options)
        w.write(table)
        start = time.perf_counter_ns()
        out = w.finish()
        finish_ns.append(time.perf_counter_ns() - start)
        return out

    build()
    repeat = request.get("build_repeat", 3)
    built = timing.measure(build, timing.Budget(warmup=0, repeat=repeat, budget_s=0,
                                                max_runs=repeat))
    finish_ns = finish_ns[-len(built.times_ns):]

    # 2. Peak memory of one more build, from the heap the C library holds after handing its
    #    free pages back: what the build touches counts, however much the process freed before.
    #    The exact resident set is sampled throughout (resident_sampler.py); the kernel's
    #    high-water mark is kept beside it for reference only.
    gc.collect()
    _return_free_heap()
    hwm_reset = _reset_hwm()
    hwm_baseline_kib = _status_kib("VmRSS")
    sampler = ResidentSampler() if ResidentSampler.available() else None
    with sampler or contextlib.nullcontext():
        writer = pfi.IndexWriter(fields, options)
        writer.write(table)
        written_peak = sampler.mark_peak() if sampler else None
        data = writer.finish()
        del writer
    peak = sampler.peak_bytes() if sampler else None  # exit took the last exact read
    hwm_peak_kib = _status_kib("VmHWM")
    Path(request["bytes_out"]).write_bytes(data)

    # 3. Open from bytes, and each query from bytes (open + evaluate + materialized answer,
    #    the same work as the Java side's FileIndexPredicate + evaluate + cardinality).
    open_budget = timing.Budget(**request.get("open", {}))
    opened = timing.measure(lambda: pfi.IndexReader(data, fields), open_budget)
    query_budget = timing.Budget(**request.get("query", {}))
    answers = {}
    for query in cases.queries(case, column):
        if query.op == "topn":
            def ask(q=query):
                return pfi.IndexReader(data, fields).top_n(
                    cases.COLUMN, q.limit, descending=q.descending)
        else:
            predicate = query.ours()

            def ask(p=predicate):
                return pfi.IndexReader(data, fields).evaluate(p)

        def ask_materialized(a=ask):
            result = a()
            return result.cardinality if result.kind == "ROWS" else result.kind

        measured = timing.measure(ask_materialized, query_budget)
        result = ask()
        described = (query.java() if query.op != "topn"
                     else {"topn": query.limit, "descending": query.descending})
        answers[query.name] = dict(measured.as_dict(), result=result.kind,
                                   cardinality=result.cardinality, query=described)

    return {
        "rows": column.rows,
        "generated_s": round(generated_s, 3),
        "input_bytes": table.nbytes,
        "size": len(data),
        "peak_delta_bytes": peak,
        "write_peak_delta_bytes": written_peak,
        "kernel_hwm_delta_bytes": ((hwm_peak_kib - hwm_baseline_kib) * 1024
                                   if hwm_reset else None),
        "build": dict(built.as_dict(),
                      finish_median_ns=timing.Timing(finish_ns).median_ns),
        "open": opened.as_dict(),
        "queries": answers,
    }


def main() -> None:
    request = json.loads(sys.argv[1] if len(sys.argv) > 1 else sys.stdin.read())
    print(json.dumps(run(request)))


if __name__ == "__main__":
    main()
