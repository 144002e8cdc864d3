"""SPARK HOOK -- the Spark part of issue 8, waiting for the Spark pipeline (issue 7).

What belongs here once the pipeline exists (targets from issue 8):

1. Index-build overhead: on the demo data, time a Spark write of the indexed columns with the
   pipeline's index build against the same write/scan without it; the build may add <= 10%.
2. Pruning: a selective query (<= 1% of the data files survive the file indexes) with
   pruning against a plain filter scan of the same table; >= 10x faster.

Contract with compare.py: `rows(args)` returns result rows shaped like compare.py's (keys
case, index, op, java_us -> the baseline's time, ours_us -> the pipeline's time, ratio,
bytes_equal None). Until the pipeline lands it returns no rows; `--spark` then says so.
"""

from __future__ import annotations

import sys
from typing import List


def available() -> bool:
    """True once the Spark pipeline module (issue 7) is importable."""
    try:
        import pyfileindex.spark  # noqa: F401  (the pipeline's expected home)
    except ImportError:
        return False
    return True


def rows(args) -> List[dict]:
    if not getattr(args, "spark", False):
        return []
    if not available():
        print("spark: not measured -- the Spark pipeline (issue 7) is not there yet; "
              "hook: benchmarks/spark_pipeline.py", file=sys.stderr)
        return []
    # HOOK: measure (1) and (2) above with the pipeline's public entry points.
    print("spark: pipeline found, but its benchmarks are not written yet "
          "(benchmarks/spark_pipeline.py)", file=sys.stderr)
    return []
