"""Shared pytest setup: where the project and its shared test data live.

Tests find the shared data (specs, golden tables written by Java Paimon) in ../shared beside the
project root. Import the constants (`from conftest import GOLDEN_DIR`) or use the fixtures.
"""

import os
import sys
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[1]
SHARED_DIR = (PROJECT_ROOT / ".." / "shared").resolve()
GOLDEN_DIR = SHARED_DIR / "golden"

# tests/smoke runs against an installed wheel in its own venv (`./dev wheel-smoke`), never here.
collect_ignore = ["smoke"]
# tests/engine runs in its own venv with PyFlink (build/engine-venv): `./dev engine-test` and
# the last step of `./dev test` set PYFILEINDEX_ENGINE_SUITE there.
if not os.environ.get("PYFILEINDEX_ENGINE_SUITE"):
    collect_ignore.append("engine")

# `./dev test` runs the tests that start threads once more under ThreadSanitizer, against the
# extension of its TSan tree: tests/tsan_run.py checks that build is the one imported.
if os.environ.get("PYFILEINDEX_TSAN_PACKAGE"):
    from tsan_run import pytest_configure, pytest_sessionfinish  # noqa: F401

# `python -m pytest` run from the project root puts the source tree first on sys.path, and its
# pyfileindex/ has no compiled extension. The tests must import the installed package.
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != PROJECT_ROOT]


def require_shared_dir() -> Path:
    """SHARED_DIR, or a clear error saying where it was expected."""
    if not SHARED_DIR.is_dir():
        raise FileNotFoundError(
            f"shared test data not found: expected the directory 'shared' beside the project "
            f"root, at {SHARED_DIR}"
        )
    return SHARED_DIR


@pytest.fixture(scope="session")
def project_root() -> Path:
    return PROJECT_ROOT


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    return require_shared_dir()


@pytest.fixture(scope="session")
def golden_dir(shared_dir: Path) -> Path:
    if not GOLDEN_DIR.is_dir():
        raise FileNotFoundError(f"golden data not found at {GOLDEN_DIR}")
    return GOLDEN_DIR


def module_spark(master: str, app_name: str):
    """A module-scoped `spark` fixture: a local session for the module's tests, stopped after
    them (Spark keeps one session a process, and the cluster tests need their own)."""

    @pytest.fixture(scope="module")
    def spark():
        from pyfileindex.spark.session import spark_session
        session = spark_session(master, app_name)
        yield session
        session.stop()

    return spark


@pytest.fixture(scope="session")
def s3_server(tmp_path_factory):
    """A moto S3 server on 127.0.0.1 for the whole session (tests/s3_server.py); killed after.
    moto[server] comes with the test extra: without it the S3 tests fail, never skip."""
    from s3_server import S3Server

    server = S3Server(tmp_path_factory.mktemp("moto")).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def s3_warehouse(s3_server, request):
    """Catalog options of a fresh bucket (one per test) on the session's S3 server."""
    import re
    import uuid

    name = re.sub(r"[^a-z0-9-]", "-", request.node.name.lower())[:40].strip("-")
    bucket = s3_server.create_bucket(f"{name}-{uuid.uuid4().hex[:8]}")
    return s3_server.catalog_options(bucket)
