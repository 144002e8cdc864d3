"""The Spark pipeline on local[2]: write -> index -> read on scaled-down demo data.

Every pipeline read must equal Spark's own filter over the same data files, row for row,
for a battery of predicates. One SparkSession for the whole module.
"""

import os

import pytest
from conftest import module_spark

pytest.importorskip("pyspark")  # the [spark] extra; ./dev setup installs it

from pyfileindex import predicate as P  # noqa: E402
from pyfileindex.paimon import PaimonTableMetadata, build_file_index, plan_read  # noqa: E402
from pyfileindex.spark import demo as spark_demo  # noqa: E402
from pyfileindex.spark.index import index_table  # noqa: E402
from pyfileindex.spark.read import plain_filter, plan_table, read_table  # noqa: E402
from pyfileindex.spark.write import write_dataframe  # noqa: E402

pytestmark = [pytest.mark.spark, pytest.mark.timeout(600)]

ROWS = 40_000
FILES = 4
WRITE_OPTIONS = dict(spark_demo.WRITE_OPTIONS)
INDEX_OPTIONS = {"file-index.range-bitmap.columns": "score,ts",
                 "file-index.bsi.columns": "event_id"}
USER = 123457 % spark_demo.users_for(ROWS)
T = spark_demo.timestamp_text
B = spark_demo.BASE_SECONDS
STEP = spark_demo.SPAN_SECONDS / ROWS

PREDICATES = [
    "category = 'refund'",
    "category = 'nothing'",
    "category <> 'view'",
    "category IN ('cart', 'chargeback')",
    "category NOT IN ('view', 'click', 'cart')",
    "category >= 'refund'",
    "country = 'IS'",
    "country IS NULL",
    "country IS NOT NULL AND country IN ('LU', 'AT')",
    "NOT (country = 'US')",
    "status = 'failed'",
    "status IS NULL",
    "status <> 'ok'",
    f"user_id = {USER}",
    f"user_id IN ({USER}, {USER + 7}, {USER + 99})",
    "user_id = -1",
    "user_id < 100",
    "score IS NULL",
    "score > 99.9",
    "score >= 50 AND score < 50.5",
    "score BETWEEN 10 AND 10.2",
    "score = 42.42",
    "score <= 0.01",
    f"ts >= TIMESTAMP '{T(B + int(STEP * ROWS * 0.9))}'",
    f"ts < TIMESTAMP '{T(B + int(STEP * 3000))}'",
    f"ts BETWEEN TIMESTAMP '{T(B + 86400 * 11)}' AND TIMESTAMP '{T(B + 86400 * 11 + 7200)}'",
    f"ts = TIMESTAMP '{T(B + int(STEP * 20000))}'",
    "event_id = 12345",
    f"event_id >= {ROWS - 10}",
    f"event_id BETWEEN 100 AND 200 OR event_id > {ROWS - 1000}",
    "category = 'refund' AND country = 'DE'",
    f"(category = 'chargeback' AND score >= 99) OR user_id = {USER}",
    "category = 'purchase' AND status IS NULL AND score > 90",
    "country = 'IS' OR status = 'retry' AND score < 1",
    f"score IS NOT NULL AND ts < TIMESTAMP '{T(B + int(STEP * 5000))}'",
    f"user_id IN ({USER}, {USER + 1}) AND category = 'view'",
    "event_id < 0",
    "category LIKE 'c%'",
    "country LIKE '_S' OR status NOT LIKE '%e%'",
    "category LIKE 'charge%' AND country LIKE 'L%'",
    "category LIKE '%zz%'",
]


# local[2, 2]: two cores, and a failed task is retried once (the crash test).
spark = module_spark("local[2,2]", "pyfileindex-tests")


@pytest.fixture(scope="module")
def table(spark, tmp_path_factory):
    path = str(tmp_path_factory.mktemp("warehouse") / "demo.db" / "events")
    written = write_dataframe(spark_demo.events_dataframe(spark, ROWS, FILES), path,
                              WRITE_OPTIONS, progress=False)
    assert (written.rows, written.files, written.snapshot_id) == (ROWS, FILES, 1)
    return path


