"""Every input the Python fuzz targets once failed on (tests/fuzz/regressions/<target>/) still
passes the target's check: parsed or refused with the parser's own error, and what was parsed
prints back to the same value."""

import sys
from pathlib import Path

import pytest

FUZZ_DIR = Path(__file__).parent / "fuzz"
sys.path.insert(0, str(FUZZ_DIR))

from python_checks import check_predicate, check_schema  # noqa: E402

CHECKS = {"predicate": check_predicate, "schema": check_schema}
INPUTS = sorted((target, path) for target in CHECKS
                for path in (FUZZ_DIR / "regressions" / target).glob("*"))


def test_every_kept_input_belongs_to_a_target():
    kept = {p.name for p in (FUZZ_DIR / "regressions").iterdir()}
    assert kept <= set(CHECKS), f"inputs kept for no target: {kept - set(CHECKS)}"
    assert INPUTS, "no kept inputs found"


@pytest.mark.parametrize("target, path", INPUTS, ids=[f"{t}/{p.name}" for t, p in INPUTS])
def test_kept_input_passes(target, path):
    CHECKS[target](path.read_bytes())
