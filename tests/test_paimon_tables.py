"""Paimon tables: read planning with file indexes, writing and rewriting indexes.

Golden tables (written by Java Paimon) and tables written here through pypaimon. Every
planned read is checked against brute force: pypaimon's own full read of the snapshot,
filtered row by row in plain Python.
"""

from __future__ import annotations

import datetime
import os
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from event_rows import EVENT_SCHEMA, events  # noqa: E402
from golden_tables import table_dir  # noqa: E402

import pyfileindex as pfi  # noqa: E402
from pyfileindex.paimon import (  # noqa: E402
    PaimonMetadataError,
    PaimonTableMetadata,
    build_file_index,
    plan_read,
    read_plan,
    remove_orphan_index_files,
    rewrite_file_index,
    write_table,
)
from pyfileindex.paimon.planner import open_metadata  # noqa: E402
from pyfileindex.paimon.predicates import bind_to_schema  # noqa: E402
from pyfileindex.paimon.rewrite import rewritten_index_file_name  # noqa: E402
from pyfileindex.predicate import And, Leaf, Or, col  # noqa: E402

# ---------------------------------------------------------------- brute force


def _plain(value):
    """Arrow/Python/numpy values -> comparable Python values (timestamps as epoch ns)."""
    if isinstance(value, np.datetime64):
        unit, count = np.datetime_data(value.dtype)
        scale = {"s": 10 ** 9, "ms": 10 ** 6, "us": 10 ** 3, "ns": 1}[unit]
        return int(value.astype(np.int64)) * count * scale
    return value


def _rows(table: pa.Table) -> list:
    columns = {}
    for name in table.column_names:
        column = table.column(name)
        if pa.types.is_timestamp(column.type):
            scale = {"s": 10 ** 9, "ms": 10 ** 6, "us": 10 ** 3, "ns": 1}[column.type.unit]
            values = [None if v is None else v * scale
                      for v in column.cast(pa.int64()).to_pylist()]
        else:
            values = column.to_pylist()
        columns[name] = values
    return [dict(zip(columns, values)) for values in zip(*columns.values())] \
        if columns else []


def _holds(node, row) -> bool:
    if isinstance(node, And):
        return all(_holds(c, row) for c in node.children)
    if isinstance(node, Or):
        return any(_holds(c, row) for c in node.children)
    column = node.column
    if "[" in column:
        base, key = column[:column.index("[")], column[column.index("[") + 1:-1]
        entries = row[base]
        value = None if entries is None else dict(entries).get(key)
    else:
        value = row[column]
    literals = [_plain(v) for v in node.literals]
    if node.op == "is_null":
        return value is None
    if node.op == "is_not_null":
        return value is not None
    if value is None:
        return False
    if node.op == "eq":
        return value == literals[0]
    if node.op == "ne":
        return value != literals[0]
    if node.op == "lt":
        return value < literals[0]
    if node.op == "le":
        return value <= literals[0]
    if node.op == "gt":
        return value > literals[0]
    if node.op == "ge":
        return value >= literals[0]
    if node.op == "in":
        return value in literals
    if node.op == "not_in":
        return value not in literals
    if node.op == "between":
        return literals[0] <= value <= literals[1]
    raise AssertionError(node.op)


def brute_force(table, predicate) -> list:
    """Rows of the latest snapshot satisfying `predicate`, via pypaimon's own reader."""
    meta = open_metadata(table)
    builder = meta.table.new_read_builder()
    everything = builder.new_read().to_arrow(builder.new_scan().plan().splits())
    bound = bind_to_schema(predicate, meta.schema())
    return [r for r in _rows(everything) if bound is None or _holds(bound, r)]


def _key(row):
    return tuple(sorted((k, repr(v)) for k, v in row.items()))


def assert_plan_matches_brute_force(table, predicate, **kwargs):
    plan = plan_read(table, predicate, **kwargs)
    got = _rows(read_plan(plan))
    want = brute_force(table, predicate)
    assert sorted(map(_key, got)) == sorted(map(_key, want)), (predicate, plan.summary())
    return plan, got


# ---------------------------------------------------------------- golden tables

