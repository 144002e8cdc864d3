"""The table layer on an S3-compatible store (moto on 127.0.0.1, tests/s3_server.py).

Each test builds the same table twice, on a local warehouse and on an s3:// warehouse,
through pypaimon catalogs with the same options and writes, and checks that every
operation gives the same answers on both: plans (skipped files, selected rows), reads,
rewritten sidecars (byte-equal), orphan clean-up. Errors on the store name the bucket and
the object and never carry the credentials.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import pyarrow as pa
import pytest

from pyfileindex.paimon import (
    PaimonMetadataError,
    index_report,
    PaimonTableMetadata,
    plan_read,
    read_plan,
    remove_orphan_index_files,
    rewrite_file_index,
    write_table,
)
from pyfileindex.paimon.store import StoreError, describe, is_object_store

from event_rows import UNTIMED_SCHEMA as SCHEMA
from event_rows import untimed_events as events

pytestmark = pytest.mark.s3

PREDICATES = [
    "id = 17", "id = 100000", "id IN (3, 250, 777)", "category = 'c2'", "level = 3",
    "level > 4", "score IS NULL", "score > 30.0", "tag = 't5'", "tag = 'missing'",
    "id >= 450", "category = 'c1' AND level = 1", "tag = 't1' OR id = 5",
]

OPTIONS = {
    # threshold 1b: every index is a sidecar object
    "sidecar": {"file-index.bitmap.columns": "category,level,tag",
                "file-index.bsi.columns": "id", "file-index.in-manifest-threshold": "1b"},
    "embedded": {"file-index.bitmap.columns": "level", "file-index.bsi.columns": "id",
                 "file-index.in-manifest-threshold": "64kb"},
    "bloom": {"file-index.bloom-filter.columns": "id,tag",
              "file-index.bloom-filter.id.items": "500"},
    "range": {"file-index.range-bitmap.columns": "id,score,category"},
}


class Twin:
    """The same table `db.<name>` in a local warehouse and in an S3 warehouse."""

    def __init__(self, tmp_path: Path, s3_options: dict, name: str, options: dict,
                 partition_keys=()):
        from pypaimon import CatalogFactory, Schema

        self.name = f"db.{name}"
        self.catalogs = {
            "local": CatalogFactory.create({"warehouse": str(tmp_path / "warehouse")}),
            "s3": CatalogFactory.create(dict(s3_options)),
        }
        for catalog in self.catalogs.values():
            catalog.create_database("db", True)
            catalog.create_table(self.name, Schema.from_pyarrow_schema(
                SCHEMA, partition_keys=list(partition_keys), options=options), False)

    def table(self, where: str):
        return self.catalogs[where].get_table(self.name)

    def each(self):
        return [(where, self.table(where)) for where in ("local", "s3")]

    def write(self, data) -> None:
        ids = [write_table(table, data) for _, table in self.each()]
        assert ids[0] == ids[1] and ids[0] is not None

    def set_option(self, key: str, value: str) -> None:
        from pypaimon.schema.schema_change import SchemaChange
        for catalog in self.catalogs.values():
            catalog.alter_table(self.name, [SchemaChange.set_option(key, value)], False)

    def files(self, where: str):
        return PaimonTableMetadata(table=self.table(where)).data_files()


def plan_facts(plan):
    return (plan.files_total, plan.files_skipped, plan.rows_selected,
            [(f.file.partition_values, f.answer, f.skipped, f.index_source,
              None if f.selection is None else f.selection.tolist()) for f in plan.files])


def sorted_rows(table: pa.Table) -> list:
    return sorted(table.to_pylist(), key=lambda row: row["id"])


def assert_same_answers(twin: Twin, predicates=PREDICATES) -> int:
    """Plans and reads equal on both stores for every predicate; files skipped in total."""
    skipped = 0
    for predicate in predicates:
        plans = {where: plan_read(table, predicate) for where, table in twin.each()}
        assert plan_facts(plans["local"]) == plan_facts(plans["s3"]), predicate
        reads = {where: read_plan(plan) for where, plan in plans.items()}
        assert reads["local"].schema == reads["s3"].schema
        assert sorted_rows(reads["local"]) == sorted_rows(reads["s3"]), predicate
        skipped += plans["s3"].files_skipped
    return skipped


def s3_objects(s3_server, options) -> dict:
    """key -> bytes of every object in the warehouse's bucket."""
    bucket = options["warehouse"].split("/")[2]
    client = s3_server.client()
    keys = [o["Key"] for page in client.get_paginator("list_objects_v2").paginate(Bucket=bucket)
            for o in page.get("Contents", [])]
    return {k: client.get_object(Bucket=bucket, Key=k)["Body"].read() for k in keys}


