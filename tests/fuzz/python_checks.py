"""What must hold for any input to pyfileindex's Python parsers: it is parsed or refused with the
parser's own error (PredicateError, SchemaError), and what was parsed prints as text parsing back
to the same value. atheris drives these checks (fuzz_python.py); pytest replays the inputs kept
in regressions/ (tests/test_fuzz_regressions.py).
"""

from pyfileindex import predicate as predicates
from pyfileindex import schema as schemas

FIELDS = [("i", "INT"), ("b", "BIGINT"), ("s", "STRING"), ("d", "DOUBLE"), ("dt", "DATE"),
          ("ts", "TIMESTAMP(9)"), ("dec", "DECIMAL(10, 2)"), ("m", "MAP<STRING, INT>"),
          ("bin", "BYTES"), ("t", "TIME")]


def check_predicate(data: bytes) -> None:
    text = data.decode("utf-8", "replace")
    for fields in (None, FIELDS):
        try:
            tree = predicates.parse_predicate(text, fields)
        except predicates.PredicateError:
            continue
        sql = tree.to_sql()
        again = predicates.parse_predicate(sql, fields)
        if again != tree:
            raise AssertionError(f"{text!r} parses to {tree!r}, whose SQL {sql!r} parses to "
                                 f"{again!r}")


def check_schema(data: bytes) -> None:
    try:
        schemas.parse_schema(data)
    except schemas.SchemaError:
        pass
    text = data.decode("utf-8", "replace")
    try:
        parsed = schemas.parse_type(text)
    except schemas.SchemaError:
        return
    again = schemas.parse_type(str(parsed))
    if again != parsed:
        raise AssertionError(f"type {text!r} prints as {str(parsed)!r}, which parses to {again!r}")