@pytest.fixture(scope="module")
def indexed(spark, table):
    result = index_table(spark, table, INDEX_OPTIONS, progress=False)
    assert result.files_total == FILES and result.files_rewritten == FILES
    assert result.snapshot_id == 2
    return table


def _ids(selection):
    return None if selection is None else selection.tolist()


def _row_key(row):
    return tuple((v is None, v) for v in row)


def _rows(df):
    return sorted((tuple(r) for r in df.collect()), key=_row_key)


def test_write_builds_each_files_index_from_its_own_rows(table):
    meta = PaimonTableMetadata(table)
    files = meta.data_files(1)
    assert len(files) == FILES and sum(f.row_count for f in files) == ROWS
    for f in files:
        stored = meta.index_bytes(f)
        assert stored is not None
        assert stored == build_file_index(meta, f)


def test_index_job_equals_local_rebuild_and_is_idempotent(spark, indexed):
    meta = PaimonTableMetadata(indexed)
    for f in meta.data_files():
        assert meta.index_bytes(f) == build_file_index(meta, f)
        assert meta.index_source(f) == "sidecar"
    again = index_table(spark, indexed, progress=False)
    assert again.snapshot_id is None and again.files_rewritten == 0


@pytest.fixture(scope="module")
def battery(spark, indexed):
    """Every predicate read by the pipeline (one Spark job over the union of the reads)
    and by plain Spark (one scan computing every predicate as a flag column, so each
    predicate keeps the rows where Spark's filter would): {index: (plan, rows, plain
    rows)}. Few jobs: on a 2-core machine every Spark task costs a fraction of a second."""
    from functools import reduce

    from pyspark.sql import functions as F
    plans, pruned = [], []
    for number, text in enumerate(PREDICATES):
        result = read_table(spark, indexed, text, num_tasks=1)
        plans.append(result.plan)
        pruned.append(result.dataframe.withColumn("_query", F.lit(number)))
    out = {number: (plans[number], [], []) for number in range(len(PREDICATES))}
    for row in reduce(lambda a, b: a.unionByName(b), pruned).collect():
        values = tuple(row)
        out[values[-1]][1].append(values[:-1])
    scan = plain_filter(spark, indexed, None)
    width = len(scan.columns)
    flags = [F.coalesce(F.expr(text), F.lit(False)).alias(f"_q{n}")
             for n, text in enumerate(PREDICATES)]
    for row in scan.select(*scan.columns, *flags).collect():
        values = tuple(row)
        for number in range(len(PREDICATES)):
            if values[width + number]:
                out[number][2].append(values[:width])
    return out


@pytest.mark.parametrize("number", range(len(PREDICATES)), ids=PREDICATES)
def test_read_equals_plain_spark_filter(indexed, battery, number):
    plan, got, want = battery[number]
    local = plan_read(indexed, PREDICATES[number])
    assert [(f.skipped, _ids(f.selection)) for f in plan.files] == \
        [(f.skipped, _ids(f.selection)) for f in local.files]
    key = _row_key
    assert sorted(got, key=key) == sorted(want, key=key)
    assert len(got) <= plan.rows_selected


def test_battery_prunes(spark, indexed):
    plans = [plan_read(indexed, text) for text in PREDICATES]
    assert len(PREDICATES) >= 30
    assert sum(p.files_skipped for p in plans) > 0
    assert sum(1 for p in plans if any(f.selection is not None for f in p.files)) > 5


COUNTED = ["category = 'refund'", "country IS NULL", "score > 99.9",
           f"ts BETWEEN TIMESTAMP '{T(B + 86400 * 11)}' AND TIMESTAMP '{T(B + 86400 * 11 + 7200)}'",
           "category = 'refund' AND country = 'DE'", "event_id < 0"]


