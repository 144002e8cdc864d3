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
        kind, index_type, column, option = _native.parse_index_option_key(key)
        if kind == "columns":
            kept = []
            for name in split_index_columns(value):
                parsed = split_map_column(name)
                target = mapping.get(parsed.base)
                if target is not None:
                    kept.append(parsed.renamed(target))
            if kept:
                out[key] = ",".join(kept)
        elif kind == "index-option":
            parsed = split_map_column(column)
            target = mapping.get(parsed.base)
            if target is not None:
                out[f"{FILE_INDEX_PREFIX}{index_type}.{parsed.renamed(target)}.{option}"] = value
        else:
            out[key] = value
    return out
