"""Parsing SQL-like predicate text (sqlglot does the grammar; this turns its AST into the tree)."""

import decimal
import math
import re
import sys
from typing import Any, Optional, Union

from .binding import bind_predicate
from .errors import PredicateError
from .literals import DecimalText, parse_float_text
from .temporal import parse_date, parse_time, parse_timestamp
from .tree import And, Leaf, Or, Predicate

# Operator with its operands swapped: `3 < x` is `x > 3`.
_MIRRORED = {"eq": "eq", "ne": "ne", "lt": "gt", "gt": "lt", "le": "ge", "ge": "le"}


_DIALECT = None


def _dialect():
    """A sqlglot dialect: "x" and `x` quote identifiers, '' escapes ', X'..' is binary."""
    global _DIALECT
    if _DIALECT is None:
        from sqlglot import tokens
        from sqlglot.dialects.dialect import Dialect

        class PyFileIndexPredicates(Dialect):
            class Tokenizer(tokens.Tokenizer):
                IDENTIFIERS = ['"', "`"]
                HEX_STRINGS = [("x'", "'"), ("X'", "'")]
                STRING_ESCAPES = ["'"]

        _DIALECT = PyFileIndexPredicates
    return _DIALECT


def _position(node) -> Optional[int]:
    """1-based character position of the first token under `node`, if sqlglot kept it."""
    starts = [meta["start"] for sub in node.walk()
              for meta in [getattr(sub, "_meta", None) or {}] if "start" in meta]
    return min(starts) + 1 if starts else None


def _syntax_error(problem: str, node=None) -> PredicateError:
    position = _position(node) if node is not None else None
    where = f" at character {position}" if position else ""
    return PredicateError(f"cannot parse predicate: {problem}{where}")


def _snippet(node) -> str:
    try:
        text = node.sql()
    except Exception:  # noqa: BLE001 - sqlglot cannot print every tree it parses (X'' in
        # an expression fails in its generator); the message then names the node's kind
        text = type(node).__name__
    return text if len(text) <= 60 else text[:57] + "..."


def _clean_sqlglot_message(text: str) -> str:
    # "Required keyword: 'expression' missing for <class 'sqlglot...And'>" -> "AND lacks ..."
    text = re.sub(r"<class '[\w.]*?(\w+)'>", lambda m: m.group(1).upper(), text)
    return re.sub(r"Required keyword: '\w+' missing for (\w+)",
                  lambda m: f"incomplete {_NODE_NAMES.get(m.group(1), m.group(1))} "
                            "(an operand is missing)", text)


_NODE_NAMES = {"EQ": "'='", "NEQ": "'<>'", "LT": "'<'", "LTE": "'<='", "GT": "'>'", "GTE": "'>='"}


def _unclosed_quote(text: str) -> Optional[int]:
    """0-based position of a quote that is never closed (quotes escape by doubling)."""
    opened, position = None, 0
    while position < len(text):
        char = text[position]
        if opened is None:
            if char in "'\"`":
                opened = position
        elif char == text[opened]:
            if position + 1 < len(text) and text[position + 1] == char:
                position += 1  # a doubled quote stands for itself
            else:
                opened = None
        position += 1
    return opened


def _parse_sql(text: str):
    import sqlglot
    from sqlglot.errors import ParseError, TokenError

    if not isinstance(text, str):
        raise PredicateError(f"a predicate must be a string, got {type(text).__name__}")
    if not text.strip():
        raise PredicateError("cannot parse predicate: it is empty")
    _reject_stray_nul(text)
    try:
        return sqlglot.parse_one(text, dialect=_dialect())
    except ParseError as exc:
        errors = getattr(exc, "errors", None) or []
        if errors:
            first = errors[0]
            description = _clean_sqlglot_message(str(first.get("description", "syntax error")))
            near = first.get("highlight") or ""
            line, column = first.get("line"), first.get("col")
            where = (f" (line {line}, column {column})" if line and line > 1
                     else f" at character {column}")
            near_text = f" near {near!r}" if near else ""
            raise PredicateError(
                f"cannot parse predicate: {description}{near_text}{where}") from None
        raise PredicateError(
            f"cannot parse predicate: {_clean_sqlglot_message(str(exc))}") from None
    except TokenError as exc:
        opened = _unclosed_quote(text)
        if opened is not None:
            raise PredicateError(f"cannot parse predicate: quote {text[opened]} at character "
                                 f"{opened + 1} is never closed") from None
        raise PredicateError(f"cannot parse predicate: {str(exc).splitlines()[0]}") from None


