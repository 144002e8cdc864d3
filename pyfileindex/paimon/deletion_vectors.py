"""Deletion vectors: which row positions of a data file are deleted.

Layout (apache/paimon DeletionVectorsIndexFile, BitmapDeletionVector,
Bitmap64DeletionVector). A deletion-vectors index file starts with one version
byte (1). The index manifest gives, per data file name, the offset and length
of its vector inside that file. At the offset:

    int32 big-endian  bitmap_length  = 4 (magic) + serialized bitmap size
    int32             magic
    bitmap bytes      (bitmap_length - 4 bytes)
    int32 big-endian  CRC32 over magic + bitmap bytes

* 32-bit vector: magic 1581511376 big-endian; the bitmap is a RoaringBitmap in
  the portable (standard) format; the manifest length equals bitmap_length.
* 64-bit vector: magic 1681511377 little-endian; the bitmap is the portable
  64-bit format (uint64 LE count, then per bucket a uint32 LE high key and a
  portable 32-bit bitmap); the manifest length is 4 + bitmap_length + 4.

pyroaring's BitMap / BitMap64 read exactly these portable formats.
"""

import struct
import zlib
from dataclasses import dataclass
from typing import Dict, Optional, Tuple, Union

from pyroaring import BitMap, BitMap64

from . import _pypaimon
from .errors import PaimonMetadataError

DELETION_VECTORS_INDEX_TYPE = "DELETION_VECTORS"
INDEX_FILE_VERSION = 1
BITMAP32_MAGIC = 1581511376
BITMAP64_MAGIC = 1681511377

_INT = struct.Struct(">i")
_UINT_BE = struct.Struct(">I")
_UINT_LE = struct.Struct("<I")
_FRAME_BYTES = 4  # the length prefix and the CRC are 4 bytes each

# (partition values, bucket, data file name) -> deletion vector
DeletionVectorKey = Tuple[tuple, int, str]


@dataclass(frozen=True)
class DeletionVector:
    """Deleted row positions of one data file."""

    bitmap: Union[BitMap, BitMap64]
    is_64bit: bool  # a 64-bit vector: the read-time index evaluator returns REMAIN

    @property
    def cardinality(self) -> int:
        return len(self.bitmap)

    def __contains__(self, position: int) -> bool:
        return position in self.bitmap

    def positions(self):
        """Deleted positions, ascending, as a numpy uint32 (or uint64) array."""
        import numpy as np
        dtype = np.uint64 if self.is_64bit else np.uint32
        return np.frombuffer(self.bitmap.to_array(), dtype=dtype)


def _read_uint(fmt: struct.Struct, buf: bytes, pos: int, what: str) -> int:
    if pos < 0 or pos + fmt.size > len(buf):
        raise PaimonMetadataError(
            f"deletion vector truncated: {what} at byte {pos} needs {fmt.size} bytes, "
            f"buffer has {len(buf)}")
    return fmt.unpack_from(buf, pos)[0]


def decode_deletion_vector(buf: bytes, offset: int,
                           length: Optional[int] = None) -> DeletionVector:
    """Decode the vector stored at `offset` of a deletion-vectors index file.

    `length` is the range length recorded in the index manifest (checked when
    given). Every length is checked against the buffer before use and the CRC
    is verified, so corrupt input raises PaimonMetadataError.
    """
    bitmap_length = _read_uint(_INT, buf, offset, "length")
    magic_be = _read_uint(_UINT_BE, buf, offset + 4, "magic")
    magic_le = _read_uint(_UINT_LE, buf, offset + 4, "magic")
    if magic_be == BITMAP32_MAGIC:
        is_64bit, expected_length = False, bitmap_length
    elif magic_le == BITMAP64_MAGIC:
        is_64bit, expected_length = True, bitmap_length + 2 * _FRAME_BYTES
    else:
        raise PaimonMetadataError(
            f"invalid deletion vector magic {magic_be:#010x} at byte {offset + 4}")
    if length is not None and length != expected_length:
        raise PaimonMetadataError(
            f"deletion vector size mismatch: manifest says {length}, "
            f"file says {expected_length}")
    if bitmap_length < 4:
        raise PaimonMetadataError(f"deletion vector length {bitmap_length} is too small")
    payload_start = offset + _FRAME_BYTES
    payload_end = payload_start + bitmap_length
    stored_crc = _read_uint(_UINT_BE, buf, payload_end, "checksum")
    payload = bytes(buf[payload_start:payload_end])
    actual_crc = zlib.crc32(payload) & 0xFFFFFFFF
    if actual_crc != stored_crc:
        raise PaimonMetadataError(
            f"deletion vector checksum mismatch: stored {stored_crc:#010x}, "
            f"computed {actual_crc:#010x}")
    try:
        bitmap = (BitMap64 if is_64bit else BitMap).deserialize(payload[4:])
    except ValueError as exc:
        raise PaimonMetadataError(f"corrupt deletion vector bitmap: {exc}") from exc
    return DeletionVector(bitmap=bitmap, is_64bit=is_64bit)


def decode_index_file(buf: bytes, ranges: Dict[str, Tuple[int, Optional[int]]]
                      ) -> Dict[str, DeletionVector]:
    """All vectors of one index file: data file name -> vector.

    `ranges` maps data file name -> (offset, length) from the index manifest.
    """
    if not buf:
        raise PaimonMetadataError("deletion vectors index file is empty")
    if buf[0] != INDEX_FILE_VERSION:
        raise PaimonMetadataError(
            f"deletion vectors index file version {buf[0]}, expected {INDEX_FILE_VERSION}")
    return {name: decode_deletion_vector(buf, offset, length)
            for name, (offset, length) in ranges.items()}


def read_deletion_vectors(table, snapshot) -> Dict[DeletionVectorKey, DeletionVector]:
    """Every deletion vector of a snapshot, keyed by (partition, bucket, file name)."""
    vectors: Dict[DeletionVectorKey, DeletionVector] = {}
    for entry in _pypaimon.index_manifest_entries(table, snapshot):
        index_file = entry.index_file
        if entry.kind != _pypaimon.KIND_ADD or index_file.index_type != DELETION_VECTORS_INDEX_TYPE:
            continue
        if not index_file.dv_ranges:
            continue
        partition = tuple(entry.partition.values)
        path = _pypaimon.resolve_index_file_path(table, partition, entry.bucket, index_file)
        buf = _pypaimon.read_file_bytes(table, path)
        ranges = {name: (meta.offset, meta.length) for name, meta in index_file.dv_ranges.items()}
        try:
            decoded = decode_index_file(buf, ranges)
        except PaimonMetadataError as exc:
            raise PaimonMetadataError(f"{path}: {exc}") from exc
        for name, vector in decoded.items():
            vectors[(partition, entry.bucket, name)] = vector
    return vectors
