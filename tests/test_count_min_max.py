"""IS NAN / IS NOT NAN, COUNT from indexes and MIN/MAX from range-bitmap indexes: every answer
checked against brute force (pyarrow over the rows) on random columns (NULLs, NaN of several
bit patterns, both zeros, infinities), deleted rows, and the Java-written golden tables."""

import math
import random
import struct
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from pyroaring import BitMap

sys.path.insert(0, str(Path(__file__).resolve().parent))
from golden_tables import table_dir  # noqa: E402
from spark_random_tables import KINDS, random_predicate, random_table  # noqa: E402

import pyfileindex as pfi  # noqa: E402
from pyfileindex.paimon import count_rows, min_max, plan_read, read_plan, write_table  # noqa: E402
from pyfileindex.paimon.arrow_filter import predicate_mask  # noqa: E402
from pyfileindex.paimon.extremes import column_min_max  # noqa: E402
from pyfileindex.paimon.predicates import bind_to_schema  # noqa: E402
from pyfileindex.paimon.table import open_metadata  # noqa: E402
from pyfileindex.predicate import (  # noqa: E402
    Leaf,
    PredicateError,
    bind_predicate,
    col,
    parse_predicate,
)

PAIMON_TYPES = {"tinyint": "TINYINT", "int": "INT", "bigint": "BIGINT", "string": "STRING",
                "double": "DOUBLE", "float": "FLOAT", "boolean": "BOOLEAN", "date": "DATE",
                "timestamp": "TIMESTAMP(6)", "decimal": "DECIMAL(10, 2)"}
NAN_PATTERNS = [0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000001, 0x7FF8DEAD0000BEEF]


