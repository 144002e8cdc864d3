"""Paimon column types as the differential tests see them.

A ColumnType parses a concrete Paimon type string ("TIMESTAMP(6) WITH LOCAL TIME ZONE",
"DECIMAL(10, 2)", "VARCHAR(5) NOT NULL") and knows, for values in the canonical form of
differential/__init__.py: the Arrow array for pyfileindex, the literal forms our Python API
takes, the SQL order key (truth) and the key an index keys the value by.
"""

from __future__ import annotations

import datetime
import functools
import decimal
import math
import re
import struct
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable, Optional, Sequence

import numpy as np
import pyarrow as pa

INTEGRAL_RANGES = {
    "TINYINT": (-(2**7), 2**7 - 1),
    "SMALLINT": (-(2**15), 2**15 - 1),
    "INT": (-(2**31), 2**31 - 1),
    "BIGINT": (-(2**63), 2**63 - 1),
}
_INTEGRAL_ARROW = {"TINYINT": pa.int8(), "SMALLINT": pa.int16(), "INT": pa.int32(),
                   "BIGINT": pa.int64()}

NS_PER_MS = 1_000_000
NS_PER_US = 1_000
# datetime.date covers these days since 1970-01-01 (0001-01-01 .. 9999-12-31).
DATE_OBJECT_DAYS = (-719_162, 2_932_896)
MS_PER_DAY = 86_400_000

_TYPE_TEXT = re.compile(
    r"^(?P<root>[A-Z_]+)(?:\((?P<a>\d+)(?:,\s*(?P<b>\d+))?\))?"
    r"(?P<ltz>\s+WITH LOCAL TIME ZONE)?(?P<nn>\s+NOT NULL)?$")


def float32(x: float) -> float:
    """x rounded to the nearest float32 (NaN and infinities kept, overflow to infinity)."""
    with np.errstate(over="ignore"):
        return float(np.float32(x))


def java_float_order(x: float, single: bool) -> int:
    """An int whose order is Java's Float/Double.compare: -0.0 < 0.0, NaN above +inf and
    equal to every NaN. Equal keys <=> Java's equals() (floatToIntBits equality)."""
    if math.isnan(x):
        return 1 << 64
    if single:
        bits = struct.unpack("<i", struct.pack("<f", x))[0]
        return bits if bits >= 0 else bits ^ 0x7FFFFFFF
    bits = struct.unpack("<q", struct.pack("<d", x))[0]
    return bits if bits >= 0 else bits ^ 0x7FFFFFFFFFFFFFFF


