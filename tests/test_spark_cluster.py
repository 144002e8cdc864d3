"""The cluster check: a Spark standalone master and two workers on 127.0.0.1, started from
the pyspark installation, run write -> index -> read with the packed environment. One
worker is killed during the index job; the job completes, the committed indexes equal a
local (single-process) build byte for byte, and every query equals plain Spark. Before
that, both workers run the pipeline on a table on the S3 test server.

Every process is a child with a time limit, stopped by its own process (group) id.
"""

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("pyspark")

from pyfileindex.paimon import PaimonTableMetadata, build_file_index, plan_read  # noqa: E402
from pyfileindex.spark import demo as spark_demo  # noqa: E402

pytestmark = [pytest.mark.spark, pytest.mark.timeout(900)]

CLUSTER_TIME_LIMIT = 600  # seconds; the watchdog stops every process after this
ROWS = 24_000
FILES = 8
QUERIES = [
    "category = 'refund'",
    "country IN ('IS', 'LU') AND status IS NOT NULL",
    f"user_id = {123457 % spark_demo.users_for(ROWS)}",
    "score > 99 OR score IS NULL",
    f"event_id BETWEEN 1000 AND 1100 OR ts >= TIMESTAMP "
    f"'{spark_demo.timestamp_text(spark_demo.BASE_SECONDS + 29 * 86400)}'",
    "category = 'chargeback' AND score < 10",
]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(condition, seconds: float, what: str, pointless=None, explain=None):
    """Poll `condition` until it holds. `pointless` returns a reason once waiting longer
    cannot help (the awaited thing has ended); `explain` adds what was seen to a timeout."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        reason = pointless() if pointless else None
        if reason:
            raise AssertionError(f"stopped waiting for {what}: {reason}")
        time.sleep(0.25)
    seen = f"; {explain()}" if explain else ""
    raise TimeoutError(f"timed out waiting for {what}{seen}")


class Cluster:
    """A standalone master and workers as child processes (each its own process group)."""

    def __init__(self, directory: Path):
        import pyspark
        self.directory = directory
        self.spark_home = os.path.dirname(pyspark.__file__)
        self.env = dict(os.environ, SPARK_HOME=self.spark_home, SPARK_LOCAL_IP="127.0.0.1",
                        SPARK_LOG_DIR=str(directory / "logs"),
                        SPARK_WORKER_DIR=str(directory / "work"))
        self.processes = {}
        self.logs = {}
        self.port = _free_port()
        self.url = f"spark://127.0.0.1:{self.port}"
        self._watchdog = threading.Timer(CLUSTER_TIME_LIMIT, self.stop)
        self._watchdog.daemon = True

    def _start(self, name: str, args):
        log = self.directory / f"{name}.log"
        self.logs[name] = log
        with open(log, "wb") as out:
            self.processes[name] = subprocess.Popen(
                [os.path.join(self.spark_home, "bin", "spark-class"), *args],
                env=self.env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                start_new_session=True)

    def _log(self, name: str) -> str:
        return self.logs[name].read_text(errors="replace")

    def executor_log_tails(self, lines: int = 15) -> str:
        """The last lines of every executor's stderr, for a failure message."""
        tails = []
        for log in sorted(self.directory.glob("work-*/app-*/*/stderr")):
            text = log.read_text(errors="replace").splitlines()[-lines:]
            tails.append(f"--- {log.relative_to(self.directory)}\n" + "\n".join(text))
        return "\n".join(tails) or "(no executor logs)"

    def start(self, workers: int = 2):
        self._watchdog.start()
        self._start("master", ["org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                               "--port", str(self.port), "--webui-port", str(_free_port())])
        _wait_for(lambda: "Starting Spark master" in self._log("master")
                  and "I have been elected leader" in self._log("master"), 120, "the master")
        for n in range(1, workers + 1):
            work = self.directory / f"work-{n}"
            work.mkdir()
            self._start(f"worker-{n}", [
                "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1", "--cores", "1",
                "--memory", "1536m", "--webui-port", str(_free_port()), "--work-dir", str(work),
                self.url])
        for n in range(1, workers + 1):
            _wait_for(lambda: "Successfully registered with master" in self._log(f"worker-{n}"),
                      120, f"worker {n} to register")

    def kill(self, name: str):
        """SIGKILL a process and its children (the executor it launched)."""
        process = self.processes[name]
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait(timeout=30)

    def stop(self):
        """SIGKILL every process group we started (they hold nothing worth keeping)."""
        for name in list(self.processes):
            if self.processes[name].poll() is None:
                self.kill(name)
        self._watchdog.cancel()


# An executor environment packed by `pyfileindex spark pack` from a fresh virtual environment
# that installed the portable wheel (`./dev wheel` makes it; `./dev test` passes it here).
WHEEL_ARCHIVE_ENV = "PYFILEINDEX_SPARK_ARCHIVE"


@pytest.fixture(scope="module")
def archive():
    if os.environ.get(WHEEL_ARCHIVE_ENV):
        return os.environ[WHEEL_ARCHIVE_ENV]
    from pyfileindex.spark.packing import pack_environment
    # Under build/ (git-ignored): reused while the environment's packages do not change.
    project = Path(__file__).resolve().parents[1]
    return pack_environment(str(project / "build" / "spark-env" / "environment.tar.gz"))


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    c = Cluster(tmp_path_factory.mktemp("cluster"))
    try:
        c.start()
        yield c
    finally:
        c.stop()


@pytest.fixture(scope="module")
def spark(cluster, archive):
    from pyfileindex.spark.session import spark_session
    session = spark_session(cluster.url, "pyfileindex-cluster-check", archive, conf={
        "spark.executor.cores": "1", "spark.executor.memory": "1g", "spark.cores.max": "2",
        "spark.task.maxFailures": "8",
    })
    yield session
    session.stop()


def _executors(spark) -> int:
    return spark.sparkContext._jsc.sc().getExecutorMemoryStatus().size() - 1  # minus driver


def _index_map(meta):
    return {f.file_name: meta.index_bytes(f) for f in meta.data_files()}


@pytest.mark.s3
def test_s3_table_on_a_standalone_cluster(spark, cluster, s3_server, tmp_path):
    """Both workers write, index and read a table on the S3 test server: the catalog
    options reach every executor, and the answers equal the same table on local disk."""
    from pyfileindex.spark.index import index_table
    from pyfileindex.spark.read import read_table
    from pyfileindex.spark.write import write_dataframe

    _wait_for(lambda: _executors(spark) == 2, 120, "two executors")
    options = s3_server.catalog_options(s3_server.create_bucket("cluster"))
    tables = {"local": (str(tmp_path / "wh" / "demo.db" / "events"), {}),
              "s3": (f"{options.pop('warehouse')}/demo.db/events", options)}
    for where, (path, catalog_options) in tables.items():
        written = write_dataframe(spark_demo.events_dataframe(spark, ROWS, FILES), path,
                                  spark_demo.WRITE_OPTIONS, progress=False,
                                  catalog_options=catalog_options)
        assert (written.rows, written.files) == (ROWS, FILES), where
        indexed = index_table(spark, path, {"file-index.bsi.columns": "event_id"},
                              num_tasks=FILES, progress=False, catalog_options=catalog_options)
        assert indexed.files_rewritten == FILES, where
    metas = {where: PaimonTableMetadata(path, options=catalog_options)
             for where, (path, catalog_options) in tables.items()}
    assert sorted(_index_map(metas["s3"]).values()) == sorted(_index_map(metas["local"]).values())
    for text in QUERIES[:3]:
        got = {where: read_table(spark, path, text, distribute_min_sidecars=1, num_tasks=2,
                                 catalog_options=catalog_options)
               for where, (path, catalog_options) in tables.items()}
        assert got["s3"].files_skipped == got["local"].files_skipped, text
        rows = {where: sorted(tuple(r) for r in result.dataframe.select("event_id").collect())
                for where, result in got.items()}
        assert rows["s3"] == rows["local"], text


def test_write_index_read_on_a_standalone_cluster_survives_a_lost_worker(
        spark, cluster, tmp_path):
    from pyfileindex.spark.index import index_table
    from pyfileindex.spark.read import plain_filter, read_table
    from pyfileindex.spark.write import write_dataframe

    _wait_for(lambda: _executors(spark) == 2, 120, "two executors")
    # The executors run the packed environment, not this interpreter (and, given a packed
    # wheel environment, the portable wheel's native core).
    def executor_pyfileindex(_):  # nested: shipped by value, not imported by the executors
        """The executor's Python, its pyfileindex, and the tags of the wheel it came from."""
        import sys
        from importlib.metadata import distribution

        import pyfileindex
        wheel = distribution("pyfileindex").read_text("WHEEL") or ""
        tags = [line.split(":", 1)[1].strip() for line in wheel.splitlines()
                if line.startswith("Tag:")]
        return sys.executable, pyfileindex.__file__, tags

    found = spark.range(2, numPartitions=2).rdd.map(executor_pyfileindex).collect()
    for python, module, tags in found:
        assert "environment" in python and "environment" in module, (python, module)
        if os.environ.get(WHEEL_ARCHIVE_ENV):
            assert tags and all("manylinux" in tag for tag in tags), tags

    path = str(tmp_path / "wh" / "demo.db" / "events")
    written = write_dataframe(spark_demo.events_dataframe(spark, ROWS, FILES), path,
                              spark_demo.WRITE_OPTIONS, progress=False)
    assert (written.rows, written.files) == (ROWS, FILES)
    meta = PaimonTableMetadata(path)
    for f in meta.data_files():  # write-time indexes equal a local build
        assert meta.index_bytes(f) == build_file_index(meta, f)

    # The index job, with one task per file, slowed down so that a worker dies mid-job.
    outcome = {}

    def run_index():
        try:
            outcome["result"] = index_table(
                spark, path, {"file-index.range-bitmap.columns": "score,ts",
                              "file-index.bsi.columns": "event_id"},
                num_tasks=FILES, progress=False, pause_per_file=1.0)
        except BaseException as exc:  # reported by the assertion below
            outcome["error"] = exc

    job = threading.Thread(target=run_index, daemon=True)
    job.start()

    seen = []  # (active, completed, total) of the job's stage at each poll, for a failure

    def both_busy():
        tracker = spark.sparkContext.statusTracker()
        infos = [i for i in map(tracker.getStageInfo, tracker.getActiveStageIds()) if i]
        seen.extend((i.numActiveTasks, i.numCompletedTasks, i.numTasks) for i in infos)
        return any(i.numActiveTasks >= 2 and i.numCompletedTasks >= 1 for i in infos)

    _wait_for(both_busy, 120, "the index job to run on both executors",
              pointless=lambda: not job.is_alive() and f"the index job ended first: {outcome}",
              explain=lambda: f"stage (active, completed, tasks) seen: {sorted(set(seen))}; "
                              f"executors: {_executors(spark)}\n{cluster.executor_log_tails()}")
    cluster.kill("worker-2")
    assert job.is_alive()  # the worker died while the job was running
    job.join(timeout=400)
    assert not job.is_alive()
    assert "error" not in outcome, outcome.get("error")
    result = outcome["result"]
    assert result.files_total == FILES and result.files_rewritten == FILES
    assert _executors(spark) == 1  # the lost worker's executor is gone

    meta = PaimonTableMetadata(path)
    assert meta.snapshot().id == result.snapshot_id
    # Byte-identical to a local run over the same data files (no Spark involved).
    for name, stored in _index_map(meta).items():
        data_file = next(f for f in meta.data_files() if f.file_name == name)
        assert stored == build_file_index(meta, data_file), name

    for number, text in enumerate(QUERIES):
        # The first query plans on the executors (sidecar indexes evaluated there).
        pruned = read_table(spark, path, text, distribute_min_sidecars=1 if number == 0
                            else 1000, num_tasks=2)
        local = plan_read(path, text)
        assert pruned.files_skipped == local.files_skipped
        got = sorted(tuple(r) for r in pruned.dataframe.select("event_id").collect())
        want = sorted(tuple(r) for r in plain_filter(spark, path, text).select("event_id")
                      .collect())
        assert got == want, text
