"""The Java Paimon 2.0 side of the benchmarks: one warmed JVM running the differential harness.

Uses the harness client in tests/java_harness.py (it builds tests/java with Maven when the
build is stale) and the harness's benchmark ops (tests/java/.../BenchOps.java): inputs and
container bytes travel as files, every time is measured inside the JVM with System.nanoTime.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Dict, Mapping, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from java_harness import JavaHarness  # noqa: E402

# A throughput collector and a heap big enough for 10M-row builds: Java's best case, so the
# ratios are conservative. -Xss as in the test harness (deep predicate trees).
JVM_ARGS = ("-Xss8m", "-XX:+UseParallelGC", "-Xms2g", "-Xmx8g")
REQUEST_TIMEOUT_S = 3600.0


class JavaBench:
    def __init__(self, jvm_args: Sequence[str] = JVM_ARGS) -> None:
        self.harness = JavaHarness(jvm_args=jvm_args, timeout_s=REQUEST_TIMEOUT_S)

    def start(self) -> "JavaBench":
        self.harness.start()
        return self

    def close(self) -> None:
        self.harness.close()

    def version(self) -> str:
        return self.harness.ping()

    def build(self, fields: Sequence[Tuple[str, str]], column_file: Path,
              options: Mapping[str, str], out: Path, *, repeat: int, warmup: int,
              warmup_rows: Optional[int] = None, budget_s: float = 0) -> dict:
        request = {
            "op": "bench_build", "fields": _fields(fields), "column_file": str(column_file),
            "options": dict(options), "out": str(out), "repeat": repeat, "warmup": warmup,
            "budget_ms": int(budget_s * 1000),
        }
        if warmup_rows is not None:
            request["warmup_rows"] = warmup_rows
        return self.harness.request(request)

    def open(self, fields, bytes_file: Path, budget: Mapping[str, int]) -> dict:
        return self.harness.request({
            "op": "bench_open", "fields": _fields(fields), "bytes_file": str(bytes_file),
            **budget,
        })

    def query(self, fields, bytes_file: Path, predicate: Mapping, budget: Mapping[str, int]
              ) -> dict:
        return self.harness.request({
            "op": "bench_query", "fields": _fields(fields), "bytes_file": str(bytes_file),
            "predicate": dict(predicate), **budget,
        })

    def topn(self, fields, bytes_file: Path, column: str, limit: int, descending: bool,
             budget: Mapping[str, int]) -> dict:
        return self.harness.request({
            "op": "bench_topn", "fields": _fields(fields), "bytes_file": str(bytes_file),
            "column": column, "limit": limit, "descending": descending, **budget,
        })


def _fields(fields) -> list:
    return [{"name": name, "type": type_} for name, type_ in fields]


def summary(answer: Mapping) -> Tuple[str, Optional[int]]:
    """(result kind, cardinality or None) of a bench_query / bench_topn answer."""
    return answer["result"], answer.get("cardinality")

