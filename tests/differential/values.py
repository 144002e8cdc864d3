"""Value pools per column type, drawn from a random.Random.

A column's values come from a small pool of distinct values (so keys repeat and bitmaps get
several rows) in one of a few layouts (random, sorted runs, blocks). Pools mix plain random
values with the values that break implementations: type extremes, -0.0/NaN/infinities, keys
that collide in java.util.HashMap buckets, strings with equal Paimon hash, unicode with NUL and
non-BMP characters, timestamps before 1970 and inside one microsecond.
"""

from __future__ import annotations

import functools
import math
import random
import struct
from typing import Any, Callable, List, Optional

from differential.column_types import (
    DATE_OBJECT_DAYS,
    MS_PER_DAY,
    ColumnType,
    decimal_of,
    float32,
)

# ------------------------------------------------------------------------ Paimon string hash

_M32 = 0xFFFFFFFF


def _rotl(x: int, r: int) -> int:
    return ((x << r) | (x >> (32 - r))) & _M32


def _mix_k1(k: int) -> int:
    k = (k * 0xCC9E2D51) & _M32
    k = _rotl(k, 15)
    return (k * 0x1B873593) & _M32


def _mix_h1(h: int, k: int) -> int:
    h ^= k
    h = _rotl(h, 13)
    return (h * 5 + 0xE6546B64) & _M32


def _fmix(h: int) -> int:
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & _M32
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & _M32
    return h ^ (h >> 16)


def paimon_string_hash(data: bytes) -> int:
    """BinaryString.hashCode (Murmur3 variant, seed 42, signed tail bytes), as a signed int."""
    h = 42
    full = len(data) - len(data) % 4
    for i in range(0, full, 4):
        h = _mix_h1(h, _mix_k1(int.from_bytes(data[i:i + 4], "little")))
    for b in data[full:]:
        h = _mix_h1(h, _mix_k1((b - 256 if b >= 128 else b) & _M32))
    h = _fmix(h ^ len(data))
    return h - (1 << 32) if h >= 1 << 31 else h


def _unmix_k1(k: int) -> int:
    k = (k * pow(0x1B873593, -1, 1 << 32)) & _M32
    k = ((k >> 15) | (k << 17)) & _M32
    return (k * pow(0xCC9E2D51, -1, 1 << 32)) & _M32


@functools.lru_cache(maxsize=None)
def colliding_strings(count: int, salt: int = 0) -> tuple:
    """`count` distinct 8-byte ASCII strings with one and the same Paimon hash.

    Murmur's block step is invertible: for any first block the second block that leads to a
    fixed state can be solved for; keep the solutions that are printable ASCII.
    """
    rnd = random.Random(0xC011 + salt)
    target = rnd.getrandbits(32)
    found = []
    seen = set()
    while len(found) < count:
        first = bytes(rnd.randrange(0x21, 0x7F) for _ in range(4))
        h1 = _mix_h1(42, _mix_k1(int.from_bytes(first, "little")))
        # mix_h1(h1, k) == target  <=>  rotl(h1 ^ k, 13) == (target - c) / 5
        inner = ((target - 0xE6546B64) * pow(5, -1, 1 << 32)) & _M32
        k = ((inner >> 13) | (inner << 19)) & _M32 ^ h1
        second = _unmix_k1(k).to_bytes(4, "little")
        if all(0x21 <= b < 0x7F for b in second):
            text = (first + second).decode("ascii")
            if text not in seen:
                seen.add(text)
                found.append(text)
    return tuple(found)


def java_string_hash(text: str) -> int:
    """java.lang.String.hashCode over UTF-16 code units."""
    h = 0
    units = text.encode("utf-16-le")
    for i in range(0, len(units), 2):
        h = (31 * h + int.from_bytes(units[i:i + 2], "little")) & _M32
    return h - (1 << 32) if h >= 1 << 31 else h


