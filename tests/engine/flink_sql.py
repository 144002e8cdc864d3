"""A PyFlink batch TableEnvironment with Paimon 2.0's own Flink connector on a warehouse that
pyfileindex (through pypaimon) writes too. Everything Flink does here is Flink SQL.

The connector jars are fetched by `./dev engine-test` into build/engine-jars (or the folder
PYFILEINDEX_ENGINE_JARS names): paimon-flink-2.0 and flink-shaded-hadoop-2-uber, whose Hadoop
classes every Paimon job loads even on a file:// warehouse.
"""

from __future__ import annotations

import os
import shutil
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Sequence

import gateway_jvm

PROJECT_ROOT = Path(__file__).resolve().parents[2]
JAR_PATTERNS = ("paimon-flink-2.0-*.jar", "flink-shaded-hadoop-2-uber-*.jar")
# Every statement's bound: a statement takes seconds (a job with planning and a mini-cluster
# start); the bound only has to be far above that on two loaded cores, and finite.
STATEMENT_SECONDS_VARIABLE = "PYFILEINDEX_ENGINE_STATEMENT_SECONDS"
DEFAULT_STATEMENT_SECONDS = 300.0


def connector_jars() -> List[Path]:
    """The connector jars, or a clear error saying how to fetch them."""
    folder = Path(os.environ.get("PYFILEINDEX_ENGINE_JARS") or PROJECT_ROOT / "build" / "engine-jars")
    jars = []
    for pattern in JAR_PATTERNS:
        found = sorted(folder.glob(pattern))
        if not found:
            raise FileNotFoundError(
                f"no {pattern} in {folder}: run `./dev engine-test`, which fetches the Paimon "
                f"Flink connector and its Hadoop classes with Maven")
        jars.append(found[-1])
    return jars


def _short(statement: str, limit: int = 160) -> str:
    text = " ".join(statement.split())
    return text if len(text) <= limit else text[:limit] + " ..."


def _forget_gateway_connection() -> None:
    """Marks py4j's client of the killed JVM disconnected: Python objects of that JVM are
    garbage-collected later, and py4j would otherwise try to tell the JVM each time, logging a
    refused connection."""
    import pyflink.java_gateway as java_gateway

    if java_gateway._gateway is not None:
        java_gateway._gateway._gateway_client.is_connected = False


class FlinkStatementTimeout(AssertionError):
    """A Flink statement did not finish within its bound; its JVM was killed."""


