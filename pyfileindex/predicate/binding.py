"""Binding a predicate to a row type: every literal typed for its column's Paimon type."""

import datetime
import decimal
import math
from typing import Any, Mapping

import numpy as np

from pyfileindex.column_names import split_map_column
from pyfileindex.schema import INTEGRAL_RANGES, DataType, SchemaError, parse_type

from .errors import PredicateError
from .literals import DecimalText, format_literal, parse_float_text
from .temporal import (
    EPOCH_ORDINAL,
    NANOS_PER_DAY,
    parse_date,
    parse_time,
    parse_timestamp,
    timestamp_from_nanos,
    timestamp_nanos,
)
from .patterns import PATTERN_OPS
from .tree import Compound, Leaf, Predicate


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
        map_name = split_map_column(column).base
        if map_name != column and map_name in types:
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
    * CHAR/VARCHAR/STRING -> str (strings only); starts_with, ends_with, contains,
      like and not_like bind to these columns only;
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
    if isinstance(node, Compound):
        return type(node)([_bind(child, types) for child in node.children])
    data_type = _column_type(node.column, types)
    if data_type.root in _UNSUPPORTED_ROOTS:
        raise PredicateError(f"column {node.column!r} has type {data_type}; "
                             "predicates on it are not supported")
    if node.op in PATTERN_OPS and not data_type.is_string:
        raise PredicateError(f"{node.op} on column {node.column!r} of type {data_type}: string "
                             "patterns need a CHAR, VARCHAR or STRING column")
    if node.op in ("is_nan", "is_not_nan") and data_type.root not in ("FLOAT", "DOUBLE"):
        keyword = "IS NAN" if node.op == "is_nan" else "IS NOT NAN"
        raise PredicateError(f"{keyword} needs a FLOAT or DOUBLE column; column "
                             f"{node.column!r} has type {data_type}")
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
        return parse_float_text(value)
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
        days, rest = divmod(timestamp_nanos(value), NANOS_PER_DAY)
        if rest:
            raise PredicateError("the timestamp is not at midnight")
        return datetime.date.fromordinal(days + EPOCH_ORDINAL)
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
        return timestamp_from_nanos((value.toordinal() - EPOCH_ORDINAL) * NANOS_PER_DAY)
    if isinstance(value, str):
        return parse_timestamp(value)
    raise PredicateError("expected TIMESTAMP 'YYYY-MM-DD HH:MM:SS[.fraction]'")
