"""The pypaimon route: pypaimon predicates in the table layer, and pypaimon read builders
pruned with the file indexes (pyfileindex.paimon.prune / enable).

Every answer is checked against brute force: the leaf evaluated in plain Python over all
rows, and pypaimon's own unpruned read of the same read builder.
"""

from __future__ import annotations

import datetime
import os
import random
import re
import shutil
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from event_rows import EVENT_SCHEMA, events  # noqa: E402
from golden_tables import table_dir  # noqa: E402

from pyfileindex.paimon import (  # noqa: E402
    PaimonTableMetadata,
    disable,
    enable,
    plan_read,
    prune,
    read_plan,
    write_table,
)
from pyfileindex.paimon.planner import open_metadata  # noqa: E402
from pyfileindex.paimon.predicates import bind_to_schema  # noqa: E402
from pyfileindex.paimon.pypaimon_predicates import index_predicate  # noqa: E402
from pyfileindex.predicate import And, Leaf, Or, PredicateError  # noqa: E402

# ---------------------------------------------------------------- helpers


def _text_rows(table: pa.Table) -> list:
    """Rows as sorted text tuples: a multiset that compares NaN and -0.0 by their text."""
    names = table.column_names
    rows = zip(*(table.column(n).to_pylist() for n in names)) if names else []
    return sorted(tuple(repr(v) for v in row) for row in rows)


def unpruned(builder) -> pa.Table:
    return builder.new_read().to_arrow(builder.new_scan().plan().splits())


def pruned(builder):
    splits = prune(builder)
    return builder.new_read().to_arrow(splits), splits


def _builder(table, method=None, *args):
    builder = table.new_read_builder()
    if method is not None:
        predicate = getattr(builder.new_predicate_builder(), method)(*args)
        builder.with_filter(predicate)
    return builder


def _like(pattern: str):
    regex = "".join(".*" if c == "%" else "." if c == "_" else re.escape(c) for c in pattern)
    return re.compile(regex + r"\Z", re.DOTALL)


def _holds(method, args, row) -> bool:
    """pypaimon leaf `method(field, *args)` on one row, in plain Python (SQL NULL rules)."""
    if method == "and_predicates":
        return all(_holds(m, a, row) for m, a in args[0])
    if method == "or_predicates":
        return any(_holds(m, a, row) for m, a in args[0])
    field, *literals = args
    value = row[field]
    if method == "is_null":
        return value is None
    if value is None:
        return False
    if method == "is_not_null":
        return True
    tests = {
        "equal": lambda: value == literals[0], "not_equal": lambda: value != literals[0],
        "less_than": lambda: value < literals[0], "less_or_equal": lambda: value <= literals[0],
        "greater_than": lambda: value > literals[0],
        "greater_or_equal": lambda: value >= literals[0],
        "is_in": lambda: value in literals[0], "is_not_in": lambda: value not in literals[0],
        "between": lambda: literals[0] <= value <= literals[1],
        "not_between": lambda: not literals[0] <= value <= literals[1],
        "startswith": lambda: value.startswith(literals[0]),
        "endswith": lambda: value.endswith(literals[0]),
        "contains": lambda: literals[0] in value,
        "like": lambda: _like(literals[0]).match(value) is not None,
    }
    return tests[method]()


def _build(builder_pb, method, args):
    if method in ("and_predicates", "or_predicates"):
        return getattr(builder_pb, method)([_build(builder_pb, m, a) for m, a in args[0]])
    return getattr(builder_pb, method)(*args)


# ---------------------------------------------------------------- one events table


def _catalog(tmp_path):
    from pypaimon import CatalogFactory
    catalog = CatalogFactory.create({"warehouse": str(tmp_path / "warehouse")})
    catalog.create_database("db", False)
    return catalog


INDEXES = {"file-index.bitmap.columns": "category,level",
           "file-index.bloom-filter.columns": "tag",
           "file-index.range-bitmap.columns": "id,score,ts",
           "file-index.in-manifest-threshold": "1b"}  # sidecars


