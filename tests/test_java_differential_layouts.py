"""Differential tests against Apache Paimon 2.0's own Java code: large columns in the row
layouts the writers' fast paths are made for.

The generated packs (test_java_differential.py) are mostly below 300 rows and the fixed edge
cases (test_java_differential_edges.py) shuffle their big columns, so these paths met Java
only on small or random data:

* bitmap: 16384-row pieces of 65536-row chunks; the first 4096 keys kept as containers, later
  ones as row lists with runs (and, past 16384 entries, as a bitmap); the frequent keys'
  room projected at chunk 4 of a file of more than 8 chunks; the repeat path of sorted or
  clustered strings; the string dictionary's ascending mode, left at the first key below the
  last; the numeric dictionary's direct window, outgrown; dictionary-encoded strings; nulls.
* range-bitmap and bsi: blocks of sorted rows kept as runs (switching to a value per row
  past their run limits, mid-block); keys interned without a table while ascending, then a
  window or a hash table; the string ascending path.
* bloom-filter: strings hashed from Arrow offsets (batches without nulls), the recent-hashes
  table pausing on blocks of new values.

Each layout is a list of ranks (ascending rank = ascending value, None = NULL) rendered as
INT, BIGINT (spread wide, beyond the direct windows), DOUBLE and STRING columns, each with
every index type that takes it; the options (bitmap V1 / V2 / a small index block,
range-bitmap's default / a small chunk size) rotate over layouts and types. The questions
are sampled (sweeps of a few values, TopN sampling), as the other tests of 100k rows do:
the bytes are compared whole, and that is most of what these cases are for. The module
takes 70-85 s on two shared cores, a third of it in Java's writes.
"""

from __future__ import annotations

import functools
import random
import sys
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import pyarrow as pa
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also under --import-mode=importlib
from differential import fixed  # noqa: E402
from differential.cases import ColumnCase, Pack, PLeaf  # noqa: E402
from differential.runner import PackRunner, Stats  # noqa: E402
from differential.values import colliding_strings  # noqa: E402
from java_harness import java_harness  # noqa: E402,F401  (the session fixture)

pytestmark = pytest.mark.java

ROWS = 200_000  # chunks 0..3 of 65536 rows, the last one partial
CHUNK = 1 << 16

Ranks = List[Optional[int]]

# ------------------------------------------------------------------------------ layouts


def _ascending(rnd: random.Random, rows: int, longest: int) -> Ranks:
    """Runs of equal ranks, 1..longest rows each, ranks 0, 1, 2, ..."""
    out: Ranks = []
    rank = 0
    while len(out) < rows:
        out += [rank] * rnd.randint(1, longest)
        rank += 1
    return out[:rows]


def _clustered(rnd: random.Random, rows: int, keys: int, longest: int) -> Ranks:
    """Blocks of 1..longest rows, each of a random one of `keys` ranks."""
    out: Ranks = []
    while len(out) < rows:
        out += [rnd.randrange(keys)] * rnd.randint(1, longest)
    return out[:rows]


def sorted_ascending(rnd, rows):
    return _ascending(rnd, rows, 60)  # ~6600 keys: past the 4096 container keys


def sorted_descending(rnd, rows):
    return _ascending(rnd, rows, 60)[::-1]


def clustered_blocks(rnd, rows):
    return _clustered(rnd, rows, 3000, 200)


def clustered_short_blocks(rnd, rows):
    # ~2600 blocks per 65536 rows: range-bitmap's 1024 and bsi's 512 runs run out mid-block.
    return _clustered(rnd, rows, 20_000, 50)


def ascending_then_shuffled(rnd, rows):
    """Ascending for 100,003 rows (past the first chunk and its pieces), then the rest of an
    ascending column shuffled, a tenth of it replaced by keys of the sorted part."""
    head = 100_003
    out = _ascending(rnd, rows, 40)
    tail = out[head:]
    rnd.shuffle(tail)
    last = out[head - 1]
    tail = [rnd.randint(0, last) if rnd.random() < 0.1 else r for r in tail]
    return out[:head] + tail


def sorted_scattered_nulls(rnd, rows):
    return [None if rnd.random() < 0.1 else r for r in _ascending(rnd, rows, 60)]


def null_chunks(rnd, rows):
    """A whole chunk of NULLs and 1000 rows more, later a NULL tail; clustered, then sorted
    keys around them."""
    out = _clustered(rnd, CHUNK, 50, 300)
    out += [None] * (CHUNK + 1000)
    out += [100 + r for r in _ascending(rnd, 180_000 - len(out), 30)]
    return out + [None] * (rows - len(out))


