"""Issue 2 acceptance: every bitmap index Java wrote in the golden tables is read, answers equal
brute force over the data file, and rebuilding from Parquet with the CLI gives Java's bytes."""

from __future__ import annotations

import datetime as dt
import re

import pytest

import pyfileindex as pfi
from golden_tables import load_files, table_names
from pyfileindex.cli import main as cli_main
from pyfileindex.predicate import col

BITMAP_TABLES = [
    "append_with_bitmap",
    "append_with_bitmap_v1",
    "append_with_bitmap_no_embedding",
    "append_with_bitmap_alter_table",
    "append_with_bsi_bitmap_bloomfilter",
    "data_evolution_with_index",
    "pk_with_bitmap_dv",
]
REBUILT_TABLES = [
    "append_with_bitmap",
    "append_with_bitmap_v1",
    "append_with_bitmap_no_embedding",
    "pk_with_bitmap_dv",
    "append_with_bitmap_alter_table",
]


def bitmap_key(value, type_text: str):
    """The key Java's bitmap index files a value under (timestamps lose sub-key precision)."""
    if value is None:
        return None
    m = re.match(r"TIMESTAMP(?:_LTZ)?\((\d)\)", type_text)
    if m:
        precision = int(m.group(1))
        nanos = getattr(value, "value", None)  # pandas.Timestamp
        if nanos is None:
            delta = value - dt.datetime(1970, 1, 1)
            nanos = ((delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds) * 1000
        return nanos // 1_000_000 if precision <= 3 else nanos // 1000
    return value


def lossy_keys(type_text: str) -> bool:
    """TIMESTAMP(7..9) keys drop nanoseconds: a key's rows need not equal the literal."""
    m = re.match(r"TIMESTAMP(?:_LTZ)?\((\d)\)", type_text)
    return bool(m) and int(m.group(1)) > 6


def absent_value(type_text: str):
    if type_text.startswith(("STRING", "VARCHAR", "CHAR")):
        return "no-such-value"
    if type_text.startswith(("INT", "BIGINT", "SMALLINT", "TINYINT")):
        return 99
    return None


def types_of_column(reader, column):
    return [e.index_type for e in reader.entries if e.column == column]


def test_golden_bitmap_tables_exist():
    assert set(BITMAP_TABLES) <= set(table_names())


@pytest.mark.parametrize("table", BITMAP_TABLES)
def test_bitmap_answers_equal_brute_force(table):
    checked = 0
    for golden in load_files(table):
        assert golden.index_bytes is not None, f"{table}: {golden.data_path.name} has no index"
        reader = pfi.IndexReader(golden.index_bytes, golden.fields)
        types = dict(golden.fields)
        for entry in reader.entries:
            if entry.index_type != "bitmap":
                continue
            column = entry.column
            values = golden.rows[column]
            keys = [bitmap_key(v, types[column]) for v in values]
            all_rows = set(range(len(values)))
            null_rows = {i for i, k in enumerate(keys) if k is None}

            def rows_of(result):
                # Another index on the column (a bloom filter) may answer SKIP: no row.
                if result.kind == "SKIP":
                    return set()
                assert result.kind == "ROWS", result
                return set(int(r) for r in result.row_ids())

            assert rows_of(reader.evaluate(col(column).is_null())) == null_rows
            assert rows_of(reader.evaluate(col(column).is_not_null())) == all_rows - null_rows
            literals = [v for v in dict.fromkeys(values) if v is not None]
            missing = absent_value(types[column])
            if missing is not None:
                literals.append(missing)
            for literal in literals:
                key = bitmap_key(literal, types[column])
                matching = {i for i, k in enumerate(keys) if k is not None and k == key}
                exact = {i for i, v in enumerate(values) if v is not None and v == literal}
                eq = rows_of(reader.evaluate(col(column) == literal))
                assert eq == matching and exact <= eq, (table, column, literal)
                # The bitmap flips the equal rows for <> (null rows stay in); another index on
                # the column (bsi) may drop the null rows. Never a true match lost.
                ne = rows_of(reader.evaluate(col(column) != literal))
                true_ne = {i for i, k in enumerate(keys) if k is not None and k != key}
                assert true_ne <= ne, (table, column, literal)
                if not lossy_keys(types[column]):
                    assert ne <= all_rows - matching, (table, column, literal)
                if len(types_of_column(reader, column)) == 1 and not lossy_keys(types[column]):
                    assert ne == all_rows - matching
                checked += 1
            for pair in zip(literals, literals[1:]):
                key_set = {bitmap_key(v, types[column]) for v in pair}
                matching = {i for i, k in enumerate(keys) if k is not None and k in key_set}
                assert rows_of(reader.evaluate(col(column).isin(list(pair)))) == matching
                not_in = rows_of(reader.evaluate(col(column).not_in(list(pair))))
                true_not_in = {i for i, k in enumerate(keys) if k is not None and k not in key_set}
                assert true_not_in <= not_in
                if not lossy_keys(types[column]):
                    assert not_in <= all_rows - matching
    assert checked > 0


def test_deleted_keys_never_selected_with_deletion_vector():
    files = load_files("pk_with_bitmap_dv")
    deleted_keys = set()
    for golden in files:
        reader = pfi.IndexReader(golden.index_bytes, golden.fields)
        result = reader.evaluate(col("f1").isin([10, 20]))
        selected = set(int(r) for r in result.row_ids()) - golden.deleted_rows
        deleted_keys |= {golden.rows["key"][r] for r in golden.deleted_rows}
        assert all(golden.rows["key"][r] not in (0, 4) for r in selected)
    assert deleted_keys == {0, 4}


@pytest.mark.parametrize("table", REBUILT_TABLES)
def test_cli_rebuild_equals_java_bytes(table, tmp_path):
    for n, golden in enumerate(load_files(table)):
        out = tmp_path / f"{n}.index"
        code = cli_main(["build", str(golden.data_path), "--schema", str(golden.schema_path),
                         "-o", str(out)])
        assert code == 0
        assert out.read_bytes() == golden.index_bytes, f"{table}: {golden.data_path.name}"


def test_every_prefix_of_a_golden_index_is_rejected():
    golden = load_files("append_with_bitmap_no_embedding")[0]
    data = golden.index_bytes
    for cut in range(len(data)):
        # A strict prefix always cuts the last payload, which the header check catches.
        with pytest.raises(pfi.FileIndexError):
            pfi.IndexReader(data[:cut], golden.fields)