SET_A = ["f0 = 'Bob'", "f0 = 'Nobody'", "f1 = 20", "f1 IN (10, 30)", "f2 IS NULL",
         "f2 IS NOT NULL", "f1 > 10", "f1 BETWEEN 5 AND 15", "f2 < 1", "f0 <> 'Tony'",
         "f0 NOT IN ('Bob', 'Alice')", "f0 = 'Bob' OR f2 IS NULL",
         "f0 = 'Tony' AND f2 = 0", "f3 > 15.0 AND f1 = 20", "f0 IN ('Lucy', 'Emily')"]
SET_B = ["f0 = 'Bob'", "f1 = 100", "f1 IN (20, 500)", "f1 IS NULL", "f2 IS NULL",
         "f1 > 100", "f1 <= 50", "f2 BETWEEN -2 AND 1", "f2 < 0", "f2 >= 2", "f4 IS NULL",
         "f4 = TIMESTAMP '2025-04-25 01:00:02.000123'",
         "f4 > TIMESTAMP '2025-04-25 01:00:02.000123'",
         "f4 < TIMESTAMP '1970-01-01 00:00:00'", "f1 = 100 AND f2 = 2",
         "f3 = 13.1 OR f1 = 500", "f0 NOT IN ('Bob')", "f1 <> 100"]
PK_SET = ["f0 = 'Alice'", "f0 = 'Lucy'", "f1 = 20", "f1 = 10", "f2 = 1", "f2 IS NULL",
          "key IN (0, 4, 5)", "f1 > 5", "key >= 0", "f0 IN ('Alice', 'Lucy', 'Bob')"]
ALTER_SET = ["f4 = 'Alice'", "f4 = 'Bob'", "f1 = 10", "f1 IN (20, 30)", "f5 = 100",
             "f5 IS NULL", "f4 = 'David' OR f1 = 20", "f3 > 20.0", "f1 = 3000000000",
             "f1 BETWEEN 15 AND 30"]
EVOLUTION_SET = ["f2 = 104", "f2 = 14", "f2 IN (202, 12)", "f2 IS NULL", "f0 = 'Bob'",
                 "f0 IS NULL", "f3 > 5.0", "f2 > 150", "f0 = 'Lily' AND f2 = 102"]

GOLDEN = {
    "append_with_bitmap": SET_A,
    "append_with_bitmap_v1": SET_A,
    "append_with_bitmap_no_embedding": SET_A,
    "append_with_bloomfilter": SET_B,
    "append_with_bsi": SET_B,
    "append_with_bsi_bitmap_bloomfilter": SET_B,
    "pk_with_bitmap_dv": PK_SET,
    "append_with_bitmap_alter_table": ALTER_SET,
    "data_evolution_with_index": EVOLUTION_SET,
}


@pytest.mark.parametrize("name,predicate",
                         [(n, p) for n, ps in GOLDEN.items() for p in ps])
def test_golden_plan_equals_brute_force(name, predicate):
    assert_plan_matches_brute_force(table_dir(name), predicate)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_full_read_without_predicate(name):
    plan, got = assert_plan_matches_brute_force(table_dir(name), None)
    assert plan.files_skipped == 0
    assert len(got) == plan.rows_selected


@pytest.mark.parametrize("name", ["append_with_bitmap", "append_with_bitmap_v1",
                                  "append_with_bitmap_no_embedding"])
@pytest.mark.parametrize("predicate,rows", [
    ("f0 = 'Bob'", [1, 5]), ("f1 IN (20)", [4, 6, 7]), ("f2 IS NULL", [7]),
    ("f0 = 'Alice' OR f2 IS NULL", [0, 7]), ("f0 = 'Tony' AND f1 = 20", [6])])
def test_bitmap_selection_is_exact(name, predicate, rows):
    plan = plan_read(table_dir(name), predicate)
    (only,) = plan.files
    assert only.answer == "ROWS"
    assert only.selection.tolist() == rows
    assert plan.rows_selected == len(rows)


@pytest.mark.parametrize("name", ["append_with_bloomfilter", "append_with_bsi",
                                  "append_with_bsi_bitmap_bloomfilter",
                                  "append_with_bitmap_no_embedding"])
