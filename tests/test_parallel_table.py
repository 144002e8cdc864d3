"""The table layer's worker pools answer as one worker does.

Planning, reading, counting, min/max, the index report and a rewrite each hand a table's
data files to a thread pool, where the native readers and writers run side by side without
the GIL. Every answer here is compared with the same call on one worker and with brute force.
`./dev test` also runs this file under ThreadSanitizer (the extension built in its TSan
tree), which is where a data race between those threads would show.
"""

from __future__ import annotations

import pyarrow.compute as pc
import pytest

from pyfileindex.paimon import (
    PaimonTableMetadata,
    build_file_index,
    count_rows,
    index_report,
    min_max,
    plan_read,
    read_plan,
    rewrite_file_index,
    write_table,
)
from pyfileindex.paimon import _pypaimon

from event_rows import UNTIMED_SCHEMA as SCHEMA
from event_rows import untimed_events as events

FILES = 6
ROWS_PER_FILE = 40
WORKERS = 4
PREDICATES = ["level = 3", "category = 'c2'", "level >= 5", "level IN (1, 4) OR category = 'c0'"]


@pytest.fixture
def catalog(tmp_path):
    """A warehouse holding db.t in FILES data files, each with sidecar indexes (bitmap,
    range bitmap, bloom filter)."""
    from pypaimon import CatalogFactory, Schema

    catalog = CatalogFactory.create({"warehouse": str(tmp_path / "warehouse")})
    catalog.create_database("db", True)
    catalog.create_table("db.t", Schema.from_pyarrow_schema(SCHEMA, options={
        "file-index.bitmap.columns": "category",
        "file-index.range-bitmap.columns": "level",
        "file-index.bloom-filter.columns": "id",
        "file-index.in-manifest-threshold": "1b"}), False)
    for number in range(FILES):
        write_table(catalog.get_table("db.t"), events(number * ROWS_PER_FILE, ROWS_PER_FILE))
    return catalog


@pytest.fixture
def table(catalog):
    return catalog.get_table("db.t")


def _ids(data):
    return sorted(data.column("id").to_pylist())


def _brute_force_ids(table, predicate):
    everything = _pypaimon.read_merged(table, None, SCHEMA.names)
    level, category = everything["level"], everything["category"]
    keep = {
        "level = 3": pc.equal(level, 3),
        "category = 'c2'": pc.equal(category, "c2"),
        "level >= 5": pc.greater_equal(level, 5),
        "level IN (1, 4) OR category = 'c0'": pc.or_(
            pc.is_in(level, value_set=pc.cast([1, 4], level.type)), pc.equal(category, "c0")),
    }[predicate]
    return _ids(everything.filter(keep))


def _plan_facts(plan):
    return [(f.file.file_name, f.skipped, f.answer,
             None if f.selection is None else f.selection.tolist()) for f in plan.files]


def test_the_table_has_the_files_the_pools_split(table):
    meta = PaimonTableMetadata(table=table)
    files = meta.data_files()
    assert len(files) == FILES
    assert all(f.index_file_names for f in files)


@pytest.mark.parametrize("predicate", PREDICATES)
def test_plans_and_reads_on_a_pool_equal_one_worker(table, predicate):
    meta = PaimonTableMetadata(table=table)
    serial = plan_read(meta, predicate, max_workers=1)
    pooled = plan_read(meta, predicate, max_workers=WORKERS)
    assert _plan_facts(pooled) == _plan_facts(serial)
    assert any(f.answer in ("ROWS", "SKIP") for f in pooled.files)  # the indexes answered
    want = _brute_force_ids(table, predicate)
    assert _ids(read_plan(pooled, max_workers=WORKERS)) == want
    assert _ids(read_plan(serial, max_workers=1)) == want


@pytest.mark.parametrize("predicate", PREDICATES)
def test_counts_on_a_pool_equal_one_worker(table, predicate):
    meta = PaimonTableMetadata(table=table)
    pooled = count_rows(meta, predicate, max_workers=WORKERS)
    serial = count_rows(meta, predicate, max_workers=1)
    assert pooled == serial
    assert pooled.count == len(_brute_force_ids(table, predicate))


def test_min_max_on_a_pool_equals_one_worker(table):
    meta = PaimonTableMetadata(table=table)
    pooled = min_max(meta, "level", max_workers=WORKERS)
    assert pooled == min_max(meta, "level", max_workers=1)
    assert (pooled.min, pooled.max) == (0, 6)
    assert pooled.files_from_index == FILES  # every file answered from its range bitmap


def test_index_report_on_a_pool_equals_one_worker(table):
    pooled = index_report(table, max_workers=WORKERS)
    serial = index_report(table, max_workers=1)
    assert [r.to_dict() for r in pooled] == [r.to_dict() for r in serial]
    assert len(pooled) == FILES


def test_rewrite_on_a_pool_builds_what_one_file_at_a_time_builds(catalog):
    from pypaimon.schema.schema_change import SchemaChange

    catalog.alter_table("db.t", [SchemaChange.set_option(
        "file-index.bitmap.columns", "category,level")], False)
    result = rewrite_file_index(catalog.get_table("db.t"), max_workers=WORKERS)
    assert result.files_rewritten == FILES
    meta = PaimonTableMetadata(table=catalog.get_table("db.t"))
    for data_file in meta.data_files():
        assert meta.index_bytes(data_file) == build_file_index(meta, data_file)
    for predicate in PREDICATES:
        plan = plan_read(meta, predicate, max_workers=WORKERS)
        assert _ids(read_plan(plan, max_workers=WORKERS)) == _brute_force_ids(
            meta.table, predicate)
