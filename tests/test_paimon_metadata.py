"""Read side of Paimon table metadata, checked against the Java-written golden tables.

Every expectation comes from the golden README or from an independent read of the
table files (pyarrow for Parquet, fastavro for manifests), never from the layer
under test.
"""

import dataclasses
import json
import os
import shutil
import struct
import zlib
from pathlib import Path

import fastavro
import numpy as np
import pyarrow.parquet as pq
import pytest
from pyroaring import BitMap, BitMap64

from pyfileindex.paimon import (
    BITMAP32_MAGIC,
    BITMAP64_MAGIC,
    PaimonMetadataError,
    PaimonTableMetadata,
    compare_schemas,
    decode_deletion_vector,
    decode_index_file,
    index_sidecar_path,
    translate_column,
)

GOLDEN = Path(__file__).resolve().parents[1].parent / "shared" / "golden"
TABLES_DIR = GOLDEN / "paimon-java-tables"
INDEX_MAGIC = bytes.fromhex("00054e4ed01a35ae")

# table name -> (where the index lives per the golden README, live files in the latest snapshot)
TABLES = {
    "append_with_bitmap": ("embedded", 1),
    "append_with_bitmap_v1": ("embedded", 1),
    "append_with_bitmap_no_embedding": ("sidecar", 1),
    "append_with_bloomfilter": ("sidecar", 1),
    "append_with_bsi": ("sidecar", 1),
    "append_with_bsi_bitmap_bloomfilter": ("sidecar", 1),
    "pk_with_bitmap_dv": ("sidecar", 1),
    "append_with_bitmap_alter_table": ("embedded", 2),
    "data_evolution_with_index": ("embedded", 3),
}


def table_dir(name: str) -> Path:
    return TABLES_DIR / f"{name}.db" / name


def open_table(name: str) -> PaimonTableMetadata:
    return PaimonTableMetadata(table_dir(name))


def parquet_rows(meta: PaimonTableMetadata, path: str) -> int:
    return pq.ParquetFile(meta.filesystem_path(path)).metadata.num_rows


def writable_copy(source: Path, target: Path) -> Path:
    """Copy a golden table; the golden tree is read-only, the copy must not be."""
    shutil.copytree(source, target, copy_function=shutil.copyfile)
    for root, dirs, _files in os.walk(target):
        os.chmod(root, 0o755)
        for name in dirs:
            os.chmod(os.path.join(root, name), 0o755)
    return target


def raw_manifest_files(table_path: Path) -> dict:
    """file name -> raw `_FILE` record of every manifest of the table (fastavro, no pypaimon)."""
    files = {}
    for manifest in sorted((table_path / "manifest").glob("manifest-*")):
        if manifest.name.startswith("manifest-list-"):
            continue
        with open(manifest, "rb") as stream:
            for record in fastavro.reader(stream):
                files[record["_FILE"]["_FILE_NAME"]] = record["_FILE"]
    return files


def test_every_golden_table_is_covered():
    on_disk = {p.parent.name for p in TABLES_DIR.glob("*.db/*/schema")}
    assert on_disk == set(TABLES)


@pytest.mark.parametrize("name", sorted(TABLES))
def test_live_files_and_row_counts(name):
    meta = open_table(name)
    snapshot = meta.snapshot()
    files = meta.data_files()
    assert len(files) == TABLES[name][1]
    assert len({f.file_name for f in files}) == len(files)
    parquet_total = 0
    for f in files:
        assert Path(meta.filesystem_path(f.path)).is_file()
        assert Path(meta.filesystem_path(f.path)).parent == table_dir(name) / "bucket-0"
        assert f.bucket == 0 and f.partition == {}
        rows = parquet_rows(meta, f.path)
        assert f.row_count == rows
        parquet_total += rows
    assert sum(f.row_count for f in files) == parquet_total
    assert parquet_total == snapshot.total_record_count


def test_open_by_warehouse_and_identifier():
    meta = PaimonTableMetadata.from_warehouse(TABLES_DIR, "append_with_bsi.append_with_bsi")
    assert Path(meta.path) == table_dir("append_with_bsi")
    assert meta.schema().options["file-index.bsi.columns"] == "f1,f2,f4"
    with pytest.raises(ValueError, match="database.table"):
        PaimonTableMetadata.from_warehouse(TABLES_DIR, "append_with_bsi")