def test_value_absent_from_every_file_skips_it(name):
    predicate = "f1 = 12345"
    plan, got = assert_plan_matches_brute_force(table_dir(name), predicate)
    assert plan.files_skipped == plan.files_total == 1
    assert got == []


def test_bsi_answers_ranges_with_rows():
    plan = plan_read(table_dir("append_with_bsi"), "f2 < 0")
    assert plan.files[0].answer == "ROWS"
    assert plan.files[0].selection.tolist() == [0, 1, 4, 6]


def test_sidecar_indexes_are_read_concurrently_with_same_answers():
    path = table_dir("append_with_bsi_bitmap_bloomfilter")
    serial = plan_read(path, "f0 = 'Bob' AND f2 < 0", max_workers=1)
    pooled = plan_read(path, "f0 = 'Bob' AND f2 < 0", max_workers=8)
    assert [f.selection.tolist() for f in serial.files] == [[1]]
    assert [f.selection.tolist() for f in pooled.files] == [[1]]
    assert serial.files[0].index_source == "sidecar"


def test_local_sidecars_are_planned_in_the_calling_thread(tmp_path, monkeypatch):
    """A thread pool pays off against a remote store's latency only: local sidecars and
    embedded indexes are read and evaluated without one."""
    from types import SimpleNamespace

    from pyfileindex.paimon import file_pool, planner

    def no_pool(*args, **kwargs):
        raise AssertionError("local sidecars were handed to a thread pool")

    table = _table_with_sidecars(tmp_path, "local_pool")
    write_table(table, events(40, 40))
    files = PaimonTableMetadata(table=table).data_files()
    assert len(files) == 2 and all(f.index_file_paths for f in files)
    assert planner._index_workers(files, 8) == 1
    remote = [SimpleNamespace(index_file_paths=("s3://bucket/t/bucket-0/a.parquet.index",))]
    embedded = [SimpleNamespace(index_file_paths=())]
    assert planner._index_workers(files + remote, 8) == 8
    assert planner._index_workers(embedded, 8) == 1
    monkeypatch.setattr(file_pool, "ThreadPoolExecutor", no_pool)
    plan = plan_read(table, "category = 'c2'", max_workers=8)
    assert len(plan.files) == 2 and all(f.answer == "ROWS" for f in plan.files)


# ---- primary keys with deletion vectors


@pytest.mark.parametrize("predicate", [None] + PK_SET)
def test_pk_with_dv_never_returns_deleted_keys(predicate):
    plan, got = assert_plan_matches_brute_force(table_dir("pk_with_bitmap_dv"), predicate)
    keys = {row["key"] for row in got}
    assert not keys & {0, 4}
    for file_plan in plan.files:
        if file_plan.selection is not None:
            assert not set(file_plan.selection.tolist()) & {0, 4}


def test_pk_with_dv_selection_removes_deleted_rows_from_index_answer():
    plan = plan_read(table_dir("pk_with_bitmap_dv"), "f0 = 'Alice'")
    # The bitmap says rows 0 and 7; row 0 (key 0) is deleted.
    assert plan.files[0].selection.tolist() == [7]
    plan = plan_read(table_dir("pk_with_bitmap_dv"), "f0 = 'Lucy'")
    assert plan.files_skipped == 1  # only deleted row 4 matched
    plan = plan_read(table_dir("pk_with_bitmap_dv"), None)
    assert plan.files[0].selection.tolist() == [1, 2, 3, 5, 6, 7]
    assert plan.rows_total == 6


# ---- schema evolution


def test_schema_evolution_answers_by_field_id():
    path = table_dir("append_with_bitmap_alter_table")
    old, new = plan_read(path, "f4 = 'Alice'").files
    assert old.file.schema_id == 0 and new.file.schema_id == 1
    # f4 was f0 in the old file: its index is asked under the old name.
    assert old.answer == "ROWS" and old.selection.tolist() == [0, 7]
    assert new.selection.tolist() == [0]
    # f1 INT -> BIGINT: literals inside INT range are asked of the old INT index.
    old, new = plan_read(path, "f1 IN (20, 30)").files
    assert old.selection.tolist() == [4, 6, 7]
    assert new.selection.tolist() == [0, 1, 3]
    # Out of the old INT range: REMAIN for the old file, never a wrong SKIP.
    old, _ = plan_read(path, "f1 = 3000000000").files
    assert old.answer == "REMAIN" and not old.skipped
    # f5 was added later: the old file has no such field -> REMAIN, rows filled with NULL.
    plan, got = assert_plan_matches_brute_force(path, "f5 IS NULL")
    assert plan.files[0].answer == "REMAIN"
    assert sorted(r["f4"] for r in got) == sorted(
        ["Alice", "Bob", "Emily", "Tony", "Lucy", "Bob", "Tony", "Alice", "David"])


