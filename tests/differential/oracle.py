"""Brute force over the values: the SQL truth, Java 2.0's answers, and how to judge an answer.

Answers are compared by meaning (``normalize``): SKIP, REMAIN or ROWS(non-empty frozenset);
an empty row set means SKIP, as in java_harness.normalize_answer. Java's answers are modelled
per index type from FORMAT-container-bitmap.md 4.8 and FORMAT-bloom-bsi-rangebitmap.md 3.5,
4.7, 4.8 and 5, with Java 2.0's bugs in (they are what Java answers); ``sound`` then tells
whether an answer keeps every row that truly matches.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Any, Dict, FrozenSet, List, Optional, Sequence, Tuple

from differential.bloom_model import BloomModel
from differential.column_types import ColumnType

SKIP = ("SKIP", None)
REMAIN = ("REMAIN", None)
EMPTY: FrozenSet[int] = frozenset()

Answer = Tuple[str, Optional[FrozenSet[int]]]


def rows(selected) -> Answer:
    selected = frozenset(selected)
    return ("ROWS", selected) if selected else SKIP


def normalize(kind: str, selected=None) -> Answer:
    if kind == "ROWS":
        return rows(selected)
    if kind in ("SKIP", "REMAIN"):
        return (kind, None)
    raise ValueError(f"unknown answer kind {kind!r}")


ERROR = ("ERROR", None)


def is_error(answer: Answer) -> bool:
    return answer[0] == "ERROR"


def same(a: Answer, b: Answer) -> bool:
    """Equal answers; two errors are equal whatever their messages."""
    return a == b or (is_error(a) and is_error(b))


def from_java(answer: dict) -> Answer:
    if "error" in answer:
        return ("ERROR", answer["error"])
    return normalize(answer["result"], answer.get("rows"))


def from_ours(result) -> Answer:
    if result.kind == "ROWS":
        return rows(result.row_ids().tolist())
    return normalize(result.kind)


def both(a: Answer, b: Answer) -> Answer:
    """FileIndexResult.and on normalized answers (an error wins: Java threw)."""
    if is_error(a) or is_error(b):
        return ERROR
    if a == SKIP or b == SKIP:
        return SKIP
    if a == REMAIN:
        return b
    if b == REMAIN:
        return a
    return rows(a[1] & b[1])


def either(a: Answer, b: Answer) -> Answer:
    """FileIndexResult.or on normalized answers (REMAIN swallows a bitmap)."""
    if is_error(a) or is_error(b):
        return ERROR
    if a == REMAIN or b == REMAIN:
        return REMAIN
    if a == SKIP:
        return b
    if b == SKIP:
        return a
    return rows(a[1] | b[1])


def sound(answer: Answer, truth: FrozenSet[int]) -> bool:
    """A file index may select too many rows, never too few."""
    if answer == REMAIN:
        return True
    if answer == SKIP:
        return not truth
    if answer[0] == "ROWS":
        return truth <= answer[1]
    return False  # errors


def selected_rows(answer: Answer, row_count: int) -> FrozenSet[int]:
    """The rows a reader goes on to read: REMAIN reads all of them."""
    if answer == REMAIN:
        return frozenset(range(row_count))
    return EMPTY if answer == SKIP else answer[1]


def at_least_as_precise(ours: Answer, theirs: Answer, row_count: int) -> bool:
    """ours selects no row that theirs drops."""
    if theirs == REMAIN:
        return True
    return selected_rows(ours, row_count) <= selected_rows(theirs, row_count)


def describe(answer: Answer, limit: int = 12) -> str:
    if is_error(answer):
        return f"ERROR({answer[1] or 'Java throws'})"
    if answer[0] != "ROWS":
        return f"{answer[0]}" + (f"({answer[1]})" if answer[1] else "")
    ids = sorted(answer[1])
    text = ", ".join(map(str, ids[:limit])) + (", ..." if len(ids) > limit else "")
    return f"ROWS[{len(ids)}]({text})"


# --------------------------------------------------------------------------- one column


class KeyOrder:
    """Rows grouped by key, groups in ascending key order: range selections are slices."""

    def __init__(self, groups: Dict[Any, List[int]]):
        self.groups = groups
        self.keys = sorted(groups)
        self.rows: List[int] = []
        self.starts: List[int] = []
        for key in self.keys:
            self.starts.append(len(self.rows))
            self.rows.extend(groups[key])
        self.starts.append(len(self.rows))

    def select(self, op: str, key: Any) -> List[int]:
        """Rows whose key compares to `key` as op says (eq/lt/le/gt/ge)."""
        if op == "eq":
            return self.groups.get(key, [])
        if op in ("lt", "ge"):
            cut = self.starts[bisect.bisect_left(self.keys, key)]
        else:
            cut = self.starts[bisect.bisect_right(self.keys, key)]
        return self.rows[:cut] if op in ("lt", "le") else self.rows[cut:]

    def group_rows(self, descending: bool):
        """Each key's rows, in ascending (or descending) key order."""
        indexes = range(len(self.keys))
        for i in (reversed(indexes) if descending else indexes):
            yield self.rows[self.starts[i]:self.starts[i + 1]]


