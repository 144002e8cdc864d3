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
    from .store import StoreError, bound_store_requests, missing_bucket, redact_text
    from pypaimon.common.file_io import FileIO
    from pypaimon.common.identifier import Identifier
    from pypaimon.common.options import Options
    from pypaimon.schema.schema_manager import SchemaManager
    options = dict(options or {})
    path = str(table_path)
    file_io = None
    try:
        # FileStoreTable.from_path, with the file IO's request limits applied before
        # the first request (the schema) is made.
        file_io = FileIO.get(path, Options(options))
        bound_store_requests(file_io, path)
        schema = SchemaManager(file_io, path).latest()
        if schema is None:
            raise ValueError(f"No schema found at path: {table_path}")
        return FileStoreTable(file_io, Identifier("default", "table"), path, schema)
    except (ValueError, RuntimeError, OSError) as exc:
        reason = str(exc)
        bucket = None
        if file_io is not None:  # FileIO.get itself failed otherwise: no store to ask
            try:
                bucket = missing_bucket(file_io, path)
            except (ValueError, RuntimeError, OSError):
                pass
        store_failure = _store_failure(exc)
        if bucket is not None:
            reason = f"bucket '{bucket}' not found"
        elif store_failure is not None and store_failure is not exc:
            reason = f"{reason}: {store_failure}"  # pypaimon's wrapper hides the store's reason
        message = redact_text(f"cannot open Paimon table at {table_path}: {reason}",
                              options.items())
        error = StoreError if store_failure is not None or bucket is not None \
            else PaimonMetadataError
        raise error(message) from None


def _store_failure(exc: BaseException) -> Optional[OSError]:
    """The OSError of the store behind `exc` (itself or what it wraps), if any."""
    seen = 0
    while exc is not None and seen < 8:
        if isinstance(exc, OSError):
            return exc
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return None


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


def _serving_file_io(file_io, path: str):
    """The file IO that actually serves `path`: resolving and caching file IOs unwrapped."""
    for _ in range(4):  # unwrap at most a few delegating layers
        if hasattr(file_io, "_get_fileio"):  # ResolvingFileIO: one file IO per scheme
            file_io = file_io._get_fileio(path)
        elif hasattr(file_io, "_delegate"):  # CachingFileIO
            file_io = file_io._delegate
        else:
            break
    return file_io


def arrow_filesystem(file_io, path: str):
    """(pyarrow FileSystem, path on it) behind the file IO that serves `path`, or
    (None, None) when that file IO has none.

    pypaimon's local, S3/OSS/GCS and HDFS file IOs each keep a pyarrow filesystem as
    `.filesystem`; the resolving and caching file IOs delegate to one of them.
    """
    import pyarrow.fs as pafs

    file_io = _serving_file_io(file_io, path)
    filesystem = getattr(file_io, "filesystem", None)
    if not isinstance(filesystem, pafs.FileSystem):
        return None, None
    return filesystem, file_io.to_filesystem_path(path)


def replace_s3_filesystem(file_io, path: str, rebuild) -> bool:
    """Give the file IO serving `path` the S3 filesystem `rebuild(current)` returns, once
    per file IO (pypaimon builds its S3FileSystem itself, with fixed request limits);
    False when it has no S3 filesystem or was given one already."""
    import pyarrow.fs as pafs

    serving = _serving_file_io(file_io, path)
    filesystem = getattr(serving, "filesystem", None)
    if not isinstance(filesystem, pafs.S3FileSystem) or getattr(
            serving, "_pyfileindex_rebuilt_s3", False):
        return False
    serving.filesystem = rebuild(filesystem)
    serving._pyfileindex_rebuilt_s3 = True
    return True


def file_io_options(file_io) -> dict:
    """The options (catalog / file-system options) the file IO was made with."""
    properties = getattr(file_io, "properties", None)
    if properties is None and hasattr(file_io, "_delegate"):
        properties = getattr(file_io._delegate, "properties", None)
    if properties is None:
        return {}
    return dict(properties.to_map()) if hasattr(properties, "to_map") else dict(properties)


def file_io_secrets(file_io) -> List[str]:
    """Values of the file IO's options that are credentials (keys, secrets, tokens)."""
    from .store import credential_values
    return credential_values(file_io_options(file_io).items())


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
