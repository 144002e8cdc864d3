"""pytest-benchmark suite: the bsi index (build, serialize, open, queries from bytes).

Run: .venv/bin/pytest benchmarks/test_bench_bsi.py [--quick] (see benchmarks/conftest.py).
"""

from suite import test_build, test_open, test_query, test_serialize  # noqa: F401 (run here)

INDEX_TYPE = "bsi"
