"""Hypothesis strategies for packs: the same shapes as generate.py, but shrinkable.

A drawn pack has 1..4 columns of the index type's families, values drawn from a small pool
(so keys repeat), nulls anywhere, and leaves whose literals come from the pool or anywhere;
some leaves, AND / OR nodes and their children under NOT.
"""

from __future__ import annotations

import math

from hypothesis import strategies as st

from differential.cases import ColumnCase, Pack, PLeaf, PNode, PNot, TopNRequest
from differential.column_types import (
    DATE_OBJECT_DAYS,
    MS_PER_DAY,
    ColumnType,
    decimal_of,
    parse_type,
)
from differential.index_kinds import FAMILIES, KINDS
from differential.values import special_values


def value_strategy(ctype: ColumnType, unscaled_cap=None) -> st.SearchStrategy:
    kind = ctype.kind
    specials = special_values(ctype)
    if kind == "int":
        lo, hi = ctype.int_range
        base = st.one_of(st.integers(-3, 3), st.integers(lo, hi),
                         st.integers(-64, 64).map(lambda x: x * 1024).filter(
                             lambda x: lo <= x <= hi))
    elif kind == "bool":
        return st.booleans()
    elif kind == "float":
        width = 32 if ctype.single_float else 64
        # One NaN: the harness sends Java the canonical NaN, so payloads would differ.
        base = st.floats(width=width).map(lambda x: math.nan if math.isnan(x) else x)
    elif kind == "string":
        max_size = 8 if ctype.length is None else min(ctype.length, 8)
        base = st.text(st.characters(exclude_categories=["Cs"]), max_size=max_size)
    elif kind == "binary":
        if ctype.root == "BINARY":
            base = st.binary(min_size=ctype.length, max_size=ctype.length)
        else:
            base = st.binary(max_size=8)
        specials = [v for v in specials if ctype.root != "BINARY" or len(v) == ctype.length]
    elif kind == "date":
        base = st.one_of(st.integers(-1000, 1000), st.integers(*DATE_OBJECT_DAYS))
    elif kind == "time":
        base = st.integers(0, MS_PER_DAY - 1)
    elif kind == "timestamp":
        unit = ctype.unit_ns
        top = (2**63 - 1) // unit
        base = st.one_of(st.integers(-3000, 3000), st.integers(-top, top)).map(
            lambda x: x * unit)
    elif kind == "decimal":
        limit = ctype.unscaled_limit if unscaled_cap is None else min(
            ctype.unscaled_limit, unscaled_cap)
        base = st.integers(-limit, limit).map(lambda u: decimal_of(u, ctype.scale))
        specials = [v for v in specials if abs(int(v.scaleb(ctype.scale))) <= limit]
    else:
        raise AssertionError(kind)
    return st.one_of(base, st.sampled_from(specials)) if specials else base


@st.composite
def column_case(draw, kind_name: str, name: str, rows: int) -> ColumnCase:
    kind = KINDS[kind_name]
    family = draw(st.sampled_from(list(kind.families)))
    ctype = parse_type(draw(st.sampled_from(FAMILIES[family])))
    values_st = value_strategy(ctype, kind.unscaled_cap).filter(
        lambda v: kind.keep_value(ctype, v))
    pool = draw(st.lists(values_st, min_size=1, max_size=6, unique_by=ctype.order_key))
    values = draw(st.lists(st.one_of(st.none(), st.sampled_from(pool)), min_size=rows,
                           max_size=rows))
    options = kind.options(draw(st.randoms(use_true_random=False)), ctype, values)
    return ColumnCase(name, ctype, family, values, {kind_name: options})


@st.composite
def leaf(draw, column: ColumnCase, kind_name: str) -> PLeaf:
    kind = KINDS[kind_name]
    op = draw(st.sampled_from(sorted(kind.op_weights)))
    if op in ("is_null", "is_not_null"):
        return PLeaf(op, column.name)
    present = [v for v in column.values if v is not None]
    literal = value_strategy(column.ctype, kind.unscaled_cap)
    if present:
        literal = st.one_of(st.sampled_from(present), literal)
    count = {"in": (1, 4), "not_in": (1, 4), "between": (2, 2)}.get(op, (1, 1))
    literals = tuple(draw(st.lists(literal, min_size=count[0], max_size=count[1])))
    form = draw(st.sampled_from([None, "leaf"])) if op in ("in", "not_in") else None
    return PLeaf(op, column.name, literals, form, tuple(draw(st.integers(0, 5))
                                                        for _ in literals))


def maybe_negated(predicate) -> st.SearchStrategy:
    """The predicate, NOT of it, or (rarely) NOT NOT of it."""
    return st.sampled_from([predicate, predicate, predicate, PNot(predicate), PNot(predicate),
                            PNot(PNot(predicate))])


@st.composite
def pack(draw, kind_name: str) -> Pack:
    rows = draw(st.integers(0, 40))
    count = draw(st.integers(1, 4))
    names = draw(st.lists(st.sampled_from(["f0", "f1", "a", "q", "Aa", "BB", "列", "\U0001F600"]),
                          min_size=count, max_size=count, unique=True))
    columns = [draw(column_case(kind_name, name, rows)) for name in names]
    result = Pack(f"{kind_name} hypothesis", rows, columns)
    leaves = [draw(leaf(c, kind_name)) for c in columns for _ in range(draw(st.integers(1, 4)))]
    predicates = [draw(maybe_negated(p)) for p in leaves]
    if len(leaves) >= 2 and draw(st.booleans()):
        children = tuple(draw(st.lists(st.sampled_from(leaves).flatmap(maybe_negated),
                                       min_size=2, max_size=3)))
        node = draw(maybe_negated(PNode(draw(st.sampled_from(["and", "or"])), children)))
        predicates.append(node)
    result.predicates = predicates
    if KINDS[kind_name].top_n:
        for c in columns:
            if draw(st.booleans()):
                row_ids = st.frozensets(st.integers(0, max(rows - 1, 0)), max_size=rows)
                selection = draw(st.one_of(st.none(), row_ids))
                if rows == 0 and selection is not None:
                    selection = frozenset()
                result.top_n.append(TopNRequest(c.name, draw(st.integers(0, rows + 2)),
                                                draw(st.booleans()), draw(st.booleans()),
                                                selection, draw(st.booleans())))
    return result
