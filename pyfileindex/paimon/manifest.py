"""The live data files of a snapshot, with everything the file index needs."""

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from . import _pypaimon
from .deletion_vectors import DeletionVector, read_deletion_vectors

INDEX_FILE_SUFFIX = ".index"

# DataFileMeta.fileSource values (Java FileSource).
FILE_SOURCE_NAMES = {0: "APPEND", 1: "COMPACT"}


@dataclass
class DataFile:
    """One live data file of a snapshot (a manifest entry's DataFileMeta)."""

    partition: Dict[str, Any]  # partition column -> value, in key order
    bucket: int
    total_buckets: int
    file_name: str
    path: str  # physical location: the external path when set, else the bucket dir
    external_path: Optional[str]  # raw _EXTERNAL_PATH of the manifest entry
    file_size: int
    row_count: int
    schema_id: int
    level: int
    min_sequence_number: int
    max_sequence_number: int
    embedded_index: Optional[bytes]  # _EMBEDDED_FILE_INDEX
    extra_files: Tuple[str, ...]  # _EXTRA_FILES (names)
    extra_file_paths: Tuple[str, ...]  # the same files, resolved next to `path`
    file_source: Optional[int]
    delete_row_count: Optional[int]
    first_row_id: Optional[int]  # row tracking / data evolution
    write_cols: Optional[Tuple[str, ...]]  # data evolution: columns this file holds
    deletion_vector: Optional[DeletionVector] = None
    meta: Any = field(default=None, repr=False, compare=False)  # pypaimon DataFileMeta

    @property
    def partition_values(self) -> tuple:
        return tuple(self.partition.values())

    @property
    def file_source_name(self) -> Optional[str]:
        return None if self.file_source is None else FILE_SOURCE_NAMES.get(self.file_source)

    @property
    def index_file_names(self) -> Tuple[str, ...]:
        """Extra files that are file-index sidecars (`*.index`)."""
        return tuple(n for n in self.extra_files if n.endswith(INDEX_FILE_SUFFIX))

    @property
    def index_file_paths(self) -> Tuple[str, ...]:
        return tuple(p for n, p in zip(self.extra_files, self.extra_file_paths)
                     if n.endswith(INDEX_FILE_SUFFIX))

    @property
    def row_id_range(self) -> Optional[Tuple[int, int]]:
        """Inclusive (first, last) row id for row-tracking tables, else None."""
        if self.first_row_id is None:
            return None
        return self.first_row_id, self.first_row_id + self.row_count - 1


def _data_file_from_entry(table, entry) -> DataFile:
    return data_file_from_meta(table, entry.partition, entry.bucket, entry.total_buckets,
                               entry.file)


def data_file_from_meta(table, partition_row, bucket: int, total_buckets: int,
                        meta, path: Optional[str] = None) -> DataFile:
    """A DataFile (no deletion vector) from a pypaimon DataFileMeta and where it lives
    (a manifest entry's, or a split's, partition row and bucket); `path`: the data file's
    location when already resolved (pypaimon's scan resolves it for its splits)."""
    partition = _pypaimon.partition_dict(partition_row)
    if path is None:
        path = _pypaimon.resolve_data_file_path(table, tuple(partition.values()), bucket, meta)
    extra_files = tuple(meta.extra_files or ())
    write_cols = _pypaimon.optional_list(meta.write_cols)
    return DataFile(
        partition=partition,
        bucket=bucket,
        total_buckets=total_buckets,
        file_name=meta.file_name,
        path=path,
        external_path=meta.external_path,
        file_size=meta.file_size,
        row_count=meta.row_count,
        schema_id=meta.schema_id,
        level=meta.level,
        min_sequence_number=meta.min_sequence_number,
        max_sequence_number=meta.max_sequence_number,
        embedded_index=meta.embedded_index,
        extra_files=extra_files,
        extra_file_paths=_pypaimon.resolve_aligned_paths(meta, extra_files),
        file_source=meta.file_source,
        delete_row_count=meta.delete_row_count,
        first_row_id=meta.first_row_id,
        write_cols=None if write_cols is None else tuple(write_cols),
        meta=meta,
    )


def live_data_files(table, snapshot, with_deletion_vectors: bool = True) -> List[DataFile]:
    """Data files of `snapshot` (ADD minus DELETE over base + delta manifests).

    Order follows the manifests. With `with_deletion_vectors`, each file gets
    its deletion vector from the snapshot's index manifest (None if it has none).
    """
    files = [_data_file_from_entry(table, e)
             for e in _pypaimon.live_manifest_entries(table, snapshot)]
    if with_deletion_vectors and snapshot.index_manifest:
        vectors = read_deletion_vectors(table, snapshot)
        for f in files:
            f.deletion_vector = vectors.get((f.partition_values, f.bucket, f.file_name))
    return files