def many_keys_sorted(rnd, rows):
    """~80,000 keys of 1..4 rows: past 4096 and 65536 keys (the numeric dictionary's window),
    Java's HashMap resized up to 131072 buckets, rare keys' rows as runs."""
    return _ascending(rnd, rows, 4)


def many_keys_descending_with_nulls(rnd, rows):
    return [None if rnd.random() < 0.03 else r for r in _ascending(rnd, rows, 4)[::-1]]


def late_heavy_rare_key(rnd, rows):
    """8192 keys once each (ids from 4096 are row lists), then one of those rare keys on every
    other row, and for 5000 rows in a row: its list passes 16384 entries (a bitmap), holding
    single rows and runs."""
    out: Ranks = list(range(8192))
    heavy = 5000
    while len(out) < rows:
        if 120_000 <= len(out) < 125_000:
            out.append(heavy)
        elif len(out) % 2 == 0:
            out.append(heavy)
        else:
            out.append(rnd.randrange(10_000))
    return out[:rows]


LAYOUTS: Dict[str, Callable[[random.Random, int], Ranks]] = {
    f.__name__: f for f in [
        sorted_ascending, sorted_descending, clustered_blocks, clustered_short_blocks,
        ascending_then_shuffled, sorted_scattered_nulls, null_chunks, many_keys_sorted,
        many_keys_descending_with_nulls, late_heavy_rare_key]
}


# The types each layout is rendered in, where not all four: DOUBLE keys take the paths of
# BIGINT ones (hashed, never in a direct window), so the dearest layouts leave it out; the
# rare key's lists are the same whatever the key type.
TYPES_OF = {"sorted_descending": ["INT", "BIGINT", "STRING"],
            "clustered_short_blocks": ["INT", "BIGINT", "STRING"],
            "ascending_then_shuffled": ["INT", "BIGINT", "STRING"],
            "many_keys_sorted": ["INT", "BIGINT", "STRING"],
            "many_keys_descending_with_nulls": ["INT", "STRING"],
            "late_heavy_rare_key": ["INT", "STRING"]}


@functools.lru_cache(maxsize=None)
def ranks_of(layout: str, rows: int = ROWS) -> Tuple[Optional[int], ...]:
    ranks = LAYOUTS[layout](random.Random(f"layout/{layout}/{rows}"), rows)
    assert len(ranks) == rows
    return tuple(ranks)


# -------------------------------------------------------------- ranks as column values
# Each rendering is strictly increasing in the rank, so a sorted layout stays sorted.


def as_int(k: int) -> int:
    return 3 * k - 150_000  # crosses 0: bsi's negative and positive sides


def as_bigint(k: int) -> int:
    return k * 1_000_000_007 - (1 << 45)  # beyond every direct window: hashed keys


def as_double(k: int) -> float:
    return k * 0.25 - 1000.5


def as_string(k: int) -> str:
    # 7..47 bytes: keys within one 8-byte word, and keys past 32 bytes.
    return f"{k:07d}" + "~" * (k * 7919 % 41)


PATH_ENDS = ("", "\x00", "a", "a\x00", "ab", "é", "é\x00", "éa")  # ascending UTF-8 bytes


def as_path(k: int) -> str:
    # A 43-byte common prefix, then after the same digits keys that are prefixes of each other,
    # with U+0000 and a 2-byte character.
    return "warehouse/sales.db/orders/bucket-0/dt=2025/" + f"{k // 8:06d}" + PATH_ENDS[k % 8]


RENDER = {"INT": as_int, "BIGINT": as_bigint, "DOUBLE": as_double, "STRING": as_string}
KINDS_OF = {"INT": ["bitmap", "range-bitmap", "bsi", "bloom-filter"],
            "BIGINT": ["bitmap", "range-bitmap", "bsi", "bloom-filter"],
            "DOUBLE": ["bitmap", "range-bitmap", "bloom-filter"],
            "STRING": ["bitmap", "range-bitmap", "bloom-filter"]}
BITMAP_OPTIONS = [{"version": "1"}, {"version": "2"}, {"index-block-size": "128b"}]
RANGE_BITMAP_OPTIONS = [{}, {"chunk-size": "64b"}]


