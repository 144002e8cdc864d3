"""Differential tests against Apache Paimon 2.0: inputs at the edge of what a writer takes.

* Index option values that make no sense (bloom-filter fpp 0, 1, 2, negative, NaN; items 0,
  negative, not a number; range-bitmap chunk sizes 0, negative, huge, garbage; bitmap
  versions; bsi with options it does not have): where Java refuses, we refuse with an error
  naming the option; where Java writes bytes, ours are equal and both sides answer alike on
  them - except for options an index does not have, which Java ignores and we refuse (a
  difference listed in docs/DIFFERENCES.md, Options).
* STRING values that are not valid UTF-8 (an Arrow utf8 array may carry any bytes; Java
  keeps them as BinaryString bytes): equal bytes, and equal answers for literals of such
  bytes.
* FLOAT / DOUBLE NaNs with other bit patterns (signalling, negative, payloads), in columns
  and literals: Java collapses every NaN to one (Float.floatToIntBits, Float.equals); equal
  bytes and answers.
"""

from __future__ import annotations

import math
import random
import struct
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

import pyfileindex as pfi
from pyfileindex.predicate import Leaf

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also under --import-mode=importlib
from differential import oracle  # noqa: E402
from java_harness import JavaRequestError, java_harness  # noqa: E402,F401  (the fixture)

pytestmark = pytest.mark.java


def both_write(harness, fields, java_columns, table, options):
    """(ours, Java): bytes, or the error text when that side refused."""
    try:
        java = harness.write(fields, java_columns, options)
    except JavaRequestError as e:
        java = e
    try:
        ours = pfi.build_index(table, fields, options)
    except pfi.FileIndexError as e:
        ours = e
    return ours, java


# ---------------------------------------------------------------------- option values

OPTION_FIELDS = [("i", "INT"), ("s", "STRING")]
OPTION_COLUMNS = {"i": [1, 2, 2, None, 5, -7], "s": ["a", "b", None, "a", "c", "é"]}

# (index type, option, value, "java-refuses" | "equal" | "we-refuse"). "we-refuse": Java
# ignores an option the index does not have (docs/DIFFERENCES.md, Options). Degenerate bloom
# sizes Java accepts (fpp 1, negative or NaN; items 0 or negative) give its smallest filter,
# which both sides write and answer alike.
OPTION_CASES = [
    ("bloom-filter", "fpp", "0", "java-refuses"),         # NegativeArraySizeException
    ("bloom-filter", "fpp", "2", "java-refuses"),
    ("bloom-filter", "fpp", "Infinity", "java-refuses"),
    ("bloom-filter", "fpp", "abc", "java-refuses"),
    ("bloom-filter", "fpp", "", "java-refuses"),
    ("bloom-filter", "fpp", "1", "equal"),                # a filter of 0 bits, rounded up
    ("bloom-filter", "fpp", "-0.1", "equal"),
    ("bloom-filter", "fpp", "NaN", "equal"),
    ("bloom-filter", "fpp", "0.5", "equal"),
    ("bloom-filter", "fpp", " 0.1 ", "equal"),            # Double.parseDouble trims
    ("bloom-filter", "fpp", "0.0000001", "equal"),
    ("bloom-filter", "items", "abc", "java-refuses"),
    ("bloom-filter", "items", "", "java-refuses"),
    ("bloom-filter", "items", "1.5", "java-refuses"),
    ("bloom-filter", "items", "2147483648", "java-refuses"),
    ("bloom-filter", "items", " 10 ", "java-refuses"),    # Integer.parseInt does not trim
    ("bloom-filter", "items", "1e3", "java-refuses"),
    ("bloom-filter", "items", "0", "equal"),
    ("bloom-filter", "items", "-1", "equal"),
    ("bloom-filter", "items", "+5", "equal"),
    ("bloom-filter", "items", "1", "equal"),
    ("range-bitmap", "chunk-size", "-1", "java-refuses"),
    ("range-bitmap", "chunk-size", "-1b", "java-refuses"),
    ("range-bitmap", "chunk-size", "abc", "java-refuses"),
    ("range-bitmap", "chunk-size", "", "java-refuses"),
    ("range-bitmap", "chunk-size", "1.5kb", "java-refuses"),
    ("range-bitmap", "chunk-size", "0", "equal"),
    ("range-bitmap", "chunk-size", "0b", "equal"),
    ("range-bitmap", "chunk-size", "1b", "equal"),
    ("range-bitmap", "chunk-size", "1000gb", "equal"),        # narrows to 0
    ("range-bitmap", "chunk-size", "4294967304b", "equal"),   # 2^32 + 8: Java's int cast, 8
    ("bitmap", "version", "3", "java-refuses"),
    ("bitmap", "version", "-1", "java-refuses"),
    ("bitmap", "version", "abc", "java-refuses"),
    ("bitmap", "version", " 1 ", "java-refuses"),
    ("bitmap", "version", "2", "equal"),
    ("bitmap", "index-block-size", "0", "java-refuses"),
    ("bitmap", "index-block-size", "1b", "java-refuses"),
    ("bitmap", "index-block-size", "-1", "java-refuses"),
    ("bitmap", "index-block-size", "1gb", "equal"),
    ("bsi", "version", "2", "we-refuse"),                 # bsi reads no option: Java ignores
    ("bsi", "items", "abc", "we-refuse"),
]


