"""ThreadSanitizer runs every C++ test that starts threads.

`./dev test` builds, in its TSan tree, the concurrency executable and
pyfileindex_threaded_tests (the cpp/tests sources that name std::thread / std::async, found
by cpp/CMakeLists.txt) and runs the latter's tests that match dev's TSAN_TEST_FILTER. A test
that starts threads under a name outside that filter would silently miss TSan: this fails.
"""

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
