"""Seeded-random packs for one index type.

`generate_pack(kind, seed, number)` is a pure function of its arguments (a string-seeded
random.Random), so any failing pack is reproduced from the label in a failure report.
"""

from __future__ import annotations

import random
from typing import Any, Dict, List, Optional

from differential.cases import ColumnCase, Pack, PLeaf, PNode, PNot, TopNRequest
from differential.column_types import parse_type
from differential.index_kinds import FAMILIES, KINDS, IndexKind, kinds_for_family
from differential.values import (
    java_hash_twins,
    layout_column,
    neighbour,
    random_value,
    sub_key_literal,
    value_pool,
)

EXTRA_TABLE_OPTIONS = [
    ("bucket", "-1"),
    ("file.format", "parquet"),
    ("write-only", "true"),
    ("file-index.in-manifest-threshold", "1 kb"),
    ("file-index.read.enabled", "true"),
    ("manifest.format", "avro"),
    ("metadata.stats-mode", "none"),
    ("snapshot.num-retained.min", "3"),
]

_NAME_STYLES = ("f", "letters", "twins", "unicode", "mixed")
MAX_TWIN_NAMES = 9


def _row_count(rnd: random.Random) -> int:
    r = rnd.random()
    if r < 0.02:
        return 0
    if r < 0.05:
        return 1
    if r < 0.50:
        return rnd.randint(2, 16)
    if r < 0.90:
        return rnd.randint(17, 48)
    if r < 0.99:
        return rnd.randint(49, 300)
    return rnd.randint(301, 1500)  # bigger row counts: fixed cases


def _column_names(rnd: random.Random, count: int) -> List[str]:
    style = rnd.choice(_NAME_STYLES)
    if style == "f":
        return [f"f{i}" for i in range(count)]
    if style == "twins":  # equal String.hashCode: one bucket of the container's column map
        # At most 9: from 10 on, Java's Column map makes a tree bin of keys that are not
        # Comparable and orders them by identity hash - Java's bytes change from run to run.
        twins = java_hash_twins(16)
        rnd.shuffle(twins)
        return twins[:min(count, MAX_TWIN_NAMES)] + [f"t{i}" for i in range(count - MAX_TWIN_NAMES)]
    names: List[str] = []
    while len(names) < count:
        if style == "letters":  # "a" and "q" share bucket 1 of 16, ...
            name = "".join(rnd.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(
                rnd.randint(1, 2)))
        elif style == "unicode":
            name = rnd.choice(["列", "é", "\U0001F600", "ß", "x y", "Ünï"]) + str(len(names))
        else:
            name = rnd.choice(["a", "q", "Aa", "BB", "col", "列", "f"]) + str(rnd.randint(0, 99))
        if name not in names:
            names.append(name)
    return names


def _null_share(rnd: random.Random) -> float:
    r = rnd.random()
    if r < 0.4:
        return 0.0
    if r < 0.8:
        return rnd.uniform(0.02, 0.3)
    if r < 0.95:
        return rnd.uniform(0.5, 0.95)
    return 1.0