def java_bucket_mates(count: int, capacity: int, prefix: str = "c") -> List[str]:
    """Column names with pairwise different String.hashCode that share one bucket of a
    `capacity`-slot HashMap keyed by FileIndexOptions.Column (hash of [name, null, false]):
    enough of them make Java treeify that bin, ordered by hash alone (no tie-break)."""
    def bucket(name: str) -> int:
        h = (31 * (31 * (31 + java_string_hash(name)) + 0) + 1237) & _M32
        return (h ^ (h >> 16)) & (capacity - 1)
    by_bucket: dict = {}
    hashes: set = set()
    number = 0
    while True:
        name = f"{prefix}{number}"
        number += 1
        h = java_string_hash(name)
        if h in hashes:
            continue
        hashes.add(h)
        mates = by_bucket.setdefault(bucket(name), [])
        mates.append(name)
        if len(mates) == count:
            return mates


def java_hash_twins(count: int) -> List[str]:
    """Column names with equal String.hashCode ("Aa" == "BB", concatenations too)."""
    names = [""]
    while len(names) < count:
        names = [n + part for n in names for part in ("Aa", "BB")]
    return names[:count]


# ----------------------------------------------------------------------------- float helpers


def _next_float(x: float, up: bool, single: bool) -> float:
    if single:
        bits = struct.unpack("<i", struct.pack("<f", x))[0]
        if x == 0.0:
            return float32(1.4e-45 if up else -1.4e-45)
        bits += 1 if (up == (x > 0)) else -1
        return struct.unpack("<f", struct.pack("<i", bits))[0]
    return math.nextafter(x, math.inf if up else -math.inf)


# ------------------------------------------------------------------------------ value draws

_UNICODE_BITS = ["a", "b", "z", "\x00", "é", "ß", "中", "文", "\U0001F600", "\U00010348",
                 "\u20ac", "\uffff", " ", "~", "\x7f", "\u0800"]


def _random_text(rnd: random.Random, max_len: int) -> str:
    style = rnd.random()
    n = rnd.randint(0, max_len)
    if style < 0.45:
        return "".join(rnd.choice("abcxyz") for _ in range(n))
    if style < 0.7:
        return "".join(rnd.choice(_UNICODE_BITS) for _ in range(n))
    if style < 0.85:  # common prefixes (range-bitmap string chunks, V2 block keys)
        return "prefix/common/" + "".join(rnd.choice("ab") for _ in range(min(n, 6)))
    return "".join(chr(rnd.randrange(0x20, 0x7F)) for _ in range(n))


