"""A file-index container cut down to the indexes of some columns.

A container is a head (magic, version, head length, then per column its name and its
indexes, each with an absolute start and a length; start -1 marks an empty index) and the
index bodies after it (spec FORMAT-container-bitmap.md, section 2). A query on a few
columns needs only their entries and bodies: `subset_layout` lays out a well-formed
container holding just those, with the starts moved to where the bodies now lie. Asked
about those columns, the native reader answers from it exactly as from the whole
container, without the bytes of the other indexes ever being read or held.
"""

import struct
from dataclasses import dataclass
from typing import Collection, Dict, List, Optional, Sequence, Tuple

MAGIC = 1493475289347502
VERSION = 1
_FIXED_HEAD = 20  # magic, version, head length, column count
_EMPTY_START = -1


@dataclass(frozen=True)
class HeadEntry:
    """One (column, index type) record of a head, its strings as stored (length-prefixed
    modified UTF-8)."""

    column: str
    column_utf: bytes
    type_utf: bytes
    start: int
    length: int

    @property
    def has_body(self) -> bool:
        return self.start >= 0 and self.length > 0


def parse_head(head: bytes, size: int) -> Optional[List[HeadEntry]]:
    """The records of a version-1 head (`head`: at least the head's bytes) of a container
    of `size` bytes, in head order; None when the head is not one to cut down (another
    magic or version, inconsistent lengths, a body outside the container, a column name
    that is not plain UTF-8): the caller then hands the whole container to the native
    reader, which reports what is wrong with it."""
    if len(head) < _FIXED_HEAD:
        return None
    magic, version, head_length, columns = struct.unpack_from(">qiii", head, 0)
    if magic != MAGIC or version != VERSION or columns < 0 or head_length > len(head):
        return None
    entries: List[HeadEntry] = []
    seen = set()
    pos = _FIXED_HEAD
    try:
        for _ in range(columns):
            column_utf, pos = _utf(head, pos, head_length)
            if column_utf in seen:
                return None
            seen.add(column_utf)
            (count,), pos = struct.unpack_from(">i", head, pos), pos + 4
            if count < 0:
                return None
            column = column_utf[2:].decode("utf-8")  # modified UTF-8 beyond plain: None
            for _ in range(count):
                type_utf, pos = _utf(head, pos, head_length)
                start, length = struct.unpack_from(">ii", head, pos)
                pos += 8
                entry = HeadEntry(column, column_utf, type_utf, start, length)
                if entry.has_body:
                    if start < head_length or start + length > size:
                        return None
                elif (start, length) != (_EMPTY_START, 0):
                    return None
                entries.append(entry)
    except (struct.error, UnicodeDecodeError, ValueError):
        return None
    if pos + 4 > head_length or "\0" in "".join(e.column for e in entries):
        return None
    bodies = sorted((e.start, e.length) for e in entries if e.has_body)
    if any(start < end for (start, end) in zip((s for s, _ in bodies[1:]),
                                               (s + n for s, n in bodies))):
        return None  # bodies sharing bytes: not a container Java writes
    return entries


def _utf(head: bytes, pos: int, end: int) -> Tuple[bytes, int]:
    (length,) = struct.unpack_from(">H", head, pos)
    if pos + 2 + length > end:
        raise ValueError("string past the head")
    return head[pos:pos + 2 + length], pos + 2 + length


def wanted_entries(entries: Sequence[HeadEntry], columns: Collection[str]) -> List[HeadEntry]:
    wanted = set(columns)
    return [e for e in entries if e.column in wanted]


def subset_layout(entries: Sequence[HeadEntry]) -> Tuple[bytes, Dict[Tuple[int, int], int], int]:
    """(head, where, size) of a container of `entries` (in their head order): its head
    bytes, the new start of each body by its original (start, length), and its size. Bodies
    keep their file order, so bodies adjacent in the sidecar stay adjacent here and one
    ranged read of them lands in one piece. Empty indexes stay empty."""
    names: Dict[bytes, List[HeadEntry]] = {}
    for entry in entries:
        names.setdefault(entry.column_utf, []).append(entry)
    head_length = _FIXED_HEAD + 4 + sum(
        len(name) + 4 + sum(len(e.type_utf) + 8 for e in group) for name, group in names.items())
    where: Dict[Tuple[int, int], int] = {}
    offset = head_length
    for body in sorted({(e.start, e.length) for e in entries if e.has_body}):
        where[body] = offset
        offset += body[1]
    parts = [struct.pack(">qiii", MAGIC, VERSION, head_length, len(names))]
    for name, group in names.items():
        parts.append(name + struct.pack(">i", len(group)))
        for entry in group:
            start, length = ((where[(entry.start, entry.length)], entry.length) if entry.has_body
                             else (_EMPTY_START, 0))
            parts.append(entry.type_utf + struct.pack(">ii", start, length))
    parts.append(struct.pack(">i", 0))  # no redundant bytes
    return b"".join(parts), where, offset
