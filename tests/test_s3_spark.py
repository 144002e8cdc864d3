"""The Spark pipeline on an S3 table (moto on 127.0.0.1): write_dataframe, index_table and
read_table with catalog options reaching the driver and every task, equal to the same
pipeline on a local table; the `spark` commands take `--catalog-option KEY=VALUE`."""

from __future__ import annotations

import io

import pytest
from conftest import module_spark

pytest.importorskip("pyspark")

from pyfileindex.paimon import PaimonTableMetadata  # noqa: E402
from pyfileindex.spark import demo as spark_demo  # noqa: E402
from pyfileindex.spark.index import index_table  # noqa: E402
from pyfileindex.spark.read import read_table  # noqa: E402
from pyfileindex.spark.write import write_dataframe  # noqa: E402

pytestmark = [pytest.mark.s3, pytest.mark.spark]

ROWS = 12_000
FILES = 3
INDEX_OPTIONS = {"file-index.bsi.columns": "event_id",
                 "file-index.range-bitmap.columns": "score"}
PREDICATES = ["event_id = 4321", "category = 'refund' AND country = 'DE'",
              "score > 99", "event_id < 0"]


spark = module_spark("local[2]", "pyfileindex-s3-tests")


@pytest.fixture(scope="module")
def s3_table_options(s3_server):
    bucket = s3_server.create_bucket("spark-pipeline")
    options = s3_server.catalog_options(bucket)
    table = f"{options.pop('warehouse')}/demo.db/events"
    return table, options


def _rows(df):
    return sorted(tuple((v is None, v) for v in row) for row in df.collect())


@pytest.fixture(scope="module")
def tables(spark, tmp_path_factory, s3_table_options):
    """The same events written and indexed by the pipeline, locally and on S3:
    {where: (table path, catalog options)}."""
    s3_table, options = s3_table_options
    local_table = str(tmp_path_factory.mktemp("warehouse") / "demo.db" / "events")
    tables = {"local": (local_table, {}), "s3": (s3_table, options)}
    for where, (path, catalog_options) in tables.items():
        written = write_dataframe(spark_demo.events_dataframe(spark, ROWS, FILES), path,
                                  spark_demo.WRITE_OPTIONS, progress=False,
                                  catalog_options=catalog_options)
        assert (written.rows, written.files, written.snapshot_id) == (ROWS, FILES, 1), where
        indexed = index_table(spark, path, INDEX_OPTIONS, progress=False,
                              catalog_options=catalog_options)
        assert (indexed.files_rewritten, indexed.snapshot_id) == (FILES, 2), where
    return tables


def test_pipeline_on_s3_equals_local(spark, tables):
    (local_table, _), (s3_table, options) = tables["local"], tables["s3"]
    meta = {"local": PaimonTableMetadata(local_table),
            "s3": PaimonTableMetadata(s3_table, options=options)}
    sidecars = {where: [m.index_bytes(f) for f in m.data_files()] for where, m in meta.items()}
    assert sidecars["s3"] == sidecars["local"]  # the executors' sidecars, byte-equal
    assert all(meta["s3"].index_source(f) == "sidecar" for f in meta["s3"].data_files())

    skipped = 0
    for predicate in PREDICATES:
        # distribute_min_sidecars=1: the sidecars are evaluated by Spark tasks as well.
        results = {where: read_table(spark, path, predicate, distribute_min_sidecars=1,
                                     catalog_options=catalog_options)
                   for where, (path, catalog_options) in tables.items()}
        plans = {where: r.plan for where, r in results.items()}
        assert [(f.skipped, f.answer) for f in plans["s3"].files] == \
            [(f.skipped, f.answer) for f in plans["local"].files], predicate
        assert plans["s3"].rows_selected == plans["local"].rows_selected
        assert _rows(results["s3"].dataframe) == _rows(results["local"].dataframe), predicate
        skipped += plans["s3"].files_skipped
    assert skipped > 0


def test_spark_query_command_takes_catalog_options(spark, s3_server, tables, tmp_path):
    from pyfileindex import cli
    from pyfileindex.spark import commands

    s3_table, options = tables["s3"]
    # Credentials from a file, the rest as flags; a flag overrides the file.
    secrets = {k: v for k, v in options.items() if k.startswith("fs.s3.access")}
    options_file = tmp_path / "s3.properties"
    options_file.write_text("# test store\nfs.s3.region = nowhere-1\n"
                            + "".join(f"{k} = {v}\n" for k, v in secrets.items()))
    argv = ["spark", "query", s3_table, "event_id = 4321", "--master", "local[2]",
            "--catalog-options-file", str(options_file)]
    for key, value in options.items():
        if key not in secrets:
            argv += ["--catalog-option", f"{key}={value}"]
    args = cli.build_parser().parse_args(argv)
    assert cli._catalog_options(args) == options
    out = io.StringIO()
    # --compare: the plain scan reads every data file through the table's file IO.
    assert commands.query(args.table, args.predicate, None, None, None, 5, None, True,
                          args.master, None, {}, out=out,
                          catalog_options=cli._catalog_options(args)) == 0
    text = out.getvalue()
    assert "plan: 2/3 files skipped" in text and "event_id=4321" in text
    assert "equal to plain Spark filter: yes" in text
    assert s3_server.secret_key not in text


def test_demo_on_an_s3_warehouse(spark, s3_server):
    from pyfileindex.spark.demo import run_demo

    bucket = s3_server.create_bucket("spark-demo")
    options = s3_server.catalog_options(bucket)
    warehouse = options.pop("warehouse")
    out = io.StringIO()
    assert run_demo(rows=6_000, files=3, master="local[2]", warehouse=warehouse, out=out,
                    catalog_options=options) == 0
    text = out.getvalue()
    assert f"table {warehouse}/demo.db/events" in text
    assert "NO" not in text.split() and "queries equal plain Spark" in text
    keys = [o["Key"] for o in s3_server.client().list_objects_v2(
        Bucket=bucket, MaxKeys=1000).get("Contents", [])]
    assert sum(k.endswith(".parquet") for k in keys) == 3
    assert sum(k.endswith(".index") for k in keys) >= 3  # sidecars on the store
    assert s3_server.secret_key not in text