@pytest.mark.parametrize("kind,option,value,outcome", OPTION_CASES,
                         ids=[f"{k}-{o}={v!r}" for k, o, v, _ in OPTION_CASES])
def test_option_values_like_java(java_harness, kind, option, value, outcome):
    column = "i" if kind == "bsi" else "s"
    options = {f"file-index.{kind}.columns": column,
               f"file-index.{kind}.{column}.{option}": value}
    table = pa.table({"i": pa.array(OPTION_COLUMNS["i"], pa.int32()),
                      "s": pa.array(OPTION_COLUMNS["s"], pa.string())})
    ours, java = both_write(java_harness, OPTION_FIELDS, OPTION_COLUMNS, table, options)
    if outcome == "java-refuses":
        assert isinstance(java, JavaRequestError), f"Java wrote {len(java)} B"
        assert isinstance(ours, pfi.FileIndexError), "Java refuses, ours wrote bytes"
        assert option in str(ours), f"the error does not name {option!r}: {ours}"
    elif outcome == "we-refuse":
        assert isinstance(java, bytes), f"Java refused: {java}"
        assert isinstance(ours, pfi.FileIndexError), "an option the index lacks was accepted"
        assert option in str(ours), f"the error does not name {option!r}: {ours}"
    else:
        assert isinstance(java, bytes), f"Java refused: {java}"
        assert ours == java, f"ours: {ours!r}"
        assert answers_on(java, column, pfi.IndexReader) == answers_on(ours, column, java_harness)


def answers_on(data, column, reader_or_harness):
    """= on each value and on absent ones, IS NULL: ours (pfi.IndexReader) or Java's."""
    present = [v for v in OPTION_COLUMNS[column] if v is not None]
    literals = present + (["zz", "b\u00e9"] if column == "s" else [99, -1])
    questions = [("eq", (v,)) for v in literals] + [("is_null", ())]
    if reader_or_harness is pfi.IndexReader:
        reader = pfi.IndexReader(data, OPTION_FIELDS)
        return [oracle.from_ours(reader.evaluate(Leaf(op, column, lits)))
                for op, lits in questions]
    return [oracle.from_java(a) for a in reader_or_harness.read(data, OPTION_FIELDS, [
        {"op": op, "column": column, "literals": list(lits)} for op, lits in questions])]


# --------------------------------------------------------------------- invalid UTF-8

BAD_UTF8 = [b"\xff", b"\xc3", b"a\xc3", b"\xc3(", b"\xc0\x80", b"\xed\xa0\x80", b"\xed\xbf\xbf",
            b"\xf4\x90\x80\x80", b"\xf8\x88\x80\x80\x80", b"\x80abc", b"abc\xfe\xff",
            b"\xe2\x82", b"\xf0\x9f\x98"]
GOOD_UTF8 = [b"", b"a", b"abc", "é".encode(), "\U0001F600".encode(), b"\x7f", b"\xef\xbf\xbf"]


def _string_array(values):
    """An Arrow utf8 array holding these bytes as they are (Arrow does not check them here)."""
    return pa.array(values, pa.binary()).view(pa.string())


