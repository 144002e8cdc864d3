"""pypaimon predicates (what `PredicateBuilder` makes) as pyfileindex predicates.

A pypaimon `Predicate` is a tree of nodes with a `method` ("equal", "in", "and", ...),
a `field` name and `literals` (the children for "and" / "or"). Two views of it:

* `index_predicate`: the part the file indexes can be asked, as a bound pyfileindex tree.
  startsWith, endsWith, contains and like (pypaimon's LIKE escapes with a backslash) on
  string columns pass through: bitmap and range-bitmap indexes answer them exactly. Leaves
  whose literals do not fit the column's type (or a like pattern pypaimon rejects) and
  leaves with a NULL literal become REMAIN, folded as
  FileIndexResult folds them (identity of AND, absorbing for OR). The result selects a
  superset of the rows, so pruning with it never drops a matching row.
* `predicate_mask`: the exact rows of an Arrow table, with Paimon's semantics for every
  leaf the index view can express (arrow_filter.py) and pypaimon's own Arrow expression
  for the others.

`pypaimon_reader=True` makes the index view safe for rows that pypaimon's reader filters
itself: its Arrow comparisons treat -0.0 as equal to 0.0 and NaN as unordered, where
Paimon's index order (Double.compare) does not, so FLOAT/DOUBLE leaves with a zero or
NaN literal become REMAIN there.
"""

import math
from typing import Any, Optional

import pyarrow as pa
import pyarrow.compute as pc

from pyfileindex.predicate import And, Leaf, Or, Predicate, PredicateError, bind_predicate

from .arrow_filter import predicate_mask as exact_leaf_mask
from .predicates import fold, schema_fields
from .schema import SchemaInfo

COMPARISONS = {"equal": "eq", "notEqual": "ne", "lessThan": "lt", "lessOrEqual": "le",
               "greaterThan": "gt", "greaterOrEqual": "ge"}
SETS = {"in": "in", "notIn": "not_in"}
NULL_TESTS = {"isNull": "is_null", "isNotNull": "is_not_null"}
RANGES = ("between", "notBetween")
# Pattern leaves, as pyfileindex ops; pypaimon's like escapes %, _ and itself with a backslash.
PATTERNS = {"startsWith": "starts_with", "endsWith": "ends_with", "contains": "contains",
            "like": "like"}
PYPAIMON_LIKE_ESCAPE = "\\"
COMPOUNDS = ("and", "or")
METHODS = frozenset(COMPARISONS) | frozenset(SETS) | frozenset(NULL_TESTS) | frozenset(
    RANGES) | frozenset(PATTERNS) | frozenset(COMPOUNDS)


def is_pypaimon_predicate(value: Any) -> bool:
    """Is `value` a pypaimon Predicate (pypaimon.common.predicate.Predicate)?"""
    return (type(value).__module__.startswith("pypaimon.")
            and hasattr(value, "method") and hasattr(value, "literals")
            and hasattr(value, "field"))


def _check(node) -> None:
    if not is_pypaimon_predicate(node):
        raise PredicateError(f"expected a pypaimon Predicate node, got {type(node).__name__}")
    if node.method not in METHODS:
        raise PredicateError(f"unsupported pypaimon predicate method {node.method!r}")
    if node.method in COMPOUNDS:
        if not node.literals:
            raise PredicateError(f"pypaimon {node.method!r} predicate has no children")
    elif not isinstance(node.field, str) or not node.field:
        raise PredicateError(f"pypaimon {node.method!r} predicate has no field name")


def _raw_leaf(node) -> Optional[Predicate]:
    """Our unbound tree for one pypaimon leaf, or None when no index can answer it."""
    method, column = node.method, node.field
    literals = list(node.literals or ())
    if method in NULL_TESTS:
        return Leaf(NULL_TESTS[method], column)
    if method in PATTERNS:
        return _pattern_leaf(method, column, literals)
    if any(v is None for v in literals):
        # A NULL literal: pypaimon's Arrow expressions give it meanings (an IN list
        # holding NULL matches NULL rows) that no index answers; leave it to the reader.
        return None
    if method in COMPARISONS:
        if len(literals) != 1:
            raise PredicateError(f"pypaimon {method!r} on {column!r} takes one literal, "
                                 f"got {len(literals)}")
        return Leaf(COMPARISONS[method], column, literals)
    if method in SETS:
        if not literals:
            return None
        return Leaf(SETS[method], column, literals)
    if len(literals) != 2:
        raise PredicateError(f"pypaimon {method!r} on {column!r} takes two literals, "
                             f"got {len(literals)}")
    low, high = literals
    if method == "between":
        return Leaf("between", column, (low, high))
    return Or([Leaf("lt", column, (low,)), Leaf("gt", column, (high,))])


def _pattern_leaf(method: str, column: str, literals: list) -> Optional[Predicate]:
    if len(literals) != 1 or not isinstance(literals[0], str):
        return None  # pypaimon's reader decides (a NULL or non-string literal)
    if method == "like":
        literals = [literals[0], PYPAIMON_LIKE_ESCAPE]
    try:
        return Leaf(PATTERNS[method], column, literals)
    except PredicateError:
        return None  # a pattern pypaimon rejects (a backslash before another character)


