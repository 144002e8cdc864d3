"""The only module that talks to pypaimon.

pypaimon (the Apache Paimon Python API) already reads snapshots, schemas,
manifest lists, manifests and index manifests, and resolves Java's path layout
(partition directories, external paths, sidecars aligned with their data file,
index directories). Some of those helpers are not part of its documented API,
so every call into pypaimon is kept here: a pypaimon upgrade that moves them
breaks this one file, not the whole layer.
"""

from concurrent.futures import ThreadPoolExecutor
from typing import Any, List, Optional, Sequence, Tuple

from pypaimon.index.index_file_handler import IndexFileHandler
from pypaimon.manifest.manifest_file_manager import ManifestFileManager
from pypaimon.manifest.manifest_list_manager import ManifestListManager
from pypaimon.table.file_store_table import FileStoreTable
from pypaimon.utils.file_store_path_factory import canonical_data_file_path

from .errors import PaimonMetadataError

# Manifest entry kinds (Java FileKind).
KIND_ADD = 0


def open_table(table_path: str, options: Optional[dict] = None) -> FileStoreTable:
    """Open a table directory written by Java or Python Paimon; `options` configure its
    file IO as catalog options do (e.g. `fs.s3.endpoint` for a table on S3)."""
    from .store import missing_bucket, redact_text
    options = dict(options or {})
    try:
        return FileStoreTable.from_path(str(table_path), options)
    except (ValueError, RuntimeError, OSError) as exc:
        reason = str(exc)
        try:
            from pypaimon.common.file_io import FileIO
            from pypaimon.common.options import Options
            bucket = missing_bucket(FileIO.get(str(table_path), Options(options)),
                                    str(table_path))
        except (ValueError, RuntimeError, OSError):
            bucket = None
        if bucket is not None:
            reason = f"bucket '{bucket}' not found"
        message = redact_text(f"cannot open Paimon table at {table_path}: {reason}",
                              options.items())
        raise PaimonMetadataError(message) from None


def latest_snapshot(table: FileStoreTable):
    return table.snapshot_manager().get_latest_snapshot()


def snapshot_by_id(table: FileStoreTable, snapshot_id: int):
    return table.snapshot_manager().get_snapshot_by_id(int(snapshot_id))


def schema_by_id(table: FileStoreTable, schema_id: int):
    return table.schema_manager.get_schema(int(schema_id))


def all_schemas(table: FileStoreTable) -> List[Any]:
    return table.schema_manager.list_all()


def live_manifest_entries(table: FileStoreTable, snapshot) -> List[Any]:
    """The snapshot's live data files: its base + delta manifests merged in order, as Java's
    FileEntry.mergeEntries does.

    Entries are identified like Java's FileEntry.Identifier (partition, bucket, level, file
    name, extra files, embedded index, external path). The merge must follow manifest order:
    an index rewrite that brings a file back to an earlier index (e.g. removing the index it
    had gained) ADDs an identity that an earlier manifest DELETEd, and that ADD is live.
    (pypaimon's read_entries_parallel drops every ADD whose identity was ever deleted.)
    Stats are kept so later pruning can use them.
    """
    manifests = ManifestListManager(table).read_all(snapshot)
    reader = ManifestFileManager(table)

    def read(manifest) -> List[Any]:
        return reader.read(manifest.file_name, drop_stats=False, file_size=manifest.file_size)

    live = {}  # identifier -> entry; insertion-ordered like Java's LinkedHashMap
    with ThreadPoolExecutor(max_workers=2) as pool:
        for entries in pool.map(read, manifests):  # in manifest order
            for entry in entries:
                key = _entry_identifier(entry)
                if entry.kind == KIND_ADD:
                    if key in live:
                        raise PaimonMetadataError(
                            f"manifest adds data file {entry.file.file_name} twice")
                    live[key] = entry
                elif key in live:
                    del live[key]
                else:
                    live[key] = entry  # deletes a file of a manifest not read here
    return [entry for entry in live.values() if entry.kind == KIND_ADD]


def _entry_identifier(entry) -> tuple:
    file = entry.file
    return (tuple(entry.partition.values), entry.bucket, file.level, file.file_name,
            tuple(file.extra_files or ()), file.embedded_index, file.external_path)


def index_manifest_entries(table: FileStoreTable, snapshot) -> List[Any]:
    """Entries of the snapshot's index manifest (empty when it has none)."""
    if not snapshot.index_manifest:
        return []
    return IndexFileHandler(table).scan(snapshot)


