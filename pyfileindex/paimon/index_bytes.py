"""Finding the serialized file index of a data file.

Java (FileIndexEvaluator) uses the bytes embedded in the manifest entry when
present; otherwise the single `*.index` extra file, resolved next to the data
file (in the external directory when the data file has an external path).
More than one `*.index` extra file is an error, as in Java.
"""

from typing import Optional

from . import _pypaimon
from .errors import PaimonMetadataError
from .manifest import DataFile

EMBEDDED = "embedded"
SIDECAR = "sidecar"


def index_sidecar_path(data_file: DataFile) -> Optional[str]:
    """Path of the data file's `*.index` sidecar, or None if it lists none."""
    paths = data_file.index_file_paths
    if not paths:
        return None
    if len(paths) > 1:
        raise PaimonMetadataError(
            f"found more than one index file for data file {data_file.file_name}: "
            + " and ".join(data_file.index_file_names))
    return paths[0]


def index_source(data_file: DataFile) -> Optional[str]:
    """'embedded', 'sidecar' or None: where the index of the file lives."""
    if data_file.embedded_index is not None:
        return EMBEDDED
    if index_sidecar_path(data_file) is not None:
        return SIDECAR
    return None


def read_index_bytes(table, data_file: DataFile) -> Optional[bytes]:
    """The serialized file index of `data_file`, or None if it has no index."""
    if data_file.embedded_index is not None:
        return bytes(data_file.embedded_index)
    path = index_sidecar_path(data_file)
    if path is None:
        return None
    return _pypaimon.read_file_bytes(table, path)


def load_index(table, data_file: DataFile, columns=None):
    """(index buffer or None, IndexFetch or None) for evaluating predicates on `columns`
    (file-side names; None: any). A sidecar on an object store is fetched by ranged
    reads, its header and only the bodies of `columns` (ranged.py), with the fetch to
    report; a local one is read the same way through the table's file IO, with no fetch
    to report. A sidecar known to index none of `columns` (sidecar_columns.py) is not
    read at all: (None, None), as for a file without an index. (Not a memory map of the
    file: a sidecar truncated or replaced while a plan reads it must fail with an error,
    not kill the process with SIGBUS.)"""
    if data_file.embedded_index is not None:
        return bytes(data_file.embedded_index), None
    path = index_sidecar_path(data_file)
    if path is None:
        return None, None
    from .ranged import fetch_index
    from .sidecar_columns import indexes_none_of
    from .store import is_object_store
    if columns is not None and indexes_none_of(path, columns):
        return None, None
    buffer, fetch = fetch_index(table.file_io, path, columns)
    return buffer, (fetch if is_object_store(path) else None)

