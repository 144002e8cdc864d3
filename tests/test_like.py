"""LIKE / starts_with / ends_with / contains: the predicate package, the native answers of every
index type against brute force (random data, the random-table generator and the golden tables),
and the exact Arrow filter of the table layer."""

import random

import pyarrow as pa
import pytest

import pyfileindex as pfi
from pyfileindex.paimon.arrow_filter import predicate_mask
from pyfileindex.predicate import Leaf, PredicateError, bind_predicate, col, parse_predicate
from pyfileindex.predicate.patterns import escape_text, like_matches, like_of
from spark_random_tables import random_table

FIELDS = [("s", "STRING"), ("i", "INT")]


# A reference matcher written independently of patterns.py: recursion over characters.
def reference_like(value, pattern, escape=None):
    tokens = []
    position = 0
    while position < len(pattern):
        char = pattern[position]
        if escape is not None and char == escape:
            position += 1
            tokens.append(("char", pattern[position]))
        elif char == "%":
            tokens.append(("any", None))
        elif char == "_":
            tokens.append(("one", None))
        else:
            tokens.append(("char", char))
        position += 1

    def match(i, j):
        if j == len(tokens):
            return i == len(value)
        kind, char = tokens[j]
        if kind == "any":
            return any(match(k, j + 1) for k in range(i, len(value) + 1))
        if i == len(value):
            return False
        return (kind == "one" or value[i] == char) and match(i + 1, j + 1)
    return match(0, 0)


def expected_rows(values, leaf):
    """Rows a pattern leaf selects under SQL semantics (NULL rows never)."""
    if leaf.op in ("like", "not_like"):
        pattern, escape = like_of(leaf.op, leaf.literals)
        hit = [v is not None and reference_like(v, pattern, escape) for v in values]
        if leaf.op == "not_like":
            hit = [v is not None and not h for v, h in zip(values, hit)]
    else:
        text = leaf.literals[0]
        test = {"starts_with": lambda v: v.startswith(text),
                "ends_with": lambda v: v.endswith(text),
                "contains": lambda v: text in v}[leaf.op]
        hit = [v is not None and test(v) for v in values]
    return [r for r, h in enumerate(hit) if h]


# ---- the predicate package ------------------------------------------------------------------

