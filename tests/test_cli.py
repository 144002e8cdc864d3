"""`pyfileindex build / inspect / query` end to end on the tables Java Paimon wrote.

`build` must reproduce the sidecar index files byte for byte; `inspect` and `query`
read Java's index files and answer with the rows listed in ../shared/golden/README.md.
"""

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import GOLDEN_DIR
from pyfileindex.cli import main

TABLES = GOLDEN_DIR / "paimon-java-tables"


def table_dir(db: str) -> Path:
    return TABLES / db / db[:-3]


def schema_of(db: str, schema_id: int = 0) -> Path:
    return table_dir(db) / "schema" / f"schema-{schema_id}"


def sidecar_of(db: str) -> Path:
    """The only `*.index` sidecar in the table's bucket-0 directory."""
    found = sorted((table_dir(db) / "bucket-0").glob("*.parquet.index"))
    assert len(found) == 1, found
    return found[0]


def data_file_of(index_file: Path) -> Path:
    return index_file.with_name(index_file.name[:-len(".index")])


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def query(capsys, db: str, predicate: str, *extra, index_file=None):
    """The --json answer of `pyfileindex query` on the table's Java-written sidecar."""
    index_file = index_file or sidecar_of(db)
    status, out, err = run(capsys, "query", index_file, "--schema", schema_of(db), predicate,
                           "--json", *extra)
    assert status == 0, err
    assert err == ""
    assert out.count("\n") == 1  # exactly one JSON object on one line
    return json.loads(out)


SIDECAR_TABLES = [
    "append_with_bitmap_no_embedding.db",
    "append_with_bloomfilter.db",
    "append_with_bsi.db",
    "append_with_bsi_bitmap_bloomfilter.db",
]


