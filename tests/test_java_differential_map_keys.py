"""Differential tests against Apache Paimon 2.0: indexes on the keys of a MAP column.

`file-index.<type>.columns = m[k]` indexes the values of key `k` of MAP column `m`. Random
tables (a MAP<STRING, V> column beside an INT one; maps null, empty, with or without each key,
values null) are written with random declarations: several keys and index types, map-level
options (`file-index.bloom-filter.m.items`), per-key options, the plain map column declared
beside its keys, the empty key `m[]`, and keys Paimon cannot index. Our container must equal
the one Java writes, byte for byte, and where Java refuses, we refuse too.

The harness cannot name a map key in a predicate, so answers are checked against brute force
over the rows instead: a SKIP only when no row matches, every matching row in a ROWS answer.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pyarrow as pa
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also under --import-mode=importlib
from java_harness import JavaRequestError, java_harness  # noqa: E402,F401  (the fixture)

import pyfileindex as pfi  # noqa: E402
from pyfileindex import col  # noqa: E402

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


def matching_rows(maps, key, op, literal):
    """Rows whose m[key] satisfies the predicate (a missing key or a null map is NULL)."""
    out = []
    for row, entries in enumerate(maps):
        value = None if entries is None else dict(entries).get(key)
        if op == "is_null":
            hit = value is None
        elif value is None:
            hit = False
        else:
            hit = value == literal if op == "eq" else value < literal
        if hit:
            out.append(row)
    return out


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
