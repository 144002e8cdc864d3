"""Predicates over indexed columns: a small immutable tree, a Python DSL and a SQL-like parser.

The tree is what the native evaluator consumes.  It reads exactly these attributes:

* `Leaf.op` -- one of OPS ("eq", "ne", "lt", "le", "gt", "ge", "in", "not_in",
  "is_null", "is_not_null", "between", "is_nan", "is_not_nan", "starts_with", "ends_with",
  "contains", "like", "not_like"; the last two take (pattern,) or (pattern, escape)),
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
IN <-> NOT IN, IS NULL <-> IS NOT NULL, IS NAN <-> IS NOT NAN,
BETWEEN lo AND hi -> (< lo OR > hi), LIKE <-> NOT LIKE, starts_with / ends_with / contains ->
NOT LIKE of the escaped text, and De Morgan for AND/OR.  Like SQL filters, a negated
comparison never matches NULLs.

The package's modules, one job each: `tree` (Leaf / And / Or), `dsl` (col), `literals`
(canonical literal values and their SQL text), `patterns` (LIKE patterns), `temporal`
(timestamps and DATE / TIME / TIMESTAMP text), `parser` (SQL-like text -> tree) and `binding`
(literals typed for a row type). Everything public is importable from `pyfileindex.predicate`
itself.
"""

from .binding import bind_predicate
from .dsl import Column, col
from .errors import PredicateError
from .literals import DecimalText, format_column, format_literal
from .parser import parse_column, parse_predicate
from .temporal import (
    parse_date,
    parse_time,
    parse_timestamp,
    timestamp_from_nanos,
    timestamp_nanos,
)
from .tree import OPS, And, Leaf, Or, Predicate

__all__ = [
    "OPS",
    "And",
    "Column",
    "DecimalText",
    "Leaf",
    "Or",
    "Predicate",
    "PredicateError",
    "bind_predicate",
    "col",
    "format_column",
    "format_literal",
    "parse_column",
    "parse_date",
    "parse_predicate",
    "parse_time",
    "parse_timestamp",
    "timestamp_from_nanos",
    "timestamp_nanos",
]
