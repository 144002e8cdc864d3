"""Predicates over indexed columns: a small immutable tree, a Python DSL and a SQL-like parser.

The tree is what the native evaluator consumes.  It reads exactly these attributes:

* `Leaf.op` -- one of OPS ("eq", "ne", "lt", "le", "gt", "ge", "in", "not_in",
  "is_null", "is_not_null", "between"),
* `Leaf.column` -- the column name; a map entry is named "m[k]" (Paimon's name of
  a nested index on key k of MAP column m),
* `Leaf.literals` -- a tuple of Python values: bool, int, float, str, bytes,
  decimal.Decimal, datetime.date, datetime.time or numpy.datetime64 (timestamps,
  unit "ns"; unit "us" only for instants outside the nanosecond range 1677..2262),
* `And.children` / `Or.children` -- tuples of nodes.

Build trees with the DSL::

    col("f0") == "Alice"
    (col("f1").isin([10, 20]) | col("f2").is_null()) & (col("m")["k"] > 3)

or parse SQL-like text::

    parse_predicate("f0 = 'Alice' AND (f1 IN (10, 20) OR f2 IS NULL)")

Literals are typed per column by `bind_predicate(node, fields)` with the columns'
Paimon types; `parse_predicate(text, fields)` parses and binds in one step and
keeps decimal literals exact.  Every problem raises PredicateError (a ValueError).

`~` negates the way Paimon negates predicates: = <-> <>, < <-> >=, <= <-> >,
IN <-> NOT IN, IS NULL <-> IS NOT NULL, BETWEEN lo AND hi -> (< lo OR > hi), and
De Morgan for AND/OR.  Like SQL filters, a negated comparison never matches NULLs.
"""

import datetime
import decimal
import math
import re
import sys
from typing import Any, Iterable, List, Mapping, Optional, Tuple, Union

import numpy as np

from pyfileindex.schema import INTEGRAL_RANGES, DataType, SchemaError, parse_type

__all__ = [
    "OPS",
    "And",
    "Column",
    "Leaf",
    "Or",
    "Predicate",
    "PredicateError",
    "bind_predicate",
    "col",
    "parse_column",
    "parse_predicate",
]

OPS = ("eq", "ne", "lt", "le", "gt", "ge", "in", "not_in", "is_null", "is_not_null", "between")

_COMPARISONS = ("eq", "ne", "lt", "le", "gt", "ge")
_NEGATED = {
    "eq": "ne", "ne": "eq", "lt": "ge", "ge": "lt", "le": "gt", "gt": "le",
    "in": "not_in", "not_in": "in", "is_null": "is_not_null", "is_not_null": "is_null",
}
# Operator with its operands swapped: `3 < x` is `x > 3`.
_MIRRORED = {"eq": "eq", "ne": "ne", "lt": "gt", "gt": "lt", "le": "ge", "ge": "le"}
_SQL_OPERATORS = {"eq": "=", "ne": "<>", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}


class PredicateError(ValueError):
    """A predicate is malformed, cannot be parsed, or does not fit the columns' types."""


# ---------------------------------------------------------------------------------------------
# Timestamps: numpy.datetime64 carrying epoch nanoseconds
# ---------------------------------------------------------------------------------------------

_NANOS_PER_SECOND = 10 ** 9
_NANOS_PER_DAY = 86_400 * _NANOS_PER_SECOND
_EPOCH_ORDINAL = datetime.date(1970, 1, 1).toordinal()
# int64 nanoseconds; -2**63 is numpy's NaT, so it is not a valid instant.
_MIN_NANOS = -(2 ** 63) + 1
_MAX_NANOS = 2 ** 63 - 1
_NANOS_PER_UNIT = {
    "W": 7 * _NANOS_PER_DAY, "D": _NANOS_PER_DAY, "h": 3600 * _NANOS_PER_SECOND,
    "m": 60 * _NANOS_PER_SECOND, "s": _NANOS_PER_SECOND, "ms": 10 ** 6, "us": 10 ** 3, "ns": 1,
}
_UNITS_PER_NANO = {"ps": 10 ** 3, "fs": 10 ** 6, "as": 10 ** 9}


