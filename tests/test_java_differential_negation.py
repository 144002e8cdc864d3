"""Differential tests against Apache Paimon 2.0: negated predicates.

Java negates with `Predicate.negate()` (each leaf function swaps for its opposite, AND and OR
swap by De Morgan) and `FileIndexPredicate` evaluates the result; ours is `~predicate`. Both
sides answer on the other side's bytes (equal bytes: checked first). For every leaf the sweep
asks about a column and for random AND/OR trees of them:

* ours is sound: it keeps every row where the negation is TRUE (SQL: a NULL is neither);
* ours equals Java's answer wherever Java is sound, except under a NOT BETWEEN: Java turns
  it into a NotBetween leaf that no 2.0 index answers (REMAIN), ours into `< low OR > high`,
  which the indexes answer. There ours must select no row Java's answer drops. Java's
  PredicateBuilder.and also makes a Between of `c >= a AND c <= b` when a < b, so its
  negation is REMAIN in Java too (Java's tree: differential/negation.py).

The generated differential packs (test_java_differential.py) ask negated questions too.
"""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

import pytest

import pyfileindex as pfi

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also under --import-mode=importlib
from differential import fixed, oracle  # noqa: E402
from differential.cases import (  # noqa: E402
    PNode,
    PNot,
    java_tree,
    ours_model,
    to_java,
    to_ours,
    truth,
)
from differential.column_types import decimal_of  # noqa: E402
from differential.negation import contains_not_between  # noqa: E402
from java_harness import java_harness  # noqa: E402,F401  (the session fixture)

pytestmark = pytest.mark.java


def random_trees(leaves, rnd: random.Random, count: int):
    """AND / OR trees of 2-3 leaves, nested once in a third of them."""
    trees = []
    for _ in range(count):
        op = rnd.choice(["and", "or"])
        children = rnd.sample(leaves, rnd.randint(2, 3))
        if rnd.random() < 0.33:
            inner = PNode("or" if op == "and" else "and", tuple(rnd.sample(leaves, 2)))
            children.append(inner)
        trees.append(PNode(op, tuple(children)))
    return trees


def check_negations(harness, pack, rnd: random.Random, trees: int = 40):
    ours_bytes = pfi.build_index(pack.arrow_table(), pack.fields, pack.options())
    java_bytes = harness.write(pack.fields, pack.java_columns(), pack.options())
    assert ours_bytes == java_bytes, pack.describe()
    leaves = []
    for column in pack.columns:
        leaves += fixed.sweep(column, rnd, max_values=6)
    predicates = leaves + random_trees(leaves, rnd, trees)
    java_answers = harness.read(ours_bytes, pack.fields,
                                [to_java(PNot(p)) for p in predicates])
    reader = pfi.IndexReader(java_bytes, pack.fields)
    counts = {"equal": 0, "more precise": 0, "java unsound": 0}
    for predicate, raw in zip(predicates, java_answers):
        negated = PNot(predicate)
        true_rows = truth(negated, pack)
        ours = oracle.from_ours(reader.evaluate(~to_ours(predicate, pack)))
        java = oracle.from_java(raw)
        where = (f"{negated}\n  ours: {oracle.describe(ours)}\n  Java: "
                 f"{oracle.describe(java)}\n  truth: {oracle.describe(oracle.rows(true_rows))}"
                 f"\n{pack.describe()}")
        assert oracle.sound(ours, true_rows), "ours drops rows that match: " + where
        if not oracle.sound(java, true_rows):
            # Only Java 2.0's known range-bitmap bug on all-NULL columns (#9140).
            assert any("range-bitmap" in c.indexes and all(v is None for v in c.values)
                       for c in pack.columns if c.name in predicate.columns()), \
                "Java drops rows that match: " + where
            counts["java unsound"] += 1
        elif contains_not_between(java_tree(negated, pack)):
            # Java's NotBetween: ours answers `< a OR > b`, selecting no row Java's drops.
            assert ours == ours_model(negated, pack), where
            assert oracle.at_least_as_precise(ours, java, pack.rows), where
            counts["more precise" if ours != java else "equal"] += 1
        else:
            assert ours == java, "ours differs from Java: " + where
            counts["equal"] += 1
    return counts