def test_schema_evolution_read_projects_to_current_schema():
    table = read_plan(plan_read(table_dir("append_with_bitmap_alter_table"), "f4 = 'Bob'"))
    assert table.column_names == ["f1", "f4", "f3", "f5"]
    assert table.schema.field("f1").type == pa.int64()
    pairs = zip(table.column("f1").to_pylist(), table.column("f5").to_pylist())
    assert sorted(pairs, key=repr) == [(10, 100), (10, None), (10, None)]


def test_data_evolution_groups_skip_by_newest_writer():
    path = table_dir("data_evolution_with_index")
    # 14 is an overwritten (stale) value of f2: the newest writer decides, nothing matches.
    plan, got = assert_plan_matches_brute_force(path, "f2 = 14")
    assert got == [] and plan.files_skipped == plan.files_total
    plan, got = assert_plan_matches_brute_force(path, "f2 = 104")
    assert [r["f0"] for r in got] == ["Alice"]
    assert plan.rows_selected == 1


def test_limit_and_top_n():
    path = table_dir("append_with_bitmap")
    plan = plan_read(path, None, limit=3)
    assert plan.files[0].selection.tolist() == [0, 1, 2]
    assert read_plan(plan).num_rows == 3
    got = read_plan(plan_read(path, "f1 = 10", limit=2))
    assert got.num_rows == 2 and set(got.column("f1").to_pylist()) == {10}
    top = read_plan(plan_read(path, None, top_n=("f3", 2, True)))
    assert top.column("f3").to_pylist() == [18.1, 17.1]


def test_projection_and_dsl_predicates():
    path = table_dir("append_with_bitmap")
    got = read_plan(plan_read(path, col("f0").isin(["Bob", "Lucy"]) & (col("f1") == 10)),
                    columns=["f3"])
    assert got.column_names == ["f3"]
    assert sorted(got.column("f3").to_pylist()) == [12.1, 16.1]


# ---------------------------------------------------------------- writing


def _catalog(tmp_path):
    from pypaimon import CatalogFactory
    catalog = CatalogFactory.create({"warehouse": str(tmp_path / "warehouse")})
    catalog.create_database("db", False)
    return catalog


ROWS = 300
def _create(catalog, name, options):
    from pypaimon import Schema
    catalog.create_table(f"db.{name}", Schema.from_pyarrow_schema(EVENT_SCHEMA, options=options),
                         False)
    return catalog.get_table(f"db.{name}")


INDEX_OPTIONS = {
    "bitmap": {"file-index.bitmap.columns": "category,level,tag"},
    "bloom": {"file-index.bloom-filter.columns": "id,tag",
              "file-index.bloom-filter.id.items": "500"},
    "bsi": {"file-index.bsi.columns": "id,level,ts"},
    "range": {"file-index.range-bitmap.columns": "id,score,ts,category"},
    "mixed": {"file-index.bitmap.columns": "category", "file-index.bsi.columns": "level",
              "file-index.range-bitmap.columns": "score",
              "file-index.bloom-filter.columns": "tag",
              "file-index.bloom-filter.tag.items": "50"},
}
WRITE_PREDICATES = [
    "id = 17", "id = 100000", "id IN (3, 250, 777)", "category = 'c2'", "category IN ('c0', 'c4')",
    "level = 3", "level > 4", "level BETWEEN 2 AND 3", "score IS NULL", "score > 30.0",
    "score <= 1.0", "tag IS NULL", "tag = 't5'", "tag = 'missing'",
    "ts >= TIMESTAMP '2023-11-14 22:15:00'", "ts < TIMESTAMP '2023-11-14 22:13:25'",
    "id >= 450", "category = 'c1' AND level = 1", "tag = 't1' OR id = 5",
    "category NOT IN ('c1', 'c2')", "level <> 3",
]