def _reject_stray_nul(text: str) -> None:
    """NUL characters are data inside quotes only; elsewhere sqlglot would read them as names."""
    if "\x00" not in text:
        return
    from sqlglot.errors import TokenError
    from sqlglot.tokens import TokenType

    try:
        tokens = _dialect()().tokenize(text)
    except TokenError:
        return  # the parser reports the real problem
    inside = [(t.start, t.end) for t in tokens if t.token_type == TokenType.STRING]
    for position, char in enumerate(text):
        if char == "\x00" and not any(start <= position <= end for start, end in inside):
            raise PredicateError(
                f"cannot parse predicate: NUL character at character {position + 1} "
                "(allowed only inside a quoted string)")


class _Converter:
    """sqlglot AST -> predicate tree."""

    def __init__(self, exact_numbers: bool):
        from sqlglot import exp

        self.exp = exp
        self.exact_numbers = exact_numbers

    def condition(self, node) -> Predicate:
        exp = self.exp
        if isinstance(node, exp.Paren):
            return self.condition(node.this)
        if isinstance(node, exp.And):
            return And([self.condition(operand) for operand in self.chain(node)])
        if isinstance(node, exp.Or):
            return Or([self.condition(operand) for operand in self.chain(node)])
        if isinstance(node, exp.Not):
            return self.condition(node.this).negate()
        for kind, op in ((exp.EQ, "eq"), (exp.NEQ, "ne"), (exp.LT, "lt"), (exp.LTE, "le"),
                         (exp.GT, "gt"), (exp.GTE, "ge")):
            if type(node) is kind:
                return self.comparison(node, op)
        if isinstance(node, exp.In):
            return self.in_list(node)
        if isinstance(node, exp.Is):
            return self.is_null(node)
        if isinstance(node, exp.Between):
            return self.between(node)
        if isinstance(node, (exp.Like, exp.Escape)):
            return self.like(node)
        for kind, op in ((exp.StartsWith, "starts_with"), (exp.EndsWith, "ends_with"),
                         (exp.Contains, "contains")):
            if type(node) is kind:
                return self.string_function(node, op)
        raise self.unsupported(node)

    def chain(self, node) -> list:
        """The operands of `a AND b AND c ...` (or OR), in order. sqlglot nests such a chain one
        level per operand, so it is walked with a stack: a generated query's thousands of terms
        would exceed Python's recursion limit."""
        operands, pending = [], [node]
        while pending:
            current = pending.pop()
            inner = current
            while isinstance(inner, self.exp.Paren):
                inner = inner.this
            if type(inner) is type(node):
                pending += [inner.expression, inner.this]  # `this` (the left side) comes first
            else:
                operands.append(current)
        return operands

    def unsupported(self, node) -> PredicateError:
        exp = self.exp
        if isinstance(node, exp.Block):
            return PredicateError("cannot parse predicate: only one predicate is allowed "
                                  "(combine several with AND)")
        if isinstance(node, exp.ILike):
            reason = "ILIKE is not supported; use LIKE"
        elif isinstance(node, exp.NullSafeEQ):
            reason = "IS NOT DISTINCT FROM / <=> is not supported; use = and IS NULL"
        elif isinstance(node, (exp.Add, exp.Sub, exp.Mul, exp.Div, exp.Mod, exp.IntDiv, exp.DPipe)):
            reason = "arithmetic is not supported; compare a column with a literal"
        elif isinstance(node, exp.Func):
            reason = "function calls are not supported"
        elif isinstance(node, exp.Alias):
            return _syntax_error(f"unexpected {node.alias!r}", node.args.get("alias"))
        elif isinstance(node, (exp.Column, exp.Bracket)):
            reason = "a bare column is not a condition; compare it, e.g. flag = TRUE"
        elif isinstance(node, (exp.Boolean, exp.Literal, exp.Null)):
            reason = "a constant is not a condition"
        elif isinstance(node, (exp.Subquery, exp.Select, exp.Query)):
            reason = "subqueries are not supported"
        else:
            reason = "this construct is not supported"
        return _syntax_error(f"{reason} ({_snippet(node)!r})", node)

    # -- operands ---------------------------------------------------------------------------

    def column_name(self, node) -> Optional[str]:
        """The column a node names, or None when it is not a column reference."""
        exp = self.exp
        if isinstance(node, exp.Paren):
            return self.column_name(node.this)
        if isinstance(node, exp.Column):
            if node.args.get("table") is not None:
                raise _syntax_error(
                    f"qualified name {node.sql()!r} is not supported; "
                    'quote a name that contains dots, e.g. "a.b"', node)
            if not isinstance(node.this, exp.Identifier):
                raise _syntax_error(f"{node.sql()!r} is not a column name", node)
            return node.this.this
        if isinstance(node, exp.Bracket):
            base = None if isinstance(node.this, exp.Bracket) else self.column_name(node.this)
            if base is None:
                raise _syntax_error(f"map access {node.sql()!r} must be on a plain column", node)
            keys = node.expressions
            if len(keys) != 1 or not (isinstance(keys[0], exp.Literal) and keys[0].is_string):
                raise _syntax_error(
                    f"map access {node.sql()!r} needs one quoted string key, e.g. m['k']", node)
            return f"{base}[{keys[0].this}]"
        return None

    def literal(self, node, column: str) -> Any:
        exp = self.exp
        if isinstance(node, exp.Paren):
            return self.literal(node.this, column)
        if isinstance(node, exp.Null):
            raise _syntax_error(
                f"comparison of {column!r} with NULL never matches; use IS NULL / IS NOT NULL",
                node)
        if isinstance(node, exp.Boolean):
            return bool(node.this)
        if isinstance(node, exp.Literal):
            return node.this if node.is_string else self.number(node.this, node)
        if isinstance(node, exp.Neg):
            value = self.literal(node.this, column)
            if isinstance(value, bool) or not isinstance(value, (int, float, decimal.Decimal)):
                raise _syntax_error(f"'-' applies to numbers only ({_snippet(node)!r})", node)
            # Decimal's unary minus rounds -0.0 to 0.0; a DOUBLE column must see -0.0.
            return value.copy_negate() if isinstance(value, decimal.Decimal) else -value
        if isinstance(node, exp.HexString):
            digits = node.this or ""
            try:
                return bytes.fromhex(digits)
            except ValueError:
                raise _syntax_error(f"invalid binary literal X'{digits}': expected pairs of hex "
                                    "digits", node) from None
        if isinstance(node, exp.Cast):
            return self.typed_literal(node, column)
        if self.column_name(node) is not None:
            raise _syntax_error("comparing two columns is not supported; "
                                "compare a column with a literal", node)
        if isinstance(node, exp.Placeholder):
            raise _syntax_error("parameters are not supported; write the value", node)
        raise _syntax_error(f"expected a literal value, found {_snippet(node)!r}", node)

    def is_literal(self, node) -> bool:
        exp = self.exp
        while isinstance(node, (exp.Paren, exp.Neg)):
            node = node.this
        return isinstance(node, (exp.Literal, exp.Boolean, exp.Null, exp.HexString, exp.Cast))

    def number(self, text: str, node) -> Union[int, float, decimal.Decimal]:
        if text.isdigit():
            return int(text)
        try:
            exact = decimal.Decimal(text)
        except decimal.InvalidOperation:
            raise _syntax_error(f"invalid number {text!r}", node) from None
        if self.exact_numbers:
            return exact
        value = float(text)
        if not math.isfinite(value):
            raise _syntax_error(f"number {text} is out of the range of DOUBLE", node)
        # A float binds to DECIMAL by its shortest repr: right for 0.1, not for digits the
        # float does not keep.
        return value if decimal.Decimal(repr(value)) == exact else DecimalText(exact)

    def typed_literal(self, node, column: str) -> Any:
        """DATE '...', TIME '...', TIMESTAMP '...' and CAST('...' AS <type>)."""
        Type = self.exp.DataType.Type
        target = node.to.this if isinstance(node.to, self.exp.DataType) else None
        inner = node.this
        is_text = isinstance(inner, self.exp.Literal) and inner.is_string
        try:
            if target == Type.DATE and is_text:
                return parse_date(inner.this)
            if target == Type.TIME and is_text:
                return parse_time(inner.this)
            if target in (Type.TIMESTAMP, Type.TIMESTAMPLTZ, Type.TIMESTAMPTZ, Type.TIMESTAMPNTZ,
                          Type.DATETIME) and is_text:
                return parse_timestamp(inner.this)
            if target in (Type.DOUBLE, Type.FLOAT):
                value = self.literal(inner, column)
                return _float_from(value, is_text)
            if target == Type.DECIMAL:
                value = inner.this if is_text else self.literal(inner, column)
                return decimal.Decimal(str(value).strip())
        except PredicateError as exc:
            raise _syntax_error(str(exc), node) from None
        except (decimal.InvalidOperation, ValueError):
            raise _syntax_error(f"invalid value {_snippet(inner)!r} for {_snippet(node.to)}",
                                node) from None
        raise _syntax_error(f"unsupported typed literal {_snippet(node)!r}; use DATE '...', "
                            "TIME '...', TIMESTAMP '...' or a plain literal", node)

    # -- conditions -------------------------------------------------------------------------

    def comparison(self, node, op: str) -> Leaf:
        left, right = node.this, node.expression
        column = self.column_name(left)
        if column is None:
            column = self.column_name(right)
            if column is None:
                for side in (left, right):
                    if not self.is_literal(side):
                        raise self.unsupported(side)
                raise _syntax_error(f"{_snippet(node)!r} compares no column", node)
            left, right, op = right, left, _MIRRORED[op]
        return Leaf(op, column, (self.literal(right, column),))

    def in_list(self, node) -> Leaf:
        for unsupported in ("query", "unnest", "field"):
            if node.args.get(unsupported) is not None:
                raise _syntax_error(f"IN takes a list of literals ({_snippet(node)!r})", node)
        column = self.require_column(node.this, node)
        if not node.expressions:
            raise _syntax_error(f"IN list of {column!r} is empty", node)
        values = []
        for item in node.expressions:
            if isinstance(item, self.exp.Null):
                raise _syntax_error(f"NULL inside IN (...) of {column!r} is not supported; "
                                    "add OR ... IS NULL instead", item)
            values.append(self.literal(item, column))
        return Leaf("in", column, values)

    def is_null(self, node) -> Leaf:
        column = self.require_column(node.this, node)
        if self.is_nan_keyword(node.expression):
            return Leaf("is_nan", column)
        if not isinstance(node.expression, self.exp.Null):
            raise _syntax_error(f"only IS [NOT] NULL / IS [NOT] NAN are supported "
                                f"({_snippet(node)!r}); compare booleans with = TRUE / = FALSE",
                                node)
        return Leaf("is_null", column)

    def is_nan_keyword(self, node) -> bool:
        """`NAN` after IS: sqlglot reads the keyword as an unquoted name ("NAN" quoted is a
        column, which IS does not take)."""
        exp = self.exp
        return (isinstance(node, exp.Column) and node.args.get("table") is None
                and isinstance(node.this, exp.Identifier) and not node.this.quoted
                and node.this.this.upper() == "NAN")

    def between(self, node) -> Leaf:
        if node.args.get("symmetric"):
            raise _syntax_error("BETWEEN SYMMETRIC is not supported", node)
        column = self.require_column(node.this, node)
        low = self.literal(node.args["low"], column)
        high = self.literal(node.args["high"], column)
        return Leaf("between", column, (low, high))

    def like(self, node) -> Leaf:
        """`s [NOT] LIKE 'pattern' [ESCAPE 'e']`."""
        exp = self.exp
        escape = None
        if isinstance(node, exp.Escape):
            escape = self.string_literal(node.expression, "the ESCAPE character", node)
            node = node.this
            if not isinstance(node, exp.Like):
                raise self.unsupported(node)
        column = self.require_column(node.this, node)
        pattern = self.string_literal(node.expression, "a LIKE pattern", node)
        literals = (pattern,) if escape is None else (pattern, escape)
        try:
            return Leaf("not_like" if node.args.get("negate") else "like", column, literals)
        except PredicateError as exc:  # a malformed pattern or escape, said where it is
            raise _syntax_error(str(exc), node) from None

    def string_function(self, node, op: str) -> Leaf:
        """starts_with(s, 'ab'), ends_with(s, 'b'), contains(s, 'x')."""
        column = self.require_column(node.this, node)
        text = self.string_literal(node.expression, f"the text of {op}", node)
        return Leaf(op, column, (text,))

    def string_literal(self, operand, what: str, node) -> str:
        exp = self.exp
        inner = operand
        while isinstance(inner, exp.Paren):
            inner = inner.this
        if isinstance(inner, exp.Literal) and inner.is_string:
            return inner.this
        raise _syntax_error(f"{what} must be a quoted string ({_snippet(node)!r})", node)

    def require_column(self, operand, node) -> str:
        column = self.column_name(operand)
        if column is None:
            raise _syntax_error(f"expected a column on the left of {_snippet(node)!r}", node)
        return column