class FlinkPaimon:
    """One batch TableEnvironment with a Paimon catalog `paimon` on `warehouse`, database `db`.

    Every statement is bounded by `statement_seconds`: past it, the gateway JVM's threads are
    dumped into `log_dir` and the JVM is killed, so the statement fails with
    FlinkStatementTimeout instead of waiting forever (a job whose source reader failed can
    stay RUNNING with its collect() iterator waiting; see docs/INTEROP.md). The next
    statement starts a new JVM on the same warehouse."""

    def __init__(self, warehouse: Path, log_dir: Path, parallelism: int = 1,
                 statement_seconds: Optional[float] = None,
                 scratch_dir: Optional[Path] = None):
        self.warehouse = Path(warehouse)
        self.log_dir = Path(log_dir)
        self.log_dir.mkdir(parents=True, exist_ok=True)
        # The JVM's java.io.tmpdir: Flink unpacks its planner and RPC jars and keeps each
        # mini-cluster's blobs there (about 160 MB a JVM), and leaves them behind in /tmp
        # when the JVM is killed; close() removes this folder.
        self.scratch_dir = Path(scratch_dir or self.log_dir.parent / "flink-scratch")
        self.parallelism = parallelism
        self.statement_seconds = statement_seconds or float(
            os.environ.get(STATEMENT_SECONDS_VARIABLE) or DEFAULT_STATEMENT_SECONDS)
        self.env = None
        self.jvm_pid: Optional[int] = None
        self.jvm_starts = 0
        self._killed_by: Optional[str] = None
        self._start()

    # ------------------------------------------------------------------ the JVM

    def _start(self) -> None:
        from pyflink.table import EnvironmentSettings, TableEnvironment

        self.jvm_starts += 1
        # Each JVM logs to its own file in log_dir (PyFlink's default, inside the installed
        # package, is overwritten by the next JVM).
        os.environ["FLINK_LOG_DIR"] = str(self.log_dir)
        os.environ["FLINK_IDENT_STRING"] = f"engine-suite-jvm{self.jvm_starts}"
        self.scratch_dir.mkdir(parents=True, exist_ok=True)
        os.environ["JVM_ARGS"] = f"-Djava.io.tmpdir={self.scratch_dir}"
        self.env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
        self.jvm_pid = gateway_jvm.gateway_jvm_pid()
        config = self.env.get_config()
        config.set("pipeline.jars", ";".join(jar.resolve().as_uri() for jar in connector_jars()))
        # Small tables on two shared cores: one task slot's worth of work per job.
        config.set("parallelism.default", str(self.parallelism))
        # Paimon's procedures (CALL sys.rewrite_file_index) submit their job and return at
        # once unless DML is synchronous: the next statement must see the job's commit.
        config.set("table.dml-sync", "true")
        # No cached tables or snapshots: pyfileindex commits to the same tables in between.
        self.execute(f"CREATE CATALOG paimon WITH ('type' = 'paimon', "
                     f"'warehouse' = '{self.warehouse.resolve().as_uri()}', "
                     f"'cache-enabled' = 'false')")
        self.execute("USE CATALOG paimon")
        self.execute("CREATE DATABASE IF NOT EXISTS db")
        self.execute("USE db")

    def _restart(self) -> None:
        """A new gateway JVM (and TableEnvironment) after the last one was killed."""
        import pyflink.java_gateway as java_gateway

        old = java_gateway._gateway
        if old is not None:
            try:
                old.close(keep_callback_server=False)
            except Exception:  # noqa: BLE001 - its JVM is gone; nothing to close cleanly
                pass
        java_gateway._gateway = None
        self._killed_by = None
        self._start()

    def _kill_hung_jvm(self, statement: str) -> None:
        dump = self.log_dir / f"threads-jvm{self.jvm_starts}.txt"
        if self.jvm_pid is None:
            self._killed_by = (f"{_short(statement)!r} (gateway JVM not found: not killed, "
                               f"no thread dump)")
            return
        where = gateway_jvm.dump_threads(self.jvm_pid, dump)
        gateway_jvm.kill(self.jvm_pid)
        _forget_gateway_connection()
        self._killed_by = (f"{_short(statement)!r}; JVM {self.jvm_pid} killed, {where}, "
                           f"Flink log in {self.log_dir}")

    def close(self) -> None:
        """Ends the gateway JVM (at the end of the session) and removes its scratch files."""
        if self.jvm_pid is not None and self._killed_by is None:
            gateway_jvm.kill(self.jvm_pid)
            _forget_gateway_connection()
        self._killed_by = "the session's end"
        shutil.rmtree(self.scratch_dir, ignore_errors=True)

    def jvm_temp_dir(self) -> str:
        """The running JVM's java.io.tmpdir."""
        from pyflink.java_gateway import get_gateway
        return str(get_gateway().jvm.java.lang.System.getProperty("java.io.tmpdir"))

    @contextmanager
    def _bounded(self, statement: str, seconds: Optional[float]) -> Iterator[None]:
        """Runs the block under a deadline; past it, the JVM is killed (which ends the py4j
        call the block waits on) and FlinkStatementTimeout is raised."""
        if self._killed_by is not None:
            self._restart()
        seconds = seconds or self.statement_seconds
        expired = threading.Event()

        def expire() -> None:
            expired.set()
            self._kill_hung_jvm(statement)

        timer = threading.Timer(seconds, expire)
        timer.daemon = True
        timer.start()
        error: Optional[BaseException] = None
        try:
            yield
        except Exception as raised:  # noqa: BLE001 - re-raised below, as it is or as a timeout
            error = raised
        finally:
            timer.cancel()
            timer.join()  # an expiry under way finishes its dump and kill first
        if expired.is_set():
            raise FlinkStatementTimeout(
                f"Flink statement did not finish within {seconds:g} s: {self._killed_by}"
            ) from error
        if error is not None:
            raise error

    # ------------------------------------------------------------------ statements

    def execute(self, statement: str, seconds: Optional[float] = None) -> None:
        """Runs a statement (DDL, INSERT, CALL) to its end; a failing job raises."""
        with self._bounded(statement, seconds):
            result = self.env.execute_sql(statement)
            result.wait(int((seconds or self.statement_seconds) * 1000))

    def rows(self, query: str, seconds: Optional[float] = None) -> List[tuple]:
        """All rows of a query, as tuples."""
        with self._bounded(query, seconds):
            with self.env.execute_sql(query).collect() as results:
                return [tuple(row) for row in results]

    def select_many(self, table: str, columns: Sequence[str],
                    predicates: Sequence[str]) -> Dict[str, List[tuple]]:
        """The sorted rows of `SELECT columns FROM table WHERE p` for every predicate p, in
        one job: a UNION ALL of one scan per predicate (each gets its own pushed filter)."""
        selects = [f"SELECT {number} AS q, {', '.join(columns)} FROM {table} WHERE {predicate}"
                   for number, predicate in enumerate(predicates)]
        answers: Dict[str, List[tuple]] = {p: [] for p in predicates}
        for row in self.rows(" UNION ALL ".join(selects)):
            answers[predicates[row[0]]].append(tuple(row[1:]))
        return {p: sorted(rows, key=repr) for p, rows in answers.items()}
