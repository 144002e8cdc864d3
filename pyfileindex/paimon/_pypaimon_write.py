"""The only module that hooks into pypaimon's write path (pinned pypaimon 2.1.0).

pypaimon writes append tables without file indexes. We subclass, never monkeypatch:

* IndexingBatchTableWrite (a BatchTableWrite) overrides the factory method
  `_create_file_store_write` to return an IndexingFileStoreWrite;
* IndexingFileStoreWrite (a FileStoreWrite) overrides `_create_data_writer`: where
  pypaimon would use a plain AppendOnlyDataWriter it uses IndexingAppendOnlyDataWriter;
* IndexingAppendOnlyDataWriter overrides `_write_data_to_file(data)` (the exact rows of
  one data file, in file order: it builds the index natively from them before the file
  is written) and `_create_data_file_meta(...)` (called once the data file exists: it
  writes the sidecar, if any, and records `embedded_index` / `extra_files` on the
  DataFileMeta that goes into the commit message). If the rest of the file's write
  fails, the sidecar is deleted again; pypaimon's abort deletes a data file together
  with every extra file its meta lists, the sidecar included.

Commits of index rewrites need a COMPACT snapshot (DELETE the old manifest entry, ADD
the new one), which pypaimon's public commit rejects; `commit_compact` goes through
FileStoreCommit._try_commit, the method pypaimon's own commits use.
"""

from typing import Callable, List, Optional

from pypaimon.manifest.schema.manifest_entry import ManifestEntry
from pypaimon.snapshot.snapshot import BATCH_COMMIT_IDENTIFIER
from pypaimon.table.row.generic_row import GenericRow
from pypaimon.write.file_store_write import FileStoreWrite
from pypaimon.write.table_write import BatchTableWrite
from pypaimon.write.writer.append_only_data_writer import AppendOnlyDataWriter

KIND_ADD = 0
KIND_DELETE = 1

# attach(meta, index bytes, data file path) -> path of a sidecar it wrote, or None
AttachIndex = Callable[[object, bytes, str], Optional[str]]
# build(arrow table of one data file) -> container bytes, or None
BuildIndex = Callable[[object], Optional[bytes]]


class IndexingAppendOnlyDataWriter(AppendOnlyDataWriter):
    """An append-only data writer that gives every data file its file index."""

    def __init__(self, *args, build_index: BuildIndex, attach_index: AttachIndex, **kwargs):
        super().__init__(*args, **kwargs)
        self._build_index = build_index
        self._attach_index = attach_index
        self._pending_index: Optional[bytes] = None
        self._sidecar_path: Optional[str] = None

    def _write_data_to_file(self, data):
        if data.num_rows == 0:
            return super()._write_data_to_file(data)
        self._pending_index = self._build_index(data)
        self._sidecar_path = None
        try:
            super()._write_data_to_file(data)
        except BaseException:
            if self._sidecar_path is not None:
                self.file_io.delete_quietly(self._sidecar_path)
            raise
        finally:
            self._pending_index = None
            self._sidecar_path = None

    def _create_data_file_meta(self, file_name, file_path, *args, **kwargs):
        meta = super()._create_data_file_meta(file_name, file_path, *args, **kwargs)
        if self._pending_index is not None:
            self._sidecar_path = self._attach_index(meta, self._pending_index, file_path)
        return meta


class IndexingFileStoreWrite(FileStoreWrite):
    def __init__(self, table, commit_user, build_index: BuildIndex, attach_index: AttachIndex):
        self._build_index = build_index
        self._attach_index = attach_index
        super().__init__(table, commit_user)

    def _create_data_writer(self, partition, bucket, options):
        plain = super()._create_data_writer(partition, bucket, options)
        if type(plain) is not AppendOnlyDataWriter:
            raise NotImplementedError(
                "writing file indexes is supported for append tables written by pypaimon's "
                f"AppendOnlyDataWriter, not {type(plain).__name__}")
        return IndexingAppendOnlyDataWriter(
            table=self.table, partition=partition, bucket=bucket,
            max_seq_number=plain.sequence_generator.start, options=options,
            write_cols=self.write_cols, changelog_producer=self.changelog_producer,
            build_index=self._build_index, attach_index=self._attach_index)


