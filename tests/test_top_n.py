"""One top-n type (pyfileindex.top_n.TopN) for the command line, the table layer and Spark."""

import warnings

import pytest

import pyfileindex.paimon as paimon
from pyfileindex import cli
from pyfileindex.top_n import TopN, parse_top_n


@pytest.mark.parametrize("descending,nulls_first", [(False, True), (True, False)])
def test_nulls_default_to_sqls_order_null_smallest(descending, nulls_first):
    top = TopN("c", 3, descending)
    assert top.nulls_first is nulls_first
    assert top == TopN("c", 3, descending, nulls_first)


def test_explicit_null_order_is_kept():
    assert TopN("c", 3, nulls_first=False).nulls_first is False
    assert TopN("c", 3, True, nulls_first=True).nulls_first is True


def test_of_takes_a_top_n_a_tuple_text_or_none():
    top = TopN("c", 2, True)
    assert TopN.of(top) is top
    assert TopN.of(None) is None
    assert TopN.of(("c", 2, True)) == top
    assert TopN.of(("c", 2, True, False)) == top
    assert TopN.of("c DESC LIMIT 2") == top
    assert top.n == top.limit == 2


@pytest.mark.parametrize("column,limit,problem", [
    ("c", -1, "must not be negative"), ("c", 1.5, "must be an integer"),
    ("c", True, "must be an integer"), ("", 3, "non-empty string"),
])
def test_bad_top_n(column, limit, problem):
    with pytest.raises(ValueError, match=problem):
        TopN(column, limit)


def test_the_table_layer_and_the_command_line_share_the_type():
    assert paimon.TopN is TopN
    assert cli.parse_top_n is parse_top_n
    with pytest.warns(DeprecationWarning, match="TopNSpec is deprecated"):
        assert cli.TopNSpec is TopN


def test_table_reads_refuse_with_ties():
    from pyfileindex.paimon.planner import check_top_n_and_limit

    class Schema:
        def field_by_name(self, name):
            return object()

    check_top_n_and_limit(Schema(), TopN("c", 3), None)
    with pytest.raises(ValueError, match="WITH TIES is not supported by table reads"):
        check_top_n_and_limit(Schema(), TopN("c", 3, with_ties=True), None)


def test_parse_top_n_round_trips_through_text():
    for text in ("c LIMIT 1", "c DESC NULLS FIRST LIMIT 4 WITH TIES", "m['k'] ASC LIMIT 0",
                 "\"My Col\" LIMIT 2", "`desc` LIMIT 1"):
        top = parse_top_n(text)
        assert parse_top_n(str(top)) == top


def test_spark_job_summary_has_a_name_of_its_own():
    from pyfileindex.spark import index as spark_index

    assert "IndexResult" not in __import__("pyfileindex.spark", fromlist=["x"]).__all__
    with pytest.warns(DeprecationWarning, match="use IndexTableSummary"):
        assert spark_index.IndexResult is spark_index.IndexTableSummary
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert spark_index.IndexTableSummary.__name__ == "IndexTableSummary"