def sidecar_bytes_by_name(twin: Twin, s3_server, s3_options):
    """{data file position: bytes of its sidecar} for each store: data file and sidecar
    names differ between the stores (they carry random tokens), their order does not."""
    out = {}
    for where in ("local", "s3"):
        meta = PaimonTableMetadata(table=twin.table(where))
        found = {}
        for position, data_file in enumerate(meta.data_files()):
            (path,) = data_file.index_file_paths
            if where == "local":
                found[position] = Path(meta.filesystem_path(path)).read_bytes()
            else:
                bucket, key = meta.filesystem_path(path).split("/", 1)
                found[position] = s3_server.client().get_object(
                    Bucket=bucket, Key=key)["Body"].read()
        out[where] = found
    return out


# ------------------------------------------------------------------------ write, plan, read

@pytest.mark.parametrize("kind", sorted(OPTIONS))
def test_write_plan_and_read_equal_local_and_s3(tmp_path, s3_server, s3_warehouse, kind):
    twin = Twin(tmp_path, s3_warehouse, kind, OPTIONS[kind])
    twin.write(events(0, 300))
    twin.write(events(300, 200))
    for where, table in twin.each():
        assert str(table.table_path).startswith("s3://") == (where == "s3")
    local, s3 = twin.files("local"), twin.files("s3")
    assert [f.row_count for f in local] == [f.row_count for f in s3] == [300, 200]
    has_sidecar = [f.index_file_names != () for f in s3]
    assert has_sidecar == [f.index_file_names != () for f in local]
    if kind in ("sidecar", "embedded"):
        assert has_sidecar == [kind == "sidecar"] * 2
    skipped = assert_same_answers(twin)
    assert skipped > 0  # the indexes did prune, on both stores alike
    # The written indexes are byte-equal, embedded or sidecar.
    metas = {where: PaimonTableMetadata(table=twin.table(where)) for where in ("local", "s3")}
    assert [metas["local"].index_bytes(f) for f in local] == \
        [metas["s3"].index_bytes(f) for f in s3]
    keys = s3_objects(s3_server, s3_warehouse)
    assert not [k for k in keys if k.endswith(".tmp")]  # no temp+rename on the object store
    sidecars = [k for k in keys if k.endswith(".index")]
    assert len(sidecars) == sum(has_sidecar)


def test_partitioned_table_equal_local_and_s3(tmp_path, s3_server, s3_warehouse):
    twin = Twin(tmp_path, s3_warehouse, "parts", OPTIONS["sidecar"], partition_keys=["level"])
    twin.write(events(0, 350))
    assert len(twin.files("s3")) == 7
    assert assert_same_answers(twin, ["level = 2", "category = 'c3'", "id = 40",
                                      "tag = 't5' AND level > 3"]) > 0


def test_read_plan_with_projection_limit_and_top_n_on_s3(tmp_path, s3_server, s3_warehouse):
    twin = Twin(tmp_path, s3_warehouse, "proj", OPTIONS["sidecar"])
    twin.write(events(0, 120))
    out = {}
    for where, table in twin.each():
        plan = plan_read(table, "level = 3", top_n=("id", 5, True))
        out[where] = read_plan(plan, columns=["id", "tag"]).to_pylist()
    assert out["local"] == out["s3"]
    assert [row["id"] for row in out["s3"]] == [115, 108, 101, 94, 87]


# ------------------------------------------------------------------------ rewrite, orphans

