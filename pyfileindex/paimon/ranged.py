"""Reading only the parts of a sidecar a query needs, by ranged reads.

A file-index container is a header (magic, version, head length, then per column its
indexes with their byte ranges) followed by the index bodies. The native reader opens
the header only and parses a body the first time a predicate on its column asks
(FileIndexReader's lazily opened readers), so a buffer holding the header and the bodies
of the queried columns answers exactly as the whole container would.

On an object store a sidecar is fetched as: its size (opening it), one ranged read of
the first HEADER_PROBE bytes (the header, usually whole), a second one only when the
header is longer, then one ranged read per run of adjacent bodies of the queried
columns. The bytes land at their offsets in an anonymous memory map of the sidecar's
size: the pages of bodies never fetched are never touched, so planning many files
never holds their unread bodies in memory.
"""

import mmap
import struct
from dataclasses import dataclass
from typing import Collection, List, Optional, Tuple

from .store import open_input, store_error

HEADER_PROBE = 4096  # bytes read first: magic, version, head length and, usually, the header
_HEAD_LENGTH_AT = 12  # after the 8-byte magic and the 4-byte version


@dataclass(frozen=True)
class IndexFetch:
    """What reading one sidecar cost: requests to the store and bytes fetched."""

    path: str
    size: int  # the sidecar's bytes
    header: int  # its header's bytes (0 when unknown: read whole)
    requests: int  # opening (the size) + ranged reads
    fetched: int  # bytes read
    bodies: int  # index bodies fetched


def _runs(ranges: List[Tuple[int, int]]) -> List[Tuple[int, int]]:
    """(offset, length) ranges merged where they touch or overlap, in file order."""
    merged: List[Tuple[int, int]] = []
    for offset, length in sorted(ranges):
        if merged and offset <= merged[-1][0] + merged[-1][1]:
            start, run = merged[-1]
            merged[-1] = (start, max(run, offset + length - start))
        else:
            merged.append((offset, length))
    return merged


def fetch_index(file_io, path: str, columns: Optional[Collection[str]]):
    """(buffer, IndexFetch): the sidecar at `path` with its header and the bodies of the
    indexes on `columns` (file-side column names, map entries as `m[key]`) filled in; the
    whole sidecar when `columns` is None. The buffer is bytes or a read-only-by-contract
    memory map, for pyfileindex.IndexReader."""
    from pyfileindex import IndexReader

    source = open_input(file_io, path)
    requests, fetched = 1, 0  # opening asks the store for the size
    try:
        size = source.size()
        probe = min(size, HEADER_PROBE)
        head = source.read_at(probe, 0) if probe else b""
        requests += 1 if probe else 0
        fetched += len(head)
        head_length = (struct.unpack(">i", head[_HEAD_LENGTH_AT:_HEAD_LENGTH_AT + 4])[0]
                       if len(head) >= _HEAD_LENGTH_AT + 4 else -1)
        if size <= probe or columns is None or not 16 <= head_length <= size:
            # Whole already, asked for whole, or not a header we can trust: the native
            # reader gets every byte and reports a corrupt container itself.
            rest = source.read_at(size - len(head), len(head)) if size > len(head) else b""
            requests += 1 if rest else 0
            fetched += len(rest)
            return bytes(head) + bytes(rest), IndexFetch(path, size, max(head_length, 0),
                                                         requests, fetched, -1)
        buffer = mmap.mmap(-1, size)
        buffer[:len(head)] = head
        known = len(head)
        if head_length > known:
            buffer[known:head_length] = source.read_at(head_length - known, known)
            requests += 1
            fetched += head_length - known
            known = head_length
        wanted = set(columns)
        entries = [e for e in IndexReader(buffer).entries
                   if e.column in wanted and e.offset >= 0 and e.length > 0]
        for offset, length in _runs([(e.offset, e.length) for e in entries]):
            end = offset + length
            offset = max(offset, known)  # a body may start inside the probe already read
            if offset >= end:
                continue
            chunk = source.read_at(end - offset, offset)
            if len(chunk) != end - offset:
                raise OSError(f"short read: {len(chunk)} of {end - offset} bytes at {offset}")
            buffer[offset:end] = chunk
            requests += 1
            fetched += end - offset
        return buffer, IndexFetch(path, size, head_length, requests, fetched, len(entries))
    except OSError as exc:
        raise store_error(file_io, "read", path, exc) from None
    finally:
        source.close()
