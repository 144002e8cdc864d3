"""Smoke tests of an installed pyfileindex wheel.

Run by `./dev wheel-smoke`: a fresh venv holding only the wheel and its dependencies, no
compiler on PATH, pytest started from a directory holding only this file. Every expected answer
is computed here, independently of the library (pyarrow.compute, numpy, /proc/cpuinfo).
Not part of the main `pytest tests` run (tests/conftest.py leaves this directory out).
"""

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import textwrap
from importlib import metadata
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

import pyfileindex as pfi
from pyfileindex import col

CROARING_VERSION = "5.2.2"
ROWS = 5000
FIELDS = [("s", "STRING"), ("h", "STRING"), ("b", "BIGINT"), ("i", "INT"), ("d", "DOUBLE")]
OPTIONS = {
    "file-index.bitmap.columns": "s",
    "file-index.bloom-filter.columns": "h",
    "file-index.bloom-filter.h.items": str(ROWS),
    "file-index.bloom-filter.h.fpp": "0.01",
    "file-index.bsi.columns": "b",
    "file-index.range-bitmap.columns": "i,d",
}
EXPECTED_ENTRIES = {("s", "bitmap"), ("h", "bloom-filter"), ("b", "bsi"), ("i", "range-bitmap"),
                    ("d", "range-bitmap")}
SIMD_LEVELS = ["scalar", "avx2", "avx512", "avx512-icelake"]


def make_table() -> pa.Table:
    rng = np.random.default_rng(20261128)
    b = rng.integers(-10**6, 10**6, ROWS)
    d = np.round(rng.random(ROWS), 3)
    return pa.table({
        "s": pa.array([None if k % 11 == 0 else f"v{k % 37}" for k in range(ROWS)]),
        "h": pa.array([f"h{k}" for k in range(ROWS)]),
        "b": pa.array(b, mask=(np.arange(ROWS) % 13 == 0)),
        # A permutation: every value distinct, so the top-n rows are determined.
        "i": pa.array(rng.permutation(ROWS).astype(np.int32)),
        "d": pa.array(d, mask=(np.arange(ROWS) % 7 == 3)),
    })


TABLE = make_table()


def matching_rows(mask: pa.ChunkedArray) -> list:
    """Row ids where `mask` is true (NULL counts as false, as in SQL)."""
    return np.flatnonzero(pc.fill_null(mask, False).to_numpy(zero_copy_only=False)).tolist()


def row_ids(result) -> list:
    assert result.kind == "ROWS", result.kind
    return result.row_ids().tolist()


@pytest.fixture(scope="module")
def container() -> bytes:
    data = pfi.build_index(TABLE, FIELDS, OPTIONS)
    assert isinstance(data, bytes) and len(data) > 0
    return data


@pytest.fixture(scope="module")
def reader(container):
    return pfi.IndexReader(container, FIELDS)


# ---- the installation itself ------------------------------------------------------------------

def test_the_package_is_imported_from_the_venv_site_packages():
    site = {Path(sysconfig.get_paths()[key]).resolve() for key in ("platlib", "purelib")}
    package_dir = Path(pfi.__file__).resolve().parent
    assert package_dir.parent in site, (package_dir, site)
    assert Path(pfi._native.__file__).resolve().parent == package_dir
    assert sys.prefix != sys.base_prefix, "not running in a virtual environment"
    venv = os.environ.get("PYFILEINDEX_SMOKE_VENV")
    if venv is not None:
        assert Path(sys.prefix).resolve() == Path(venv).resolve()
    # Nothing beside this file can shadow the package.
    assert not (Path(__file__).resolve().parent / "pyfileindex").exists()


def test_no_compiler_is_on_path():
    found = {name: shutil.which(name) for name in
             ("cc", "c++", "gcc", "g++", "clang", "clang++", "zig", "ld", "cmake")}
    assert {name: path for name, path in found.items() if path} == {}


def test_installed_from_a_manylinux_wheel():
    dist = metadata.distribution("pyfileindex")
    tags = [line.split(":", 1)[1].strip() for line in dist.read_text("WHEEL").splitlines()
            if line.startswith("Tag:")]
    assert tags and all(re.fullmatch(r"cp\d+-cp\d+-manylinux_2_17_\w+", tag) or
                        re.fullmatch(r"cp\d+-cp\d+-manylinux2014_\w+", tag) for tag in tags), tags
    wheel = os.environ.get("PYFILEINDEX_SMOKE_WHEEL")
    if wheel is not None:
        assert Path(wheel).name.startswith(f"pyfileindex-{dist.version}-")