def test_open_from_a_pypaimon_table_object():
    from pypaimon.table.file_store_table import FileStoreTable

    table = FileStoreTable.from_path(str(table_dir("pk_with_bitmap_dv")))
    meta = PaimonTableMetadata(table=table)
    assert meta.table is table
    assert meta.schema().primary_keys == ["key"]  # pyfileindex.schema.Schema keeps lists
    assert meta.schema().field_by_name("key").type == "INT NOT NULL"
    assert [f.file_name for f in meta.data_files()] == [
        f.file_name for f in open_table("pk_with_bitmap_dv").data_files()]


def test_orphan_data_files_are_not_live():
    # append_with_bitmap.db holds two data files, but its only snapshot uses one.
    meta = open_table("append_with_bitmap")
    on_disk = sorted(p.name for p in (table_dir("append_with_bitmap") / "bucket-0").glob("*.parquet"))
    live = [f.file_name for f in meta.data_files()]
    assert len(on_disk) == 2
    assert len(live) == 1 and live[0] in on_disk


@pytest.mark.parametrize("name", sorted(TABLES))
def test_index_bytes_of_every_live_file(name):
    meta = open_table(name)
    raw = raw_manifest_files(table_dir(name))
    expected_source = TABLES[name][0]
    for f in meta.data_files():
        data = meta.index_bytes(f)
        assert data is not None and data[:8] == INDEX_MAGIC
        assert meta.index_source(f) == expected_source
        record = raw[f.file_name]
        assert f.extra_files == tuple(record["_EXTRA_FILES"])
        if expected_source == "embedded":
            assert data == record["_EMBEDDED_FILE_INDEX"]
            assert f.index_file_names == ()
        else:
            assert record["_EMBEDDED_FILE_INDEX"] is None
            sidecar = Path(meta.filesystem_path(f.path) + ".index")
            assert f.index_file_names == (sidecar.name,)
            assert Path(meta.filesystem_path(index_sidecar_path(f))) == sidecar
            assert data == sidecar.read_bytes()


@pytest.mark.parametrize("name", sorted(TABLES))
def test_manifest_fields_match_raw_avro(name):
    meta = open_table(name)
    raw = raw_manifest_files(table_dir(name))
    for f in meta.data_files():
        record = raw[f.file_name]
        assert f.schema_id == record["_SCHEMA_ID"]
        assert f.file_size == record["_FILE_SIZE"]
        assert f.file_source == record["_FILE_SOURCE"] == 0
        assert f.file_source_name == "APPEND"
        assert f.external_path is None
        assert (f.min_sequence_number, f.max_sequence_number) == (
            record["_MIN_SEQUENCE_NUMBER"], record["_MAX_SEQUENCE_NUMBER"])


def key_positions(path: Path, keys) -> list:
    column = pq.read_table(path, columns=["key"]).column("key").to_pylist()
    return [pos for pos, key in enumerate(column) if key in keys]


def test_pk_deletion_vectors_hold_deleted_keys():
    meta = open_table("pk_with_bitmap_dv")
    (live,) = meta.data_files()
    expected = key_positions(Path(meta.filesystem_path(live.path)), {0, 4})
    assert len(expected) == 2
    dv = live.deletion_vector
    assert dv is not None and not dv.is_64bit
    assert dv.cardinality == 2
    positions = dv.positions()
    assert positions.dtype == np.uint32
    assert positions.tolist() == expected
    assert list(dv.bitmap) == expected
    vectors = meta.deletion_vectors()
    assert list(vectors) == [((), 0, live.file_name)]
    assert list(vectors[((), 0, live.file_name)].bitmap) == expected