def special_values(ctype: ColumnType) -> list:
    """Values that must be in every pool-of-pools: extremes and classic traps."""
    kind = ctype.kind
    if kind == "int":
        lo, hi = ctype.int_range
        return [lo, lo + 1, hi, hi - 1, 0, -1, 1]
    if kind == "bool":
        return [True, False]
    if kind == "float":
        single = ctype.single_float
        biggest = float32(3.4028234663852886e38) if single else 1.7976931348623157e308
        tiny = float32(1.4e-45) if single else 5e-324
        return [math.nan, -0.0, 0.0, math.inf, -math.inf, biggest, -biggest, tiny, -tiny, 1.0,
                -1.0]
    if kind == "string":
        return ["", "\x00", "a", "a\x00", "\U0001F600", "é", "A" * 40]
    if kind == "binary":
        if ctype.root == "BINARY":
            return [b"\x00" * ctype.length, b"\xff" * ctype.length, b"a" * ctype.length]
        return [b"", b"\x00", b"\xff" * 3, b"abc"]
    if kind == "date":
        return [0, -1, 1, DATE_OBJECT_DAYS[0], DATE_OBJECT_DAYS[1], -25567, 2**31 - 1, -(2**31)]
    if kind == "time":
        return [0, 1, MS_PER_DAY - 1, 43_200_000]
    if kind == "timestamp":
        unit = ctype.unit_ns
        big = (2**63 - 1) // unit * unit
        return [0, -unit, unit, big, -big, -2_208_988_800 * 10**9, 1_745_542_802_000_123_000
                // unit * unit]
    if kind == "decimal":
        limit = ctype.unscaled_limit
        return [decimal_of(u, ctype.scale) for u in (0, 1, -1, limit, -limit)]
    raise AssertionError(kind)


def random_value(ctype: ColumnType, rnd: random.Random, unscaled_cap: Optional[int] = None) -> Any:
    """One random non-null value of the type (mixed magnitudes)."""
    kind = ctype.kind
    if kind == "int":
        lo, hi = ctype.int_range
        r = rnd.random()
        if r < 0.4:
            return rnd.randint(max(lo, -50), min(hi, 50))
        if r < 0.55:  # multiples of 1024: one HashMap bucket for small tables
            return rnd.randint(max(-(-lo // 1024), -64), min(hi // 1024, 64)) * 1024
        if r < 0.65 and ctype.root in ("INT", "BIGINT"):  # equal low 16 bits
            return (rnd.randint(-300, 300) << 16) + 7
        if r < 0.72 and ctype.root == "BIGINT":  # (a << 32 | a) hashes to 0 as a Long
            a = rnd.randint(1, 2**31 - 1)
            return (a << 32) | a
        return rnd.randint(lo, hi)
    if kind == "bool":
        return rnd.random() < 0.5
    if kind == "float":
        r = rnd.random()
        if r < 0.3:
            x = float(rnd.randint(-20, 20))
        elif r < 0.6:
            x = rnd.uniform(-1e6, 1e6)
        elif r < 0.8:
            x = rnd.choice(special_values(ctype))
        else:
            x = struct.unpack("<d", struct.pack("<Q", rnd.getrandbits(64)))[0]
            if math.isnan(x):  # one NaN: the harness sends Java the canonical one
                x = math.nan
        return float32(x) if ctype.single_float else x
    if kind == "string":
        max_len = 12 if ctype.length is None else max(0, min(ctype.length, 12))
        text = _random_text(rnd, max_len if rnd.random() < 0.9 else 60)
        if ctype.root == "CHAR" or ctype.root == "VARCHAR" and ctype.length < 2**31 - 1:
            text = text[: ctype.length]
        return text
    if kind == "binary":
        n = ctype.length if ctype.root == "BINARY" else rnd.randint(0, 10)
        return bytes(rnd.getrandbits(8) for _ in range(n))
    if kind == "date":
        r = rnd.random()
        if r < 0.5:
            return rnd.randint(-800, 800)
        return rnd.randint(*DATE_OBJECT_DAYS)
    if kind == "time":
        return rnd.randrange(0, MS_PER_DAY) if rnd.random() < 0.7 else rnd.randrange(0, 3000)
    if kind == "timestamp":
        unit = ctype.unit_ns
        r = rnd.random()
        if r < 0.4:  # near the epoch, both sides of it
            return rnd.randint(-5000, 5000) * unit
        if r < 0.7:  # years 1900 .. 2100
            return rnd.randint(-2_208_988_800 * 10**9 // unit, 4_102_444_800 * 10**9 // unit) * unit
        return rnd.randint(-(2**63 - 1) // unit, (2**63 - 1) // unit) * unit
    if kind == "decimal":
        limit = ctype.unscaled_limit
        if unscaled_cap is not None:
            limit = min(limit, unscaled_cap)
        r = rnd.random()
        if r < 0.4:
            u = rnd.randint(-min(limit, 1000), min(limit, 1000))
        else:
            u = rnd.randint(-limit, limit)
        return decimal_of(u, ctype.scale)
    raise AssertionError(kind)


def neighbour(ctype: ColumnType, value: Any, rnd: random.Random) -> Optional[Any]:
    """A value next to `value` (absent from most pools): +-1 unit, next float, longer string.
    None when there is no neighbour in the type's domain."""
    kind = ctype.kind
    up = rnd.random() < 0.5
    if kind == "int":
        lo, hi = ctype.int_range
        v = value + (1 if up else -1)
        return v if lo <= v <= hi else None
    if kind == "bool":
        return not value
    if kind == "float":
        if math.isnan(value) or math.isinf(value):
            return None
        return _next_float(value, up, ctype.single_float)
    if kind == "string":
        return value + "\x00" if up else value[:-1]
    if kind == "binary":
        return value + b"\x00" if ctype.root != "BINARY" else None
    if kind == "date":
        v = value + (1 if up else -1)
        return v if -(2**31) <= v < 2**31 else None
    if kind == "time":
        v = value + (1 if up else -1)
        return v if 0 <= v < MS_PER_DAY else None
    if kind == "timestamp":
        step = ctype.unit_ns
        v = value + (step if up else -step)
        return v if -(2**63) < v < 2**63 else None
    if kind == "decimal":
        u = int(value.scaleb(ctype.scale)) + (1 if up else -1)
        return decimal_of(u, ctype.scale) if abs(u) <= ctype.unscaled_limit else None
    raise AssertionError(kind)


def sub_key_literal(ctype: ColumnType, value: int, rnd: random.Random) -> Optional[int]:
    """Timestamps: a literal finer than the index key next to a stored value (Java compares
    such literals at key precision; see docs/DIFFERENCES.md)."""
    if ctype.kind != "timestamp":
        return None
    v = value + rnd.choice([1, -1, ctype.key_ns // 2, 999])
    return v if -(2**63) < v < 2**63 else None


def value_pool(ctype: ColumnType, rnd: random.Random, distinct: int,
               keep: Callable[[Any], bool] = lambda v: True,
               unscaled_cap: Optional[int] = None) -> list:
    """Up to `distinct` distinct non-null values (fewer when the domain is smaller)."""
    specials = [v for v in special_values(ctype) if keep(v)]
    if unscaled_cap is not None and ctype.kind == "decimal":
        specials = [v for v in specials if abs(int(v.scaleb(ctype.scale))) <= unscaled_cap]
    pool: list = []
    seen = set()
    if ctype.kind == "string" and rnd.random() < 0.08:
        # Equal Paimon hash: enough of them to treeify a java.util.HashMap bin.
        for text in colliding_strings(12, salt=rnd.randrange(3)):
            if len(pool) < distinct:
                seen.add(text)
                pool.append(text)
    attempts = 0
    while len(pool) < distinct and attempts < distinct * 20 + 50:
        attempts += 1
        if specials and rnd.random() < 0.15:
            v = rnd.choice(specials)
        else:
            v = random_value(ctype, rnd, unscaled_cap)
        if not keep(v):
            continue
        key = ctype.order_key(v)
        if key in seen:
            continue
        seen.add(key)
        pool.append(v)
    return pool


def layout_column(rnd: random.Random, pool: list, rows: int, null_share: float,
                  order_key=None) -> list:
    """Rows drawn from the pool: shuffled, sorted runs (run containers) or blocks.

    Sorted rows follow the pool's order or, given `order_key`, half the time the type's own
    order (a file sorted by the column: the writers' ascending-keys paths)."""
    if not pool or null_share >= 1.0:
        return [None] * rows
    style = rnd.random()
    if style < 0.6:
        weights = [rnd.random() ** 2 + 0.01 for _ in pool]
        values = rnd.choices(pool, weights=weights, k=rows)
    elif style < 0.8:  # sorted: every value one run of rows
        rank = {id(v): i for i, v in enumerate(pool)}
        by_rank = order_key is None or rnd.random() < 0.5
        values = sorted(rnd.choices(pool, k=rows),
                        key=(lambda v: rank[id(v)]) if by_rank else order_key)
    else:  # blocks of one value, block lengths random
        values = []
        while len(values) < rows:
            values.extend([rnd.choice(pool)] * rnd.randint(1, 9))
        values = values[:rows]
    if null_share > 0:
        values = [None if rnd.random() < null_share else v for v in values]
    return values
