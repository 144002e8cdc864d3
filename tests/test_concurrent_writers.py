"""Concurrent writers on one table lose nothing, on a local disk and on S3 (moto).

Races are staged where they matter: a run has written its sidecars and is about to commit
when the other writer commits (two index rewrites; a rewrite and an append, both ways
round), plus two rewrites committing at the same moment from two threads. Afterwards:
exactly the expected commits landed, a losing rewrite failed with CommitConflictError and
left nothing behind, every live data file's index is the one the current options build
and answers as brute force does, and after the orphan clean-up (which also takes the
leftovers of a killed writer) every sidecar on the store is referenced by a snapshot.
"""

from __future__ import annotations

import os
import threading
import uuid

import pyarrow.compute as pc
import pytest

from pyfileindex.paimon import (
    CommitConflictError,
    PaimonTableMetadata,
    build_file_index,
    plan_read,
    read_plan,
    remove_orphan_index_files,
    rewrite_file_index,
    write_table,
)
from pyfileindex.paimon import _pypaimon, _pypaimon_write
from pyfileindex.paimon.store import list_files
from pyfileindex.paimon.writer import new_indexed_write

from event_rows import UNTIMED_SCHEMA as SCHEMA
from event_rows import untimed_events as events

WHERE = ["local", pytest.param("s3", marks=pytest.mark.s3)]
CHECKS = [("level", 3), ("category", "c2"), ("level", 6)]


class Table:
    """db.t with bitmap sidecars on `level`, two data files; the options then ask for
    `level,category`, so a rewrite changes every file's sidecar."""

    def __init__(self, where: str, tmp_path, request):
        from pypaimon import CatalogFactory, Schema
        from pypaimon.schema.schema_change import SchemaChange

        if where == "s3":
            options = dict(request.getfixturevalue("s3_warehouse"))
        else:
            options = {"warehouse": str(tmp_path / "warehouse")}
        self.catalog = CatalogFactory.create(options)
        self.catalog.create_database("db", True)
        self.catalog.create_table("db.t", Schema.from_pyarrow_schema(SCHEMA, options={
            "file-index.bitmap.columns": "level",
            "file-index.in-manifest-threshold": "1b"}), False)
        write_table(self.open(), events(0, 60))
        write_table(self.open(), events(60, 40))
        self.catalog.alter_table("db.t", [SchemaChange.set_option(
            "file-index.bitmap.columns", "level,category")], False)

    def open(self):
        """A fresh table object, as another writer would have."""
        return self.catalog.get_table("db.t")

    def meta(self) -> PaimonTableMetadata:
        return PaimonTableMetadata(table=self.open())


def _sidecars_on_store(meta: PaimonTableMetadata) -> set:
    """Paths (as the filesystem names them) of every *.index file in the data dirs."""
    found = set()
    for directory in {f.path.rsplit("/", 1)[0] for f in meta.data_files()}:
        for name, _ in list_files(meta.table.file_io, directory):
            if name.endswith(".index") or name.endswith(".tmp"):
                found.add(meta.filesystem_path(f"{directory}/{name}"))
    return found


def _referenced(meta: PaimonTableMetadata) -> set:
    referenced = set()
    for snapshot_id in range(1, meta.snapshot().id + 1):
        for f in meta.data_files(snapshot_id):
            referenced.update(meta.filesystem_path(p) for p in f.extra_file_paths)
    return referenced


def assert_nothing_lost(table: Table, rows: int) -> None:
    """Every row is there; every live file's index is what the current options build and
    answers as brute force; after the orphan clean-up each sidecar is referenced."""
    meta = table.meta()
    files = meta.data_files()
    assert sum(f.row_count for f in files) == rows
    for data_file in files:
        assert data_file.index_file_names, data_file.file_name
        assert meta.index_bytes(data_file) == build_file_index(meta, data_file)
    everything = _pypaimon.read_merged(meta.table, None, SCHEMA.names)
    assert everything.num_rows == rows
    for column, value in CHECKS:
        plan = plan_read(meta, f"{column} = {value!r}" if isinstance(value, str)
                         else f"{column} = {value}")
        got = sorted(read_plan(plan).column("id").to_pylist())
        want = sorted(everything.filter(pc.equal(everything[column], value))
                      .column("id").to_pylist())
        assert got == want, (column, value)
    remove_orphan_index_files(meta, older_than_seconds=0)
    assert _sidecars_on_store(meta) <= _referenced(meta)


def _kill_leftovers(meta: PaimonTableMetadata) -> list:
    """What a writer killed mid-way leaves next to a data file: a partial temporary file
    (local disks) and a sidecar no commit references (any store)."""
    data_file = meta.data_files()[0]
    directory, name = data_file.path.rsplit("/", 1)
    paths = [f"{directory}/{name}-{uuid.uuid4().hex[:16]}.index",
             f"{directory}/.{name}-{uuid.uuid4().hex[:16]}.index.{uuid.uuid4().hex}.tmp"]
    for path in paths:
        with meta.table.file_io.new_output_stream(path) as out:
            out.write(b"PARTIAL")
    return [meta.filesystem_path(p) for p in paths]