@pytest.fixture(scope="module")
def events_table(tmp_path_factory):
    from pypaimon import Schema
    catalog = _catalog(tmp_path_factory.mktemp("route"))
    catalog.create_table("db.events", Schema.from_pyarrow_schema(EVENT_SCHEMA, options=INDEXES),
                         False)
    table = catalog.get_table("db.events")
    for start in (0, 300, 600):
        write_table(table, events(start, 300))
    return table


TS = datetime.datetime(2023, 11, 14, 22, 18, 20)  # ts of id 500
LEAVES = [
    ("equal", ("id", 17)),
    ("equal", ("category", "c2")),
    ("not_equal", ("category", "c1")),
    ("less_than", ("id", 40)),
    ("less_or_equal", ("level", 2)),
    ("greater_than", ("score", 30.0)),
    ("greater_or_equal", ("ts", TS)),
    ("is_null", ("score",)),
    ("is_not_null", ("tag",)),
    ("is_in", ("tag", ["t1", "t5"])),
    ("is_not_in", ("category", ["c0", "c1"])),
    ("between", ("id", 100, 120)),
    ("not_between", ("level", 1, 5)),
    ("startswith", ("tag", "t1")),
    ("endswith", ("category", "3")),
    ("contains", ("tag", "1")),
    ("like", ("category", "c_")),
    ("and_predicates", ([("equal", ("category", "c2")), ("less_than", ("id", 250))],)),
    ("or_predicates", ([("equal", ("id", 5)), ("startswith", ("tag", "t12"))],)),
    ("and_predicates", ([("startswith", ("tag", "t1")), ("between", ("id", 610, 700))],)),
]
POINT_LEAVES = [("equal", ("id", 17)), ("between", ("id", 100, 120))]


@pytest.mark.parametrize("method,args", LEAVES, ids=[m for m, _ in LEAVES])
def test_each_leaf_equals_brute_force(events_table, method, args):
    everything = unpruned(events_table.new_read_builder())
    rows = [dict(zip(everything.column_names, r))
            for r in zip(*(c.to_pylist() for c in everything.columns))]
    want = sorted(tuple(repr(v) for v in row.values()) for row in rows
                  if _holds(method, args, row))

    builder = events_table.new_read_builder()
    predicate = _build(builder.new_predicate_builder(), method, args)
    builder.with_filter(predicate)
    assert _text_rows(unpruned(builder)) == want  # the brute force agrees with pypaimon

    got, splits = pruned(builder)
    assert _text_rows(got) == want, splits.summary()
    assert _text_rows(read_plan(plan_read(events_table, predicate))) == want
    if (method, args) in POINT_LEAVES:
        assert splits.files_skipped == 2, splits.summary()
        assert splits.rows_selected < 300


def test_pattern_leaves_pass_through_to_the_indexes(events_table):
    schema = open_metadata(events_table).schema()
    pb = events_table.new_read_builder().new_predicate_builder()
    assert index_predicate(pb.startswith("tag", "zz"), schema) == Leaf("starts_with", "tag",
                                                                       ("zz",))
    assert index_predicate(pb.endswith("tag", "z"), schema) == Leaf("ends_with", "tag", ("z",))
    assert index_predicate(pb.contains("tag", "z"), schema) == Leaf("contains", "tag", ("z",))
    # pypaimon's like escapes with a backslash; a pattern it rejects stays with its reader.
    assert index_predicate(pb.like("category", "c\\_%"), schema) == Leaf(
        "like", "category", ("c\\_%", "\\"))
    assert index_predicate(pb.like("category", "c\\x"), schema) is None
    assert index_predicate(pb.startswith("level", "1"), schema) is None  # INT column
    # category has a bitmap index: a pattern no value matches skips every file.
    for leaf in (pb.startswith("category", "zz"), pb.endswith("category", "zz"),
                 pb.contains("category", "zz"), pb.like("category", "zz%")):
        builder = events_table.new_read_builder().with_filter(leaf)
        splits = prune(builder)
        assert splits.files_skipped == 3, splits.summary()
        assert builder.new_read().to_arrow(splits).num_rows == 0
    # tag has a bloom filter only: REMAIN, every file read.
    builder = events_table.new_read_builder().with_filter(pb.startswith("tag", "zz"))
    assert prune(builder).files_skipped == 0