def test_pk_snapshot_by_id_before_deletion_vectors():
    meta = open_table("pk_with_bitmap_dv")
    snapshot = meta.snapshot(3)
    assert snapshot.id == 3 and snapshot.index_manifest is None
    listed = meta.data_files(3)
    files = {f.file_name: f for f in listed}
    assert len(listed) == len(files) == 2
    assert all(f.deletion_vector is None for f in files.values())
    # snapshot 2 compacted file -0 from level 0 to level 5 (DELETE + ADD of the same name)
    levels = sorted((f.level, f.row_count) for f in files.values())
    assert levels == [(0, 2), (5, 8)]
    for f in files.values():
        assert f.row_count == parquet_rows(meta, f.path)
    assert meta.snapshot().id == 4


def test_alter_table_schemas_and_field_id_mapping():
    meta = open_table("append_with_bitmap_alter_table")
    old, new = meta.schema(0), meta.schema(1)
    assert [s.schema_id for s in meta.schemas()] == [0, 1]
    assert meta.schema().schema_id == 1
    assert [(f.field_id, f.name, f.type) for f in old.fields] == [
        (0, "f0", "STRING"), (1, "f1", "INT"), (2, "f2", "INT"), (3, "f3", "DOUBLE")]
    assert [(f.field_id, f.name, f.type) for f in new.fields] == [
        (1, "f1", "BIGINT"), (0, "f4", "STRING"), (3, "f3", "DOUBLE"), (4, "f5", "INT")]
    assert old.options["file-index.bitmap.columns"] == "f0,f1,f2"
    assert new.options["file-index.bitmap.columns"] == "f1,f4,f5"
    # One schema model: the table layer's schemas are pyfileindex.schema's, the same as a
    # schema file read directly gives (the pypaimon object they came from kept aside).
    from pyfileindex.schema import Schema, load_schema
    assert type(new) is Schema and new.raw is not None
    from_file = load_schema(table_dir("append_with_bitmap_alter_table") / "schema" / "schema-1")
    assert from_file.row_type() == new.row_type()
    assert [f.id for f in from_file.fields] == [f.field_id for f in new.fields]
    assert from_file.options == new.options

    changes = compare_schemas(old, new)
    assert changes[0].renamed and (changes[0].old.name, changes[0].new.name) == ("f0", "f4")
    assert changes[1].type_changed and (changes[1].old.type, changes[1].new.type) == ("INT", "BIGINT")
    assert changes[2].dropped and changes[2].old.name == "f2"
    assert changes[4].added and changes[4].new.name == "f5"
    assert not changes[3].renamed and not changes[3].type_changed

    assert translate_column("f0", old, new) == "f4"
    assert translate_column("f1", old, new) == "f1"
    assert translate_column("f2", old, new) is None
    assert translate_column("f4", new, old) == "f0"
    assert translate_column("f5", new, old) is None
    assert translate_column("f0[k]", old, new) == "f4[k]"
    assert translate_column("nope", old, new) is None


def test_alter_table_files_keep_their_schema_and_index_names():
    meta = open_table("append_with_bitmap_alter_table")
    by_schema = {f.schema_id: f for f in meta.data_files()}
    assert sorted(by_schema) == [0, 1]
    old_file, new_file = by_schema[0], by_schema[1]
    assert meta.file_schema(old_file).schema_id == 0
    # Current column f4 is stored under its old name f0 in the first file's index.
    assert meta.index_column_for("f4", old_file) == "f0"
    assert meta.index_column_for("f1", old_file) == "f1"
    assert meta.index_column_for("f5", old_file) is None
    assert meta.index_column_for("f4", new_file) == "f4"
    old_index, new_index = meta.index_bytes(old_file), meta.index_bytes(new_file)
    # Column names in the container header are 2-byte-length-prefixed UTF-8.
    assert b"\x00\x02f0" in old_index and b"\x00\x02f4" not in old_index
    assert b"\x00\x02f4" in new_index and b"\x00\x02f0" not in new_index


def test_data_evolution_files_expose_row_ids_and_write_columns():
    meta = open_table("data_evolution_with_index")
    snapshot = meta.snapshot()
    assert snapshot.next_row_id == 6
    files = sorted(meta.data_files(), key=lambda f: f.max_sequence_number)
    assert [(f.first_row_id, f.row_count, f.write_cols) for f in files] == [
        (0, 4, ("f2", "f0", "f1")), (0, 4, ("f2", "f3")), (4, 2, ("f2", "f3"))]
    assert [f.row_id_range for f in files] == [(0, 3), (0, 3), (4, 5)]
    for f in files:
        parquet_columns = pq.read_schema(meta.filesystem_path(f.path)).names
        assert tuple(parquet_columns) == f.write_cols
    # Snapshot 1 only has the first file.
    (first,) = meta.data_files(1)
    assert first.write_cols == ("f2", "f0", "f1") and first.first_row_id == 0


