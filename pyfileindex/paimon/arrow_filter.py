"""The exact predicate filter over Arrow data (index answers are only supersets).

SQL semantics: a comparison with NULL is not true, so a leaf's NULL results count as
false. The trees have no NOT node (negation is pushed into the leaves), so folding
NULL to false at each leaf gives the same rows as three-valued logic.

String patterns (starts_with, ends_with, contains, LIKE) match as the indexes do: `_` is one
code point, an escape character only where the leaf names one. NOT LIKE of a NULL is NULL,
so it selects no NULL row either.

FLOAT and DOUBLE values compare as Paimon's predicates and indexes compare them
(Double.compare, FLOAT widened exactly): NaN equals NaN and lies above +Infinity, and -0.0
lies below 0.0. IEEE comparisons would disagree with the index answers they refine.
"""

import datetime
import decimal

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pyfileindex.column_names import split_map_column
from pyfileindex.predicate import And, Leaf, Or, Predicate, timestamp_nanos
from pyfileindex.predicate.patterns import PATTERN_OPS, like_of, like_regex

from .errors import PaimonMetadataError


_COMPARE = {"eq": pc.equal, "ne": pc.not_equal, "lt": pc.less, "le": pc.less_equal,
            "gt": pc.greater, "ge": pc.greater_equal}
_FLOAT_OPS = frozenset(_COMPARE) | {"between", "in", "not_in"}
# Nanoseconds per tick of each Arrow timestamp unit.
_UNIT_NANOS = {"s": 10 ** 9, "ms": 10 ** 6, "us": 10 ** 3, "ns": 1}


def predicate_mask(table: pa.Table, predicate: Predicate) -> pa.ChunkedArray:
    """Boolean mask (no nulls) of the rows of `table` satisfying `predicate`."""
    return _mask(table, predicate)


def filter_table(table: pa.Table, predicate) -> pa.Table:
    if predicate is None or table.num_rows == 0:
        return table
    return table.filter(predicate_mask(table, predicate))


def _mask(table: pa.Table, node: Predicate):
    if isinstance(node, And):
        out = _mask(table, node.children[0])
        for child in node.children[1:]:
            out = pc.and_(out, _mask(table, child))
        return out
    if isinstance(node, Or):
        out = _mask(table, node.children[0])
        for child in node.children[1:]:
            out = pc.or_(out, _mask(table, child))
        return out
    return pc.fill_null(_leaf(table, node), False)


def _column(table: pa.Table, name: str):
    base, key = split_map_column(name)
    if base not in table.column_names:
        raise PaimonMetadataError(f"column {base!r} is not in the data read")
    values = table.column(base)
    if key is not None:
        values = pc.map_lookup(values, pa.scalar(key, values.type.key_type), "first")
    return values


def _timestamp_ticks(value, unit: str):
    """(floor ticks of `unit`, exact?) for a numpy.datetime64 literal."""
    nanos = timestamp_nanos(value)
    step = _UNIT_NANOS[unit]
    return nanos // step, nanos % step == 0


def _scalar(value, arrow_type: pa.DataType):
    return pa.scalar(value, type=arrow_type)


def _coerce(value, arrow_type: pa.DataType):
    """(scalar, exact) for a bound literal against a column of `arrow_type`.

    A timestamp literal finer than the column's unit is floored (exact=False), so range
    comparisons can be adjusted instead of failing.
    """
    if pa.types.is_timestamp(arrow_type) and isinstance(value, np.datetime64):
        ticks, exact = _timestamp_ticks(value, arrow_type.unit)
        return pa.scalar(ticks, type=pa.int64()).cast(arrow_type), exact
    if pa.types.is_time(arrow_type) and isinstance(value, datetime.time):
        return _scalar(value, arrow_type), True
    if pa.types.is_decimal(arrow_type) and not isinstance(value, decimal.Decimal):
        value = decimal.Decimal(str(value))
    if pa.types.is_floating(arrow_type) and isinstance(value, (int, decimal.Decimal)):
        value = float(value)
    return _scalar(value, arrow_type), True


# Double.compare's order as int64 keys: NaNs made one NaN, then the bits of negative values
# flipped below the sign, so -0.0 < 0.0 and NaN > +Infinity.
_CANONICAL_NAN = np.int64(0x7FF8000000000000)
_BELOW_SIGN = np.int64(0x7FFFFFFFFFFFFFFF)


def _double_keys(values: np.ndarray) -> np.ndarray:
    bits = np.where(np.isnan(values), _CANONICAL_NAN, values.view(np.int64))
    return bits ^ ((bits >> 63) & _BELOW_SIGN)


