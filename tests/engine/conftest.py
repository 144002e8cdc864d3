"""The engine suite's shared fixtures: one Flink TableEnvironment and one pypaimon catalog on
one warehouse for the whole session (a TableEnvironment takes seconds to start, and every
module's tables live in their own database)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from flink_sql import FlinkPaimon  # noqa: E402


@pytest.fixture(scope="session")
def warehouse(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("engine") / "warehouse"


@pytest.fixture(scope="session")
def flink(warehouse):
    """The session's Flink; its JVM logs (and thread dumps of hung statements) go to a
    `flink-logs` folder next to the warehouse."""
    engine = FlinkPaimon(warehouse, log_dir=warehouse.parent / "flink-logs")
    yield engine
    engine.close()


@pytest.fixture(scope="session")
def catalog(flink, warehouse):
    """pypaimon's filesystem catalog on the warehouse Flink's catalog uses."""
    from pypaimon import CatalogFactory
    return CatalogFactory.create({"warehouse": str(warehouse)})