class TestPredicates:
    @pytest.mark.parametrize("text,leaf", [
        ("s LIKE 'a%b_'", Leaf("like", "s", ("a%b_",))),
        ("s NOT LIKE 'a%'", Leaf("not_like", "s", ("a%",))),
        ("NOT s LIKE 'a%'", Leaf("not_like", "s", ("a%",))),
        ("s LIKE 'a!%%' ESCAPE '!'", Leaf("like", "s", ("a!%%", "!"))),
        ("s NOT LIKE 'a!%' ESCAPE '!'", Leaf("not_like", "s", ("a!%", "!"))),
        ("starts_with(s, 'ab')", Leaf("starts_with", "s", ("ab",))),
        ("startswith(s, 'ab')", Leaf("starts_with", "s", ("ab",))),
        ("ends_with(s, 'b')", Leaf("ends_with", "s", ("b",))),
        ("contains(s, 'it''s')", Leaf("contains", "s", ("it's",))),
        ("m['k'] LIKE '_'", Leaf("like", "m[k]", ("_",))),
    ])
    def test_parse_and_round_trip(self, text, leaf):
        parsed = parse_predicate(text)
        assert parsed == leaf
        assert parse_predicate(parsed.to_sql()) == parsed

    def test_dsl(self):
        assert col("s").startswith("ab") == Leaf("starts_with", "s", ("ab",))
        assert col("s").endswith("b") == Leaf("ends_with", "s", ("b",))
        assert col("s").contains("x") == Leaf("contains", "s", ("x",))
        assert col("s").like("a%b_") == Leaf("like", "s", ("a%b_",))
        assert col("s").like("a!%", escape="!") == Leaf("like", "s", ("a!%", "!"))
        assert col("s").not_like("a%") == Leaf("not_like", "s", ("a%",))
        with pytest.raises(PredicateError, match="takes a string"):
            col("s").startswith(1)

    def test_negation(self):
        assert ~col("s").like("a%") == Leaf("not_like", "s", ("a%",))
        assert ~~col("s").like("a%") == Leaf("like", "s", ("a%",))
        negated = ~col("s").startswith("a%_\\")
        assert negated == Leaf("not_like", "s", ("a\\%\\_\\\\%", "\\"))
        assert parse_predicate(negated.to_sql()) == negated
        values = ["a%_\\x", "a%_x", None, "", "ba%_\\"]
        for leaf in (col("s").startswith("a%_\\"), col("s").endswith("%_\\"),
                     col("s").contains("%_")):
            selected = set(expected_rows(values, leaf))
            complement = set(expected_rows(values, ~leaf))
            non_null = {r for r, v in enumerate(values) if v is not None}
            assert selected | complement == non_null and not selected & complement

    @pytest.mark.parametrize("build,message", [
        (lambda: col("s").like("a!", escape="!"), "ends with its escape"),
        (lambda: col("s").like("a!b", escape="!"), "may only precede"),
        (lambda: col("s").like("a", escape="!!"), "one character"),
        (lambda: col("s").like("a", escape=""), "one character"),
        (lambda: Leaf("like", "s", ("a", "!", "x")), "literal"),
        (lambda: Leaf("starts_with", "s", (1,)), "string literals"),
        (lambda: parse_predicate("s LIKE 'a' ESCAPE 'xy'"), "one character"),
        (lambda: parse_predicate("s ILIKE 'a'"), "ILIKE is not supported"),
        (lambda: parse_predicate("starts_with(s, t)"), "quoted string"),
        (lambda: parse_predicate("i LIKE 'a%'", FIELDS), "CHAR, VARCHAR or STRING"),
        (lambda: bind_predicate(col("i").startswith("1"), FIELDS), "CHAR, VARCHAR or STRING"),
    ])
    def test_errors(self, build, message):
        with pytest.raises(PredicateError, match=message):
            build()

    def test_escape_text_matches_itself_only(self):
        for text in ["", "a", "%", "_", "\\", "a%b_c\\d", "é😀"]:
            pattern = escape_text(text)
            assert like_matches(text, pattern, "\\")
            assert not like_matches(text + "x", pattern, "\\")
            assert reference_like(text, pattern, "\\")


# ---- native answers against brute force -----------------------------------------------------

INDEXES = {
    "bitmap v1": {"file-index.bitmap.columns": "s", "file-index.bitmap.s.version": "1"},
    "bitmap v2": {"file-index.bitmap.columns": "s"},
    "bitmap v2 small blocks": {"file-index.bitmap.columns": "s",
                               "file-index.bitmap.s.index-block-size": "64b"},
    "range-bitmap": {"file-index.range-bitmap.columns": "s"},
    "range-bitmap small chunks": {"file-index.range-bitmap.columns": "s",
                                  "file-index.range-bitmap.s.chunk-size": "64b"},
    "bloom-filter": {"file-index.bloom-filter.columns": "s"},
}
ALPHABET = ["a", "b", "%", "_", "!", "\\", "é", "中", "😀", " "]


def random_value(rng):
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 5)))


def random_leaf(rng, values):
    present = [v for v in values if v is not None] or [""]
    op = rng.choice(["starts_with", "ends_with", "contains", "like", "not_like"])
    if op in ("starts_with", "ends_with", "contains"):
        source = rng.choice(present)
        start = rng.randint(0, len(source))
        return Leaf(op, "s", (source[start:start + rng.randint(0, 3)],))
    pieces = []
    escape = rng.choice([None, "!", "\\"])
    for _ in range(rng.randint(0, 6)):
        kind = rng.random()
        if kind < 0.25:
            pieces.append("%")
        elif kind < 0.45:
            pieces.append("_")
        elif escape is not None and kind < 0.55:
            pieces.append(escape + rng.choice(["%", "_", escape]))
        else:
            char = rng.choice(ALPHABET)
            pieces.append(escape + char if char == escape else char)
    literals = ("".join(pieces),) if escape is None else ("".join(pieces), escape)
    return Leaf(op, "s", literals)


def answer(reader, leaf, row_count):
    result = reader.evaluate(leaf)
    if result.kind == "REMAIN":
        return None
    return [] if result.skip else list(result.row_ids())


