"""Flink SQL with Paimon 2.0's own connector reads a table whose data files and indexes
pyfileindex's Spark pipeline wrote (`pyfileindex.spark.write.write_dataframe`: Spark tasks
write, the driver commits): every WHERE answer equals brute force and pyfileindex's plan.

PySpark is not in the engine venv; the pipeline runs in a subprocess with the main venv's
Python (`./dev engine-test` names it in PYFILEINDEX_MAIN_PYTHON)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from event_tables import (
    FIELDS,
    arrow_rows,
    brute_force,
    create_table,
    index_options,
    plain_rows,
    predicates,
    pyfileindex_rows,
)
from flink_sql import PROJECT_ROOT
from pyfileindex.paimon import PaimonTableMetadata, plan_read

pytestmark = pytest.mark.engine

MAIN_PYTHON_VARIABLE = "PYFILEINDEX_MAIN_PYTHON"
SPARK_APPEND = Path(__file__).resolve().parent / "spark_append.py"
ROWS, TASKS = 1200, 3
# Spark's start and one write job; far above their time on two loaded cores, and finite.
SPARK_SECONDS = 600


def main_python() -> Path:
    """The main venv's Python (with pyfileindex[spark]), or a clear error."""
    python = Path(os.environ.get(MAIN_PYTHON_VARIABLE) or PROJECT_ROOT / ".venv" / "bin" / "python")
    if not python.exists():
        raise FileNotFoundError(
            f"no Python with pyfileindex[spark] at {python}: run `./dev engine-test` (it sets up "
            f".venv and names it in {MAIN_PYTHON_VARIABLE})")
    return python


def spark_append(table_path: Path, first: int, count: int, tasks: int) -> tuple:
    """(rows, files) of one commit by the Spark pipeline, partitioned rows first .. first+count-1."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    done = subprocess.run(
        [str(main_python()), str(SPARK_APPEND), str(table_path), str(first), str(count),
         str(tasks), "1"],
        capture_output=True, text=True, timeout=SPARK_SECONDS, env=env, check=False)
    if done.returncode != 0:
        raise AssertionError(f"the Spark pipeline failed ({done.returncode}):\n"
                             f"{done.stderr[-4000:]}")
    rows, files = done.stdout.split()[-2:]
    return int(rows), int(files)


@pytest.fixture(scope="module")
def spark_written(flink, catalog, warehouse):
    """A partitioned append table created by Flink DDL, filled by the Spark pipeline."""
    flink.execute("CREATE DATABASE IF NOT EXISTS pfi_spark")
    create_table(flink, "pfi_spark.events", index_options(), partitioned=True)
    rows, files = spark_append(warehouse / "pfi_spark.db" / "events", 0, ROWS, TASKS)
    return catalog.get_table("pfi_spark.events"), rows, files


def test_flink_where_equals_brute_force_on_a_table_the_spark_pipeline_wrote(flink, spark_written):
    table, committed_rows, committed_files = spark_written
    meta = PaimonTableMetadata(table=table)
    files = meta.data_files()
    assert committed_rows == ROWS and sum(f.row_count for f in files) == ROWS
    assert len(files) == committed_files > TASKS  # each task wrote a file per partition
    assert all(meta.index_bytes(f) is not None for f in files)

    rows = arrow_rows(range(ROWS), True).to_pylist()
    cases = predicates(True)
    answers = flink.select_many("pfi_spark.events", FIELDS, [sql for sql, _ in cases])
    for sql, test in cases:
        want = brute_force(rows, test, FIELDS)
        assert plain_rows(answers[sql]) == want, sql
        assert pyfileindex_rows(table, sql) == want, sql
    # The tasks' rows interleave (Spark's round-robin repartition); BSI on id still leaves
    # only the file holding 17.
    assert plan_read(table, "id = 17").files_skipped == len(files) - 1
