"""Console progress for long Spark jobs: tasks done, files, rows, bytes and rate.

Tasks add to Spark accumulators (their values reach the driver as tasks finish); a
daemon thread on the driver prints a line every few seconds while the job runs, and
a summary line at the end.
"""

import sys
import threading
import time
from typing import Optional, TextIO


def human_bytes(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if abs(n) < 1024 or unit == "TB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024.0
    return f"{n:.1f} TB"


class Counters:
    """Accumulators the tasks add to: files, rows and bytes."""

    def __init__(self, sc):
        self.files = sc.accumulator(0)
        self.rows = sc.accumulator(0)
        self.bytes = sc.accumulator(0)


class Progress:
    """`with Progress(sc, "index", counters):` prints progress while the block runs."""

    def __init__(self, sc, label: str, counters: Counters, interval: float = 3.0,
                 stream: Optional[TextIO] = None, enabled: bool = True):
        self._sc = sc
        self._label = label
        self.counters = counters
        self._interval = interval
        self._stream = stream or sys.stderr
        self._enabled = enabled
        self._stop = threading.Event()
        self._thread = None
        self._start = 0.0
        self.seconds = 0.0

    def _tasks(self) -> str:
        tracker = self._sc.statusTracker()
        done = total = 0
        for stage_id in tracker.getActiveStageIds():
            info = tracker.getStageInfo(stage_id)
            if info is not None:
                done += info.numCompletedTasks
                total += info.numTasks
        return f"tasks {done}/{total}" if total else "tasks -"

    def line(self, final: bool = False) -> str:
        elapsed = max(time.monotonic() - self._start, 1e-9)
        c = self.counters
        size = c.bytes.value
        parts = [f"[{self._label}]", self._tasks() if not final else f"{elapsed:.1f} s",
                 f"{c.files.value} files", f"{c.rows.value:,} rows", human_bytes(size),
                 f"{human_bytes(size / elapsed)}/s"]
        return " | ".join(parts)

    def _run(self):
        while not self._stop.wait(self._interval):
            try:
                print(self.line(), file=self._stream, flush=True)
            except Exception:  # a dying context must not kill the job's thread
                return

    def __enter__(self):
        self._start = time.monotonic()
        if self._enabled:
            self._thread = threading.Thread(target=self._run, name="pyfileindex-progress",
                                            daemon=True)
            self._thread.start()
        return self

    def __exit__(self, exc_type, exc, tb):
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.seconds = time.monotonic() - self._start
        if self._enabled and exc_type is None:
            print(self.line(final=True), file=self._stream, flush=True)
        return False