def test_count_table_equals_plain_spark_count(spark, indexed, battery):
    from pyfileindex.paimon import count_rows
    from pyfileindex.spark.count import count_table
    answered = 0
    for text in COUNTED:
        want = len(battery[PREDICATES.index(text)][2])
        result = count_table(spark, indexed, text, num_tasks=1)
        assert result.count == want, text
        assert result.files_from_index + result.files_read == FILES
        assert count_rows(indexed, text).count == want, text
        answered += result.files_from_index
    assert answered >= 3 * FILES  # bitmap, range-bitmap and bsi counts read no data file
    whole = count_table(spark, indexed)
    assert (whole.count, whole.files_read) == (ROWS, 0)


def test_dsl_predicate_and_projection(spark, indexed):
    tree = (P.col("category") == "refund") & (P.col("score") > 50)
    result = read_table(spark, indexed, tree, columns=["event_id", "score"])
    want = plain_filter(spark, indexed, tree).select("event_id", "score")
    assert result.dataframe.columns == ["event_id", "score"]
    assert _rows(result.dataframe) == _rows(want)


@pytest.mark.parametrize("top_n", [("score", 7, True, False), ("score", 5, False, True),
                                   ("ts", 3, True, False)])
def test_top_n_equals_spark_order_by(spark, indexed, top_n):
    from pyspark.sql import functions as F
    column, n, descending, nulls_first = top_n
    result = read_table(spark, indexed, top_n=top_n)
    c = F.col(column)
    order = (c.desc_nulls_first() if nulls_first else c.desc_nulls_last()) if descending \
        else (c.asc_nulls_first() if nulls_first else c.asc_nulls_last())
    want = [r[0] for r in plain_filter(spark, indexed, None).orderBy(order).limit(n)
            .select(column).collect()]
    assert [r[column] for r in result.dataframe.collect()] == want
    assert result.rows_selected < ROWS


def test_limit_with_predicate(spark, indexed):
    result = read_table(spark, indexed, "category = 'view'", limit=25)
    rows = result.dataframe.collect()
    assert len(rows) == 25 and all(r["category"] == "view" for r in rows)


def test_crashed_task_attempt_leaves_nothing_referenced(spark, tmp_path):
    """An upstream Python worker dies on the first attempt of one partition, after the
    write task has seen part of it; the retried job commits every row exactly once and
    every referenced file exists."""
    from pyfileindex.spark.session import spark_session  # noqa: F401  (same session)
    marker = str(tmp_path / "crashed")
    path = str(tmp_path / "wh" / "db.db" / "t")
    rows = 20_000

    def crash_once(batches):
        from pyspark import TaskContext
        context = TaskContext.get()
        for number, batch in enumerate(batches):
            yield batch
            if (context.partitionId() == 1 and context.attemptNumber() == 0
                    and number == 3 and not os.path.exists(marker)):
                open(marker, "w").close()
                os._exit(1)

    spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", "500")
    try:
        df = spark_demo.events_dataframe(spark, rows, 3)
        df = df.mapInArrow(crash_once, df.schema)
        result = write_dataframe(df, path, {"file-index.bitmap.columns": "category",
                                            "target-file-size": "16 kb"}, progress=False)
    finally:
        spark.conf.unset("spark.sql.execution.arrow.maxRecordsPerBatch")
    assert os.path.exists(marker)  # the crash really happened
    assert result.rows == rows
    meta = PaimonTableMetadata(path)
    files = meta.data_files()
    assert sum(f.row_count for f in files) == rows
    for f in files:
        assert os.path.exists(meta.filesystem_path(f.path))
        assert meta.index_bytes(f) == build_file_index(meta, f)
    ids = [r[0] for r in plain_filter(spark, path, None).select("event_id").collect()]
    assert sorted(ids) == list(range(rows))