@pytest.mark.parametrize("kind", sorted(INDEX_OPTIONS))
def test_write_then_plan_round_trip(tmp_path, kind):
    catalog = _catalog(tmp_path)
    table = _create(catalog, kind, INDEX_OPTIONS[kind])
    assert write_table(table, events(0, ROWS)) == 1
    assert write_table(table, [events(ROWS, 200).to_batches()[0]]) == 2
    meta = PaimonTableMetadata(table=table)
    files = meta.data_files()
    assert len(files) == 2
    for data_file in files:
        index = meta.index_bytes(data_file)
        assert index is not None
        # The written index equals what our writer builds from the data file itself.
        assert index == build_file_index(meta, data_file)
        rows = pq.read_table(meta.filesystem_path(data_file.path))
        fields = [(f.name, f.type) for f in meta.schema().fields]
        assert index == pfi.build_index(rows, fields, meta.schema().options)
        in_manifest = data_file.embedded_index is not None
        assert in_manifest == (len(index) <= 500)
        assert data_file.index_file_names == (() if in_manifest else
                                              (data_file.file_name + ".index",))
    for predicate in WRITE_PREDICATES:
        assert_plan_matches_brute_force(table, predicate)
    plan = plan_read(table, "id = 17")
    if kind in ("bloom", "bsi", "range"):
        assert plan.files_skipped == 1  # id 17 is only in the first file
    plan = plan_read(table, "id = 100000")
    if kind != "bitmap" and kind != "mixed":
        assert plan.files_skipped == 2


def test_embedded_versus_sidecar_threshold(tmp_path):
    catalog = _catalog(tmp_path)
    small = _create(catalog, "small", {"file-index.bitmap.columns": "level"})
    write_table(small, events(0, 20))
    (f,) = PaimonTableMetadata(table=small).data_files()
    assert f.embedded_index is not None and len(f.embedded_index) <= 500
    assert f.extra_files == ()
    exact = len(f.embedded_index)

    at = _create(catalog, "at", {"file-index.bitmap.columns": "level",
                                 "file-index.in-manifest-threshold": f"{exact} b"})
    write_table(at, events(0, 20))
    (f,) = PaimonTableMetadata(table=at).data_files()
    assert f.embedded_index is not None and len(f.embedded_index) == exact

    below = _create(catalog, "below", {"file-index.bitmap.columns": "level",
                                       "file-index.in-manifest-threshold": f"{exact - 1}"})
    write_table(below, events(0, 20))
    meta = PaimonTableMetadata(table=below)
    (f,) = meta.data_files()
    assert f.embedded_index is None
    assert f.extra_files == (f.file_name + ".index",)
    assert len(meta.index_bytes(f)) == exact
    assert not [n for n in os.listdir(os.path.dirname(meta.filesystem_path(f.path)))
                if n.endswith(".tmp")]


def test_table_without_index_options_gets_no_index(tmp_path):
    table = _create(_catalog(tmp_path), "plain", {})
    write_table(table, events(0, 50))
    (f,) = PaimonTableMetadata(table=table).data_files()
    assert f.embedded_index is None and f.extra_files == ()
    assert_plan_matches_brute_force(table, "level = 2")


def _table_with_sidecars(tmp_path, name):
    """A table whose bitmap indexes go to sidecar files, after one commit of 40 events."""
    table = _create(_catalog(tmp_path), name, {"file-index.bitmap.columns": "category",
                                               "file-index.in-manifest-threshold": "1b"})
    write_table(table, events(0, 40))
    return table


def _second_write_with_commit(table, monkeypatch, commit, error_match):
    """Writes 40 more events with BatchTableCommit.commit replaced by `commit`, which must
    raise an OSError matching `error_match`; the table's metadata afterwards."""
    from pypaimon.write.table_commit import BatchTableCommit
    monkeypatch.setattr(BatchTableCommit, "commit", commit)
    with pytest.raises(OSError, match=error_match):
        write_table(table, events(40, 40))
    monkeypatch.undo()
    return PaimonTableMetadata(table=table)