def _float_keys(values):
    """The int64 order keys of a FLOAT/DOUBLE column (Array or ChunkedArray), nulls kept."""
    chunks = values.chunks if isinstance(values, pa.ChunkedArray) else [values]
    keys = []
    for chunk in chunks:
        widened = chunk.cast(pa.float64())
        data = widened.fill_null(0.0).to_numpy(zero_copy_only=False)
        mask = widened.is_null().to_numpy(zero_copy_only=False) if widened.null_count else None
        keys.append(pa.array(_double_keys(data), type=pa.int64(), mask=mask))
    return pa.chunked_array(keys, type=pa.int64())


def _float_literal_key(literal) -> pa.Scalar:
    if isinstance(literal, bool) or not isinstance(literal, (int, float, decimal.Decimal)):
        raise PaimonMetadataError(f"literal {literal!r} does not compare with a FLOAT/DOUBLE "
                                  "column")
    return pa.scalar(int(_double_keys(np.array([float(literal)], np.float64))[0]), pa.int64())


def _float_leaf(values, leaf: Leaf):
    """A comparison, BETWEEN or IN leaf on a FLOAT/DOUBLE column, over its keys (made once)."""
    keys = _float_keys(values)
    literals = [_float_literal_key(v) for v in leaf.literals]
    if leaf.op in _COMPARE:
        return _COMPARE[leaf.op](keys, literals[0])
    if leaf.op == "between":
        return pc.and_(pc.greater_equal(keys, literals[0]), pc.less_equal(keys, literals[1]))
    members = pa.array([key.as_py() for key in literals], pa.int64())
    hit = pc.is_in(keys, value_set=members, skip_nulls=True)
    return pc.and_(hit if leaf.op == "in" else pc.invert(hit), pc.is_valid(keys))


def _compare(values, op: str, literal):
    scalar, exact = _coerce(literal, values.type)
    if exact:
        return _COMPARE[op](values, scalar)
    # The literal lies strictly between two representable values (floor < literal).
    if op == "eq":
        return pc.and_(pc.is_valid(values), pa.scalar(False))
    if op == "ne":
        return pc.is_valid(values)
    if op in ("lt", "le"):
        return pc.less_equal(values, scalar)
    return pc.greater(values, scalar)


def _pattern_leaf(values, leaf: Leaf):
    if pa.types.is_dictionary(values.type):
        values = values.cast(values.type.value_type)
    op, text = leaf.op, leaf.literals[0]
    if op == "starts_with":
        return pc.starts_with(values, pattern=text)
    if op == "ends_with":
        return pc.ends_with(values, pattern=text)
    if op == "contains":
        return pc.match_substring(values, pattern=text)
    pattern, escape = like_of(op, leaf.literals)
    hit = pc.match_substring_regex(values, pattern=like_regex(pattern, escape))
    return hit if op == "like" else pc.invert(hit)
def _nan_test(values, leaf: Leaf):
    """IS NAN: any NaN bit pattern; IS NOT NAN: neither NULL nor NaN (NULL is never TRUE)."""
    if not pa.types.is_floating(values.type):
        raise PaimonMetadataError(f"{leaf.to_sql()} needs a FLOAT or DOUBLE column; column "
                                  f"{leaf.column!r} is {values.type}")
    nan = pc.fill_null(pc.is_nan(values), False)
    if leaf.op == "is_nan":
        return nan
    return pc.and_(pc.is_valid(values), pc.invert(nan))


def _leaf(table: pa.Table, leaf: Leaf):
    values = _column(table, leaf.column)
    op = leaf.op
    if op == "is_null":
        return pc.is_null(values)
    if op == "is_not_null":
        return pc.is_valid(values)
    if op in PATTERN_OPS:
        return _pattern_leaf(values, leaf)
    if op in ("is_nan", "is_not_nan"):
        return _nan_test(values, leaf)
    if pa.types.is_floating(values.type) and op in _FLOAT_OPS:
        return _float_leaf(values, leaf)
    if op in _COMPARE:
        return _compare(values, op, leaf.literals[0])
    if op == "between":
        low, high = leaf.literals
        return pc.and_(_compare(values, "ge", low), _compare(values, "le", high))
    if op in ("in", "not_in"):
        members = []
        for literal in leaf.literals:
            scalar, exact = _coerce(literal, values.type)
            if exact:
                members.append(scalar)
        value_set = pa.array(members, type=values.type)
        hit = pc.is_in(values, value_set=value_set, skip_nulls=True)
        if op == "in":
            return pc.and_(hit, pc.is_valid(values))
        return pc.and_(pc.invert(hit), pc.is_valid(values))
    raise PaimonMetadataError(f"unsupported predicate operator {op!r}")