def test_plan_read_applies_leaves_no_index_answers_before_top_n_and_limit(events_table):
    pb = events_table.new_read_builder().new_predicate_builder()
    starts = pb.startswith("tag", "t12")
    either = pb.or_predicates([starts, pb.equal("id", 3)])
    everything = unpruned(events_table.new_read_builder())
    tags, ids = everything.column("tag").to_pylist(), everything.column("id").to_pylist()
    matching = sorted(i for i, t in zip(ids, tags) if (t or "").startswith("t12"))
    top = read_plan(plan_read(events_table, starts, top_n=("id", 3, True)))
    assert top.column("id").to_pylist() == matching[::-1][:3]
    assert read_plan(plan_read(events_table, starts, limit=4)).num_rows == 4
    assert sorted(read_plan(plan_read(events_table, either)).column("id").to_pylist()) == \
        sorted(matching + [3])


def test_prune_rejects_what_is_not_a_read_builder(events_table):
    with pytest.raises(TypeError, match="ReadBuilder"):
        prune(events_table)


def test_between_and_not_between_become_ranges(events_table):
    schema = open_metadata(events_table).schema()
    pb = events_table.new_read_builder().new_predicate_builder()
    assert index_predicate(pb.between("id", 3, 9), schema) == Leaf("between", "id", (3, 9))
    assert index_predicate(pb.not_between("id", 3, 9), schema) == Or(
        [Leaf("lt", "id", (3,)), Leaf("gt", "id", (9,))])
    assert bind_to_schema(pb.is_in("tag", ["t1"]), schema) == Leaf("in", "tag", ("t1",))
    assert bind_to_schema(pb.startswith("tag", "t"), schema) == Leaf("starts_with", "tag",
                                                                     ("t",))
    with pytest.raises(PredicateError, match="startsWith"):
        bind_to_schema(pb.startswith("level", "1"), schema)


def test_literals_no_index_can_judge_are_remain(events_table):
    schema = open_metadata(events_table).schema()
    pb = events_table.new_read_builder().new_predicate_builder()
    assert index_predicate(pb.equal("level", 2.5), schema) is None  # INT column
    assert index_predicate(pb.is_in("tag", ["t1", None]), schema) is None
    assert index_predicate(pb.equal("score", 0.0), schema, pypaimon_reader=True) is None
    assert index_predicate(pb.equal("score", float("nan")), schema,
                           pypaimon_reader=True) is None
    assert index_predicate(pb.equal("score", 0.0), schema) == Leaf("eq", "score", (0.0,))
    with pytest.raises(PredicateError, match="unknown column"):
        index_predicate(_foreign_leaf("nope"), schema)
    assert index_predicate(_foreign_leaf("_ROW_ID"), schema, pypaimon_reader=True) is None


def _foreign_leaf(field):
    from pypaimon.common.predicate import Predicate
    return Predicate(method="equal", index=0, field=field, literals=[1])


def test_projection_and_limit_are_honoured(events_table):
    builder = events_table.new_read_builder().with_projection(["tag", "id"])
    pb = builder.new_predicate_builder()
    builder.with_filter(pb.or_predicates([pb.equal("id", 17), pb.equal("id", 650)]))
    got, splits = pruned(builder)
    assert got.column_names == ["tag", "id"]
    assert _text_rows(got) == _text_rows(unpruned(builder))
    assert sorted(got.column("id").to_pylist()) == [17, 650]
    assert splits.files_skipped == 1

    hidden = events_table.new_read_builder().with_projection(["tag"])  # filter column unread
    everything = events_table.new_read_builder().new_predicate_builder()
    hidden.with_filter(everything.between("id", 300, 302))
    got, splits = pruned(hidden)
    assert got.column_names == ["tag"] and got.num_rows == 3
    assert _text_rows(got) == _text_rows(unpruned(hidden))
    assert [type(s).__name__ for s in splits] == ["IndexedSplit"]

    limited = events_table.new_read_builder().with_limit(3)
    limited.with_filter(limited.new_predicate_builder().equal("category", "c4"))
    got, _ = pruned(limited)
    assert got.num_rows == 3 and set(got.column("category").to_pylist()) == {"c4"}


