"""How an opened index container answers each leaf of a predicate: the answer, and per index
on the leaf's column what it does to get it (a lookup, a range of codes, a dictionary scan and
its size, or why it cannot answer). `pyfileindex query --explain` prints it."""

from __future__ import annotations

from typing import Dict, List

from pyfileindex.predicate import Leaf, Predicate
from pyfileindex.predicate.patterns import PATTERN_OPS, like_of, literal_prefix

# Index types whose dictionary holds every distinct value of the file.
DICTIONARY_INDEXES = ("bitmap", "range-bitmap")


def _leaves(node: Predicate) -> List[Leaf]:
    if isinstance(node, Leaf):
        return [node]
    return [leaf for child in node.children for leaf in _leaves(child)]


def _pattern_work(leaf: Leaf, index_type: str, cardinality: int, limit: int) -> str:
    if index_type not in DICTIONARY_INDEXES:
        return "REMAIN: no dictionary of the values"
    pattern, escape = like_of(leaf.op, leaf.literals)
    prefix, prefix_only = literal_prefix(pattern, escape)
    if index_type == "range-bitmap" and prefix_only:
        return f"code range of the keys starting with {prefix!r} (no dictionary entry read)"
    if not prefix:
        if cardinality > limit:
            return (f"REMAIN: a dictionary scan of {cardinality:,} entries exceeds the limit "
                    f"of {limit:,}")
        return f"dictionary scan of {cardinality:,} entries"
    tested = "" if prefix_only else ", each matched against the pattern"
    return (f"dictionary scan of the keys starting with {prefix!r}{tested} (of "
            f"{cardinality:,}; REMAIN past {limit:,})")


def explain(reader, predicate: Predicate) -> List[Dict[str, object]]:
    """One entry per leaf: {"leaf": SQL, "answer": "SKIP" / "REMAIN" / "ROWS n", "indexes":
    [{"index": type, "work": text}]}. `reader` is an IndexReader, `predicate` bound to it."""
    out = []
    for leaf in _leaves(predicate):
        result = reader.evaluate(leaf)
        if result.skip:
            answer = "SKIP"
        elif result.kind == "REMAIN":
            answer = "REMAIN"
        else:
            answer = f"ROWS {result.cardinality:,}"
        indexes = []
        for entry in reader.entries:
            if entry.column != leaf.column:
                continue
            if entry.empty:
                work = "empty index (no rows)"
            elif leaf.op in PATTERN_OPS:
                facts = reader.describe(entry.column, entry.index_type)
                cardinality = int(facts.get("cardinality", 0))
                work = _pattern_work(leaf, entry.index_type, cardinality,
                                     reader.dictionary_scan_limit)
            else:
                work = f"{entry.index_type} lookup"
            indexes.append({"index": entry.index_type, "work": work})
        if not indexes:
            indexes.append({"index": None, "work": "REMAIN: no index on the column"})
        out.append({"leaf": leaf.to_sql(), "answer": answer, "indexes": indexes})
    return out


def format_explain(entries: List[Dict[str, object]]) -> str:
    lines = []
    for entry in entries:
        lines.append(f"{entry['leaf']}: {entry['answer']}")
        for index in entry["indexes"]:
            name = index["index"] or "-"
            lines.append(f"  {name}: {index['work']}")
    return "\n".join(lines)
