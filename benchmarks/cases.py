"""Benchmark cases: the columns, their generated data, the index types and the queries.

One deterministic generator feeds both sides: pyfileindex gets a pyarrow array, Java Paimon
gets the same values through a column dump (column_dump.py). A case is a column spec plus an
index type; its queries are derived from the generated values, so every literal is present.

Columns (issue 8's matrix): INT with cardinality 10, 1k and 1M; STRING (12..20 ASCII bytes,
16 on average) with cardinality 100 and 100k; BIGINT epoch-millisecond timestamps; DOUBLE
prices; each with 0% or 10% nulls (at random rows) and in shuffled or sorted row order.
STRING columns may also come dictionary-encoded, as pyarrow reads Parquet string columns with
`read_dictionary` (index rebuilds do): the same values, handed over as a DictionaryArray.

Scale: BENCH_ROWS (env) or --rows; `quick` runs use QUICK_ROWS. Cardinalities above the row
count are capped at the row count (every value still appears at least once).
"""

from __future__ import annotations

import dataclasses
import os
from typing import Dict, List, Optional, Tuple

import numpy as np
import pyarrow as pa

FULL_ROWS = 10_000_000
QUICK_ROWS = 200_000
SEED = 20250601
COLUMN = "c"

INDEX_TYPES = ("bitmap", "bloom-filter", "bsi", "range-bitmap")

# Which index types Paimon 2.0 accepts for which column kind (spec table "accepted types").
_SUPPORTED = {
    "int": {"bitmap", "bloom-filter", "bsi", "range-bitmap"},
    "string": {"bitmap", "bloom-filter", "range-bitmap"},
    "timestamp": {"bitmap", "bloom-filter", "bsi", "range-bitmap"},
    "double": {"bitmap", "bloom-filter", "range-bitmap"},
}

# Which questions each index type answers (others come back REMAIN on both sides).
QUERIES_BY_INDEX = {
    "bitmap": ("point", "in2", "in"),
    "bloom-filter": ("point", "point_absent"),
    "bsi": ("point", "in", "range"),
    "range-bitmap": ("point", "in", "range", "topn"),
}


def rows_from_env(default: int = FULL_ROWS) -> int:
    text = os.environ.get("BENCH_ROWS")
    return int(text.replace("_", "")) if text else default


@dataclasses.dataclass(frozen=True)
class ColumnSpec:
    kind: str  # "int" | "string" | "timestamp" | "double"
    cardinality: Optional[int] = None  # int and string columns only
    null_fraction: float = 0.0
    order: str = "shuffled"  # "shuffled" | "sorted"
    dictionary_encoded: bool = False  # string columns only: a pyarrow DictionaryArray

    @property
    def paimon_type(self) -> str:
        return {"int": "INT", "string": "STRING", "timestamp": "BIGINT",
                "double": "DOUBLE"}[self.kind]

    @property
    def label(self) -> str:
        name = {"int": "INT", "string": "STRING", "timestamp": "BIGINT ts",
                "double": "DOUBLE"}[self.kind]
        if self.cardinality is not None:
            name += f" c={_short(self.cardinality)}"
        if self.order == "sorted":
            name += " sorted"
        if self.null_fraction:
            name += f" {round(self.null_fraction * 100)}%null"
        if self.dictionary_encoded:
            name += " dict-encoded"
        return name

    @property
    def key(self) -> str:
        parts = [self.kind]
        if self.cardinality is not None:
            parts.append(f"c{_short(self.cardinality)}")
        parts.append(self.order)
        parts.append(f"n{round(self.null_fraction * 100)}")
        if self.dictionary_encoded:
            parts.append("dict")
        return "-".join(parts)

    def supports(self, index_type: str) -> bool:
        return index_type in _SUPPORTED[self.kind]


@dataclasses.dataclass(frozen=True)
class Case:
    column: ColumnSpec
    index_type: str

    @property
    def name(self) -> str:
        return f"{self.column.label} / {self.index_type}"

    @property
    def options(self) -> Dict[str, str]:
        # Paimon's defaults throughout (bitmap V2, bloom items 1M / fpp 0.1, chunk sizes):
        # what a table gets from `file-index.<type>.columns` alone.
        return {f"file-index.{self.index_type}.columns": COLUMN}

    @property
    def fields(self) -> List[Tuple[str, str]]:
        return [(COLUMN, self.column.paimon_type)]


