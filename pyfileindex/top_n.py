"""A top-n request: ORDER BY column [ASC|DESC] [NULLS FIRST|LAST] LIMIT n [WITH TIES].

One type for every caller (the command line's --top-n, plan_read / read_plan, the Spark
reader). Paimon's TopN carries an explicit null ordering on each sort key, which the
engines fill from their SQL default when the query names none: NULL is the smallest
value, so NULLs come first in ascending order and last in descending order (Spark and
Flink). `nulls_first=None` stands for that default and is resolved when the TopN is made,
so a TopN always says where its NULLs go.
"""

import re
from dataclasses import dataclass
from typing import Optional

__all__ = ["TopN", "parse_top_n"]


@dataclass(frozen=True)
class TopN:
    """ORDER BY `column` [DESC] [NULLS FIRST|LAST] LIMIT `limit` [WITH TIES].

    `nulls_first`: None (the default) means SQL's default for the direction (see the module
    docstring); `with_ties` also keeps every row tied with the limit-th on the column, as an
    ORDER BY with more sort keys after this column needs (FETCH FIRST n ROWS WITH TIES).
    """

    column: str
    limit: int
    descending: bool = False
    nulls_first: Optional[bool] = None
    with_ties: bool = False

    def __post_init__(self):
        if not isinstance(self.column, str) or not self.column:
            raise ValueError(f"top_n column must be a non-empty string, got {self.column!r}")
        if isinstance(self.limit, bool) or int(self.limit) != self.limit:
            raise ValueError(f"top_n limit must be an integer, got {self.limit!r}")
        if self.limit < 0:
            raise ValueError(f"top_n limit must not be negative, got {self.limit}")
        object.__setattr__(self, "limit", int(self.limit))
        object.__setattr__(self, "descending", bool(self.descending))
        nulls_first = (not self.descending) if self.nulls_first is None else self.nulls_first
        object.__setattr__(self, "nulls_first", bool(nulls_first))
        object.__setattr__(self, "with_ties", bool(self.with_ties))

    @property
    def n(self) -> int:
        """The limit (the name this field had in pyfileindex.paimon.TopN)."""
        return self.limit

    @classmethod
    def of(cls, value) -> Optional["TopN"]:
        """A TopN, a (column, limit[, descending[, nulls_first[, with_ties]]]) tuple, or None."""
        if value is None or isinstance(value, TopN):
            return value
        if isinstance(value, str):
            return parse_top_n(value)
        column, limit, *rest = value
        return cls(column, limit, *rest)

    def __str__(self) -> str:
        """The text parse_top_n reads back to this TopN."""
        from pyfileindex.predicate import format_column

        direction = "DESC" if self.descending else "ASC"
        nulls = "FIRST" if self.nulls_first else "LAST"
        ties = " WITH TIES" if self.with_ties else ""
        return f"{format_column(self.column)} {direction} NULLS {nulls} LIMIT {self.limit}{ties}"


_TOP_N_TEXT = re.compile(
    r"\s*(?P<column>.+?)(?:\s+(?P<direction>ASC|DESC))?(?:\s+NULLS\s+(?P<nulls>FIRST|LAST))?"
    r"\s+LIMIT\s+(?P<limit>\S+)(?:\s+(?P<ties>WITH\s+TIES))?\s*",
    re.IGNORECASE | re.DOTALL)


def parse_top_n(text: str) -> TopN:
    """Parse `col [ASC|DESC] [NULLS FIRST|LAST] LIMIT n [WITH TIES]` (ValueError if malformed).

    The column is read as predicates read it: f0, "My Col", `col`, m['k'].
    """
    from pyfileindex.predicate import PredicateError, parse_column

    match = _TOP_N_TEXT.fullmatch(text)
    if match is None:
        raise ValueError(f"{text!r}: expected "
                         "'column [ASC|DESC] [NULLS FIRST|LAST] LIMIT n [WITH TIES]'")
    try:
        column = parse_column(match["column"])
    except PredicateError as exc:
        raise ValueError(f"{text!r}: {exc}") from None
    if not match["limit"].isdigit():
        raise ValueError(f"{text!r}: LIMIT must be a non-negative integer")
    nulls = match["nulls"]
    return TopN(column, int(match["limit"]),
                descending=(match["direction"] or "ASC").upper() == "DESC",
                nulls_first=None if nulls is None else nulls.upper() == "FIRST",
                with_ties=match["ties"] is not None)