@pytest.mark.parametrize("label", list(INDEXES))
def test_answers_equal_brute_force(label):
    rng = random.Random(f"like-{label}")
    exact = not label.startswith("bloom")
    for _ in range(12):
        rows = rng.randint(1, 400)
        pool = [random_value(rng) for _ in range(rng.choice([1, 5, 40, 300]))]
        values = [None if rng.random() < 0.15 else rng.choice(pool) for _ in range(rows)]
        if rng.random() < 0.3:
            values.sort(key=lambda v: (v is None, (v or "").encode()))
        table = pa.table({"s": pa.array(values, pa.string()),
                          "i": pa.array(range(rows), pa.int32())})
        reader = pfi.IndexReader(pfi.build_index(table, FIELDS, INDEXES[label]), FIELDS)
        for _ in range(40):
            leaf = random_leaf(rng, values)
            got = answer(reader, leaf, rows)
            if not exact:
                assert got is None, leaf
                continue
            want = expected_rows(values, leaf)
            assert got == want, (label, leaf, values)
            # The table layer's exact filter agrees too.
            mask = predicate_mask(table, leaf).to_pylist()
            assert [r for r, m in enumerate(mask) if m] == want, leaf


def test_scan_limit():
    values = [f"k{n:04d}" for n in range(1000)]
    table = pa.table({"s": values, "i": pa.array(range(1000), pa.int32())})
    for label in ("bitmap v1", "bitmap v2", "range-bitmap"):
        data = pfi.build_index(table, FIELDS, INDEXES[label])
        limited = pfi.IndexReader(data, FIELDS, dictionary_scan_limit=100)
        assert limited.evaluate(col("s").endswith("7")).kind == "REMAIN"
        assert list(limited.evaluate(col("s").like("k001_")).row_ids()) == list(range(10, 20))
        unlimited = pfi.IndexReader(data, FIELDS)
        assert len(unlimited.evaluate(col("s").endswith("7")).row_ids()) == 100
        prefix = limited.evaluate(col("s").startswith("k0"))
        assert (prefix.kind == "REMAIN") == (not label.startswith("range"))
    assert pfi.DEFAULT_DICTIONARY_SCAN_LIMIT > 0
    with pytest.raises(pfi.FileIndexError, match="must not be negative"):
        pfi.IndexReader(data, FIELDS, dictionary_scan_limit=-1)


def test_non_string_column_is_refused_by_the_reader():
    table = pa.table({"s": ["a"], "i": pa.array([1], pa.int32())})
    reader = pfi.IndexReader(
        pfi.build_index(table, FIELDS, {"file-index.bitmap.columns": "i"}), FIELDS)
    with pytest.raises(pfi.FileIndexError, match="CHAR or VARCHAR"):
        reader.evaluate(Leaf("starts_with", "i", ("1",)))


def test_random_tables():
    """The random-table generator's string columns, each index it declares on them."""
    rng = random.Random(44)
    checked = 0
    for _ in range(30):
        table, columns, options = random_table(rng, rng.randint(1, 300))
        strings = [c for c in columns if c.kind == "string"]
        if not strings:
            continue
        fields = [(c.name, "MAP<STRING, INT>" if c.kind == "map" else
                   {"tinyint": "TINYINT", "int": "INT", "bigint": "BIGINT", "string": "STRING",
                    "double": "DOUBLE", "float": "FLOAT", "boolean": "BOOLEAN", "date": "DATE",
                    "timestamp": "TIMESTAMP(6)", "decimal": "DECIMAL(10, 2)"}[c.kind])
                  for c in columns]
        data = pfi.build_index(table, fields, options)
        if data is None:
            continue
        reader = pfi.IndexReader(data, fields)
        for column in strings:
            indexed = {e.index_type for e in reader.entries if e.column == column.name}
            exact = bool(indexed & {"bitmap", "range-bitmap"})
            for _ in range(15):
                leaf = random_leaf(rng, column.values)
                leaf = Leaf(leaf.op, column.name, leaf.literals)
                got = answer(reader, leaf, table.num_rows)
                want = expected_rows(column.values, leaf)
                if exact:
                    assert got == want, (column.name, leaf)
                    checked += 1
                else:
                    assert got is None or set(want) <= set(got)
    assert checked > 50


