"""pyfileindex plans tables Flink wrote with Paimon 2.0's connector (INSERT, indexes built by
Paimon's writer): its answers equal Flink's SELECT and brute force, it skips files by the
indexes Flink wrote, and those indexes are byte for byte what pyfileindex builds."""

from __future__ import annotations

import pytest

from event_tables import (
    FIELDS,
    brute_force,
    create_table,
    flink_insert_sequence,
    index_options,
    plain_rows,
    predicates,
    pyfileindex_rows,
    row_values,
    updated_rows,
)
from pyfileindex.paimon import PaimonTableMetadata, build_file_index, plan_read

pytestmark = pytest.mark.engine

INSERTS = [(0, 400), (400, 400), (800, 400)]
PK_ROWS, PK_UPDATED = 1200, 300


@pytest.fixture(scope="module")
def flink_tables(flink, catalog):
    """{name: (pypaimon table, partitioned, expected rows)}, all written by Flink INSERTs."""
    flink.execute("CREATE DATABASE IF NOT EXISTS flink_writes")
    tables = {}

    create_table(flink, "flink_writes.append_parted", index_options(), partitioned=True)
    for first, count in INSERTS:
        flink_insert_sequence(flink, "flink_writes.append_parted", first, count, partitioned=True)
    rows = [row_values(i) for i in range(INSERTS[-1][0] + INSERTS[-1][1])]
    tables["append_parted"] = (catalog.get_table("flink_writes.append_parted"), True, rows)

    options = index_options(extra={"deletion-vectors.enabled": "true", "bucket": "2"})
    create_table(flink, "flink_writes.pk_dv", options, primary_key=True)
    flink_insert_sequence(flink, "flink_writes.pk_dv", 0, PK_ROWS, partitioned=False)
    flink_insert_sequence(flink, "flink_writes.pk_dv", 0, PK_UPDATED, partitioned=False,
                          level_shift=1)
    tables["pk_dv"] = (catalog.get_table("flink_writes.pk_dv"), False,
                       updated_rows(PK_ROWS, PK_UPDATED))
    return tables


@pytest.mark.parametrize("name", ["append_parted", "pk_dv"])
def test_flink_wrote_the_index_bytes_pyfileindex_builds(flink_tables, name):
    table, _, _ = flink_tables[name]
    meta = PaimonTableMetadata(table=table)
    files = meta.data_files()
    assert files
    for data_file in files:
        index = meta.index_bytes(data_file)
        assert index is not None, data_file.file_name
        assert index == build_file_index(meta, data_file), data_file.file_name


@pytest.mark.parametrize("name", ["append_parted", "pk_dv"])
def test_pyfileindex_plans_equal_flink_select(flink, flink_tables, name):
    table, partitioned, rows = flink_tables[name]
    cases = predicates(partitioned)
    answers = flink.select_many(f"flink_writes.{name}", FIELDS, [sql for sql, _ in cases])
    for sql, test in cases:
        want = brute_force(rows, test, FIELDS)
        assert plain_rows(answers[sql]) == want, (name, sql)
        assert pyfileindex_rows(table, sql) == want, (name, sql)


def test_pyfileindex_skips_files_by_the_indexes_flink_wrote(flink_tables):
    table, _, _ = flink_tables["append_parted"]
    # id 17 lies in one file: the indexes (bloom filter, BSI) rule out all the others.
    plan = plan_read(table, "id = 17")
    assert plan.files_total == 6 and plan.files_skipped == 5, plan.summary()
    plan = plan_read(table, "tag = 'missing'")
    assert plan.files_skipped == len(plan.files), plan.summary()
