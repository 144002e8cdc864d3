"""The differential suite's model of NOT, without a JVM: the trees each side answers for a
negated predicate (differential/negation.py) and the three-valued truth of NOT (cases.truth).
The Java differential tests then check the model against Java itself."""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also under --import-mode=importlib
from differential import fixed, oracle  # noqa: E402
from differential.cases import (  # noqa: E402
    PLeaf,
    PNode,
    PNot,
    java_answer,
    java_tree,
    ours_model,
    truth,
)
from differential.generate import generate_pack  # noqa: E402
from differential.negation import contains_not_between, java_form, pushed_down  # noqa: E402


def _int_order(_name):
    return lambda v: v


def ge(x, column="c"):
    return PLeaf("ge", column, (x,))


def le(x, column="c"):
    return PLeaf("le", column, (x,))


def test_negated_range_is_one_not_between_leaf_in_java():
    assert java_form(PNot(PNode("and", (ge(1), le(5)))), _int_order) == \
        PLeaf("not_between", "c", (1, 5))
    # NOT (c < 1) is a >= leaf by the time PredicateBuilder.and sees it
    assert java_form(PNot(PNode("and", (PNot(PLeaf("lt", "c", (1,))), le(5)))), _int_order) \
        == PLeaf("not_between", "c", (1, 5))
    # the tightest bounds of one column are merged, other columns stay
    tree = java_form(PNot(PNode("and", (ge(1), le(9), ge(3), le(5), ge(0, "d")))), _int_order)
    assert tree == PNode("or", (PLeaf("not_between", "c", (3, 5)), PLeaf("lt", "d", (0,))))


def test_java_keeps_the_bounds_when_they_do_not_make_a_between():
    # lower == upper: no Between
    assert java_form(PNot(PNode("and", (ge(5), le(5)))), _int_order) == \
        PNode("or", (PLeaf("lt", "c", (5,)), PLeaf("gt", "c", (5,))))
    # a NOT IN of two literals is two <> leaves: 3 children, 3 after merging -> unchanged
    not_in = PLeaf("not_in", "c", (7, 8))
    tree = java_form(PNot(PNode("and", (not_in, ge(1), le(5)))), _int_order)
    assert not contains_not_between(tree)
    assert tree == PNode("or", (PNode("or", (PLeaf("eq", "c", (7,)), PLeaf("eq", "c", (8,)))),
                                PLeaf("lt", "c", (1,)), PLeaf("gt", "c", (5,))))
    # OR does not merge
    assert not contains_not_between(java_form(PNot(PNode("or", (ge(1), le(5)))), _int_order))


def test_double_negation_gives_the_between_back():
    between = PLeaf("between", "c", (1, 5))
    assert java_form(PNot(between), _int_order) == PLeaf("not_between", "c", (1, 5))
    assert java_form(PNot(PNot(between)), _int_order) == between


def test_ours_pushes_not_down_to_the_leaves():
    pred = PNot(PNode("or", (PLeaf("between", "c", (1, 5)), PNot(PLeaf("is_null", "d")),
                             PLeaf("in", "e", (1, 2)))))
    assert pushed_down(pred) == PNode("and", (
        PNode("or", (PLeaf("lt", "c", (1,), None, (0,)), PLeaf("gt", "c", (5,), None, (0,)))),
        PLeaf("is_null", "d"), PLeaf("not_in", "e", (1, 2))))


def _sample_pack(rnd: random.Random, rows: int):
    values = [None if rnd.random() < 0.25 else rnd.randint(-3, 3) for _ in range(rows)]
    return fixed.pack("NOT model", [
        fixed.column("c", "INT", values, {"bsi": {}}),
        fixed.column("b", "INT", [None if rnd.random() < 0.3 else rnd.randint(0, 2)
                                  for _ in range(rows)], {"bitmap": {}})])


def _random_tree(rnd: random.Random, leaves, depth: int = 0):
    if depth >= 2 or rnd.random() < 0.4:
        node = rnd.choice(leaves)
    else:
        node = PNode(rnd.choice(["and", "or"]), tuple(
            _random_tree(rnd, leaves, depth + 1) for _ in range(rnd.randint(2, 3))))
    return PNot(node) if rnd.random() < 0.4 else node


def test_not_is_true_where_its_child_is_false():
    """SQL's three values: NOT x holds where x is FALSE, not where x is unknown (NULL)."""
    rnd = random.Random("not-truth")
    for rows in (0, 1, 30):
        pack = _sample_pack(rnd, rows)
        leaves = [leaf for c in pack.columns for leaf in fixed.sweep(c, rnd, max_values=4)]
        for _ in range(200):
            pred = _random_tree(rnd, leaves)
            true_rows, negated = truth(pred, pack), truth(PNot(pred), pack)
            assert not true_rows & negated, pred
            assert truth(PNot(PNot(pred)), pack) == true_rows, pred
            # the push-down ours evaluates says the same as the three-valued evaluation
            assert truth(pushed_down(PNot(pred)), pack) == negated, pred
            unknown = frozenset(range(rows)) - true_rows - negated
            null_rows = {r for c in pack.columns for r, v in enumerate(c.values) if v is None}
            assert unknown <= null_rows, pred


def test_java_and_ours_differ_only_by_a_looser_not_between():
    rnd = random.Random("not-models")
    differ = 0
    for rows in (1, 30):
        pack = _sample_pack(rnd, rows)
        leaves = [leaf for c in pack.columns for leaf in fixed.sweep(c, rnd, max_values=4)]
        leaves += [PNode("and", (ge(rnd.randint(-3, 0)), le(rnd.randint(0, 3)))),
                   PLeaf("between", "c", (-1, 2))]
        for _ in range(300):
            pred = _random_tree(rnd, leaves)
            java, ours = java_answer(pred, pack), ours_model(pred, pack)
            if java != ours:
                differ += 1
                assert contains_not_between(java_tree(pred, pack)), pred
                assert oracle.at_least_as_precise(ours, java, pack.rows), pred
            assert oracle.sound(ours, truth(pred, pack)), pred
    assert differ > 0


def test_generated_packs_ask_negated_questions():
    """The generated differential packs hold NOT over leaves, over AND / OR and inside them,
    and negated ranges Java turns into NotBetween."""
    shapes = {"leaf": 0, "node": 0, "inside": 0, "double": 0, "not between": 0}
    for number in range(40):
        pack = generate_pack("bsi", 20260, number, "INT")
        for pred in pack.predicates:
            if not isinstance(pred, PNot):
                if isinstance(pred, PNode) and any(isinstance(c, PNot) for c in pred.children):
                    shapes["inside"] += 1
                continue
            shapes["double" if isinstance(pred.child, PNot) else
                   "node" if isinstance(pred.child, PNode) else "leaf"] += 1
            if contains_not_between(java_tree(pred, pack)):
                shapes["not between"] += 1
    assert all(n > 0 for n in shapes.values()), shapes
