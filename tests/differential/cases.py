"""A pack = several column cases sharing one data file (one container), plus the questions.

Packing many small cases into one container keeps the JVM round trips few and tests
multi-column containers (HashMap column order) on the way. Each column is one case of one
family for each index type on it. Predicates are trees of leaves (Java JSON and our
pyfileindex.predicate form are both derived from one tree).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, FrozenSet, List, Optional, Sequence, Tuple

import pyarrow as pa
from pyfileindex.predicate import And, Leaf, Or

from differential import oracle
from differential.column_types import ColumnType
from differential.index_kinds import KINDS
from differential.negation import has_not, java_form, pushed_down
from differential.trees import PLeaf, PNode, PNot  # noqa: F401  (re-exported)


@dataclass
class ColumnCase:
    name: str
    ctype: ColumnType
    family: str
    values: List[Any]
    indexes: Dict[str, Dict[str, str]]  # index type -> its per-column options
    large_arrow: bool = False  # large_string / large_binary on our side
    dictionary: bool = False  # dictionary-encoded on our side (each batch its own dictionary)
    _data: Optional[oracle.ColumnData] = None

    @property
    def data(self) -> oracle.ColumnData:
        if self._data is None:
            self._data = oracle.ColumnData(self.ctype, self.values)
        return self._data

    def summary(self, limit: int = 8) -> str:
        shown = ", ".join(repr(v) for v in self.values[:limit])
        more = f", ... ({len(self.values)} rows)" if len(self.values) > limit else ""
        return f"{self.name}: {self.ctype.text} {self.indexes} [{shown}{more}]"


@dataclass(frozen=True)
class TopNRequest:
    column: str
    limit: int
    descending: bool
    nulls_first: bool
    selection: Optional[FrozenSet[int]] = None
    # Keep the rows tied with the limit-th (Java: a TopN with more sort keys, non-strict).
    with_ties: bool = False

    def __str__(self):
        order = "DESC" if self.descending else "ASC"
        nulls = "NULLS FIRST" if self.nulls_first else "NULLS LAST"
        ties = " WITH TIES" if self.with_ties else ""
        sel = "" if self.selection is None else f" within {len(self.selection)} rows"
        return f"ORDER BY {self.column} {order} {nulls} LIMIT {self.limit}{ties}{sel}"


@dataclass
class Pack:
    label: str
    rows: int
    columns: List[ColumnCase]
    predicates: List[Any] = field(default_factory=list)
    top_n: List[TopNRequest] = field(default_factory=list)
    extra_options: List[Tuple[str, str]] = field(default_factory=list)
    option_order: Optional[List[int]] = None  # permutation of the option entries
    expect_error: bool = False  # both sides must refuse to write (fixed cases)
    # Our side gets the rows as record batches of these sizes (slices of one array, so they
    # start at an offset), the rows left after them as one more batch; None: one batch.
    batch_sizes: Optional[Sequence[int]] = None

    # -- both sides' inputs

    @property
    def fields(self) -> List[Tuple[str, str]]:
        return [(c.name, c.ctype.text) for c in self.columns]

    def column(self, name: str) -> ColumnCase:
        for c in self.columns:
            if c.name == name:
                return c
        raise KeyError(name)

    def options(self) -> Dict[str, str]:
        """Table options in a fixed order (it feeds Java's HashMap; our side replays it)."""
        declared: Dict[str, List[str]] = {}
        per_column: List[Tuple[str, str]] = []
        for c in self.columns:
            for kind, opts in c.indexes.items():
                declared.setdefault(kind, []).append(c.name)
                for key, value in opts.items():
                    per_column.append((f"file-index.{kind}.{c.name}.{key}", value))
        entries = [(f"file-index.{kind}.columns", ",".join(names))
                   for kind, names in declared.items()]
        entries += per_column + list(self.extra_options)
        if self.option_order is not None:
            order = [i for i in self.option_order if i < len(entries)]
            order += [i for i in range(len(entries)) if i not in order]
            entries = [entries[i] for i in order]
        return dict(entries)

    def java_columns(self) -> Dict[str, List[Any]]:
        return {c.name: c.values for c in self.columns}

    def arrow_table(self) -> pa.Table:
        if not self.columns:
            return pa.table({})
        arrays = [c.ctype.arrow_array(c.values, c.large_arrow) for c in self.columns]
        names = [c.name for c in self.columns]
        if self.batch_sizes is None and not any(c.dictionary for c in self.columns):
            return pa.Table.from_arrays(arrays, names=names)
        batches = []
        for begin, size in self.batch_bounds():
            parts = [a.slice(begin, size) for a in arrays]
            parts = [p.dictionary_encode() if c.dictionary else p
                     for p, c in zip(parts, self.columns)]
            batches.append(pa.record_batch(parts, names=names))
        return pa.Table.from_batches(batches)  # a stream of these batches, as they are

    def batch_bounds(self) -> List[Tuple[int, int]]:
        """(first row, rows) of each batch our side is given."""
        bounds, begin = [], 0
        for size in list(self.batch_sizes or []) + [self.rows]:
            size = min(size, self.rows - begin)
            if size > 0:
                bounds.append((begin, size))
                begin += size
        return bounds or [(0, 0)]

    def case_count(self) -> int:
        return len(self.columns)

    def describe(self) -> str:
        lines = [f"pack {self.label}: {self.rows} rows, options {self.options()}"]
        if self.batch_sizes is not None:
            lines.append(f"  our batches: {[n for _, n in self.batch_bounds()]}")
        lines += ["  " + c.summary() + (" (dictionary-encoded)" if c.dictionary else "")
                  for c in self.columns]
        return "\n".join(lines)


# ----------------------------------------------------------------- predicate conversions


def to_java(pred) -> dict:
    if isinstance(pred, PNot):
        return {"op": "not", "child": to_java(pred.child)}
    if isinstance(pred, PNode):
        return {"op": pred.op, "children": [to_java(c) for c in pred.children]}
    out = {"op": pred.op, "column": pred.column}
    if pred.op not in ("is_null", "is_not_null"):
        out["literals"] = list(pred.literals)
    if pred.form:
        out["form"] = pred.form
    return out


def to_ours(pred, pack: Pack):
    if isinstance(pred, PNot):
        return ~to_ours(pred.child, pack)
    if isinstance(pred, PNode):
        children = [to_ours(c, pack) for c in pred.children]
        return And(children) if pred.op == "and" else Or(children)
    ctype = pack.column(pred.column).ctype
    forms = pred.literal_forms or (0,) * len(pred.literals)
    return Leaf(pred.op, pred.column, [ctype.literal(v, f) for v, f in zip(pred.literals, forms)])


# --------------------------------------------------------------------- expected answers


def _fold(tree, pack: Pack, leaf_answer) -> oracle.Answer:
    """A NOT-free tree folded with FileIndexResult's and/or over leaf_answer(leaf, pack)."""
    if isinstance(tree, PNode):
        combine = oracle.both if tree.op == "and" else oracle.either
        result = None
        for child in tree.children:
            answer = _fold(child, pack, leaf_answer)
            result = answer if result is None else combine(result, answer)
            if tree.op == "and" and result in (oracle.SKIP, oracle.ERROR):
                break  # Java's AND stops at the first child that does not remain
        return oracle.REMAIN if result is None else result
    return leaf_answer(tree, pack)


def _java_leaf(leaf: PLeaf, pack: Pack) -> oracle.Answer:
    """Per leaf the AND of every index on the column; NotBetween is FileIndexReader's
    default REMAIN in every 2.0 index."""
    if leaf.op == "not_between":
        return oracle.REMAIN
    column = pack.column(leaf.column)
    result = oracle.REMAIN
    for kind, opts in column.indexes.items():
        result = oracle.both(result, KINDS[kind].answer(column.data, leaf.op, leaf.literals,
                                                        opts))
    return result


def java_tree(pred, pack: Pack):
    """The NOT-free tree Java 2.0 evaluates (negation.java_form); `pred` when it has no NOT."""
    if not has_not(pred):
        return pred
    return java_form(pred, lambda name: pack.column(name).ctype.order_key)


def java_answer(pred, pack: Pack) -> oracle.Answer:
    """What Java 2.0 answers: per leaf the AND of every index on the column, then Java's
    tree folded with FileIndexResult's and/or."""
    return _fold(java_tree(pred, pack), pack, _java_leaf)


def ours_model(pred, pack: Pack) -> oracle.Answer:
    """Java's index answers over the tree ours evaluates (NOT pushed down to the leaves, a
    negated BETWEEN as `< low OR > high`): equal to java_answer unless Java's tree holds a
    NotBetween."""
    return _fold(pushed_down(pred), pack, _java_leaf)


def bound_answer(pred, pack: Pack) -> oracle.Answer:
    """The least a right answer must keep: Java's answer for the leaves where Java is right
    and exact, the key-level over-approximation (IndexKind.bound) for the others."""
    return _fold(pushed_down(pred), pack, _bound_leaf)


def _bound_leaf(leaf: PLeaf, pack: Pack) -> oracle.Answer:
    column = pack.column(leaf.column)
    leaf_lossy = lossy(leaf, pack)
    leaf_truth = truth(leaf, pack)
    result = oracle.REMAIN
    for kind, opts in column.indexes.items():
        index = KINDS[kind]
        answer = index.answer(column.data, leaf.op, leaf.literals, opts)
        if leaf_lossy or not oracle.sound(answer, leaf_truth):
            answer = index.bound(column.data, leaf.op, leaf.literals, opts)
        result = oracle.both(result, answer)
    return result


def truth(pred, pack: Pack) -> FrozenSet[int]:
    """Rows for which the predicate is TRUE (SQL's three values: NULL matches only IS NULL,
    NOT x holds where x is FALSE, not where x is unknown)."""
    return _rows_where(pred, pack, True)


def _rows_where(pred, pack: Pack, wanted: bool) -> FrozenSet[int]:
    """Rows for which the predicate is `wanted` (TRUE or FALSE; unknown is neither)."""
    if isinstance(pred, PNot):
        return _rows_where(pred.child, pack, not wanted)
    if isinstance(pred, PNode):
        sets = [_rows_where(c, pack, wanted) for c in pred.children]
        # AND is TRUE where every child is and FALSE where any is; OR the other way round.
        every = (pred.op == "and") == wanted
        out = sets[0]
        for s in sets[1:]:
            out = (out & s) if every else (out | s)
        return out
    leaf_rows = oracle.truth_leaf if wanted else oracle.falsity_leaf
    return leaf_rows(pack.column(pred.column).data, pred.op, pred.literals)


def lossy(pred, pack: Pack) -> bool:
    """True when a leaf touches an indexed timestamp whose index key is coarser than its
    values or literals: there Java (and any index) can only approximate."""
    return any(_lossy_leaf(leaf, pack) for leaf in leaves(pred))


def _lossy_leaf(leaf: PLeaf, pack: Pack) -> bool:
    column = pack.column(leaf.column)
    if not column.indexes or column.ctype.kind != "timestamp":
        return False
    if leaf.op in ("is_null", "is_not_null"):
        return False
    return column.ctype.precision > 6 or any(column.ctype.lossy_literal(v)
                                             for v in leaf.literals)


def leaves(pred) -> Sequence[PLeaf]:
    """The leaves of the tree ours evaluates (NOT pushed down)."""
    out: List[PLeaf] = []
    _collect_leaves(pushed_down(pred), out)
    return out


def _collect_leaves(tree, out: List[PLeaf]) -> None:
    if isinstance(tree, PNode):
        for c in tree.children:
            _collect_leaves(c, out)
    else:
        out.append(tree)