def _float_from(value: Any, from_text: bool) -> float:
    if isinstance(value, str):
        return parse_float_text(value)
    if isinstance(value, bool):
        raise PredicateError(f"{value} is not a number")
    return float(value)


def parse_predicate(text: str, fields=None, *, exact_numbers: bool = False) -> Predicate:
    """Parse SQL-like text into a predicate tree.

    Grammar: comparisons (=, <>, !=, <, <=, >, >=), IN (...), NOT IN (...),
    IS [NOT] NULL, IS [NOT] NAN, [NOT] BETWEEN a AND b, [NOT] LIKE 'pattern' [ESCAPE 'e'],
    starts_with(s, 'text'), ends_with(s, 'text'), contains(s, 'text'),
    AND (binds tighter than OR), OR, NOT,
    parentheses.  Literals: integers, decimals (1.5, 1e3), 'strings' ('' escapes
    a quote), TRUE/FALSE, X'0AFF' (binary), DATE 'YYYY-MM-DD', TIME 'HH:MM:SS',
    TIMESTAMP 'YYYY-MM-DD HH:MM:SS.fffffffff' (nanoseconds kept).  Columns are
    plain names, "quoted" or `quoted` names, and map entries m['k'].

    With `fields` ([(name, Paimon type)], a dict or a Schema) the literals are
    bound to the column types (see bind_predicate) and decimal literals stay
    exact.  Without it, non-integral numbers become floats unless exact_numbers
    is true (then decimal.Decimal, text-preserving); a number with more digits than
    a float keeps becomes a DecimalText, a float that remembers its exact value
    for binding to a DECIMAL column later.
    """
    exact = exact_numbers or fields is not None
    try:
        tree = _Converter(exact).condition(_parse_sql(text))
    except RecursionError:
        raise PredicateError("cannot parse predicate: it nests parentheses or NOT too deeply "
                             f"(Python's recursion limit is {sys.getrecursionlimit()})") from None
    return tree if fields is None else bind_predicate(tree, fields)


def parse_column(text: str) -> str:
    """A column name from SQL-like text: f0, "Col", `col`, m['k'] -> "m[k]"."""
    node = _parse_sql(text)
    name = _Converter(False).column_name(node)
    if name is None:
        raise PredicateError(f"expected a column name, got {text!r}")
    return name
