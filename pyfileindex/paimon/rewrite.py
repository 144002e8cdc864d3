"""rewrite_file_index: rebuild the indexes of existing data files under the table's
current options, committed as Paimon's rewrite_file_index procedure does.

Java (FileIndexProcessor + the Spark/Flink procedure): per data file, read its rows,
build the index with the current options (columns mapped to the file's schema by field
id), store it embedded (<= threshold) or as a NEW sidecar named after the previous one
(`<file>.index` -> `<file>-1.index` -> `<file>-2.index` ...; `<file>.index` when the file
had none), and commit one COMPACT snapshot whose compact increment deletes the old
manifest entry and adds the new one. The old sidecar stays on disk: older snapshots
still reference it; Paimon removes such files when those snapshots expire or by orphan
cleanup (here: remove_orphan_index_files).

Deliberate differences from Java 2.0, all about correctness of the new entry:
* a new sidecar is named `<data file>-<token>.index`, the token random and fresh for each
  run (each Spark task attempt): two runs racing on one table never pick the same name,
  so neither can replace the other's object and a failed run's clean-up deletes only
  what it wrote. Java's next-number names can collide between concurrent runs, and an
  object store has no put-if-absent to catch that. Readers find a sidecar through the
  manifest's `_EXTRA_FILES`, so the name only has to end in `.index`;
* the new entry never keeps a stale index: going to a sidecar clears the embedded index,
  going embedded drops the old sidecar from `_EXTRA_FILES` (Java's DataFileMeta.copy
  keeps the other one);
* the index is rebuilt from scratch (Java merges in entries of the old sidecar for
  columns still declared, including index types no longer declared);
* a file whose rebuilt index equals its current one is left alone (Java only skips equal
  embedded indexes), so a repeated rewrite commits nothing new;
* a commit that conflicts with a concurrent one (both replaced the same file's entry)
  fails with CommitConflictError after deleting this run's sidecars.
"""

import dataclasses
import os
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import List, Mapping, Optional, Sequence, Tuple

import pyarrow as pa

from . import _pypaimon, _pypaimon_write
from .arrow_filter import filter_table
from .errors import CommitConflictError, PaimonMetadataError
from .manifest import INDEX_FILE_SUFFIX, DataFile
from .predicates import PredicateLike, bind_to_schema
from .schema import SchemaInfo
from .store import (delete_file, describe, is_object_store, list_files, put_new_object,
                    read_columns)
from .table import PaimonTableMetadata, open_metadata
from .writer import FileIndexSpec, temporary_name_target, write_temporary


@dataclass
class RewriteResult:
    snapshot_id: Optional[int]  # the COMPACT snapshot, None when nothing changed
    files_rewritten: int
    files_unchanged: int
    partitions: int
    new_sidecars: List[str]


def new_run_token() -> str:
    """A random token for one run's sidecar names (64 bits: runs never share one)."""
    return uuid.uuid4().hex[:16]


def rewritten_index_file_name(data_file_name: str, run_token: str) -> str:
    """The name of the sidecar a run with `run_token` writes for a data file."""
    return f"{data_file_name}-{run_token}{INDEX_FILE_SUFFIX}"


def _file_rows(meta: PaimonTableMetadata, data_file: DataFile, columns: Sequence[str],
               dictionary_columns: Sequence[str] = ()) -> pa.Table:
    return read_columns(meta.table.file_io, data_file.path, columns, dictionary_columns)


def build_file_index(table, data_file: DataFile) -> Optional[bytes]:
    """The index bytes our writer builds for an existing data file under the table's
    current options (what rewrite_file_index would store for it)."""
    meta = open_metadata(table)
    spec = FileIndexSpec.for_file(meta.schema(), meta.file_schema(data_file))
    if not spec.declares_indexes:
        return None
    return spec.build(_file_rows(meta, data_file, spec.indexed_columns, spec.dictionary_columns))


@dataclass(frozen=True)
class StoredIndex:
    """Where a data file's rebuilt index now lives: embedded in its manifest entry, in a
    new sidecar already written (its file name), or nowhere (both None: no index)."""

    embedded: Optional[bytes]
    sidecar: Optional[str]
    size: int  # bytes of the index container (0: none)


def rebuild_and_store(meta: PaimonTableMetadata, data_file: DataFile, threshold: int,
                      published: List[str], run_token: str) -> Optional[StoredIndex]:
    """Rebuild `data_file`'s index under the current options. None when it equals the
    stored one and sits where `threshold` puts it; otherwise a sidecar is written first
    (named with `run_token`) and its path appended to `published` (so a commit that does
    not land can remove it)."""
    index = build_file_index(meta, data_file)
    if index == meta.index_bytes(data_file) and _placed_as(data_file, index, threshold):
        return None
    if index is None or len(index) <= threshold:
        return StoredIndex(index, None, len(index or b""))
    name, path = store_sidecar(meta.table.file_io, data_file, index, run_token)
    published.append(path)
    return StoredIndex(None, name, len(index))