def _short(n: int) -> str:
    for unit, size in (("M", 1_000_000), ("k", 1_000)):
        if n >= size and n % size == 0:
            return f"{n // size}{unit}"
    return str(n)


# ---------------------------------------------------------------------------------- matrix

BASE_COLUMNS = (
    ColumnSpec("int", 10),
    ColumnSpec("int", 1_000),
    ColumnSpec("int", 1_000_000),
    ColumnSpec("string", 100),
    ColumnSpec("string", 100_000),
    ColumnSpec("timestamp"),
    ColumnSpec("double"),
)

# Index types measured per base column in the standard run. Bitmap on ~7M distinct
# timestamps or ~1M distinct doubles is a misuse (Java needs GBs); it runs in --matrix full.
_STANDARD_INDEXES = {
    "int": ("bitmap", "bloom-filter", "bsi", "range-bitmap"),
    "string": ("bitmap", "bloom-filter", "range-bitmap"),
    "timestamp": ("bloom-filter", "bsi", "range-bitmap"),
    "double": ("bloom-filter", "range-bitmap"),
}

# Columns whose 10%-null and sorted variants the standard run measures too (the targets'
# columns): every index type that column supports in the standard set.
_VARIANT_COLUMNS = (ColumnSpec("int", 1_000), ColumnSpec("string", 100_000))

# The target STRING column read dictionary-encoded (every string index type takes such a
# column without decoding it).
_DICTIONARY_CASES = tuple(Case(ColumnSpec("string", 100_000, dictionary_encoded=True), t)
                          for t in _STANDARD_INDEXES["string"])


def _variants(spec: ColumnSpec) -> List[ColumnSpec]:
    return [dataclasses.replace(spec, null_fraction=0.1),
            dataclasses.replace(spec, order="sorted")]


def matrix(name: str) -> List[Case]:
    """'standard' (default), 'quick' (standard's base columns only) or 'full'."""
    cases: List[Case] = []
    if name == "full":
        for base in BASE_COLUMNS:
            for nulls in (0.0, 0.1):
                for order in ("shuffled", "sorted"):
                    spec = dataclasses.replace(base, null_fraction=nulls, order=order)
                    cases += [Case(spec, t) for t in INDEX_TYPES if spec.supports(t)]
        return cases
    if name not in ("standard", "quick"):
        raise ValueError(f"unknown matrix {name!r}: standard, quick or full")
    for base in BASE_COLUMNS:
        cases += [Case(base, t) for t in _STANDARD_INDEXES[base.kind]]
    if name == "standard":
        for base in _VARIANT_COLUMNS:
            for spec in _variants(base):
                cases += [Case(spec, t) for t in _STANDARD_INDEXES[base.kind]]
        cases += _DICTIONARY_CASES
    return cases


# ------------------------------------------------------------------------------ generation


@dataclasses.dataclass
class Column:
    """Generated values. `values` is a numpy array (codes into `dictionary` for strings)."""

    spec: ColumnSpec
    rows: int
    values: np.ndarray
    mask: Optional[np.ndarray]  # True = null
    dictionary: Optional[List[str]] = None  # strings: the sorted distinct values
    _arrow: Optional[pa.Array] = None

    @property
    def arrow(self) -> pa.Array:
        if self._arrow is None:
            self._arrow = _to_arrow(self)
        return self._arrow

    def table(self) -> pa.Table:
        return pa.table({COLUMN: self.arrow})

    def present(self) -> np.ndarray:
        """Non-null values (codes for strings), in row order."""
        return self.values if self.mask is None else self.values[~self.mask]

    def literal(self, value) -> object:
        """A numpy value (or string code) as the Python literal of this column."""
        if self.spec.kind == "string":
            return self.dictionary[int(value)]
        if self.spec.kind == "double":
            return float(value)
        return int(value)


