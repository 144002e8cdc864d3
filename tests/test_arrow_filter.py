"""The exact row filter over Arrow data (pyfileindex.paimon.arrow_filter) compares FLOAT and
DOUBLE values as Paimon's indexes do (Double.compare), so it refines their answers and never
contradicts them: NaN equals NaN and lies above +Infinity, -0.0 lies below 0.0, and a FLOAT
is widened exactly before it meets a DOUBLE literal."""

import math
import random

import numpy as np
import pyarrow as pa
import pytest

import pyfileindex as pfi
from pyfileindex.paimon.arrow_filter import predicate_mask
from pyfileindex.predicate import Leaf

NAN, INF = float("nan"), float("inf")
DOUBLES = [-0.0, 0.0, NAN, 1.5, None, -2.0, INF, -INF]


def _rows(table, leaf):
    return [i for i, keep in enumerate(predicate_mask(table, leaf).to_pylist()) if keep]


@pytest.mark.parametrize("op,literals,rows", [
    ("eq", [0.0], [1]), ("eq", [-0.0], [0]), ("eq", [NAN], [2]),
    ("ne", [NAN], [0, 1, 3, 5, 6, 7]), ("ne", [0.0], [0, 2, 3, 5, 6, 7]),
    ("lt", [0.0], [0, 5, 7]), ("le", [-0.0], [0, 5, 7]),
    ("gt", [0.0], [2, 3, 6]), ("gt", [1e308], [2, 6]), ("ge", [INF], [2, 6]),
    ("in", [NAN, -0.0], [0, 2]), ("not_in", [0.0, NAN], [0, 3, 5, 6, 7]),
    ("between", [-0.0, 0.0], [0, 1]), ("between", [1.0, NAN], [2, 3, 6]),
])
def test_doubles_compare_like_double_compare(op, literals, rows):
    table = pa.table({"d": pa.array(DOUBLES, pa.float64())})
    assert _rows(table, Leaf(op, "d", literals)) == rows


def test_floats_meet_double_literals_exactly():
    tenth = float(np.float32(0.1))  # 0.100000001..., the float nearest 0.1
    table = pa.table({"f": pa.array([tenth, 0.0, -0.0, NAN, None], pa.float32())})
    assert _rows(table, Leaf("gt", "f", [0.1])) == [0, 3]
    assert _rows(table, Leaf("eq", "f", [0.1])) == []
    assert _rows(table, Leaf("eq", "f", [tenth])) == [0]
    assert _rows(table, Leaf("in", "f", [0.1, -0.0])) == [2]


@pytest.mark.parametrize("index_type", ["bitmap", "bloom-filter", "range-bitmap"])
@pytest.mark.parametrize("type_text", ["DOUBLE", "FLOAT"])
def test_exact_filter_refines_the_index_answer(index_type, type_text):
    """Every row the exact filter keeps is in the native index's answer (which is exact for
    bitmap and range-bitmap), over columns full of zeros, NaNs and infinities."""
    rng = random.Random(7)
    specials = [0.0, -0.0, NAN, INF, -INF, 1.5, -1.5, 0.1]
    values = [None if rng.random() < 0.1 else rng.choice(specials) for _ in range(400)]
    arrow_type = pa.float64() if type_text == "DOUBLE" else pa.float32()
    table = pa.table({"x": pa.array(values, arrow_type)})
    writer = pfi.IndexWriter([("x", type_text)], {f"file-index.{index_type}.columns": "x"})
    writer.write(table)
    reader = pfi.IndexReader(writer.finish(), [("x", type_text)])
    exact_index = index_type != "bloom-filter"
    checked = 0
    for _ in range(300):
        op = rng.choice(["eq", "ne", "lt", "le", "gt", "ge", "in", "not_in", "between"])
        if index_type == "bloom-filter" and op not in ("eq", "in"):
            continue
        count = {"in": 3, "not_in": 2, "between": 2}.get(op, 1)
        literals = [rng.choice(specials) for _ in range(count)]
        if op == "between":
            literals.sort(key=lambda v: (math.isnan(v), v, math.copysign(1, v)))
        leaf = Leaf(op, "x", literals)
        kept = set(_rows(table, leaf))
        answer = reader.evaluate(leaf)
        if answer.skip:
            assert not kept, leaf
        elif not answer.remain:
            rows = set(answer.row_ids().tolist())
            assert kept <= rows, leaf
            if exact_index:
                assert kept == rows, leaf
        checked += 1
    assert checked > 50
