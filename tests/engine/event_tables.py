"""The engine suite's tables: one row shape, made either in Python (for pyfileindex's writer)
or by Flink SQL from a bounded sequence (for Flink's INSERT), with the same values for the
same id; predicates in SQL text (read by Flink and by pyfileindex) with a plain Python
evaluator for brute force."""

from __future__ import annotations

import datetime
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import pyarrow as pa

from pyfileindex.paimon import plan_read, read_plan

BASE_TIME = datetime.datetime(2023, 11, 14, 22, 13, 20)

# (name, Flink SQL type, Flink SQL expression of `id` giving the value, arrow type)
COLUMNS = [
    ("id", "BIGINT", "id", pa.int64()),
    ("category", "STRING", "CONCAT('c', CAST(id % 5 AS STRING))", pa.string()),
    ("score", "DOUBLE",
     "CASE WHEN id % 11 = 0 THEN CAST(NULL AS DOUBLE) ELSE CAST(id % 97 AS DOUBLE) / 3 END",
     pa.float64()),
    ("level", "INT", "CAST(id % 7 AS INT)", pa.int32()),
    ("ts", "TIMESTAMP(6)",
     "CAST(TIMESTAMPADD(SECOND, CAST(id AS INT), TIMESTAMP '2023-11-14 22:13:20') "
     "AS TIMESTAMP(6))", pa.timestamp("us")),
    ("tag", "STRING",
     "CASE WHEN id % 3 = 0 THEN CAST(NULL AS STRING) "
     "ELSE CONCAT('t', CAST(id % 13 AS STRING)) END", pa.string()),
]
# The columns every suite compares answers on.
FIELDS = ("id", "level", "tag")
PARTITION = ("dt", "STRING", "CONCAT('d', CAST(id % 2 AS STRING))", pa.string())


def columns(partitioned: bool):
    return COLUMNS + [PARTITION] if partitioned else list(COLUMNS)


def row_values(i: int, level_shift: int = 0) -> Dict[str, object]:
    """Row `i`; `level_shift` as in `flink_insert_sequence`."""
    return {
        "id": i,
        "category": f"c{i % 5}",
        "score": None if i % 11 == 0 else float(i % 97) / 3,
        "level": (i + level_shift) % 7,
        "ts": BASE_TIME + datetime.timedelta(seconds=i),
        "tag": None if i % 3 == 0 else f"t{i % 13}",
        "dt": f"d{i % 2}",
    }


def arrow_rows(ids: Iterable[int], partitioned: bool) -> pa.Table:
    """The rows of `ids` as an Arrow table in the tables' column order."""
    values = [row_values(i) for i in ids]
    cols = columns(partitioned)
    return pa.table({name: pa.array([v[name] for v in values], arrow)
                     for name, _, _, arrow in cols},
                    schema=pa.schema([(name, arrow) for name, _, _, arrow in cols]))


def updated_rows(count: int, updated: int) -> List[dict]:
    """Rows 0 .. count-1 after rows 0 .. updated-1 were written again with level_shift 1
    (a primary-key table's latest values)."""
    return [row_values(i, 1 if i < updated else 0) for i in range(count)]


def with_options(options: Dict[str, str]) -> str:
    """Table options as the list inside Flink SQL's WITH (...) or SET (...)."""
    return ", ".join(f"'{k}' = '{v}'" for k, v in options.items())


def create_table(flink, name: str, options: Dict[str, str], partitioned: bool = False,
                 primary_key: bool = False) -> None:
    """CREATE TABLE through Flink SQL."""
    fields = [f"{col} {sql_type}{' NOT NULL' if primary_key and col in ('id', 'dt') else ''}"
              for col, sql_type, _, _ in columns(partitioned)]
    if primary_key:
        keys = "id, dt" if partitioned else "id"
        fields.append(f"PRIMARY KEY ({keys}) NOT ENFORCED")
    parts = " PARTITIONED BY (dt)" if partitioned else ""
    flink.execute(f"DROP TABLE IF EXISTS {name}")
    flink.execute(f"CREATE TABLE {name} ({', '.join(fields)}){parts} WITH ({with_options(options)})")


def flink_insert_sequence(flink, name: str, first: int, count: int, partitioned: bool,
                          level_shift: int = 0) -> None:
    """INSERT INTO name the rows first .. first+count-1 from a bounded datagen sequence;
    `level_shift` changes `level` (to update primary keys with other values)."""
    flink.execute("DROP TEMPORARY TABLE IF EXISTS ids")
    flink.execute(f"CREATE TEMPORARY TABLE ids (id BIGINT) WITH ('connector' = 'datagen', "
                  f"'number-of-rows' = '{count}', 'fields.id.kind' = 'sequence', "
                  f"'fields.id.start' = '{first}', 'fields.id.end' = '{first + count - 1}')")
    exprs = []
    for col, _, expr, _ in columns(partitioned):
        if col == "level" and level_shift:
            expr = f"CAST((id + {level_shift}) % 7 AS INT)"
        exprs.append(f"{expr} AS {col}")
    flink.execute(f"INSERT INTO {name} SELECT {', '.join(exprs)} FROM ids")