def test_golden_tables():
    """f0 (STRING) of the Java-written tables: bitmap V1/V2 answer exactly, bloom REMAIN."""
    from golden_tables import load_files

    checked = 0
    for name in ("append_with_bitmap", "append_with_bitmap_v1",
                 "append_with_bitmap_no_embedding", "append_with_bloomfilter",
                 "append_with_bsi_bitmap_bloomfilter"):
        for golden in load_files(name):
            if golden.index_bytes is None or "f0" not in golden.rows:
                continue
            reader = pfi.IndexReader(golden.index_bytes, golden.fields, golden.row_count)
            indexed = {e.index_type for e in reader.entries if e.column == "f0"}
            values = golden.rows["f0"]
            for leaf in (col("f0").startswith("A"), col("f0").like("%o%"),
                         col("f0").like("_o_"), col("f0").endswith("y"),
                         col("f0").contains("li"), col("f0").not_like("B%"),
                         col("f0").like("Zed%"), col("f0").like("%")):
                got = answer(reader, leaf, golden.row_count)
                if "bitmap" in indexed:
                    assert got == expected_rows(values, leaf), (name, leaf)
                    checked += 1
                else:
                    assert got is None, (name, leaf)
    assert checked >= 8


# ---- explain ----------------------------------------------------------------------------------

def test_explain_reports_dictionary_scans():
    from pyfileindex.explain import explain, format_explain

    values = [f"k{n:03d}" for n in range(300)]
    table = pa.table({"s": values, "i": pa.array(range(300), pa.int32())})
    options = {"file-index.bitmap.columns": "s", "file-index.range-bitmap.columns": "s",
               "file-index.bloom-filter.columns": "i"}
    reader = pfi.IndexReader(pfi.build_index(table, FIELDS, options), FIELDS,
                             dictionary_scan_limit=200)
    predicate = bind_predicate(col("s").like("k1%") & col("s").endswith("7")
                               & (col("i") == 3), FIELDS)
    entries = explain(reader, predicate)
    assert [e["answer"] for e in entries] == ["ROWS 100", "REMAIN", "REMAIN"]
    work = {(e["leaf"], i["index"]): i["work"] for e in entries for i in e["indexes"]}
    assert work[("s LIKE 'k1%'", "range-bitmap")].startswith("code range")
    assert "keys starting with 'k1'" in work[("s LIKE 'k1%'", "bitmap")]
    assert "exceeds the limit of 200" in work[("ends_with(s, '7')", "bitmap")]
    assert "dictionary scan of 300" in work[("ends_with(s, '7')", "range-bitmap")]
    assert work[("i = 3", "bloom-filter")] == "bloom-filter lookup"
    text = format_explain(entries)
    assert "s LIKE 'k1%': ROWS 100" in text and "  range-bitmap: code range" in text


def test_cli_query_explain(capsys):
    import json

    from golden_tables import table_dir
    from pyfileindex.cli import main

    table = table_dir("append_with_bitmap_no_embedding")
    index_file = sorted((table / "bucket-0").glob("*.parquet.index"))[0]
    status = main(["query", str(index_file), "--schema", str(table / "schema" / "schema-0"),
                   "f0 LIKE '%o%'", "--json", "--explain"])
    out, err = capsys.readouterr()
    assert status == 0, err
    payload = json.loads(out)
    assert payload["result"] == "ROWS" and payload["rows"] == [1, 3, 5, 6]  # Bob, Tony
    assert payload["explain"][0]["indexes"] == [
        {"index": "bitmap", "work": "dictionary scan of 5 entries"}]


def test_spark_like_pattern():
    """Spark's LIKE escapes with a backslash: every pattern is respelled so."""
    from pyfileindex.spark.filters import spark_like_pattern

    assert spark_like_pattern("a%b_", None) == "a%b_"
    assert spark_like_pattern("a\\b", None) == "a\\\\b"  # a literal backslash
    assert spark_like_pattern("a!%!_!!x", "!") == "a\\%\\_!x"
    assert spark_like_pattern("a\\%", "\\") == "a\\%"
    rng = random.Random(7)
    for _ in range(300):
        leaf = random_leaf(rng, ["a%_!\\b"])
        if leaf.op not in ("like", "not_like"):
            continue
        pattern, escape = like_of(leaf.op, leaf.literals)
        spark = spark_like_pattern(pattern, escape)
        for value in ["", "a", "a%", "a_b", "\\", "!", "a%_!\\b", "ab!", "é😀"]:
            assert reference_like(value, spark, "\\") == reference_like(value, pattern, escape)
