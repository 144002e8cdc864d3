"""NOT in the differential suite: the tree each side actually answers for a negated predicate.

Ours (`pushed_down`): `~p` pushes the negation down to the leaves - each leaf's operator swaps
for its opposite, AND and OR swap (De Morgan) and `BETWEEN a AND b` becomes `< a OR > b`.

Java 2.0 (`java_form`): the harness builds AND nodes with `PredicateBuilder.and`, whose
`Between.optimize` splits nested ANDs into leaves and merges, per column, the tightest `>=` and
`<=` into one Between leaf (when the lower literal is strictly below the upper one) and several
Betweens into one (when they intersect) - but keeps the children as they were when that leaves
their count unchanged. `Predicate.negate()` then swaps each leaf function for its opposite
(Between for NotBetween, which no 2.0 index answers) and AND for OR, without rebuilding nodes.
`PredicateBuilder.in` is an OR of `=` leaves for up to 20 literals, `notIn` its negation.

Both forms are NOT-free trees of PLeaf / PNode; Java's may hold "not_between" leaves.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List

from differential.trees import PLeaf, PNode, PNot

NEGATED_OP = {"eq": "ne", "ne": "eq", "lt": "ge", "ge": "lt", "le": "gt", "gt": "le",
              "in": "not_in", "not_in": "in", "is_null": "is_not_null",
              "is_not_null": "is_null"}
_FLIPPED_NODE = {"and": "or", "or": "and"}
JAVA_IN_LEAF_LIMIT = 20  # PredicateBuilder.in: an In leaf only above this many literals

OrderKeyOf = Callable[[str], Callable[[Any], Any]]  # column name -> its order key


def has_not(pred) -> bool:
    if isinstance(pred, PNot):
        return True
    if isinstance(pred, PNode):
        return any(has_not(c) for c in pred.children)
    return False


# ------------------------------------------------------------------------------ ours


def pushed_down(pred):
    """The NOT-free tree our `~` makes (the predicate itself when it has no NOT)."""
    if isinstance(pred, PNot):
        return _negated(pushed_down(pred.child))
    if isinstance(pred, PNode):
        return PNode(pred.op, tuple(pushed_down(c) for c in pred.children))
    return pred


def _negated(pred):
    if isinstance(pred, PNode):
        return PNode(_FLIPPED_NODE[pred.op], tuple(_negated(c) for c in pred.children))
    if pred.op == "between":
        low, high = pred.literals
        forms = pred.literal_forms or (0, 0)
        return PNode("or", (PLeaf("lt", pred.column, (low,), None, forms[:1]),
                            PLeaf("gt", pred.column, (high,), None, forms[1:])))
    return PLeaf(NEGATED_OP[pred.op], pred.column, pred.literals, pred.form,
                 pred.literal_forms)


# ------------------------------------------------------------------------------ Java


def java_form(pred, order_key_of: OrderKeyOf):
    """The tree Java 2.0 evaluates for `pred` as the harness builds it."""
    if isinstance(pred, PNot):
        return _java_negated(java_form(pred.child, order_key_of))
    if isinstance(pred, PNode):
        children = [java_form(c, order_key_of) for c in pred.children]
        if len(children) == 1:
            return children[0]
        if pred.op == "or":
            return PNode("or", tuple(children))
        return _java_and(children, order_key_of)
    return _java_leaf(pred)


def contains_not_between(tree) -> bool:
    if isinstance(tree, PNode):
        return any(contains_not_between(c) for c in tree.children)
    return tree.op == "not_between"


def _java_leaf(leaf: PLeaf):
    if leaf.op not in ("in", "not_in") or leaf.form == "leaf" \
            or len(leaf.literals) > JAVA_IN_LEAF_LIMIT:
        return leaf
    op, node = ("eq", "or") if leaf.op == "in" else ("ne", "and")
    parts = tuple(PLeaf(op, leaf.column, (v,)) for v in leaf.literals)
    return parts[0] if len(parts) == 1 else PNode(node, parts)


def _java_negated(tree):
    if isinstance(tree, PNode):
        return PNode(_FLIPPED_NODE[tree.op], tuple(_java_negated(c) for c in tree.children))
    op = {"between": "not_between", "not_between": "between"}.get(tree.op) \
        or NEGATED_OP[tree.op]
    return PLeaf(op, tree.column, tree.literals, tree.form)


def _split_and(tree, out: List[Any]) -> None:
    if isinstance(tree, PNode) and tree.op == "and":
        for c in tree.children:
            _split_and(c, out)
    else:
        out.append(tree)


def _java_and(children: List[Any], order_key_of: OrderKeyOf):
    flat: List[Any] = []
    for c in children:
        _split_and(c, flat)
    by_column: Dict[str, List[PLeaf]] = {}
    result = []
    for p in flat:
        if isinstance(p, PLeaf):
            by_column.setdefault(p.column, []).append(p)
        else:
            result.append(p)
    for column, group in by_column.items():
        key = order_key_of(column)
        result += _merge_betweens(_merge_ranges(group, key), key)
    if len(result) == len(children):  # Between.optimize: "nothing changed"
        result = children
    return result[0] if len(result) == 1 else PNode("and", tuple(result))


def _merge_ranges(group: List[PLeaf], key) -> List[PLeaf]:
    """The tightest `<=` and `>=` of one column, one Between leaf when lower < upper."""
    upper = lower = None
    out = []
    for p in group:
        if p.op == "le":
            upper = p if upper is None or key(p.literals[0]) <= key(upper.literals[0]) \
                else upper
        elif p.op == "ge":
            lower = p if lower is None or key(p.literals[0]) >= key(lower.literals[0]) \
                else lower
        else:
            out.append(p)
    if upper is not None and lower is not None:
        low, high = lower.literals[0], upper.literals[0]
        if key(low) >= key(high):
            return out + [upper, lower]
        return out + [PLeaf("between", lower.column, (low, high))]
    return out + [p for p in (upper, lower) if p is not None]


def _merge_betweens(group: List[PLeaf], key) -> List[PLeaf]:
    betweens = [p for p in group if p.op == "between"]
    if len(betweens) <= 1:
        return group
    low, high = betweens[0].literals
    for p in betweens[1:]:
        if key(p.literals[0]) > key(low):
            low = p.literals[0]
        if key(p.literals[1]) < key(high):
            high = p.literals[1]
    rest = [p for p in group if p.op != "between"]
    if key(low) <= key(high):
        return rest + [PLeaf("between", betweens[0].column, (low, high))]
    return rest + betweens