def test_selected_rows_are_carried_to_the_reader(events_table):
    builder = _builder(events_table, "between", "id", 100, 104)
    splits = prune(builder)
    assert len(splits) == 1
    (split,) = splits
    assert type(split).__name__ == "IndexedSplit"
    assert split.row_count == 5  # only the index's rows are read
    assert builder.new_read().to_arrow(splits).column("id").to_pylist() == [100, 101, 102,
                                                                            103, 104]
    assert builder.new_read().to_pandas(splits)["id"].tolist() == [100, 101, 102, 103, 104]


def test_row_ranges_coalesce_near_rows():
    from pyfileindex.paimon.splits import coalesced_runs
    rows = np.array([1, 2, 3, 7, 20, 21, 40], np.uint32)
    assert coalesced_runs(rows) == [(1, 3), (7, 7), (20, 21), (40, 40)]
    assert coalesced_runs(rows, 4) == [(1, 7), (20, 21), (40, 40)]
    assert coalesced_runs(rows, 100) == [(1, 40)]
    assert coalesced_runs(np.array([], np.uint32)) == []


def test_enable_makes_the_tables_read_builders_prune_and_disable_undoes_it(events_table):
    assert "new_read_builder" not in events_table.__dict__
    enable(events_table)
    try:
        builder = _builder(events_table, "equal", "id", 650)
        plan = builder.new_scan().plan()
        assert plan.pruned.files_skipped == 2
        assert builder.new_read().to_arrow(plan.splits()).column("id").to_pylist() == [650]
        assert enable(events_table) is events_table  # twice is once
    finally:
        disable(events_table)
    builder = _builder(events_table, "equal", "id", 650)
    assert len(builder.new_scan().plan().splits()[0].files) == 3
    assert "new_read_builder" not in events_table.__dict__


# ---------------------------------------------------------------- golden tables (Java)

GOLDEN_CASES = {
    # deletion vectors on a primary-key table
    "pk_with_bitmap_dv": [("equal", ("f0", "Alice")), ("equal", ("f1", 20)),
                          ("is_in", ("key", [0, 4, 5])), ("greater_than", ("f1", 5)),
                          ("startswith", ("f0", "A"))],
    # schema evolution (renamed, retyped and added columns)
    "append_with_bitmap_alter_table": [("equal", ("f4", "Alice")), ("equal", ("f1", 10)),
                                       ("is_in", ("f1", [20, 30])), ("is_null", ("f5",)),
                                       ("between", ("f1", 15, 30))],
    "data_evolution_with_index": [("equal", ("f2", 104)), ("is_in", ("f2", [202, 12])),
                                  ("equal", ("f0", "Bob")), ("is_null", ("f0",))],
    "append_with_bsi_bitmap_bloomfilter": [("equal", ("f0", "Bob")), ("equal", ("f1", 100)),
                                           ("is_null", ("f4",)), ("not_equal", ("f1", 100)),
                                           ("not_between", ("f2", -2, 1))],
}


@pytest.mark.parametrize("name", sorted(GOLDEN_CASES))
def test_golden_tables_prune_like_unpruned_reads(name):
    table = PaimonTableMetadata(str(table_dir(name))).table
    for method, args in GOLDEN_CASES[name]:
        builder = _builder(table, method, *args)
        got, splits = pruned(builder)
        assert _text_rows(got) == _text_rows(unpruned(builder)), (name, method, args,
                                                                  splits.summary())


# ---------------------------------------------------------------- random tables


def _pypaimon_literal(value):
    if isinstance(value, np.datetime64):
        return value.astype("datetime64[us]").astype(datetime.datetime)
    return value


