"""The Python DSL of predicates: col("f0") == "Alice", col("m")["k"].isin([1, 2]), ..."""

from typing import Any, Iterable, Optional

from pyfileindex.column_names import map_entry_name

from .errors import PredicateError
from .tree import Leaf, Predicate


class Column:
    """A column reference of the DSL; comparing it yields a Leaf."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        if not isinstance(name, str) or not name:
            raise PredicateError(f"a column name must be a non-empty string, got {name!r}")
        object.__setattr__(self, "name", name)

    def __setattr__(self, name, value):
        raise AttributeError("Column is immutable")

    def __repr__(self) -> str:
        return f"col({self.name!r})"

    def __bool__(self):
        raise TypeError(f"{self!r} has no truth value; compare it, e.g. {self!r} == value")

    __hash__ = None  # == builds a predicate, so columns cannot be dict keys

    def __getitem__(self, key: str) -> "Column":
        """col("m")["k"]: the value of key k of MAP column m (index column "m[k]")."""
        if not isinstance(key, str):
            raise PredicateError(
                f"map keys of {self!r} must be strings (nested indexes need CHAR/VARCHAR keys), "
                f"got {type(key).__name__}")
        if "[" in self.name:
            raise PredicateError(
                f"{self!r} is already a map entry; nested map access is not supported")
        return Column(map_entry_name(self.name, key))

    def _compare(self, op: str, value: Any) -> Leaf:
        if isinstance(value, Column):
            raise PredicateError(
                f"comparing two columns ({self.name!r}, {value.name!r}) is not supported; "
                "compare a column with a literal value")
        if value is None:
            raise PredicateError(
                f"cannot compare column {self.name!r} with None: "
                "use is_null() / is_not_null() to match NULLs")
        return Leaf(op, self.name, (value,))

    def __eq__(self, value) -> Leaf:  # type: ignore[override]
        return self._compare("eq", value)

    def __ne__(self, value) -> Leaf:  # type: ignore[override]
        return self._compare("ne", value)

    def __lt__(self, value) -> Leaf:
        return self._compare("lt", value)

    def __le__(self, value) -> Leaf:
        return self._compare("le", value)

    def __gt__(self, value) -> Leaf:
        return self._compare("gt", value)

    def __ge__(self, value) -> Leaf:
        return self._compare("ge", value)

    def _values(self, method: str, values: Iterable[Any]) -> tuple:
        if isinstance(values, (str, bytes, Column, Predicate)) or not isinstance(values, Iterable):
            raise PredicateError(
                f"{method}() on column {self.name!r} takes a list of values, "
                f"got {type(values).__name__}")
        values = tuple(values)
        if not values:
            raise PredicateError(f"{method}() on column {self.name!r} needs at least one value")
        if any(v is None for v in values):
            raise PredicateError(
                f"{method}() on column {self.name!r}: None is not a value; "
                "combine with is_null() instead")
        return values

    def isin(self, values: Iterable[Any]) -> Leaf:
        return Leaf("in", self.name, self._values("isin", values))

    def not_in(self, values: Iterable[Any]) -> Leaf:
        return Leaf("not_in", self.name, self._values("not_in", values))

    def is_null(self) -> Leaf:
        return Leaf("is_null", self.name)

    def is_not_null(self) -> Leaf:
        return Leaf("is_not_null", self.name)

    def is_nan(self) -> Leaf:
        """The value is a NaN (FLOAT / DOUBLE columns; NULL is not NaN)."""
        return Leaf("is_nan", self.name)

    def is_not_nan(self) -> Leaf:
        """The value is neither NULL nor a NaN (FLOAT / DOUBLE columns)."""
        return Leaf("is_not_nan", self.name)

    def between(self, low: Any, high: Any) -> Leaf:
        """low <= column <= high (both ends inclusive, as in SQL)."""
        if low is None or high is None:
            raise PredicateError(f"between() on column {self.name!r} needs two non-None bounds")
        return Leaf("between", self.name, (low, high))


    def _text(self, method: str, text: Any) -> str:
        if not isinstance(text, str):
            raise PredicateError(f"{method}() on column {self.name!r} takes a string, "
                                 f"got {type(text).__name__}")
        return text

    def startswith(self, prefix: str) -> Leaf:
        """Values starting with `prefix` (taken literally; NULLs never match)."""
        return Leaf("starts_with", self.name, (self._text("startswith", prefix),))

    def endswith(self, suffix: str) -> Leaf:
        """Values ending with `suffix` (taken literally)."""
        return Leaf("ends_with", self.name, (self._text("endswith", suffix),))

    def contains(self, text: str) -> Leaf:
        """Values containing `text` (taken literally)."""
        return Leaf("contains", self.name, (self._text("contains", text),))

    def like(self, pattern: str, escape: Optional[str] = None) -> Leaf:
        """SQL LIKE: `%` any run of characters, `_` one character; `escape` (one character)
        makes the %, _ or escape after it literal."""
        literals = (self._text("like", pattern),)
        if escape is not None:
            literals += (self._text("like", escape),)
        return Leaf("like", self.name, literals)

    def not_like(self, pattern: str, escape: Optional[str] = None) -> Leaf:
        """SQL NOT LIKE: the non-NULL values `like` does not match."""
        return self.like(pattern, escape).negate()


def col(name: str) -> Column:
    """A column of the DSL: col("f0") == "Alice", col("m")["k"].isin([1, 2]), ..."""
    return Column(name)
