"""Flink SQL with Paimon 2.0's own connector reads tables whose data files and indexes
pyfileindex wrote (`write_table`) or rebuilt (`rewrite_file_index`): every WHERE answer equals
brute force, and Paimon's reader demonstrably reads our sidecars and skips files by them."""

from __future__ import annotations

import pyarrow.parquet as pq
import pytest

from event_tables import (
    FIELDS,
    arrow_rows,
    brute_force,
    create_table,
    flink_insert_sequence,
    index_options,
    plain_rows,
    predicates,
    pyfileindex_rows,
    updated_rows,
    with_options,
)
from pyfileindex.paimon import PaimonTableMetadata, rewrite_file_index, write_table

pytestmark = pytest.mark.engine

COMMITS = [(0, 400), (400, 400), (800, 400)]  # (first id, rows): disjoint id ranges per file
# The append tables: (name, partitioned, extra options). Unpartitioned ones keep the
# default threshold (small indexes embedded in the manifest, larger ones in sidecars); the
# partitioned one puts every index in a sidecar.
APPEND_TABLES = [
    ("append_flat", False, {}),
    ("append_parted", True, {"file-index.in-manifest-threshold": "1 b"}),
]


@pytest.fixture(scope="module")
def written(flink, catalog):
    """Append tables created by Flink DDL, filled by pyfileindex's writer in three commits."""
    flink.execute("CREATE DATABASE IF NOT EXISTS pfi_reads")
    tables = {}
    for name, partitioned, extra in APPEND_TABLES:
        create_table(flink, f"pfi_reads.{name}", index_options(extra=extra), partitioned)
        table = catalog.get_table(f"pfi_reads.{name}")
        for first, count in COMMITS:
            assert write_table(table, arrow_rows(range(first, first + count), partitioned))
        tables[name] = (catalog.get_table(f"pfi_reads.{name}"), partitioned)
    return tables


def _all_rows(partitioned):
    last = COMMITS[-1][0] + COMMITS[-1][1]
    return arrow_rows(range(last), partitioned).to_pylist()


@pytest.mark.parametrize("name", [name for name, _, _ in APPEND_TABLES])
def test_flink_where_equals_brute_force_on_tables_pyfileindex_wrote(flink, written, name):
    table, partitioned = written[name]
    meta = PaimonTableMetadata(table=table)
    files = meta.data_files()
    assert len(files) == len(COMMITS) * (2 if partitioned else 1)
    assert all(meta.index_bytes(f) is not None for f in files)
    if partitioned:
        assert all(meta.index_source(f) == "sidecar" for f in files)

    rows = _all_rows(partitioned)
    cases = predicates(partitioned)
    answers = flink.select_many(f"pfi_reads.{name}", FIELDS, [sql for sql, _ in cases])
    for sql, test in cases:
        want = brute_force(rows, test, FIELDS)
        assert plain_rows(answers[sql]) == want, (name, sql)
        # pyfileindex's own plan of the same table agrees.
        assert pyfileindex_rows(table, sql) == want, (name, sql)


def test_flink_files_table_lists_the_files_pyfileindex_committed(flink, written):
    """Paimon's `$files` system table (2.0 has no `$file_indexes`) sees exactly the data
    files, row counts and partitions of pyfileindex's commits."""
    table, _ = written["append_parted"]
    meta = PaimonTableMetadata(table=table)
    ours = sorted((f.file_name, f.row_count, f"{{{f.partition['dt']}}}")
                  for f in meta.data_files())
    theirs = sorted((path.rsplit("/", 1)[-1], count, partition) for path, count, partition in
                    flink.rows("SELECT file_path, record_count, `partition` "
                               "FROM pfi_reads.`append_parted$files`"))
    assert theirs == ours


def _file_holding(meta, files, wanted_id):
    for data_file in files:
        ids = pq.read_table(meta.filesystem_path(data_file.path), columns=["id"]).column("id")
        if wanted_id in ids.to_pylist():
            return data_file
    raise AssertionError(f"no data file holds id {wanted_id}")


def _sidecar(meta, data_file):
    (path,) = data_file.index_file_paths
    return meta.filesystem_path(path)


def _assert_fails_on_damaged_sidecar(flink, sidecar, query, want):
    """`query` answers `want`; with `sidecar` zeroed (Paimon's reader opens it) it fails; with
    the sidecar restored it answers `want` again.

    `query` must read one split (one partition and bucket): when a split finishes just before
    the failing one, Flink 2.0's source reader can miss the failure and the job stays RUNNING
    forever (docs/INTEROP.md)."""
    with open(sidecar, "rb") as f:
        original = f.read()
    assert flink.rows(query) == want
    try:
        with open(sidecar, "wb") as f:
            f.write(b"\0" * len(original))
        with pytest.raises(Exception, match="(?i)file index"):
            flink.rows(query)
    finally:
        with open(sidecar, "wb") as f:
            f.write(original)
    assert flink.rows(query) == want


