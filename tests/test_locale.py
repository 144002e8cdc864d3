"""The native library reads option numbers, and writes numbers into its messages, the same way
in every C locale: Java does not look at the locale, and a host application that calls
setlocale (a German desktop, a JVM embedding, `locale.setlocale(locale.LC_ALL, "")`) must not
change what is built or refused. The comma-decimal locale is compiled for the test with
localedef, since fresh machines ship only the C locales."""

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pyarrow as pa
import pytest

import pyfileindex as pfi

FIELDS = [("s", "STRING"), ("d", "DOUBLE")]
OPTIONS = {
    "file-index.bloom-filter.columns": "s,d",
    "file-index.bloom-filter.s.fpp": "0.05",
    "file-index.bloom-filter.s.items": "5000",
    "file-index.bloom-filter.d.fpp": " 2.5e-2 ",
    "file-index.range-bitmap.columns": "d",
}
TABLE = pa.table({"s": [f"v{i % 97}" for i in range(3000)],
                  "d": [i / 8 for i in range(3000)]})

# The child sets its locale before importing pyfileindex, then prints the container's hex and
# the message refusing a DOUBLE literal on a STRING column.
CHILD = textwrap.dedent("""
    import locale, sys
    locale.setlocale(locale.LC_ALL, "de_DE.UTF-8")
    assert locale.localeconv()["decimal_point"] == ",", locale.localeconv()
    sys.path.insert(0, sys.argv[1])
    import test_locale
    print(test_locale.build().hex())
    print(test_locale.refused_double())
""")


def build() -> bytes:
    return pfi.build_index(TABLE, FIELDS, OPTIONS)


def refused_double() -> str:
    reader = pfi.IndexReader(build(), FIELDS)
    try:
        reader.evaluate(pfi.col("s") == 0.1)
    except pfi.FileIndexError as refused:
        return str(refused)
    raise AssertionError("a DOUBLE literal on a STRING bloom filter was not refused")


@pytest.fixture(scope="module")
def in_comma_locale(tmp_path_factory) -> list:
    """The child's output lines, run in a de_DE.UTF-8 locale (decimal comma) made for it."""
    # ./dev installs Debian's `locales` (localedef's sources) where they are missing.
    localedef = shutil.which("localedef")
    assert localedef is not None, "localedef is missing (Debian: apt-get install locales)"
    assert Path("/usr/share/i18n/locales/de_DE").exists(), "locale sources are missing"
    root = tmp_path_factory.mktemp("locales")
    subprocess.run([localedef, "-i", "de_DE", "-f", "UTF-8", str(root / "de_DE.UTF-8")],
                   check=True, capture_output=True)
    child = subprocess.run([sys.executable, "-c", CHILD, str(Path(__file__).parent)],
                           env=dict(os.environ, LOCPATH=str(root)), cwd="/",
                           capture_output=True, text=True)
    assert child.returncode == 0, child.stderr
    return child.stdout.splitlines()


def test_a_comma_locale_builds_the_same_bytes(in_comma_locale):
    # Before: "option 'fpp': cannot parse '0.05' as a number" (strtod wanted "0,05").
    assert bytes.fromhex(in_comma_locale[0]) == build()


def test_a_comma_locale_writes_points_in_messages(in_comma_locale):
    message = in_comma_locale[1]
    assert "literal 0.1 cannot be compared" in message
    assert message == refused_double()