class TestBuild:
    @pytest.mark.parametrize("db", SIDECAR_TABLES)
    def test_rebuilds_java_sidecar_bytes(self, capsys, tmp_path, db):
        java_index = sidecar_of(db)
        out_file = tmp_path / "rebuilt.index"
        status, out, err = run(capsys, "build", data_file_of(java_index), "--schema",
                               schema_of(db), "-o", out_file)
        assert (status, out, err) == (0, "", "")
        assert out_file.read_bytes() == java_index.read_bytes()
        assert [p.name for p in tmp_path.iterdir()] == ["rebuilt.index"]  # no temp file left

    def test_string_columns_indexed_by_dictionary_takers_are_read_encoded(
            self, capsys, tmp_path, monkeypatch):
        import pyarrow.parquet as pq

        db = "append_with_bsi_bitmap_bloomfilter.db"  # f0 STRING: bitmap + bloom-filter
        asked = []
        real_read_table = pq.read_table

        def spy(*args, **kwargs):
            asked.append(kwargs.get("read_dictionary"))
            return real_read_table(*args, **kwargs)

        monkeypatch.setattr(pq, "read_table", spy)
        out_file = tmp_path / "rebuilt.index"
        status, _, err = run(capsys, "build", data_file_of(sidecar_of(db)), "--schema",
                             schema_of(db), "--option", "file-index.range-bitmap.columns=f0,f3",
                             "-o", out_file)
        assert (status, err) == (0, "")
        assert asked == [["f0"]]
        # The same bytes as from the decoded column.
        import pyarrow as pa

        import pyfileindex as pfi
        from pyfileindex.schema import load_schema
        schema = load_schema(str(schema_of(db)))
        options = dict(schema.options, **{"file-index.range-bitmap.columns": "f0,f3"})
        plain = real_read_table(data_file_of(sidecar_of(db)), columns=schema.field_names)
        assert not pa.types.is_dictionary(plain.schema.field("f0").type)
        expected = pfi.build_index(plain, [(f.name, f.type) for f in schema.fields], options)
        assert out_file.read_bytes() == bytes(expected)

    @pytest.mark.parametrize("name", ["data-bfa36b28-40e7-4026-893b-d23116973174-0.parquet",
                                      "data-bfa36b28-40e7-4026-893b-d23116973174-1.parquet"])
    def test_primary_key_files_index_the_value_columns(self, capsys, tmp_path, name):
        data = table_dir("pk_with_bitmap_dv.db") / "bucket-0" / name
        out_file = tmp_path / "pk.index"
        status, _, err = run(capsys, "build", data, "--schema", schema_of("pk_with_bitmap_dv.db"),
                             "-o", out_file)
        assert status == 0, err
        assert out_file.read_bytes() == data.with_name(name + ".index").read_bytes()

    def test_orc_and_suffixless_data_files(self, capsys, tmp_path):
        import shutil

        import pyarrow.orc as orc
        import pyarrow.parquet as pq

        db = "append_with_bitmap_no_embedding.db"
        java_index = sidecar_of(db)
        orc_file = tmp_path / "data.orc"
        orc.write_table(pq.read_table(data_file_of(java_index)), orc_file)
        bare_file = tmp_path / "data-without-suffix"
        shutil.copyfile(data_file_of(java_index), bare_file)
        for data in (orc_file, bare_file):
            out_file = tmp_path / (data.name + ".index")
            status, _, err = run(capsys, "build", data, "--schema", schema_of(db), "-o", out_file)
            assert status == 0, err
            assert out_file.read_bytes() == java_index.read_bytes()

    def test_options_override_the_schema(self, capsys, tmp_path):
        db = "append_with_bsi_bitmap_bloomfilter.db"
        out_file = tmp_path / "f1.index"
        status, _, err = run(capsys, "build", data_file_of(sidecar_of(db)), "--schema",
                             schema_of(db), "-o", out_file,
                             "--option", "file-index.bsi.columns=f1",
                             "--option", "file-index.bitmap.columns=",
                             "--option", "file-index.bloom-filter.columns=")
        assert status == 0, err
        status, out, err = run(capsys, "inspect", out_file, "--json")
        assert status == 0, err
        entries = json.loads(out)["entries"]
        assert [(e["column"], e["index_type"]) for e in entries] == [("f1", "bsi")]

    def test_overwrites_an_existing_output(self, capsys, tmp_path):
        db = "append_with_bsi.db"
        out_file = tmp_path / "out.index"
        out_file.write_bytes(b"old content")
        status, _, err = run(capsys, "build", data_file_of(sidecar_of(db)), "--schema",
                             schema_of(db), "-o", out_file)
        assert status == 0, err
        assert out_file.read_bytes() == sidecar_of(db).read_bytes()

    def test_a_new_output_gets_the_mode_open_would_give(self, capsys, tmp_path):
        # mkstemp makes owner-only files; renamed as they were, indexes were unreadable by
        # other users and services.
        db = "append_with_bsi.db"
        out_file = tmp_path / "out.index"
        previous = os.umask(0o022)
        try:
            status, _, err = run(capsys, "build", data_file_of(sidecar_of(db)), "--schema",
                                 schema_of(db), "-o", out_file)
        finally:
            os.umask(previous)
        assert status == 0, err
        assert stat.S_IMODE(out_file.stat().st_mode) == 0o644
        out_file.chmod(0o640)
        status, _, err = run(capsys, "build", data_file_of(sidecar_of(db)), "--schema",
                             schema_of(db), "-o", out_file)
        assert status == 0, err
        assert stat.S_IMODE(out_file.stat().st_mode) == 0o640  # an existing file keeps its mode

    @pytest.mark.parametrize("where", ["directory", "missing-parent"])
    def test_an_output_that_cannot_be_written_is_named(self, capsys, tmp_path, where):
        db = "append_with_bsi.db"
        out = tmp_path if where == "directory" else tmp_path / "no" / "such" / "out.index"
        status, _, err = run(capsys, "build", data_file_of(sidecar_of(db)), "--schema",
                             schema_of(db), "-o", out)
        assert status == 1
        assert err.strip().startswith(f"pyfileindex: error: cannot write {out}: "), err
        assert ".tmp" not in err
        assert list(tmp_path.iterdir()) == []  # no temporary file left behind

    def test_unsupported_index_type_for_a_column_fails_cleanly(self, capsys, tmp_path):
        db = "append_with_bsi.db"
        out_file = tmp_path / "out.index"
        status, out, err = run(capsys, "build", data_file_of(sidecar_of(db)), "--schema",
                               schema_of(db), "-o", out_file,
                               "--option", "file-index.bsi.columns=f0")
        assert status == 1 and out == ""
        assert len(err.splitlines()) == 1 and "f0" in err
        assert not out_file.exists()

    def test_options_are_checked_by_the_writer_before_the_data_file_is_read(
            self, capsys, tmp_path):
        # The data file does not exist: the misspelt option is what is reported, in the
        # native writer's words.
        db = "append_with_bsi.db"
        status, out, err = run(capsys, "build", tmp_path / "absent.parquet", "--schema",
                               schema_of(db), "-o", tmp_path / "out.index",
                               "--option", "file-index.bsi.columns=f1",
                               "--option", "file-index.bsi.f1.verison=1")
        assert status == 1 and out == ""
        assert "the bsi index has no option 'verison'" in err, err
        status, _, err = run(capsys, "build", tmp_path / "absent.parquet", "--schema",
                             schema_of(db), "-o", tmp_path / "out.index",
                             "--option", "file-index.bsi.columns=",
                             "--option", "file-index.bitmap.columns=")
        assert status == 1 and "the options declare no file index" in err, err


