"""Checks of the run of the threaded tests under ThreadSanitizer (`./dev test`).

dev (run_python_tsan) sets PYFILEINDEX_TSAN_PACKAGE to the package directory it assembled in
its TSan tree (links to the pure-Python sources and the extension built there) and preloads
the TSan runtime. A run that imported another build would pass while checking nothing, so
the session is refused unless pyfileindex._native is that tree's instrumented module with
the runtime loaded. It also fails unless every module of the package that starts threads
did so during the run: a new worker pool then needs a test in dev's TSAN_PYTHON_TESTS.
"""

from __future__ import annotations

import os
import re
import sys
import threading
from pathlib import Path

import pytest

# Modules of the package that start threads in which no native code runs, with the reason.
THREADS_WITHOUT_NATIVE_CODE = {
    "spark/progress.py": "reports a Spark job's progress from the driver; the native work "
                         "runs in the executors",
}
STARTS_THREADS = re.compile(r"\b(?:ThreadPoolExecutor|Thread|Timer)\s*\(")

_started_from: set = set()


def _instrumented(module_file: str) -> bool:
    """Whether the shared object calls into the TSan runtime (its instrumentation imports
    __tsan_* functions, so their names are in its dynamic symbol table)."""
    with open(module_file, "rb") as module:
        return b"__tsan_func_entry" in module.read()


def _tsan_runtime_loaded() -> bool:
    with open("/proc/self/maps") as maps:
        return "libtsan" in maps.read()


def modules_starting_threads(package: Path) -> set:
    found = set()
    # os.walk, not Path.rglob: the package's subpackages are links to the source tree.
    for directory, _, names in os.walk(package, followlinks=True):
        for name in names:
            path = Path(directory) / name
            if name.endswith(".py") and STARTS_THREADS.search(path.read_text()):
                found.add(str(path.relative_to(package)))
    return found


def _record_thread_starts(package: Path) -> None:
    """Thread.start notes the package module that asked for the thread (the innermost
    frame in `package` on the caller's stack: a pool's map or submit starts its workers)."""
    original = threading.Thread.start
    prefix = str(package) + os.sep

    def start(self):
        frame = sys._getframe(1)
        while frame is not None:
            if frame.f_code.co_filename.startswith(prefix):
                _started_from.add(frame.f_code.co_filename[len(prefix):])
                break
            frame = frame.f_back
        return original(self)

    threading.Thread.start = start


def pytest_configure(config):
    package = Path(os.environ["PYFILEINDEX_TSAN_PACKAGE"])
    import pyfileindex
    from pyfileindex import _native

    if Path(pyfileindex.__file__).parent != package:
        raise pytest.UsageError(f"the TSan run imported pyfileindex from {pyfileindex.__file__}, "
                                f"not from the TSan package {package}")
    if Path(_native.__file__).parent != package or not _instrumented(_native.__file__):
        raise pytest.UsageError(f"{_native.__file__} is not the TSan tree's instrumented "
                                f"extension")
    if not _tsan_runtime_loaded():
        raise pytest.UsageError("the TSan runtime is not loaded (dev preloads it)")
    _record_thread_starts(package)


def pytest_sessionfinish(session, exitstatus):
    package = Path(os.environ["PYFILEINDEX_TSAN_PACKAGE"])
    expected = modules_starting_threads(package) - set(THREADS_WITHOUT_NATIVE_CODE)
    missed = sorted(expected - _started_from)
    stale = sorted(set(THREADS_WITHOUT_NATIVE_CODE) - modules_starting_threads(package))
    problems = []
    if missed:
        problems.append(f"these modules start threads but did not in this run, so their "
                        f"threads ran no code under TSan: {missed} (add a test to dev's "
                        f"TSAN_PYTHON_TESTS)")
    if stale:
        problems.append(f"THREADS_WITHOUT_NATIVE_CODE names modules that start no threads: "
                        f"{stale}")
    if problems and exitstatus == 0:
        writer = session.config.get_terminal_writer()
        for problem in problems:
            writer.line(f"tsan_run: {problem}", red=True)
        session.exitstatus = 1