# ---------------------------------------------------------------- predicates


def _cmp(op: Callable) -> Callable:
    # SQL: a comparison with NULL is not true.
    return lambda a, b: a is not None and op(a, b)


EQ = _cmp(lambda a, b: a == b)
NE = _cmp(lambda a, b: a != b)
GT = _cmp(lambda a, b: a > b)
GE = _cmp(lambda a, b: a >= b)
LE = _cmp(lambda a, b: a <= b)
LT = _cmp(lambda a, b: a < b)

T_1500 = datetime.datetime(2023, 11, 14, 22, 15, 0)

# SQL text (Flink's WHERE and pyfileindex's predicate) -> the same test in Python.
PREDICATES: List[Tuple[str, Callable[[dict], bool]]] = [
    ("id = 17", lambda r: EQ(r["id"], 17)),
    ("id = 100000", lambda r: EQ(r["id"], 100000)),
    ("id IN (3, 250, 777, 1100)", lambda r: r["id"] in (3, 250, 777, 1100)),
    ("id >= 1150", lambda r: GE(r["id"], 1150)),
    ("category = 'c2'", lambda r: EQ(r["category"], "c2")),
    ("category IN ('c0', 'c4')", lambda r: r["category"] in ("c0", "c4")),
    ("category NOT IN ('c1', 'c2')", lambda r: r["category"] not in ("c1", "c2")),
    ("level = 3", lambda r: EQ(r["level"], 3)),
    ("level > 4", lambda r: GT(r["level"], 4)),
    ("level BETWEEN 2 AND 3", lambda r: GE(r["level"], 2) and LE(r["level"], 3)),
    ("level <> 3", lambda r: NE(r["level"], 3)),
    ("score IS NULL", lambda r: r["score"] is None),
    ("score > 30.0", lambda r: GT(r["score"], 30.0)),
    ("score <= 1.0", lambda r: LE(r["score"], 1.0)),
    ("tag IS NULL", lambda r: r["tag"] is None),
    ("tag = 't5'", lambda r: EQ(r["tag"], "t5")),
    ("tag = 'missing'", lambda r: EQ(r["tag"], "missing")),
    ("ts >= TIMESTAMP '2023-11-14 22:15:00'", lambda r: GE(r["ts"], T_1500)),
    ("ts < TIMESTAMP '2023-11-14 22:15:00'", lambda r: LT(r["ts"], T_1500)),
    ("category = 'c1' AND level = 1", lambda r: EQ(r["category"], "c1") and EQ(r["level"], 1)),
    ("tag = 't1' OR id = 5", lambda r: EQ(r["tag"], "t1") or EQ(r["id"], 5)),
]
PARTITION_PREDICATES: List[Tuple[str, Callable[[dict], bool]]] = [
    ("dt = 'd1' AND level = 2", lambda r: EQ(r["dt"], "d1") and EQ(r["level"], 2)),
    ("dt = 'd0' AND id = 17", lambda r: EQ(r["dt"], "d0") and EQ(r["id"], 17)),
]


def predicates(partitioned: bool):
    return PREDICATES + (PARTITION_PREDICATES if partitioned else [])


def brute_force(rows: Sequence[dict], test: Callable[[dict], bool],
                fields: Sequence[str]) -> List[tuple]:
    return sorted((tuple(r[f] for f in fields) for r in rows if test(r)), key=repr)


def plain(value):
    """Flink's and Arrow's values as comparable Python values."""
    if isinstance(value, datetime.datetime) and value.tzinfo is not None:
        return value.replace(tzinfo=None)
    return value


def plain_rows(rows: Iterable[Sequence]) -> List[tuple]:
    return sorted((tuple(plain(v) for v in row) for row in rows), key=repr)


def pyfileindex_rows(table, sql: str, fields: Sequence[str] = FIELDS) -> List[tuple]:
    """pyfileindex's answer to `SELECT fields FROM table WHERE sql` (its plan, then its read),
    as `plain_rows`."""
    got = read_plan(plan_read(table, sql)).select(list(fields)).to_pylist()
    return plain_rows(tuple(r[f] for f in fields) for r in got)


def index_options(bloom: str = "id,tag", bitmap: str = "category,level",
                  range_bitmap: str = "score,ts", bsi: str = "id,level",
                  extra: Optional[Dict[str, str]] = None) -> Dict[str, str]:
    options = {
        "file-index.bloom-filter.columns": bloom,
        "file-index.bitmap.columns": bitmap,
        "file-index.range-bitmap.columns": range_bitmap,
        "file-index.bsi.columns": bsi,
    }
    options.update(extra or {})
    return {k: v for k, v in options.items() if v}
