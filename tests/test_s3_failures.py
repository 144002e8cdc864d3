"""A store that fails under the table layer: every failure is a StoreError naming the
store and the object, with no credential in it, and nothing is committed.

Wrong credentials, a missing bucket and an object deleted between planning and reading
(for planning, reading and rewriting), and an endpoint that stops answering: a second
moto server, stopped with SIGSTOP, with small request limits set as options, so the
operation gives up after bounded retries instead of hanging.
"""

from __future__ import annotations

import os
import signal
import time

import pytest

from pyfileindex.paimon import (
    PaimonMetadataError,
    PaimonTableMetadata,
    plan_read,
    read_plan,
    rewrite_file_index,
    write_table,
)
from pyfileindex.paimon.store import (
    CONNECT_TIMEOUT_OPTION,
    MAX_ATTEMPTS_OPTION,
    REQUEST_TIMEOUT_OPTION,
    StoreError,
    bound_store_requests,
)

from event_rows import UNTIMED_SCHEMA as SCHEMA
from event_rows import untimed_events as events

pytestmark = pytest.mark.s3

SIDECARS = {"file-index.bitmap.columns": "level", "file-index.in-manifest-threshold": "1b"}
FAST_FAILURE = {CONNECT_TIMEOUT_OPTION: "1", REQUEST_TIMEOUT_OPTION: "1",
                MAX_ATTEMPTS_OPTION: "2"}


def _table(catalog_options: dict, options=SIDECARS, name: str = "db.t"):
    from pypaimon import CatalogFactory, Schema

    catalog = CatalogFactory.create(dict(catalog_options))
    catalog.create_database("db", True)
    catalog.create_table(name, Schema.from_pyarrow_schema(SCHEMA, options=dict(options)),
                         False)
    write_table(catalog.get_table(name), events(0, 60))
    write_table(catalog.get_table(name), events(60, 40))
    return catalog, catalog.get_table(name)


def _file_io_options(catalog_options: dict, **changes) -> dict:
    options = {k: v for k, v in catalog_options.items() if k != "warehouse"}
    options.update(changes)
    return options


def _objects(s3_server, bucket: str) -> set:
    listing = s3_server.client().list_objects_v2(Bucket=bucket, MaxKeys=1000)
    return {o["Key"] for o in listing.get("Contents", [])}


def _bucket_and_key(meta: PaimonTableMetadata, path: str):
    return meta.filesystem_path(path).split("/", 1)


def _clean(message: str, *secrets: str) -> None:
    for secret in secrets:
        assert secret not in message


# ------------------------------------------------------------------------ wrong credentials

def test_planning_with_refused_credentials_is_a_store_error(s3_server, s3_warehouse):
    _, table = _table(s3_warehouse)
    path = str(table.table_path)
    bucket = s3_warehouse["warehouse"].split("/")[2]
    wrong = "WRONG-secret-77d0e1a9c3"
    # Opened with good credentials, then the store refuses them (a rotated key).
    meta = PaimonTableMetadata(path, options=_file_io_options(s3_warehouse))
    from pypaimon.common.file_io import FileIO
    from pypaimon.common.options import Options
    meta.table.file_io = FileIO.get(path, Options(_file_io_options(
        s3_warehouse, **{"fs.s3.accessKeySecret": wrong})))
    before = _objects(s3_server, bucket)
    for operation in (lambda: plan_read(meta, "level = 3"), lambda: rewrite_file_index(meta)):
        with pytest.raises(StoreError) as info:
            operation()
        message = str(info.value)
        assert f"bucket '{bucket}'" in message
        assert "denied" in message.lower() or "ACCESS_DENIED" in message
        _clean(message, wrong, s3_server.secret_key)
    assert _objects(s3_server, bucket) == before  # nothing written, nothing committed


# ------------------------------------------------------------------------ vanished objects

