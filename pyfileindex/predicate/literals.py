"""Literal values of predicate leaves: one canonical Python type per kind of value, their
equality keys, and their SQL text (which the parser reads back to the same value)."""

import datetime
import decimal
import math
import re
from typing import Any

import numpy as np

from pyfileindex.column_names import split_map_column

from .errors import PredicateError
from .temporal import format_nanos, nanos_of_datetime, timestamp_from_nanos, timestamp_nanos


def normalize_literal(value: Any, column: str) -> Any:
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
        return timestamp_from_nanos(nanos_of_datetime(value))
    if isinstance(value, datetime.date):
        return value
    if isinstance(value, datetime.time):
        if value.tzinfo is not None:
            raise PredicateError(f"TIME literal for column {column!r} must not carry a time zone")
        return value
    raise PredicateError(
        f"unsupported literal {value!r} of type {type(value).__name__} for column {column!r}")


def literal_key(value: Any) -> tuple:
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


def quote_string(text: str) -> str:
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
        return "DECIMAL '" + str(value) + "'"  # bare digits would read back as an int or float
    if isinstance(value, str):
        return quote_string(value)
    if isinstance(value, bytes):
        return "X'" + value.hex().upper() + "'"
    if isinstance(value, np.datetime64):
        return "TIMESTAMP '" + format_nanos(timestamp_nanos(value)) + "'"
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
    base, key = split_map_column(name)
    if key is not None:
        return _format_identifier(base) + "[" + quote_string(key) + "]"
    return _format_identifier(name)


def _format_identifier(name: str) -> str:
    if _SIMPLE_IDENTIFIER.fullmatch(name) and name.upper() not in _RESERVED:
        return name
    return '"' + name.replace('"', '""') + '"'


_FLOAT_NAMES = {"nan": math.nan, "+nan": math.nan, "-nan": math.nan,
                "inf": math.inf, "+inf": math.inf, "infinity": math.inf, "+infinity": math.inf,
                "-inf": -math.inf, "-infinity": -math.inf}


def parse_float_text(text: str) -> float:
    special = _FLOAT_NAMES.get(text.strip().lower())
    if special is not None:
        return special
    try:
        return float(decimal.Decimal(text.strip()))
    except decimal.InvalidOperation:
        raise PredicateError(f"{text!r} is not a number") from None
