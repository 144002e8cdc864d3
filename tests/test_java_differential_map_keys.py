"""Differential tests against Apache Paimon 2.0: indexes on the keys of a MAP column.

`file-index.<type>.columns = m[k]` indexes the values of key `k` of MAP column `m`. Random
tables (a MAP<STRING, V> column beside an INT one; maps null, empty, with or without each key,
values null) are written with random declarations: several keys and index types, map-level
options (`file-index.bloom-filter.m.items`), per-key options, the plain map column declared
beside its keys, the empty key `m[]`, and keys Paimon cannot index. Our container must equal
the one Java writes, byte for byte, and where Java refuses, we refuse too.

Answers: Java's FileIndexPredicate finds a column's index readers by the leaf's field name, so
the harness builds leaves on "m[k]" (typed as the map's value type) and Java answers them on
our bytes; ours answers on Java's. Both must keep every row whose m[k] matches (brute force:
a missing key or a null map is NULL), and ours must equal Java's answer wherever Java's keeps
them. Every question is asked negated too (Java's Predicate.negate(), ours `~`).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pyarrow as pa
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also under --import-mode=importlib
from differential import oracle  # noqa: E402
from java_harness import JavaRequestError, java_harness  # noqa: E402,F401  (the fixture)

import pyfileindex as pfi  # noqa: E402
from pyfileindex import col  # noqa: E402
from pyfileindex.predicate import Leaf  # noqa: E402

pytestmark = pytest.mark.java

VALUE_TYPES = {
    "INT": (pa.int32(), lambda rng: rng.randint(-5, 5)),
    "BIGINT": (pa.int64(), lambda rng: rng.randint(-5, 5) * 10**12),
    "STRING": (pa.string(), lambda rng: rng.choice(["p", "q", "rr", "", "é"])),
    "DOUBLE": (pa.float64(), lambda rng: rng.choice([0.5, -1.0, 2.25, 0.0])),
}
INDEX_TYPES = {
    "INT": ["bitmap", "bloom-filter", "bsi", "range-bitmap"],
    "BIGINT": ["bitmap", "bloom-filter", "bsi", "range-bitmap"],
    "STRING": ["bitmap", "bloom-filter", "range-bitmap"],
    "DOUBLE": ["bloom-filter", "range-bitmap"],
}
KEYS = ["k", "j", "x", "", "é", "long-key-long-key"]
DECLARED = ["m[k]", "m[j]", "m[x]", "m[]", "m[é]", "a", "m", "m[zz]"]
CASES_PER_SEED = 150


def random_case(rng: random.Random):
    value_type = rng.choice(sorted(VALUE_TYPES))
    arrow_type, value_of = VALUE_TYPES[value_type]
    rows = rng.randint(0, 80)
    maps = []
    for _ in range(rows):
        if rng.random() < 0.1:
            maps.append(None)
            continue
        keys = rng.sample(KEYS, rng.randint(0, 3))
        maps.append([(k, None if rng.random() < 0.1 else value_of(rng)) for k in keys])
    ints = [rng.randint(0, 3) for _ in range(rows)]
    options = {}
    choices = INDEX_TYPES[value_type]
    for index_type in rng.sample(choices, rng.randint(1, min(3, len(choices)))):
        declared = rng.sample(DECLARED, rng.randint(1, 4))
        options[f"file-index.{index_type}.columns"] = ",".join(declared)
        if index_type == "bloom-filter" and rng.random() < 0.5:
            options["file-index.bloom-filter.m.items"] = str(rng.choice([10, 100]))
        if index_type == "bitmap" and rng.random() < 0.3:
            options[f"file-index.bitmap.{declared[0]}.version"] = "1"
    ours_fields = [("a", "INT"), ("m", f"MAP<STRING, {value_type}>")]
    java_fields = [{"name": "a", "type": "INT"},
                   {"name": "m", "type": {"type": "MAP", "key": "STRING", "value": value_type}}]
    table = pa.table({"a": pa.array(ints, pa.int32()),
                      "m": pa.array(maps, pa.map_(pa.string(), arrow_type))})
    return ours_fields, java_fields, table, {"a": ints, "m": maps}, options, value_of


_COMPARE = {
    "eq": lambda v, lits: v == lits[0], "ne": lambda v, lits: v != lits[0],
    "lt": lambda v, lits: v < lits[0], "le": lambda v, lits: v <= lits[0],
    "gt": lambda v, lits: v > lits[0], "ge": lambda v, lits: v >= lits[0],
    "in": lambda v, lits: v in lits, "not_in": lambda v, lits: v not in lits,
    "between": lambda v, lits: lits[0] <= v <= lits[1],
}


def _key(value):
    """Strings compare as UTF-8 bytes in Paimon (unsigned), not as code points."""
    return value.encode("utf-8") if isinstance(value, str) else value


def matching_rows(maps, key, op, literal):
    """Rows whose m[key] satisfies the predicate (a missing key or a null map is NULL)."""
    literals = list(literal) if isinstance(literal, tuple) else [literal]
    out = []
    for row, entries in enumerate(maps):
        value = None if entries is None else dict(entries).get(key)
        if op == "is_null":
            hit = value is None
        elif op == "is_not_null":
            hit = value is not None
        elif value is None:
            hit = False
        else:
            hit = _COMPARE[op](_key(value), [_key(v) for v in literals])
        if hit:
            out.append(row)
    return out


_NEGATED = {"eq": "ne", "ne": "eq", "lt": "ge", "ge": "lt", "le": "gt", "gt": "le",
            "in": "not_in", "not_in": "in", "is_null": "is_not_null", "is_not_null": "is_null"}


def negated_rows(maps, key, op, literals):
    """Rows where NOT (m[key] op literals) is TRUE (a NULL m[key] is neither)."""
    if op == "between":
        low, high = literals
        return sorted(set(matching_rows(maps, key, "lt", (low,)))
                      | set(matching_rows(maps, key, "gt", (high,))))
    return matching_rows(maps, key, _NEGATED[op], literals)


def key_questions(key, rng, value_of):
    """(op, literals, ours, Java's JSON) about m[key]: every op the map-key indexes answer."""
    values = sorted({value_of(rng), value_of(rng)}, key=_key)
    a, b = values[0], values[-1]
    column = f"m[{key}]"
    out = []
    for op in ("eq", "ne", "lt", "le", "gt", "ge"):
        out.append((op, (a,), Leaf(op, column, (a,))))
    out.append(("between", (a, b), Leaf("between", column, (a, b))))
    for op in ("in", "not_in"):
        out.append((op, (a, b), Leaf(op, column, (a, b))))
    for op in ("is_null", "is_not_null"):
        out.append((op, (), Leaf(op, column, ())))
    return [(op, lits, ours, {"op": op, "column": column, "literals": list(lits)})
            for op, lits, ours in out]


@pytest.mark.parametrize("seed", [1, 2])
def test_map_key_indexes_like_java(java_harness, seed):
    rng = random.Random(seed)
    written = refused = answered = 0
    for _ in range(CASES_PER_SEED):
        fields, java_fields, table, columns, options, value_of = random_case(rng)
        try:
            java_bytes = java_harness.write(java_fields, columns, options)
        except JavaRequestError:
            with pytest.raises(pfi.FileIndexError):
                pfi.build_index(table, fields, options)
            refused += 1
            continue
        ours = pfi.build_index(table, fields, options)
        assert ours == java_bytes, options
        written += 1
        if ours is None:
            continue
        reader = pfi.IndexReader(ours, fields)
        for key in ["k", "j", "x", "é", "zz"]:
            literal = value_of(rng)
            for op, predicate in [("eq", col(f"m[{key}]") == literal),
                                  ("is_null", col(f"m[{key}]").is_null()),
                                  ("lt", col(f"m[{key}]") < literal)]:
                if op == "lt" and isinstance(literal, str):
                    continue
                truth = matching_rows(columns["m"], key, op, literal)
                result = reader.evaluate(pfi.bind_predicate(predicate, fields))
                if result.kind == "SKIP":
                    assert truth == [], (options, op, key, literal)
                elif result.kind == "ROWS":
                    assert set(truth) <= set(result.row_ids().tolist()), (options, op, key)
                answered += 1
    # The declarations must reach every outcome, or the test proves less than it says.
    assert written > CASES_PER_SEED // 2 and refused > 0 and answered > 0, (written, refused)


@pytest.mark.parametrize("seed", [3])
def test_map_key_answers_like_java(java_harness, seed):
    rng = random.Random(seed)
    compared = java_unsound = 0
    for _ in range(CASES_PER_SEED // 3):
        fields, java_fields, table, columns, options, value_of = random_case(rng)
        try:
            java_bytes = java_harness.write(java_fields, columns, options)
        except JavaRequestError:
            continue
        ours_bytes = pfi.build_index(table, fields, options)
        assert ours_bytes == java_bytes, options
        if ours_bytes is None:
            continue
        questions = []
        for key in ["k", "j", "x", "", "é", "zz"]:
            for op, lits, leaf, java_leaf in key_questions(key, rng, value_of):
                questions.append((op, lits, leaf, java_leaf, False))
                questions.append((op, lits, ~leaf, {"op": "not", "child": java_leaf}, True))
        java_answers = java_harness.read(ours_bytes, java_fields, [q[3] for q in questions])
        reader = pfi.IndexReader(java_bytes, fields)
        for (op, literals, ours_predicate, _, negated), raw in zip(questions, java_answers):
            column = ours_predicate.columns()[0]
            key = column[2:-1]
            truth = frozenset(negated_rows(columns["m"], key, op, literals) if negated
                              else matching_rows(columns["m"], key, op, literals))
            ours = oracle.from_ours(reader.evaluate(pfi.bind_predicate(ours_predicate, fields)))
            java = oracle.from_java(raw)
            where = f"{'NOT ' if negated else ''}{column} {op} {literals}: ours " \
                    f"{oracle.describe(ours)}, Java {oracle.describe(java)}, truth " \
                    f"{sorted(truth)}, options {options}"
            assert oracle.sound(ours, truth), "ours drops matching rows: " + where
            if not oracle.sound(java, truth):
                # Only Java 2.0's known range-bitmap bug on all-NULL columns (#9140).
                values = [None if e is None else dict(e).get(key) for e in columns["m"]]
                range_bitmap = column in options.get("file-index.range-bitmap.columns",
                                                     "").split(",")
                assert range_bitmap and all(v is None for v in values), "Java unsound: " + where
                java_unsound += 1
            elif negated and op == "between":  # Java: NotBetween, which no index answers
                assert oracle.at_least_as_precise(ours, java, len(columns["m"])), where
            else:
                assert ours == java, where
                compared += 1
    print(f"\nseed {seed}: {compared} answers equal to Java's, Java unsound in {java_unsound}")
    assert compared > 500, compared
