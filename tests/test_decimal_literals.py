"""DECIMAL literals of every size reach the native readers exactly (128-bit unscaled values),
whatever the column's precision: compared with brute force over the column's values."""

from __future__ import annotations

import operator
from decimal import Decimal as D

import pyarrow as pa
import pytest

import pyfileindex as pfi
from pyfileindex.predicate import PredicateError, col

VALUES = [D("1.50"), D("-2.25"), None, D("92233720368547758.07"), D("0.00"),
          D("-92233720368547758.07"), D("1.51")]
OPS = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le,
       "gt": operator.gt, "ge": operator.ge}
# Literals around the values, beyond a long at the column scale, and with more digits.
LITERALS = [D("1.5"), D("1.500000000000000000000000000001"), D("1.509999999999999999999999"),
            D("92233720368547758.07"), D("92233720368547758.071"), D("92233720368547758.08"),
            D("-92233720368547758.08"), D("-92233720368547758.09"), D("1E+30"), D("-1E+30"),
            D("1E-40"), D("-1E-40"), D("12345678901234567890123456789.12345678")]


def _rows(reader, predicate, n):
    result = reader.evaluate(predicate)
    if result.skip:
        return set()
    ids = result.row_ids()
    return set(range(n)) if ids is None else set(ids.tolist())


@pytest.mark.parametrize("index,column_type", [("bsi", "DECIMAL(20, 2)"),
                                               ("bsi", "DECIMAL(38, 2)"),
                                               ("range-bitmap", "DECIMAL(18, 2)")])
def test_wide_decimal_literals_are_exact(index, column_type):
    values = VALUES if index == "bsi" else [v if v is None or abs(v) < 10**16 else D("7.00")
                                            for v in VALUES]
    precision = int(column_type.split("(")[1].split(",")[0])
    table = pa.table({"d": pa.array(values, type=pa.decimal128(precision, 2))})
    data = pfi.build_index(table, [("d", column_type)], {f"file-index.{index}.columns": "d"})
    reader = pfi.open_index(data, [("d", column_type)])
    n = len(values)
    for literal in LITERALS:
        for name, op in OPS.items():
            expected = {i for i, v in enumerate(values) if v is not None and op(v, literal)}
            got = _rows(reader, getattr(col("d"), f"__{name}__")(literal), n)
            assert got == expected, (name, literal)
        inside = {i for i, v in enumerate(values) if v is not None and v in (literal, D("1.50"))}
        assert _rows(reader, col("d").isin([literal, D("1.50")]), n) == inside


def test_decimal_literal_beyond_38_digits_is_refused():
    table = pa.table({"d": pa.array([D("1.00")], type=pa.decimal128(20, 2))})
    data = pfi.build_index(table, [("d", "DECIMAL(20, 2)")], {"file-index.bsi.columns": "d"})
    reader = pfi.open_index(data, [("d", "DECIMAL(20, 2)")])
    with pytest.raises(pfi.FileIndexError, match="more than 38 digits"):
        reader.evaluate(col("d") == D("1E+40"))
    with pytest.raises(PredicateError, match="not finite"):
        reader.evaluate(col("d") == D("NaN"))


def test_text_literals_parsed_without_types_bind_exactly():
    # parse_predicate without fields read 92233720368547758.07 as a float; bound afterwards it
    # became 92233720368547760.00, and the index answered for that value: no row.
    fields = [("d", "DECIMAL(20, 2)")]
    table = pa.table({"d": pa.array([D("92233720368547758.07"), D("1.50")], pa.decimal128(20, 2))})
    reader = pfi.IndexReader(pfi.build_index(table, fields, {"file-index.bsi.columns": "d"}),
                             fields)
    for text, rows in [("d = 92233720368547758.07", [0]), ("d < 92233720368547758.07", [1]),
                       ("d IN (1.5, -92233720368547758.07)", [1])]:
        bound = pfi.bind_predicate(pfi.parse_predicate(text), fields)
        assert reader.evaluate(bound).row_ids().tolist() == rows, text