def test_failed_commit_leaves_no_referenced_missing_file(tmp_path, monkeypatch):
    table = _table_with_sidecars(tmp_path, "fail")

    def broken(self, messages, snapshot_properties=None):
        raise OSError("injected commit failure")

    meta = _second_write_with_commit(table, monkeypatch, broken, "injected")
    assert meta.snapshot().id == 1
    bucket = os.path.dirname(meta.filesystem_path(meta.data_files()[0].path))
    on_disk = sorted(os.listdir(bucket))
    (live,) = meta.data_files()
    # Files of the failed write were removed (the commit certainly did not land).
    assert on_disk == sorted([live.file_name, live.file_name + ".index"])
    for data_file in meta.data_files():
        for path in data_file.extra_file_paths:
            assert os.path.exists(meta.filesystem_path(path))


def test_commit_that_lands_and_then_fails_keeps_its_files(tmp_path, monkeypatch):
    from pypaimon.write.table_commit import BatchTableCommit
    table = _table_with_sidecars(tmp_path, "landed")
    real_commit = BatchTableCommit.commit

    def lands_then_fails(self, messages, *args, **kwargs):
        real_commit(self, messages, *args, **kwargs)
        raise OSError("injected failure after the snapshot was written")

    meta = _second_write_with_commit(table, monkeypatch, lands_then_fails, "after the snapshot")
    assert meta.snapshot().id == 2
    files = meta.data_files()
    assert len(files) == 2 and sum(f.row_count for f in files) == 80
    # The snapshot references them, so none of them may have been deleted.
    for data_file in files:
        assert os.path.exists(meta.filesystem_path(data_file.path))
        for path in data_file.extra_file_paths:
            assert os.path.exists(meta.filesystem_path(path))
    assert_plan_matches_brute_force(table, "category = 'c1'")


# ---------------------------------------------------------------- rewriting


def _run_token(data_file, name):
    """The run token in a rewritten sidecar's name `<data file>-<token>.index`."""
    prefix, suffix = data_file.file_name + "-", ".index"
    assert name.startswith(prefix) and name.endswith(suffix), name
    return name[len(prefix):-len(suffix)]


def test_rewritten_sidecar_names_carry_the_run_token():
    assert rewritten_index_file_name("data-a-b-0.parquet", "0f1e2d3c4b5a6978") == \
        "data-a-b-0.parquet-0f1e2d3c4b5a6978.index"


class _TwoFileTable:
    """An append table "db.<name>" without indexes, written in two commits (70 events in two
    data files), with its options changed through the catalog."""

    def __init__(self, tmp_path, name):
        self.catalog = _catalog(tmp_path)
        self.name = f"db.{name}"
        table = _create(self.catalog, name, {})
        write_table(table, events(0, 40))
        write_table(table, events(40, 30))

    def current(self):
        return self.catalog.get_table(self.name)

    def files(self):
        return PaimonTableMetadata(table=self.current()).data_files()

    def set_option(self, key, value):
        from pypaimon.schema.schema_change import SchemaChange
        self.catalog.alter_table(self.name, [SchemaChange.set_option(key, value)], False)