def copy_with_external_path(tmp_path: Path, as_uri: bool) -> Path:
    """Copy append_with_bitmap_no_embedding and point its manifest entry at the
    golden external-path/ copy, as Java records a data file written to an
    external path. The copy's own bucket-0 is emptied so only the external
    location can serve the data and its sidecar.
    """
    name = "append_with_bitmap_no_embedding"
    copy = tmp_path / "warehouse" / "db.db" / name
    writable_copy(table_dir(name), copy)
    shutil.rmtree(copy / "bucket-0")
    external_dir = (TABLES_DIR / f"{name}.db" / "external-path" / "bucket-0").resolve()

    snapshot_path = copy / "snapshot" / "snapshot-1"
    snapshot = json.loads(snapshot_path.read_text())
    list_path = copy / "manifest" / snapshot["deltaManifestList"]
    with open(list_path, "rb") as stream:
        list_reader = fastavro.reader(stream)
        list_schema, list_records = list_reader.writer_schema, list(list_reader)
    for list_record in list_records:
        manifest_path = copy / "manifest" / list_record["_FILE_NAME"]
        with open(manifest_path, "rb") as stream:
            reader = fastavro.reader(stream)
            schema, records = reader.writer_schema, list(reader)
        for record in records:
            target = external_dir / record["_FILE"]["_FILE_NAME"]
            record["_FILE"]["_EXTERNAL_PATH"] = target.as_uri().replace("file:///", "file:/") \
                if as_uri else str(target)
        with open(manifest_path, "wb") as stream:
            fastavro.writer(stream, schema, records)
        list_record["_FILE_SIZE"] = manifest_path.stat().st_size
    with open(list_path, "wb") as stream:
        fastavro.writer(stream, list_schema, list_records)
    snapshot["deltaManifestListSize"] = list_path.stat().st_size
    snapshot_path.write_text(json.dumps(snapshot))
    return copy


@pytest.mark.parametrize("as_uri", [False, True], ids=["plain-path", "file-uri"])
def test_external_path_resolves_data_and_sidecar(tmp_path, as_uri):
    copy = copy_with_external_path(tmp_path, as_uri)
    external_dir = (TABLES_DIR / "append_with_bitmap_no_embedding.db" / "external-path" / "bucket-0").resolve()
    meta = PaimonTableMetadata(copy)
    (f,) = meta.data_files()
    assert f.external_path is not None and f.external_path.startswith("file:/") == as_uri
    data_path = Path(meta.filesystem_path(f.path))
    assert data_path == external_dir / f.file_name
    assert parquet_rows(meta, f.path) == f.row_count == 8
    sidecar = Path(meta.filesystem_path(index_sidecar_path(f)))
    assert sidecar == external_dir / (f.file_name + ".index")
    data = meta.index_bytes(f)
    assert data[:8] == INDEX_MAGIC and data == sidecar.read_bytes()


def test_missing_sidecar_is_a_clear_error(tmp_path):
    name = "append_with_bitmap_no_embedding"
    copy = writable_copy(table_dir(name), tmp_path / name)
    (f,) = PaimonTableMetadata(copy).data_files()
    Path(index_sidecar_path(f)).unlink()
    with pytest.raises(PaimonMetadataError, match="not found"):
        PaimonTableMetadata(copy).index_bytes(f)


def test_two_index_sidecars_are_rejected():
    meta = open_table("append_with_bitmap_no_embedding")
    (f,) = meta.data_files()
    doubled = dataclasses.replace(
        f, extra_files=f.extra_files + ("other-1.index",),
        extra_file_paths=f.extra_file_paths + (f.extra_file_paths[0] + "-1",))
    with pytest.raises(PaimonMetadataError, match="more than one index file"):
        meta.index_bytes(doubled)