def test_failed_index_job_leaves_no_sidecar_behind(spark, table, tmp_path):
    """The index tasks write sidecars themselves. One task over all files meets a broken
    data file after writing the sidecars of the files before it: both attempts fail and
    each deletes what it wrote, so the job fails leaving the table as it was."""
    import shutil
    copy = str(tmp_path / "wh" / "demo.db" / "events")
    shutil.copytree(table, copy)
    meta = PaimonTableMetadata(copy)
    files = meta.data_files()
    directories = {os.path.dirname(meta.filesystem_path(f.path)) for f in files}
    before = {d: sorted(os.listdir(d)) for d in directories}
    with open(meta.filesystem_path(files[-1].path), "wb") as broken:
        broken.write(b"not a data file")
    with pytest.raises(Exception, match="(?i)parquet"):
        index_table(spark, copy, {"file-index.bsi.columns": "user_id"}, num_tasks=1,
                    progress=False)
    assert {d: sorted(os.listdir(d)) for d in directories} == before
    assert PaimonTableMetadata(copy).snapshot().id == meta.snapshot().id


def test_driver_side_planning_reads_the_manifests_once(spark, indexed, monkeypatch):
    from pyfileindex.paimon import PaimonTableMetadata as Meta
    reads = []
    original = Meta.data_files

    def counted(self, *args, **kwargs):
        reads.append(args)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Meta, "data_files", counted)
    text = "category IN ('refund', 'chargeback') OR score > 99"
    plan = plan_table(spark, indexed, text, distribute_min_sidecars=10**6)
    assert len(reads) == 1
    monkeypatch.setattr(Meta, "data_files", original)
    local = plan_table(None, indexed, text)
    assert [(f.file.file_name, f.skipped, f.answer, _ids(f.selection)) for f in plan.files] == \
        [(f.file.file_name, f.skipped, f.answer, _ids(f.selection)) for f in local.files]


def test_executor_side_planning_matches_driver(spark, indexed):
    text = "category IN ('refund', 'chargeback') OR score > 99"
    remote = plan_table(spark, indexed, text, distribute_min_sidecars=1)
    local = plan_table(None, indexed, text)
    assert [f.file.file_name for f in remote.files] == [f.file.file_name for f in local.files]
    assert [(f.skipped, f.answer, _ids(f.selection)) for f in remote.files] == \
        [(f.skipped, f.answer, _ids(f.selection)) for f in local.files]
    assert any(f.answer == "ROWS" for f in remote.files)


ODD_STRINGS = ["o'k", "a\\b", "it''s", "plain", None, "o'k"]
ODD_DOUBLES = [-0.0, 0.0, float("nan"), 1.5, None, -2.0]
ODD_PREDICATES = {  # predicate -> the row numbers Spark's filter keeps
    """"o'k name" = 'o''k'""": [0, 5],
    """"o'k name" IN ('a\\b', 'it''''s')""": [1, 2],
    """"o'k name" <> 'plain'""": [0, 1, 2, 5],
    "d = 0.0": [0, 1],
    "d = -0.0": [0, 1],
    "d <> -0.0": [2, 3, 5],
    "d < 0.0": [5],
    "d <= -0.0": [0, 1, 5],
    "d > -0.0": [2, 3],
    "d >= 0.0": [0, 1, 2, 3],
    "d IN (-0.0, 1.5)": [0, 1, 3],
    "d NOT IN (0.0, CAST('NaN' AS DOUBLE))": [3, 5],
    "d BETWEEN 0.0 AND -0.0": [0, 1],
    "d IS NAN": [2],
    "d IS NOT NAN": [0, 1, 3, 5],
    """d = 0.0 AND "o'k name" = 'o''k'""": [0],
    '"a.b" >= 4': [4, 5],
}