def test_rewrite_file_index_on_s3_writes_the_same_sidecars(tmp_path, s3_server, s3_warehouse):
    twin = Twin(tmp_path, s3_warehouse, "rw", {})
    twin.write(events(0, 200))
    twin.write(events(200, 100))
    twin.set_option("file-index.bitmap.columns", "category,level")
    twin.set_option("file-index.in-manifest-threshold", "1b")
    results = {where: rewrite_file_index(table) for where, table in twin.each()}
    assert results["s3"].files_rewritten == results["local"].files_rewritten == 2
    assert results["s3"].snapshot_id == results["local"].snapshot_id == 3
    assert all(p.startswith("s3://") for p in results["s3"].new_sidecars)
    sidecars = sidecar_bytes_by_name(twin, s3_server, s3_warehouse)
    assert sorted(sidecars["s3"]) == [0, 1]
    assert sidecars["s3"] == sidecars["local"]  # byte-equal sidecars
    assert assert_same_answers(twin, ["category = 'c2'", "level = 6", "level = 9"]) > 0

    # A second rewrite writes sidecars under its own run's names; nothing is replaced.
    twin.set_option("file-index.bitmap.columns", "level")
    first_names = [f.index_file_names for f in twin.files("s3")]
    for _, table in twin.each():
        assert rewrite_file_index(table).files_rewritten == 2
    second_names = [f.index_file_names for f in twin.files("s3")]
    assert all(a != b for a, b in zip(first_names, second_names))
    sidecars = sidecar_bytes_by_name(twin, s3_server, s3_warehouse)
    assert sidecars["s3"] == sidecars["local"]
    keys = s3_objects(s3_server, s3_warehouse)
    for names in first_names + second_names:  # the first run's sidecars stay for snapshot 3
        assert any(k.endswith("/" + names[0]) for k in keys)
    assert not [k for k in s3_objects(s3_server, s3_warehouse) if k.endswith(".tmp")]
    assert assert_same_answers(twin, ["level = 2", "level = 9"]) == 2
    # Unchanged options: nothing new on either store.
    for _, table in twin.each():
        assert rewrite_file_index(table).snapshot_id is None


def _report_facts(reports):
    """An index report without the file names (they carry random tokens per store)."""
    return [(r.row_count, r.location, r.container_bytes, r.stale,
             [(i.column, i.index_type, i.bytes, i.row_count, i.declared) for i in r.indexes],
             sorted((f.kind, f.column or "", f.index_type or "") for f in r.findings))
            for r in reports]


def test_index_report_on_s3_equals_the_local_one(tmp_path, s3_server, s3_warehouse, capsys):
    twin = Twin(tmp_path, s3_warehouse, "report", OPTIONS["sidecar"])
    twin.write(events(0, 200))
    twin.write(events(200, 100))
    twin.set_option("file-index.bitmap.columns", "category,level,score")
    twin.set_option("file-index.bitmap.level.version", "1")
    reports = {where: index_report(table) for where, table in twin.each()}
    assert _report_facts(reports["s3"]) == _report_facts(reports["local"])
    for report in reports["s3"]:
        assert report.location == "sidecar" and report.sidecar.endswith(".index")
        assert {(f.kind, f.column) for f in report.findings if f.stale} == {
            ("missing", "score"), ("options", "level"), ("undeclared", "tag")}
    # A corrupt sidecar object is reported for its file; the other file is still judged.
    bucket, key = PaimonTableMetadata(table=twin.table("s3")).filesystem_path(
        twin.files("s3")[0].index_file_paths[0]).split("/", 1)
    s3_server.client().put_object(Bucket=bucket, Key=key, Body=b"junk")
    damaged = index_report(twin.table("s3"))
    assert [f.kind for f in damaged[0].findings if f.stale] == ["corrupt"]
    assert _report_facts(damaged[1:]) == _report_facts(reports["local"][1:])
    # The command line reaches the table with the catalog options.
    from pyfileindex.cli import main
    argv = ["indexes", str(twin.table("s3").table_path), "--json"]
    for k, v in s3_warehouse.items():
        if k != "warehouse":
            argv += ["--catalog-option", f"{k}={v}"]
    assert main(argv) == 0
    payload = json.loads(capsys.readouterr().out)
    assert [f["stale"] for f in payload["files"]] == [True, True]
    assert [f["kind"] for f in payload["files"][0]["findings"]] == ["corrupt"]