@dataclass(frozen=True)
class ColumnType:
    text: str  # exactly what both sides are given
    root: str  # BOOLEAN, TINYINT, ..., TIMESTAMP, TIMESTAMP_LTZ, DECIMAL, CHAR, ...
    precision: Optional[int] = None  # DECIMAL / TIMESTAMP / TIME precision
    scale: Optional[int] = None
    length: Optional[int] = None  # CHAR / VARCHAR / BINARY / VARBINARY
    nullable: bool = True

    # -- classification

    def __post_init__(self):
        root = self.root
        if root in INTEGRAL_RANGES:
            kind = "int"
        else:
            kind = {
                "BOOLEAN": "bool", "FLOAT": "float", "DOUBLE": "float",
                "CHAR": "string", "VARCHAR": "string", "STRING": "string",
                "BINARY": "binary", "VARBINARY": "binary", "BYTES": "binary",
                "DATE": "date", "TIME": "time",
                "TIMESTAMP": "timestamp", "TIMESTAMP_LTZ": "timestamp",
                "DECIMAL": "decimal",
            }[root]
        # kind: int, bool, float, string, binary, date, time, timestamp or decimal.
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "order_key", self._make_order_key())
        object.__setattr__(self, "index_key", self._make_index_key())

    @property
    def single_float(self) -> bool:
        return self.root == "FLOAT"

    @property
    def int_range(self) -> tuple:
        return INTEGRAL_RANGES[self.root]

    @property
    def unit_ns(self) -> int:
        """Timestamps: the Arrow unit our side stores (ms for p <= 3, us for 4..6, ns)."""
        p = self.precision
        return NS_PER_MS if p <= 3 else (NS_PER_US if p <= 6 else 1)

    @property
    def key_ns(self) -> int:
        """Timestamps: what Paimon's indexes key by (millis for p <= 3, else micros)."""
        return NS_PER_MS if self.precision <= 3 else NS_PER_US

    @property
    def unscaled_limit(self) -> int:
        return 10 ** self.precision - 1

    # -- our side

    @cached_property
    def arrow_type(self) -> pa.DataType:
        kind = self.kind
        if kind == "int":
            return _INTEGRAL_ARROW[self.root]
        if kind == "bool":
            return pa.bool_()
        if kind == "float":
            return pa.float32() if self.single_float else pa.float64()
        if kind == "string":
            return pa.string()
        if kind == "binary":
            return pa.binary(self.length) if self.root == "BINARY" else pa.binary()
        if kind == "date":
            return pa.date32()
        if kind == "time":
            return pa.time32("ms")
        if kind == "timestamp":
            unit = {NS_PER_MS: "ms", NS_PER_US: "us", 1: "ns"}[self.unit_ns]
            return pa.timestamp(unit, tz="UTC" if self.root == "TIMESTAMP_LTZ" else None)
        return pa.decimal128(self.precision, self.scale)

    def arrow_array(self, values: Sequence[Any], large: bool = False) -> pa.Array:
        """Canonical values -> the Arrow array pyfileindex is given."""
        kind = self.kind
        if kind == "timestamp":
            unit = self.unit_ns
            raw = [None if v is None else v // unit for v in values]
            return pa.array(raw, pa.int64()).cast(self.arrow_type)
        if kind == "date":
            return pa.array(values, pa.int32()).cast(pa.date32())
        if kind == "time":
            return pa.array(values, pa.int32()).cast(pa.time32("ms"))
        if kind == "string" and large:
            return pa.array(values, pa.large_string())
        if kind == "binary" and large and self.root != "BINARY":
            return pa.array(values, pa.large_binary())
        return pa.array(values, self.arrow_type)

    def literal(self, value: Any, form: int = 0) -> Any:
        """A canonical value -> a literal for pyfileindex's predicates. `form` picks one of the
        equivalent Python spellings (datetime vs numpy, ...), to cover them all."""
        kind = self.kind
        if kind == "date":
            lo, hi = DATE_OBJECT_DAYS
            if form % 2 == 0 and lo <= value <= hi:
                return datetime.date(1970, 1, 1) + datetime.timedelta(days=value)
            return int(value)  # our API takes a DATE as int days too
        if kind == "time":
            seconds, ms = divmod(value, 1000)
            minutes, second = divmod(seconds, 60)
            hour, minute = divmod(minutes, 60)
            return datetime.time(hour, minute, second, ms * 1000)
        if kind == "timestamp":
            if form % 3 == 1 and value % NS_PER_US == 0:
                micros = value // NS_PER_US
                epoch = datetime.datetime(1970, 1, 1)
                try:
                    naive = epoch + datetime.timedelta(microseconds=micros)
                except OverflowError:
                    return np.datetime64(value, "ns")
                if self.root == "TIMESTAMP_LTZ":
                    return naive.replace(tzinfo=datetime.timezone.utc)
                return naive
            if form % 3 == 2 and value % NS_PER_US == 0:
                return np.datetime64(value // NS_PER_US, "us")
            return np.datetime64(value, "ns")
        return value

    # -- keys (order_key / index_key are set per instance: they run for every value)

    def _make_order_key(self) -> Callable[[Any], Any]:
        """SQL order / equality of two values (Paimon compares floats like Java's compare)."""
        kind = self.kind
        if kind == "float":
            single = self.single_float
            return lambda v: java_float_order(v, single)
        if kind == "string":
            return lambda v: v.encode("utf-8")
        if kind == "bool":
            return int
        return _identity

    def _make_index_key(self) -> Callable[[Any], Any]:
        """What Paimon's indexes key a value (or a literal) by: timestamps lose precision."""
        if self.kind == "timestamp":
            unit = self.key_ns
            return lambda v: v // unit
        return self._make_order_key()

    def lossy_literal(self, value: Any) -> bool:
        """True when the index key cannot tell this literal apart from a stored value."""
        return self.kind == "timestamp" and (self.precision > 6 or value % self.key_ns != 0)

    def with_not_null(self) -> "ColumnType":
        return parse_type(self.text + " NOT NULL")


def _identity(value: Any) -> Any:
    return value


@functools.lru_cache(maxsize=None)
def parse_type(text: str) -> ColumnType:
    match = _TYPE_TEXT.match(text.strip())
    if match is None:
        raise ValueError(f"cannot parse Paimon type {text!r}")
    root = match["root"]
    a = int(match["a"]) if match["a"] else None
    b = int(match["b"]) if match["b"] else None
    nullable = match["nn"] is None
    if match["ltz"]:
        if root != "TIMESTAMP":
            raise ValueError(text)
        root = "TIMESTAMP_LTZ"
    if root == "TIMESTAMP_LTZ" or root == "TIMESTAMP":
        return ColumnType(text, root, precision=6 if a is None else a, nullable=nullable)
    if root == "TIME":
        return ColumnType(text, root, precision=0 if a is None else a, nullable=nullable)
    if root == "DECIMAL":
        return ColumnType(text, root, precision=10 if a is None else a,
                          scale=0 if b is None else b, nullable=nullable)
    if root in ("CHAR", "VARCHAR", "BINARY", "VARBINARY"):
        return ColumnType(text, root, length=1 if a is None else a, nullable=nullable)
    return ColumnType(text, root, nullable=nullable)


def decimal_of(unscaled: int, scale: int) -> decimal.Decimal:
    """The exact Decimal with this unscaled value and scale (str() keeps the scale)."""
    return decimal.Decimal(unscaled).scaleb(-scale, context=decimal.Context(prec=100))