def _float_column(schema: SchemaInfo, column: str) -> bool:
    field = schema.field_by_name(column)
    return field is not None and field.base_type in ("FLOAT", "DOUBLE")


def _zero_or_nan(value) -> bool:
    return isinstance(value, float) and (value == 0.0 or math.isnan(value))


def _has_zero_or_nan(node: Predicate) -> bool:
    if isinstance(node, Leaf):
        return any(_zero_or_nan(v) for v in node.literals)
    return any(_has_zero_or_nan(child) for child in node.children)


def bound_leaf(node, schema: SchemaInfo, pypaimon_reader: bool = False
               ) -> Optional[Predicate]:
    """One pypaimon leaf bound to `schema`; None when no index can answer it exactly."""
    raw = _raw_leaf(node)
    if raw is None:
        return None
    if schema.field_by_name(node.field) is None:
        if pypaimon_reader:
            return None  # e.g. row tracking's _ROW_ID: pypaimon's reader knows it
        raise PredicateError(f"unknown column {node.field!r} in pypaimon predicate; columns: "
                             + ", ".join(f.name for f in schema.fields))
    try:
        bound = bind_predicate(raw, schema_fields(schema))
    except PredicateError:
        return None  # e.g. 3.5 on an INT column: pypaimon's reader decides
    if pypaimon_reader and _float_column(schema, node.field) and _has_zero_or_nan(bound):
        return None
    return bound


def index_predicate(predicate, schema: SchemaInfo, pypaimon_reader: bool = False
                    ) -> Optional[Predicate]:
    """The index-answerable part of pypaimon `predicate`, bound to `schema`; None = REMAIN."""
    if predicate is None:
        return None
    _check(predicate)
    if predicate.method in COMPOUNDS:
        children = [index_predicate(child, schema, pypaimon_reader)
                    for child in predicate.literals]
        return fold(Or if predicate.method == "or" else And, children)
    return bound_leaf(predicate, schema, pypaimon_reader)


def is_exact(predicate, schema: SchemaInfo) -> bool:
    """Does `index_predicate` keep every leaf (so it selects exactly the same rows)?"""
    _check(predicate)
    if predicate.method in COMPOUNDS:
        return all(is_exact(child, schema) for child in predicate.literals)
    return bound_leaf(predicate, schema) is not None


def exact_predicate(predicate, schema: SchemaInfo) -> Predicate:
    """pypaimon `predicate` as an equivalent bound pyfileindex tree; PredicateError naming
    the leaf when one has no equivalent (NULL literals, literals that do not fit)."""
    _check(predicate)
    if predicate.method in COMPOUNDS:
        children = [exact_predicate(child, schema) for child in predicate.literals]
        return children[0] if len(children) == 1 else (
            Or(children) if predicate.method == "or" else And(children))
    bound = bound_leaf(predicate, schema)
    if bound is None:
        raise PredicateError(
            f"pypaimon predicate {predicate.method}({predicate.field!r}, "
            f"{list(predicate.literals or ())!r}) has no pyfileindex equivalent; "
            "plan_read and pyfileindex.paimon.prune accept it")
    return bound


def columns(predicate) -> list:
    """Column names pypaimon `predicate` reads, in first-seen order."""
    seen = {}

    def visit(node):
        if node.method in COMPOUNDS:
            for child in node.literals:
                visit(child)
        else:
            seen.setdefault(node.field, None)
    _check(predicate)
    visit(predicate)
    return list(seen)


def predicate_mask(table: pa.Table, predicate, schema: SchemaInfo) -> pa.ChunkedArray:
    """Boolean mask (no nulls) of the rows of `table` (columns named as in `schema`)
    satisfying pypaimon `predicate`."""
    _check(predicate)
    if predicate.method in COMPOUNDS:
        combine = pc.or_ if predicate.method == "or" else pc.and_
        masks = [predicate_mask(table, child, schema) for child in predicate.literals]
        out = masks[0]
        for mask in masks[1:]:
            out = combine(out, mask)
        return out
    bound = bound_leaf(predicate, schema)
    if bound is not None:
        return exact_leaf_mask(table, bound)
    return _pypaimon_leaf_mask(table, predicate)


def _pypaimon_leaf_mask(table: pa.Table, leaf) -> pa.ChunkedArray:
    """The leaf as pypaimon's reader evaluates it (its own Arrow expression)."""
    import pyarrow.dataset as ds
    expression = leaf.to_arrow(table.schema)
    if expression is None:
        raise PredicateError(f"pypaimon cannot evaluate {leaf.method}({leaf.field!r}) on "
                             f"column type {table.schema.field(leaf.field).type}")
    values = ds.dataset(table).to_table(columns={"mask": expression}).column("mask")
    return pc.fill_null(values, False)


def filter_table(table: pa.Table, predicate, schema: SchemaInfo) -> pa.Table:
    """The rows of `table` satisfying pypaimon `predicate`."""
    if predicate is None or table.num_rows == 0:
        return table
    return table.filter(predicate_mask(table, predicate, schema))