def _byte_truth(values, op, literals):
    def hit(v):
        if op == "is_null":
            return v is None
        if op == "is_not_null":
            return v is not None
        if v is None:
            return False
        if op in ("in", "not_in"):
            return (v in literals) == (op == "in")
        if op == "between":
            return literals[0] <= v <= literals[1]
        return {"eq": v == literals[0], "ne": v != literals[0], "lt": v < literals[0],
                "ge": v >= literals[0]}[op]
    return frozenset(r for r, v in enumerate(values) if hit(v))


INDEXES = {"bitmap": {}, "bitmap-v1": {"version": "1"}, "bloom-filter": {"items": "30"},
           "range-bitmap": {}, "range-bitmap-small-chunks": {"chunk-size": "8b"}}


@pytest.mark.parametrize("index", sorted(INDEXES))
def test_invalid_utf8_strings_like_java(java_harness, index):
    kind = index.split("-v1")[0].split("-small")[0]
    rnd = random.Random(f"utf8/{index}")
    pool = BAD_UTF8 + GOOD_UTF8
    values = [None if rnd.random() < 0.1 else rnd.choice(pool) for _ in range(120)]
    fields = [("s", "STRING")]
    options = {f"file-index.{kind}.columns": "s"}
    options.update({f"file-index.{kind}.s.{k}": v for k, v in INDEXES[index].items()})
    table = pa.table({"s": _string_array(values)})
    ours_bytes, java_bytes = both_write(java_harness, fields, {"s": values}, table, options)
    assert isinstance(java_bytes, bytes), java_bytes
    assert ours_bytes == java_bytes
    # The other Arrow forms of a string column take other ingest paths.
    large = pa.array(values, pa.large_binary()).view(pa.large_string())
    encoded = pa.DictionaryArray.from_arrays(
        pa.array([None if v is None else pool.index(v) for v in values], pa.int32()),
        _string_array(pool))
    for other in (large, encoded):
        assert pfi.build_index(pa.table({"s": other}), fields, options) == java_bytes, other.type
    questions = [("is_null", ()), ("is_not_null", ())]
    for literal in pool + [b"\xff\xff", b"zz"]:
        other = rnd.choice(pool)
        low, high = sorted((literal, other))
        questions += [("eq", (literal,)), ("ne", (literal,)), ("lt", (literal,)),
                      ("ge", (literal,)), ("in", (literal, other)), ("not_in", (literal, other)),
                      ("between", (low, high))]
    java_answers = java_harness.read(ours_bytes, fields, [
        {"op": op, "column": "s", "literals": list(lits)} for op, lits in questions])
    reader = pfi.IndexReader(java_bytes, fields)
    compared = 0
    for (op, literals), raw in zip(questions, java_answers):
        truth = _byte_truth(values, op, literals)
        ours = oracle.from_ours(reader.evaluate(Leaf(op, "s", literals)))
        java = oracle.from_java(raw)
        where = f"s {op} {literals}: ours {oracle.describe(ours)}, Java {oracle.describe(java)}"
        assert oracle.sound(ours, truth), "ours drops matching rows: " + where
        assert oracle.sound(java, truth), "Java drops matching rows: " + where
        assert ours == java, where
        compared += 1
    assert compared == len(questions)


# ------------------------------------------------------------------ NaN bit patterns

FLOAT_NANS = [0x7FC00000, 0x7F800001, 0x7FA00000, 0x7FBFFFFF, 0xFFC00000, 0xFF800001,
              0x7FC00001, 0xFFFFFFFF, 0x7FFFFFFF]
DOUBLE_NANS = [0x7FF8000000000000, 0x7FF0000000000001, 0x7FF4000000000000,
               0xFFF8000000000000, 0xFFF0000000000001, 0x7FF8000000000001,
               0xFFFFFFFFFFFFFFFF, 0x7FFFFFFFFFFFFFFF, 0x7FF80000DEADBEEF]
FLOAT_OTHERS = [0x00000000, 0x80000000, 0x3FC00000, 0x7F800000, 0xFF800000, 0x00000001]
DOUBLE_OTHERS = [0x0, 0x8000000000000000, 0x3FF8000000000000, 0x7FF0000000000000,
                 0xFFF0000000000000, 0x1]