KINDS_BY_TYPE = {
    "INT": ["bitmap", "bloom-filter", "bsi", "range-bitmap"],
    "BIGINT": ["bitmap", "bsi", "range-bitmap"],
    "STRING": ["bitmap", "bloom-filter", "range-bitmap"],
    "DOUBLE": ["bitmap", "bloom-filter", "range-bitmap"],
    "DATE": ["bitmap", "bsi", "range-bitmap"],
    "TINYINT": ["bitmap", "bloom-filter", "bsi", "range-bitmap"],
    "BOOLEAN": ["bitmap"],
    "DECIMAL(10, 2)": ["bsi", "range-bitmap"],
    "VARCHAR(4)": ["bitmap", "range-bitmap"],
}
MAKERS = {
    "INT": lambda rnd: rnd.randint(-4, 4),
    "BIGINT": lambda rnd: rnd.randint(-4, 4) << 35,
    "STRING": lambda rnd: rnd.choice(["", "a", "ab", "b", "é", "zz"]),
    "DOUBLE": lambda rnd: rnd.choice([-1.5, -0.0, 0.0, 2.25, math.inf, math.nan]),
    "DATE": lambda rnd: rnd.randint(-3, 3),
    "TINYINT": lambda rnd: rnd.choice([-128, -1, 0, 1, 127]),
    "BOOLEAN": lambda rnd: rnd.random() < 0.5,
    "DECIMAL(10, 2)": lambda rnd: decimal_of(rnd.randint(-300, 300), 2),
    "VARCHAR(4)": lambda rnd: rnd.choice(["", "a", "ab", "abcd", "\U0001F600"]),
}
CASES = [(t, k) for t, kinds in KINDS_BY_TYPE.items() for k in kinds]


@pytest.mark.parametrize("type_text,kind", CASES, ids=[f"{k}-{t}" for t, k in CASES])
def test_negated_predicates_answer_like_java(java_harness, type_text, kind):
    rnd = random.Random(f"not/{type_text}/{kind}")
    totals = {"equal": 0, "more precise": 0, "java unsound": 0}
    for rows in (0, 1, 40):
        options = {"items": "40", "fpp": "0.05"} if kind == "bloom-filter" else {}
        values = [None if rnd.random() < 0.2 else MAKERS[type_text](rnd) for _ in range(rows)]
        pack = fixed.pack(f"NOT {kind} {type_text} {rows} rows", [
            fixed.column("c", type_text, values, {kind: options}),
            fixed.column("n", type_text, [None] * rows, {kind: options}),
            fixed.column("p", "INT", [rnd.randint(0, 2) for _ in range(rows)], {})])
        for name, count in check_negations(java_harness, pack, rnd).items():
            totals[name] += count
    print(f"\n{kind} {type_text}: {totals}")
    assert totals["equal"] > 50, totals
    if kind in ("bsi", "range-bitmap"):  # these answer BETWEEN's halves, so ours is sharper
        assert totals["more precise"] > 0, totals


def test_negated_trees_over_several_indexed_columns(java_harness):
    rnd = random.Random("not/mixed")
    rows = 60
    idx = {"bitmap": {}, "range-bitmap": {}}
    pack = fixed.pack("NOT over several columns", [
        fixed.column("i", "INT", [None if r % 7 == 0 else r % 5 for r in range(rows)], idx),
        fixed.column("s", "STRING", [None if r % 5 == 0 else "abc"[r % 3] for r in range(rows)],
                     {"bitmap": {}, "bloom-filter": {"items": "10"}}),
        fixed.column("b", "BIGINT", [r * 3 - 90 for r in range(rows)], {"bsi": {}})])
    counts = check_negations(java_harness, pack, rnd, trees=300)
    assert counts["equal"] > 200, counts
