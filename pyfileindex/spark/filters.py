"""Spark's meaning of a pyfileindex predicate.

* `spark_condition`: the predicate as a Spark Column, for the plain baseline (`plain_filter`).
  Not SQL text: Spark reads `''` and backslashes in string literals and double-quoted names
  differently from pyfileindex's parser, so `name = 'o''k'` would compare with "ok".
* `with_spark_zeros`: Paimon's index and exact filter order doubles by Double.compare, where
  -0.0 < 0.0; Spark's comparisons call them equal. Widening every zero literal to both zeros
  makes the index-pruned read return exactly the rows Spark's filter keeps.
"""

import datetime
import decimal
import math
from functools import reduce

import numpy as np

from pyfileindex.column_names import split_map_column
from pyfileindex.predicate import And, Leaf, Or, Predicate, timestamp_nanos
from pyfileindex.predicate.patterns import LITERAL, like_of, pattern_tokens

# Zero literals to add per operator, and the bound that replaces a zero one.
_BOTH_ZEROS = (0.0, -0.0)
_ZERO_BOUND = {"lt": -0.0, "ge": -0.0, "le": 0.0, "gt": 0.0}


def _is_zero(value) -> bool:
    return isinstance(value, float) and value == 0.0


def with_spark_zeros(predicate: Predicate) -> Predicate:
    """A bound predicate whose float zero literals mean what they mean to Spark (-0.0 == 0.0)."""
    if isinstance(predicate, (And, Or)):
        return type(predicate)([with_spark_zeros(c) for c in predicate.children])
    literals = predicate.literals
    if not any(_is_zero(v) for v in literals):
        return predicate
    op = predicate.op
    if op in ("eq", "ne", "in", "not_in"):
        kept = [v for v in literals if not _is_zero(v)]
        op = {"eq": "in", "ne": "not_in"}.get(op, op)
        return Leaf(op, predicate.column, kept + list(_BOTH_ZEROS))
    if op == "between":
        low, high = literals
        return Leaf(op, predicate.column, (-0.0 if _is_zero(low) else low,
                                           0.0 if _is_zero(high) else high))
    return Leaf(op, predicate.column, (_ZERO_BOUND[op],))


def quoted_name(name: str) -> str:
    """A column name as F.col reads it literally (no "a.b" struct access)."""
    return "`" + name.replace("`", "``") + "`"


def _column(name: str, schema):
    """The Spark column for a predicate column name; "m[k]" is key k of map column m."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import MapType
    base, key = split_map_column(name)
    if name not in schema.names and key is not None and base in schema.names and \
            isinstance(schema[base].dataType, MapType):
        return F.col(quoted_name(base))[key], schema[base].dataType.valueType
    if name not in schema.names:
        raise ValueError(f"predicate column {name!r} is not in the data; columns: "
                         f"{', '.join(schema.names)}")
    return F.col(quoted_name(name)), schema[name].dataType


def _literal(value, data_type):
    from pyspark.sql import functions as F
    from pyspark.sql.types import TimestampNTZType
    if isinstance(value, np.datetime64):
        # Text cast to the column's type: Spark keeps microseconds, and a naive Python
        # datetime would be read in the driver's local zone. LTZ literals are UTC instants.
        micros = timestamp_nanos(value) // 1000
        moment = datetime.datetime(1970, 1, 1) + datetime.timedelta(microseconds=micros)
        text = moment.isoformat(sep=" ")
        if not isinstance(data_type, TimestampNTZType):
            text += "Z"
        return F.lit(text).cast(data_type)
    if isinstance(value, bytes):
        return F.lit(bytearray(value))
    if isinstance(value, float) and math.isnan(value):
        return F.lit(float("nan"))
    if isinstance(value, (bool, int, float, str, decimal.Decimal, datetime.date)):
        return F.lit(value)
    raise ValueError(f"Spark has no literal for {value!r}")


def spark_like_pattern(pattern: str, escape) -> str:
    """A LIKE pattern (with its ESCAPE character or None) in Spark's spelling, whose escape is
    a backslash: literal %, _ and backslashes escaped with one, wildcards kept."""
    return "".join(char if kind != LITERAL else ("\\" + char if char in "%_\\" else char)
                   for kind, char in pattern_tokens(pattern, escape))


def _pattern_condition(column, predicate: Leaf):
    op, text = predicate.op, predicate.literals[0]
    if op == "starts_with":
        return column.startswith(text)
    if op == "ends_with":
        return column.endswith(text)
    if op == "contains":
        return column.contains(text)
    pattern, escape = like_of(op, predicate.literals)
    matched = column.like(spark_like_pattern(pattern, escape))
    return matched if op == "like" else ~matched


def spark_condition(predicate: Predicate, schema):
    """A bound predicate as a Spark Column over a DataFrame with StructType `schema`."""
    if isinstance(predicate, (And, Or)):
        parts = [spark_condition(child, schema) for child in predicate.children]
        return reduce(lambda a, b: (a & b) if isinstance(predicate, And) else (a | b), parts)
    from pyspark.sql import functions as F
    column, data_type = _column(predicate.column, schema)
    op = predicate.op
    if op in ("starts_with", "ends_with", "contains", "like", "not_like"):
        return _pattern_condition(column, predicate)
    values = [_literal(v, data_type) for v in predicate.literals]
    if op == "is_null":
        return column.isNull()
    if op == "is_not_null":
        return column.isNotNull()
    if op == "is_nan":
        return column.isNotNull() & F.isnan(column)
    if op == "is_not_nan":
        return column.isNotNull() & ~F.isnan(column)
    if op == "in":
        return column.isin(values)
    if op == "not_in":
        return ~column.isin(values)
    if op == "between":
        return column.between(values[0], values[1])
    comparisons = {"eq": column.__eq__, "ne": column.__ne__, "lt": column.__lt__,
                   "le": column.__le__, "gt": column.__gt__, "ge": column.__ge__}
    return comparisons[op](values[0])