def _from_bits(type_text, bits):
    """A Python float from a bit pattern (a double keeps a FLOAT NaN's payload widened)."""
    if type_text == "FLOAT":
        return float(np.array([bits], np.uint32).view(np.float32)[0])
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def _arrow_from_bits(type_text, bits_list):
    if type_text == "FLOAT":
        raw = np.array([b or 0 for b in bits_list], np.uint32).view(np.float32)
    else:
        raw = np.array([b or 0 for b in bits_list], np.uint64).view(np.float64)
    mask = np.array([b is None for b in bits_list])
    return pa.array(raw, mask=mask)


def _float_order(v):
    """Float.compare's order: -0.0 below 0.0, every NaN equal and above +Infinity."""
    return (1, 0.0, 0.0) if math.isnan(v) else (0, v, math.copysign(1.0, v))


def _float_truth(values, op, literal):
    out = set()
    for row, v in enumerate(values):
        if v is None:
            hit = op == "is_null"
        elif op == "is_not_null":
            hit = True
        elif op == "is_null":
            hit = False
        else:
            # Paimon compares FLOAT/DOUBLE with Float.compare: NaN equals NaN and sorts last.
            a, b = _float_order(v), _float_order(literal)
            hit = {"eq": a == b, "ne": a != b, "lt": a < b, "ge": a >= b}[op]
        if hit:
            out.add(row)
    return frozenset(out)


@pytest.mark.parametrize("kind", ["bitmap", "bloom-filter", "range-bitmap"])
@pytest.mark.parametrize("type_text", ["FLOAT", "DOUBLE"])
def test_nan_bit_patterns_like_java(java_harness, type_text, kind):
    nans = FLOAT_NANS if type_text == "FLOAT" else DOUBLE_NANS
    others = FLOAT_OTHERS if type_text == "FLOAT" else DOUBLE_OTHERS
    width = 8 if type_text == "FLOAT" else 16
    rnd = random.Random(f"nan/{type_text}/{kind}")
    compared = 0
    for first_nan in nans:  # the first NaN a writer meets becomes the key Java keeps
        bits = [first_nan] + [None if rnd.random() < 0.1 else rnd.choice(nans + others)
                              for _ in range(60)]
        values = [None if b is None else _from_bits(type_text, b) for b in bits]
        java_values = [None if b is None else {"bits": f"{b:0{width}x}"} for b in bits]
        fields = [("x", type_text)]
        options = {f"file-index.{kind}.columns": "x"}
        if kind == "bloom-filter":
            options["file-index.bloom-filter.x.items"] = "20"
        table = pa.table({"x": _arrow_from_bits(type_text, bits)})
        ours_bytes, java_bytes = both_write(java_harness, fields, {"x": java_values}, table,
                                            options)
        assert isinstance(java_bytes, bytes), java_bytes
        assert ours_bytes == java_bytes, f"first NaN {first_nan:#x}"
        questions = [("is_null", None), ("is_not_null", None)]
        for literal_bits in nans[:4] + others[:3]:
            for op in ("eq", "ne", "lt", "ge"):
                questions.append((op, literal_bits))
        java_answers = java_harness.read(ours_bytes, fields, [
            {"op": op, "column": "x", "literals": [] if b is None else
             [{"bits": f"{b:0{width}x}"}]} for op, b in questions])
        reader = pfi.IndexReader(java_bytes, fields)
        for (op, literal_bits), raw in zip(questions, java_answers):
            literal = None if literal_bits is None else _from_bits(type_text, literal_bits)
            leaf = Leaf(op, "x", () if literal is None else (literal,))
            truth = _float_truth(values, op, literal)
            ours = oracle.from_ours(reader.evaluate(leaf))
            java = oracle.from_java(raw)
            where = (f"x {op} {literal_bits if literal_bits is None else hex(literal_bits)}: "
                     f"ours {oracle.describe(ours)}, Java {oracle.describe(java)}")
            assert oracle.sound(ours, truth), "ours drops matching rows: " + where
            assert ours == java, where
            compared += 1
    assert compared == len(nans) * (2 + 7 * 4)