def _nan(bits: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def _count(table: pa.Table, predicate, deleted=frozenset()) -> int:
    """Brute force: rows where the exact Arrow filter keeps the row, deleted rows left out."""
    mask = predicate_mask(table, predicate).to_pylist()
    return sum(1 for row, keep in enumerate(mask) if keep and row not in deleted)


def _indexed_random(seed: int):
    """A random table of plain columns with every index type each column takes, its fields
    and the reader over one container of them."""
    rng = random.Random(seed)
    while True:
        data, columns, _ = random_table(rng, rng.choice([300, 2000]))
        columns = [c for c in columns if c.kind != "map"]
        if columns:
            break
    data = data.select([c.name for c in columns])
    fields = [(c.name, PAIMON_TYPES[c.kind]) for c in columns]
    declared = {}
    for c in columns:
        for index_type in KINDS[c.kind][1]:
            declared.setdefault(index_type, []).append(c.name)
    return rng, data, columns, fields, declared


def test_index_count_is_exact_or_none():
    answered = {}
    for seed in range(1, 9):
        rng, data, columns, fields, declared = _indexed_random(seed)
        deleted = frozenset(rng.sample(range(data.num_rows), data.num_rows // 7))
        exclusions = [None, BitMap(deleted), np.array(sorted(deleted), np.uint32),
                      BitMap(deleted).serialize()]
        for index_type, names in sorted(declared.items()):
            writer = pfi.IndexWriter(fields,
                                     {f"file-index.{index_type}.columns": ",".join(names)})
            writer.write(data)
            reader = pfi.IndexReader(writer.finish(), fields, data.num_rows)
            plain = [c for c in columns if c.name in names]
            for _ in range(40):
                try:
                    predicate = bind_predicate(random_predicate(rng, plain), fields)
                except PredicateError:
                    continue
                for exclude in exclusions:
                    counted = reader.count(predicate, exclude=exclude)
                    if counted is None:
                        continue
                    answered[index_type] = answered.get(index_type, 0) + 1
                    gone = deleted if exclude is not None else frozenset()
                    assert counted == _count(data, predicate, gone), (index_type, predicate)
    # Exact index types answer many questions; a bloom filter only its SKIPs.
    assert {"bitmap", "range-bitmap", "bsi"} <= set(answered), answered


def test_the_random_columns_cover_every_index_type():
    seen = set()
    for seed in range(1, 9):
        seen.update(_indexed_random(seed)[4])
    assert {"bitmap", "range-bitmap", "bsi", "bloom-filter"} <= seen


def _float_table(arrow_type=pa.float64()):
    rng = random.Random(11)
    specials = [_nan(b) for b in NAN_PATTERNS] + [0.0, -0.0, math.inf, -math.inf, 1.5, -7.25]
    values = [None if rng.random() < 0.15 else rng.choice(specials) for _ in range(3000)]
    return pa.table({"x": pa.array(values, arrow_type)})


@pytest.mark.parametrize("type_text,arrow_type", [("DOUBLE", pa.float64()),
                                                  ("FLOAT", pa.float32())])
@pytest.mark.parametrize("index_type", ["bitmap", "range-bitmap", "bloom-filter"])
def test_is_nan_answers_exactly_from_indexes_holding_nan(type_text, arrow_type, index_type):
    table = _float_table(arrow_type)
    raw = table.column("x").to_numpy(zero_copy_only=False)
    assert len({struct.pack("<d", v) for v in raw if v is not None and math.isnan(v)}) > 1
    writer = pfi.IndexWriter([("x", type_text)], {f"file-index.{index_type}.columns": "x"})
    writer.write(table)
    reader = pfi.IndexReader(writer.finish(), [("x", type_text)], table.num_rows)
    deleted = frozenset(range(0, table.num_rows, 5))
    for leaf in (col("x").is_nan(), col("x").is_not_nan()):
        want = [i for i, keep in enumerate(predicate_mask(table, leaf).to_pylist()) if keep]
        answer = reader.evaluate(leaf)
        counted = reader.count(leaf, exclude=BitMap(deleted))
        if index_type == "bloom-filter":
            assert answer.kind == ("REMAIN" if want else "SKIP")
            assert counted is None
            continue
        assert answer.row_ids().tolist() == want, leaf
        assert counted == len(set(want) - deleted)


def test_bloom_filter_skips_is_nan_when_no_row_is_nan():
    table = pa.table({"x": pa.array([1.0, None, -0.0, math.inf] * 50, pa.float64())})
    writer = pfi.IndexWriter([("x", "DOUBLE")], {"file-index.bloom-filter.columns": "x"})
    writer.write(table)
    reader = pfi.IndexReader(writer.finish(), [("x", "DOUBLE")])
    assert reader.evaluate(col("x").is_nan()).kind == "SKIP"
    assert reader.count(col("x").is_nan()) == 0
    assert reader.evaluate(col("x").is_not_nan()).kind == "REMAIN"


def test_is_nan_text_dsl_negation_and_types():
    tree = parse_predicate("x IS NAN AND NOT (y IS NOT NAN) OR z is nan")
    assert tree.to_sql() == "(x IS NAN AND y IS NAN) OR z IS NAN"
    assert parse_predicate(tree.to_sql()) == tree
    assert parse_predicate("x IS NOT NAN") == col("x").is_not_nan() == ~col("x").is_nan()
    assert parse_predicate('"nan" IS NAN') == Leaf("is_nan", "nan")
    with pytest.raises(PredicateError, match="IS"):
        parse_predicate('x IS "NAN"')  # a quoted name is a column, not the keyword
    with pytest.raises(PredicateError, match="FLOAT or DOUBLE"):
        parse_predicate("i IS NAN", [("i", "INT")])
    with pytest.raises(PredicateError, match="literal"):
        Leaf("is_nan", "x", [1.0])
    bound = parse_predicate("d IS NOT NAN", [("d", "DOUBLE")])
    assert bound == Leaf("is_not_nan", "d")


def _order_key(value):
    if isinstance(value, float):
        return (math.isnan(value), 0.0 if math.isnan(value) else value,
                math.copysign(1.0, value) > 0)
    return value


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return struct.pack("<d", a) == struct.pack("<d", b) or (math.isnan(a) and math.isnan(b))
    return a == b


def test_index_min_max_matches_brute_force():
    checked = set()
    for seed in range(1, 9):
        rng, data, columns, fields, declared = _indexed_random(seed)
        names = declared.get("range-bitmap", [])
        if not names:
            continue
        writer = pfi.IndexWriter(fields, {"file-index.range-bitmap.columns": ",".join(names)})
        writer.write(data)
        reader = pfi.IndexReader(writer.finish(), fields, data.num_rows)
        kinds = {c.name: c.kind for c in columns}
        for selection in (None, BitMap(rng.sample(range(data.num_rows), data.num_rows // 3)),
                          BitMap(rng.sample(range(data.num_rows), 2)), BitMap()):
            for name in names:
                rows = range(data.num_rows) if selection is None else sorted(selection)
                values = data.column(name).take(pa.array(list(rows), pa.int64()))
                want = column_min_max(values)
                got = reader.min_max(name, selection=selection)
                checked.add(kinds[name])
                if want is None:
                    assert got is None, name
                    continue
                assert got is not None, name
                assert all(_same(g, w) for g, w in zip(got, want)), (name, got, want)
        with pytest.raises(pfi.IndexNotFoundError):
            reader.min_max("no such column")
    assert {"int", "string", "double"} <= checked, checked


def test_column_min_max_orders_floats_as_java():
    rng = random.Random(3)
    specials = [_nan(NAN_PATTERNS[0]), 0.0, -0.0, math.inf, -math.inf, 1.5, -7.25]
    for _ in range(200):
        values = [rng.choice(specials + [None]) for _ in range(rng.randint(0, 6))]
        plain = [v for v in values if v is not None]
        got = column_min_max(pa.array(values, pa.float64()))
        if not plain:
            assert got is None
            continue
        want = (min(plain, key=_order_key), max(plain, key=_order_key))
        assert all(_same(g, w) for g, w in zip(got, want)), (values, got)


def test_min_max_of_nan_zeros_follows_java_order():
    table = pa.table({"x": pa.array([0.0, None, -0.0, 2.5, _nan(NAN_PATTERNS[1])], pa.float64())})
    writer = pfi.IndexWriter([("x", "DOUBLE")], {"file-index.range-bitmap.columns": "x"})
    writer.write(table)
    reader = pfi.IndexReader(writer.finish(), [("x", "DOUBLE")])
    low, high = reader.min_max("x")
    assert low == 0.0 and math.copysign(1, low) < 0 and math.isnan(high)
    low, high = reader.min_max("x", selection=[0, 1, 3])
    assert (low, high) == (0.0, 2.5) and math.copysign(1, low) > 0
    assert reader.min_max("x", selection=[1]) is None


# ---- the table layer ---------------------------------------------------------------------

def _live_table(table):
    """Every live row of the table (read_plan without a predicate: trusted elsewhere)."""
    return read_plan(plan_read(table, None))


GOLDEN_COUNTS = {
    "append_with_bitmap": ["f0 = 'Bob'", "f1 IN (10, 30)", "f2 IS NULL", "f0 <> 'Tony'",
                           "f0 NOT IN ('Bob', 'Alice')", "f0 = 'Bob' OR f2 IS NULL",
                           "f3 > 15.0 AND f1 = 20", "f3 IS NAN", "f3 IS NOT NAN"],
    "append_with_bitmap_no_embedding": ["f1 = 20", "f2 IS NOT NULL", "f0 = 'Nobody'"],
    "append_with_bsi": ["f1 > 100", "f2 BETWEEN -2 AND 1", "f4 IS NULL", "f1 <> 100",
                        "f4 > TIMESTAMP '2025-04-25 01:00:02.000123'"],
    "append_with_bsi_bitmap_bloomfilter": ["f0 = 'Bob'", "f1 = 100 AND f2 = 2",
                                           "f3 = 13.1 OR f1 = 500", "f4 IS NULL"],
    "append_with_bloomfilter": ["f0 = 'Bob'", "f0 = 'Nobody'"],
    "pk_with_bitmap_dv": ["f0 = 'Alice'", "f0 = 'Lucy'", "f1 = 20", "f2 IS NULL",
                          "key IN (0, 4, 5)", "f0 IN ('Alice', 'Lucy', 'Bob')"],
    "append_with_bitmap_alter_table": ["f4 = 'Bob'", "f1 IN (20, 30)", "f5 IS NULL",
                                       "f4 = 'David' OR f1 = 20"],
    "data_evolution_with_index": ["f2 = 104", "f2 IN (202, 12)", "f0 = 'Bob'"],
}


@pytest.mark.parametrize("name", sorted(GOLDEN_COUNTS))
def test_golden_counts_match_brute_force(name):
    table = str(table_dir(name))
    live = _live_table(table)
    schema = open_metadata(table).schema()
    whole = count_rows(table)
    assert whole.count == live.num_rows
    if name != "data_evolution_with_index":
        assert whole.files_read == 0  # manifest counts less deletion vectors
    for text in GOLDEN_COUNTS[name]:
        result = count_rows(table, text)
        assert result.count == _count(live, bind_to_schema(text, schema)), (name, text)
        assert result.files_from_index + result.files_read == result.files_total


def test_golden_pk_dv_counts_from_the_bitmap_alone():
    table = str(table_dir("pk_with_bitmap_dv"))
    result = count_rows(table, "f0 = 'Alice'")  # rows 0 (deleted) and 7
    assert (result.count, result.files_read, result.files_from_index) == (1, 0, 1)
    assert count_rows(table, "f0 = 'Lucy'").count == 0  # only the deleted row 4
    assert count_rows(table).count == 6


GOLDEN_MIN_MAX = ["append_with_bitmap", "append_with_bsi", "pk_with_bitmap_dv",
                  "append_with_bitmap_alter_table", "data_evolution_with_index"]


@pytest.mark.parametrize("name", GOLDEN_MIN_MAX)
def test_golden_min_max_matches_brute_force(name):
    table = str(table_dir(name))
    live = _live_table(table)
    for field in open_metadata(table).schema().fields:
        if field.type.startswith(("MAP", "ARRAY", "ROW")):
            continue
        got = min_max(table, field.name)
        want = column_min_max(live.column(field.name))
        assert (got.min, got.max) == (want if want is not None else (None, None)), field.name
        assert got.files_from_index + got.files_read == got.files_total


def _write_random_table(tmp_path, seed):
    """An append table of several data files with indexes (pyfileindex's writer)."""
    from pypaimon import CatalogFactory, Schema
    rng, data, columns, fields, declared = _indexed_random(seed)
    catalog = CatalogFactory.create({"warehouse": str(tmp_path / "warehouse")})
    catalog.create_database("db", True)
    options = {f"file-index.{t}.columns": ",".join(n) for t, n in declared.items()}
    catalog.create_table(f"db.t{seed}", Schema.from_pyarrow_schema(data.schema, options=options),
                         False)
    table = catalog.get_table(f"db.t{seed}")
    step = max(1, data.num_rows // 4)
    for start in range(0, data.num_rows, step):
        write_table(table, data.slice(start, step))
    return rng, catalog.get_table(f"db.t{seed}"), columns, fields, declared


@pytest.mark.parametrize("seed", [21, 22, 23])
def test_random_table_counts_and_min_max_match_brute_force(tmp_path, seed):
    rng, table, columns, fields, declared = _write_random_table(tmp_path, seed)
    live = _live_table(table)
    schema = open_metadata(table).schema()
    assert count_rows(table).count == live.num_rows
    from_index = 0
    for _ in range(25):
        try:
            predicate = bind_to_schema(random_predicate(rng, columns), schema)
        except PredicateError:
            continue
        result = count_rows(table, predicate)
        assert result.count == _count(live, predicate), predicate
        assert result.count == read_plan(plan_read(table, predicate)).num_rows
        from_index += result.files_from_index
    for name in declared.get("range-bitmap", []):
        got = min_max(table, name)
        want = column_min_max(live.column(name)) or (None, None)
        assert all(_same(g, w) for g, w in zip((got.min, got.max), want)), name
        assert got.files_read == 0
    assert from_index > 0


def test_count_rows_of_a_table_without_indexes_reads_every_file(tmp_path):
    from pypaimon import CatalogFactory, Schema
    catalog = CatalogFactory.create({"warehouse": str(tmp_path / "warehouse")})
    catalog.create_database("db", True)
    data = pa.table({"n": pa.array(range(100), pa.int64()),
                     "d": pa.array([float("nan") if i % 3 == 0 else i for i in range(100)])})
    catalog.create_table("db.plain", Schema.from_pyarrow_schema(data.schema), False)
    for start in (0, 50):
        write_table(catalog.get_table("db.plain"), data.slice(start, 50))
    table = catalog.get_table("db.plain")
    result = count_rows(table, "d IS NAN")
    assert (result.count, result.files_read, result.files_from_index) == (34, 2, 0)
    assert count_rows(table).files_read == 0
    extremes = min_max(table, "n")
    assert (extremes.min, extremes.max, extremes.files_read) == (0, 99, 2)
    with pytest.raises(ValueError, match="not in the table"):
        min_max(table, "nope")
    assert pc.sum(predicate_mask(data, col("d").is_not_nan())).as_py() == 66


def test_the_benchmark_answers_equal_pyarrow(tmp_path, capsys):
    """benchmarks/count_min_max.py at a tiny size: every indexed answer equals pyarrow's."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import count_min_max as bench
    status = bench.main(["--files", "3", "--rows-per-file", "3000", "--repeat", "1",
                         "--warehouse", str(tmp_path / "warehouse")])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "DIFFERENT" not in out and "COUNT x IS NAN" in out


def test_bad_exclusions_and_selections_raise_clear_errors():
    table = pa.table({"x": pa.array([1, 2, None], pa.int32())})
    writer = pfi.IndexWriter([("x", "INT")], {"file-index.range-bitmap.columns": "x"})
    writer.write(table)
    reader = pfi.IndexReader(writer.finish(), [("x", "INT")], 3)
    with pytest.raises(pfi.FileIndexError, match="empty byte string"):
        reader.count(col("x") == 1, exclude=b"")
    with pytest.raises(pfi.CorruptIndexError):
        reader.count(col("x") == 1, exclude=b"\x01\x02\x03")
    with pytest.raises(pfi.FileIndexError, match="outside"):
        reader.min_max("x", selection=[-1])
    assert reader.count(col("x") == 1, exclude=[0]) == 0
    assert reader.min_max("x", selection=[1, 2]) == (2, 2)


def test_count_rows_takes_pypaimon_predicates():
    """A pypaimon predicate with a leaf no index answers (startsWith): only index answers of
    "no row matches" count without a read; the rest is read and filtered exactly."""
    from pyfileindex.paimon.table import open_metadata as open_meta
    table = open_meta(str(table_dir("append_with_bitmap"))).table
    builder = table.new_read_builder().new_predicate_builder()
    live = _live_table(table)
    bob = count_rows(table, builder.equal("f0", "Bob"))
    assert (bob.count, bob.files_read) == (2, 0)
    mixed = builder.and_predicates([builder.equal("f1", 10), builder.startswith("f0", "B")])
    result = count_rows(table, mixed)
    want = sum(1 for f0, f1 in zip(live.column("f0").to_pylist(), live.column("f1").to_pylist())
               if f1 == 10 and f0 is not None and f0.startswith("B"))
    assert result.count == want == 2
    none = count_rows(table, builder.and_predicates([builder.equal("f0", "Nobody"),
                                                      builder.startswith("f0", "N")]))
    assert (none.count, none.files_read) == (0, 0)