def test_rewrite_file_index_lifecycle(tmp_path):
    table = _TwoFileTable(tmp_path, "rw")
    current, files = table.current, table.files

    assert rewrite_file_index(current()).snapshot_id is None  # no options: nothing to do

    table.set_option("file-index.bitmap.columns", "level")
    result = rewrite_file_index(current())
    assert result.files_rewritten == 2 and result.snapshot_id == 3
    snapshot = PaimonTableMetadata(table=current()).snapshot()
    assert snapshot.commit_kind == "COMPACT"
    assert all(f.embedded_index is not None for f in files())
    for predicate in ("level = 3", "level IN (1, 6)", "category = 'c1'"):
        assert_plan_matches_brute_force(current(), predicate)

    again = rewrite_file_index(current())  # same options: nothing changes, no new snapshot
    assert again.snapshot_id is None and again.files_unchanged == 2

    table.set_option("file-index.in-manifest-threshold", "1b")
    rewrite_file_index(current())
    first = files()
    assert all(f.embedded_index is None and len(f.extra_files) == 1 for f in first)
    first_tokens = {_run_token(f, f.extra_files[0]) for f in first}
    assert len(first_tokens) == 1  # one token per run

    table.set_option("file-index.bitmap.columns", "level,category")
    result = rewrite_file_index(current())
    second = files()
    second_tokens = {_run_token(f, f.extra_files[0]) for f in second}
    assert len(second_tokens) == 1 and second_tokens != first_tokens
    (token,) = second_tokens
    assert len(result.new_sidecars) == 2
    assert all(p.endswith(f"-{token}.index") for p in result.new_sidecars)
    meta = PaimonTableMetadata(table=current())
    for data_file in second:
        assert meta.index_bytes(data_file) == build_file_index(meta, data_file)
    plan, _ = assert_plan_matches_brute_force(current(), "category = 'c3' AND level = 3")
    assert [f.answer for f in plan.files] == ["ROWS", "SKIP"]
    # The previous sidecars stay: snapshot 4 still references them.
    for data_file in first:
        assert os.path.exists(meta.filesystem_path(data_file.extra_file_paths[0]))
    assert remove_orphan_index_files(current(), older_than_seconds=0) == []
    # An unreferenced sidecar (e.g. from a failed rewrite) is removed by orphan cleanup.
    stray = meta.filesystem_path(second[0].path) + "-7.index"
    Path(stray).write_bytes(b"junk")
    assert remove_orphan_index_files(current(), older_than_seconds=0) == [
        os.path.normpath(stray)]
    assert not os.path.exists(stray)
    # Time travel to the snapshot before the rewrite still reads with the old sidecars.
    old_plan = plan_read(current(), "level = 3", snapshot_id=4)
    assert [f.file.extra_files for f in old_plan.files] == [f.extra_files for f in first]


def _directory_names(meta, data_file):
    return sorted(os.listdir(os.path.dirname(meta.filesystem_path(data_file.path))))


def test_rewrite_never_replaces_a_file_under_its_sidecar_name(tmp_path, monkeypatch):
    from pyfileindex.paimon import rewrite
    table = _TwoFileTable(tmp_path, "taken")
    table.set_option("file-index.in-manifest-threshold", "1b")
    table.set_option("file-index.bitmap.columns", "level")
    meta = PaimonTableMetadata(table=table.current())
    data_file = table.files()[0]
    # Java's names for the file's sidecars, taken by someone else: never touched.
    java_name = meta.filesystem_path(data_file.path) + ".index"
    Path(java_name).write_bytes(b"someone else's bytes")
    # The name this run will pick (its token forced), taken too: an error, not a replace.
    monkeypatch.setattr(rewrite, "new_run_token", lambda: "00000000feedbeef")
    taken = meta.filesystem_path(data_file.path) + "-00000000feedbeef.index"
    Path(taken).write_bytes(b"and these")
    with pytest.raises(PaimonMetadataError, match="already exists.*not replaced"):
        rewrite_file_index(table.current(), max_workers=1)
    assert Path(taken).read_bytes() == b"and these"
    assert PaimonTableMetadata(table=table.current()).snapshot().id == meta.snapshot().id
    monkeypatch.undo()

    assert rewrite_file_index(table.current()).files_rewritten == 2
    assert Path(java_name).read_bytes() == b"someone else's bytes"
    assert Path(taken).read_bytes() == b"and these"
    meta = PaimonTableMetadata(table=table.current())
    for data_file in table.files():
        assert meta.index_bytes(data_file) == build_file_index(meta, data_file)
        assert not [n for n in _directory_names(meta, data_file) if n.endswith(".tmp")]


