"""Writes a benchmark column as the little-endian dump the Java harness reads (ColumnDump.java).

Layout: magic b"PFIBCOL1"; int32 kind (1 INT, 2 BIGINT, 3 DOUBLE, 4 STRING); int64 row
count n; int32 has-nulls flag, then n bytes (1 = null) when set; then the values: n int32 /
int64 / float64, or for STRING n + 1 int32 offsets followed by the UTF-8 bytes. Values at
null rows are written but never read.

Shipping 10M values as JSON would cost more than the index builds being measured; a dump is
written once per column and memory-mapped by the JVM.
"""

from __future__ import annotations

import os
import struct
from pathlib import Path

import numpy as np
import pyarrow as pa

MAGIC = b"PFIBCOL1"
_KINDS = {"int": 1, "timestamp": 2, "double": 3, "string": 4}
_DTYPES = {"int": "<i4", "timestamp": "<i8", "double": "<f8"}


def write_dump(column, path: Path) -> Path:
    """Writes `column` (cases.Column) to `path` atomically; returns the path."""
    path = Path(path)
    tmp = path.with_name(path.name + f".tmp{os.getpid()}")
    kind = column.spec.kind
    with open(tmp, "wb") as out:
        out.write(MAGIC)
        out.write(struct.pack("<iq", _KINDS[kind], column.rows))
        if column.mask is None:
            out.write(struct.pack("<i", 0))
        else:
            out.write(struct.pack("<i", 1))
            out.write(column.mask.astype(np.uint8).tobytes())
        if kind == "string":
            offsets, data = _string_buffers(column.arrow)
            out.write(offsets.astype("<i4").tobytes())
            out.write(data)
        else:
            out.write(np.ascontiguousarray(column.values, dtype=_DTYPES[kind]).tobytes())
    os.replace(tmp, path)
    return path


def _string_buffers(array: pa.Array):
    """Offsets (rebased to 0) and value bytes of a StringArray (a DictionaryArray is decoded);
    null rows are empty strings."""
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    if pa.types.is_dictionary(array.type):
        array = array.dictionary_decode()
    array = array.fill_null("") if array.null_count else array
    buffers = array.buffers()
    offsets = np.frombuffer(buffers[1], dtype="<i4", count=len(array) + 1,
                            offset=array.offset * 4)
    begin, end = int(offsets[0]), int(offsets[-1])
    data = memoryview(buffers[2])[begin:end] if buffers[2] is not None else b""
    return offsets - begin, bytes(data)
