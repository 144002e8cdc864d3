"""Building blocks for the fixed edge cases: explicit columns, sweeping questions.

`column(...)` makes a ColumnCase from a type string and values; `pack(...)` puts columns in a
container and asks, per column, = / <> / IN / NOT IN / ranges on (a sample of) the present
values, their neighbours and the type's extremes, IS [NOT] NULL, and TopN where an index can
answer it.
"""

from __future__ import annotations

import random
from typing import Any, Dict, Iterable, List, Optional, Sequence

from differential.cases import ColumnCase, Pack, PLeaf, TopNRequest
from differential.column_types import parse_type
from differential.index_kinds import KINDS
from differential.values import neighbour


def column(name: str, type_text: str, values: Sequence[Any],
           indexes: Dict[str, Dict[str, str]], family: str = "fixed") -> ColumnCase:
    return ColumnCase(name, parse_type(type_text), family, list(values), dict(indexes))


def sweep(col: ColumnCase, rnd: random.Random, max_values: int = 12,
          extra_literals: Iterable[Any] = (), max_leaves: Optional[int] = None) -> List[PLeaf]:
    """Questions about the values of one column (a sample when there are many)."""
    ctype = col.ctype
    present = list({ctype.order_key(v): v for v in col.values if v is not None}.values())
    if len(present) > max_values:
        present = rnd.sample(present, max_values)
    probes = list(present)
    for v in present[:6]:
        near = neighbour(ctype, v, rnd)
        if near is not None:
            probes.append(near)
    probes.extend(extra_literals)
    ops = set()
    for kind in col.indexes:
        ops |= set(KINDS[kind].op_weights)
    ops = sorted(ops or {"eq"})
    leaves = [PLeaf("is_null", col.name), PLeaf("is_not_null", col.name)]
    for probe in probes:
        for op in ops:
            if op in ("is_null", "is_not_null"):
                continue
            if op in ("in", "not_in"):
                literals = (probe, rnd.choice(probes))
            elif op == "between":
                literals = tuple(sorted((probe, rnd.choice(probes)), key=ctype.order_key))
            else:
                literals = (probe,)
            leaves.append(PLeaf(op, col.name, literals, None, (rnd.randrange(6),) * len(literals)))
    if len(probes) >= 2:
        many = tuple(rnd.choice(probes) for _ in range(22))  # > 20: Java's In / NotIn leaf
        leaves += [PLeaf("in", col.name, many), PLeaf("not_in", col.name, many),
                   PLeaf("in", col.name, many[:3], "leaf"), PLeaf("not_in", col.name, many[:3],
                                                                   "leaf")]
    if max_leaves is not None and len(leaves) > max_leaves:
        leaves = leaves[:2] + rnd.sample(leaves[2:], max_leaves - 2)
    return leaves


def top_n_sweep(col: ColumnCase, rows: int, rnd: random.Random, big_sample: int = 3,
                selections: int = 4) -> List[TopNRequest]:
    """ORDER BY col ... LIMIT k [WITH TIES] around the interesting k, both ways, NULLs first
    and last (big_sample of them for more than 10,000 rows), within all rows and within
    `selections` random selections."""
    if not any(KINDS[k].top_n for k in col.indexes):
        return []
    limits = sorted({0, 1, 2, 3, rows // 2, max(rows - 1, 0), rows, rows + 1})
    requests = []
    for limit in limits:
        for descending in (False, True):
            for nulls_first in (False, True):
                for with_ties in (False, True):
                    requests.append(TopNRequest(col.name, limit, descending, nulls_first,
                                                with_ties=with_ties))
    if rows > 10_000:  # every request ships the whole index to Java: a sample is enough
        requests = rnd.sample(requests, big_sample)
    for _ in range(selections):
        selection = frozenset(r for r in range(rows) if rnd.random() < 0.4)
        requests.append(TopNRequest(col.name, rnd.randint(0, 4), rnd.random() < 0.5,
                                    rnd.random() < 0.5, selection, rnd.random() < 0.5))
    return requests


def tie_cuts(col: ColumnCase, rnd: random.Random, selections: int = 3) -> List[TopNRequest]:
    """TopN whose limit falls at, just before and just after each boundary between tie groups
    (NULLs as one group), both ways, NULLs first and last, with and without ties, within all
    rows and within a few random selections."""
    values = col.values
    key = col.ctype.order_key
    counts: Dict[Any, int] = {}
    for v in values:
        if v is not None:
            counts[key(v)] = counts.get(key(v), 0) + 1
    nulls = sum(1 for v in values if v is None)
    cuts = set()
    for descending in (False, True):
        sizes = [counts[k] for k in sorted(counts, reverse=descending)]
        for nulls_first in (False, True):
            groups = ([nulls] + sizes) if nulls_first else (sizes + [nulls])
            total = 0
            for size in groups:
                total += size
                cuts |= {(descending, nulls_first, total + d) for d in (-1, 0, 1) if total + d > 0}
    requests = [TopNRequest(col.name, limit, descending, nulls_first, with_ties=with_ties)
                for descending, nulls_first, limit in sorted(cuts)
                for with_ties in (False, True)]
    for _ in range(selections):
        selection = frozenset(r for r in range(len(values)) if rnd.random() < 0.5)
        descending, nulls_first, limit = rnd.choice(sorted(cuts))
        for with_ties in (False, True):
            requests.append(TopNRequest(col.name, max(limit // 2, 1), descending, nulls_first,
                                        selection, with_ties))
    return requests


def pack(label: str, columns: Sequence[ColumnCase], seed: int = 0, max_values: int = 12,
         extra_literals: Optional[Dict[str, Sequence[Any]]] = None,
         expect_error: bool = False, predicates: Optional[list] = None,
         max_leaves: Optional[int] = None, top_n_big_sample: int = 3,
         top_n_selections: int = 4) -> Pack:
    """A pack of these columns; questions from `sweep` unless `predicates` are given. Big
    columns: cap the questions per column with max_leaves and the TopN with top_n_big_sample
    and top_n_selections (every answer about 100k rows costs both sides real time)."""
    rows = len(columns[0].values) if columns else 0
    assert all(len(c.values) == rows for c in columns), "columns of one pack share rows"
    rnd = random.Random(f"fixed/{label}/{seed}")
    result = Pack(label, rows, list(columns), expect_error=expect_error)
    if expect_error:
        return result
    if predicates is None:
        predicates = []
        for c in columns:
            predicates += sweep(c, rnd, max_values, (extra_literals or {}).get(c.name, ()),
                                max_leaves)
    result.predicates = predicates
    for c in columns:
        result.top_n += top_n_sweep(c, rows, rnd, top_n_big_sample, top_n_selections)
    return result