def index_options(kinds: List[str], turn: int, values: list) -> Dict[str, Dict[str, str]]:
    """Options per index type; `turn` picks the bitmap and range-bitmap variant."""
    distinct = len({v for v in values if v is not None})
    out: Dict[str, Dict[str, str]] = {}
    for kind in kinds:
        if kind == "bitmap":
            out[kind] = BITMAP_OPTIONS[turn % len(BITMAP_OPTIONS)]
        elif kind == "range-bitmap":
            out[kind] = RANGE_BITMAP_OPTIONS[turn % len(RANGE_BITMAP_OPTIONS)]
        elif kind == "bloom-filter":
            out[kind] = {"items": str(max(distinct, 1)), "fpp": "0.05"}
        else:
            out[kind] = {}
    return out


def rendered(name: str, type_text: str, ranks: Sequence[Optional[int]], turn: int,
             render: Optional[Callable[[int], object]] = None,
             kinds: Optional[List[str]] = None) -> ColumnCase:
    render = render or RENDER[type_text]
    values = [None if r is None else render(r) for r in ranks]
    return fixed.column(name, type_text, values,
                        index_options(kinds or KINDS_OF[type_text], turn, values))


def layout_pack(label: str, columns: List[ColumnCase]) -> Pack:
    """A few values per column, a sample of the questions: every answer about 200k rows costs
    both sides real time, and a TopN ships the whole container to Java (one per range-bitmap
    column)."""
    return fixed.pack(label, columns, max_values=3, max_leaves=4, top_n_big_sample=1,
                      top_n_selections=0)


def check(harness, *packs: Pack) -> Stats:
    stats = Stats()
    runner = PackRunner(harness, stats)
    compared = [runner.run(p) for p in packs]
    assert stats.mismatch_count == 0, stats.report()
    assert all(compared), stats.report()
    assert stats.predicates > 0, stats.report()
    return stats


# ------------------------------------------------------------------------------- tests


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_layout_in_every_type(java_harness, layout):
    ranks = ranks_of(layout)
    turn = sorted(LAYOUTS).index(layout)
    types = TYPES_OF.get(layout, list(RENDER))
    columns = [rendered(t.lower(), t, ranks, turn + n) for n, t in enumerate(types)]
    check(java_harness, layout_pack(layout, columns))


def test_few_keys_sorted(java_harness):
    """One key; two keys changing at a chunk boundary; three changing inside chunks: keys
    holding whole chunks (one run each)."""
    one = [0] * ROWS
    two = [0] * (2 * CHUNK) + [1] * (ROWS - 2 * CHUNK)
    three = [0] * 70_001 + [1] * (140_000 - 70_001) + [2] * (ROWS - 140_000)
    columns = [rendered("i1", "INT", one, 0), rendered("i3", "INT", three[::-1], 1),
               rendered("b2", "BIGINT", two, 2), rendered("d3", "DOUBLE", three, 1),
               rendered("s1", "STRING", one, 2), rendered("s3", "STRING", three, 1)]
    check(java_harness, layout_pack("few keys sorted", columns))


def test_strings_with_long_common_prefixes(java_harness):
    """Sorted, and sorted with the ascending mode broken late."""
    rnd = random.Random("prefixes")
    ascending = _ascending(rnd, ROWS, 30)
    broken = ascending_then_shuffled(rnd, ROWS)
    columns = [rendered("up", "STRING", ascending, 0, as_path),
               rendered("late", "STRING", broken, 2, as_path)]
    check(java_harness, layout_pack("long common prefixes", columns))


def test_duplicate_heavy_clustered_strings(java_harness):
    """40 strings in blocks of 1..200 rows, a tenth of the rows NULL in runs of their own."""
    rnd = random.Random("duplicates")
    ranks = [None if r == 40 else r for r in _clustered(rnd, ROWS, 41, 200)]
    columns = [rendered("s", "STRING", ranks, 0, as_path),
               rendered("t", "STRING", ranks, 1)]
    check(java_harness, layout_pack("duplicate-heavy clustered strings", columns))


def test_keys_in_one_java_hash_bucket(java_harness):
    """BIGINT keys whose Long.hashCode is 0, strings with one Paimon hash: one bucket of Java's
    HashMap through all its resizes, a tree bin whose root leads its iteration (the order of
    bitmap V1's meta and of every version's bitmaps), with thousands of keys."""
    clustered = ranks_of("clustered_short_blocks")
    ascending = ranks_of("sorted_ascending")
    strings = sorted(colliding_strings(2000))
    columns = [
        rendered("l", "BIGINT", clustered, 0, lambda k: (k + 1) << 32 | (k + 1), ["bitmap"]),
        rendered("s", "STRING", ascending, 1, lambda k: strings[k % len(strings)], ["bitmap"])]
    assert len(set(ascending)) > len(strings)  # the strings wrap around: not ascending then
    check(java_harness, layout_pack("one hash bucket", columns))