def test_extension_needs_only_old_glibc_and_no_shared_cxx_runtime():
    binary = Path(pfi._native.__file__).read_bytes()
    assert binary[:4] == b"\x7fELF"
    versions = {tuple(map(int, v)) for v in re.findall(rb"GLIBC_(\d+)\.(\d+)", binary)}
    assert versions, "no GLIBC symbol versions found"
    assert max(versions) <= (2, 17), sorted(versions)
    # libstdc++ / libgcc_s symbol versions would mean a system C++ runtime is required.
    assert re.search(rb"GLIBCXX_\d|CXXABI_\d|GCC_\d+\.\d", binary) is None


def test_versions():
    version = metadata.version("pyfileindex")
    assert pfi.library_version() == version
    assert pfi.__version__ == version
    assert pfi.croaring_version() == CROARING_VERSION


# ---- SIMD dispatch at run time ----------------------------------------------------------------

def host_simd_level() -> str:
    """The level the CPU supports, from the kernel's view of it (/proc/cpuinfo)."""
    flags = set()
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("flags"):
            flags = set(line.split(":", 1)[1].split())
            break
    if not {"avx2", "bmi2", "popcnt"} <= flags:
        return "scalar"
    if not {"avx512f", "avx512dq", "avx512bw", "avx512vl"} <= flags:
        return "avx2"
    if not {"avx512vbmi", "avx512_vbmi2", "avx512_vpopcntdq"} <= flags:
        return "avx512"
    return "avx512-icelake"


def simd_level_with(cap) -> str:
    env = dict(os.environ)
    env.pop("PYFILEINDEX_SIMD", None)
    if cap is not None:
        env["PYFILEINDEX_SIMD"] = cap
    out = subprocess.run([sys.executable, "-c", "import pyfileindex; print(pyfileindex.simd_level())"],
                         env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip()


@pytest.mark.skipif(not sys.platform.startswith("linux") or os.uname().machine != "x86_64",
                    reason="the SIMD levels are x86-64's")
def test_simd_level_is_the_hosts_and_can_be_lowered():
    host = host_simd_level()
    assert simd_level_with(None) == host
    for cap in SIMD_LEVELS:
        expected = SIMD_LEVELS[min(SIMD_LEVELS.index(cap), SIMD_LEVELS.index(host))]
        assert simd_level_with(cap) == expected, cap


@pytest.mark.parametrize("cap", SIMD_LEVELS)
def test_every_simd_level_gives_the_same_container(container, cap):
    # Built in a child process capped at `cap`: each kernel level must write the same bytes.
    script = textwrap.dedent("""
        import sys, pyarrow as pa, pyfileindex as pfi
        table = pa.ipc.open_stream(sys.stdin.buffer.read()).read_all()
        sys.stdout.buffer.write(pfi.build_index(table, %r, %r))
    """) % (FIELDS, OPTIONS)
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, TABLE.schema) as writer:
        writer.write_table(TABLE)
    env = dict(os.environ, PYFILEINDEX_SIMD=cap)
    out = subprocess.run([sys.executable, "-c", script], input=sink.getvalue().to_pybytes(),
                         env=env, capture_output=True, check=True)
    assert out.stdout == container


# ---- build, read, evaluate --------------------------------------------------------------------

def test_the_container_holds_every_index_type(reader):
    assert {(e.column, e.index_type) for e in reader.entries} == EXPECTED_ENTRIES
    assert sorted(reader.columns) == ["b", "d", "h", "i", "s"]


EXACT_CASES = [
    # bitmap
    (col("s") == "v5", lambda t: pc.equal(t["s"], "v5")),
    (col("s").isin(["v1", "v9", "absent"]), lambda t: pc.is_in(t["s"], pa.array(["v1", "v9"]))),
    (col("s").is_null(), lambda t: pc.is_null(t["s"])),
    # bsi
    (col("b") > 1000, lambda t: pc.greater(t["b"], 1000)),
    (col("b") <= -500000, lambda t: pc.less_equal(t["b"], -500000)),
    (col("b") == int(TABLE["b"][1].as_py()), lambda t: pc.equal(t["b"], t["b"][1])),
    # range-bitmap
    (col("i") < 100, lambda t: pc.less(t["i"], 100)),
    (col("i") >= ROWS - 50, lambda t: pc.greater_equal(t["i"], ROWS - 50)),
    (col("d") <= 0.25, lambda t: pc.less_equal(t["d"], 0.25)),
    (col("d").is_null(), lambda t: pc.is_null(t["d"])),
    # across indexes
    ((col("i") >= 1000) & (col("s") == "v2"),
     lambda t: pc.and_kleene(pc.greater_equal(t["i"], 1000), pc.equal(t["s"], "v2"))),
    ((col("b") < 0) | (col("d") > 0.9),
     lambda t: pc.or_kleene(pc.less(t["b"], 0), pc.greater(t["d"], 0.9))),
]


