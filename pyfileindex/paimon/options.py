"""Table options that steer file indexes (Paimon's FileIndexOptions / CoreOptions).

* `file-index.<type>.columns` and `file-index.<type>.<column>.<option>` declare indexes;
* `file-index.in-manifest-threshold` (memory size, default 500 B): a container of at
  most this many bytes is embedded in the manifest entry, a larger one becomes the
  sidecar `<data file>.index`;
* `file-index.read.enabled` (default true): when false no index is consulted.
"""

from typing import Dict, Mapping, Optional

from pyfileindex import _native
from pyfileindex._native import FileIndexError
from pyfileindex.column_names import split_map_column
from pyfileindex.schema import split_index_columns

from .errors import PaimonMetadataError

FILE_INDEX_PREFIX = "file-index."
COLUMNS_SUFFIX = ".columns"
IN_MANIFEST_THRESHOLD = "file-index.in-manifest-threshold"
READ_ENABLED = "file-index.read.enabled"
DEFAULT_IN_MANIFEST_THRESHOLD = 500

def parse_memory_size(text: str) -> int:
    """'500 b', '1kb', '16m' ... -> bytes, as Paimon's MemorySize.parse reads them (the native
    library's parser, which the writer applies to the same option)."""
    try:
        return _native.parse_memory_size(str(text))
    except FileIndexError as exc:
        raise PaimonMetadataError(str(exc)) from None


def in_manifest_threshold(options: Mapping[str, str]) -> int:
    value = options.get(IN_MANIFEST_THRESHOLD)
    return DEFAULT_IN_MANIFEST_THRESHOLD if value is None else parse_memory_size(value)


def file_index_read_enabled(options: Mapping[str, str]) -> bool:
    # Paimon's convertToBoolean: the text as is, in any letter case (String.toUpperCase).
    value = str(options.get(READ_ENABLED, "true")).upper()
    if value not in ("TRUE", "FALSE"):
        raise PaimonMetadataError(f"option {READ_ENABLED!r} must be true or false, got "
                                  f"{options[READ_ENABLED]!r}")
    return value == "TRUE"


def index_options(options: Mapping[str, str]) -> Dict[str, str]:
    """The `file-index.*` entries of the table options."""
    return {k: v for k, v in options.items() if k.startswith(FILE_INDEX_PREFIX)}


def rename_index_columns(options: Mapping[str, str],
                         mapping: Mapping[str, Optional[str]]) -> Dict[str, str]:
    """Index options with column names translated by `mapping` (current name -> name in an
    older file schema, None when the file has no such field).

    This is what Java's index rewrite does for a data file written under an older schema
    (DataFileIndexWriter with a column-name mapping): declared columns the file lacks are
    left out, the others are indexed under the file's own column names.
    """
    out: Dict[str, str] = {}
    for key, value in options.items():
        if not key.startswith(FILE_INDEX_PREFIX):
            out[key] = value
            continue
        rest = key[len(FILE_INDEX_PREFIX):]
        if rest.endswith(COLUMNS_SUFFIX) and rest.count(".") >= 1:
            index_type = rest[:-len(COLUMNS_SUFFIX)]
            kept = []
            for name in split_index_columns(value):
                column = split_map_column(name)
                target = mapping.get(column.base)
                if target is not None:
                    kept.append(column.renamed(target))
            if kept:
                out[key] = ",".join(kept)
            continue
        parts = rest.split(".")
        if len(parts) == 3:  # file-index.<type>.<column>.<option>
            index_type, column, option = parts
            name = split_map_column(column)
            target = mapping.get(name.base)
            if target is not None:
                out[f"{FILE_INDEX_PREFIX}{index_type}.{name.renamed(target)}.{option}"] = value
            continue
        out[key] = value
    return out