def store_sidecar(file_io, data_file: DataFile, index: bytes,
                  run_token: str) -> Tuple[str, str]:
    """Write `index` as a new sidecar of `data_file` and return its (name, path).

    The name carries the run's token, so it is new; an object or file of that name is
    still never replaced (an error instead). On a filesystem the bytes go to a temporary
    name renamed onto the free name (not every filesystem's rename refuses to replace a
    file); on an object store (no rename) they are put as one object."""
    name = rewritten_index_file_name(data_file.file_name, run_token)
    path = data_file.meta.aligned_file_path(name)
    if is_object_store(path):
        published = put_new_object(file_io, path, index)
    else:
        temp, published = write_temporary(file_io, path, index), False
        try:
            published = _rename_if_free(file_io, temp, path)
        finally:
            if not published:
                file_io.delete_quietly(temp)
    if not published:
        raise PaimonMetadataError(f"sidecar {describe(path)} already exists (a run token "
                                  f"used twice?); it is not replaced")
    return name, path


def _rename_if_free(file_io, temp: str, path: str) -> bool:
    if file_io.exists(path):
        return False
    if file_io.rename(temp, path):
        return True
    if file_io.exists(path):
        return False  # taken between the check and the rename
    raise PaimonMetadataError(f"cannot rename {temp} to {path}")


def replaced_meta(data_file: DataFile, stored: StoredIndex):
    """The pypaimon DataFileMeta of `data_file` carrying `stored` (and no other index)."""
    old = data_file.meta
    extras = [n for n in (old.extra_files or []) if not n.endswith(INDEX_FILE_SUFFIX)]
    if stored.sidecar is not None:
        extras.append(stored.sidecar)
    return dataclasses.replace(old, extra_files=extras, embedded_index=stored.embedded)


def commit_rebuilt(meta: PaimonTableMetadata, base_snapshot_id: int,
                   rebuilt: Sequence[Tuple[DataFile, StoredIndex]],
                   published: Sequence[str]) -> Optional[int]:
    """Commit the rebuilt indexes as one COMPACT snapshot on top of `base_snapshot_id`
    and return its id (None when nothing changed). Unless the commit certainly landed,
    the `published` sidecars are deleted again on failure: nothing references them.
    A commit that lost to a concurrent one raises CommitConflictError."""
    commit_user = str(uuid.uuid4())
    changes = []
    try:
        for data_file, stored in rebuilt:
            changes.append((data_file.partition_values, data_file.bucket,
                            data_file.total_buckets, data_file.meta,
                            replaced_meta(data_file, stored)))
        if changes:
            _pypaimon_write.commit_compact(meta.table, commit_user, changes)
    except BaseException as exc:
        landed = changes and _pypaimon_write.snapshot_committed_by(
            meta.table, commit_user, base_snapshot_id) is not None
        if not landed:
            delete_files(meta.table.file_io, published)
            if _pypaimon_write.is_commit_conflict(exc):
                raise CommitConflictError(
                    f"index rewrite of {meta.table.table_path} not committed: a concurrent "
                    f"commit replaced or removed data files it rebuilt after snapshot "
                    f"{base_snapshot_id}; its {len(published)} new sidecar(s) were "
                    f"deleted. Run it again. ({exc})") from exc
        raise
    if not changes:
        return None
    snapshot_id = _pypaimon_write.snapshot_committed_by(meta.table, commit_user,
                                                        base_snapshot_id)
    if snapshot_id is None:
        # The commit reported success, yet no snapshot is ours: a concurrent writer
        # replaced the snapshot file (a store without an atomic create). The sidecars
        # stay for the orphan clean-up: deleting now could race with a reader.
        raise CommitConflictError(
            f"index rewrite of {meta.table.table_path}: its snapshot was replaced by a "
            f"concurrent commit after snapshot {base_snapshot_id}; nothing of it is "
            f"committed. Run it again.")
    return snapshot_id


def delete_files(file_io, paths: Sequence[str]) -> None:
    for path in paths:
        file_io.delete_quietly(path)


def files_to_rebuild(meta: PaimonTableMetadata, partitions, where):
    """(the latest snapshot, its live data files selected by `partitions` / `where`)."""
    current = meta.schema()
    if str(current.options.get("data-evolution.enabled", "false")).lower() == "true":
        raise NotImplementedError("rebuilding file indexes of data-evolution tables is "
                                  "not supported")
    snapshot = meta.snapshot()
    accept = _partition_filter(current, partitions, where)
    return snapshot, [f for f in meta.data_files(snapshot.id, with_deletion_vectors=False)
                      if accept(f.partition)]