def resolve_data_file_path(table: FileStoreTable, partition: Sequence[Any],
                           bucket: int, meta) -> str:
    """Where the data file lives: its external path if set, else the bucket dir.

    Also records the path on the pypaimon meta, which pypaimon's own readers
    need before resolving sidecars against it.
    """
    if meta.external_path:
        path = meta.physical_path()
    else:
        path = canonical_data_file_path(
            table, tuple(partition), bucket, meta.file_name)
    meta.file_path = path
    return path


def resolve_aligned_paths(meta, names: Sequence[str]) -> Tuple[str, ...]:
    """Paths of sidecar files (e.g. `<file>.index`) next to the data file.

    Java's DataFilePathFactory.toAlignedPath puts them in the directory of the
    data file's physical path, which is the external directory when set.
    """
    return tuple(meta.aligned_file_path(name) for name in names)


def resolve_index_file_path(table: FileStoreTable, partition: Sequence[Any],
                            bucket: int, index_file) -> str:
    """Path of a bucket index file (deletion vectors, hash index)."""
    return table.path_factory().bucket_index_path(
        tuple(partition), bucket, index_file, table.file_io)


def read_file_bytes(table: FileStoreTable, path: str) -> bytes:
    """Whole content of a file through the table's FileIO."""
    from .store import store_error
    try:
        with table.file_io.new_input_stream(path) as stream:
            return stream.read()
    except OSError as exc:
        raise store_error(table.file_io, "read", path, exc) from None


def arrow_filesystem(file_io, path: str):
    """(pyarrow FileSystem, path on it) behind the file IO that serves `path`, or
    (None, None) when that file IO has none.

    pypaimon's local, S3/OSS/GCS and HDFS file IOs each keep a pyarrow filesystem as
    `.filesystem`; the resolving and caching file IOs delegate to one of them.
    """
    import pyarrow.fs as pafs

    for _ in range(4):  # unwrap at most a few delegating layers
        if hasattr(file_io, "_get_fileio"):  # ResolvingFileIO: one file IO per scheme
            file_io = file_io._get_fileio(path)
        elif hasattr(file_io, "_delegate"):  # CachingFileIO
            file_io = file_io._delegate
        else:
            break
    filesystem = getattr(file_io, "filesystem", None)
    if not isinstance(filesystem, pafs.FileSystem):
        return None, None
    return filesystem, file_io.to_filesystem_path(path)


def file_io_secrets(file_io) -> List[str]:
    """Values of the file IO's options that are credentials (keys, secrets, tokens)."""
    properties = getattr(file_io, "properties", None)
    if properties is None and hasattr(file_io, "_delegate"):
        properties = getattr(file_io._delegate, "properties", None)
    if properties is None:
        return []
    items = properties.to_map().items() if hasattr(properties, "to_map") else dict(
        properties).items()
    from .store import credential_values
    return credential_values(items)


def file_exists(table: FileStoreTable, path: str) -> bool:
    return table.file_io.exists(path)


def partition_dict(row) -> dict:
    """Partition row as an ordered {column: value} dict."""
    return {field.name: value for field, value in zip(row.fields, row.values)}


def type_string(data_type) -> str:
    """Paimon type string as Java writes it in schema files (e.g. 'INT NOT NULL')."""
    return str(data_type)


def optional_list(value) -> Optional[List[Any]]:
    return None if value is None else list(value)


def filesystem_path(table: FileStoreTable, path: str) -> str:
    """A path as the table's filesystem sees it (e.g. 'file:/x' -> '/x' locally)."""
    return table.file_io.to_filesystem_path(path)


def arrow_schema(table_schema):
    """The Arrow schema pypaimon reads and writes for a TableSchema's fields."""
    from pypaimon.schema.data_types import PyarrowFieldParser
    return PyarrowFieldParser.from_paimon_schema(table_schema.fields)


def read_merged(table: FileStoreTable, snapshot_id: Optional[int], columns: Sequence[str]):
    """All rows of a snapshot through pypaimon's own reader (merge-on-read for primary keys)."""
    if snapshot_id is not None:
        table = table.copy({"scan.snapshot-id": str(int(snapshot_id))})
    builder = table.new_read_builder().with_projection(list(columns))
    splits = builder.new_scan().plan().splits()
    return builder.new_read().to_arrow(splits)


def table_identity(table) -> str:
    return str(table.table_path)
