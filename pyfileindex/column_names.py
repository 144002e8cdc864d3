"""Index column names: a plain column `f0`, or an entry `m[k]` of MAP column `m`.

Paimon names a nested index on key `k` of a MAP column `m` as `m[k]` (in the
`file-index.<type>.columns` option, in the index container and in predicates). This
module is the one place that reads such a name apart and puts it back together, by the
rule the native writer and reader apply: the name ends with `]` and the map column is
what precedes its first `[`, non-empty (a column cannot be renamed to nothing).
"""

from typing import NamedTuple, Optional

__all__ = ["ColumnName", "map_entry_name", "split_map_column"]


class ColumnName(NamedTuple):
    """An index column name read apart: `base` is the table column, `key` the map key of a
    `m[k]` entry (None for a plain column)."""

    base: str
    key: Optional[str]

    @property
    def is_map_entry(self) -> bool:
        return self.key is not None

    @property
    def suffix(self) -> str:
        """`[k]` for a map entry, "" for a plain column: what a renamed column keeps."""
        return "" if self.key is None else f"[{self.key}]"

    def renamed(self, base: str) -> str:
        """This name with the table column renamed to `base` (the map key kept)."""
        return base + self.suffix


def split_map_column(name: str) -> ColumnName:
    """'m[k]' -> ColumnName('m', 'k'); 'f0' (or '[k]', 'm[k') -> ColumnName(name, None)."""
    bracket = name.find("[")
    if bracket > 0 and name.endswith("]"):
        return ColumnName(name[:bracket], name[bracket + 1:-1])
    return ColumnName(name, None)


def map_entry_name(base: str, key: str) -> str:
    """The index column name of key `key` of MAP column `base`: 'm[k]'."""
    return f"{base}[{key}]"