def generate(spec: ColumnSpec, rows: int, seed: int = SEED) -> Column:
    # Streams keyed by kind + cardinality only: a sorted or null-bearing variant holds the
    # same values as its base column, sorted or with some of them nulled.
    identity = _stable_hash(f"{spec.kind}-{spec.cardinality}")
    rng = np.random.default_rng([seed, identity])
    null_rng = np.random.default_rng([seed, identity, 1])
    if spec.kind in ("int", "string"):
        card = min(spec.cardinality, rows)
        # Every code appears at least once, the rest uniformly: exact cardinality.
        codes = np.concatenate([np.arange(card, dtype=np.int64),
                                rng.integers(0, card, rows - card)])
        rng.shuffle(codes)
        values = codes
    elif spec.kind == "timestamp":
        # Events about 1 ms apart (0..2 ms steps): many distinct values, some repeats.
        values = 1_700_000_000_000 + np.cumsum(rng.integers(0, 3, rows, dtype=np.int64))
        rng.shuffle(values)
    elif spec.kind == "double":
        # Prices with two decimals in [0, 10000): up to 1M distinct values.
        values = np.round(rng.uniform(0.0, 10_000.0, rows), 2)
    else:
        raise ValueError(spec.kind)
    if spec.order == "sorted":
        values = np.sort(values)
    mask = None
    if spec.null_fraction:
        mask = null_rng.random(rows) < spec.null_fraction
    dictionary = None
    if spec.kind == "int":
        values = (1000 + 37 * values).astype(np.int32)
    elif spec.kind == "string":
        dictionary = _strings(rng, min(spec.cardinality, rows))
        values = values.astype(np.int32)
    return Column(spec, rows, values, mask, dictionary)


def _stable_hash(text: str) -> int:
    value = 2166136261
    for byte in text.encode():
        value = ((value ^ byte) * 16777619) % (2 ** 32)
    return value


def _strings(rng: np.random.Generator, count: int) -> List[str]:
    """`count` distinct lowercase ASCII strings of 12..20 bytes, sorted."""
    out: set = set()
    while len(out) < count:
        need = count - len(out)
        letters = rng.integers(97, 123, size=(need, 20), dtype=np.uint8)
        lengths = rng.integers(12, 21, size=need)
        raw = letters.tobytes()
        out.update(raw[i * 20:i * 20 + lengths[i]].decode("ascii") for i in range(need))
    return sorted(out)[:count]


def _to_arrow(column: Column) -> pa.Array:
    spec, values, mask = column.spec, column.values, column.mask
    if spec.kind == "string":
        dictionary = pa.array(column.dictionary, pa.string())
        codes = pa.array(values, pa.int32(), mask=mask)
        if spec.dictionary_encoded:
            return pa.DictionaryArray.from_arrays(codes, dictionary)
        return dictionary.take(codes)  # nulls where the codes are null
    arrow_type = {"int": pa.int32(), "timestamp": pa.int64(), "double": pa.float64()}[spec.kind]
    return pa.array(values, arrow_type, mask=mask)


# --------------------------------------------------------------------------------- queries


@dataclasses.dataclass(frozen=True)
class Query:
    """A predicate leaf {"op", "literals"} on COLUMN, or a TopN request (op == "topn")."""

    name: str
    op: str
    literals: Tuple = ()
    limit: int = 10
    descending: bool = True

    def ours(self):
        from pyfileindex.predicate import Leaf

        return Leaf(self.op, COLUMN, self.literals)

    def java(self) -> dict:
        return {"op": self.op, "column": COLUMN, "literals": list(self.literals)}


def queries(case: Case, column: Column) -> List[Query]:
    """The questions measured for a case, with literals taken from the data."""
    present = column.present()
    distinct = np.unique(present)  # ascending (string codes ascend with the strings)
    n = len(distinct)

    def pick(fraction: float):
        return column.literal(distinct[min(n - 1, int(fraction * n))])

    out = []
    for name in QUERIES_BY_INDEX[case.index_type]:
        if name == "point":
            out.append(Query("point", "eq", (pick(1 / 3),)))
        elif name == "point_absent":
            out.append(Query("point_absent", "eq", (_absent(column),)))
        elif name == "in2":
            # A short list, as filters on a key column often are.
            out.append(Query("in2", "in", (pick(0.25), pick(0.75))))
        elif name == "in":
            out.append(Query("in", "in", tuple(pick((i + 0.5) / 10) for i in range(10))))
        elif name == "range":
            # About 1% of the distinct values (at least one).
            out.append(Query("range", "between", (pick(0.40), pick(0.41))))
        elif name == "topn":
            out.append(Query("topn", "topn", limit=10, descending=True))
    return out


def _absent(column: Column):
    kind = column.spec.kind
    if kind == "string":
        return "#absent-value#"  # '#' sorts before the lowercase letters used
    if kind == "double":
        return -1.5
    if kind == "int":
        return 999  # values are 1000 + 37 * code
    return 1_600_000_000_000  # before every timestamp

