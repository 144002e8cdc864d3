"""with_spark_zeros: the read pipeline's predicate keeps the rows Spark's filter keeps, where
-0.0 == 0.0, while Paimon's indexes and the exact filter order -0.0 below 0.0."""

import math
import random

import pyarrow as pa
import pytest

from pyfileindex.paimon.arrow_filter import predicate_mask
from pyfileindex.predicate import And, Leaf, Or
from pyfileindex.spark.filters import with_spark_zeros

VALUES = [-0.0, 0.0, float("nan"), 1.5, None, -2.0, float("inf")]
OPS = {"eq": lambda v, a: v == a, "ne": lambda v, a: v != a, "lt": lambda v, a: v < a,
       "le": lambda v, a: v <= a, "gt": lambda v, a: v > a, "ge": lambda v, a: v >= a}


def _spark_compare(value, op, literal):
    """Spark's comparison of doubles: IEEE, except that NaN equals NaN and is the largest."""
    if math.isnan(value) or math.isnan(literal):
        key = (math.isnan(value), 0.0 if math.isnan(value) else value)
        other = (math.isnan(literal), 0.0 if math.isnan(literal) else literal)
        return OPS[op](key, other)
    return OPS[op](value, literal)


def _spark_rows(leaf):
    rows = []
    for i, v in enumerate(VALUES):
        if v is None:
            continue
        a = leaf.literals
        keep = {"in": lambda: any(_spark_compare(v, "eq", x) for x in a),
                "not_in": lambda: not any(_spark_compare(v, "eq", x) for x in a),
                "between": lambda: _spark_compare(v, "ge", a[0]) and _spark_compare(v, "le", a[1]),
                }.get(leaf.op, lambda: _spark_compare(v, leaf.op, a[0]))()
        if keep:
            rows.append(i)
    return rows


def test_zero_literals_keep_what_spark_keeps():
    table = pa.table({"d": pa.array(VALUES, pa.float64())})
    rng = random.Random(3)
    literals = [0.0, -0.0, 1.5, float("nan"), -2.0]
    for _ in range(500):
        op = rng.choice(list(OPS) + ["in", "not_in", "between"])
        count = {"in": 3, "not_in": 2, "between": 2}.get(op, 1)
        leaf = Leaf(op, "d", [rng.choice(literals) for _ in range(count)])
        widened = with_spark_zeros(leaf)
        got = [i for i, k in enumerate(predicate_mask(table, widened).to_pylist()) if k]
        assert got == _spark_rows(leaf), (leaf, widened)


@pytest.mark.parametrize("leaf,widened", [
    (Leaf("eq", "d", [-0.0]), Leaf("in", "d", [0.0, -0.0])),
    (Leaf("ne", "d", [0.0]), Leaf("not_in", "d", [0.0, -0.0])),
    (Leaf("lt", "d", [0.0]), Leaf("lt", "d", [-0.0])),
    (Leaf("le", "d", [-0.0]), Leaf("le", "d", [0.0])),
    (Leaf("between", "d", [0.0, -0.0]), Leaf("between", "d", [-0.0, 0.0])),
    (Leaf("eq", "i", [0]), Leaf("eq", "i", [0])),  # integers have one zero
])
def test_widening(leaf, widened):
    got = with_spark_zeros(leaf)
    assert got.op == widened.op
    assert [(v, math.copysign(1, v)) for v in got.literals] == \
        [(v, math.copysign(1, v)) for v in widened.literals]


def test_widening_goes_through_and_or():
    tree = Or([And([Leaf("eq", "d", [0.0]), Leaf("is_null", "s")]), Leaf("gt", "d", [-0.0])])
    assert str(with_spark_zeros(tree)) == "(d IN (0.0, -0.0) AND s IS NULL) OR d > 0.0"