def _partition_filter(current: SchemaInfo, partitions, where):
    wanted = None if partitions is None else [dict(p) for p in partitions]
    bound = bind_to_schema(where, current) if where is not None else None
    arrow_fields = {f.name: f for f in _pypaimon.arrow_schema(current.raw)}

    def accept(values: Mapping) -> bool:
        if wanted is not None and not any(
                all(str(values.get(k)) == str(v) for k, v in p.items()) for p in wanted):
            return False
        if bound is None:
            return True
        row = pa.table({k: pa.array([v], type=arrow_fields[k].type) for k, v in values.items()})
        return filter_table(row, bound).num_rows == 1
    return accept


def _placed_as(data_file: DataFile, index: Optional[bytes], threshold: int) -> bool:
    """Is the file's index stored where the threshold now puts it?"""
    sidecars = data_file.index_file_names
    if index is None:
        return data_file.embedded_index is None and not sidecars
    if len(index) <= threshold:
        return data_file.embedded_index is not None and not sidecars
    return data_file.embedded_index is None and len(sidecars) == 1


def rewrite_file_index(table, partitions: Optional[Sequence[Mapping]] = None,
                       where: PredicateLike = None, max_workers: int = 4) -> RewriteResult:
    """Rebuild the file indexes of the latest snapshot's data files (optionally only of
    `partitions` ([{column: value}]) and/or partitions matching `where`, a predicate on
    partition columns) and commit them in one COMPACT snapshot."""
    meta = open_metadata(table)
    snapshot, files = files_to_rebuild(meta, partitions, where)
    threshold = FileIndexSpec.for_schema(meta.schema()).threshold
    published: List[str] = []  # appended from the pool's threads (list.append is atomic)
    run_token = new_run_token()

    def rebuild(data_file: DataFile):
        stored = rebuild_and_store(meta, data_file, threshold, published, run_token)
        return None if stored is None else (data_file, stored)

    try:
        with ThreadPoolExecutor(max_workers=max(1, max_workers)) as pool:
            rebuilt = [r for r in pool.map(rebuild, files) if r is not None]
    except BaseException:
        delete_files(meta.table.file_io, published)
        raise
    snapshot_id = commit_rebuilt(meta, snapshot.id, rebuilt, published)
    return RewriteResult(snapshot_id, len(rebuilt), len(files) - len(rebuilt),
                         len({data_file.partition_values for data_file, _ in rebuilt}),
                         list(published))


def remove_orphan_index_files(table, older_than_seconds: float = 86400.0,
                              dry_run: bool = False) -> List[str]:
    """Delete `*.index` sidecars that no snapshot on disk references, and temporary
    files of sidecars a killed writer left (`.<name>.index.<hex>.tmp`), older than
    `older_than_seconds` (so files of writes not yet committed survive), as Paimon's
    orphan-file cleanup does. Listing, times and deletes go through the table's file
    IO. Returns the paths removed (or to remove): local paths for a local table, URIs
    (`s3://bucket/key`) on an object store."""
    meta = open_metadata(table)
    file_io = meta.table.file_io
    referenced = set()
    directories = set()
    manager = meta.table.snapshot_manager()
    latest = manager.get_latest_snapshot()
    if latest is None:
        return []
    for snapshot_id in range(1, latest.id + 1):
        if manager.get_snapshot_by_id(snapshot_id) is None:
            continue
        for f in meta.data_files(snapshot_id, with_deletion_vectors=False):
            directories.add(f.path.rsplit("/", 1)[0])
            for path in f.extra_file_paths:
                referenced.add(_file_key(meta, path))
    cutoff = time.time() - older_than_seconds
    removed = []
    for directory in sorted(directories):
        for name, mtime in sorted(list_files(file_io, directory)):
            path = f"{directory}/{name}"
            if not _is_index_file(name) or _file_key(meta, path) in referenced:
                continue
            if mtime is None or mtime > cutoff:
                continue  # an unknown age counts as new: never delete what may be in use
            removed.append(_reported_path(meta, path))
            if not dry_run:
                delete_file(file_io, path)
    return removed


def _is_index_file(name: str) -> bool:
    """A sidecar, or a temporary file a sidecar was being written to."""
    target = temporary_name_target(name)
    return (target or name).endswith(INDEX_FILE_SUFFIX)


def _file_key(meta: PaimonTableMetadata, path: str) -> str:
    """One spelling per file: its path on the table's filesystem, normalized."""
    key = meta.filesystem_path(path)
    return key if is_object_store(path) else os.path.normpath(key)


def _reported_path(meta: PaimonTableMetadata, path: str) -> str:
    if is_object_store(path):
        scheme = path.split(":", 1)[0]
        return f"{scheme}://{meta.filesystem_path(path)}"
    return os.path.normpath(meta.filesystem_path(path))
