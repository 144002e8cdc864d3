"""Convenience entry points over the native IndexWriter / IndexReader."""

from __future__ import annotations

from typing import Iterable, Mapping, Optional, Sequence, Tuple, Union

from pyfileindex._native import IndexReader, IndexWriter

Fields = Sequence[Tuple[str, str]]


def build_index(data, fields: Fields, options: Mapping[str, str]) -> Optional[bytes]:
    """The file-index container Java Paimon writes for `data` (one data file's rows).

    `data` is a pyarrow Table / RecordBatch, any Arrow PyCapsule exporter, or an iterable of
    record batches in row order. Returns None when `options` declare no index.
    """
    writer = IndexWriter(fields, options)
    if hasattr(data, "__arrow_c_array__") or hasattr(data, "__arrow_c_stream__"):
        writer.write(data)
    else:
        for batch in data:
            writer.write(batch)
    return writer.finish()


def open_index(source: Union[bytes, bytearray, memoryview, str, "os.PathLike"],
               fields: Optional[Iterable[Tuple[str, str]]] = None,
               row_count: Optional[int] = None) -> IndexReader:
    """Opens container bytes, a buffer (e.g. mmap) or a file path; `row_count` is the data
    file's (an index storing another is corrupt: RowCountMismatchError)."""
    return IndexReader(source, list(fields) if fields is not None else None, row_count)