def test_rewrite_on_s3_never_replaces_an_object_under_its_name(
        tmp_path, s3_server, s3_warehouse, monkeypatch):
    from pyfileindex.paimon import build_file_index, rewrite

    twin = Twin(tmp_path, s3_warehouse, "taken", {})
    twin.write(events(0, 100))
    twin.set_option("file-index.bitmap.columns", "level")
    twin.set_option("file-index.in-manifest-threshold", "1b")
    (data_file,) = twin.files("s3")
    meta = PaimonTableMetadata(table=twin.table("s3"))
    bucket, key = meta.filesystem_path(data_file.path).split("/", 1)
    client = s3_server.client()
    client.put_object(Bucket=bucket, Key=key + ".index", Body=b"someone else's bytes")
    monkeypatch.setattr(rewrite, "new_run_token", lambda: "00000000feedbeef")
    client.put_object(Bucket=bucket, Key=key + "-00000000feedbeef.index", Body=b"and these")
    before = s3_objects(s3_server, s3_warehouse)
    with pytest.raises(PaimonMetadataError, match="already exists.*not replaced"):
        rewrite_file_index(twin.table("s3"))
    assert s3_objects(s3_server, s3_warehouse) == before  # nothing replaced, nothing new
    monkeypatch.undo()

    result = rewrite_file_index(twin.table("s3"))
    (new_sidecar,) = result.new_sidecars
    (after,) = twin.files("s3")
    directory = key.rsplit("/", 1)[0]
    assert new_sidecar == f"s3://{bucket}/{directory}/{after.extra_files[0]}"
    for taken, body in ((".index", b"someone else's bytes"),
                        ("-00000000feedbeef.index", b"and these")):
        assert client.get_object(Bucket=bucket, Key=key + taken)["Body"].read() == body
    meta = PaimonTableMetadata(table=twin.table("s3"))
    assert meta.index_bytes(after) == build_file_index(meta, after)


def test_a_failed_rewrite_commit_on_s3_leaves_no_new_object(
        tmp_path, s3_server, s3_warehouse, monkeypatch):
    from pyfileindex.paimon import _pypaimon_write

    twin = Twin(tmp_path, s3_warehouse, "fails", {})
    twin.write(events(0, 100))
    twin.set_option("file-index.bitmap.columns", "level")
    twin.set_option("file-index.in-manifest-threshold", "1b")
    before = set(s3_objects(s3_server, s3_warehouse))

    def refuse(*args, **kwargs):
        raise OSError("commit refused")

    monkeypatch.setattr(_pypaimon_write, "commit_compact", refuse)
    with pytest.raises(OSError, match="commit refused"):
        rewrite_file_index(twin.table("s3"))
    assert set(s3_objects(s3_server, s3_warehouse)) == before


def test_orphan_cleanup_removes_a_leftover_object_on_s3(tmp_path, s3_server, s3_warehouse):
    twin = Twin(tmp_path, s3_warehouse, "orphans", {"file-index.bitmap.columns": "level",
                                                     "file-index.in-manifest-threshold": "1b"})
    twin.write(events(0, 100))
    twin.set_option("file-index.bitmap.columns", "level,category")
    rewrite_file_index(twin.table("s3"))  # the first sidecar stays: snapshot 1 has it
    table = twin.table("s3")
    assert remove_orphan_index_files(table, older_than_seconds=0) == []

    (data_file,) = twin.files("s3")
    meta = PaimonTableMetadata(table=table)
    bucket, key = meta.filesystem_path(data_file.path).split("/", 1)
    client = s3_server.client()
    client.put_object(Bucket=bucket, Key=key + "-7.index", Body=b"left by a killed task")
    client.put_object(Bucket=bucket, Key=key + ".notes", Body=b"not an index: kept")
    stray = f"s3://{bucket}/{key}-7.index"

    # Too young for the default age: kept (a write in flight may own it).
    assert remove_orphan_index_files(table) == []
    assert remove_orphan_index_files(table, older_than_seconds=0, dry_run=True) == [stray]
    assert key + "-7.index" in s3_objects(s3_server, s3_warehouse)
    assert remove_orphan_index_files(table, older_than_seconds=0) == [stray]
    left = s3_objects(s3_server, s3_warehouse)
    assert key + "-7.index" not in left
    assert key + ".notes" in left
    # Every sidecar a snapshot references is still there and still reads.
    for snapshot_id in (1, 2):
        for f in meta.data_files(snapshot_id):
            assert meta.index_bytes(f) is not None
    assert_same_answers(twin, ["level = 3"])


