"""Differential tests against Apache Paimon 2.0's own Java code: fixed edge cases.

Every case goes through tests/differential/runner.py like the generated ones: our bytes ==
Java's bytes, our answers on Java's bytes == Java's answers on our bytes == brute force (or,
where Java 2.0 is knowingly wrong, ours keeps every true match). Cases where Java refuses to
write must be refused by us too.
"""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

import pyarrow as pa
import pytest

import pyfileindex as pfi

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also under --import-mode=importlib
from differential import fixed  # noqa: E402
from differential.cases import PLeaf  # noqa: E402
from differential.column_types import INTEGRAL_RANGES, decimal_of, float32  # noqa: E402
from differential.runner import PackRunner, Stats  # noqa: E402
from differential.values import colliding_strings, java_bucket_mates, java_hash_twins  # noqa: E402
from java_harness import JavaRequestError  # noqa: E402
from java_harness import java_harness  # noqa: E402,F401  (the session fixture)

pytestmark = pytest.mark.java

ALL_KINDS = ["bitmap", "bloom-filter", "bsi", "range-bitmap"]


def check(harness, *packs) -> Stats:
    stats = Stats()
    runner = PackRunner(harness, stats)
    compared = [runner.run(p) for p in packs]
    assert stats.mismatch_count == 0, stats.report()
    assert all(compared), stats.report()
    return stats


def index_variants(kind: str, rows: int = 100):
    """Per-column option sets worth covering for an index type."""
    if kind == "bitmap":
        return [{"version": "1"}, {"version": "2"}]
    if kind == "bloom-filter":
        return [{"items": str(max(rows, 1)), "fpp": "0.01"}]
    return [{}]


# ----------------------------------------------------------------- row counts and shapes

ROW_COUNTS = [0, 1, 2, 4095, 4096, 4097, 65535, 65536, 65537]


