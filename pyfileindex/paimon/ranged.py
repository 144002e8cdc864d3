"""Reading only the parts of a sidecar a query needs, by ranged reads.

A file-index container is a header (magic, version, head length, then per column its
indexes with their byte ranges) followed by the index bodies. A query on some columns
needs the header and the bodies of those columns' indexes only, so a sidecar is read as:
its size (opening it), one ranged read of the first HEADER_PROBE bytes (the header,
usually whole), a second one only when the header is longer, then one ranged read per run
of adjacent bodies of the queried columns. The native library lays those bodies out as a
container of their own (pyfileindex.plan_container_subset), which is filled in place and
handed to the native reader: no buffer of the sidecar's size is made, and the bodies of
other columns are neither read nor held, on a local disk as on an object store.
"""

import struct
from dataclasses import dataclass
from typing import Collection, List, Optional, Tuple

from pyfileindex import FileIndexError, plan_container_subset

from . import sidecar_columns
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


Body = Tuple[int, int, int]  # (offset in the sidecar, length, offset in the subset)


def _runs(bodies: List[Body]) -> List[Body]:
    """The bodies (in sidecar order) merged where one ends where the next begins: a subset
    lays such bodies out back to back too, so each run is one read into one place."""
    merged: List[Body] = []
    for source, length, offset in bodies:
        if merged and merged[-1][0] + merged[-1][1] == source:
            first, run, at = merged[-1]
            merged[-1] = (first, run + length, at)
        else:
            merged.append((source, length, offset))
    return merged


def _plan_subset(path: str, head: bytes, size: int, columns: Collection[str]):
    """plan_container_subset's layout of the indexes on `columns`, remembering which columns
    the sidecar indexes (sidecar_columns.py); None when its header cannot be cut down: the
    native reader then reads the whole container and reports what is wrong with it."""
    try:
        subset_head, bodies, subset_size, listed = plan_container_subset(head, size, columns)
    except FileIndexError:
        return None
    sidecar_columns.remember(path, listed)
    return subset_head, bodies, subset_size


def fetch_index(file_io, path: str, columns: Optional[Collection[str]]):
    """(buffer, IndexFetch): the sidecar at `path` as a container holding the indexes on
    `columns` (file-side column names, map entries as `m[key]`), read by ranged reads; the
    whole sidecar when `columns` is None or its header is not one to cut down (the native
    reader then reports a corrupt container itself). The buffer is bytes or a bytearray
    (read-only by contract), for pyfileindex.IndexReader."""
    source = open_input(file_io, path)
    requests, fetched = 1, 0  # opening asks the store for the size
    try:
        size = source.size()
        probe = min(size, HEADER_PROBE)
        head = bytes(source.read_at(probe, 0)) if probe else b""
        requests += 1 if probe else 0
        fetched += len(head)
        head_length = (struct.unpack(">i", head[_HEAD_LENGTH_AT:_HEAD_LENGTH_AT + 4])[0]
                       if len(head) >= _HEAD_LENGTH_AT + 4 else -1)
        subset = None
        if columns is not None and 16 <= head_length <= size:
            if head_length > len(head):
                rest = bytes(source.read_at(head_length - len(head), len(head)))
                requests += 1
                fetched += len(rest)
                head += rest
            subset = _plan_subset(path, head, size, columns)
        if subset is None or size == len(head):  # nothing to cut, or all read already
            rest = source.read_at(size - len(head), len(head)) if size > len(head) else b""
            requests += 1 if rest else 0
            fetched += len(rest)
            return head + bytes(rest), IndexFetch(path, size, max(head_length, 0),
                                                  requests, fetched, -1)
        subset_head, bodies, subset_size = subset
        buffer = bytearray(subset_size)  # filled in place: no copy of a body on the way
        view = memoryview(buffer)
        view[:len(subset_head)] = subset_head
        known = len(head)
        for source_offset, length, at in _runs(bodies):
            end = source_offset + length
            if source_offset < known:  # a body may start inside the probe
                inside = min(end, known) - source_offset
                view[at:at + inside] = head[source_offset:source_offset + inside]
                at, source_offset = at + inside, source_offset + inside
            if source_offset < end:
                _read_into(source, view[at:at + end - source_offset], source_offset)
                requests += 1
                fetched += end - source_offset
        view.release()
        return buffer, IndexFetch(path, size, head_length, requests, fetched, len(bodies))
    except OSError as exc:
        raise store_error(file_io, "read", path, exc) from None
    finally:
        source.close()


def _read_into(source, target: memoryview, offset: int) -> None:
    """Fill `target` with the bytes of `source` from `offset`: straight into it where the
    source reads into a buffer (pyarrow's files), else through a copy."""
    if hasattr(source, "readinto") and hasattr(source, "seek"):
        source.seek(offset)
        got = 0
        while got < len(target):
            n = source.readinto(target[got:])
            if not n:
                break
            got += n
    else:
        chunk = source.read_at(len(target), offset)
        got = len(chunk)
        target[:got] = chunk
    if got != len(target):
        raise OSError(f"short read: {got} of {len(target)} bytes at {offset}")
