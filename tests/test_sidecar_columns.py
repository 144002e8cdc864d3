"""Sidecars known to index none of a query's columns are left unread (sidecar_columns.py),
and what is remembered can only ever cost pruning, never an answer."""

from __future__ import annotations

import os
import sys

import pyarrow as pa
import pytest

sys.path.insert(0, os.path.dirname(__file__))
from event_rows import EVENT_SCHEMA, events  # noqa: E402

from pyfileindex.paimon import prune, write_table  # noqa: E402
from pyfileindex.paimon import ranged, sidecar_columns  # noqa: E402

INDEXES = {"file-index.bitmap.columns": "category",
           "file-index.range-bitmap.columns": "id",
           "file-index.in-manifest-threshold": "1b"}  # sidecars
SCHEMA = EVENT_SCHEMA.append(pa.field("note", pa.string()))  # no index
FILES = 3


@pytest.fixture(autouse=True)
def _fresh_memory():
    sidecar_columns.forget_all()
    yield
    sidecar_columns.forget_all()


@pytest.fixture
def opened(monkeypatch):
    """The paths of the sidecars the planner opens."""
    paths = []
    real = ranged.open_input

    def counting(file_io, path):
        paths.append(path)
        return real(file_io, path)

    monkeypatch.setattr(ranged, "open_input", counting)
    return paths


@pytest.fixture
def table(tmp_path):
    from pypaimon import CatalogFactory, Schema
    catalog = CatalogFactory.create({"warehouse": str(tmp_path / "warehouse")})
    catalog.create_database("db", False)
    catalog.create_table("db.t", Schema.from_pyarrow_schema(SCHEMA, options=INDEXES), False)
    table = catalog.get_table("db.t")
    for start in range(0, FILES * 100, 100):
        rows = events(start, 100)
        notes = pa.array([f"n{i % 7}" for i in range(start, start + 100)], pa.string())
        write_table(table, rows.append_column("note", notes))
    return table


def _builder(table, method, *args):
    builder = table.new_read_builder()
    return builder.with_filter(getattr(builder.new_predicate_builder(), method)(*args))


def _rows(builder, splits) -> list:
    return sorted(builder.new_read().to_arrow(splits).column("id").to_pylist())


def _unpruned(builder) -> list:
    return _rows(builder, builder.new_scan().plan().splits())


def test_a_query_on_an_unindexed_column_reads_each_sidecar_once(table, opened):
    builder = _builder(table, "equal", "note", "n3")
    first = prune(builder)
    assert len(opened) == FILES and len(set(opened)) == FILES
    assert first.files_skipped == 0 and _rows(builder, first) == _unpruned(builder)

    opened.clear()
    again = prune(_builder(table, "equal", "note", "n3"))
    assert opened == []  # every sidecar is known to hold no index on `note`
    assert again.files_skipped == 0 and _rows(builder, again) == _unpruned(builder)


def test_a_query_on_an_indexed_column_still_reads_and_prunes(table, opened):
    prune(_builder(table, "equal", "note", "n3"))  # remembers every sidecar
    opened.clear()
    builder = _builder(table, "equal", "id", 150)
    splits = prune(builder)
    assert len(opened) == FILES
    assert splits.files_skipped == FILES - 1
    assert _rows(builder, splits) == [150] == _unpruned(builder)


def test_a_stale_memory_costs_pruning_never_rows(table, opened):
    builder = _builder(table, "equal", "id", 150)
    prune(builder)
    for path in set(opened):  # as if each sidecar had since been replaced by another
        sidecar_columns.remember(path, {"category"})
    opened.clear()
    splits = prune(builder)
    assert opened == []
    assert splits.files_skipped == 0  # unread sidecars answer nothing: every file is read
    assert _rows(builder, splits) == [150] == _unpruned(builder)

    sidecar_columns.forget_all()
    assert prune(builder).files_skipped == FILES - 1


def test_a_sidecar_is_known_only_once_its_header_was_read():
    assert not sidecar_columns.indexes_none_of("mem://a.index", {"x"})
    sidecar_columns.remember("mem://a.index", {"x", "m[k]"})
    assert not sidecar_columns.indexes_none_of("mem://a.index", {"x", "y"})
    assert not sidecar_columns.indexes_none_of("mem://a.index", {"m[k]"})
    assert sidecar_columns.indexes_none_of("mem://a.index", {"y", "m[j]"})
    assert sidecar_columns.indexes_none_of("mem://a.index", set())


def test_the_least_recently_used_sidecars_are_forgotten_first(monkeypatch):
    monkeypatch.setattr(sidecar_columns, "MAX_SIDECARS", 2)
    sidecar_columns.remember("a", {"x"})
    sidecar_columns.remember("b", {"x"})
    assert sidecar_columns.indexes_none_of("a", {"y"})  # "a" is now the most recent
    sidecar_columns.remember("c", {"x"})
    assert sidecar_columns.indexes_none_of("a", {"y"})
    assert sidecar_columns.indexes_none_of("c", {"y"})
    assert not sidecar_columns.indexes_none_of("b", {"y"})  # forgotten: not known
