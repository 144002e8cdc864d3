"""Random tables and predicates for the Spark pipeline's random test: columns of most Paimon
types (with nulls, repeats, sorted runs, NaN, both zeros, infinities, quotes in strings, odd
column names, map entries), index declarations that fit each type, and predicate trees whose
literals mostly come from the data."""

import datetime
import decimal
import random
from dataclasses import dataclass
from functools import reduce
from typing import Dict, List

import numpy as np
import pyarrow as pa

from pyfileindex import predicate as P

ALL_INDEXES = ["bitmap", "bloom-filter", "bsi", "range-bitmap"]
MAP_KEYS = ["k", "x y", "o'k"]


def _kinds() -> Dict[str, tuple]:
    """name -> (arrow type, index types Java accepts on it, value generator)."""
    return {
        "tinyint": (pa.int8(), ALL_INDEXES, lambda r: r.randint(-128, 127)),
        "int": (pa.int32(), ALL_INDEXES,
                lambda r: r.choice([r.randint(-2 ** 31, 2 ** 31 - 1), r.randint(-50, 50)])),
        "bigint": (pa.int64(), ALL_INDEXES,
                   lambda r: r.choice([r.randint(-2 ** 63, 2 ** 63 - 1), r.randint(-50, 50)])),
        "string": (pa.string(), ["bitmap", "bloom-filter", "range-bitmap"],
                   lambda r: r.choice(["", "a", "ab", "é", "中", "a b", "o'k", "a\\b",
                                       "x" * r.randint(0, 30)])),
        "double": (pa.float64(), ["bitmap", "bloom-filter", "range-bitmap"],
                   lambda r: r.choice([r.uniform(-1e6, 1e6), 0.0, -0.0, 1.5, float("nan"),
                                       float("inf"), float("-inf")])),
        "float": (pa.float32(), ["bitmap", "bloom-filter", "range-bitmap"],
                  lambda r: float(np.float32(r.choice([r.uniform(-100, 100), 0.0, -0.0, 0.1,
                                                       float("nan")])))),
        "boolean": (pa.bool_(), ["bitmap", "range-bitmap"], lambda r: r.random() < 0.5),
        "date": (pa.date32(), ALL_INDEXES,
                 lambda r: datetime.date(1960, 1, 1) + datetime.timedelta(r.randint(0, 30000))),
        "timestamp": (pa.timestamp("us"), ["bitmap", "bloom-filter", "range-bitmap"],
                      lambda r: np.datetime64("1990-01-01T00:00:00", "us")
                      + np.timedelta64(r.randint(0, 10 ** 15), "us")),
        "decimal": (pa.decimal128(10, 2), ["bsi", "range-bitmap"],
                    lambda r: decimal.Decimal(r.randint(-10 ** 9, 10 ** 9)) / 100),
    }


KINDS = _kinds()


@dataclass
class Column:
    name: str
    kind: str
    values: list  # Python values in row order (maps as lists of (key, value) pairs)


def _column(rng: random.Random, kind: str, rows: int) -> pa.Array:
    if kind == "map":
        values = [None if rng.random() < 0.1 else
                  [(k, None if rng.random() < 0.1 else rng.randint(-5, 5))
                   for k in rng.sample(MAP_KEYS, rng.randint(0, 3))] for _ in range(rows)]
        return pa.array(values, pa.map_(pa.string(), pa.int32()))
    arrow_type, _, make = KINDS[kind]
    pool = [make(rng) for _ in range(rng.choice([1, 3, 20, 1000]))]
    nulls = rng.choice([0, 0.1, 0.5, 1.0])
    values = [None if rng.random() < nulls else rng.choice(pool) for _ in range(rows)]
    if rng.random() < 0.3:
        values.sort(key=lambda v: (v is None, str(v) if v is not None else ""))
    return pa.array(values, arrow_type)


def random_table(rng: random.Random, rows: int):
    """(pyarrow Table, [Column], table options declaring indexes)."""
    arrays, columns, declared = {}, [], {}
    for i in range(rng.randint(1, 5)):
        kind = rng.choice(list(KINDS) + ["map"])
        name = rng.choice([f"c{i}_{kind}", f"c{i} {kind}", f"C{i}.{kind}", f"select{i}"])
        array = _column(rng, kind, rows)
        arrays[name] = array
        columns.append(Column(name, kind, array.to_pylist()))
        if kind == "map":
            for key in rng.sample(MAP_KEYS, rng.randint(1, 2)):
                declared.setdefault(rng.choice(ALL_INDEXES), []).append(f"{name}[{key}]")
        elif rng.random() < 0.85:
            choices = KINDS[kind][1]
            for index_type in rng.sample(choices, rng.randint(1, min(2, len(choices)))):
                declared.setdefault(index_type, []).append(name)
    options = {f"file-index.{t}.columns": ",".join(names) for t, names in declared.items()}
    if rng.random() < 0.5:
        options["file-index.in-manifest-threshold"] = rng.choice(["1b", "500", "64kb"])
    return pa.table(arrays), columns, options


def _leaf(rng: random.Random, column: Column):
    target = P.col(column.name)
    if column.kind == "map":
        key = rng.choice(MAP_KEYS)
        target = target[key]
        present = [dict(v).get(key) for v in column.values if v is not None]
        present = [v for v in present if v is not None]

        def fresh(r):
            return r.randint(-6, 6)
    else:
        present = [v for v in column.values if v is not None]
        fresh = KINDS[column.kind][2]

    def literal():
        value = rng.choice(present) if present and rng.random() < 0.7 else fresh(rng)
        return np.datetime64(value, "ns") if isinstance(value, np.datetime64) else value

    if column.kind == "string" and rng.random() < 0.3:
        return _pattern_leaf(rng, target, present)
    op = rng.choice(["eq", "ne", "lt", "le", "gt", "ge", "in", "not_in", "is_null",
                     "is_not_null", "between"])
    if op == "is_null":
        return target.is_null()
    if op == "is_not_null":
        return target.is_not_null()
    if op in ("in", "not_in"):
        node = target.isin([literal() for _ in range(rng.randint(1, 25))])
        return node if op == "in" else ~node
    if op == "between":
        low, high = literal(), literal()
        return target.between(low, high)
    return {"eq": target.__eq__, "ne": target.__ne__, "lt": target.__lt__,
            "le": target.__le__, "gt": target.__gt__, "ge": target.__ge__}[op](literal())


def _pattern_leaf(rng: random.Random, target, present: list):
    """starts_with / ends_with / contains / LIKE / NOT LIKE on a piece of a present value."""
    source = rng.choice(present) if present else "a"
    start = rng.randint(0, len(source))
    piece = source[start:start + rng.randint(0, 3)]
    op = rng.choice(["startswith", "endswith", "contains", "like", "not_like"])
    if op in ("startswith", "endswith", "contains"):
        return getattr(target, op)(piece)
    escaped = "".join("!" + c if c in "%_!" else c for c in piece)
    pattern = rng.choice(["{}%", "%{}", "%{}%", "_{}%", "{}"]).format(escaped)
    return getattr(target, op)(pattern, escape="!")


def random_predicate(rng: random.Random, columns: List[Column], depth: int = 0):
    if depth < 2 and rng.random() < 0.4:
        children = [random_predicate(rng, columns, depth + 1) for _ in range(rng.randint(2, 3))]
        return reduce(lambda a, b: (a & b) if rng.random() < 0.5 else (a | b), children)
    node = _leaf(rng, rng.choice(columns))
    return ~node if rng.random() < 0.15 else node