@pytest.mark.parametrize("predicate, expected", EXACT_CASES, ids=[str(p) for p, _ in EXACT_CASES])
def test_exact_predicates(reader, predicate, expected):
    want = matching_rows(expected(TABLE))
    assert want, "a case must match some rows to be worth asking"
    assert row_ids(reader.evaluate(predicate)) == want


def test_bloom_filter_never_skips_present_values_and_mostly_skips_absent_ones(reader):
    for k in range(0, ROWS, 97):
        assert reader.evaluate(col("h") == f"h{k}").kind == "REMAIN", k
    absent = [reader.evaluate(col("h") == f"absent-{k}").kind for k in range(500)]
    assert set(absent) <= {"SKIP", "REMAIN"}
    assert absent.count("SKIP") >= 450, absent.count("SKIP")


def test_top_n(reader):
    i = TABLE["i"].to_numpy()
    assert row_ids(reader.top_n("i", 10)) == np.flatnonzero(i < 10).tolist()
    assert row_ids(reader.top_n("i", 7, descending=True)) == np.flatnonzero(i >= ROWS - 7).tolist()
    selection = matching_rows(pc.equal(TABLE["s"], "v3"))
    smallest = sorted(selection, key=lambda row: i[row])[:5]
    assert row_ids(reader.top_n("i", 5, selection=selection)) == sorted(smallest)


def test_a_file_path_is_read_like_bytes(tmp_path, container, reader):
    path = tmp_path / "data.index"
    path.write_bytes(container)
    from_file = pfi.open_index(path, FIELDS)
    predicate = (col("i") < 2000) & (col("s").isin(["v4", "v8"]))
    assert row_ids(from_file.evaluate(predicate)) == row_ids(reader.evaluate(predicate))


# ---- errors -----------------------------------------------------------------------------------

def test_a_bad_magic_number_raises_corrupt_index_error(container):
    damaged = bytes([container[0] ^ 0xFF]) + container[1:]
    with pytest.raises(pfi.CorruptIndexError, match="magic"):
        pfi.IndexReader(damaged, FIELDS)


def test_truncated_bytes_raise_corrupt_index_error(container):
    for length in sorted({0, 1, 7, 8, 16, len(container) // 3, len(container) // 2,
                          len(container) - 1}):
        with pytest.raises(pfi.CorruptIndexError):
            reader = pfi.IndexReader(container[:length], FIELDS)
            for predicate, _ in EXACT_CASES:
                reader.evaluate(predicate)
            reader.top_n("i", 3)


def test_errors_are_file_index_errors_with_a_message():
    assert issubclass(pfi.CorruptIndexError, pfi.FileIndexError)
    with pytest.raises(pfi.FileIndexError, match="nosuchcolumn"):
        pfi.build_index(TABLE, FIELDS, {"file-index.bitmap.columns": "nosuchcolumn"})