@pytest.mark.parametrize("rows", ROW_COUNTS)
@pytest.mark.parametrize("kind", ALL_KINDS)
def test_row_count_edges(java_harness, kind, rows):
    packs = []
    for options in index_variants(kind, rows):
        idx = {kind: options}
        columns = [
            fixed.column("one", "INT", [7] * rows, idx),
            fixed.column("two", "INT", [i % 2 for i in range(rows)], idx),
            fixed.column("nulls", "INT", [None if i % 3 == 0 else i % 5 for i in range(rows)],
                         idx),
            fixed.column("runs", "INT", [i // 100 for i in range(rows)], idx),  # run containers
            fixed.column("allnull", "INT", [None] * rows, idx),
        ]
        if rows < 10_000:  # 100k distinct values: test_many_distinct_values_*
            columns.append(fixed.column("distinct", "BIGINT", [i * 7919 for i in range(rows)],
                                        idx))
        packs.append(fixed.pack(f"{kind} {rows} rows {options}", columns, max_values=8,
                                max_leaves=None if rows < 10_000 else 12))
    check(java_harness, *packs)


def test_many_distinct_values_bitmap(java_harness):
    rnd = random.Random(1)
    ints = list(range(100_000)) + [None] * 500
    rnd.shuffle(ints)
    strings = [None if v is None else f"asdfghjkl123_{v}" for v in ints]
    packs = []
    for options in ({"version": "1"}, {"version": "2"}, {"index-block-size": "64b"}):
        packs.append(fixed.pack(f"100k ints {options}", [
            fixed.column("i", "INT", ints, {"bitmap": options})], max_values=6, max_leaves=16))
    for options in ({"version": "1"}, {"index-block-size": "256 b"}):
        packs.append(fixed.pack(f"100k strings {options}", [
            fixed.column("s", "STRING", strings, {"bitmap": options})], max_values=6,
            max_leaves=16))
    stats = check(java_harness, *packs)
    assert stats.predicates == 5 * 16


@pytest.mark.parametrize("kind,options", [
    ("range-bitmap", {}), ("range-bitmap", {"chunk-size": "64b"}), ("bsi", {}),
    ("bloom-filter", {"items": "100000"})])
def test_many_distinct_values_other_indexes(java_harness, kind, options):
    rnd = random.Random(2)
    ints = [v - 50_000 for v in range(100_000)] + [None] * 300
    rnd.shuffle(ints)
    columns = [fixed.column("i", "INT", ints, {kind: options})]
    if kind != "bsi":
        columns.append(fixed.column("s", "VARCHAR(30)", [
            None if v is None else f"key-{v:+07d}" for v in ints], {kind: options}))
    check(java_harness, fixed.pack(f"100k {kind} {options}", columns, max_values=6,
                                   max_leaves=16))


# ------------------------------------------------------------- java.util.HashMap order


def _shuffled(values, seed):
    out = list(values)
    random.Random(seed).shuffle(out)
    return out


COLLISION_COLUMNS = {
    # Integer keys are their own hash: multiples of 1024 share a bucket up to capacity 1024.
    "multiples_of_1024": ("INT", [k * 1024 for k in range(64)] + [5, 6, 7]),
    "step_2_16": ("INT", [7 + k * 65536 for k in range(-40, 41)]),
    "long_hash_zero": ("BIGINT", [(a << 32) | a for a in range(1, 41)] + [-1, 0]),
    "equal_paimon_hash": ("STRING", list(colliding_strings(40)) + [f"x{i}" for i in range(30)]),
    "resize_on_lookup_13": ("INT", list(range(13))),
    "resize_on_lookup_25": ("INT", [i * 16 for i in range(25)]),
}


COLLISION_CASES = [(kind, name) for kind in ALL_KINDS for name in sorted(COLLISION_COLUMNS)
                   if not (kind == "bsi" and COLLISION_COLUMNS[name][0] == "STRING")]


@pytest.mark.parametrize("kind,name", COLLISION_CASES)
def test_hash_map_bucket_collisions(java_harness, kind, name):
    type_text, keys = COLLISION_COLUMNS[name]
    packs = []
    for order_seed in range(3):  # first-insertion order decides bucket order
        values = _shuffled(keys * 3, order_seed)
        values.append(values[0])  # a last call for an existing key: resize-on-lookup
        values.insert(5, None)
        for options in index_variants(kind, len(values)):
            packs.append(fixed.pack(f"{name} order {order_seed} {options}", [
                fixed.column("c", type_text, values, {kind: options})], max_values=10))
    check(java_harness, *packs)


# ----------------------------------------------------- run / array container boundary


def _runs_column(runs: int, cardinality: int, rest, gap: int = 1):
    """Value 1 on `cardinality` rows forming exactly `runs` runs; `rest` on the other rows."""
    lengths = [cardinality // runs + (1 if i < cardinality % runs else 0) for i in range(runs)]
    values = [rest, rest]
    for length in lengths:
        values += [1] * length + [rest] * gap
    return values + [rest, 2]


BOUNDARY = [(1, 3), (1, 4), (2, 4), (2, 5), (2, 6), (3, 6), (3, 7), (3, 8), (100, 200),
            (100, 201), (100, 202), (2047, 6141), (2048, 6144)]


@pytest.mark.parametrize("kind", ["bitmap", "bsi", "range-bitmap"])
def test_run_array_container_boundary(java_harness, kind):
    packs = []
    for runs, cardinality in BOUNDARY:
        for rest in (2, None):  # None: the null bitmap sits on the boundary too
            values = _runs_column(runs, cardinality, rest)
            for options in index_variants(kind):
                packs.append(fixed.pack(f"r={runs} c={cardinality} rest={rest} {options}", [
                    fixed.column("v", "INT", values, {kind: options})], max_values=4))
    check(java_harness, *packs)


# ---------------------------------------------------- strings near the block size limit


@pytest.mark.parametrize("block,length,fits", [
    ("64b", 47, True), ("64b", 48, True), ("64b", 49, False),
    ("16kb", 16368, True), ("16kb", 16369, False), (None, 16368, True), (None, 16369, False)])
def test_strings_near_the_index_block_limit(java_harness, block, length, fits):
    options = {"version": "2"} if block is None else {"index-block-size": block}
    long_one = "x" * (length - 2) + "é"  # multi-byte: the limit counts UTF-8 bytes
    values = ["a", long_one, None, "a", "b"]
    pack = fixed.pack(f"string of {length} B, block {block}", [
        fixed.column("s", "STRING", values, {"bitmap": options})], expect_error=not fits)
    check(java_harness, pack)


def test_long_strings_in_v1_and_other_indexes(java_harness):
    values = ["y" * 20000, "a", None, "y" * 20000 + "z", "\U0001F600" * 5000]
    packs = [fixed.pack(f"long strings {kind}", [
        fixed.column("s", "STRING", values, {kind: options})])
        for kind, options in [("bitmap", {"version": "1"}), ("range-bitmap", {}),
                              ("range-bitmap", {"chunk-size": "8b"}),
                              ("bloom-filter", {"items": "10"})]]
    check(java_harness, *packs)


# --------------------------------------------------------------------- extreme values


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_integer_extremes(java_harness, kind):
    packs = []
    for root, (lo, hi) in INTEGRAL_RANGES.items():
        values = [lo, lo + 1, -1, 0, 1, hi - 1, hi, None] * 3
        if kind == "bsi" and root == "BIGINT":
            values = [v for v in values if v != lo]  # Long.MIN_VALUE: refused, see below
        for options in index_variants(kind, len(values)):
            packs.append(fixed.pack(f"{root} extremes {options}", [
                fixed.column("v", root, values, {kind: options})],
                extra_literals={"v": [lo, hi]}))
    check(java_harness, *packs)


def test_bsi_refuses_long_min_value_like_java(java_harness):
    check(java_harness, fixed.pack("bsi Long.MIN_VALUE", [
        fixed.column("b", "BIGINT", [-(2**63), 5, None], {"bsi": {}})], expect_error=True))


def test_bsi_answers_long_min_literals(java_harness):
    """apache/paimon#8150 is in 2.0: a Long.MIN_VALUE literal is compared right."""
    lo = -(2**63)
    col = fixed.column("b", "BIGINT", [lo + 1, -5, 0, 7, None, 2**63 - 1], {"bsi": {}})
    predicates = [PLeaf(op, "b", (lo,)) for op in ("eq", "ne", "lt", "le", "gt", "ge")]
    predicates += [PLeaf("in", "b", (lo, 7)), PLeaf("not_in", "b", (lo, 7)),
                   PLeaf("between", "b", (lo, 0))]
    check(java_harness, fixed.pack("bsi Long.MIN_VALUE literals", [col], predicates=predicates))


FLOAT_SPECIALS = [math.nan, -0.0, 0.0, math.inf, -math.inf, 1.7976931348623157e308,
                  -1.7976931348623157e308, 5e-324, -5e-324, 1.5, None]


@pytest.mark.parametrize("kind", ["bitmap", "bloom-filter", "range-bitmap"])
@pytest.mark.parametrize("type_text", ["FLOAT", "DOUBLE"])
def test_float_specials(java_harness, kind, type_text):
    specials = [v if v is None or type_text == "DOUBLE" else float32(v) for v in FLOAT_SPECIALS]
    packs = []
    for seed in range(3):
        values = _shuffled(specials * 2, seed)
        for options in index_variants(kind, len(values)):
            packs.append(fixed.pack(f"{type_text} specials {seed} {options}", [
                fixed.column("x", type_text, values, {kind: options})], max_values=20))
    check(java_harness, *packs)


# ------------------------------------------------------------ dates, times, timestamps


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_dates_and_times_before_1970(java_harness, kind):
    dates = [-719_162, -25_567, -1, 0, 1, None, 2_932_896, -719_162]
    times = [0, 1, 999, 1000, 86_399_999, None, 43_200_000, 0]
    packs = []
    for options in index_variants(kind, 8):
        packs.append(fixed.pack(f"dates and times {options}", [
            fixed.column("d", "DATE", dates, {kind: options}),
            fixed.column("t", "TIME", times, {kind: options})]))
    if kind != "bloom-filter":  # extreme DATE ints (not datetime.date-representable)
        packs.append(fixed.pack("extreme date ints", [
            fixed.column("d", "DATE", [-(2**31), 2**31 - 1, 0, None], {kind: {}})]))
    check(java_harness, *packs)


def _timestamps(unit: int) -> list:
    base = [0, -unit, unit, -2 * unit, -86_400 * 10**9, -2_208_988_800 * 10**9,
            1_745_542_802_000_123_000 // unit * unit, None]
    if unit == 1:  # inside one microsecond / one millisecond, both sides of the epoch
        base += [-1, -999, -1000, -1001, 999, 1000, 1001, 123_456_789]
    elif unit == 1000:
        base += [-1000, -999_000, -1_000_000, -1_001_000, 1_000_000]
    return base


TIMESTAMP_CASES = [(kind, precision, ltz) for kind in ALL_KINDS for precision in (0, 3, 6, 9)
                   for ltz in (False, True)
                   if not (kind == "range-bitmap" and precision > 6)]  # refused, tested below


@pytest.mark.parametrize("kind,precision,ltz", TIMESTAMP_CASES)
def test_timestamps_of_every_precision(java_harness, kind, precision, ltz):
    type_text = (f"TIMESTAMP({precision}) WITH LOCAL TIME ZONE" if ltz
                 else f"TIMESTAMP({precision})")
    unit = 10**6 if precision <= 3 else (10**3 if precision <= 6 else 1)
    values = _timestamps(unit) * 2
    packs = [fixed.pack(f"{type_text} {options}", [
        fixed.column("ts", type_text, values, {kind: options})], max_values=16,
        extra_literals={"ts": [v + 1 for v in values if v is not None][:3]})
        for options in index_variants(kind, len(values))]
    check(java_harness, *packs)


# --------------------------------------------------------------------------- strings

UNICODE = ["", "\x00", "a\x00b", "\U0001F600", "\U0010FFFF", "é", "中文", "\uffff", "a", "ab",
           "abc" * 10, "prefix/x", "prefix/y", "\x7f", "\u0800", None]


@pytest.mark.parametrize("kind", ["bitmap", "bloom-filter", "range-bitmap"])
def test_unicode_strings_and_column_names(java_harness, kind):
    packs = []
    for seed in range(2):
        values = _shuffled(UNICODE * 2, seed)
        for options in index_variants(kind, len(values)):
            packs.append(fixed.pack(f"unicode {seed} {options}", [
                fixed.column("列", "STRING", values, {kind: options}),
                fixed.column("\U0001F600", "VARCHAR(10)", values, {kind: options}),
                fixed.column("é", "CHAR(3)", [None if v is None else v[:3] for v in values],
                             {kind: options})], max_values=20))
    check(java_harness, *packs)


@pytest.mark.parametrize("chunk", [None, "0b", "1b", "8b", "33b"])
def test_range_bitmap_strings_with_common_prefixes(java_harness, chunk):
    rnd = random.Random(3)
    values = [None if rnd.random() < 0.1 else "common/prefix/" + "".join(
        rnd.choice("ab") for _ in range(rnd.randint(0, 8))) for _ in range(400)]
    options = {} if chunk is None else {"chunk-size": chunk}
    check(java_harness, fixed.pack(f"prefixes chunk {chunk}", [
        fixed.column("s", "STRING", values, {"range-bitmap": options}),
        fixed.column("i", "INT", [rnd.randint(-300, 300) for _ in range(400)],
                     {"range-bitmap": options})], max_values=20))


# ------------------------------------------------------------ range-bitmap TopN ties

@pytest.mark.parametrize("rows", [600, 70_000])
def test_range_bitmap_top_n_with_many_ties_at_the_cut(java_harness, rows):
    """Few distinct values, so every limit near a group boundary cuts (or just misses) a big
    tie: strict TopN keeps exactly k rows, WITH TIES (Java's multi-key, non-strict TopN) the
    whole tie, NULLs included (Java 2.0 cuts tied NULLs: apache/paimon#9280, counted)."""
    rnd = random.Random(f"ties/{rows}")
    idx = {"range-bitmap": {}}
    # Runs of NULLs and of equal values across the 65536-row containers of the big case.
    few = [None if (i // 97) % 5 == 0 else (i * 7) % 3 for i in range(rows)]
    words = [None if i % 11 == 0 else ["b", "a", "ab", "b"][(i // 3) % 4] for i in range(rows)]
    groups = [i * 4 // rows for i in range(rows)]  # 4 contiguous groups, no NULL
    columns = [fixed.column("few", "INT", few, idx), fixed.column("words", "STRING", words, idx),
               fixed.column("groups", "BIGINT", groups, idx),
               fixed.column("allnull", "DOUBLE", [None] * rows, idx)]
    pack = fixed.pack(f"range-bitmap ties {rows} rows", columns, predicates=[])
    for c in columns:
        pack.top_n += fixed.tie_cuts(c, rnd)
    stats = check(java_harness, pack)
    with_ties = sum(1 for r in pack.top_n if r.with_ties)
    assert stats.top_n == len(pack.top_n) and with_ties > 50
    assert stats.java_wrong["range-bitmap TopN WITH TIES cuts tied NULLs (#9280)"] > 0


# -------------------------------------------------------------- all-null, one value

@pytest.mark.parametrize("kind", ALL_KINDS)
@pytest.mark.parametrize("rows", [1, 2, 3, 10])
def test_all_null_and_single_value_columns(java_harness, kind, rows):
    types = ["INT", "BIGINT", "DATE", "TIMESTAMP(3)"]
    if kind != "bsi":
        types += ["STRING", "DOUBLE"]
    if kind == "bsi":
        types += ["DECIMAL(10, 2)"]
    columns = []
    for i, t in enumerate(types):
        columns.append(fixed.column(f"n{i}", t, [None] * rows, {kind: {}}))
    one = {"INT": 4, "BIGINT": -4, "DATE": -4, "TIMESTAMP(3)": -4_000_000, "STRING": "v",
           "DOUBLE": -0.0, "DECIMAL(10, 2)": decimal_of(-400, 2)}
    for i, t in enumerate(types):
        columns.append(fixed.column(f"o{i}", t, [one[t]] * rows, {kind: {}}))
    check(java_harness, fixed.pack(f"{kind} all null / one value, {rows} rows", columns,
                                   extra_literals={c.name: [one[c.ctype.text]]
                                                   for c in columns}))


# ---------------------------------------------------------------- bloom and bsi specifics


def test_bloom_filter_default_size(java_harness):
    """Defaults: 1,000,000 items, fpp 0.1 - a 599,071-byte filter per column."""
    rnd = random.Random(4)
    ints = [rnd.randint(-1000, 1000) for _ in range(300)]
    check(java_harness, fixed.pack("bloom defaults", [
        fixed.column("i", "INT", ints, {"bloom-filter": {}}),
        fixed.column("s", "STRING", [str(v) for v in ints], {"bloom-filter": {}})],
        max_values=30))


@pytest.mark.parametrize("items,fpp", [("1", "0.5"), ("1", "0.001"), ("3", "0.1"),
                                       ("1000", "0.5")])
def test_bloom_filter_tiny_filters(java_harness, items, fpp):
    rnd = random.Random(5)
    values = [rnd.randint(-50, 50) for _ in range(60)]
    check(java_harness, fixed.pack(f"bloom items={items} fpp={fpp}", [
        fixed.column("i", "INT", values, {"bloom-filter": {"items": items, "fpp": fpp}}),
        fixed.column("s", "VARBINARY(4)", [bytes([v & 0xFF]) for v in values],
                     {"bloom-filter": {"items": items, "fpp": fpp}})], max_values=40,
        extra_literals={"i": list(range(100, 140))}))


@pytest.mark.parametrize("precision,scale", [(1, 0), (5, 2), (9, 9), (10, 2), (18, 0), (18, 6),
                                             (19, 0), (20, 2), (38, 10)])
def test_bsi_decimals(java_harness, precision, scale):
    limit = min(10**precision - 1, 2**63 - 1)
    unscaled = [0, 1, -1, limit, -limit, 12345 % (limit + 1), -(12345 % (limit + 1)), None]
    values = [None if u is None else decimal_of(u, scale) for u in unscaled] * 2
    type_text = f"DECIMAL({precision}, {scale})"
    columns = [fixed.column("x", type_text, values, {"bsi": {}}),
               fixed.column("n", type_text, [None] * len(values), {"bsi": {}})]
    if precision <= 18:
        columns.append(fixed.column("r", type_text, values, {"range-bitmap": {}}))
    check(java_harness, fixed.pack(f"bsi {type_text}", columns))


def test_bsi_refuses_decimals_beyond_a_long_like_java(java_harness):
    check(java_harness, fixed.pack("bsi DECIMAL(38, 0) beyond a long", [
        fixed.column("x", "DECIMAL(38, 0)", [decimal_of(2**63, 0), None], {"bsi": {}})],
        expect_error=True))


def test_decimal_literals_beyond_18_digits(java_harness):
    """A DECIMAL(38, 10) literal with more than 18 digits: Java answers (REMAIN on a column
    without index, bitmap/bloom do not index DECIMAL); ours must answer too."""
    values = [decimal_of(15, 10), None, decimal_of(-2, 10)]
    big = decimal_of(12345678901234567890123456789, 10)
    plain = fixed.column("x", "DECIMAL(38, 10)", values, {})
    indexed = fixed.column("i", "INT", [1, 2, None], {"bitmap": {}})  # so a container exists
    predicates = [PLeaf(op, "x", (big,)) for op in ("eq", "ne", "lt", "ge")]
    predicates.append(PLeaf("eq", "i", (1,)))
    stats = check(java_harness, fixed.pack("big decimal literals", [plain, indexed],
                                           predicates=predicates))
    assert stats.predicates == len(predicates)


# --------------------------------------------------------- containers with many columns


def test_container_with_many_columns_and_colliding_names(java_harness):
    """70 columns (the column map grows past 16, 32, 64 slots), names sharing buckets
    ("a"/"q"; 10 names in one bucket of the final 128-slot maps, which Java turns into a tree
    bin; 7 names with equal String.hashCode), every index type, several on one column.

    Eight or more names with EQUAL hash codes are left out on purpose: FileIndexOptions.Column
    is not Comparable, so Java orders such a tree bin by System.identityHashCode, which is
    not reproducible (docs/DIFFERENCES.md)."""
    rnd = random.Random(6)
    names = [chr(c) for c in range(ord("a"), ord("z") + 1)]
    names += [a + b for a in "aq" for b in "abcdefghijklmnopq"][:23]
    names += java_bucket_mates(10, 128) + java_hash_twins(7) + ["列", "\U0001F600x", "é", "ü"]
    assert len(names) == 70 and len(set(names)) == 70
    rows = 30
    kinds_by_type = {"INT": ["bitmap", "bsi", "range-bitmap", "bloom-filter"],
                     "STRING": ["bitmap", "range-bitmap", "bloom-filter"],
                     "TIMESTAMP(3)": ["bitmap", "bsi", "range-bitmap", "bloom-filter"],
                     "DOUBLE": ["bitmap", "range-bitmap", "bloom-filter"]}
    makers = {"INT": lambda: rnd.randint(-5, 5), "STRING": lambda: rnd.choice("xyz"),
              "TIMESTAMP(3)": lambda: rnd.randint(-3, 3) * 10**6,
              "DOUBLE": lambda: rnd.choice([-0.0, 0.0, 1.5, math.nan])}
    columns = []
    for name in names:
        type_text = rnd.choice(sorted(kinds_by_type))
        chosen = rnd.sample(kinds_by_type[type_text], rnd.randint(1, 3))
        indexes = {k: ({"items": "50"} if k == "bloom-filter" else {}) for k in chosen}
        if "bitmap" in indexes:
            indexes["bitmap"] = rnd.choice([{}, {"version": "1"}])
        values = [None if rnd.random() < 0.2 else makers[type_text]() for _ in range(rows)]
        columns.append(fixed.column(name, type_text, values, indexes))
    check(java_harness, fixed.pack("70 columns", columns, max_values=3))


@pytest.mark.parametrize("names,kinds", [
    (["AaAaAa", "AaAaBB", "AaBBAa"], [["bitmap"], ["bitmap"], ["bitmap", "bsi"]]),
    (["a", "q"], [["bitmap"], ["bsi", "bitmap"]]),
    (java_hash_twins(9), [["bitmap"]] * 8 + [["bitmap", "bloom-filter"]]),
])
def test_container_column_order_with_colliding_names(java_harness, names, kinds):
    """Column order = Java's HashMap order, which here depends on how Java's table-options
    HashMap iterates (FORMAT-container-bitmap.md 2.5)."""
    columns = [fixed.column(n, "INT", [1, 2, None, 2], {k: ({"items": "5"} if k == "bloom-filter"
                                                             else {}) for k in ks})
               for n, ks in zip(names, kinds)]
    check(java_harness, fixed.pack(f"colliding names {names}", columns, max_values=2))


@pytest.mark.parametrize("type_text", ["INT", "STRING", "TIMESTAMP(3)", "BIGINT"])
def test_every_index_type_on_one_column(java_harness, type_text):
    rnd = random.Random(7)
    makers = {"INT": lambda: rnd.randint(-20, 20), "BIGINT": lambda: rnd.randint(-20, 20) << 33,
              "STRING": lambda: rnd.choice(["a", "b", "c", "é", ""]),
              "TIMESTAMP(3)": lambda: rnd.randint(-20, 20) * 10**6}
    kinds = ["bitmap", "bloom-filter", "range-bitmap"] + ([] if type_text == "STRING" else ["bsi"])
    values = [None if rnd.random() < 0.15 else makers[type_text]() for _ in range(200)]
    indexes = {k: ({"items": "30", "fpp": "0.3"} if k == "bloom-filter" else {}) for k in kinds}
    check(java_harness, fixed.pack(f"all indexes on {type_text}", [
        fixed.column("c", type_text, values, indexes)], max_values=25))


# ------------------------------------------------------------------- refusals, options

UNSUPPORTED = [
    ("bitmap", "DECIMAL(10, 2)", [decimal_of(1, 2)]),
    ("bitmap", "BINARY(2)", [b"ab"]),
    ("bitmap", "VARBINARY(4)", [b"ab"]),
    ("bloom-filter", "BOOLEAN", [True]),
    ("bloom-filter", "DECIMAL(10, 2)", [decimal_of(1, 2)]),
    ("bsi", "BOOLEAN", [True]),
    ("bsi", "FLOAT", [1.5]),
    ("bsi", "DOUBLE", [1.5]),
    ("bsi", "STRING", ["a"]),
    ("range-bitmap", "TIMESTAMP(9)", [5]),
    ("range-bitmap", "TIMESTAMP(7) WITH LOCAL TIME ZONE", [5]),
    ("range-bitmap", "DECIMAL(20, 2)", [decimal_of(1, 2)]),
    ("range-bitmap", "BYTES", [b"a"]),
]


@pytest.mark.parametrize("kind,type_text,values", UNSUPPORTED,
                         ids=[f"{k}-{t}" for k, t, _ in UNSUPPORTED])
def test_unsupported_types_are_refused_like_java(java_harness, kind, type_text, values):
    check(java_harness, fixed.pack(f"{kind} on {type_text}", [
        fixed.column("c", type_text, values + [None], {kind: {}})], expect_error=True))


@pytest.mark.parametrize("options,refused", [
    ({"version": "3"}, True), ({"version": "0"}, True), ({"version": "1"}, False),
    ({"index-block-size": "100 bytes"}, False), ({"index-block-size": "2 kb"}, False),
    ({"index-block-size": "1K"}, False), ({"index-block-size": "\x012 kb\x1f"}, False),
    ({"index-block-size": "2 \xa0kb"}, True), ({"index-block-size": "2\u0661 kb"}, True)])
def test_bitmap_options_like_java(java_harness, options, refused):
    check(java_harness, fixed.pack(f"bitmap {options}", [
        fixed.column("c", "INT", [1, 2, 2, None], {"bitmap": options})], expect_error=refused))


# Column lists as Paimon reads them: String.split(",") drops trailing empty pieces, a piece that
# Character.isWhitespace calls blank is refused, the others are String.trim()-ed (which drops
# every character <= ' ', and nothing above it, such as U+00A0).
COLUMN_LIST_CASES = ["a,b", "a,b,", "a,b,,", ",", ",,", "", " ", ",a", "a,,b", "a, ", "a, ,",
                     " a , b ", "a,\x01b", "a\x01", "\x01a,b", "a,\x01", "a,\x1cb", "a,\x1c",
                     "a,\u2003", "a,\u3000", "a,\xa0", "a\xa0", "a,\u2007", "a,\tb\n", "a,\x7f"]
COLUMN_LIST_ALPHABET = ["a", "b", "a", "b", ",", ",", " ", "\x01", "\x1c", "\t", "\u2003", "\xa0", "\x7f"]


def test_index_column_lists_are_read_like_java(java_harness):
    fields = [("a", "INT"), ("b", "STRING")]
    columns = {"a": [1, 2, 3, None, 2], "b": ["x", "y", None, "x", "z"]}
    batch = pa.table({"a": pa.array(columns["a"], pa.int32()), "b": columns["b"]})
    rng = random.Random(20261126)
    lists = COLUMN_LIST_CASES + ["".join(rng.choices(COLUMN_LIST_ALPHABET, k=rng.randint(1, 7)))
                                 for _ in range(300)]
    built = 0
    for value in lists:
        options = {"file-index.bitmap.columns": value, "file-index.bloom-filter.columns": "b"}
        try:
            expected = java_harness.write(fields, columns, options)
        except JavaRequestError:
            expected = "refused"
        try:
            writer = pfi.IndexWriter(fields, options)
            writer.write(batch)
            ours = writer.finish()
        except pfi.FileIndexError:
            ours = "refused"
        assert ours == expected, f"columns option {value!r}"
        built += expected != "refused"
    print(f"{built} of {len(lists)} column lists built")
    assert built >= 40  # the random lists reach Java's accepted forms, not only its refusals