class TestInspect:
    def test_lists_every_index_of_a_java_file(self, capsys):
        db = "append_with_bsi_bitmap_bloomfilter.db"
        index_file = sidecar_of(db)
        status, out, err = run(capsys, "inspect", index_file, "--schema", schema_of(db), "--json")
        assert status == 0, err
        report = json.loads(out)
        pairs = {(e["column"], e["index_type"]) for e in report["entries"]}
        assert pairs == ({(c, "bsi") for c in ("f1", "f2", "f4")}
                         | {(c, "bitmap") for c in ("f0", "f1", "f2", "f4")}
                         | {(c, "bloom-filter") for c in ("f0", "f1", "f2", "f3", "f4")})
        size = index_file.stat().st_size
        for entry in report["entries"]:
            assert entry["empty"] is False
            assert 0 < entry["offset"] and entry["offset"] + entry["length"] <= size
            assert isinstance(entry["details"], dict) and entry["details"]

    def test_without_a_schema_entries_are_still_listed(self, capsys):
        db = "append_with_bsi_bitmap_bloomfilter.db"
        status, out, err = run(capsys, "inspect", sidecar_of(db), "--json")
        assert status == 0, err
        entries = json.loads(out)["entries"]
        assert len(entries) == 12
        assert all(e["length"] > 0 for e in entries)
        for entry in entries:
            assert entry["details"] or "--schema" in entry["note"]

    def test_plain_output_has_one_line_per_entry(self, capsys):
        status, out, _ = run(capsys, "inspect", sidecar_of("append_with_bsi.db"),
                             "--schema", schema_of("append_with_bsi.db"))
        assert status == 0
        lines = out.splitlines()
        assert lines[0].split()[:4] == ["COLUMN", "INDEX", "OFFSET", "LENGTH"]
        assert sorted(line.split()[0] for line in lines[1:]) == ["f1", "f2", "f4"]
        assert all(line.split()[1] == "bsi" for line in lines[1:])

    def test_garbage_is_a_one_line_error(self, capsys, tmp_path):
        bogus = tmp_path / "bogus.index"
        bogus.write_bytes(b"\x00\x01not an index at all")
        status, out, err = run(capsys, "inspect", bogus)
        assert status == 1 and out == ""
        assert len(err.splitlines()) == 1 and err.startswith("pyfileindex: error: ")


class TestQueryDataSetA:
    """Bitmap index on f0, f1, f2 (README: data set A)."""

    DB = "append_with_bitmap_no_embedding.db"

    @pytest.mark.parametrize("predicate,rows", [
        ("f0 = 'Alice'", [0, 7]),
        ("f0 = 'Bob' OR f0 = 'Tony'", [1, 3, 5, 6]),
        ("f1 = 10 AND f2 = 1", [0, 1, 5]),
        ("f2 IS NULL", [7]),
        ("f2 IS NOT NULL AND f1 = 20", [4, 6]),
        ("f0 IN ('Emily', 'Lucy')", [2, 4]),
        ("f0 <> 'Alice' AND f1 = 20", [4, 6]),
        ("NOT (f1 = 10)", [4, 6, 7]),
    ])
    def test_rows(self, capsys, predicate, rows):
        assert query(capsys, self.DB, predicate) == {"result": "ROWS", "rows": rows}

    def test_no_match_skips(self, capsys):
        assert query(capsys, self.DB, "f0 = 'Nobody'") == {"result": "SKIP"}

    def test_unindexed_column_remains(self, capsys):
        assert query(capsys, self.DB, "f3 > 12.0") == {"result": "REMAIN"}

    def test_plain_output(self, capsys):
        index_file = sidecar_of(self.DB)
        status, out, _ = run(capsys, "query", index_file, "--schema", schema_of(self.DB),
                             "f0 = 'Alice'")
        assert (status, out) == (0, "0 7\n")
        status, out, _ = run(capsys, "query", index_file, "--schema", schema_of(self.DB),
                             "f0 = 'Nobody'")
        assert (status, out) == (0, "SKIP\n")
        status, out, _ = run(capsys, "query", index_file, "--schema", schema_of(self.DB),
                             "f3 = 11.1")
        assert (status, out) == (0, "REMAIN\n")

    def test_external_path_copy_answers_the_same(self, capsys):
        external = TABLES / self.DB / "external-path" / "bucket-0"
        index_file = next(external.glob("*.parquet.index"))
        assert query(capsys, self.DB, "f0 = 'Alice'", index_file=index_file) == \
            {"result": "ROWS", "rows": [0, 7]}


