"""ThreadSanitizer runs every test that starts threads, C++ and Python.

`./dev test` builds, in its TSan tree, the concurrency executable and
pyfileindex_threaded_tests (the cpp/tests sources that name std::thread / std::async, found
by cpp/CMakeLists.txt) and runs the latter's tests that match dev's TSAN_TEST_FILTER. A test
that starts threads under a name outside that filter would silently miss TSan: this fails.
The same tree builds the Python extension, and the Python tests named by dev's
TSAN_PYTHON_TESTS run against it; a test file that starts threads outside that list fails
here too (the package's own worker pools are checked in that run, by tests/tsan_run.py).
"""

import ast
import fnmatch
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CPP_TESTS = ROOT / "cpp" / "tests"
STARTS_THREADS = re.compile(r"std::(thread|jthread|async)\b")
TEST_HEAD = re.compile(r"^\s*TEST(?:_F|_P)?\(\s*(\w+)\s*,\s*(\w+)\s*\)", re.MULTILINE)
# Runs whole under TSan (its own executable), so its test names need not match the filter.
WHOLE_UNDER_TSAN = {"test_concurrent_reader.cc"}


def tsan_filter():
    match = re.search(r'^TSAN_TEST_FILTER="([^"]+)"', (ROOT / "dev").read_text(), re.MULTILINE)
    assert match, "dev defines no TSAN_TEST_FILTER"
    return match.group(1).split(":")


def threaded_tests():
    """(file, "Suite.Name") of every TEST whose body names std::thread / std::async."""
    found = []
    for source in sorted(CPP_TESTS.glob("*.cc")):
        text = source.read_text()
        heads = list(TEST_HEAD.finditer(text))
        for head, following in zip(heads, heads[1:] + [None]):
            body = text[head.end():following.start() if following else len(text)]
            if STARTS_THREADS.search(body):
                found.append((source.name, f"{head.group(1)}.{head.group(2)}"))
    return found


def test_every_test_that_starts_threads_runs_under_tsan():
    patterns = tsan_filter()
    found = threaded_tests()
    assert len(found) >= 3, found  # the scan itself works (LazyCell, bitmap, range-bitmap)
    missed = [(source, name) for source, name in found if source not in WHOLE_UNDER_TSAN
              and not any(fnmatch.fnmatchcase(name, p) for p in patterns)]
    assert not missed, (f"these tests start threads but dev's TSAN_TEST_FILTER {patterns} "
                        f"does not select them: {missed}")


def test_every_threaded_source_has_a_test_the_filter_selects():
    """A file whose threads start in a helper, not a TEST body, is caught here."""
    patterns = tsan_filter()
    selected = {source for source, name in threaded_tests()}
    for source in sorted(CPP_TESTS.glob("*.cc")):
        if source.name in WHOLE_UNDER_TSAN or not STARTS_THREADS.search(source.read_text()):
            continue
        names = [f"{m.group(1)}.{m.group(2)}" for m in TEST_HEAD.finditer(source.read_text())]
        assert source.name in selected and any(
            fnmatch.fnmatchcase(n, p) for n in names for p in patterns), source.name


# ---- Python tests

TESTS = ROOT / "tests"
PY_STARTS_THREADS = re.compile(
    r"\b(?:ThreadPoolExecutor|ThreadPool|Thread|Timer)\s*\(|\bstart_new_thread\s*\(")
# Test modules that start threads in which no pyfileindex code runs, with the reason.
PYTHON_THREADS_WITHOUT_NATIVE_CODE = {
    "java_harness.py": "its threads drain the Java harness process's output pipes",
    "test_spark_cluster.py": "its threads are a watchdog timer and a Spark job's driver call "
                             "while the main thread only polls the job; the native index work "
                             "runs in the executor processes",
    "engine/flink_sql.py": "the engine suite's own venv drives Flink SQL jobs; no pyfileindex "
                           "call runs in its threads",
}


def tsan_python_tests():
    """dev's TSAN_PYTHON_TESTS as {test file relative to tests/: top-level names, or None for
    the whole file}."""
    match = re.search(r'^TSAN_PYTHON_TESTS="([^"]+)"', (ROOT / "dev").read_text(), re.MULTILINE)
    assert match, "dev defines no TSAN_PYTHON_TESTS"
    listed = {}
    for entry in match.group(1).split():
        path, _, name = entry.partition("::")
        assert path.startswith("tests/") and (ROOT / path).is_file(), entry
        relative = path[len("tests/"):]
        if not name:
            listed[relative] = None
        elif listed.get(relative, set()) is not None:
            listed.setdefault(relative, set()).add(name)
    return listed


def thread_starts(source: Path):
    """The top-level names (function or class, None at module level) whose source starts a
    thread."""
    text = source.read_text()
    tops = [(node.lineno, node.end_lineno, node.name) for node in ast.parse(text).body
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    found = set()
    for number, line in enumerate(text.splitlines(), start=1):
        if PY_STARTS_THREADS.search(line.split("#", 1)[0]):
            found.add(next((name for first, last, name in tops if first <= number <= last),
                           None))
    return found


def python_sources_starting_threads():
    return {str(path.relative_to(TESTS)): thread_starts(path)
            for path in sorted(TESTS.rglob("*.py")) if thread_starts(path)}


def test_the_python_scan_finds_the_known_threaded_tests():
    found = python_sources_starting_threads()
    assert found["test_gil.py"] == {"Counter"}
    assert found["test_bad_input.py"] == {"TestOneWriterOneThread"}


def test_every_python_test_that_starts_threads_runs_under_tsan():
    listed = tsan_python_tests()
    missed = []
    for source, names in python_sources_starting_threads().items():
        if source in PYTHON_THREADS_WITHOUT_NATIVE_CODE:
            continue
        covered = listed.get(source, set())
        if covered is not None and not names <= covered:
            missed.append((source, sorted(names - covered, key=str)))
    assert not missed, (f"these test files start threads (in the top-level names given; None: "
                        f"module level) but dev's TSAN_PYTHON_TESTS does not run them: {missed}")


def test_every_python_tsan_entry_names_a_test_that_starts_threads():
    found = python_sources_starting_threads()
    for source, names in tsan_python_tests().items():
        if source == "test_parallel_table.py":  # its threads are the package's worker pools
            continue
        assert source in found, f"{source} is in TSAN_PYTHON_TESTS but starts no thread"
        assert names is None or names <= found[source], (source, names)
    stale = set(PYTHON_THREADS_WITHOUT_NATIVE_CODE) - set(found)
    assert not stale, f"listed as starting threads, but they start none: {stale}"