def _to_pypaimon(node, pb, names):
    """A pyfileindex tree from the random generator as a pypaimon Predicate."""
    if isinstance(node, (And, Or)):
        children = [_to_pypaimon(c, pb, names) for c in node.children]
        return (pb.and_predicates if isinstance(node, And) else pb.or_predicates)(children)
    column = names.get(node.column, node.column)
    literals = [_pypaimon_literal(v) for v in node.literals]
    calls = {"eq": pb.equal, "ne": pb.not_equal, "lt": pb.less_than,
             "le": pb.less_or_equal, "gt": pb.greater_than, "ge": pb.greater_or_equal}
    if node.op in calls:
        return calls[node.op](column, literals[0])
    if node.op in ("in", "not_in"):
        return (pb.is_in if node.op == "in" else pb.is_not_in)(column, literals)
    if node.op == "between":
        return pb.between(column, *literals)
    return (pb.is_null if node.op == "is_null" else pb.is_not_null)(column)


def _random_table(catalog, rng, number):
    """A random table (tests/spark_random_tables.py) written in three commits, maybe
    partitioned, maybe with a column renamed and one added between commits, maybe with rows
    deleted through deletion vectors afterwards. Returns
    (table, generator columns, {generator name: current name})."""
    from pypaimon import Schema
    from pypaimon.schema.data_types import AtomicType
    from pypaimon.schema.schema_change import SchemaChange
    from spark_random_tables import random_table

    rows = rng.choice([200, 900])
    data, columns, options = random_table(rng, rows)
    partitioned = rng.random() < 0.5
    if partitioned:
        data = data.append_column("part", pa.array([rng.randint(0, 1) for _ in range(rows)],
                                                   pa.int32()))
    # pypaimon writes deletion vectors only for row-tracked data-evolution tables.
    deletes = rng.random() < 0.4
    if deletes:
        options = dict(options, **{"row-tracking.enabled": "true",
                                   "data-evolution.enabled": "true",
                                   "deletion-vectors.enabled": "true"})
    name = f"db.t{number}"
    catalog.create_table(name, Schema.from_pyarrow_schema(
        data.schema, partition_keys=["part"] if partitioned else None, options=options), False)
    third = rows // 3
    write_table(catalog.get_table(name), data.slice(0, third))
    renamed = {}
    # pypaimon's rename leaves `file-index.*.columns` as they were: rename an unindexed one.
    indexed = {entry.split("[")[0] for key, value in options.items()
               if key.endswith(".columns") for entry in value.split(",")}
    unindexed = [c.name for c in columns if c.name not in indexed]
    if unindexed and rng.random() < 0.6:
        old = rng.choice(unindexed)
        renamed[old] = old + "_r"
        catalog.alter_table(name, [SchemaChange.rename_column(old, old + "_r"),
                                   SchemaChange.add_column("added", AtomicType("BIGINT"))],
                            False)
        data = data.rename_columns([renamed.get(n, n) for n in data.column_names])
        data = data.append_column("added", pa.array(range(rows), pa.int64()))
    table = catalog.get_table(name)
    write_table(table, data.slice(third, third))
    write_table(table, data.slice(2 * third))
    if deletes:
        writer = catalog.get_table(name).new_batch_write_builder()
        commit = writer.new_commit()
        commit.commit(writer.new_update().delete_by_row_id(rng.sample(range(rows), rows // 10)))
        commit.close()
    return catalog.get_table(name), columns, renamed


@pytest.mark.parametrize("seed,exact_ranges", [(43, False), (2026, False), (7, False),
                                                (12, True), (11, True)])
def test_random_tables_prune_like_unpruned_reads(tmp_path, monkeypatch, seed, exact_ranges):
    """`exact_ranges`: every selective answer goes to the reader as exact row ranges (no
    coalescing, no share or count limit), so the range paths see every kind of table."""
    from spark_random_tables import random_predicate

    from pyfileindex.paimon import splits as splits_module
    if exact_ranges:
        monkeypatch.setattr(splits_module, "RANGE_GAP_ROWS", 1)
        monkeypatch.setattr(splits_module, "MAX_RANGE_SHARE", 1.0)
        monkeypatch.setattr(splits_module, "MAX_RANGES_PER_FILE", 10 ** 9)
    rng = random.Random(seed)
    catalog = _catalog(tmp_path)
    checked = skipped_files = carried = 0
    for number in range(4):
        table, columns, renamed = _random_table(catalog, rng, number)
        plain = [c for c in columns if c.kind != "map"]  # pypaimon filters no map entries
        if not plain:
            continue
        for _ in range(10):
            builder = table.new_read_builder()
            predicate = _to_pypaimon(random_predicate(rng, plain), builder.new_predicate_builder(),
                                     renamed)
            builder.with_filter(predicate)
            got, splits = pruned(builder)
            assert _text_rows(got) == _text_rows(unpruned(builder)), (predicate,
                                                                      splits.summary())
            checked += 1
            skipped_files += splits.files_skipped
            carried += sum(type(s).__name__ == "IndexedSplit" for s in splits)
    assert checked >= 20
    assert skipped_files > 0  # the indexes did prune somewhere
    if exact_ranges:
        assert carried > 0


def test_float_zeros_nan_and_fine_literals_prune_like_pypaimon_reads(tmp_path):
    """pypaimon's reader compares -0.0 equal to 0.0 and NaN unordered; Paimon's index
    order does not. Pruning must still keep every row pypaimon's filter keeps."""
    from pypaimon import Schema
    schema = pa.schema([("f", pa.float32()), ("d", pa.float64()), ("t", pa.timestamp("ms")),
                        ("n", pa.int32())])
    catalog = _catalog(tmp_path)
    catalog.create_table("db.edges", Schema.from_pyarrow_schema(schema, options={
        "file-index.bitmap.columns": "f,t", "file-index.range-bitmap.columns": "d"}), False)
    table = catalog.get_table("db.edges")
    base = datetime.datetime(2020, 1, 1)
    groups = [[0.0], [-0.0], [float("nan")], [0.1, 2.5]]
    for n, values in enumerate(groups):  # one data file per group
        write_table(table, pa.table({
            "f": pa.array(values, pa.float32()), "d": pa.array(values, pa.float64()),
            "t": pa.array([base + datetime.timedelta(milliseconds=n)] * len(values),
                          pa.timestamp("ms")),
            "n": pa.array([n] * len(values), pa.int32())}, schema=schema))
    fine = base + datetime.timedelta(microseconds=1500)
    cases = [("equal", ("d", 0.0)), ("equal", ("d", -0.0)), ("less_or_equal", ("d", -0.0)),
             ("greater_or_equal", ("f", 0.0)), ("not_equal", ("d", float("nan"))),
             ("is_in", ("f", [0.0, 2.5])), ("is_not_in", ("d", [-0.0])),
             ("between", ("d", -0.0, 0.0)), ("equal", ("f", 0.1)), ("equal", ("d", 0.1)),
             ("greater_than", ("d", 1)), ("equal", ("t", fine)),
             ("less_or_equal", ("t", fine)), ("greater_than", ("t", fine))]
    skipped = 0
    for method, args in cases:
        builder = _builder(table, method, *args)
        got, splits = pruned(builder)
        assert _text_rows(got) == _text_rows(unpruned(builder)), (method, args,
                                                                  splits.summary())
        skipped += splits.files_skipped
    assert skipped > 0


def test_partition_filter_and_filter_together(tmp_path):
    from pypaimon import Schema
    schema = EVENT_SCHEMA.append(pa.field("day", pa.int32()))
    catalog = _catalog(tmp_path)
    catalog.create_table("db.parts", Schema.from_pyarrow_schema(
        schema, partition_keys=["day"], options=INDEXES), False)
    table = catalog.get_table("db.parts")
    for day in (1, 2):
        for start in (0, 200):
            rows = events(day * 1000 + start, 200)
            write_table(table, rows.append_column("day", pa.array([day] * 200, pa.int32())))
    builder = table.new_read_builder()
    pb = builder.new_predicate_builder()
    builder.with_partition_filter(pb.equal("day", 2))
    builder.with_filter(pb.is_in("id", [1005, 2005, 2250]))
    got, splits = pruned(builder)
    assert sorted(got.column("id").to_pylist()) == [2005, 2250]
    assert _text_rows(got) == _text_rows(unpruned(builder))
    assert splits.plan.files_total == 2 and splits.files_skipped == 0  # one id per file
    builder.with_filter(pb.equal("id", 2005))
    got, splits = pruned(builder)
    assert got.column("id").to_pylist() == [2005] and splits.files_skipped == 1


def test_data_evolution_rows_go_to_the_reader_as_row_ids(tmp_path):
    """Row-tracked data-evolution table with rows deleted through deletion vectors."""
    from pypaimon import Schema
    catalog = _catalog(tmp_path)
    options = dict(INDEXES, **{"row-tracking.enabled": "true", "data-evolution.enabled": "true",
                               "deletion-vectors.enabled": "true"})
    catalog.create_table("db.de", Schema.from_pyarrow_schema(EVENT_SCHEMA, options=options),
                         False)
    for start in (0, 300):
        write_table(catalog.get_table("db.de"), events(start, 300))
    writer = catalog.get_table("db.de").new_batch_write_builder()
    commit = writer.new_commit()
    commit.commit(writer.new_update().delete_by_row_id([101, 350]))
    commit.close()
    table = catalog.get_table("db.de")
    builder = _builder(table, "between", "id", 100, 103)
    got, splits = pruned(builder)
    assert sorted(got.column("id").to_pylist()) == [100, 102, 103]  # 101 deleted
    assert _text_rows(got) == _text_rows(unpruned(builder))
    assert splits.files_skipped == 1
    (split,) = splits
    assert [(r.from_, r.to) for r in split.row_ranges()] == [(100, 103)]


# ---------------------------------------------------------------- other readers of pruned splits

def _brute_force_ids(table, method, args) -> list:
    everything = unpruned(table.new_read_builder())
    rows = [dict(zip(everything.column_names, r))
            for r in zip(*(c.to_pylist() for c in everything.columns))]
    return sorted(row["id"] for row in rows if _holds(method, args, row))


DUCKDB_LEAVES = [("equal", ("id", 17)), ("between", ("id", 100, 120)),
                 ("is_in", ("category", ["c1", "c3"])), ("startswith", ("tag", "t1")),
                 ("and_predicates", ([("equal", ("level", 3)), ("greater_than", ("id", 450))],))]


@pytest.mark.parametrize("method,args", DUCKDB_LEAVES, ids=[m for m, _ in DUCKDB_LEAVES])
def test_to_duckdb_on_pruned_splits_equals_brute_force(events_table, method, args):
    """pypaimon's to_duckdb registers the pruned read as a DuckDB table: SQL over it sees
    exactly the rows the filter selects."""
    builder = events_table.new_read_builder()
    builder.with_filter(_build(builder.new_predicate_builder(), method, args))
    splits = prune(builder)
    want = _brute_force_ids(events_table, method, args)
    con = builder.new_read().to_duckdb(splits, "events")
    got = [row[0] for row in con.execute("SELECT id FROM events ORDER BY id").fetchall()]
    assert got == want, splits.summary()
    count, total = con.execute("SELECT count(*), coalesce(sum(id), 0) FROM events").fetchone()
    assert (count, total) == (len(want), sum(want))
    if (method, args) in POINT_LEAVES:
        assert splits.files_skipped == 2, splits.summary()


# Ray must stay inside the test: no usage reporting, no auth token in the home directory, one
# CPU, no dashboard, its session directory under pytest's temporary directory (not /tmp/ray).
RAY_ENV = {"RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled"}
RAY_OBJECT_STORE_BYTES = 80 * 1024 * 1024  # Ray's minimum is 75 MiB


@pytest.fixture(scope="module")
def local_ray(tmp_path_factory):
    """A one-CPU Ray on loopback for this module's tests, shut down and its session directory
    removed afterwards."""
    saved = {key: os.environ.get(key) for key in RAY_ENV}
    os.environ.update(RAY_ENV)
    import ray
    temp_dir = tmp_path_factory.mktemp("ray")
    ray.init(num_cpus=1, include_dashboard=False, _node_ip_address="127.0.0.1",
             object_store_memory=RAY_OBJECT_STORE_BYTES, _temp_dir=str(temp_dir),
             log_to_driver=False, configure_logging=False)
    try:
        ray.data.DataContext.get_current().enable_progress_bars = False
        yield ray
    finally:
        ray.shutdown()
        shutil.rmtree(temp_dir, ignore_errors=True)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


RAY_LEAVES = [("equal", ("id", 17)), ("between", ("id", 100, 120)),
              ("and_predicates", ([("startswith", ("tag", "t1")), ("between", ("id", 610, 700))],))]


def test_to_ray_reads_pruned_splits_like_the_unpruned_read(events_table, local_ray):
    """pypaimon's to_ray reads the pruned splits (IndexedSplits with row ranges) in Ray's
    read tasks: the dataset holds the unpruned read's rows, and files were skipped."""
    for method, args in RAY_LEAVES:
        builder = events_table.new_read_builder().with_projection(["id", "category", "tag"])
        builder.with_filter(_build(builder.new_predicate_builder(), method, args))
        splits = prune(builder)
        assert splits.files_skipped == 2, (method, splits.summary())
        assert {type(s).__name__ for s in splits} == {"IndexedSplit"}, splits.summary()
        dataset = builder.new_read().to_ray(splits)
        got = pa.concat_tables(local_ray.get(dataset.to_arrow_refs()))
        want = unpruned(builder)
        assert want.num_rows > 0, method
        assert got.column_names == want.column_names
        assert _text_rows(got) == _text_rows(want), (method, splits.summary())


@pytest.fixture
def native_reads(monkeypatch):
    """Counts pypaimon's native (pypaimon-rust) reads, and fails any fallback of a table with
    read.native.enabled to pypaimon's Python reader: a test of the native path must not pass
    on the Python one."""
    from pypaimon.read import native_plan
    from pypaimon.read.table_read import TableRead

    calls = []
    real = native_plan.native_read

    def counted(*args, **kwargs):
        calls.append(len(args[1]))  # the Rust splits read
        return real(*args, **kwargs)

    fallback = TableRead._native_fallback

    def refuse(self, reason, error=None, log=False):
        if self.table.options.native_read_enabled():
            raise AssertionError(f"the native reader fell back to Python: {reason}")
        return fallback(self, reason, error, log)  # a table read without it: Python's reader

    monkeypatch.setattr(native_plan, "native_read", counted)
    monkeypatch.setattr(TableRead, "_native_fallback", refuse)
    return calls


NATIVE_LEAVES = LEAVES[:13] + [("startswith", ("tag", "t1")), LEAVES[-1]]


@pytest.mark.parametrize("method,args", NATIVE_LEAVES, ids=[m for m, _ in NATIVE_LEAVES])
def test_native_reader_reads_pruned_splits_like_brute_force(events_table, native_reads,
                                                           method, args):
    """With pypaimon-rust and read.native.enabled, pypaimon's native reader reads the pruned
    splits (IndexedSplits with row ranges included) and returns the filter's rows."""
    native = events_table.copy({"read.native.enabled": "true"})
    builder = native.new_read_builder()
    builder.with_filter(_build(builder.new_predicate_builder(), method, args))
    splits = prune(builder)
    got = builder.new_read().to_arrow(splits)
    assert sorted(got.column("id").to_pylist()) == _brute_force_ids(events_table, method, args)
    if len(splits):
        assert native_reads == [len(splits)], splits.summary()
    if (method, args) in POINT_LEAVES:
        assert splits.files_skipped == 2, splits.summary()
        assert [type(s).__name__ for s in splits] == ["IndexedSplit"]


def test_native_reader_honours_projection_and_limit_on_pruned_splits(events_table,
                                                                     native_reads):
    native = events_table.copy({"read.native.enabled": "true"})
    builder = native.new_read_builder().with_projection(["tag", "id"])
    pb = builder.new_predicate_builder()
    builder.with_filter(pb.or_predicates([pb.equal("id", 17), pb.equal("id", 650)]))
    splits = prune(builder)
    got = builder.new_read().to_arrow(splits)
    assert got.column_names == ["tag", "id"]
    assert sorted(got.column("id").to_pylist()) == [17, 650]
    assert splits.files_skipped == 1 and native_reads == [len(splits)]

    limited = native.new_read_builder().with_limit(3)
    limited.with_filter(limited.new_predicate_builder().equal("category", "c4"))
    got = limited.new_read().to_arrow(prune(limited))
    assert got.num_rows == 3 and set(got.column("category").to_pylist()) == {"c4"}
