"""Coverage-guided fuzzing (atheris, libFuzzer for Python) of what pyfileindex parses in Python:
predicate text and schema files (their JSON and the type strings in them).

    python tests/fuzz/fuzz_python.py predicate|schema CORPUS_DIR [libFuzzer flags...]

Every input is parsed or refused with the parser's own error (PredicateError, SchemaError);
anything else (an IndexError, a RecursionError, a TypeError...) is a bug and stops the run. A
parsed predicate's SQL parses back to the same tree; a parsed type's string to the same type.
`./dev fuzz` and `./dev test` run both (docs/FUZZING.md). An empty CORPUS_DIR gets seeds first.
"""

import os
import sys

import atheris

with atheris.instrument_imports(include=["pyfileindex"]):  # not numpy, sqlglot, ...
    from python_checks import check_predicate, check_schema

PREDICATE_SEEDS = [
    "i = 1", "s = 'Bob' AND i IN (1, 2, 3)", "NOT (d < 0.5 OR d IS NULL)",
    "dt BETWEEN DATE '2020-01-01' AND DATE '2021-12-31'", "ts >= TIMESTAMP '2020-01-01 00:00:00.123456789'",
    "m['k'] <> 7", "dec NOT IN (1.25, -3.5)", "bin = X'0AFF'", "t < TIME '12:00:00'",
    "\"i\" = 1e3", "`s` IS NOT NULL", "b NOT BETWEEN -9223372036854775808 AND 5",
    "s LIKE 'a%b_'", "s NOT LIKE '%x%'", "s LIKE 'a!%%' ESCAPE '!'", "m['k'] LIKE '_'",
    "NOT starts_with(s, 'ab%')", "ends_with(s, 'z') OR contains(s, 'é_')",
    "d IS NAN", "NOT (d IS NOT NAN) OR \"nan\" IS nan",
]

SCHEMA_SEEDS = [
    '{"id": 0, "fields": [{"id": 0, "name": "f0", "type": "STRING"},'
    ' {"id": 1, "name": "f1", "type": "INT NOT NULL"}], "options": {"bucket": "-1"},'
    ' "partitionKeys": [], "primaryKeys": ["f1"]}',
    '{"fields": [{"id": 2, "name": "m", "type": {"type": "MAP", "key": "STRING NOT NULL",'
    ' "value": "DECIMAL(10, 2)"}}]}',
    '{"fields": [{"id": 3, "name": "r", "type": {"type": "ROW", "fields": [{"id": 4, "name":'
    ' "x", "type": "TIMESTAMP(6) WITH LOCAL TIME ZONE"}]}}]}',
]


TARGETS = {"predicate": (check_predicate, PREDICATE_SEEDS),
           "schema": (check_schema, SCHEMA_SEEDS + ["INT", "ARRAY<MAP<INT, ROW<a INT>>>"])}


def main() -> None:
    if len(sys.argv) < 3 or sys.argv[1] not in TARGETS:
        raise SystemExit(__doc__)
    target, seeds = TARGETS[sys.argv[1]]
    corpus = sys.argv[2]
    os.makedirs(corpus, exist_ok=True)
    if not os.listdir(corpus):
        for n, seed in enumerate(seeds):
            with open(os.path.join(corpus, f"seed-{n}"), "w", encoding="utf-8") as f:
                f.write(seed)
    atheris.Setup([sys.argv[0], corpus] + sys.argv[3:], target)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
