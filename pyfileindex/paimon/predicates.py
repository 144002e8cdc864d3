"""Predicates on a table: binding to the current schema, and translating to an older
file schema by field id.

A file index stores the column names of the schema its data file was written with.
A predicate written against the table's current schema is therefore moved to the
file's schema leaf by leaf (like Java's SchemaEvolutionUtil.devolveFilters):

* the leaf's column is looked up by field id in the file schema and renamed;
* a column the file does not have, or whose type changed, cannot be asked of that
  file's index: the leaf becomes REMAIN (never a wrong SKIP). The one exception is
  integer widening (e.g. INT -> BIGINT) with every literal inside the old type's
  range, where the old index answers exactly;
* REMAIN is the identity of AND and absorbs OR (the result table of FileIndexResult),
  so REMAIN leaves are folded away; a tree that folds to nothing is REMAIN (None).
"""

from typing import Any, List, Optional, Sequence, Tuple, Union

from pyfileindex.column_names import split_map_column
from pyfileindex.predicate import And, Leaf, Or, Predicate, bind_predicate, parse_predicate
from pyfileindex.schema import INTEGRAL_RANGES, parse_type

from .schema import FieldInfo, SchemaInfo

# SQL-like text, a pyfileindex tree, or a pypaimon Predicate (pypaimon_predicates.py).
PredicateLike = Union[str, Predicate, Any, None]


def schema_fields(schema: SchemaInfo) -> List[Tuple[str, str]]:
    """[(name, type string)] of a schema version (what the native layer calls fields)."""
    return [(f.name, f.type) for f in schema.fields]


def bind_to_schema(predicate: PredicateLike, schema: SchemaInfo) -> Optional[Predicate]:
    """A DSL tree, SQL-like text or pypaimon Predicate, with literals typed for `schema`'s
    columns. A pypaimon Predicate must have an exact equivalent here (PredicateError
    otherwise); plan_read also takes the others."""
    if predicate is None:
        return None
    if not isinstance(predicate, (str, Predicate)):
        from .pypaimon_predicates import exact_predicate, is_pypaimon_predicate
        if is_pypaimon_predicate(predicate):
            return exact_predicate(predicate, schema)
    fields = schema_fields(schema)
    if isinstance(predicate, str):
        return parse_predicate(predicate, fields)
    return bind_predicate(predicate, fields)


def base_columns(predicate: Optional[Predicate]) -> List[str]:
    """Top-level column names a predicate reads (map entries count as their map)."""
    if predicate is None:
        return []
    seen = {}
    for column in predicate.columns():
        seen.setdefault(split_map_column(column).base, None)
    return list(seen)


def conjuncts(predicate: Optional[Predicate]) -> List[Predicate]:
    """The children of a top-level AND (the predicate itself otherwise)."""
    if predicate is None:
        return []
    if isinstance(predicate, And):
        return list(predicate.children)
    return [predicate]


def _strip_not_null(type_text: str) -> str:
    text = type_text.strip()
    return text[:-len(" NOT NULL")] if text.endswith(" NOT NULL") else text


def _literals_fit(literals: Sequence, file_type: str) -> bool:
    low, high = INTEGRAL_RANGES[parse_type(file_type).root]
    return all(isinstance(v, int) and low <= v <= high for v in literals)


def _same_or_widened(current: FieldInfo, old: FieldInfo, leaf: Leaf) -> bool:
    """Can the old file's index answer `leaf` (typed for `current`) exactly?"""
    if _strip_not_null(current.type) == _strip_not_null(old.type):
        return True
    try:
        new_type, old_type = parse_type(current.type), parse_type(old.type)
    except ValueError:
        return False
    if not (new_type.is_integral and old_type.is_integral):
        return False
    old_low, old_high = INTEGRAL_RANGES[old_type.root]
    new_low, new_high = INTEGRAL_RANGES[new_type.root]
    if not (new_low <= old_low and old_high <= new_high):
        return False  # narrowing: old values may not even be representable now
    return _literals_fit(leaf.literals, old.type)


def translate_to_file(predicate: Optional[Predicate], current: SchemaInfo,
                      file_schema: SchemaInfo) -> Optional[Predicate]:
    """`predicate` (bound to `current`) moved to `file_schema` by field id; None = REMAIN."""
    if predicate is None:
        return None
    if current.schema_id == file_schema.schema_id:
        return predicate
    return _translate(predicate, current, file_schema)


def _translate(node: Predicate, current: SchemaInfo, file_schema: SchemaInfo
               ) -> Optional[Predicate]:
    if isinstance(node, Leaf):
        name = split_map_column(node.column)
        now = current.field_by_name(name.base)
        if now is None:
            return None
        old = file_schema.field_by_id(now.field_id)
        if old is None or not _same_or_widened(now, old, node):
            return None
        return Leaf(node.op, name.renamed(old.name), node.literals)
    children = [_translate(child, current, file_schema) for child in node.children]
    return fold(type(node), children)


def fold(kind, children: Sequence[Optional[Predicate]]) -> Optional[Predicate]:
    """AND/OR of children where None means REMAIN (identity of AND, absorbing for OR)."""
    if kind is Or:
        if any(child is None for child in children):
            return None
        return children[0] if len(children) == 1 else Or(list(children))
    kept = [child for child in children if child is not None]
    if not kept:
        return None
    return kept[0] if len(kept) == 1 else And(kept)


def restrict_to_columns(predicate: Optional[Predicate], allowed) -> Optional[Predicate]:
    """Leaves on columns (base names) outside `allowed` become REMAIN."""
    if predicate is None:
        return None
    if isinstance(predicate, Leaf):
        return predicate if split_map_column(predicate.column).base in allowed else None
    return fold(type(predicate), [restrict_to_columns(c, allowed) for c in predicate.children])
