"""Predicate trees of the differential suite: leaves, AND / OR nodes and NOT.

One tree feeds both sides: cases.to_java makes the harness's JSON, cases.to_ours our
pyfileindex.predicate form.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Tuple


@dataclass(frozen=True)
class PLeaf:
    op: str
    column: str
    literals: Tuple[Any, ...] = ()
    form: Optional[str] = None  # "leaf": Java builds one In/NotIn leaf, not OR/AND of =/<>
    literal_forms: Tuple[int, ...] = ()  # which Python spelling each literal uses on our side

    def columns(self):
        return {self.column}

    def __str__(self):
        if self.op in ("is_null", "is_not_null"):
            return f"{self.column} {self.op}"
        return f"{self.column} {self.op} {list(self.literals)!r}"


@dataclass(frozen=True)
class PNode:
    op: str  # and / or
    children: Tuple[Any, ...]

    def columns(self):
        out = set()
        for c in self.children:
            out |= c.columns()
        return out

    def __str__(self):
        return "(" + f" {self.op.upper()} ".join(str(c) for c in self.children) + ")"


@dataclass(frozen=True)
class PNot:
    """NOT child: Java's Predicate.negate(), our `~predicate`."""

    child: Any

    def columns(self):
        return self.child.columns()

    def __str__(self):
        inner = str(self.child)
        return f"NOT {inner}" if isinstance(self.child, PNode) else f"NOT ({inner})"
