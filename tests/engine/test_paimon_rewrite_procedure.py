"""Paimon's own `CALL sys.rewrite_file_index` (through Flink SQL) on tables pyfileindex
indexed: pyfileindex reads the result, and every index Paimon rebuilt is byte for byte the
one pyfileindex writes for the same options and data.

One thing differs, and only in the container's layout: Paimon's procedure collects a
file's indexes in a HashMap (merged into the entries of the file's old sidecar) before it
writes them, so the sections of a container with several indexes can come in another order
than the one Paimon's writer (and pyfileindex, which follows the writer) uses. Each
section's bytes are the same, and readers find sections by column and index type."""

from __future__ import annotations

import pytest

from event_tables import (
    FIELDS,
    arrow_rows,
    brute_force,
    create_table,
    index_options,
    predicates,
    pyfileindex_rows,
    with_options,
)
import pyfileindex as pfi
from pyfileindex.paimon import PaimonTableMetadata, build_file_index, plan_read, write_table

pytestmark = pytest.mark.engine

INDEX_KINDS = [("bloom-filter", "file-index.bloom-filter.columns"),
               ("bitmap", "file-index.bitmap.columns"),
               ("range-bitmap", "file-index.range-bitmap.columns"),
               ("bsi", "file-index.bsi.columns")]
COMMITS = [(0, 500), (500, 500)]


def _index_by_file(meta):
    return {f.file_name: meta.index_bytes(f) for f in meta.data_files()}


def sections(container: bytes):
    """{(column, index type): section bytes} of an index container."""
    entries = pfi.IndexReader(container).entries
    return {(e.column, e.index_type): container[e.offset:e.offset + e.length] for e in entries}


@pytest.mark.parametrize("partitioned", [False, True], ids=["flat", "parted"])
def test_paimon_rewrite_procedure_on_a_table_pyfileindex_indexed(flink, catalog, partitioned):
    flink.execute("CREATE DATABASE IF NOT EXISTS paimon_procs")
    name = f"paimon_procs.{'parted' if partitioned else 'flat'}"
    # pyfileindex writes with a bloom filter on id only.
    create_table(flink, name, index_options(bitmap="", range_bitmap="", bsi="", bloom="id"),
                 partitioned)
    table = catalog.get_table(name)
    for first, count in COMMITS:
        write_table(table, arrow_rows(range(first, first + count), partitioned))
    ours = _index_by_file(PaimonTableMetadata(table=catalog.get_table(name)))
    assert ours and all(index is not None for index in ours.values())

    # Same options (one index): Paimon's procedure rebuilds exactly the bytes pyfileindex
    # wrote.
    flink.execute(f"CALL sys.rewrite_file_index('{name}')")
    meta = PaimonTableMetadata(table=catalog.get_table(name))
    assert _index_by_file(meta) == ours

    # New options set by Flink, every index type: Paimon rebuilds, pyfileindex builds the
    # same sections from the same data and options, and plans with Paimon's indexes.
    options = index_options(extra={"file-index.in-manifest-threshold": "1 b"} if partitioned
                            else None)
    flink.execute(f"ALTER TABLE {name} SET ({with_options(options)})")
    flink.execute(f"CALL sys.rewrite_file_index('{name}')")
    table = catalog.get_table(name)
    meta = PaimonTableMetadata(table=table)
    files = meta.data_files()
    assert sorted(f.file_name for f in files) == sorted(ours)
    expected_sections = {(column, kind) for kind, key in INDEX_KINDS
                         for column in options[key].split(",")}
    for data_file in files:
        index = meta.index_bytes(data_file)
        assert index is not None and index != ours[data_file.file_name]
        built = build_file_index(meta, data_file)
        assert len(index) == len(built), data_file.file_name
        assert sections(index) == sections(built), data_file.file_name
        assert set(sections(index)) == expected_sections
        if partitioned:
            assert meta.index_source(data_file) == "sidecar"

    rows = arrow_rows(range(COMMITS[-1][0] + COMMITS[-1][1]), partitioned).to_pylist()
    for sql, test in predicates(partitioned):
        assert pyfileindex_rows(table, sql) == brute_force(rows, test, FIELDS), sql
    assert plan_read(table, "id = 17").files_skipped == len(files) - 1