@dataclass
class ColumnData:
    """A column's values with the groupings every question needs, computed once."""

    ctype: ColumnType
    values: Sequence[Any]
    n: int = 0
    nulls: FrozenSet[int] = EMPTY
    nonnull: FrozenSet[int] = EMPTY
    all_rows: FrozenSet[int] = EMPTY
    truth_groups: Dict[Any, List[int]] = field(default_factory=dict)
    index_groups: Dict[Any, List[int]] = field(default_factory=dict)
    _truth_order: Optional[KeyOrder] = None
    _index_order: Optional[KeyOrder] = None
    _blooms: Dict[tuple, BloomModel] = field(default_factory=dict)

    def __post_init__(self):
        ctype = self.ctype
        self.n = len(self.values)
        nulls = []
        order_key, index_key = ctype.order_key, ctype.index_key
        truth, index = self.truth_groups, self.index_groups
        same = ctype.kind != "timestamp"  # index key == order key
        for i, v in enumerate(self.values):
            if v is None:
                nulls.append(i)
                continue
            key = order_key(v)
            truth.setdefault(key, []).append(i)
            if not same:
                index.setdefault(index_key(v), []).append(i)
        if same:
            self.index_groups = truth
        self.nulls = frozenset(nulls)
        self.all_rows = frozenset(range(self.n))
        self.nonnull = self.all_rows - self.nulls

    @property
    def truth_order(self) -> KeyOrder:
        if self._truth_order is None:
            self._truth_order = KeyOrder(self.truth_groups)
            if self.index_groups is self.truth_groups:
                self._index_order = self._truth_order
        return self._truth_order

    @property
    def index_order(self) -> KeyOrder:
        if self._index_order is None:
            if self.index_groups is self.truth_groups:
                return self.truth_order
            self._index_order = KeyOrder(self.index_groups)
        return self._index_order

    def bloom(self, items: int, fpp: float) -> BloomModel:
        key = (items, fpp)
        if key not in self._blooms:
            # One value of each group: equal values set the same bits.
            distinct = [self.values[rows[0]] for rows in self.truth_groups.values()]
            self._blooms[key] = BloomModel(self.ctype, items, fpp, distinct)
        return self._blooms[key]


def _leaf_rows(col: ColumnData, op: str, literals: Sequence[Any], keyed_by_index: bool
               ) -> FrozenSet[int]:
    """Exact SQL row set of a leaf; with keyed_by_index, over index keys instead of values."""
    if op == "is_null":
        return col.nulls
    if op == "is_not_null":
        return col.nonnull
    if keyed_by_index:
        groups, key = col.index_groups, col.ctype.index_key
    else:
        groups, key = col.truth_groups, col.ctype.order_key
    if op in ("eq", "in"):
        out: set = set()
        for lit in literals:
            out.update(groups.get(key(lit), ()))
        return frozenset(out)
    if op in ("ne", "not_in"):
        return col.nonnull - _leaf_rows(col, "in", literals, keyed_by_index)
    order = col.index_order if keyed_by_index else col.truth_order
    if op == "between":
        lo, hi = literals
        return frozenset(order.select("ge", key(lo))) & frozenset(order.select("le", key(hi)))
    return frozenset(order.select(op, key(literals[0])))


def truth_leaf(col: ColumnData, op: str, literals: Sequence[Any]) -> FrozenSet[int]:
    return _leaf_rows(col, op, literals, keyed_by_index=False)


def falsity_leaf(col: ColumnData, op: str, literals: Sequence[Any]) -> FrozenSet[int]:
    """Rows for which a leaf is FALSE (SQL's three values: on a NULL a comparison is neither
    TRUE nor FALSE; IS [NOT] NULL is never unknown). NOT x holds where x is FALSE."""
    if op == "is_null":
        return col.nonnull
    if op == "is_not_null":
        return col.nulls
    return col.nonnull - truth_leaf(col, op, literals)


# ------------------------------------------------------------- Java 2.0 per index type


def java_bitmap(col: ColumnData, op: str, literals: Sequence[Any]) -> Answer:
    """BitmapFileIndex: exact = / IN / IS [NOT] NULL; <> and NOT IN flip over all rows, so
    NULL rows stay in; no range answers."""
    if op in ("eq", "in", "is_null", "is_not_null"):
        if op == "is_not_null":
            return rows(col.all_rows - col.nulls)
        return rows(_leaf_rows(col, op, literals, keyed_by_index=True))
    if op in ("ne", "not_in"):
        return rows(col.all_rows - _leaf_rows(col, "in", literals, keyed_by_index=True))
    return REMAIN