# Batches of odd sizes: one row, a piece less one, a chunk plus one, ...; the writers' pieces
# and chunks then start inside batches, and batches start at array offsets.
ODD_BATCHES = [1, 16_383, 65_537, 3, 4_095, 40_000]


@pytest.mark.parametrize("layout", ["sorted_ascending", "ascending_then_shuffled",
                                    "sorted_scattered_nulls", "null_chunks"])
def test_layout_in_odd_batches_and_dictionary_strings(java_harness, layout):
    ranks = ranks_of(layout)
    turn = sorted(LAYOUTS).index(layout)
    columns = [rendered("i", "INT", ranks, turn),
               rendered("d", "STRING", ranks, turn + 1, as_path),
               rendered("s", "STRING", ranks, turn + 2, kinds=["bitmap", "bloom-filter"])]
    columns[1].dictionary = True  # each batch brings its own dictionary
    columns[2].large_arrow = True
    pack = layout_pack(f"{layout} in odd batches", columns)
    pack.batch_sizes = ODD_BATCHES
    ours = pack.arrow_table()  # what our writer is given
    assert [b.num_rows for b in ours.to_batches()] == ODD_BATCHES + [ROWS - sum(ODD_BATCHES)]
    assert pa.types.is_dictionary(ours.schema.field("d").type)
    assert pa.types.is_large_string(ours.schema.field("s").type)
    check(java_harness, pack)


def test_bitmap_projection_of_frequent_keys(java_harness):
    """More than 8 chunks, so at chunk 4 the frequent keys (and the NULLs) get room for the
    file at their rate so far: here keys that were rare in those chunks and frequent after
    (they outgrow their room), keys that stop, and NULLs that start in whole chunks."""
    rows = 9 * CHUNK + 1234
    rnd = random.Random("projection")
    ranks: Ranks = []
    while len(ranks) < rows:
        chunk = len(ranks) // CHUNK
        if chunk < 4:
            pool = [0, 1, 2, 3, 4, 5]  # 6 rises later, 0 and 1 stop
            if rnd.random() < 0.001:
                pool = [6]
        elif chunk == 6:
            ranks += [None] * CHUNK  # a whole chunk of NULLs, none before
            continue
        else:
            pool = [2, 3, 4, 5, 6, 6, 6, 7]
        ranks += [rnd.choice(pool)] * rnd.randint(1, 120)
    ranks = ranks[:rows]
    columns = [rendered("i", "INT", ranks, 0, kinds=["bitmap"]),
               rendered("s", "STRING", ranks, 1, kinds=["bitmap"])]
    check(java_harness, layout_pack("projection", columns))


STEPPED_KEYS = 800  # ranks below: keys on the step; then keys off it; then keys far away