def test_out_of_memory_inside_the_library_is_an_exception_not_a_crash():
    # A C++ exception (std::bad_alloc, thrown deep in the writer under an address-space limit)
    # must unwind through the statically linked C++ runtime to the API boundary and reach
    # Python as an error; the process then goes on working.
    script = textwrap.dedent("""
        import resource, numpy as np, pyarrow as pa, pyfileindex as pfi
        n = 4_000_000
        table = pa.table({"k": pa.array(np.arange(n, dtype=np.int64) * 7919)})
        fields = [("k", "BIGINT")]
        small = pa.table({"k": pa.array(np.arange(100, dtype=np.int64))})
        options = {"file-index.bitmap.columns": "k"}
        assert pfi.build_index(small, fields, options)  # everything loaded before the limit
        vm = int([l for l in open("/proc/self/status") if l.startswith("VmSize")][0].split()[1])
        limit = vm * 1024 + (48 << 20)
        hard = resource.getrlimit(resource.RLIMIT_AS)[1]
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))  # soft only: raised again below
        writer = pfi.IndexWriter(fields, options)
        try:
            # write() hands the column to C++ and calls back into Python for nothing, so an
            # allocation failing here is one inside the library.
            writer.write(table)
        except (pfi.FileIndexError, MemoryError) as exc:
            print("refused:", type(exc).__name__, exc)
        else:
            print("written")
        resource.setrlimit(resource.RLIMIT_AS, (hard, hard))
        reader = pfi.IndexReader(pfi.build_index(small, fields, options), fields)
        print("after:", reader.evaluate(pfi.col("k") == 42).row_ids().tolist())
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("refused: FileIndexError") and "out of memory" in lines[0], lines
    assert lines[-1] == "after: [42]"


# ---- the command line -------------------------------------------------------------------------

def cli(*args, check=True):
    exe = shutil.which("pyfileindex")
    assert exe is not None and Path(exe).resolve().parent == (Path(sys.prefix) / "bin").resolve()
    out = subprocess.run([exe, *map(str, args)], capture_output=True, text=True)
    if check:
        assert out.returncode == 0, out.stderr
        assert out.stderr == ""
    return out


def test_cli_version():
    out = cli("--version").stdout.strip()
    version = metadata.version("pyfileindex")
    assert out == (f"pyfileindex {version} (native {version}, CRoaring {CROARING_VERSION}, "
                   f"SIMD {pfi.simd_level()})")


@pytest.fixture(scope="module")
def cli_files(tmp_path_factory, container):
    base = tmp_path_factory.mktemp("cli")
    pq.write_table(TABLE, base / "data.parquet")
    schema = {
        "version": 3, "id": 0,
        "fields": [{"id": n, "name": name, "type": type_}
                   for n, (name, type_) in enumerate(FIELDS)],
        "highestFieldId": len(FIELDS) - 1,
        "partitionKeys": [], "primaryKeys": [],
        "options": OPTIONS,
    }
    (base / "schema-0").write_text(json.dumps(schema))
    out = cli("build", base / "data.parquet", "--schema", base / "schema-0", "-o",
              base / "data.parquet.index")
    assert out.stdout == ""
    return base


def test_cli_build_writes_what_the_api_writes(cli_files, container):
    assert (cli_files / "data.parquet.index").read_bytes() == container


def test_cli_inspect(cli_files):
    out = json.loads(cli("inspect", cli_files / "data.parquet.index", "--schema",
                         cli_files / "schema-0", "--json").stdout)
    assert {(e["column"], e["index_type"]) for e in out["entries"]} == EXPECTED_ENTRIES
    assert all(e["length"] > 0 and not e["empty"] for e in out["entries"])


@pytest.mark.parametrize("sql, expected", [
    ("s = 'v5'", lambda t: pc.equal(t["s"], "v5")),
    ("i < 100 AND s IN ('v1', 'v2')",
     lambda t: pc.and_kleene(pc.less(t["i"], 100), pc.is_in(t["s"], pa.array(["v1", "v2"])))),
    ("b > 999000 OR d IS NULL", lambda t: pc.or_kleene(pc.greater(t["b"], 999000), pc.is_null(t["d"]))),
])
def test_cli_query(cli_files, sql, expected):
    out = cli("query", cli_files / "data.parquet.index", "--schema", cli_files / "schema-0",
              sql, "--json").stdout
    want = matching_rows(expected(TABLE))
    assert want
    assert json.loads(out) == {"result": "ROWS", "rows": want}
    plain = cli("query", cli_files / "data.parquet.index", "--schema", cli_files / "schema-0",
                sql).stdout
    assert plain == " ".join(map(str, want)) + "\n"


def test_cli_query_top_n_and_skip(cli_files):
    index, schema = cli_files / "data.parquet.index", cli_files / "schema-0"
    out = json.loads(cli("query", index, "--schema", schema, "--top-n", "i DESC LIMIT 3",
                         "--json").stdout)
    i = TABLE["i"].to_numpy()
    assert out == {"result": "ROWS", "rows": np.flatnonzero(i >= ROWS - 3).tolist()}
    assert cli("query", index, "--schema", schema, "s = 'absent'").stdout == "SKIP\n"


def test_cli_errors_are_one_line_with_status_1(cli_files, tmp_path):
    damaged = tmp_path / "damaged.index"
    damaged.write_bytes(b"\0" * 64)
    out = cli("query", damaged, "--schema", cli_files / "schema-0", "s = 'v1'", check=False)
    assert out.returncode == 1
    assert out.stdout == ""
    assert out.stderr.count("\n") == 1 and out.stderr.startswith("pyfileindex: ")