def test_flink_fails_on_a_damaged_sidecar_we_wrote(flink, written):
    """Paimon's reader opens our sidecar for a predicate on an indexed column: damaged, the
    SELECT fails; restored, it answers again."""
    table, _ = written["append_parted"]
    meta = PaimonTableMetadata(table=table)
    holder = _file_holding(meta, meta.data_files(), 17)
    _assert_fails_on_damaged_sidecar(
        flink, _sidecar(meta, holder),
        f"SELECT id FROM pfi_reads.append_parted WHERE dt = '{holder.partition['dt']}' "
        f"AND id = 17", [(17,)])


def test_flink_skips_files_by_our_index_bytes(flink, written):
    """Swapping the sidecars of two files of one partition (both valid, built from other
    rows) makes Paimon's reader skip the file holding the row: the answer comes from our
    index bytes, not from reading the data. Restored, the rows come back."""
    table, _ = written["append_parted"]
    meta = PaimonTableMetadata(table=table)
    files = meta.data_files()
    first, second = _file_holding(meta, files, 17), _file_holding(meta, files, 417)
    assert first.partition == second.partition and first.bucket == second.bucket
    paths = _sidecar(meta, first), _sidecar(meta, second)
    originals = []
    for path in paths:
        with open(path, "rb") as f:
            originals.append(f.read())
    # One job, one scan per predicate: each file now carries the other one's index.
    def answers():
        return flink.select_many("pfi_reads.append_parted", ["id"], ["id = 17", "id = 417"])

    assert answers() == {"id = 17": [(17,)], "id = 417": [(417,)]}
    try:
        for path, data in zip(paths, reversed(originals)):
            with open(path, "wb") as f:
                f.write(data)
        assert answers() == {"id = 17": [], "id = 417": []}
    finally:
        for path, data in zip(paths, originals):
            with open(path, "wb") as f:
                f.write(data)
    assert answers() == {"id = 17": [(17,)], "id = 417": [(417,)]}


# ---------------------------------------------------------------- primary keys, deletion vectors

PK_ROWS = 1200
PK_UPDATED = 300  # ids 0 .. 299 written again with another level: deletion vectors


def test_flink_reads_pk_table_indexed_by_rewrite_file_index(flink, catalog):
    """A partitioned primary-key table with deletion vectors written by Flink without
    indexes; the options are set by Flink's ALTER TABLE and pyfileindex builds the indexes
    (`rewrite_file_index`); Flink's answers equal brute force and its reader opens our
    sidecars."""
    flink.execute("CREATE DATABASE IF NOT EXISTS pfi_reads")
    name = "pfi_reads.pk_dv"
    create_table(flink, name, {"deletion-vectors.enabled": "true", "bucket": "2"},
                 partitioned=True, primary_key=True)
    flink_insert_sequence(flink, name, 0, PK_ROWS, partitioned=True)
    flink_insert_sequence(flink, name, 0, PK_UPDATED, partitioned=True, level_shift=1)
    options = index_options(extra={"file-index.in-manifest-threshold": "1 b"})
    flink.execute(f"ALTER TABLE {name} SET ({with_options(options)})")

    table = catalog.get_table(name)
    meta = PaimonTableMetadata(table=table)
    assert all(meta.index_bytes(f) is None for f in meta.data_files())
    assert any(f.deletion_vector is not None for f in meta.data_files())
    result = rewrite_file_index(table)
    assert result.files_rewritten == len(meta.data_files()) > 0

    meta = PaimonTableMetadata(table=catalog.get_table(name))
    files = meta.data_files()
    assert all(meta.index_source(f) == "sidecar" for f in files)
    rows = updated_rows(PK_ROWS, PK_UPDATED)
    cases = predicates(True)
    answers = flink.select_many(name, FIELDS, [sql for sql, _ in cases])
    for sql, test in cases:
        assert plain_rows(answers[sql]) == brute_force(rows, test, FIELDS), sql

    holder = next(f for f in files if f.deletion_vector is None and f.row_count > 0)
    some_id = pq.read_table(meta.filesystem_path(holder.path), columns=["id"]).column("id")[0]
    # The partition and the key (the bucket key) select the holder's one bucket.
    _assert_fails_on_damaged_sidecar(
        flink, _sidecar(meta, holder),
        f"SELECT id FROM {name} WHERE dt = '{holder.partition['dt']}' AND id = {some_id.as_py()}",
        [(some_id.as_py(),)])
