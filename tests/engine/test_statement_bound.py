"""The engine suite's own guard: a Flink statement that does not finish fails within its
bound (its JVM killed, a thread dump kept) instead of hanging the suite, and the next
statement runs on a new JVM with the same catalog. Last in the suite: it restarts the JVM."""

from __future__ import annotations

import pytest

from flink_sql import FlinkStatementTimeout

pytestmark = pytest.mark.engine

# A bounded source that takes about 11 days: one row a second out of a million.
SLOW_SOURCE = ("CREATE TEMPORARY TABLE slow_ids (id BIGINT) WITH ('connector' = 'datagen', "
               "'number-of-rows' = '1000000', 'rows-per-second' = '1', "
               "'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
               "'fields.id.end' = '1000000')")


def test_a_statement_past_its_bound_fails_and_the_next_runs_on_a_new_jvm(flink, catalog):
    flink.execute("CREATE DATABASE IF NOT EXISTS bound_check")
    flink.execute("CREATE TABLE IF NOT EXISTS bound_check.kept (id BIGINT)")
    flink.execute("INSERT INTO bound_check.kept VALUES (7)")
    killed_pid, starts = flink.jvm_pid, flink.jvm_starts
    assert killed_pid is not None

    flink.execute("DROP TEMPORARY TABLE IF EXISTS slow_ids")
    flink.execute(SLOW_SOURCE)
    with pytest.raises(FlinkStatementTimeout, match=r"within 20 s: 'SELECT id FROM slow_ids'; "
                                                    r"JVM \d+ killed, thread dump"):
        flink.rows("SELECT id FROM slow_ids", seconds=20)
    dump = flink.log_dir / f"threads-jvm{starts}.txt"
    assert "PythonGatewayServer" in dump.read_text()

    # A new JVM, the same warehouse: the table and its row are still there.
    assert flink.rows("SELECT id FROM bound_check.kept") == [(7,)]
    assert flink.jvm_starts == starts + 1 and flink.jvm_pid not in (None, killed_pid)

    # Each JVM, the killed one's successor too, keeps its scratch files (unpacked planner and
    # RPC jars, mini-cluster blobs) in the session's scratch folder that close() removes.
    assert flink.jvm_temp_dir() == str(flink.scratch_dir)
    assert any(flink.scratch_dir.glob("minicluster_*"))
