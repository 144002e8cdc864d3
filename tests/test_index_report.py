"""index_report and `pyfileindex indexes`: each live data file's indexes, and what is missing
or stale against the table's current options and schema, on the Java-written golden tables
and on tables pyfileindex writes whose options change afterwards."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from event_rows import EVENT_SCHEMA, events
from golden_tables import table_dir, table_names

import pyfileindex as pfi
from pyfileindex.cli import main
from pyfileindex.paimon import (
    FileIndexReport,
    PaimonTableMetadata,
    index_report,
    rewrite_file_index,
    write_table,
)

UP_TO_DATE_GOLDEN = [n for n in table_names() if n != "append_with_bitmap_alter_table"]


def kinds(report: FileIndexReport) -> set:
    return {(f.kind, f.column, f.index_type) for f in report.findings}


def stale_kinds(report: FileIndexReport) -> set:
    return {(f.kind, f.column, f.index_type) for f in report.findings if f.stale}


# ------------------------------------------------------------------------ golden tables

@pytest.mark.parametrize("name", UP_TO_DATE_GOLDEN)
def test_golden_tables_are_reported_up_to_date_with_what_their_indexes_hold(name):
    """Java wrote every index under the options the table still has: nothing is stale, and
    every stored index is listed with its bytes and stored row count as the container says."""
    meta = PaimonTableMetadata(str(table_dir(name)))
    reports = index_report(meta)
    files = meta.data_files()
    assert [r.file_name for r in reports] == [f.file_name for f in files]
    for report, data_file in zip(reports, files):
        assert not report.stale, report.findings
        assert report.row_count == data_file.row_count
        data = meta.index_bytes(data_file)
        assert report.container_bytes == len(data)
        reader = pfi.IndexReader(data, meta.file_schema(data_file).row_type())
        assert [(i.column, i.index_type, i.bytes) for i in report.indexes] == [
            (e.column, e.index_type, 0 if e.empty else e.length) for e in reader.entries]
        for index in report.indexes:
            assert index.declared and index.current_column == index.column
            if index.index_type == "bloom-filter":
                assert index.row_count is None  # a bloom filter stores no row count
            else:
                assert index.row_count == data_file.row_count


@pytest.mark.parametrize("name, location", [
    ("append_with_bitmap", "embedded"), ("append_with_bitmap_v1", "embedded"),
    ("append_with_bitmap_no_embedding", "sidecar"), ("append_with_bloomfilter", "sidecar"),
    ("append_with_bsi_bitmap_bloomfilter", "sidecar")])
def test_golden_index_location_and_sidecar_name(name, location):
    (report,) = index_report(str(table_dir(name)))
    assert report.location == location
    if location == "sidecar":
        assert report.sidecar == report.file_name + ".index"
    else:
        assert report.sidecar is None


def test_golden_bitmap_versions_are_the_declared_ones():
    (v1,) = index_report(str(table_dir("append_with_bitmap_v1")))
    (v2,) = index_report(str(table_dir("append_with_bitmap")))
    assert {i.details["version"] for i in v1.indexes} == {"1"}
    assert {i.details["version"] for i in v2.indexes} == {"2"}


def test_golden_altered_table_reports_dropped_renamed_retyped_and_added_columns():
    """Snapshot 1 indexed f0, f1, f2 under schema 0; then f0 became f4, f1 BIGINT, f2 was
    dropped, f5 added, and the bitmap columns became f1, f4, f5."""
    old, new = index_report(str(table_dir("append_with_bitmap_alter_table")))
    assert old.schema_id == 0 and new.schema_id != 0
    assert {(i.column, i.current_column) for i in old.indexes} == {
        ("f0", "f4"), ("f1", "f1"), ("f2", None)}
    assert stale_kinds(old) == {("dropped", "f2", "bitmap")}
    notes = kinds(old) - stale_kinds(old)
    assert ("renamed", "f0", None) in notes
    assert ("type-changed", "f1", None) in notes
    assert ("not-in-file", "f5", None) in notes
    assert old.stale
    assert not new.stale and not new.findings
    assert {i.column for i in new.indexes} == {"f1", "f4", "f5"}


# ------------------------------------------------------------------------ written, then altered

class _Table:
    """A table pyfileindex writes (two data files), whose options the test changes."""

    def __init__(self, tmp_path, options):
        from pypaimon import CatalogFactory, Schema
        self.catalog = CatalogFactory.create({"warehouse": str(tmp_path / "warehouse")})
        self.catalog.create_database("db", False)
        self.name = "db.t"
        self.catalog.create_table(self.name, Schema.from_pyarrow_schema(
            EVENT_SCHEMA, options=options), False)
        write_table(self.current(), events(0, 120))
        write_table(self.current(), events(120, 80))

    def current(self):
        return self.catalog.get_table(self.name)

    def set_option(self, key, value):
        from pypaimon.schema.schema_change import SchemaChange
        self.catalog.alter_table(self.name, [SchemaChange.set_option(key, value)], False)

    def report(self):
        return index_report(self.current())

    @property
    def meta(self):
        return PaimonTableMetadata(table=self.current())


BASE_OPTIONS = {"file-index.bloom-filter.columns": "id",
                "file-index.bloom-filter.id.items": "500",
                "file-index.bitmap.columns": "level",
                "file-index.in-manifest-threshold": "1b"}


def _assert_rewrite_clears(table: _Table, stale_before: int) -> None:
    """What the report calls stale is what a rewrite changes; afterwards nothing is."""
    result = rewrite_file_index(table.current())
    assert result.files_rewritten == stale_before
    assert [r.findings for r in table.report()] == [(), ()]


def test_written_table_is_up_to_date_with_sidecars_and_row_counts(tmp_path):
    table = _Table(tmp_path, BASE_OPTIONS)
    reports = table.report()
    assert [r.row_count for r in reports] == [120, 80]
    for report in reports:
        assert report.findings == () and not report.stale
        assert report.location == "sidecar" and report.sidecar.endswith(".index")
        assert {(i.column, i.index_type) for i in report.indexes} == {
            ("id", "bloom-filter"), ("level", "bitmap")}
        bitmap = next(i for i in report.indexes if i.index_type == "bitmap")
        assert bitmap.row_count == report.row_count and bitmap.bytes > 0
    assert rewrite_file_index(table.current()).snapshot_id is None  # nothing to rebuild


def test_changed_bloom_items_and_bitmap_version_are_stale_options(tmp_path):
    table = _Table(tmp_path, BASE_OPTIONS)
    table.set_option("file-index.bloom-filter.id.items", "5000")
    table.set_option("file-index.bitmap.level.version", "1")
    for report in table.report():
        assert stale_kinds(report) == {("options", "id", "bloom-filter"),
                                       ("options", "level", "bitmap")}
        messages = " ".join(f.message for f in report.findings)
        assert "items=5000" in messages and "version=1" in messages
    _assert_rewrite_clears(table, 2)


def test_options_equal_to_the_defaults_are_not_stale(tmp_path):
    table = _Table(tmp_path, BASE_OPTIONS)
    table.set_option("file-index.bitmap.level.version", "2")  # the default, spelled out
    assert [r.findings for r in table.report()] == [(), ()]
    assert rewrite_file_index(table.current()).snapshot_id is None


def test_newly_declared_index_is_missing_and_undeclared_one_is_reported(tmp_path):
    table = _Table(tmp_path, BASE_OPTIONS)
    table.set_option("file-index.bitmap.columns", "category")
    for report in table.report():
        assert stale_kinds(report) == {("missing", "category", "bitmap"),
                                       ("undeclared", "level", "bitmap")}
        level = next(i for i in report.indexes if i.column == "level")
        assert not level.declared
    _assert_rewrite_clears(table, 2)


def test_threshold_change_is_stale_placement(tmp_path):
    table = _Table(tmp_path, BASE_OPTIONS)
    table.set_option("file-index.in-manifest-threshold", "1mb")
    for report in table.report():
        assert stale_kinds(report) == {("placement", None, None)}
        assert "belongs in the manifest" in report.findings[0].message
    _assert_rewrite_clears(table, 2)
    assert {r.location for r in table.report()} == {"embedded"}


def test_renamed_column_is_a_note_not_stale(tmp_path):
    from pypaimon.schema.schema_change import SchemaChange
    table = _Table(tmp_path, BASE_OPTIONS)
    table.catalog.alter_table(table.name, [SchemaChange.rename_column("level", "lvl")], False)
    # The options still name `level`, which the table no longer has: nothing declares the
    # index on that field now, and a rewrite would drop it.
    for report in table.report():
        assert stale_kinds(report) == {("undeclared", "level", "bitmap")}
    table.set_option("file-index.bitmap.columns", "lvl")
    for report in table.report():
        assert not report.stale, report.findings
        assert ("renamed", "level", None) in kinds(report)
        level = next(i for i in report.indexes if i.column == "level")
        assert level.current_column == "lvl" and level.declared
    assert rewrite_file_index(table.current()).snapshot_id is None  # notes change nothing


def test_corrupt_or_missing_index_bytes_are_reported_for_that_file_only(tmp_path):
    table = _Table(tmp_path, BASE_OPTIONS)
    meta = table.meta
    first, second = meta.data_files()
    Path(meta.filesystem_path(first.index_file_paths[0])).write_bytes(b"not an index at all")
    reports = table.report()
    assert {k for k, _, _ in stale_kinds(reports[0])} == {"corrupt"}
    assert reports[0].indexes == () and reports[0].stale
    assert reports[1].findings == ()
    Path(meta.filesystem_path(second.index_file_paths[0])).unlink()
    reports = table.report()
    assert {k for k, _, _ in stale_kinds(reports[1])} == {"unreadable"}


def test_index_row_count_other_than_the_files_is_stale(tmp_path):
    """The second file's sidecar replaced by the first's: a valid container, 120 rows."""
    table = _Table(tmp_path, BASE_OPTIONS)
    meta = table.meta
    first, second = meta.data_files()
    Path(meta.filesystem_path(second.index_file_paths[0])).write_bytes(
        meta.index_bytes(first))
    reports = table.report()
    assert reports[0].findings == ()
    assert stale_kinds(reports[1]) == {("row-count", "level", "bitmap")}
    assert "stores 120 rows, the data file has 80" in reports[1].findings[0].message


def test_damaged_index_body_is_reported_not_raised(tmp_path):
    table = _Table(tmp_path, BASE_OPTIONS)
    meta = table.meta
    first = meta.data_files()[0]
    data = bytearray(meta.index_bytes(first))
    reader = pfi.IndexReader(bytes(data), meta.file_schema(first).row_type())
    bitmap = next(e for e in reader.entries if e.index_type == "bitmap")
    data[bitmap.offset:bitmap.offset + bitmap.length] = b"\xff" * bitmap.length
    Path(meta.filesystem_path(first.index_file_paths[0])).write_bytes(bytes(data))
    report = table.report()[0]
    assert ("corrupt", "level", "bitmap") in stale_kinds(report)
    assert {i.column for i in report.indexes} == {"id", "level"}  # still listed


def test_table_without_index_options_reports_files_without_findings(tmp_path):
    table = _Table(tmp_path, {})
    for report in table.report():
        assert report.location is None and report.indexes == () and report.findings == ()


def test_report_of_an_older_snapshot(tmp_path):
    table = _Table(tmp_path, BASE_OPTIONS)
    assert [r.row_count for r in index_report(table.current(), snapshot_id=1)] == [120]


# ------------------------------------------------------------------------ command line

def run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_text_lists_files_indexes_and_findings(tmp_path, capsys):
    table = _Table(tmp_path, BASE_OPTIONS)
    table.set_option("file-index.bitmap.columns", "level,category")
    status, out, err = run(capsys, "indexes", table.meta.path)
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == f"table {table.meta.path} (schema 1; file index reads enabled)"
    assert "  file-index.bitmap.columns = level,category" in lines
    for data_file in table.meta.data_files():
        at = next(i for i, line in enumerate(lines) if line.startswith(data_file.file_name))
        assert lines[at].split()[1:] == ["partition", "-", "bucket", "0",
                                         str(data_file.row_count), "rows", "schema", "0",
                                         "STALE"]
        assert lines[at + 1].startswith(f"  index: sidecar {data_file.index_file_names[0]}, ")
        assert lines[at + 2].split() == ["COLUMN", "INDEX", "BYTES", "INDEX", "ROWS",
                                         "STATUS"]
        rows = [line.split() for line in lines[at + 3:at + 6]]
        assert [r[:2] for r in rows] == [["level", "bitmap"], ["id", "bloom-filter"],
                                        ["category", "bitmap"]]  # the container's order
        assert rows[0][3:] == [str(data_file.row_count), "ok"]
        assert rows[1][3:] == ["-", "ok"]  # a bloom filter stores no row count
        assert rows[2][2:] == ["-", "-", "missing"]
        assert lines[at + 6] == "  missing: bitmap on category is declared but not in the index"
    assert lines[-1] == "2 data file(s): 0 up to date, 2 stale (rewrite_file_index rebuilds them)"


def test_cli_marks_options_no_writer_reads(capsys):
    status, out, _ = run(capsys, "indexes", table_dir("append_with_bitmap_alter_table"))
    assert status == 0
    assert "  file-index.bitmap.version = 1  (ignored: not an option any writer reads)" in out
    assert "  file-index.bitmap.columns = f1,f4,f5\n" in out


def test_cli_json_is_one_object_with_every_file(tmp_path, capsys):
    table = _Table(tmp_path, BASE_OPTIONS)
    table.set_option("file-index.bloom-filter.id.fpp", "0.01")
    status, out, err = run(capsys, "indexes", table.meta.path, "--json")
    assert status == 0 and err == "" and out.count("\n") == 1
    payload = json.loads(out)
    assert payload["table"] == table.meta.path and payload["stale_files"] == 2
    assert payload["options"]["file-index.bloom-filter.id.fpp"] == "0.01"
    assert [f["file_name"] for f in payload["files"]] == [
        f.file_name for f in table.meta.data_files()]
    for entry in payload["files"]:
        assert entry["location"] == "sidecar" and entry["stale"]
        assert [(f["kind"], f["column"], f["stale"]) for f in entry["findings"]] == [
            ("options", "id", True)]
        assert {i["index_type"]: i["row_count"] for i in entry["indexes"]} == {
            "bloom-filter": None, "bitmap": entry["row_count"]}


def test_cli_golden_altered_table_json(capsys):
    status, out, _ = run(capsys, "indexes", table_dir("append_with_bitmap_alter_table"),
                         "--json")
    assert status == 0
    files = json.loads(out)["files"]
    assert [f["stale"] for f in files] == [True, False]
    assert {f["kind"] for f in files[0]["findings"]} == {
        "dropped", "renamed", "type-changed", "not-in-file"}


def test_cli_snapshot_option(tmp_path, capsys):
    table = _Table(tmp_path, BASE_OPTIONS)
    status, out, _ = run(capsys, "indexes", table.meta.path, "--snapshot", "1", "--json")
    assert status == 0
    assert [f["row_count"] for f in json.loads(out)["files"]] == [120]
    status, out, err = run(capsys, "indexes", table.meta.path, "--snapshot", "9")
    assert status == 1 and out == "" and err.count("\n") == 1
    assert "no snapshot 9" in err


def test_cli_missing_table_is_one_line_error(tmp_path, capsys):
    status, out, err = run(capsys, "indexes", tmp_path / "nope")
    assert status == 1 and out == ""
    assert err.startswith("pyfileindex: error: ") and err.count("\n") == 1
    assert "nope" in err


def test_partitioned_table_with_map_key_indexes(tmp_path):
    """Partition values are reported; an index on a map key `m[k]` is judged like a column's."""
    import pyarrow as pa
    from pypaimon import CatalogFactory, Schema
    schema = pa.schema([("day", pa.int32()), ("id", pa.int64()),
                        ("m", pa.map_(pa.string(), pa.int32()))])
    catalog = CatalogFactory.create({"warehouse": str(tmp_path / "warehouse")})
    catalog.create_database("db", False)
    options = {"file-index.bloom-filter.columns": "m[a]",
               "file-index.bloom-filter.m[a].items": "100", "file-index.bitmap.columns": "m[b]"}
    catalog.create_table("db.m", Schema.from_pyarrow_schema(schema, partition_keys=["day"],
                                                            options=options), False)
    rows = pa.table({"day": pa.array([1, 1, 2, 2], pa.int32()), "id": pa.array([1, 2, 3, 4]),
                     "m": pa.array([[("a", 1), ("b", 2)], [("a", 3)], None, [("b", 4)]],
                                   pa.map_(pa.string(), pa.int32()))}, schema=schema)
    write_table(catalog.get_table("db.m"), rows)
    reports = index_report(catalog.get_table("db.m"))
    assert sorted((r.partition["day"], r.row_count) for r in reports) == [(1, 2), (2, 2)]
    for report in reports:
        assert report.findings == ()
        assert {(i.column, i.index_type) for i in report.indexes} == {
            ("m[a]", "bloom-filter"), ("m[b]", "bitmap")}
    from pypaimon.schema.schema_change import SchemaChange
    catalog.alter_table("db.m", [SchemaChange.set_option("file-index.bloom-filter.m[a].items",
                                                         "1000")], False)
    for report in index_report(catalog.get_table("db.m")):
        assert stale_kinds(report) == {("options", "m[a]", "bloom-filter")}
