"""The predicate tree: immutable, hashable Leaf / And / Or nodes combinable with &, | and ~.

The native evaluator reads exactly `Leaf.op`, `Leaf.column`, `Leaf.literals` and
`And.children` / `Or.children` (see the package docstring).
"""

from typing import Any, Iterable, List, Tuple

from .errors import PredicateError
from .literals import format_column, format_literal, literal_key, normalize_literal
from .patterns import PATTERN_OPS, check_like, like_of


OPS = ("eq", "ne", "lt", "le", "gt", "ge", "in", "not_in", "is_null", "is_not_null", "between",
       "starts_with", "ends_with", "contains", "like", "not_like", "is_nan", "is_not_nan")

_COMPARISONS = ("eq", "ne", "lt", "le", "gt", "ge")
_NEGATED = {
    "eq": "ne", "ne": "eq", "lt": "ge", "ge": "lt", "le": "gt", "gt": "le",
    "in": "not_in", "not_in": "in", "is_null": "is_not_null", "is_not_null": "is_null",
    "like": "not_like", "not_like": "like",
    "is_nan": "is_not_nan", "is_not_nan": "is_nan",
}
# SQL functions of the string-pattern leaves (the parser reads them back).
_SQL_FUNCTIONS = {"starts_with": "starts_with", "ends_with": "ends_with", "contains": "contains"}
_SQL_OPERATORS = {"eq": "=", "ne": "<>", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}


class Predicate:
    """Base of Leaf, And and Or: immutable, hashable, combinable with &, | and ~."""

    __slots__ = ()

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __and__(self, other: "Predicate") -> "And":
        if not isinstance(other, Predicate):
            return NotImplemented
        return And([self, other])

    def __or__(self, other: "Predicate") -> "Or":
        if not isinstance(other, Predicate):
            return NotImplemented
        return Or([self, other])

    def __invert__(self) -> "Predicate":
        return self.negate()

    def __bool__(self):
        # `a and b` / `not a` would silently drop a predicate: point to & | ~ instead.
        raise TypeError("a predicate has no truth value; combine predicates with &, | and ~ "
                        "(not with 'and', 'or', 'not')")

    def __repr__(self) -> str:
        return self.to_sql()

    __str__ = __repr__

    def negate(self) -> "Predicate":
        raise NotImplementedError

    def to_sql(self) -> str:
        raise NotImplementedError

    def columns(self) -> Tuple[str, ...]:
        """Column names referenced, in first-appearance order, without duplicates."""
        raise NotImplementedError


_ARITY = {op: (1, 1) for op in _COMPARISONS}
_ARITY.update({"in": (1, None), "not_in": (1, None), "is_null": (0, 0), "is_not_null": (0, 0),
               "between": (2, 2), "starts_with": (1, 1), "ends_with": (1, 1),
               "contains": (1, 1), "like": (1, 2), "not_like": (1, 2), "is_nan": (0, 0),
               "is_not_nan": (0, 0)})


