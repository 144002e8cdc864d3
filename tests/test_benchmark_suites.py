"""The pytest-benchmark suites (benchmarks/test_bench_*.py) run end to end on the quick matrix
at a tiny size, so a broken suite shows up here rather than on the next benchmark run. Only
what the suites record is checked, never a time."""

import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

pytest.importorskip("pytest_benchmark")

ROOT = Path(__file__).resolve().parents[1]
ROWS = 20_000
INDEX_TYPES = {"bitmap", "bloom-filter", "bsi", "range-bitmap"}
OPERATIONS = {"build", "serialize", "open", "query"}


@pytest.mark.timeout(600)
def test_every_suite_runs_and_records_its_measures(tmp_path):
    report = tmp_path / "bench.json"
    env = dict(os.environ, BENCH_ROWS=str(ROWS))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", str(ROOT / "benchmarks"), "-q", "-p", "no:cacheprovider",
         "--bench-matrix", "quick", "--benchmark-max-time=0.001",
         "--benchmark-min-rounds=1", f"--benchmark-json={report}"],
        # Not from the checkout: `python -m` puts the working directory first on sys.path,
        # where the source tree's pyfileindex/ (no extension built in it) would shadow the
        # installed one.
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=580)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]

    benchmarks = json.loads(report.read_text())["benchmarks"]
    operations = defaultdict(set)
    for bench in benchmarks:
        index_type, _, operation = bench["group"].partition(": ")
        operations[index_type].add(operation.split(" ")[0])
        info = bench["extra_info"]
        if operation in ("build", "serialize"):
            assert info["rows"] == ROWS
            assert info["ns_per_row"] > 0 and info["rows_per_s"] > 0
        if operation == "build":
            assert info["index_bytes"] > 0
        if operation.startswith("query"):
            assert info["result"] in ("ROWS", "REMAIN", "SKIP")
    assert set(operations) == INDEX_TYPES
    for index_type, seen in operations.items():
        assert seen == OPERATIONS, index_type