def test_a_rewrite_that_fails_leaves_no_new_sidecar(tmp_path, monkeypatch):
    from pyfileindex.paimon import _pypaimon_write
    table = _TwoFileTable(tmp_path, "fails")
    table.set_option("file-index.in-manifest-threshold", "1b")
    table.set_option("file-index.bitmap.columns", "level")
    meta = PaimonTableMetadata(table=table.current())
    before = _directory_names(meta, table.files()[0])

    def refuse(*args, **kwargs):
        raise RuntimeError("commit refused")
    monkeypatch.setattr(_pypaimon_write, "commit_compact", refuse)
    with pytest.raises(RuntimeError, match="commit refused"):
        rewrite_file_index(table.current())
    assert _directory_names(meta, table.files()[0]) == before
    monkeypatch.undo()

    # A data file that cannot be read fails the build after the other file's sidecar
    # may already be written: that one goes again too.
    broken = meta.filesystem_path(table.files()[1].path)
    Path(broken).write_bytes(b"not parquet")
    with pytest.raises(Exception):
        rewrite_file_index(table.current(), max_workers=1)
    assert _directory_names(meta, table.files()[0]) == before
    assert PaimonTableMetadata(table=table.current()).snapshot().id == meta.snapshot().id


def test_rewrite_back_to_an_earlier_index_keeps_every_file(tmp_path):
    """Removing the indexes a rewrite added gives each file its original manifest identity
    (no extra files, no embedded index) again, an identity an earlier snapshot DELETEd: the
    manifests must be merged in order (Java's FileEntry.mergeEntries) to keep those files."""
    table = _TwoFileTable(tmp_path, "back")
    current, files = table.current, table.files

    original = sorted(f.file_name for f in files())
    assert len(original) == 2 and all(f.embedded_index is None for f in files())
    table.set_option("file-index.bitmap.columns", "level")
    assert rewrite_file_index(current()).files_rewritten == 2
    assert all(f.embedded_index is not None for f in files())
    table.set_option("file-index.bitmap.columns", "")
    assert rewrite_file_index(current()).files_rewritten == 2
    assert sorted(f.file_name for f in files()) == original
    assert all(f.embedded_index is None and not f.extra_files for f in files())
    # (pypaimon 2.1's own reader loses these files, so the data itself is the reference.)
    plan = plan_read(current(), "level = 3")
    assert len(plan.files) == 2 and plan.files_skipped == 0  # no index left to skip with
    got = read_plan(plan).column("id").to_pylist()
    rows = events(0, 70)
    assert sorted(got) == [i for i, level in zip(rows["id"].to_pylist(),
                                                 rows["level"].to_pylist()) if level == 3]


def test_rewrite_only_selected_partitions(tmp_path):
    from pypaimon import Schema
    from pypaimon.schema.schema_change import SchemaChange
    catalog = _catalog(tmp_path)
    schema = pa.schema([("part", pa.string()), ("v", pa.int32())])
    catalog.create_table("db.parts", Schema.from_pyarrow_schema(schema, partition_keys=["part"]),
                         False)
    table = catalog.get_table("db.parts")
    write_table(table, pa.table({"part": ["a"] * 5 + ["b"] * 5,
                                 "v": pa.array(range(10), pa.int32())}, schema=schema))
    catalog.alter_table("db.parts", [SchemaChange.set_option("file-index.bitmap.columns", "v")],
                        False)
    result = rewrite_file_index(catalog.get_table("db.parts"), where="part = 'b'")
    assert result.files_rewritten == 1 and result.partitions == 1
    meta = PaimonTableMetadata(table=catalog.get_table("db.parts"))
    indexed = {f.partition["part"]: f.embedded_index is not None for f in meta.data_files()}
    assert indexed == {"a": False, "b": True}
    assert_plan_matches_brute_force(catalog.get_table("db.parts"), "v = 7")


# ---------------------------------------------------------------- Java byte identity


@pytest.mark.java
def test_written_index_bytes_equal_java(tmp_path):
    from java_harness import shared_harness
    harness = shared_harness()
    table = _create(_catalog(tmp_path), "java", INDEX_OPTIONS["mixed"])
    write_table(table, events(0, 200))
    meta = PaimonTableMetadata(table=table)
    (data_file,) = meta.data_files()
    rows = pq.read_table(meta.filesystem_path(data_file.path))
    columns = {name: rows.column(name).to_pylist() for name in rows.column_names}
    columns["ts"] = [v * 1000 for v in rows.column("ts").cast(pa.int64()).to_pylist()]
    fields = [(f.name, f.type) for f in meta.schema().fields]
    assert meta.index_bytes(data_file) == harness.write(fields, columns, meta.schema().options)