def test_quotes_and_signed_zeros_read_like_spark(spark, tmp_path):
    """Names with a quote and a dot, strings with quotes and backslashes, and both zeros: the
    pipeline's read
    and the plain baseline both keep what Spark's own filter keeps (Spark's SQL reads '' and
    \\ differently, and calls -0.0 and 0.0 equal where Paimon's indexes order them). The
    indexes are added by the Spark index job and embedded in the manifest."""
    import pyarrow as pa
    path = str(tmp_path / "wh" / "db.db" / "odd")
    data = pa.table({"n": list(range(len(ODD_STRINGS))), "o'k name": ODD_STRINGS,
                     "d": ODD_DOUBLES, "a.b": list(range(len(ODD_STRINGS)))})
    write_dataframe(spark.createDataFrame(data), path, num_tasks=1, progress=False)
    result = index_table(spark, path, {"file-index.bitmap.columns": "o'k name,d",
                                       "file-index.range-bitmap.columns": "d",
                                       "file-index.in-manifest-threshold": "64kb"},
                         progress=False)
    assert result.files_rewritten == 1
    meta = PaimonTableMetadata(path)
    assert [meta.index_source(f) for f in meta.data_files()] == ["embedded"]
    for text, rows in ODD_PREDICATES.items():
        read = read_table(spark, path, text, columns=["n"]).dataframe
        assert sorted(r[0] for r in read.collect()) == rows, text
        plain = plain_filter(spark, path, text).select("n")
        assert sorted(r[0] for r in plain.collect()) == rows, text
    top = read_table(spark, path, top_n=("a.b", 2, True), columns=["n", "a.b"]).dataframe
    assert [tuple(r) for r in top.collect()] == [(5, 5), (4, 4)]


def _keyed(rows):
    # NaN != NaN: compare rows by their text, as multisets.
    return sorted(tuple((v is None, str(v)) for v in row) for row in rows)


@pytest.mark.parametrize("seed", [20261126, 7])
def test_random_tables_read_like_spark(spark, tmp_path, seed):
    """Random tables (tests/spark_random_tables.py), written by the write job with their
    indexes or indexed afterwards by the index job, each read with random predicates: every
    read equals Spark's own filter over the same files. The first Spark-pipeline fuzz of this
    kind found four bugs (embedded indexes from the index job, the baseline's SQL text, signed
    zeros, dotted names); it ran 3,000 predicates over 200 tables clean afterwards."""
    import random
    from functools import reduce

    from pyspark.sql import functions as F

    from pyfileindex.paimon.predicates import bind_to_schema
    from pyfileindex.spark.filters import quoted_name, spark_condition
    from spark_random_tables import random_predicate, random_table

    rng = random.Random(seed)
    selective = 0
    for number in range(3):
        data, columns, options = random_table(rng, rng.choice([50, 500, 3000]))
        path = str(tmp_path / "wh" / "db.db" / f"t{number}")
        late = rng.random() < 0.3
        write_dataframe(spark.createDataFrame(data), path, None if late else options,
                        num_tasks=rng.randint(1, 4), progress=False)
        if late or rng.random() < 0.2:
            index_table(spark, path, options, progress=False)
        texts = [str(random_predicate(rng, columns)) for _ in range(12)]
        reads = []
        for q, text in enumerate(texts):
            result = read_table(spark, path, text, num_tasks=1,
                                distribute_min_sidecars=rng.choice([1, 256]))
            reads.append(result.dataframe.withColumn("_q", F.lit(q)))
        got = {q: [] for q in range(len(texts))}
        for row in reduce(lambda a, b: a.unionByName(b), reads).collect():
            got[row[-1]].append(tuple(row)[:-1])
        scan = plain_filter(spark, path, None)
        schema = PaimonTableMetadata(path).schema()
        flags = [F.coalesce(spark_condition(bind_to_schema(text, schema), scan.schema),
                            F.lit(False)) for text in texts]
        want = {q: [] for q in range(len(texts))}
        for row in scan.select(*[F.col(quoted_name(c)) for c in scan.columns],
                               *flags).collect():
            values = tuple(row)
            for q in range(len(texts)):
                if values[len(scan.columns) + q]:
                    want[q].append(values[:len(scan.columns)])
        for q, text in enumerate(texts):
            assert _keyed(got[q]) == _keyed(want[q]), (text, options)
            selective += 0 < len(want[q]) < data.num_rows
    assert selective > 0  # some predicates keep some rows but not all