class TestQueryDataSetB:
    """BSI on f1, f2, f4 and bloom filters on f0..f4 (README: data set B)."""

    @pytest.mark.parametrize("predicate,rows", [
        ("f1 > 100", [1, 2, 4]),
        ("f1 BETWEEN 50 AND 100", [0, 3, 5]),
        ("f2 < 0", [0, 1, 4, 6]),
        ("f1 IS NULL", [6]),
        ("f4 < TIMESTAMP '1970-01-01 00:00:00'", [3, 4, 7]),
    ])
    def test_bsi_rows(self, capsys, predicate, rows):
        assert query(capsys, "append_with_bsi.db", predicate) == {"result": "ROWS", "rows": rows}

    def test_bloom_filter_skips_absent_values(self, capsys):
        db = "append_with_bloomfilter.db"
        assert query(capsys, db, "f0 = 'Nobody'") == {"result": "SKIP"}
        assert query(capsys, db, "f0 = 'Alice'") == {"result": "REMAIN"}
        assert query(capsys, db, "f1 = 100 AND f0 = 'Zed'") == {"result": "SKIP"}


class TestTopN:
    """A range-bitmap index built by `build` answers --top-n."""

    @pytest.fixture
    def range_bitmap(self, capsys, tmp_path):
        db = "append_with_bsi.db"
        out_file = tmp_path / "range.index"
        status, _, err = run(capsys, "build", data_file_of(sidecar_of(db)), "--schema",
                             schema_of(db), "-o", out_file,
                             "--option", "file-index.bsi.columns=",
                             "--option", "file-index.range-bitmap.columns=f0,f1")
        assert status == 0, err
        return out_file

    def top_n(self, capsys, index_file, *argv):
        status, out, err = run(capsys, "query", index_file, "--schema",
                               schema_of("append_with_bsi.db"), *argv, "--json")
        assert status == 0, err
        return json.loads(out)

    def test_desc_puts_nulls_last(self, capsys, range_bitmap):
        # f1 = 100, 200, 300, 50, 500, 100, NULL, 20
        assert self.top_n(capsys, range_bitmap, "--top-n", "f1 DESC LIMIT 2") == \
            {"result": "ROWS", "rows": [2, 4]}

    def test_asc_puts_nulls_first(self, capsys, range_bitmap):
        assert self.top_n(capsys, range_bitmap, "--top-n", "f1 LIMIT 2") == \
            {"result": "ROWS", "rows": [6, 7]}
        assert self.top_n(capsys, range_bitmap, "--top-n", "f1 ASC NULLS LAST LIMIT 2") == \
            {"result": "ROWS", "rows": [3, 7]}

    def test_top_n_among_the_predicate_rows(self, capsys, range_bitmap):
        # Bob is rows 1 (f1 = 200) and 5 (f1 = 100).
        assert self.top_n(capsys, range_bitmap, "f0 = 'Bob'", "--top-n", "f1 DESC LIMIT 1") == \
            {"result": "ROWS", "rows": [1]}

    def test_with_ties_keeps_the_rows_tied_at_the_cut(self, capsys, range_bitmap):
        # ASC NULLS LAST: 20 (row 7), 50 (row 3), then 100 twice (rows 0 and 5).
        assert self.top_n(capsys, range_bitmap, "--top-n", "f1 NULLS LAST LIMIT 3") == \
            {"result": "ROWS", "rows": [3, 5, 7]}  # the tie is cut, the highest row stays
        assert self.top_n(capsys, range_bitmap, "--top-n",
                          "f1 NULLS LAST LIMIT 3 WITH TIES") == \
            {"result": "ROWS", "rows": [0, 3, 5, 7]}
        assert self.top_n(capsys, range_bitmap, "--top-n",
                          "f1 NULLS LAST LIMIT 2 WITH TIES") == \
            {"result": "ROWS", "rows": [3, 7]}  # no tie at the cut: exactly 2 rows
        # Among the predicate's rows: Bob is rows 1 (f1 = 200) and 5 (f1 = 100).
        assert self.top_n(capsys, range_bitmap, "f0 = 'Bob' OR f1 = 100", "--top-n",
                          "f1 LIMIT 1 WITH TIES") == {"result": "ROWS", "rows": [0, 5]}

    def test_remain_predicate_is_not_narrowed(self, capsys, range_bitmap):
        assert self.top_n(capsys, range_bitmap, "f3 > 1.0", "--top-n", "f1 DESC LIMIT 1") == \
            {"result": "REMAIN"}


def test_module_entry_point(tmp_path):
    db = "append_with_bitmap_no_embedding.db"
    result = subprocess.run(
        [sys.executable, "-m", "pyfileindex", "query", str(sidecar_of(db)), "--schema",
         str(schema_of(db)), "f1 = 20"],
        cwd=tmp_path, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "4 6 7\n"