LONG_MAX = 2**63 - 1


def java_bsi(col: ColumnData, op: str, literals: Sequence[Any]) -> Answer:
    """BitSliceIndexBitmapFileIndex: exact over index keys; <> / NOT IN leave NULL rows out.
    A DECIMAL literal whose unscaled value does not fit a long makes Java throw."""
    if col.ctype.kind == "decimal" and any(
            not -LONG_MAX - 1 <= int(v.scaleb(col.ctype.scale)) <= LONG_MAX for v in literals):
        return ERROR
    return rows(_leaf_rows(col, op, literals, keyed_by_index=True))


def java_range_bitmap(col: ColumnData, op: str, literals: Sequence[Any]) -> Answer:
    """RangeBitmapFileIndex 2.0: like bsi, but on a column without any non-null value
    IS NULL answers bitmapOf(0, rid - 1) - two rows, not all (apache/paimon#9140)."""
    if op == "is_null" and not col.index_groups:
        return rows({0, col.n - 1}) if col.n > 0 else SKIP
    return rows(_leaf_rows(col, op, literals, keyed_by_index=True))


def java_bloom(col: ColumnData, op: str, literals: Sequence[Any], items: int, fpp: float
               ) -> Answer:
    """BloomFilterFileIndex: = / IN may SKIP; everything else REMAINs."""
    if op not in ("eq", "in"):
        return REMAIN
    model = col.bloom(items, fpp)
    return REMAIN if any(model.might_contain(lit) for lit in literals) else SKIP


# ------------------------------- the least an index can answer where keys are coarse
#
# Where a timestamp's index key (millis or micros) is coarser than the values or the literal,
# no index can answer exactly. A right answer keeps every row whose key does not rule a match
# out; these are those answers (the bound ours must stay within, see runner).


def _key_range(col: ColumnData, op: str, literals: Sequence[Any]) -> FrozenSet[int]:
    order, key = col.index_order, col.ctype.index_key
    if op in ("eq", "in"):
        return _leaf_rows(col, "in", literals, keyed_by_index=True)
    if op in ("lt", "le"):
        return frozenset(order.select("le", key(literals[0])))
    if op in ("gt", "ge"):
        return frozenset(order.select("ge", key(literals[0])))
    if op == "between":
        return (frozenset(order.select("ge", key(literals[0])))
                & frozenset(order.select("le", key(literals[1]))))
    raise ValueError(op)


def bound_bitmap(col: ColumnData, op: str, literals: Sequence[Any]) -> Answer:
    if op in ("ne", "not_in"):
        return rows(col.all_rows)
    return java_bitmap(col, op, literals)


def bound_exact_index(col: ColumnData, op: str, literals: Sequence[Any]) -> Answer:
    """bsi and range-bitmap: key-level over-approximation; IS NULL exact."""
    if op == "is_null":
        return rows(col.nulls)
    if op == "is_not_null":
        return rows(col.nonnull)
    if op in ("ne", "not_in"):
        return rows(col.nonnull)
    return rows(_key_range(col, op, literals))


# ------------------------------------------------------------------------------- TopN


def _value_top(col: ColumnData, k: int, descending: bool, found: Optional[FrozenSet[int]],
               strict: bool) -> FrozenSet[int]:
    """BitSliceIndexBitmap.topK/bottomK: strict, k rows, ties at the cut keep the highest row
    positions; not strict, every row tied with the k-th as well."""
    if k == 0 or (found is not None and not found):
        return EMPTY
    candidates = col.nonnull if found is None else col.nonnull & found
    if len(candidates) <= k:
        return candidates
    chosen: List[int] = []
    for group in col.index_order.group_rows(descending):
        if found is not None:
            group = [r for r in group if r in found]
        if len(chosen) + len(group) >= k:
            tied = sorted(group)
            chosen.extend(tied[len(tied) - (k - len(chosen)):] if strict else tied)
            break
        chosen.extend(group)
    return frozenset(chosen)


def _nulls_within(col: ColumnData, found: Optional[FrozenSet[int]]) -> FrozenSet[int]:
    if found is not None and not found:
        return EMPTY
    return col.nulls if found is None else col.nulls & found


def _evaluate_top_n_input(has_range_bitmap: bool, k: int, selection: Optional[FrozenSet[int]]
                          ) -> Optional[Answer]:
    """FileIndexPredicate.evaluateTopN before any index is asked: the input itself when it is a
    bitmap of at most k rows or no index can answer; None when the index is asked."""
    if selection is not None:
        if not selection:
            return SKIP
        if len(selection) <= k:
            return rows(selection)
    if not has_range_bitmap:
        return REMAIN if selection is None else rows(selection)
    return None


