"""pytest-benchmark suite: the bloom-filter index (build, serialize, open, queries from bytes).

Run: .venv/bin/pytest benchmarks/test_bench_bloom_filter.py [--quick] (see benchmarks/conftest.py).
"""

from suite import test_build, test_open, test_query, test_serialize  # noqa: F401 (run here)

INDEX_TYPE = "bloom-filter"
