"""The performance targets (issues 8 and 46), checked against compare.py's result rows."""

from __future__ import annotations

import dataclasses
from typing import Callable, List, Optional

import spark_pipeline


@dataclasses.dataclass(frozen=True)
class Target:
    text: str
    applies: Callable[[dict], bool]
    value: Callable[[dict], Optional[float]]  # the measured number of one row
    limit: float
    at_most: bool  # True: value <= limit; False: value >= limit
    unit: str

    def passes(self, value: float) -> bool:
        return value <= self.limit if self.at_most else value >= self.limit


def _is(index: str, op: str, case: Optional[str] = None):
    return lambda r: (r["index"] == index and r["op"] == op
                      and (case is None or r["case"] == case))


def _is_op(op: str):
    return lambda r: r["op"] == op


def _ratio(r):
    return r.get("ratio")


def _ns_per_row(r):
    return r.get("ours_ns_per_row")


def _peak_over_index(r):
    peak, size = r.get("peak_delta_bytes"), r.get("index_bytes")
    if peak is None or not size:
        return None
    return peak / size


def _build_overhead_pct(r):
    """Spark index build: how much longer than the plain scan of the same columns, in %."""
    if not r.get("java_us") or not r.get("ours_us"):
        return None
    return (r["ours_us"] / r["java_us"] - 1) * 100


def _ratio_if_selective(r):
    """The pruning speed-up, only where at most 1% of the data files survive."""
    total, surviving = r.get("files_total"), r.get("files_surviving")
    if not total or surviving is None or surviving > total / 100:
        return None
    return r.get("ratio")


QUERY_OPS = ("point", "point_absent", "in2", "in", "range", "topn", "is_null")
# Issue 46's targets hold at every file size from this many rows up.
SIZED_FROM_ROWS = 200_000


def _sized(applies):
    return lambda r: (r.get("rows") or 0) >= SIZED_FROM_ROWS and applies(r)


def _is_query(r):
    return r["op"] in QUERY_OPS and r["index"] != spark_pipeline.INDEX


TARGETS = (
    Target("bitmap V2 build, INT c=1k: <= 5 ns/row", _is("bitmap", "build", "INT c=1k"),
           _ns_per_row, 5, True, "ns/row"),
    Target("bitmap V2 build, INT c=1k: >= 10x Java", _is("bitmap", "build", "INT c=1k"),
           _ratio, 10, False, "x"),
    Target("bitmap V2 build, STRING c=100k: >= 10x Java",
           _is("bitmap", "build", "STRING c=100k"), _ratio, 10, False, "x"),
    Target("bloom-filter build (every column): <= 10 ns/row", _is("bloom-filter", "build"),
           _ns_per_row, 10, True, "ns/row"),
    Target("bloom-filter build (every column): >= 5x Java", _is("bloom-filter", "build"),
           _ratio, 5, False, "x"),
    Target("range-bitmap build (every column): >= 5x Java", _is("range-bitmap", "build"),
           _ratio, 5, False, "x"),
    Target("range-bitmap range query (every column): >= 3x Java",
           _is("range-bitmap", "range"), _ratio, 3, False, "x"),
    Target("bitmap V2 point lookup, 1M distinct, from bytes: >= 5x Java",
           _is("bitmap", "point", "INT c=1M"), _ratio, 5, False, "x"),
    Target("peak build memory <= input + 2 x index (peak above input / index size <= 2)",
           lambda r: r["op"] == "build", _peak_over_index, 2, True, "x index"),
    Target("every query op, from 200k rows: >= 3x Java", _sized(_is_query), _ratio, 3, False,
           "x"),
    Target("opening an index, from 200k rows: no slower than Java", _sized(_is_op("open")),
           _ratio, 1, False, "x"),
    Target("every index build, from 200k rows: >= 5x Java",
           _sized(lambda r: r["op"] == "build" and r["index"] != spark_pipeline.INDEX),
           _ratio, 5, False, "x"),
    Target("bitmap builds, from 200k rows: >= 10x Java", _sized(_is("bitmap", "build")),
           _ratio, 10, False, "x"),
    Target("Spark: index build adds <= 10% to a scan of the indexed columns",
           _is(spark_pipeline.INDEX, spark_pipeline.BUILD_OP), _build_overhead_pct, 10, True,
           "%"),
    Target("Spark: selective query (<= 1% of files survive) >= 10x faster with pruning",
           _is(spark_pipeline.INDEX, spark_pipeline.QUERY_OP), _ratio_if_selective, 10, False,
           "x"),
)


def evaluate(results: List[dict]) -> List[dict]:
    """One entry per target: met (True/False/None = not measured), worst value, row counts."""
    out = []
    for target in TARGETS:
        values = []
        for row in results:
            if target.applies(row):
                value = target.value(row)
                if value is not None:
                    values.append((value, row))
        if not values:
            out.append({"target": target.text, "met": None})
            continue
        failing = [(v, r) for v, r in values if not target.passes(v)]
        worst = (max if target.at_most else min)(values, key=lambda vr: vr[0])
        out.append({
            "target": target.text, "met": not failing, "worst": worst[0],
            "worst_case": f"{worst[1]['case']} / {worst[1]['index']}",
            "unit": target.unit, "rows": len(values), "failing": len(failing),
            "failing_cases": [f"{r['case']} / {r['index']} ({v:.2f})" for v, r in failing],
        })
    return out


def report(results: List[dict]) -> str:
    lines = ["targets:"]
    for entry in evaluate(results):
        if entry["met"] is None:
            lines.append(f"  [ -- ] {entry['target']}: not measured in this run")
            continue
        mark = "MET " if entry["met"] else "MISS"
        text = (f"  [{mark}] {entry['target']}: worst {entry['worst']:.2f} {entry['unit']}"
                f" ({entry['worst_case']}; {entry['rows'] - entry['failing']}/{entry['rows']}"
                f" cases pass)")
        lines.append(text)
        if entry["failing"] and entry["failing"] <= 6:
            lines.append("         missed by: " + ", ".join(entry["failing_cases"]))
    return "\n".join(lines)