@pytest.mark.parametrize("where", WHERE)
def test_a_rewrite_losing_to_another_rewrite_fails_cleanly(where, tmp_path, request,
                                                           monkeypatch):
    table = Table(where, tmp_path, request)
    base = table.meta().snapshot().id
    real_commit = _pypaimon_write.commit_compact
    winners = []

    def other_rewrite_commits_first(*args, **kwargs):
        if not winners:  # the first run to commit lets a whole second run go first
            monkeypatch.setattr(_pypaimon_write, "commit_compact", real_commit)
            winners.append(rewrite_file_index(table.open()))
        return real_commit(*args, **kwargs)

    monkeypatch.setattr(_pypaimon_write, "commit_compact", other_rewrite_commits_first)
    with pytest.raises(CommitConflictError, match="concurrent commit") as info:
        rewrite_file_index(table.open())
    (winner,) = winners
    assert winner.snapshot_id == base + 1 and winner.files_rewritten == 2
    assert "Run it again" in str(info.value)
    meta = table.meta()
    assert meta.snapshot().id == base + 1  # the loser committed nothing
    # The loser's sidecars are gone already; only the winner's and the old ones remain.
    assert _sidecars_on_store(meta) == _referenced(meta)
    assert {meta.filesystem_path(p) for f in meta.data_files() for p in f.extra_file_paths} \
        == {meta.filesystem_path(p) for p in winner.new_sidecars}

    leftovers = _kill_leftovers(meta)
    assert set(leftovers) <= _sidecars_on_store(meta)
    assert_nothing_lost(table, 100)
    assert not set(leftovers) & _sidecars_on_store(meta)
    # The losing run, run again, finds nothing left to do.
    assert rewrite_file_index(table.open()).snapshot_id is None


@pytest.mark.parametrize("where", WHERE)
def test_a_rewrite_and_an_append_both_land(where, tmp_path, request, monkeypatch):
    table = Table(where, tmp_path, request)
    base = table.meta().snapshot().id
    real_commit = _pypaimon_write.commit_compact
    appended = []

    def append_commits_first(*args, **kwargs):
        appended.append(write_table(table.open(), events(100, 30)))
        return real_commit(*args, **kwargs)

    monkeypatch.setattr(_pypaimon_write, "commit_compact", append_commits_first)
    result = rewrite_file_index(table.open())
    assert appended == [base + 1] and result.snapshot_id == base + 2
    assert result.files_rewritten == 2
    assert_nothing_lost(table, 130)


@pytest.mark.parametrize("where", WHERE)
def test_an_append_committing_after_a_rewrite_lands(where, tmp_path, request):
    table = Table(where, tmp_path, request)
    base = table.meta().snapshot().id
    # The append has written its data files and sidecars; the rewrite commits before it.
    write, commit = new_indexed_write(table.open())
    try:
        write.write_arrow(events(100, 30))
        messages = write.prepare_commit()
        result = rewrite_file_index(table.open())
        assert result.snapshot_id == base + 1 and result.files_rewritten == 2
        assert _pypaimon_write.commit_or_abort(table.open(), commit, messages) == base + 2
    finally:
        write.close()
        commit.close()
    assert_nothing_lost(table, 130)


def test_two_rewrites_committing_at_once_from_two_threads(tmp_path, request, monkeypatch):
    """On a local disk two commits of one process really race for the next snapshot:
    pypaimon creates a snapshot file by a rename under a process-wide lock."""
    table = Table("local", tmp_path, request)
    base = table.meta().snapshot().id
    real_commit = _pypaimon_write.commit_compact
    both_built = threading.Barrier(2, timeout=60)

    def commit_together(*args, **kwargs):
        both_built.wait()
        return real_commit(*args, **kwargs)

    monkeypatch.setattr(_pypaimon_write, "commit_compact", commit_together)
    outcomes = [None, None]

    def run(slot: int) -> None:
        try:
            outcomes[slot] = rewrite_file_index(table.open())
        except BaseException as exc:  # noqa: BLE001 - the outcome is what the test checks
            outcomes[slot] = exc

    threads = [threading.Thread(target=run, args=(slot,)) for slot in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads)
    conflicts = [o for o in outcomes if isinstance(o, CommitConflictError)]
    wins = [o for o in outcomes if not isinstance(o, BaseException)]
    assert len(conflicts) == 1 and len(wins) == 1, outcomes
    assert wins[0].snapshot_id == base + 1
    meta = table.meta()
    assert meta.snapshot().id == base + 1
    assert _sidecars_on_store(meta) == _referenced(meta)
    assert_nothing_lost(table, 100)


def test_orphan_cleanup_keeps_temporary_files_of_other_kinds(tmp_path, request):
    table = Table("local", tmp_path, request)
    meta = table.meta()
    directory = os.path.dirname(meta.filesystem_path(meta.data_files()[0].path))
    kept = [os.path.join(directory, ".data.parquet." + uuid.uuid4().hex + ".tmp"),
            os.path.join(directory, ".x.index.not-hex.tmp")]
    for path in kept:
        with open(path, "wb") as out:
            out.write(b"x")
    removed = _kill_leftovers(meta)
    assert sorted(remove_orphan_index_files(meta, older_than_seconds=0)) == sorted(
        os.path.normpath(p) for p in removed)
    assert all(os.path.exists(p) for p in kept)