def timestamp_from_nanos(nanos: int) -> np.datetime64:
    """A datetime64 for epoch nanoseconds: unit "ns", or "us" outside the ns range."""
    if _MIN_NANOS <= nanos <= _MAX_NANOS:
        return np.datetime64(nanos, "ns")
    if nanos % 1000 == 0:
        return np.datetime64(nanos // 1000, "us")
    raise PredicateError(
        f"timestamp {_format_nanos(nanos)} has sub-microsecond digits but lies outside the "
        "range representable at nanosecond precision (1677-09-21 .. 2262-04-11)")


def timestamp_nanos(value: np.datetime64) -> int:
    """Epoch nanoseconds of a datetime64 of any unit (exact, or PredicateError)."""
    if np.isnat(value):
        raise PredicateError("NaT is not a timestamp value; use is_null() to match NULLs")
    unit, count = np.datetime_data(value.dtype)
    if unit in ("Y", "M"):  # calendar units: let numpy turn them into days exactly
        value = value.astype("datetime64[D]")
        unit, count = "D", 1
    ticks = int(value.astype(np.int64)) * count
    if unit in _NANOS_PER_UNIT:
        return ticks * _NANOS_PER_UNIT[unit]
    if unit in _UNITS_PER_NANO:
        nanos, rest = divmod(ticks, _UNITS_PER_NANO[unit])
        if rest:
            raise PredicateError(f"timestamp {value} has digits below nanoseconds")
        return nanos
    raise PredicateError(f"unsupported datetime64 unit {unit!r}")


def _nanos_of_datetime(value: datetime.datetime) -> int:
    if value.tzinfo is not None:  # an instant: store it as UTC wall-clock time
        offset = value.utcoffset()
        value = value.replace(tzinfo=None) - offset
    days = value.toordinal() - _EPOCH_ORDINAL
    seconds = value.hour * 3600 + value.minute * 60 + value.second
    # pandas.Timestamp is a datetime with a `nanosecond` attribute: keep it.
    nanos = value.microsecond * 1000 + int(getattr(value, "nanosecond", 0) or 0)
    return days * _NANOS_PER_DAY + seconds * _NANOS_PER_SECOND + nanos


def _format_nanos(nanos: int) -> str:
    days, rest = divmod(nanos, _NANOS_PER_DAY)
    ordinal = days + _EPOCH_ORDINAL
    if not 1 <= ordinal <= datetime.date.max.toordinal():
        return f"{nanos} ns since 1970-01-01"
    date = datetime.date.fromordinal(ordinal)
    seconds, fraction = divmod(rest, _NANOS_PER_SECOND)
    hours, seconds = divmod(seconds, 3600)
    minutes, seconds = divmod(seconds, 60)
    text = f"{date.isoformat()} {hours:02d}:{minutes:02d}:{seconds:02d}"
    if fraction:
        text += "." + f"{fraction:09d}".rstrip("0")
    return text


_DATE_TEXT = re.compile(r"(?P<year>\d{4})-(?P<month>\d{1,2})-(?P<day>\d{1,2})")
_TIME_TEXT = re.compile(
    r"(?P<hour>\d{1,2}):(?P<minute>\d{2})(?::(?P<second>\d{2})(?:\.(?P<fraction>\d{1,9}))?)?")
_TIMESTAMP_TEXT = re.compile(
    r"\s*" + _DATE_TEXT.pattern + r"(?:[ T]" + _TIME_TEXT.pattern + r")?"
    r"\s*(?P<zone>Z|[+-]\d{2}(?::?\d{2})?)?\s*", re.IGNORECASE)


def parse_date(text: str) -> datetime.date:
    """'YYYY-MM-DD' -> datetime.date."""
    match = re.fullmatch(r"\s*" + _DATE_TEXT.pattern + r"\s*", text)
    if match is None:
        raise PredicateError(f"invalid DATE {text!r}: expected 'YYYY-MM-DD'")
    try:
        return datetime.date(int(match["year"]), int(match["month"]), int(match["day"]))
    except ValueError as exc:
        raise PredicateError(f"invalid DATE {text!r}: {exc}") from None


def parse_time(text: str) -> datetime.time:
    """'HH:MM[:SS[.fraction]]' -> datetime.time (digits below microseconds must be 0)."""
    match = re.fullmatch(r"\s*" + _TIME_TEXT.pattern + r"\s*", text)
    if match is None:
        raise PredicateError(f"invalid TIME {text!r}: expected 'HH:MM:SS[.fraction]'")
    fraction = (match["fraction"] or "").ljust(9, "0")
    if fraction[6:] != "000":
        raise PredicateError(f"invalid TIME {text!r}: at most microsecond precision is supported")
    try:
        return datetime.time(int(match["hour"]), int(match["minute"]), int(match["second"] or 0),
                             int(fraction[:6]))
    except ValueError as exc:
        raise PredicateError(f"invalid TIME {text!r}: {exc}") from None


def parse_timestamp(text: str) -> np.datetime64:
    """'YYYY-MM-DD[ HH:MM[:SS[.fffffffff]]][Z|+HH:MM]' -> datetime64 with nanosecond precision.

    A zone suffix turns the text into a UTC instant; without it the wall-clock
    time is taken as is (Paimon TIMESTAMP values carry no zone).
    """
    match = _TIMESTAMP_TEXT.fullmatch(text)
    if match is None:
        raise PredicateError(
            f"invalid TIMESTAMP {text!r}: expected 'YYYY-MM-DD HH:MM:SS[.fraction]'")
    try:
        date = datetime.date(int(match["year"]), int(match["month"]), int(match["day"]))
        time = datetime.time(int(match["hour"] or 0), int(match["minute"] or 0),
                             int(match["second"] or 0))
    except ValueError as exc:
        raise PredicateError(f"invalid TIMESTAMP {text!r}: {exc}") from None
    fraction = int((match["fraction"] or "").ljust(9, "0"))
    seconds = time.hour * 3600 + time.minute * 60 + time.second
    nanos = ((date.toordinal() - _EPOCH_ORDINAL) * _NANOS_PER_DAY
             + seconds * _NANOS_PER_SECOND + fraction)
    zone = match["zone"]
    if zone and zone.upper() != "Z":
        digits = zone[1:].replace(":", "")
        offset_minutes = int(digits[:2]) * 60 + int(digits[2:] or 0)
        sign = -1 if zone[0] == "-" else 1
        nanos -= sign * offset_minutes * 60 * _NANOS_PER_SECOND
    return timestamp_from_nanos(nanos)


# ---------------------------------------------------------------------------------------------
# Literal values
# ---------------------------------------------------------------------------------------------


def _normalize_literal(value: Any, column: str) -> Any:
    """One canonical Python type per kind of value (see the module docstring)."""
    if value is None:
        raise PredicateError(
            f"NULL literal for column {column!r}: comparisons with NULL never match; "
            "use is_null() / is_not_null() (IS NULL / IS NOT NULL)")
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, DecimalText):
        return value
    if isinstance(value, (float, np.floating)):
        return float(value)
    if isinstance(value, decimal.Decimal):
        if not value.is_finite():
            raise PredicateError(f"decimal literal {value} for column {column!r} is not finite")
        return value
    if isinstance(value, str):
        return str(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    if isinstance(value, np.datetime64):
        return timestamp_from_nanos(timestamp_nanos(value))
    if isinstance(value, datetime.datetime):
        return timestamp_from_nanos(_nanos_of_datetime(value))
    if isinstance(value, datetime.date):
        return value
    if isinstance(value, datetime.time):
        if value.tzinfo is not None:
            raise PredicateError(f"TIME literal for column {column!r} must not carry a time zone")
        return value
    raise PredicateError(
        f"unsupported literal {value!r} of type {type(value).__name__} for column {column!r}")


def _literal_key(value: Any) -> tuple:
    """Equality key: type-aware (1 != True != 1.0), NaN equal to NaN, -0.0 != 0.0."""
    if isinstance(value, DecimalText):
        return ("float", float(value), value.exact)
    if isinstance(value, float):
        if math.isnan(value):
            return ("float", "nan")
        return ("float", value, math.copysign(1.0, value))
    if isinstance(value, np.datetime64):
        return ("timestamp", timestamp_nanos(value))
    return (type(value).__name__, value)


def _quote_string(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


class DecimalText(float):
    """A number parse_predicate read without column types, whose text holds more digits than
    a float keeps ('0.12345678901234567891'). It is the nearest float, for DOUBLE columns and
    for evaluate(); `exact` keeps the text's value, which bind_predicate gives DECIMAL columns
    (as a float it would bind as 0.12345678901234568000: another value, and wrong answers)."""

    def __new__(cls, exact: decimal.Decimal) -> "DecimalText":
        number = super().__new__(cls, exact)
        number.exact = exact
        return number

    def __neg__(self) -> "DecimalText":
        return DecimalText(-self.exact)

    def __reduce__(self):
        return (DecimalText, (self.exact,))

    def __repr__(self) -> str:
        return str(self.exact)


def format_literal(value: Any) -> str:
    """SQL text of a literal that parse_predicate reads back to the same value."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, DecimalText):
        return str(value.exact)
    if isinstance(value, float):
        if math.isnan(value):
            return "CAST('NaN' AS DOUBLE)"
        if math.isinf(value):
            return "CAST('Infinity' AS DOUBLE)" if value > 0 else "CAST('-Infinity' AS DOUBLE)"
        return repr(value)
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, str):
        return _quote_string(value)
    if isinstance(value, bytes):
        return "X'" + value.hex().upper() + "'"
    if isinstance(value, np.datetime64):
        return "TIMESTAMP '" + _format_nanos(timestamp_nanos(value)) + "'"
    if isinstance(value, datetime.date):
        return "DATE '" + value.isoformat() + "'"
    if isinstance(value, datetime.time):
        return "TIME '" + value.isoformat() + "'"
    return repr(value)


_SIMPLE_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Words that cannot stand bare as a column name in the parser (kept conservative).
_RESERVED = frozenset("""
    ALL AND ANY ARRAY AS ASC BETWEEN BY CASE CAST COLLATE CREATE CROSS CURRENT_DATE CURRENT_TIME
    CURRENT_TIMESTAMP DATE DESC DISTINCT ELSE END ESCAPE EXCEPT EXISTS FALSE FILTER FROM FULL
    GLOB GROUP HAVING ILIKE IN INNER INTERSECT INTERVAL INTO IS JOIN LEFT LIKE LIMIT MAP NATURAL
    NOT NULL ON OR ORDER OUTER OVER PARTITION RIGHT RLIKE SELECT SET SOME STRUCT TABLE THEN TIME
    TIMESTAMP TIMESTAMP_LTZ TIMESTAMPLTZ TIMESTAMPTZ TRUE UNION UNIQUE UNNEST USING VALUES WHEN
    WHERE WINDOW WITH
""".split())


def format_column(name: str) -> str:
    """SQL text of a column name; "m[k]" is written as the map access m['k']."""
    bracket = name.find("[")
    if bracket > 0 and name.endswith("]"):
        return _format_identifier(name[:bracket]) + "[" + _quote_string(name[bracket + 1:-1]) + "]"
    return _format_identifier(name)


def _format_identifier(name: str) -> str:
    if _SIMPLE_IDENTIFIER.fullmatch(name) and name.upper() not in _RESERVED:
        return name
    return '"' + name.replace('"', '""') + '"'


# ---------------------------------------------------------------------------------------------
# The tree
# ---------------------------------------------------------------------------------------------


class Predicate:
    """Base of Leaf, And and Or: immutable, hashable, combinable with &, | and ~."""

    __slots__ = ()

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __and__(self, other: "Predicate") -> "And":
        if not isinstance(other, Predicate):
            return NotImplemented
        return And([self, other])

    def __or__(self, other: "Predicate") -> "Or":
        if not isinstance(other, Predicate):
            return NotImplemented
        return Or([self, other])

    def __invert__(self) -> "Predicate":
        return self.negate()

    def __bool__(self):
        # `a and b` / `not a` would silently drop a predicate: point to & | ~ instead.
        raise TypeError("a predicate has no truth value; combine predicates with &, | and ~ "
                        "(not with 'and', 'or', 'not')")

    def __repr__(self) -> str:
        return self.to_sql()

    __str__ = __repr__

    def negate(self) -> "Predicate":
        raise NotImplementedError

    def to_sql(self) -> str:
        raise NotImplementedError

    def columns(self) -> Tuple[str, ...]:
        """Column names referenced, in first-appearance order, without duplicates."""
        raise NotImplementedError


_ARITY = {op: (1, 1) for op in _COMPARISONS}
_ARITY.update({"in": (1, None), "not_in": (1, None), "is_null": (0, 0), "is_not_null": (0, 0),
               "between": (2, 2)})


class Leaf(Predicate):
    """`column op literals`, e.g. Leaf("in", "f1", (10, 20))."""

    __slots__ = ("op", "column", "literals")

    def __init__(self, op: str, column: str, literals: Iterable[Any] = ()):
        if op not in OPS:
            raise PredicateError(
                f"unknown predicate operator {op!r}; expected one of {', '.join(OPS)}")
        if not isinstance(column, str) or not column:
            raise PredicateError(f"a column name must be a non-empty string, got {column!r}")
        if isinstance(literals, (str, bytes)) or not isinstance(literals, Iterable):
            raise PredicateError(f"literals of {op} on {column!r} must be a sequence of values")
        values = tuple(_normalize_literal(v, column) for v in literals)
        low, high = _ARITY[op]
        if len(values) < low or (high is not None and len(values) > high):
            expected = f"{low}" if low == high else f"at least {low}"
            raise PredicateError(
                f"{op} on column {column!r} takes {expected} literal(s), got {len(values)}")
        object.__setattr__(self, "op", op)
        object.__setattr__(self, "column", column)
        object.__setattr__(self, "literals", values)

    def __reduce__(self):
        return (Leaf, (self.op, self.column, self.literals))

    def _key(self) -> tuple:
        return (self.op, self.column, tuple(_literal_key(v) for v in self.literals))

    def __eq__(self, other) -> bool:
        return isinstance(other, Leaf) and self._key() == other._key()

    def __ne__(self, other) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(("Leaf",) + self._key())

    def columns(self) -> Tuple[str, ...]:
        return (self.column,)

    def negate(self) -> Predicate:
        if self.op == "between":
            low, high = self.literals
            return Or([Leaf("lt", self.column, (low,)), Leaf("gt", self.column, (high,))])
        return Leaf(_NEGATED[self.op], self.column, self.literals)

    def to_sql(self) -> str:
        name = format_column(self.column)
        if self.op in _SQL_OPERATORS:
            return f"{name} {_SQL_OPERATORS[self.op]} {format_literal(self.literals[0])}"
        if self.op in ("in", "not_in"):
            keyword = "IN" if self.op == "in" else "NOT IN"
            return f"{name} {keyword} ({', '.join(format_literal(v) for v in self.literals)})"
        if self.op == "is_null":
            return f"{name} IS NULL"
        if self.op == "is_not_null":
            return f"{name} IS NOT NULL"
        low, high = self.literals
        return f"{name} BETWEEN {format_literal(low)} AND {format_literal(high)}"


class _Compound(Predicate):
    __slots__ = ("children",)
    _keyword = ""

    def __init__(self, *children):
        # And([a, b]) and And(a, b) are both accepted.
        if len(children) == 1 and not isinstance(children[0], Predicate):
            children = tuple(children[0])
        flat: List[Predicate] = []
        for child in children:
            if not isinstance(child, Predicate):
                raise PredicateError(
                    f"{self._keyword} children must be predicates, got {type(child).__name__}")
            # Nested nodes of the same kind are flattened: (a AND b) AND c == a AND b AND c.
            flat.extend(child.children if type(child) is type(self) else (child,))
        if not flat:
            raise PredicateError(f"{self._keyword} needs at least one child predicate")
        object.__setattr__(self, "children", tuple(flat))

    def __reduce__(self):
        return (type(self), (self.children,))

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and self.children == other.children

    def __ne__(self, other) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((self._keyword, self.children))

    def columns(self) -> Tuple[str, ...]:
        seen = {}
        for child in self.children:
            for name in child.columns():
                seen.setdefault(name, None)
        return tuple(seen)

    def to_sql(self) -> str:
        if len(self.children) == 1:
            return self.children[0].to_sql()
        parts = []
        for child in self.children:
            text = child.to_sql()
            parts.append(f"({text})" if isinstance(child, _Compound) and len(child.children) > 1
                         else text)
        return f" {self._keyword} ".join(parts)


class And(_Compound):
    """All children hold."""

    __slots__ = ()
    _keyword = "AND"

    def negate(self) -> Predicate:
        return Or([child.negate() for child in self.children])


class Or(_Compound):
    """At least one child holds."""

    __slots__ = ()
    _keyword = "OR"

    def negate(self) -> Predicate:
        return And([child.negate() for child in self.children])


# ---------------------------------------------------------------------------------------------
# The DSL
# ---------------------------------------------------------------------------------------------


class Column:
    """A column reference of the DSL; comparing it yields a Leaf."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        if not isinstance(name, str) or not name:
            raise PredicateError(f"a column name must be a non-empty string, got {name!r}")
        object.__setattr__(self, "name", name)

    def __setattr__(self, name, value):
        raise AttributeError("Column is immutable")

    def __repr__(self) -> str:
        return f"col({self.name!r})"

    def __bool__(self):
        raise TypeError(f"{self!r} has no truth value; compare it, e.g. {self!r} == value")

    __hash__ = None  # == builds a predicate, so columns cannot be dict keys

    def __getitem__(self, key: str) -> "Column":
        """col("m")["k"]: the value of key k of MAP column m (index column "m[k]")."""
        if not isinstance(key, str):
            raise PredicateError(
                f"map keys of {self!r} must be strings (nested indexes need CHAR/VARCHAR keys), "
                f"got {type(key).__name__}")
        if "[" in self.name:
            raise PredicateError(
                f"{self!r} is already a map entry; nested map access is not supported")
        return Column(f"{self.name}[{key}]")

    def _compare(self, op: str, value: Any) -> Leaf:
        if isinstance(value, Column):
            raise PredicateError(
                f"comparing two columns ({self.name!r}, {value.name!r}) is not supported; "
                "compare a column with a literal value")
        if value is None:
            raise PredicateError(
                f"cannot compare column {self.name!r} with None: "
                "use is_null() / is_not_null() to match NULLs")
        return Leaf(op, self.name, (value,))

    def __eq__(self, value) -> Leaf:  # type: ignore[override]
        return self._compare("eq", value)

    def __ne__(self, value) -> Leaf:  # type: ignore[override]
        return self._compare("ne", value)

    def __lt__(self, value) -> Leaf:
        return self._compare("lt", value)

    def __le__(self, value) -> Leaf:
        return self._compare("le", value)

    def __gt__(self, value) -> Leaf:
        return self._compare("gt", value)

    def __ge__(self, value) -> Leaf:
        return self._compare("ge", value)

    def _values(self, method: str, values: Iterable[Any]) -> tuple:
        if isinstance(values, (str, bytes, Column, Predicate)) or not isinstance(values, Iterable):
            raise PredicateError(
                f"{method}() on column {self.name!r} takes a list of values, "
                f"got {type(values).__name__}")
        values = tuple(values)
        if not values:
            raise PredicateError(f"{method}() on column {self.name!r} needs at least one value")
        if any(v is None for v in values):
            raise PredicateError(
                f"{method}() on column {self.name!r}: None is not a value; "
                "combine with is_null() instead")
        return values

    def isin(self, values: Iterable[Any]) -> Leaf:
        return Leaf("in", self.name, self._values("isin", values))

    def not_in(self, values: Iterable[Any]) -> Leaf:
        return Leaf("not_in", self.name, self._values("not_in", values))

    def is_null(self) -> Leaf:
        return Leaf("is_null", self.name)

    def is_not_null(self) -> Leaf:
        return Leaf("is_not_null", self.name)

    def between(self, low: Any, high: Any) -> Leaf:
        """low <= column <= high (both ends inclusive, as in SQL)."""
        if low is None or high is None:
            raise PredicateError(f"between() on column {self.name!r} needs two non-None bounds")
        return Leaf("between", self.name, (low, high))


def col(name: str) -> Column:
    """A column of the DSL: col("f0") == "Alice", col("m")["k"].isin([1, 2]), ..."""
    return Column(name)


# ---------------------------------------------------------------------------------------------
# Parsing SQL-like text (sqlglot does the grammar; this turns its AST into the tree)
# ---------------------------------------------------------------------------------------------

_DIALECT = None


def _dialect():
    """A sqlglot dialect: "x" and `x` quote identifiers, '' escapes ', X'..' is binary."""
    global _DIALECT
    if _DIALECT is None:
        from sqlglot import tokens
        from sqlglot.dialects.dialect import Dialect

        class PyFileIndexPredicates(Dialect):
            class Tokenizer(tokens.Tokenizer):
                IDENTIFIERS = ['"', "`"]
                HEX_STRINGS = [("x'", "'"), ("X'", "'")]
                STRING_ESCAPES = ["'"]

        _DIALECT = PyFileIndexPredicates
    return _DIALECT


def _position(node) -> Optional[int]:
    """1-based character position of the first token under `node`, if sqlglot kept it."""
    starts = [meta["start"] for sub in node.walk()
              for meta in [getattr(sub, "_meta", None) or {}] if "start" in meta]
    return min(starts) + 1 if starts else None


def _syntax_error(problem: str, node=None) -> PredicateError:
    position = _position(node) if node is not None else None
    where = f" at character {position}" if position else ""
    return PredicateError(f"cannot parse predicate: {problem}{where}")


def _snippet(node) -> str:
    text = node.sql()
    return text if len(text) <= 60 else text[:57] + "..."


def _clean_sqlglot_message(text: str) -> str:
    # "Required keyword: 'expression' missing for <class 'sqlglot...And'>" -> "AND lacks ..."
    text = re.sub(r"<class '[\w.]*?(\w+)'>", lambda m: m.group(1).upper(), text)
    return re.sub(r"Required keyword: '\w+' missing for (\w+)",
                  lambda m: f"incomplete {_NODE_NAMES.get(m.group(1), m.group(1))} "
                            "(an operand is missing)", text)


_NODE_NAMES = {"EQ": "'='", "NEQ": "'<>'", "LT": "'<'", "LTE": "'<='", "GT": "'>'", "GTE": "'>='"}


def _unclosed_quote(text: str) -> Optional[int]:
    """0-based position of a quote that is never closed (quotes escape by doubling)."""
    opened, position = None, 0
    while position < len(text):
        char = text[position]
        if opened is None:
            if char in "'\"`":
                opened = position
        elif char == text[opened]:
            if position + 1 < len(text) and text[position + 1] == char:
                position += 1  # a doubled quote stands for itself
            else:
                opened = None
        position += 1
    return opened


def _parse_sql(text: str):
    import sqlglot
    from sqlglot.errors import ParseError, TokenError

    if not isinstance(text, str):
        raise PredicateError(f"a predicate must be a string, got {type(text).__name__}")
    if not text.strip():
        raise PredicateError("cannot parse predicate: it is empty")
    _reject_stray_nul(text)
    try:
        return sqlglot.parse_one(text, dialect=_dialect())
    except ParseError as exc:
        errors = getattr(exc, "errors", None) or []
        if errors:
            first = errors[0]
            description = _clean_sqlglot_message(str(first.get("description", "syntax error")))
            near = first.get("highlight") or ""
            line, column = first.get("line"), first.get("col")
            where = (f" (line {line}, column {column})" if line and line > 1
                     else f" at character {column}")
            near_text = f" near {near!r}" if near else ""
            raise PredicateError(
                f"cannot parse predicate: {description}{near_text}{where}") from None
        raise PredicateError(
            f"cannot parse predicate: {_clean_sqlglot_message(str(exc))}") from None
    except TokenError as exc:
        opened = _unclosed_quote(text)
        if opened is not None:
            raise PredicateError(f"cannot parse predicate: quote {text[opened]} at character "
                                 f"{opened + 1} is never closed") from None
        raise PredicateError(f"cannot parse predicate: {str(exc).splitlines()[0]}") from None


def _reject_stray_nul(text: str) -> None:
    """NUL characters are data inside quotes only; elsewhere sqlglot would read them as names."""
    if "\x00" not in text:
        return
    from sqlglot.errors import TokenError
    from sqlglot.tokens import TokenType

    try:
        tokens = _dialect()().tokenize(text)
    except TokenError:
        return  # the parser reports the real problem
    inside = [(t.start, t.end) for t in tokens if t.token_type == TokenType.STRING]
    for position, char in enumerate(text):
        if char == "\x00" and not any(start <= position <= end for start, end in inside):
            raise PredicateError(
                f"cannot parse predicate: NUL character at character {position + 1} "
                "(allowed only inside a quoted string)")


class _Converter:
    """sqlglot AST -> predicate tree."""

    def __init__(self, exact_numbers: bool):
        from sqlglot import exp

        self.exp = exp
        self.exact_numbers = exact_numbers

    def condition(self, node) -> Predicate:
        exp = self.exp
        if isinstance(node, exp.Paren):
            return self.condition(node.this)
        if isinstance(node, exp.And):
            return And([self.condition(operand) for operand in self.chain(node)])
        if isinstance(node, exp.Or):
            return Or([self.condition(operand) for operand in self.chain(node)])
        if isinstance(node, exp.Not):
            return self.condition(node.this).negate()
        for kind, op in ((exp.EQ, "eq"), (exp.NEQ, "ne"), (exp.LT, "lt"), (exp.LTE, "le"),
                         (exp.GT, "gt"), (exp.GTE, "ge")):
            if type(node) is kind:
                return self.comparison(node, op)
        if isinstance(node, exp.In):
            return self.in_list(node)
        if isinstance(node, exp.Is):
            return self.is_null(node)
        if isinstance(node, exp.Between):
            return self.between(node)
        raise self.unsupported(node)

    def chain(self, node) -> list:
        """The operands of `a AND b AND c ...` (or OR), in order. sqlglot nests such a chain one
        level per operand, so it is walked with a stack: a generated query's thousands of terms
        would exceed Python's recursion limit."""
        operands, pending = [], [node]
        while pending:
            current = pending.pop()
            inner = current
            while isinstance(inner, self.exp.Paren):
                inner = inner.this
            if type(inner) is type(node):
                pending += [inner.expression, inner.this]  # `this` (the left side) comes first
            else:
                operands.append(current)
        return operands

    def unsupported(self, node) -> PredicateError:
        exp = self.exp
        if isinstance(node, exp.Block):
            return PredicateError("cannot parse predicate: only one predicate is allowed "
                                  "(combine several with AND)")
        if isinstance(node, (exp.Like, exp.ILike)):
            reason = "LIKE is not supported"
        elif isinstance(node, exp.NullSafeEQ):
            reason = "IS NOT DISTINCT FROM / <=> is not supported; use = and IS NULL"
        elif isinstance(node, (exp.Add, exp.Sub, exp.Mul, exp.Div, exp.Mod, exp.IntDiv, exp.DPipe)):
            reason = "arithmetic is not supported; compare a column with a literal"
        elif isinstance(node, exp.Func):
            reason = "function calls are not supported"
        elif isinstance(node, exp.Alias):
            return _syntax_error(f"unexpected {node.alias!r}", node.args.get("alias"))
        elif isinstance(node, (exp.Column, exp.Bracket)):
            reason = "a bare column is not a condition; compare it, e.g. flag = TRUE"
        elif isinstance(node, (exp.Boolean, exp.Literal, exp.Null)):
            reason = "a constant is not a condition"
        elif isinstance(node, (exp.Subquery, exp.Select, exp.Query)):
            reason = "subqueries are not supported"
        else:
            reason = "this construct is not supported"
        return _syntax_error(f"{reason} ({_snippet(node)!r})", node)

    # -- operands ---------------------------------------------------------------------------

    def column_name(self, node) -> Optional[str]:
        """The column a node names, or None when it is not a column reference."""
        exp = self.exp
        if isinstance(node, exp.Paren):
            return self.column_name(node.this)
        if isinstance(node, exp.Column):
            if node.args.get("table") is not None:
                raise _syntax_error(
                    f"qualified name {node.sql()!r} is not supported; "
                    'quote a name that contains dots, e.g. "a.b"', node)
            if not isinstance(node.this, exp.Identifier):
                raise _syntax_error(f"{node.sql()!r} is not a column name", node)
            return node.this.this
        if isinstance(node, exp.Bracket):
            base = None if isinstance(node.this, exp.Bracket) else self.column_name(node.this)
            if base is None:
                raise _syntax_error(f"map access {node.sql()!r} must be on a plain column", node)
            keys = node.expressions
            if len(keys) != 1 or not (isinstance(keys[0], exp.Literal) and keys[0].is_string):
                raise _syntax_error(
                    f"map access {node.sql()!r} needs one quoted string key, e.g. m['k']", node)
            return f"{base}[{keys[0].this}]"
        return None

    def literal(self, node, column: str) -> Any:
        exp = self.exp
        if isinstance(node, exp.Paren):
            return self.literal(node.this, column)
        if isinstance(node, exp.Null):
            raise _syntax_error(
                f"comparison of {column!r} with NULL never matches; use IS NULL / IS NOT NULL",
                node)
        if isinstance(node, exp.Boolean):
            return bool(node.this)
        if isinstance(node, exp.Literal):
            return node.this if node.is_string else self.number(node.this, node)
        if isinstance(node, exp.Neg):
            value = self.literal(node.this, column)
            if isinstance(value, bool) or not isinstance(value, (int, float, decimal.Decimal)):
                raise _syntax_error(f"'-' applies to numbers only ({_snippet(node)!r})", node)
            # Decimal's unary minus rounds -0.0 to 0.0; a DOUBLE column must see -0.0.
            return value.copy_negate() if isinstance(value, decimal.Decimal) else -value
        if isinstance(node, exp.HexString):
            digits = node.this or ""
            try:
                return bytes.fromhex(digits)
            except ValueError:
                raise _syntax_error(f"invalid binary literal X'{digits}': expected pairs of hex "
                                    "digits", node) from None
        if isinstance(node, exp.Cast):
            return self.typed_literal(node, column)
        if self.column_name(node) is not None:
            raise _syntax_error("comparing two columns is not supported; "
                                "compare a column with a literal", node)
        if isinstance(node, exp.Placeholder):
            raise _syntax_error("parameters are not supported; write the value", node)
        raise _syntax_error(f"expected a literal value, found {_snippet(node)!r}", node)

    def is_literal(self, node) -> bool:
        exp = self.exp
        while isinstance(node, (exp.Paren, exp.Neg)):
            node = node.this
        return isinstance(node, (exp.Literal, exp.Boolean, exp.Null, exp.HexString, exp.Cast))

    def number(self, text: str, node) -> Union[int, float, decimal.Decimal]:
        if text.isdigit():
            return int(text)
        try:
            exact = decimal.Decimal(text)
        except decimal.InvalidOperation:
            raise _syntax_error(f"invalid number {text!r}", node) from None
        if self.exact_numbers:
            return exact
        value = float(text)
        if not math.isfinite(value):
            raise _syntax_error(f"number {text} is out of the range of DOUBLE", node)
        # A float binds to DECIMAL by its shortest repr: right for 0.1, not for digits the
        # float does not keep.
        return value if decimal.Decimal(repr(value)) == exact else DecimalText(exact)

    def typed_literal(self, node, column: str) -> Any:
        """DATE '...', TIME '...', TIMESTAMP '...' and CAST('...' AS <type>)."""
        Type = self.exp.DataType.Type
        target = node.to.this if isinstance(node.to, self.exp.DataType) else None
        inner = node.this
        is_text = isinstance(inner, self.exp.Literal) and inner.is_string
        try:
            if target == Type.DATE and is_text:
                return parse_date(inner.this)
            if target == Type.TIME and is_text:
                return parse_time(inner.this)
            if target in (Type.TIMESTAMP, Type.TIMESTAMPLTZ, Type.TIMESTAMPTZ, Type.TIMESTAMPNTZ,
                          Type.DATETIME) and is_text:
                return parse_timestamp(inner.this)
            if target in (Type.DOUBLE, Type.FLOAT):
                value = self.literal(inner, column)
                return _float_from(value, is_text)
            if target == Type.DECIMAL:
                value = inner.this if is_text else self.literal(inner, column)
                return decimal.Decimal(str(value).strip())
        except PredicateError as exc:
            raise _syntax_error(str(exc), node) from None
        except (decimal.InvalidOperation, ValueError):
            raise _syntax_error(f"invalid value {_snippet(inner)!r} for {_snippet(node.to)}",
                                node) from None
        raise _syntax_error(f"unsupported typed literal {_snippet(node)!r}; use DATE '...', "
                            "TIME '...', TIMESTAMP '...' or a plain literal", node)

    # -- conditions -------------------------------------------------------------------------

    def comparison(self, node, op: str) -> Leaf:
        left, right = node.this, node.expression
        column = self.column_name(left)
        if column is None:
            column = self.column_name(right)
            if column is None:
                for side in (left, right):
                    if not self.is_literal(side):
                        raise self.unsupported(side)
                raise _syntax_error(f"{_snippet(node)!r} compares no column", node)
            left, right, op = right, left, _MIRRORED[op]
        return Leaf(op, column, (self.literal(right, column),))

    def in_list(self, node) -> Leaf:
        for unsupported in ("query", "unnest", "field"):
            if node.args.get(unsupported) is not None:
                raise _syntax_error(f"IN takes a list of literals ({_snippet(node)!r})", node)
        column = self.require_column(node.this, node)
        if not node.expressions:
            raise _syntax_error(f"IN list of {column!r} is empty", node)
        values = []
        for item in node.expressions:
            if isinstance(item, self.exp.Null):
                raise _syntax_error(f"NULL inside IN (...) of {column!r} is not supported; "
                                    "add OR ... IS NULL instead", item)
            values.append(self.literal(item, column))
        return Leaf("in", column, values)

    def is_null(self, node) -> Leaf:
        column = self.require_column(node.this, node)
        if not isinstance(node.expression, self.exp.Null):
            raise _syntax_error(f"only IS NULL / IS NOT NULL are supported ({_snippet(node)!r}); "
                                "compare booleans with = TRUE / = FALSE", node)
        return Leaf("is_null", column)

    def between(self, node) -> Leaf:
        if node.args.get("symmetric"):
            raise _syntax_error("BETWEEN SYMMETRIC is not supported", node)
        column = self.require_column(node.this, node)
        low = self.literal(node.args["low"], column)
        high = self.literal(node.args["high"], column)
        return Leaf("between", column, (low, high))

    def require_column(self, operand, node) -> str:
        column = self.column_name(operand)
        if column is None:
            raise _syntax_error(f"expected a column on the left of {_snippet(node)!r}", node)
        return column


def _float_from(value: Any, from_text: bool) -> float:
    if isinstance(value, str):
        return _parse_float_text(value)
    if isinstance(value, bool):
        raise PredicateError(f"{value} is not a number")
    return float(value)


_FLOAT_NAMES = {"nan": math.nan, "+nan": math.nan, "-nan": math.nan,
                "inf": math.inf, "+inf": math.inf, "infinity": math.inf, "+infinity": math.inf,
                "-inf": -math.inf, "-infinity": -math.inf}


def _parse_float_text(text: str) -> float:
    special = _FLOAT_NAMES.get(text.strip().lower())
    if special is not None:
        return special
    try:
        return float(decimal.Decimal(text.strip()))
    except decimal.InvalidOperation:
        raise PredicateError(f"{text!r} is not a number") from None


def parse_predicate(text: str, fields=None, *, exact_numbers: bool = False) -> Predicate:
    """Parse SQL-like text into a predicate tree.

    Grammar: comparisons (=, <>, !=, <, <=, >, >=), IN (...), NOT IN (...),
    IS [NOT] NULL, [NOT] BETWEEN a AND b, AND (binds tighter than OR), OR, NOT,
    parentheses.  Literals: integers, decimals (1.5, 1e3), 'strings' ('' escapes
    a quote), TRUE/FALSE, X'0AFF' (binary), DATE 'YYYY-MM-DD', TIME 'HH:MM:SS',
    TIMESTAMP 'YYYY-MM-DD HH:MM:SS.fffffffff' (nanoseconds kept).  Columns are
    plain names, "quoted" or `quoted` names, and map entries m['k'].

    With `fields` ([(name, Paimon type)], a dict or a Schema) the literals are
    bound to the column types (see bind_predicate) and decimal literals stay
    exact.  Without it, non-integral numbers become floats unless exact_numbers
    is true (then decimal.Decimal, text-preserving); a number with more digits than
    a float keeps becomes a DecimalText, a float that remembers its exact value
    for binding to a DECIMAL column later.
    """
    exact = exact_numbers or fields is not None
    try:
        tree = _Converter(exact).condition(_parse_sql(text))
    except RecursionError:
        raise PredicateError("cannot parse predicate: it nests parentheses or NOT too deeply "
                             f"(Python's recursion limit is {sys.getrecursionlimit()})") from None
    return tree if fields is None else bind_predicate(tree, fields)


def parse_column(text: str) -> str:
    """A column name from SQL-like text: f0, "Col", `col`, m['k'] -> "m[k]"."""
    node = _parse_sql(text)
    name = _Converter(False).column_name(node)
    if name is None:
        raise PredicateError(f"expected a column name, got {text!r}")
    return name


# ---------------------------------------------------------------------------------------------
# Binding literals to column types
# ---------------------------------------------------------------------------------------------

_UNSUPPORTED_ROOTS = ("ARRAY", "MULTISET", "MAP", "ROW", "VARIANT", "BLOB", "VECTOR",
                      "GEOMETRY", "GEOGRAPHY")
_DECIMAL_CONTEXT = decimal.Context(prec=100_000, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)


def _field_types(fields) -> Mapping[str, str]:
    if hasattr(fields, "row_type"):  # a pyfileindex.schema.Schema
        fields = fields.row_type()
    if isinstance(fields, Mapping):
        return dict(fields)
    types = {}
    for item in fields:
        try:
            name, type_text = item
        except (TypeError, ValueError):
            raise PredicateError(f"fields must be (name, type) pairs, got {item!r}") from None
        types.setdefault(name, type_text)
    return types


def _column_type(column: str, types: Mapping[str, str]) -> DataType:
    try:
        if column in types:
            return parse_type(types[column])
        bracket = column.find("[")
        if bracket > 0 and column.endswith("]") and column[:bracket] in types:
            map_name = column[:bracket]
            map_type = parse_type(types[map_name])
            if map_type.root != "MAP":
                raise PredicateError(
                    f"column {column!r}: {map_name!r} has type {map_type}, not a MAP")
            return map_type.value
    except SchemaError as exc:
        raise PredicateError(f"column {column!r}: {exc}") from None
    hint = [n for n in types if n.lower() == column.lower()]
    if hint:
        suggestion = f"; did you mean {hint[0]!r}?"
    else:
        names = list(types)
        shown = ", ".join(names[:12]) + (", ..." if len(names) > 12 else "")
        suggestion = f"; known columns: {shown}" if names else ""
    raise PredicateError(f"unknown column {column!r}{suggestion}")


def bind_predicate(node: Predicate, fields) -> Predicate:
    """Type every literal for its column's Paimon type.

    `fields`: [(name, type string)], {name: type string} or a Schema.  A map
    entry "m[k]" takes the value type of MAP column m.  Conversions:

    * TINYINT/SMALLINT/INT/BIGINT -> int: integral values only (3.0 -> 3;
      3.5 or out-of-range values raise), numeric strings accepted;
    * DECIMAL(p, s) -> decimal.Decimal at scale s; the value must be exactly
      representable with precision p (floats are read by their shortest repr);
    * FLOAT/DOUBLE -> float, also from 'NaN', 'Infinity', '-Infinity' strings;
    * CHAR/VARCHAR/STRING -> str (strings only);
    * BINARY/VARBINARY/BYTES -> bytes (str is UTF-8 encoded);
    * BOOLEAN -> bool (also 0/1 and 'true'/'false');
    * DATE -> datetime.date (also from 'YYYY-MM-DD');
    * TIME -> datetime.time (also from 'HH:MM:SS[.ffffff]');
    * TIMESTAMP/TIMESTAMP_LTZ -> numpy.datetime64 with nanoseconds (also from
      dates and 'YYYY-MM-DD HH:MM:SS.fffffffff' strings).

    Unknown columns, unsupported column types and values that do not fit raise
    PredicateError naming the column.
    """
    if not isinstance(node, Predicate):
        raise PredicateError(f"expected a predicate, got {type(node).__name__}")
    return _bind(node, _field_types(fields))


def _bind(node: Predicate, types: Mapping[str, str]) -> Predicate:
    if isinstance(node, _Compound):
        return type(node)([_bind(child, types) for child in node.children])
    data_type = _column_type(node.column, types)
    if data_type.root in _UNSUPPORTED_ROOTS:
        raise PredicateError(f"column {node.column!r} has type {data_type}; "
                             "predicates on it are not supported")
    if not node.literals:
        return node
    literals = tuple(_convert(value, data_type, node.column) for value in node.literals)
    return Leaf(node.op, node.column, literals)


def _convert(value: Any, data_type: DataType, column: str) -> Any:
    root = data_type.root
    try:
        if data_type.is_integral:
            return _to_integral(value, data_type)
        if root == "DECIMAL":
            return _to_decimal(value, data_type)
        if root in ("FLOAT", "DOUBLE"):
            return _to_float(value)
        if data_type.is_string:
            if isinstance(value, str):
                return value
            raise PredicateError("expected a string literal")
        if data_type.is_binary:
            if isinstance(value, bytes):
                return value
            if isinstance(value, str):
                # As the reader encodes string literals: a lone surrogate keeps its code unit
                # (no valid UTF-8 value can equal it) instead of failing the bind.
                return value.encode("utf-8", "surrogatepass")
            raise PredicateError("expected a binary literal such as X'0AFF'")
        if root == "BOOLEAN":
            return _to_bool(value)
        if root == "DATE":
            return _to_date(value)
        if root == "TIME":
            return _to_time(value)
        if data_type.is_timestamp:
            return _to_timestamp(value)
    except PredicateError as exc:
        raise PredicateError(
            f"literal {format_literal(value)} does not fit column {column!r} of type "
            f"{data_type}: {exc}") from None
    raise PredicateError(f"column {column!r} has type {data_type}; predicates on it are not "
                         "supported")


def _as_decimal(value: Any) -> decimal.Decimal:
    if isinstance(value, bool):
        raise PredicateError("expected a number, not a boolean")
    if isinstance(value, int):
        return decimal.Decimal(value)
    if isinstance(value, DecimalText):
        return value.exact
    if isinstance(value, float):
        if not math.isfinite(value):
            raise PredicateError("the value is not finite")
        return decimal.Decimal(repr(value))  # shortest repr: 0.1 stays 0.1
    if isinstance(value, decimal.Decimal):
        return value
    if isinstance(value, str):
        try:
            parsed = decimal.Decimal(value.strip())
        except decimal.InvalidOperation:
            raise PredicateError(f"{value!r} is not a number") from None
        if not parsed.is_finite():
            raise PredicateError("the value is not finite")
        return parsed
    raise PredicateError("expected a number")


def _to_integral(value: Any, data_type: DataType) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    else:
        exact = _as_decimal(value)
        if exact != exact.to_integral_value(context=_DECIMAL_CONTEXT):
            raise PredicateError("the value is not integral")
        number = int(exact)
    low, high = INTEGRAL_RANGES[data_type.root]
    if not low <= number <= high:
        raise PredicateError(f"out of range [{low}, {high}]")
    return number


def _to_decimal(value: Any, data_type: DataType) -> decimal.Decimal:
    exact = _as_decimal(value)
    quantum = decimal.Decimal(1).scaleb(-data_type.scale)
    try:
        scaled = exact.quantize(quantum, context=_DECIMAL_CONTEXT)
    except decimal.InvalidOperation:
        raise PredicateError("out of range") from None
    if scaled != exact:
        raise PredicateError(f"not exactly representable with scale {data_type.scale}")
    unscaled = int(scaled.scaleb(data_type.scale, context=_DECIMAL_CONTEXT))
    if abs(unscaled) >= 10 ** data_type.precision:
        raise PredicateError(f"more than {data_type.precision} digits")
    return scaled


def _to_float(value: Any) -> float:
    if isinstance(value, bool):
        raise PredicateError("expected a number, not a boolean")
    if isinstance(value, float):
        return float(value)  # a DecimalText as the plain float it is
    if isinstance(value, str):
        return _parse_float_text(value)
    if isinstance(value, (int, decimal.Decimal)):
        try:
            return float(value)
        except OverflowError:
            raise PredicateError("out of the range of DOUBLE") from None
    raise PredicateError("expected a number")


def _to_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise PredicateError("expected TRUE or FALSE")


def _to_date(value: Any) -> datetime.date:
    if isinstance(value, datetime.date):
        return value
    if isinstance(value, str):
        return parse_date(value)
    if isinstance(value, np.datetime64):
        days, rest = divmod(timestamp_nanos(value), _NANOS_PER_DAY)
        if rest:
            raise PredicateError("the timestamp is not at midnight")
        return datetime.date.fromordinal(days + _EPOCH_ORDINAL)
    raise PredicateError("expected DATE 'YYYY-MM-DD'")


def _to_time(value: Any) -> datetime.time:
    if isinstance(value, datetime.time):
        return value
    if isinstance(value, str):
        return parse_time(value)
    raise PredicateError("expected TIME 'HH:MM:SS'")


def _to_timestamp(value: Any) -> np.datetime64:
    if isinstance(value, np.datetime64):
        return value
    if isinstance(value, datetime.date):
        return timestamp_from_nanos((value.toordinal() - _EPOCH_ORDINAL) * _NANOS_PER_DAY)
    if isinstance(value, str):
        return parse_timestamp(value)
    raise PredicateError("expected TIMESTAMP 'YYYY-MM-DD HH:MM:SS[.fraction]'")