def test_no_index_gives_none():
    meta = open_table("append_with_bitmap_no_embedding")
    (f,) = meta.data_files()
    bare = dataclasses.replace(f, extra_files=(), extra_file_paths=())
    assert meta.index_bytes(bare) is None and meta.index_source(bare) is None


def test_schema_by_id_has_its_own_name_and_the_old_one_warns():
    # pyfileindex.schema.load_schema reads a schema file; the table layer's loader by id is
    # load_schema_by_id, its old name (load_schema) still working with a warning.
    import pyfileindex.paimon as paimon
    from pyfileindex.paimon import load_schema_by_id
    from pyfileindex.paimon import schema as paimon_schema

    meta = open_table("append_with_bitmap_alter_table")
    old = load_schema_by_id(meta.table, 0)
    assert old.schema_id == 0 and [f.name for f in old.fields] == ["f0", "f1", "f2", "f3"]
    assert "load_schema" not in paimon.__all__
    for module in (paimon, paimon_schema):
        with pytest.warns(DeprecationWarning, match="use pyfileindex.paimon.load_schema_by_id"):
            alias = module.load_schema
        assert alias is load_schema_by_id
    with pytest.raises(AttributeError, match="no attribute 'load_schemas'"):
        paimon.load_schemas


def test_unknown_snapshot_schema_and_table_are_clear_errors(tmp_path):
    meta = open_table("append_with_bitmap")
    with pytest.raises(PaimonMetadataError, match="no snapshot 7"):
        meta.snapshot(7)
    with pytest.raises(PaimonMetadataError, match="no schema 5"):
        meta.schema(5)
    with pytest.raises(PaimonMetadataError):
        PaimonTableMetadata(tmp_path / "not-a-table")
    with pytest.raises(ValueError):
        PaimonTableMetadata()


def golden_dv_file() -> bytes:
    (path,) = (table_dir("pk_with_bitmap_dv") / "index").glob("index-*")
    return path.read_bytes()


def test_dv_file_layout_matches_java_format():
    data = golden_dv_file()
    assert data[0] == 1  # index file version
    assert struct.unpack_from(">i", data, 1)[0] == 24
    assert struct.unpack_from(">I", data, 5)[0] == BITMAP32_MAGIC
    assert struct.unpack_from(">I", data, 29)[0] == zlib.crc32(data[5:29])
    assert list(BitMap.deserialize(data[9:29])) == [0, 4]
    assert list(decode_deletion_vector(data, 1, 24).bitmap) == [0, 4]


@pytest.mark.parametrize("corrupt", ["flip_bitmap", "truncate", "wrong_length", "bad_magic", "bad_version"])
def test_corrupt_deletion_vectors_raise(corrupt):
    data = bytearray(golden_dv_file())
    ranges = {"f": (1, 24)}
    if corrupt == "flip_bitmap":
        data[20] ^= 0xFF
    elif corrupt == "truncate":
        data = data[:20]
    elif corrupt == "wrong_length":
        ranges = {"f": (1, 23)}
    elif corrupt == "bad_magic":
        data[5] ^= 0x01
    elif corrupt == "bad_version":
        data[0] = 2
    with pytest.raises(PaimonMetadataError):
        decode_index_file(bytes(data), ranges)


def test_64bit_deletion_vector_is_decoded_and_flagged():
    # Layout of Java's Bitmap64DeletionVector: magic little-endian, portable 64-bit bitmap,
    # and a manifest range covering length prefix + data + CRC.
    positions = [3, 7, (1 << 32) + 5]
    payload = struct.pack("<I", BITMAP64_MAGIC) + BitMap64(positions).serialize()
    framed = struct.pack(">i", len(payload)) + payload + struct.pack(">I", zlib.crc32(payload))
    vectors = decode_index_file(b"\x01" + framed, {"f": (1, len(framed))})
    dv = vectors["f"]
    assert dv.is_64bit and dv.cardinality == 3
    assert dv.positions().dtype == np.uint64
    assert dv.positions().tolist() == positions
    assert (1 << 32) + 5 in dv and 4 not in dv
