"""The one exception of the predicate package."""


class PredicateError(ValueError):
    """A predicate is malformed, cannot be parsed, or does not fit the columns' types."""