class IndexingBatchTableWrite(BatchTableWrite):
    def __init__(self, table, commit_user, static_partition, build_index: BuildIndex,
                 attach_index: AttachIndex):
        # Set before BatchTableWrite.__init__, which calls _create_file_store_write.
        self._build_index = build_index
        self._attach_index = attach_index
        super().__init__(table, commit_user, static_partition)

    def _create_file_store_write(self, commit_user):
        return IndexingFileStoreWrite(self.table, commit_user, self._build_index,
                                      self._attach_index)


def new_batch_write(table, build_index: BuildIndex, attach_index: AttachIndex,
                    overwrite: Optional[dict] = None):
    """(IndexingBatchTableWrite, BatchTableCommit) sharing one commit user."""
    builder = table.new_batch_write_builder()
    if overwrite is not None:
        builder.overwrite(overwrite)
    write = IndexingBatchTableWrite(table, builder.commit_user, builder.static_partition,
                                    build_index, attach_index)
    return write, builder.new_commit()


def commit_compact(table, commit_user: str, changes: List[tuple],
                   commit_identifier: int = BATCH_COMMIT_IDENTIFIER) -> None:
    """Commit a COMPACT snapshot replacing data file metas.

    `changes`: (partition values tuple, bucket, total_buckets, old meta, new meta). The
    DELETE entry carries the old meta exactly as the manifest has it (pypaimon matches
    entries by partition, bucket, level, name, extra files, embedded index, external
    path); conflict detection fails the commit if another commit removed it meanwhile.
    """
    entries = []
    for partition, bucket, total_buckets, old, new in changes:
        row = GenericRow(list(partition), table.partition_keys_fields)
        entries.append(ManifestEntry(kind=KIND_DELETE, partition=row, bucket=bucket,
                                     total_buckets=total_buckets, file=old))
        entries.append(ManifestEntry(kind=KIND_ADD, partition=row, bucket=bucket,
                                     total_buckets=total_buckets, file=new))
    commit = table.new_batch_write_builder()._with_commit_user(commit_user).new_commit()
    try:
        commit.file_store_commit._try_commit(
            commit_kind="COMPACT", commit_identifier=commit_identifier,
            commit_entries_plan=lambda snapshot: entries, detect_conflicts=True,
            allow_rollback=False)
    finally:
        commit.close()


def is_commit_conflict(exc: BaseException) -> bool:
    """Did a pypaimon commit give up because of a concurrent commit? Its conflict check
    ("File deletion conflicts detected") and its exhausted retries ("commit conflicts
    between multiple jobs") raise plain RuntimeErrors that say so."""
    return isinstance(exc, RuntimeError) and "conflict" in str(exc).lower()


def commit_or_abort(table, commit, messages) -> Optional[int]:
    """Commit `messages` with `commit` (a BatchTableCommit); the id of the snapshot it made.
    If the commit fails, the messages' files are deleted only when it certainly did not land
    (a snapshot by this commit user may exist even though commit() raised)."""
    latest = table.snapshot_manager().get_latest_snapshot()
    before = None if latest is None else latest.id
    try:
        commit.commit(messages)
    except BaseException:
        if snapshot_committed_by(table, commit.commit_user, before) is None:
            commit.abort(messages)
        raise
    return snapshot_committed_by(table, commit.commit_user, before)


def snapshot_committed_by(table, commit_user: str, after_snapshot_id: Optional[int],
                          commit_identifier: int = BATCH_COMMIT_IDENTIFIER) -> Optional[int]:
    """Id of a snapshot newer than `after_snapshot_id` committed by `commit_user`."""
    manager = table.snapshot_manager()
    latest = manager.get_latest_snapshot()
    if latest is None:
        return None
    for snapshot_id in range((after_snapshot_id or 0) + 1, latest.id + 1):
        snapshot = manager.get_snapshot_by_id(snapshot_id)
        if (snapshot is not None and snapshot.commit_user == commit_user
                and snapshot.commit_identifier == commit_identifier):
            return snapshot_id
    return None
