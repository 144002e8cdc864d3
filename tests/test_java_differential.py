r"""Differential tests against Apache Paimon 2.0's own Java code: generated cases.

For every index type of differential/index_kinds.py and every data type family it supports,
seeded-random packs (several columns = several cases per container) and hypothesis packs go
through both writers and both readers (tests/differential/runner.py says what is compared).
Some of their questions are negated: NOT over leaves, over AND / OR trees and inside them, NOT
NOT, and negated ranges that Java turns into a NotBetween (differential/negation.py).
Fixed edge cases are in test_java_differential_edges.py, large columns in the row layouts the
writers' fast paths are made for in test_java_differential_layouts.py.

Environment:
  PYFILEINDEX_DIFF_CASES       generated cases per (index type, data type family), default 2000
  PYFILEINDEX_DIFF_SEED        seed of the generated packs, default 20260
  PYFILEINDEX_DIFF_HYPOTHESIS  hypothesis examples per index type, default 40

A long pass by hand (>= 100,000 cases per index type; -s prints each test's counts):
  PYFILEINDEX_DIFF_CASES=7000 \
  .venv/bin/pytest tests/test_java_differential.py -m java -s -k generated
A failing pack is named in the report ("bitmap seed=20260 number=17 family=INT"):
differential.generate.generate_pack("bitmap", 20260, 17, "INT") rebuilds it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also under --import-mode=importlib
from differential import strategies  # noqa: E402
from differential.generate import generate_pack  # noqa: E402
from differential.index_kinds import KINDS, available_kinds  # noqa: E402
from differential.runner import PackRunner, Stats  # noqa: E402
from java_harness import java_harness  # noqa: E402,F401  (the session fixture)

pytestmark = pytest.mark.java

CASES = int(os.environ.get("PYFILEINDEX_DIFF_CASES", "2000"))
SEED = int(os.environ.get("PYFILEINDEX_DIFF_SEED", "20260"))
HYPOTHESIS_EXAMPLES = int(os.environ.get("PYFILEINDEX_DIFF_HYPOTHESIS", "40"))

# A pack holds ~4 column cases; the cap only guards against a generator that stops
# producing columns (then the quota assertion fails).
MAX_PACKS_PER_CASE = 2
MIXED_PACKS = max(50, CASES // 8)


def test_every_index_type_is_built_natively():
    """The suite covers every index type of the table; each must exist on our side."""
    assert available_kinds() == {name: None for name in KINDS}


KIND_FAMILIES = [(kind, family) for kind in sorted(KINDS) for family in KINDS[kind].families]


@pytest.mark.parametrize("kind,family", KIND_FAMILIES,
                         ids=[f"{k}-{f}" for k, f in KIND_FAMILIES])
def test_generated_cases_match_java(java_harness, kind, family):
    stats = Stats()
    packs = (generate_pack(kind, SEED, n, family) for n in range(MAX_PACKS_PER_CASE * CASES))
    number = PackRunner(java_harness, stats).run_stream(
        packs, done=lambda: stats.cases[(kind, family)] >= CASES)
    print(f"\n{kind} {family}: {stats.summary()}")
    assert stats.mismatch_count == 0, stats.report()
    assert stats.cases[(kind, family)] >= CASES, f"{number} packs gave {stats.cases}"
    assert stats.predicates > 0


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_generated_mixed_containers_match_java(java_harness, kind):
    """Mixed families in one container, a second index type on some columns, column names
    that share HashMap buckets, unrelated table options."""
    stats = Stats()
    PackRunner(java_harness, stats).run_stream(
        generate_pack(kind, SEED, number) for number in range(MIXED_PACKS))
    print(f"\n{kind} mixed: {stats.summary()}")
    assert stats.mismatch_count == 0, stats.report()
    assert sum(stats.cases.values()) >= MIXED_PACKS


def _hypothesis_test(kind):
    # No shrinking: a failing pack is reported in full by the runner, and shrinking packs
    # through a JVM takes minutes.
    @settings(max_examples=HYPOTHESIS_EXAMPLES, deadline=None, derandomize=True,
              database=None, suppress_health_check=list(HealthCheck),
              phases=[Phase.explicit, Phase.generate])
    @given(drawn=strategies.pack(kind))
    def check(java_harness, drawn):
        stats = Stats()
        compared = PackRunner(java_harness, stats, localize=False).run(drawn)
        assert stats.mismatch_count == 0, stats.report()
        assert compared

    return check


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_hypothesis_cases_match_java(java_harness, kind):
    _hypothesis_test(kind)(java_harness)