class Leaf(Predicate):
    """`column op literals`, e.g. Leaf("in", "f1", (10, 20))."""

    __slots__ = ("op", "column", "literals")

    def __init__(self, op: str, column: str, literals: Iterable[Any] = ()):
        if op not in OPS:
            raise PredicateError(
                f"unknown predicate operator {op!r}; expected one of {', '.join(OPS)}")
        if not isinstance(column, str) or not column:
            raise PredicateError(f"a column name must be a non-empty string, got {column!r}")
        if isinstance(literals, (str, bytes)) or not isinstance(literals, Iterable):
            raise PredicateError(f"literals of {op} on {column!r} must be a sequence of values")
        values = tuple(normalize_literal(v, column) for v in literals)
        low, high = _ARITY[op]
        if len(values) < low or (high is not None and len(values) > high):
            expected = (f"{low}" if low == high else f"at least {low}" if high is None
                        else f"{low} or {high}")
            raise PredicateError(
                f"{op} on column {column!r} takes {expected} literal(s), got {len(values)}")
        if op in PATTERN_OPS:
            _check_pattern_literals(op, column, values)
        object.__setattr__(self, "op", op)
        object.__setattr__(self, "column", column)
        object.__setattr__(self, "literals", values)

    def __reduce__(self):
        return (Leaf, (self.op, self.column, self.literals))

    def _key(self) -> tuple:
        return (self.op, self.column, tuple(literal_key(v) for v in self.literals))

    def __eq__(self, other) -> bool:
        return isinstance(other, Leaf) and self._key() == other._key()

    def __ne__(self, other) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(("Leaf",) + self._key())

    def columns(self) -> Tuple[str, ...]:
        return (self.column,)

    def negate(self) -> Predicate:
        if self.op == "between":
            low, high = self.literals
            return Or([Leaf("lt", self.column, (low,)), Leaf("gt", self.column, (high,))])
        if self.op in _SQL_FUNCTIONS:
            # NOT starts_with(s, 'a%') is s NOT LIKE 'a\%%' ESCAPE '\': like every negation
            # here, it selects no NULL row.
            return Leaf("not_like", self.column, like_of(self.op, self.literals))
        return Leaf(_NEGATED[self.op], self.column, self.literals)

    def to_sql(self) -> str:
        name = format_column(self.column)
        if self.op in _SQL_OPERATORS:
            return f"{name} {_SQL_OPERATORS[self.op]} {format_literal(self.literals[0])}"
        if self.op in ("in", "not_in"):
            keyword = "IN" if self.op == "in" else "NOT IN"
            return f"{name} {keyword} ({', '.join(format_literal(v) for v in self.literals)})"
        if self.op == "is_null":
            return f"{name} IS NULL"
        if self.op == "is_not_null":
            return f"{name} IS NOT NULL"
        if self.op in _SQL_FUNCTIONS:
            return f"{_SQL_FUNCTIONS[self.op]}({name}, {format_literal(self.literals[0])})"
        if self.op in ("like", "not_like"):
            keyword = "LIKE" if self.op == "like" else "NOT LIKE"
            text = f"{name} {keyword} {format_literal(self.literals[0])}"
            if len(self.literals) > 1:
                text += f" ESCAPE {format_literal(self.literals[1])}"
            return text
        if self.op == "is_nan":
            return f"{name} IS NAN"
        if self.op == "is_not_nan":
            return f"{name} IS NOT NAN"
        low, high = self.literals
        return f"{name} BETWEEN {format_literal(low)} AND {format_literal(high)}"


def _check_pattern_literals(op: str, column: str, values: tuple) -> None:
    if not all(isinstance(v, str) for v in values):
        raise PredicateError(f"{op} on column {column!r} takes string literals, got "
                             f"{', '.join(type(v).__name__ for v in values)}")
    if op in ("like", "not_like"):
        check_like(values[0], values[1] if len(values) > 1 else None, column)


class Compound(Predicate):
    __slots__ = ("children",)
    _keyword = ""

    def __init__(self, *children):
        # And([a, b]) and And(a, b) are both accepted.
        if len(children) == 1 and not isinstance(children[0], Predicate):
            children = tuple(children[0])
        flat: List[Predicate] = []
        for child in children:
            if not isinstance(child, Predicate):
                raise PredicateError(
                    f"{self._keyword} children must be predicates, got {type(child).__name__}")
            # Nested nodes of the same kind are flattened: (a AND b) AND c == a AND b AND c.
            flat.extend(child.children if type(child) is type(self) else (child,))
        if not flat:
            raise PredicateError(f"{self._keyword} needs at least one child predicate")
        object.__setattr__(self, "children", tuple(flat))

    def __reduce__(self):
        return (type(self), (self.children,))

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and self.children == other.children

    def __ne__(self, other) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((self._keyword, self.children))

    def columns(self) -> Tuple[str, ...]:
        seen = {}
        for child in self.children:
            for name in child.columns():
                seen.setdefault(name, None)
        return tuple(seen)

    def to_sql(self) -> str:
        if len(self.children) == 1:
            return self.children[0].to_sql()
        parts = []
        for child in self.children:
            text = child.to_sql()
            parts.append(f"({text})" if isinstance(child, Compound) and len(child.children) > 1
                         else text)
        return f" {self._keyword} ".join(parts)


class And(Compound):
    """All children hold."""

    __slots__ = ()
    _keyword = "AND"

    def negate(self) -> Predicate:
        return Or([child.negate() for child in self.children])


class Or(Compound):
    """At least one child holds."""

    __slots__ = ()
    _keyword = "OR"

    def negate(self) -> Predicate:
        return And([child.negate() for child in self.children])