# ------------------------------------------------------------------------ errors

def _no_secret(text: str, secret: str) -> None:
    assert secret not in text


def test_wrong_secret_is_a_clear_error_without_the_secret(
        tmp_path, s3_server, s3_warehouse, caplog):
    caplog.set_level(logging.DEBUG)
    twin = Twin(tmp_path, s3_warehouse, "creds", OPTIONS["sidecar"])
    twin.write(events(0, 50))
    path = str(twin.table("s3").table_path)
    bucket = s3_warehouse["warehouse"].split("/")[2]
    wrong = "WRONG-secret-4f1c9e2a7b"
    options = dict(s3_warehouse, **{"fs.s3.accessKeySecret": wrong})
    options.pop("warehouse")
    with pytest.raises(PaimonMetadataError) as info:
        PaimonTableMetadata(path, options=options)
    message = str(info.value)
    assert bucket in message
    _no_secret(message, wrong)
    _no_secret(message, s3_server.secret_key)

    # A table opened with good credentials whose store then refuses them: a read names
    # the object it could not get.
    good = dict(s3_warehouse)
    good.pop("warehouse")
    meta = PaimonTableMetadata(path, options=good)
    plan = plan_read(meta, "level = 3")
    assert plan.files_total == 1
    _no_secret(plan.summary() + repr(plan), s3_server.secret_key)
    from pypaimon.common.file_io import FileIO
    from pypaimon.common.options import Options
    plan.table.file_io = FileIO.get(path, Options(options))
    with pytest.raises(StoreError) as info:
        read_plan(plan)
    message = str(info.value)
    (data_file,) = twin.files("s3")
    assert data_file.file_name in message and f"bucket '{bucket}'" in message
    assert "ACCESS_DENIED" in message or "denied" in message.lower()
    for text in (message, caplog.text):
        _no_secret(text, wrong)
        _no_secret(text, s3_server.secret_key)


def test_missing_bucket_is_named(tmp_path, s3_server, s3_warehouse):
    options = dict(s3_warehouse)
    options.pop("warehouse")
    with pytest.raises(PaimonMetadataError, match="bucket 'no-such-bucket-5e1d' not found") \
            as info:
        PaimonTableMetadata("s3://no-such-bucket-5e1d/warehouse/db.db/t", options=options)
    _no_secret(str(info.value), s3_server.secret_key)
    _no_secret(str(info.value), s3_server.access_key)


def test_an_object_that_vanishes_after_planning_is_named(tmp_path, s3_server, s3_warehouse):
    twin = Twin(tmp_path, s3_warehouse, "vanish", OPTIONS["embedded"])
    twin.write(events(0, 60))
    plan = plan_read(twin.table("s3"), "level = 1")
    (data_file,) = twin.files("s3")
    bucket, key = PaimonTableMetadata(table=twin.table("s3")).filesystem_path(
        data_file.path).split("/", 1)
    s3_server.client().delete_object(Bucket=bucket, Key=key)
    with pytest.raises(StoreError, match="not found") as info:
        read_plan(plan)
    assert f"object '{key}' in bucket '{bucket}'" in str(info.value)
    _no_secret(str(info.value), s3_server.secret_key)


