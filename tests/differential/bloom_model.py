"""Paimon's bloom-filter index re-done in Python, from FORMAT-bloom-bsi-rangebitmap.md section 2.

Used as the brute-force oracle for bloom-filter answers: which absent values Java's filter
lets through (REMAIN) and which it skips. Never used to produce bytes for comparison.
"""

from __future__ import annotations

import math
import struct
from typing import Any, Iterable

import xxhash

from differential.column_types import ColumnType

_M64 = (1 << 64) - 1


def _java_int(x: float) -> int:
    """Java's (int) cast of a double: truncation, NaN -> 0, saturating."""
    if math.isnan(x):
        return 0
    if x >= 2**31 - 1:
        return 2**31 - 1
    if x <= -(2**31):
        return -(2**31)
    return int(x)


def bloom_shape(items: int, fpp: float) -> tuple:
    """(numBits, numHashFunctions) exactly as Java computes them."""
    t = float(-items) * math.log(fpp)
    nb = _java_int(t / (math.log(2.0) * math.log(2.0)))
    num_bits = nb + (8 - int(math.fmod(nb, 8)))
    ratio = float(num_bits) / float(items) * math.log(2.0) if items else math.inf
    rounded = math.floor(ratio + 0.5) if math.isfinite(ratio) else 2**63 - 1
    k_low = rounded & 0xFFFFFFFF
    k = k_low - (1 << 32) if k_low >= 1 << 31 else k_low
    return num_bits, max(1, k)


def _signed64(x: int) -> int:
    x &= _M64
    return x - (1 << 64) if x >= 1 << 63 else x


def wang64(x: int) -> int:
    """Thomas Wang's 64-bit mix with arithmetic right shifts, as Paimon's FastHash."""
    x = _signed64(x)
    x = _signed64(~x + (x << 21))
    x = _signed64(x ^ (x >> 24))
    x = _signed64(x + (x << 3) + (x << 8))
    x = _signed64(x ^ (x >> 14))
    x = _signed64(x + (x << 2) + (x << 4))
    x = _signed64(x ^ (x >> 28))
    return _signed64(x + (x << 31))


def value_hash(ctype: ColumnType, value: Any) -> int:
    """FastHash of one non-null value (or literal) of the column type."""
    kind = ctype.kind
    if kind == "string":
        return _signed64(xxhash.xxh64_intdigest(value.encode("utf-8"), seed=0))
    if kind == "binary":
        return _signed64(xxhash.xxh64_intdigest(bytes(value), seed=0))
    if kind == "float":
        if ctype.single_float:
            bits = 0x7FC00000 if math.isnan(value) else struct.unpack(
                "<I", struct.pack("<f", value))[0]
            return wang64(bits - (1 << 32) if bits >= 1 << 31 else bits)
        bits = 0x7FF8000000000000 if math.isnan(value) else struct.unpack(
            "<Q", struct.pack("<d", value))[0]
        return wang64(bits)
    if kind == "timestamp":
        return wang64(ctype.index_key(value))
    if kind in ("int", "date", "time"):
        return wang64(int(value))
    raise ValueError(f"bloom-filter does not index {ctype.text}")


class BloomModel:
    """The bit set Java's writer would build for these values."""

    def __init__(self, ctype: ColumnType, items: int, fpp: float, values: Iterable[Any]):
        self.ctype = ctype
        self.num_bits, self.k = bloom_shape(items, fpp)
        self.bits = bytearray(self.num_bits // 8 + 1)
        for v in values:
            if v is not None:
                for p in self._positions(value_hash(ctype, v)):
                    self.bits[p >> 3] |= 1 << (p & 7)

    def _positions(self, h: int):
        h1 = h & 0xFFFFFFFF
        h2 = (h >> 32) & 0xFFFFFFFF
        for i in range(1, self.k + 1):
            c = (h1 + i * h2) & 0xFFFFFFFF
            if c >= 1 << 31:
                c = (~c) & 0xFFFFFFFF  # Java: if (c < 0) c = ~c
            yield c % self.num_bits

    def might_contain(self, value: Any) -> bool:
        return all(self.bits[p >> 3] >> (p & 7) & 1 for p in self._positions(
            value_hash(self.ctype, value)))
