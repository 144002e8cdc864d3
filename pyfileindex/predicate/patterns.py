"""SQL LIKE patterns: checking them, escaping literal text into them, and matching values.

`%` matches any run of characters (also none), `_` exactly one character (one code point),
and the escape character, when a pattern has one (LIKE ... ESCAPE 'e'), makes the `%`, `_` or
escape character after it literal; without ESCAPE every other character stands for itself
(backslash included). The native readers match the same way (cpp/src/pattern/).
"""

import re
from typing import Iterator, Optional, Tuple

from .errors import PredicateError

PATTERN_OPS = ("starts_with", "ends_with", "contains", "like", "not_like")

# The escape character negation uses when it turns starts_with/ends_with/contains into NOT LIKE.
NEGATION_ESCAPE = "\\"


def check_like(pattern: str, escape: Optional[str], column: str) -> None:
    """PredicateError when `escape` is not one character, or `pattern` misuses it."""
    if escape is None:
        return
    if len(escape) != 1:
        raise PredicateError(f"LIKE on column {column!r}: the escape must be one character, "
                             f"got {escape!r}")
    position = 0
    while position < len(pattern):
        if pattern[position] == escape:
            if position + 1 == len(pattern):
                raise PredicateError(f"LIKE pattern {pattern!r} on column {column!r} ends with "
                                     f"its escape character {escape!r}")
            following = pattern[position + 1]
            if following not in ("%", "_", escape):
                raise PredicateError(
                    f"LIKE pattern {pattern!r} on column {column!r}: the escape character "
                    f"{escape!r} may only precede %, _ or itself, not {following!r}")
            position += 1
        position += 1


def escape_text(text: str, escape: str = NEGATION_ESCAPE) -> str:
    """`text` as a LIKE pattern that matches exactly it (with ESCAPE `escape`)."""
    return "".join(escape + char if char in ("%", "_", escape) else char for char in text)


def like_of(op: str, literals: Tuple[str, ...]) -> Tuple[str, Optional[str]]:
    """The (pattern, escape) of a pattern leaf: starts_with 'ab' is LIKE 'ab%', ..."""
    if op in ("like", "not_like"):
        return literals[0], (literals[1] if len(literals) > 1 else None)
    text = escape_text(literals[0])
    pattern = {"starts_with": text + "%", "ends_with": "%" + text,
               "contains": "%" + text + "%"}[op]
    return pattern, NEGATION_ESCAPE


def _regex_literal(char: str) -> str:
    # \xHH for ASCII punctuation and controls: one spelling Python's re and RE2 both read.
    if char.isalnum() or char == "_" or ord(char) >= 0x80:
        return char
    return f"\\x{ord(char):02x}"


# What each position of a checked pattern stands for.
ANY_RUN = "%"     # any run of characters, also none
ONE_CHAR = "_"    # exactly one character
LITERAL = "lit"   # the character itself


def pattern_tokens(pattern: str, escape: Optional[str]) -> Iterator[Tuple[str, str]]:
    """(ANY_RUN | ONE_CHAR | LITERAL, character) for each position of a checked pattern, an
    escaped character coming as the LITERAL it stands for."""
    position = 0
    while position < len(pattern):
        char = pattern[position]
        if escape is not None and char == escape:
            position += 1
            yield LITERAL, pattern[position]
        elif char in (ANY_RUN, ONE_CHAR):
            yield char, char
        else:
            yield LITERAL, char
        position += 1


def like_regex(pattern: str, escape: Optional[str]) -> str:
    """An anchored regular expression (Python re and RE2 alike) matching what `pattern` does."""
    spelled = {ANY_RUN: ".*", ONE_CHAR: "."}
    parts = [spelled[kind] if kind in spelled else _regex_literal(char)
             for kind, char in pattern_tokens(pattern, escape)]
    return "(?s)^" + "".join(parts) + "$"


def like_matches(value: str, pattern: str, escape: Optional[str] = None) -> bool:
    """Whether `value` matches (a plain-Python reference, for tests and small inputs)."""
    return re.match(like_regex(pattern, escape), value) is not None


def literal_prefix(pattern: str, escape: Optional[str]) -> Tuple[str, bool]:
    """(the literal text every match starts with, whether the pattern is that text followed by
    `%`s only): what decides how an index's sorted dictionary answers the pattern."""
    tokens = list(pattern_tokens(pattern, escape))
    literal_run = next((n for n, (kind, _) in enumerate(tokens) if kind != LITERAL), len(tokens))
    rest = {kind for kind, _ in tokens[literal_run:]}
    prefix = "".join(char for _, char in tokens[:literal_run])
    return prefix, rest == {ANY_RUN}