def _with_ties(col: ColumnData, order: KeyOrder, k: int, descending: bool, nulls_first: bool,
               candidates: FrozenSet[int]) -> FrozenSet[int]:
    """FETCH FIRST k ROWS WITH TIES by its definition: every candidate with fewer than k
    candidates strictly before it in the order (NULLs tie with each other)."""
    groups = list(order.group_rows(descending))
    groups = [sorted(col.nulls)] + groups if nulls_first else groups + [sorted(col.nulls)]
    chosen: List[int] = []
    for group in groups:
        if len(chosen) >= k:
            break
        chosen.extend(r for r in group if r in candidates)
    return frozenset(chosen)


def topn_exact(col: ColumnData, has_range_bitmap: bool, k: int, descending: bool,
               nulls_first: bool, selection: Optional[FrozenSet[int]],
               with_ties: bool = False) -> Answer:
    """The right answer, with Java's rules: FileIndexPredicate.evaluateTopN's input checks,
    then, with one sort key (strict), RangeBitmap.topK/bottomK + fillNulls: value ties at the
    cut keep the highest row positions, NULLs the lowest; WITH TIES (more sort keys, not strict):
    every selected row tied with the k-th by the index keys, NULLs included."""
    answer = _evaluate_top_n_input(has_range_bitmap, k, selection)
    if answer is not None:
        return answer
    if with_ties:
        candidates = col.all_rows if selection is None else selection
        return rows(_with_ties(col, col.index_order, k, descending, nulls_first, candidates))
    return _fill_nulls(col, k, descending, nulls_first, selection, strict=True)


def _fill_nulls(col: ColumnData, k: int, descending: bool, nulls_first: bool,
                selection: Optional[FrozenSet[int]], strict: bool) -> Answer:
    """RangeBitmap.fillNulls of Java 2.0 on a column with keys: the NULLs are cut to the
    lowest positions whatever `strict` says (only the values keep their ties)."""
    if not nulls_first:
        chosen = _value_top(col, k, descending, selection, strict)
        if len(chosen) >= k:
            return rows(chosen)
        nulls = sorted(_nulls_within(col, selection))
        return rows(chosen | frozenset(nulls[: k - len(chosen)]))
    nulls = sorted(_nulls_within(col, selection))
    if len(nulls) >= k:
        return rows(nulls[:k])
    return rows(frozenset(nulls) | _value_top(col, k - len(nulls), descending, selection, strict))


def java_topn(col: ColumnData, has_range_bitmap: bool, k: int, descending: bool,
              nulls_first: bool, selection: Optional[FrozenSet[int]],
              with_ties: bool = False) -> Answer:
    """Java 2.0: a range bitmap without any non-null value answers bitmapOf(0, rid - 1)
    whatever k, the selection and the sort keys (apache/paimon#9140); WITH TIES (non-strict)
    keeps value ties but still cuts tied NULLs (apache/paimon#9280); otherwise topn_exact."""
    answer = _evaluate_top_n_input(has_range_bitmap, k, selection)
    if answer is not None:
        return answer
    if not col.index_groups:
        return rows({0, col.n - 1}) if col.n > 0 else SKIP
    return _fill_nulls(col, k, descending, nulls_first, selection, strict=not with_ties)


def topn_sound(answer: Answer, col: ColumnData, k: int, descending: bool, nulls_first: bool,
               selection: Optional[FrozenSet[int]], with_ties: bool = False) -> bool:
    """True when the answer holds some valid ORDER BY .. LIMIT k of the selected rows (by the
    values themselves), i.e. an engine sorting the selected rows gets the right result; WITH
    TIES, when it holds every selected row tied with the k-th (later sort keys decide among
    them, so any of them may be wanted)."""
    candidates = col.all_rows if selection is None else selection
    if answer == REMAIN or k == 0:
        return True
    chosen = EMPTY if answer == SKIP else answer[1]
    if len(candidates) <= k:
        return candidates <= chosen
    if with_ties:
        return _with_ties(col, col.truth_order, k, descending, nulls_first, candidates) <= chosen
    groups = list(col.truth_order.group_rows(descending))
    nulls = sorted(col.nulls)
    groups = [nulls] + groups if nulls_first else groups + [nulls]
    taken = 0
    for group in groups:
        group = [r for r in group if r in candidates]
        if taken + len(group) >= k:  # the group holding the k-th row: ties
            return sum(1 for r in group if r in chosen) >= k - taken
        if not all(r in chosen for r in group):
            return False
        taken += len(group)
    return True