def stepped_ranks(rnd: random.Random, rows: int) -> Ranks:
    """Shuffled keys on a step first (the bitmap writer's direct window opens over them and
    steps by their distance), then a mix with keys between them and keys far beyond the
    window, and NULLs."""
    out: Ranks = [rnd.randrange(STEPPED_KEYS) for _ in range(rows // 2)]
    while len(out) < rows:
        r = rnd.random()
        if r < 0.05:
            out.append(STEPPED_KEYS + rnd.randrange(STEPPED_KEYS))  # off the step
        elif r < 0.08:
            out.append(2 * STEPPED_KEYS + rnd.randrange(STEPPED_KEYS))  # far away
        elif r < 0.1:
            out.append(None)
        else:
            out.append(rnd.randrange(STEPPED_KEYS))
    return out


def stepped(base: int, step: int) -> Callable[[int], int]:
    """Rank k -> a key on the step (k < STEPPED_KEYS), between two of them, or on the step
    beyond a window of 65536 steps."""
    def render(k: int) -> int:
        if k < STEPPED_KEYS:
            return base + step * k
        if k < 2 * STEPPED_KEYS:
            j = k - STEPPED_KEYS
            return base + step * j + 1 + j * 7919 % (step - 1)
        return base + step * (70_000 + k)
    return render


def test_keys_on_a_common_step(java_harness):
    """Minute timestamps in millis (BIGINT) and multiples of 48 (INT), shuffled: keys a
    common distance apart, which the bitmap writer's direct window steps over, with keys off
    the step and beyond the window later on."""
    ranks = stepped_ranks(random.Random("steps"), ROWS)
    minutes = stepped(1_767_225_600_000, 60_000)
    columns = [rendered("m1", "BIGINT", ranks, 0, minutes, ["bitmap"]),
               rendered("m2", "BIGINT", ranks, 1, minutes, ["bitmap", "range-bitmap"]),
               rendered("i", "INT", ranks, 1, stepped(-20_000, 48), ["bitmap", "bsi"])]
    check(java_harness, layout_pack("keys on a common step", columns))


def in_list_ranks(rnd: random.Random, rows: int) -> Ranks:
    """Shuffled: 4 heavy keys (a bitmap container per chunk each), 200 medium ones (arrays of
    ~130 rows a chunk), 5,000 rare ones (a few rows each) and 5% NULLs."""
    out: Ranks = []
    for _ in range(rows):
        r = rnd.random()
        if r < 0.05:
            out.append(None)
        elif r < 0.45:
            out.append(rnd.randrange(4))
        elif r < 0.85:
            out.append(4 + rnd.randrange(200))
        else:
            out.append(204 + rnd.randrange(5000))
    return out


def test_in_lists_across_containers(java_harness):
    """IN and NOT IN lists whose keys' rows are bitmap containers, arrays, or a few rows per
    chunk, 2 to 40 of them: unions merged as sorted arrays, set through a sparse block, or
    ORed into a full one (more than 4096 rows of a chunk), against Java's answers."""
    rnd = random.Random("in lists")
    ranks = in_list_ranks(rnd, ROWS)
    medium = list(range(4, 204))
    rare = list(range(204, 5204))
    lists = [(0, 1), (0, 5), (0, 1, 2, 3, 4), (5, 6), (5, 6, 7), (5, 6, 7, 8),
             tuple(medium[:5]), tuple(medium[10:19]), tuple(medium[20:42]),
             tuple(medium[50:90]), tuple(rare[:2]), tuple(rare[:30]),
             (7, 300, 9_999_999), (1, 8, 900, 901, 902, 903)]
    columns = [rendered("i", "INT", ranks, 1, kinds=["bitmap"]),
               rendered("v1", "INT", ranks, 0, kinds=["bitmap"]),
               rendered("s", "STRING", ranks, 1, kinds=["bitmap"])]
    predicates = []
    for c in columns:
        render = as_string if c.name == "s" else as_int
        for keys in lists:
            literals = tuple(render(k) for k in keys)
            predicates += [PLeaf("in", c.name, literals), PLeaf("not_in", c.name, literals)]
    pack = fixed.pack("in lists", columns, predicates=predicates, top_n_big_sample=0,
                      top_n_selections=0)
    stats = check(java_harness, pack)
    assert stats.predicates >= len(predicates)


# ------------------------------------------------------------ the layouts themselves


def _runs(ranks) -> int:
    return 1 + sum(1 for a, b in zip(ranks, ranks[1:]) if a != b)


def _distinct(ranks) -> int:
    return len({r for r in ranks if r is not None})


def test_layouts_have_their_shapes():
    """The layouts and renderings are what the tests above take them for."""
    for render in [*RENDER.values(), as_path]:
        keys = [render(k) for k in range(100_000)]
        order = [k.encode() if isinstance(k, str) else k for k in keys]
        assert all(a < b for a, b in zip(order, order[1:])), render.__name__
    up = ranks_of("sorted_ascending")
    assert list(up) == sorted(up) and _distinct(up) > 4096
    down = ranks_of("sorted_descending")
    assert list(down) == sorted(down, reverse=True) and _distinct(down) > 4096
    many = ranks_of("many_keys_sorted")
    assert list(many) == sorted(many) and _distinct(many) > 65536
    assert _distinct(ranks_of("many_keys_descending_with_nulls")) > 65536
    late = ranks_of("ascending_then_shuffled")
    first_descent = next(i for i in range(1, ROWS) if late[i] < late[i - 1])
    assert 100_003 <= first_descent < 100_100
    nulls = ranks_of("sorted_scattered_nulls")
    assert 0.09 < nulls.count(None) / ROWS < 0.11
    whole = ranks_of("null_chunks")
    assert None not in whole[:CHUNK] and set(whole[CHUNK:2 * CHUNK + 1000]) == {None}
    assert whole[-1] is None and None not in whole[2 * CHUNK + 1000:180_000]
    # Per 65536 rows: runs below range-bitmap's 1024 and above bsi's 512; above both.
    assert 512 < _runs(ranks_of("clustered_blocks")[:CHUNK]) < 1024
    assert _runs(ranks_of("clustered_short_blocks")[:CHUNK]) > 2048
    heavy = ranks_of("late_heavy_rare_key")
    assert _distinct(heavy[:8192]) == 8192 and heavy.count(5000) > 2 * 16384