def _distinct(rnd: random.Random, rows: int) -> int:
    return max(1, rnd.choice([1, 2, 3, 5, 8, rows // 4, rows // 2, rows]))


def make_column(rnd: random.Random, name: str, family: str, kind: IndexKind, rows: int,
                with_other_kinds: bool = True) -> ColumnCase:
    ctype = parse_type(rnd.choice(FAMILIES[family]))
    indexes = {kind.name: None}
    if with_other_kinds and rnd.random() < 0.15:
        others = [k for k in kinds_for_family(family) if k != kind.name]
        if others:
            indexes[rnd.choice(others)] = None
    kinds = [KINDS[k] for k in indexes]
    pool = value_pool(ctype, rnd, _distinct(rnd, rows),
                      keep=lambda v: all(k.keep_value(ctype, v) for k in kinds),
                      unscaled_cap=min((k.unscaled_cap for k in kinds
                                        if k.unscaled_cap is not None), default=None))
    share = _null_share(rnd)
    values = layout_column(rnd, pool, rows, share, order_key=ctype.order_key)
    if share == 0.0 and rows and rnd.random() < 0.15:
        ctype = ctype.with_not_null()
    options = {k.name: k.options(rnd, ctype, values) for k in kinds}
    large = ctype.kind in ("string", "binary") and rnd.random() < 0.2
    return ColumnCase(name, ctype, family, values, options, large_arrow=large)


# ---------------------------------------------------------------------------- predicates


def pick_literal(rnd: random.Random, column: ColumnCase) -> Any:
    ctype = column.ctype
    present = [v for v in column.values if v is not None]
    r = rnd.random()
    if present and r < 0.55:
        return rnd.choice(present)
    if present and r < 0.8:
        near = neighbour(ctype, rnd.choice(present), rnd)
        if near is not None:
            return near
    if present and r < 0.85 and ctype.kind == "timestamp":
        finer = sub_key_literal(ctype, rnd.choice(present), rnd)
        if finer is not None:
            return finer
    # Literals the index types cannot take at all are left to fixed cases (e.g. a DECIMAL
    # literal beyond a long makes Java's bsi reader throw).
    cap = min((KINDS[k].unscaled_cap for k in column.indexes
               if KINDS[k].unscaled_cap is not None), default=None)
    return random_value(ctype, rnd, unscaled_cap=cap)


def make_leaf(rnd: random.Random, column: ColumnCase, op: str) -> PLeaf:
    name = column.name
    if op in ("is_null", "is_not_null"):
        return PLeaf(op, name)
    if op in ("in", "not_in"):
        count = rnd.randint(21, 25) if rnd.random() < 0.1 else rnd.randint(1, 4)
        literals = tuple(pick_literal(rnd, column) for _ in range(count))
        form = "leaf" if count <= 20 and rnd.random() < 0.3 else None
    elif op == "between":
        literals = (pick_literal(rnd, column), pick_literal(rnd, column))
        if rnd.random() < 0.8:
            literals = tuple(sorted(literals, key=column.ctype.order_key))
        form = None
    else:
        literals = (pick_literal(rnd, column),)
        form = None
    forms = tuple(rnd.randrange(6) for _ in literals)
    return PLeaf(op, name, literals, form, forms)


def column_ops(column: ColumnCase) -> Dict[str, float]:
    weights: Dict[str, float] = {}
    for kind in column.indexes:
        for op, w in KINDS[kind].op_weights.items():
            weights[op] = max(weights.get(op, 0.0), w)
    return weights


def make_predicates(rnd: random.Random, pack: Pack, per_column: tuple = (3, 7)) -> List[Any]:
    predicates: List[Any] = []
    leaves_by_column = {}
    for column in pack.columns:
        weights = column_ops(column) or {"eq": 1.0, "lt": 1.0, "is_null": 1.0}
        ops, w = zip(*weights.items())
        count = rnd.randint(*per_column)
        made = [make_leaf(rnd, column, op) for op in rnd.choices(ops, weights=w, k=count)]
        leaves_by_column[column.name] = made
        predicates.extend(made)
    all_leaves = [leaf for made in leaves_by_column.values() for leaf in made]
    for _ in range(rnd.randint(0, 3) if all_leaves else 0):
        children = tuple(rnd.choice(all_leaves) for _ in range(rnd.randint(2, 3)))
        node = PNode(rnd.choice(["and", "or"]), children)
        if rnd.random() < 0.3:
            node = PNode("or" if node.op == "and" else "and", (node, rnd.choice(all_leaves)))
        predicates.append(node)
    return predicates


def negate_some(rnd: random.Random, pack: Pack, predicates: List[Any]) -> List[Any]:
    """The same number of questions with NOT in some: over leaves (twice, now and then), over
    AND / OR trees and over one subtree inside them, and - in half of the packs - one
    `NOT (c >= a AND c <= b ...)` in place of a leaf: Java's PredicateBuilder.and makes a
    Between of that, so its negation is Java's NotBetween (docs/DIFFERENCES.md)."""
    out = []
    for predicate in predicates:
        r = rnd.random()
        if isinstance(predicate, PLeaf):
            if r < 0.03:
                predicate = PNot(PNot(predicate))
            elif r < 0.25:
                predicate = PNot(predicate)
        elif r < 0.6:
            if r >= 0.2:
                predicate = _negate_one_child(rnd, predicate)
            if r < 0.4:
                predicate = PNot(predicate)
        out.append(predicate)
    indexed = [c for c in pack.columns if c.indexes]
    slots = [i for i, p in enumerate(out) if isinstance(p, PLeaf)]
    if indexed and slots and rnd.random() < 0.5:
        out[rnd.choice(slots)] = PNot(_range(rnd, rnd.choice(indexed), out))
    return out


def _negate_one_child(rnd: random.Random, node: PNode) -> PNode:
    children = list(node.children)
    i = rnd.randrange(len(children))
    children[i] = PNot(children[i])
    return PNode(node.op, tuple(children))


def _range(rnd: random.Random, column: ColumnCase, others: List[Any]):
    """`c >= a AND c <= b` (a below b mostly), the lower bound at times spelled NOT (c < a),
    with another question next to it at times, in an AND or under an OR."""
    low, high = pick_literal(rnd, column), pick_literal(rnd, column)
    if rnd.random() < 0.8:
        low, high = sorted((low, high), key=column.ctype.order_key)
    lower = PLeaf("ge", column.name, (low,), None, (rnd.randrange(6),))
    if rnd.random() < 0.3:
        lower = PNot(PLeaf("lt", column.name, (low,), None, (rnd.randrange(6),)))
    parts = [lower, PLeaf("le", column.name, (high,), None, (rnd.randrange(6),))]
    rnd.shuffle(parts)
    r = rnd.random()
    if r < 0.3:
        parts.append(rnd.choice(others))
    node = PNode("and", tuple(parts))
    if r > 0.85:
        node = PNode("or", (node, rnd.choice(others)))
    return node


def make_top_n(rnd: random.Random, pack: Pack, per_column: tuple = (0, 2)) -> List[TopNRequest]:
    requests = []
    for column in pack.columns:
        if not any(KINDS[k].top_n for k in column.indexes):
            continue
        for _ in range(rnd.randint(*per_column)):
            limit = rnd.choice([0, 1, 2, 3, rnd.randint(0, pack.rows + 2)])
            selection = None
            if rnd.random() < 0.5:
                share = rnd.choice([0.0, 0.1, 0.5, 0.9])
                selection = frozenset(r for r in range(pack.rows) if rnd.random() < share)
            requests.append(TopNRequest(column.name, limit, rnd.random() < 0.5,
                                        rnd.random() < 0.5, selection,
                                        with_ties=rnd.random() < 0.3))
    return requests


# --------------------------------------------------------------------------------- packs


def generate_pack(kind_name: str, seed: int, number: int, family: Optional[str] = None
                  ) -> Pack:
    """Pack `number` of the stream for (kind, seed[, family]).

    With a family: every column is of that family, carries only this index type and is named
    f0..f11 (twelve distinct buckets of the container's 16-slot column map), so a failure
    points at the index type and the data type. Without: mixed families, a second index type on some
    columns, colliding column names, unrelated table options - the container's business.
    """
    kind = KINDS[kind_name]
    tag = f"{kind_name}/{family}" if family else kind_name
    rnd = random.Random(f"pyfileindex-diff/{seed}/{tag}/{number}")
    rows = _row_count(rnd)
    if family:
        count = rnd.choice([1, 2, 3, 4, 6, 8, 10, 12])
        names = [f"f{i}" for i in range(count)]
        columns = [make_column(rnd, name, family, kind, rows, with_other_kinds=False)
                   for name in names]
    else:
        count = rnd.choice([1, 2, 3, 4, 6, 8, 10, 12])
        names = _column_names(rnd, count)
        columns = [make_column(rnd, name, rnd.choice(list(kind.families)), kind, rows)
                   for name in names]
    if rnd.random() < 0.1:  # a column without any index: its leaves must REMAIN
        plain = make_column(rnd, "plain", family or rnd.choice(list(kind.families)), kind, rows)
        plain.indexes = {}
        columns.append(plain)
    label = f"{kind_name} seed={seed} number={number}" + (f" family={family}" if family else "")
    pack = Pack(label, rows, columns)
    if not family and rnd.random() < 0.3:
        pack.extra_options = rnd.sample(EXTRA_TABLE_OPTIONS, rnd.randint(1, 3))
    if rnd.random() < 0.5:
        order = list(range(64))
        rnd.shuffle(order)
        pack.option_order = order
    pack.predicates = make_predicates(rnd, pack)
    # A stream of its own: the packs' data and questions stay what they were without NOT.
    pack.predicates = negate_some(random.Random(f"pyfileindex-diff/{seed}/{tag}/{number}/not"),
                                  pack, pack.predicates)
    pack.top_n = make_top_n(rnd, pack)
    return pack