def test_credentials_are_scrubbed_from_store_messages():
    from pyfileindex.paimon.store import redact_text
    options = {"fs.s3.accessKeyId": "AKIAEXAMPLE123", "fs.s3.accessKeySecret": "s3cr3t/Value+",
               "fs.s3.endpoint": "http://127.0.0.1:1", "s3.session-token": "tok-123456",
               "fs.s3.region": "us-east-1"}
    text = redact_text("key AKIAEXAMPLE123 secret s3cr3t/Value+ token tok-123456 at "
                       "http://127.0.0.1:1 in us-east-1", options.items())
    assert text == "key *** secret *** token *** at http://127.0.0.1:1 in us-east-1"


def test_store_helpers_name_objects_and_tell_stores_apart():
    assert is_object_store("s3://b/k") and is_object_store("oss://b/k")
    assert not is_object_store("/tmp/x") and not is_object_store("file:/tmp/x")
    assert not is_object_store("hdfs://nn/x") and not is_object_store("C:/x")
    assert describe("s3://bkt/a/b.index") == "object 'a/b.index' in bucket 'bkt' (s3://bkt)"
    assert describe(os.path.join("/tmp", "x")) == "'/tmp/x'"


# ------------------------------------------------------------------------ ranged reads

THREE_INDEXES = {"file-index.bitmap.columns": "category", "file-index.bsi.columns": "id",
                 "file-index.range-bitmap.columns": "score",
                 "file-index.in-manifest-threshold": "1b"}


def _server_requests(s3_server, key: str) -> int:
    """Requests for `key` in the server's access log so far."""
    text = s3_server.log_path.read_text(errors="replace")
    return sum(1 for line in text.splitlines() if f"/{key} HTTP" in line or f"/{key}?" in line)


@pytest.mark.parametrize("predicate,column_type", [("id = 17", "bsi"),
                                                   ("score > 30.0", "range-bitmap")])
def test_planning_on_s3_fetches_the_header_and_only_the_body_it_needs(
        tmp_path, s3_server, s3_warehouse, predicate, column_type):
    from pyfileindex import IndexReader
    from pyfileindex.paimon.ranged import HEADER_PROBE

    twin = Twin(tmp_path, s3_warehouse, "ranged", THREE_INDEXES)
    twin.write(events(0, 20_000))
    twin.write(events(20_000, 20_000))
    meta = PaimonTableMetadata(table=twin.table("s3"))
    sidecar_keys = [meta.filesystem_path(f.index_file_paths[0]).split("/", 1)[1]
                    for f in meta.data_files()]
    before = [_server_requests(s3_server, key) for key in sidecar_keys]
    plans = {where: plan_read(table, predicate) for where, table in twin.each()}
    after = [_server_requests(s3_server, key) for key in sidecar_keys]
    assert plan_facts(plans["s3"]) == plan_facts(plans["local"])
    assert all(f.index_fetch is None for f in plans["local"].files)  # local: whole reads

    for file_plan, key, was, now in zip(plans["s3"].files, sidecar_keys, before, after):
        fetch = file_plan.index_fetch
        whole = meta.index_bytes(file_plan.file)
        entries = IndexReader(whole).entries
        assert sorted({e.column for e in entries}) == ["category", "id", "score"]
        (body,) = [e for e in entries if e.index_type == column_type]
        print(f"{predicate}: sidecar {fetch.size} B, header {fetch.header} B, "
              f"{fetch.requests} requests, {fetch.fetched} B fetched "
              f"({100 * fetch.fetched / fetch.size:.1f}%), needed body {body.length} B")
        assert fetch.size == len(whole) > 4 * HEADER_PROBE
        assert fetch.bodies == 1
        # Opening (size) + the header probe + the one body, never the whole sidecar.
        assert fetch.requests == (3 if body.offset + body.length > HEADER_PROBE else 2)
        assert fetch.fetched <= HEADER_PROBE + body.length < fetch.size
        assert now - was == fetch.requests  # the server saw exactly those requests
    rows = {where: sorted_rows(read_plan(plan)) for where, plan in plans.items()}
    assert rows["s3"] == rows["local"] and rows["s3"]
