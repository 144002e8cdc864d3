"""Native work runs without the GIL: another Python thread keeps running meanwhile.

A counter thread counts while the calls below run, giving the GIL back after each step
(sleep(0)). The switch interval is raised to a second for the test, so the calling thread,
holding the GIL, never has to hand it over on its own within these short measurements: the
counter moves between the moments just before and just after a call only if the call released
the GIL.
"""
import os
import sys
import threading
import time

import numpy as np
import pyarrow as pa
import pytest

import pyfileindex as pfi
from pyfileindex.predicate import Leaf

ROWS = 3_000_000
# A step takes a few microseconds; with the GIL held throughout, the count would stay at 0.
MIN_STEPS = 200


class Counter:
    """Counts in a daemon thread until stopped, the switch interval raised meanwhile."""

    def __init__(self):
        self.count = 0
        self._stop = False
        self._thread = threading.Thread(target=self._spin, daemon=True)
        self._interval = sys.getswitchinterval()

    def _spin(self):
        while not self._stop:
            self.count += 1
            time.sleep(0)  # hands the GIL back: the calling thread never waits for it

    def __enter__(self):
        sys.setswitchinterval(1.0)
        self._thread.start()
        while self.count == 0:  # running before any call is measured
            time.sleep(0)
        return self

    def __exit__(self, *exc):
        self._stop = True
        self._thread.join()
        sys.setswitchinterval(self._interval)


def steps_during(counter, call):
    before = counter.count
    result = call()
    return counter.count - before, result


@pytest.fixture(scope="module")
def column():
    rng = np.random.default_rng(7)
    ints = pa.array(rng.integers(0, 1000, ROWS, dtype=np.int32))
    words = pa.array([f"key-{i:06d}" for i in range(5000)]).take(
        pa.array(rng.integers(0, 5000, ROWS)))
    return pa.table({"n": ints, "s": words})


FIELDS = [("n", "INT"), ("s", "STRING")]
INDEXES = {
    "file-index.bitmap.columns": "n",
    "file-index.range-bitmap.columns": "n",
    "file-index.bsi.columns": "n",
    "file-index.bloom-filter.columns": "n,s",
}


def test_build_and_serialize_release_the_gil(column):
    writer = pfi.IndexWriter(FIELDS, INDEXES)
    with Counter() as counter:
        # Serializing is a small part of a build, too short to count on alone: it is
        # measured together with the write.
        during, data = steps_during(counter, lambda: (writer.write(column), writer.finish())[1])
    assert during >= MIN_STEPS, during
    assert data is not None and len(data) > 0


@pytest.fixture(scope="module")
def index_bytes(column):
    writer = pfi.IndexWriter(FIELDS, INDEXES)
    writer.write(column)
    return writer.finish()


def test_queries_release_the_gil(index_bytes):
    reader = pfi.IndexReader(index_bytes, FIELDS)
    wide = Leaf("between", "n", (100, 900))  # about 80% of the rows, from the range bitmap
    with Counter() as counter:
        total = 0
        answered = None
        for _ in range(100):
            steps, answered = steps_during(counter, lambda: reader.evaluate(wide))
            total += steps
        top_total = 0
        for _ in range(100):
            steps, top = steps_during(counter, lambda: reader.top_n("n", 100_000))
            top_total += steps
    assert answered.kind == "ROWS" and answered.cardinality > ROWS // 2
    assert total >= MIN_STEPS, total
    assert top.cardinality >= 100_000
    assert top_total >= MIN_STEPS, top_total


def test_opening_a_file_releases_the_gil(index_bytes, tmp_path):
    # A path is memory-mapped; its header may have to be read from disk, so that open runs
    # without the GIL (bytes are parsed holding it: a header in memory takes under a
    # microsecond). Evaluating from the map releases it like any query.
    path = tmp_path / "data.index"
    path.write_bytes(index_bytes)
    wide = Leaf("between", "n", (100, 900))
    with Counter() as counter:
        total = 0
        for _ in range(100):
            steps, answered = steps_during(
                counter, lambda: pfi.IndexReader(os.fspath(path), FIELDS).evaluate(wide))
            total += steps
    assert answered.cardinality > ROWS // 2
    assert total >= MIN_STEPS, total