def test_a_manifest_deleted_after_the_snapshot_was_read_is_named(s3_server, s3_warehouse):
    _, table = _table(s3_warehouse)
    meta = PaimonTableMetadata(table=table)
    snapshot = meta.snapshot()
    bucket = s3_warehouse["warehouse"].split("/")[2]
    manifests = sorted(k for k in _objects(s3_server, bucket) if "/manifest/manifest-" in k
                       and "manifest-list" not in k)
    assert manifests
    for key in manifests:
        s3_server.client().delete_object(Bucket=bucket, Key=key)
    with pytest.raises(StoreError) as info:
        plan_read(meta, "level = 3", snapshot_id=snapshot.id)
    message = str(info.value)
    assert "manifests of table" in message and f"bucket '{bucket}'" in message
    assert "manifest-" in message  # pyarrow's reason names the object it missed
    _clean(message, s3_server.secret_key)


def test_a_data_file_deleted_before_a_rewrite_reads_it_commits_nothing(
        s3_server, s3_warehouse):
    catalog, table = _table(s3_warehouse, options={})
    from pypaimon.schema.schema_change import SchemaChange
    catalog.alter_table("db.t", [SchemaChange.set_option(k, v) for k, v in SIDECARS.items()],
                        False)
    meta = PaimonTableMetadata(table=catalog.get_table("db.t"))
    bucket, key = _bucket_and_key(meta, meta.data_files()[1].path)
    s3_server.client().delete_object(Bucket=bucket, Key=key)
    before = _objects(s3_server, bucket)
    snapshot_id = meta.snapshot().id
    with pytest.raises(StoreError, match="not found") as info:
        rewrite_file_index(meta, max_workers=1)
    assert f"object '{key}' in bucket '{bucket}'" in str(info.value)
    assert meta.snapshot().id == snapshot_id
    assert _objects(s3_server, bucket) == before  # the other file's new sidecar went again


# ------------------------------------------------------------------------ request limits

def test_request_limit_options_are_checked(s3_warehouse):
    _, table = _table(s3_warehouse)
    file_io_options = table.file_io.properties.to_map()
    from pypaimon.common.file_io import FileIO
    from pypaimon.common.options import Options
    path = str(table.table_path)
    for bad in ("0", "-1", "soon"):
        file_io = FileIO.get(path, Options(dict(file_io_options, **{REQUEST_TIMEOUT_OPTION: bad})))
        with pytest.raises(PaimonMetadataError, match=REQUEST_TIMEOUT_OPTION):
            bound_store_requests(file_io, path)
    file_io = FileIO.get(path, Options(dict(file_io_options, **FAST_FAILURE)))
    assert bound_store_requests(file_io, path)
    assert not bound_store_requests(file_io, path)  # once per file IO
    assert file_io.filesystem.__reduce__()[1][0]["request_timeout"] == 1.0
    assert not bound_store_requests(FileIO.get(path, Options(file_io_options)), path)


@pytest.mark.timeout(120)  # a hang fails here instead of stalling the suite
def test_an_endpoint_that_stops_answering_fails_after_bounded_retries(tmp_path):
    from pypaimon import CatalogFactory

    from s3_server import S3Server

    server = S3Server(tmp_path).start()
    stopped = False
    try:
        bucket = server.create_bucket("stalls")
        options = dict(server.catalog_options(bucket), **FAST_FAILURE)
        _table(options)
        meta = PaimonTableMetadata(table=CatalogFactory.create(options).get_table("db.t"))
        plan = plan_read(meta, "level = 3")
        assert plan.files_total == 2
        os.kill(server.process.pid, signal.SIGSTOP)
        stopped = True
        failures = []
        for operation in (lambda: read_plan(plan), lambda: plan_read(meta, "level = 3"),
                          lambda: PaimonTableMetadata(str(meta.table.table_path),
                                                      options=_file_io_options(options))):
            start = time.monotonic()
            with pytest.raises(StoreError) as info:
                operation()
            print(f"gave up after {time.monotonic() - start:.1f} s: {info.value}")
            failures.append(str(info.value))
        for message in failures:
            assert f"bucket '{bucket}'" in message or f"s3://{bucket}/" in message
            assert "timeout" in message.lower() or "timed out" in message.lower(), message
            _clean(message, server.secret_key)
        assert "data-" in failures[0]  # the data file read_plan could not get
    finally:
        if stopped:
            os.kill(server.process.pid, signal.SIGCONT)
        server.stop()
