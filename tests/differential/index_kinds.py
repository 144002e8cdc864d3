"""The plug-in table: index type -> data types -> predicates -> options -> Java's answers.

Adding an index type to the differential suite means adding one IndexKind here (and listing
it in KINDS); the generators, the runner and the tests take everything from this table. A
kind whose native side is missing is reported by `available_kinds()` and gets no cases.

Data types are grouped in families (one concrete Paimon type string is drawn per column);
case counts are kept per (index type, family).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence

from differential import oracle
from differential.column_types import ColumnType

FAMILIES: Dict[str, List[str]] = {
    "TINYINT": ["TINYINT"],
    "SMALLINT": ["SMALLINT"],
    "INT": ["INT"],
    "BIGINT": ["BIGINT"],
    "BOOLEAN": ["BOOLEAN"],
    "FLOAT": ["FLOAT"],
    "DOUBLE": ["DOUBLE"],
    "STRING": ["STRING"],
    "VARCHAR": ["VARCHAR(1)", "VARCHAR(8)", "VARCHAR(100)"],
    "CHAR": ["CHAR(1)", "CHAR(4)", "CHAR(20)"],
    "BINARY": ["BINARY(1)", "BINARY(4)"],
    "VARBINARY": ["VARBINARY(8)", "BYTES"],
    "DATE": ["DATE"],
    "TIME": ["TIME", "TIME(3)"],
    "TIMESTAMP(0..3)": ["TIMESTAMP(0)", "TIMESTAMP(1)", "TIMESTAMP(3)"],
    "TIMESTAMP(4..6)": ["TIMESTAMP(4)", "TIMESTAMP(6)", "TIMESTAMP"],
    "TIMESTAMP(7..9)": ["TIMESTAMP(7)", "TIMESTAMP(9)"],
    "TIMESTAMP_LTZ(0..3)": ["TIMESTAMP(0) WITH LOCAL TIME ZONE", "TIMESTAMP_LTZ(3)"],
    "TIMESTAMP_LTZ(4..6)": ["TIMESTAMP(6) WITH LOCAL TIME ZONE", "TIMESTAMP_LTZ(5)"],
    "TIMESTAMP_LTZ(7..9)": ["TIMESTAMP(9) WITH LOCAL TIME ZONE", "TIMESTAMP_LTZ(8)"],
    "DECIMAL(1..9)": ["DECIMAL(1, 0)", "DECIMAL(5, 2)", "DECIMAL(9, 9)"],
    "DECIMAL(10..18)": ["DECIMAL(10, 2)", "DECIMAL(18, 0)", "DECIMAL(18, 6)"],
    "DECIMAL(19..38)": ["DECIMAL(19, 0)", "DECIMAL(20, 2)", "DECIMAL(38, 10)"],
}

_INTEGRAL = ["TINYINT", "SMALLINT", "INT", "BIGINT"]
_STRINGS = ["STRING", "VARCHAR", "CHAR"]
_TIMESTAMPS_ALL = ["TIMESTAMP(0..3)", "TIMESTAMP(4..6)", "TIMESTAMP(7..9)",
                   "TIMESTAMP_LTZ(0..3)", "TIMESTAMP_LTZ(4..6)", "TIMESTAMP_LTZ(7..9)"]
_TIMESTAMPS_UP_TO_6 = ["TIMESTAMP(0..3)", "TIMESTAMP(4..6)", "TIMESTAMP_LTZ(0..3)",
                       "TIMESTAMP_LTZ(4..6)"]

ALL_OPS = ("eq", "in", "ne", "not_in", "lt", "le", "gt", "ge", "between", "is_null",
           "is_not_null")

MEMORY_SIZE_SPELLINGS = ("{n}b", "{n} b", "{n}bytes", "{n}B")


def memory_size(rnd: random.Random, n: int) -> str:
    """n bytes in one of the spellings Paimon's MemorySize parses (kb when it divides)."""
    if n % 1024 == 0 and rnd.random() < 0.5:
        return rnd.choice(["{k}kb", "{k} kb", "{k}k", "{k}KB"]).format(k=n // 1024)
    return rnd.choice(MEMORY_SIZE_SPELLINGS).format(n=n)


@dataclass(frozen=True)
class IndexKind:
    name: str  # Paimon's identifier, as in file-index.<name>.columns
    families: Sequence[str]
    op_weights: Dict[str, float]
    # Java 2.0's answer to one leaf: (column data, op, literals, per-column options)
    answer: Callable[[oracle.ColumnData, str, Sequence[Any], Dict[str, str]], oracle.Answer]
    # Per-column options (without the file-index.<name>.<column>. prefix).
    options: Callable[[random.Random, ColumnType, Sequence[Any]], Dict[str, str]]
    # The least a right answer must keep where Java's answer is wrong or keys are coarse
    # (lossy timestamps): (column data, op, literals, per-column options).
    bound: Optional[Callable[[oracle.ColumnData, str, Sequence[Any], Dict[str, str]],
                             oracle.Answer]] = None
    exact: bool = True  # answers are row sets equal to brute force (bloom: SKIP/REMAIN)
    top_n: bool = False
    # Values this index cannot take at all (both sides refuse to write them): kept out of
    # generated data, covered by fixed error-parity cases instead.
    keep_value: Callable[[ColumnType, Any], bool] = lambda ctype, v: True
    unscaled_cap: Optional[int] = None  # DECIMAL unscaled values must fit this
    notes: str = ""

    def concrete_types(self, family: str) -> List[str]:
        return FAMILIES[family]


# ------------------------------------------------------------------------------- bitmap


def _key_size(ctype: ColumnType, value: Any) -> int:
    kind = ctype.kind
    if kind == "string":
        return 4 + len(value.encode("utf-8"))
    if kind in ("bool",) or ctype.root == "TINYINT":
        return 1
    if ctype.root == "SMALLINT":
        return 2
    if kind in ("date", "time") or ctype.root in ("INT", "FLOAT"):
        return 4
    return 8


def bitmap_options(rnd: random.Random, ctype: ColumnType, values: Sequence[Any]) -> dict:
    options: dict = {}
    r = rnd.random()
    if r < 0.35:
        options["version"] = "1"
    elif r < 0.7:
        options["version"] = "2"
    if options.get("version") != "1" and rnd.random() < 0.35:
        # V2 index blocks: the smallest size every entry still fits, or a bit more.
        biggest = max((_key_size(ctype, v) for v in values if v is not None), default=1)
        fits = 4 + 8 + biggest
        n = rnd.choice([fits, fits + rnd.randint(0, 40), max(fits, 64), max(fits, 200)])
        options["index-block-size"] = memory_size(rnd, n)
    return options


def bitmap_answer(col, op, literals, options) -> oracle.Answer:
    return oracle.java_bitmap(col, op, literals)


BITMAP = IndexKind(
    name="bitmap",
    families=_INTEGRAL + ["BOOLEAN", "FLOAT", "DOUBLE"] + _STRINGS + ["DATE", "TIME"]
    + _TIMESTAMPS_ALL,
    op_weights={"eq": 3, "in": 2, "ne": 1, "not_in": 1, "is_null": 0.7, "is_not_null": 0.5,
                "lt": 0.15, "le": 0.15, "gt": 0.15, "ge": 0.15, "between": 0.15},
    answer=bitmap_answer,
    bound=lambda col, op, literals, options: oracle.bound_bitmap(col, op, literals),
    options=bitmap_options,
    notes="= / IN / IS [NOT] NULL exact; <> and NOT IN keep NULL rows (Java); ranges REMAIN",
)

# ------------------------------------------------------------------------- bloom filter

BLOOM_ITEMS = (1, 2, 7, 50, 100, 1000, 5000)
BLOOM_FPP = ("0.5", "0.3", "0.1", "0.01", "0.001")


def bloom_options(rnd: random.Random, ctype: ColumnType, values: Sequence[Any]) -> dict:
    # Defaults (1,000,000 items) make a 599 KB filter: fixed cases only.
    options = {"items": str(rnd.choice(BLOOM_ITEMS))}
    if rnd.random() < 0.8:
        options["fpp"] = rnd.choice(BLOOM_FPP)
    return options


def bloom_answer(col, op, literals, options) -> oracle.Answer:
    items = int(options.get("items", "1000000"))
    fpp = float(options.get("fpp", "0.1"))
    return oracle.java_bloom(col, op, literals, items, fpp)


BLOOM_FILTER = IndexKind(
    name="bloom-filter",
    families=_INTEGRAL + ["FLOAT", "DOUBLE"] + _STRINGS + ["BINARY", "VARBINARY", "DATE", "TIME"]
    + _TIMESTAMPS_ALL,
    op_weights={"eq": 4, "in": 2, "ne": 0.3, "not_in": 0.3, "lt": 0.2, "ge": 0.2,
                "is_null": 0.2, "is_not_null": 0.2, "between": 0.1},
    answer=bloom_answer,
    bound=bloom_answer,
    options=bloom_options,
    exact=False,
    notes="= / IN: SKIP iff a probe bit is clear (Python model of the filter); rest REMAIN",
)

# ---------------------------------------------------------------------------------- bsi


def _bsi_keeps(ctype: ColumnType, value: Any) -> bool:
    # Long.MIN_VALUE has no absolute value: Java's writer (and ours) refuse it.
    return not (ctype.root == "BIGINT" and value == -(2**63))


def bsi_answer(col, op, literals, options) -> oracle.Answer:
    return oracle.java_bsi(col, op, literals)


BSI = IndexKind(
    name="bsi",
    families=_INTEGRAL + ["DATE", "TIME", "DECIMAL(1..9)", "DECIMAL(10..18)", "DECIMAL(19..38)"]
    + _TIMESTAMPS_ALL,
    op_weights={"eq": 2, "in": 1, "ne": 1, "not_in": 1, "lt": 1, "le": 1, "gt": 1, "ge": 1,
                "between": 1, "is_null": 0.5, "is_not_null": 0.5},
    answer=bsi_answer,
    bound=lambda col, op, literals, options: oracle.bound_exact_index(col, op, literals),
    options=lambda rnd, ctype, values: {},
    keep_value=_bsi_keeps,
    unscaled_cap=2**63 - 1,
    notes="exact over index keys; <> and NOT IN leave NULL rows out",
)

# ------------------------------------------------------------------------- range bitmap

CHUNK_SIZES = (0, 1, 8, 16, 33, 64, 128, 1024, 16384)


def range_bitmap_options(rnd: random.Random, ctype: ColumnType, values: Sequence[Any]) -> dict:
    if rnd.random() < 0.4:
        return {}
    return {"chunk-size": memory_size(rnd, rnd.choice(CHUNK_SIZES))}


def range_bitmap_answer(col, op, literals, options) -> oracle.Answer:
    return oracle.java_range_bitmap(col, op, literals)


RANGE_BITMAP = IndexKind(
    name="range-bitmap",
    families=["BOOLEAN"] + _INTEGRAL + ["FLOAT", "DOUBLE", "DECIMAL(1..9)", "DECIMAL(10..18)",
                                        "DATE", "TIME"] + _STRINGS + _TIMESTAMPS_UP_TO_6,
    op_weights={"eq": 2, "in": 1, "ne": 1, "not_in": 1, "lt": 1, "le": 1, "gt": 1, "ge": 1,
                "between": 1, "is_null": 0.5, "is_not_null": 0.5},
    answer=range_bitmap_answer,
    bound=lambda col, op, literals, options: oracle.bound_exact_index(col, op, literals),
    options=range_bitmap_options,
    top_n=True,
    notes="exact; TopN strict or WITH TIES (2.0 cuts tied NULLs there, #9280); 2.0 answers "
          "IS NULL / TopN on an all-NULL column with 2 rows",
)

KINDS: Dict[str, IndexKind] = {k.name: k for k in (BITMAP, BLOOM_FILTER, BSI, RANGE_BITMAP)}


def available_kinds() -> Dict[str, Optional[str]]:
    """Index type -> None if pyfileindex builds it, else the error it gives."""
    import pyfileindex as pfi

    status: Dict[str, Optional[str]] = {}
    for name in KINDS:
        try:
            pfi.IndexWriter([("f0", "INT")], {f"file-index.{name}.columns": "f0"})
            status[name] = None
        except Exception as e:  # noqa: BLE001 - any refusal means "not available"
            status[name] = f"{type(e).__name__}: {e}"
    return status


def kinds_for_family(family: str) -> List[str]:
    return [name for name, kind in KINDS.items() if family in kind.families]
