"""pyfileindex: Apache Paimon file indexes (bitmap, bloom filter, BSI, range bitmap) in native code.

Build the index Java Paimon 2.0 writes for a data file, byte for byte, and evaluate predicates
against any Paimon file index::

    import pyfileindex as pfi
    data = pfi.build_index(table, [("f0", "STRING"), ("f1", "INT")],
                           {"file-index.bitmap.columns": "f0,f1"})
    reader = pfi.IndexReader(data, [("f0", "STRING"), ("f1", "INT")])
    reader.evaluate(pfi.col("f0") == "Alice").row_ids()
"""

from pyfileindex._native import (
    DEFAULT_DICTIONARY_SCAN_LIMIT,
    CorruptIndexError,
    FileIndexError,
    IndexEntryInfo,
    IndexNotFoundError,
    IndexReader,
    IndexResult,
    IndexWriter,
    RowCountMismatchError,
    UnsupportedError,
    croaring_version,
    library_version,
    plan_container_subset,
    simd_level,
)
from pyfileindex.api import build_index, open_index

__version__ = library_version()

__all__ = [
    "__version__",
    "DEFAULT_DICTIONARY_SCAN_LIMIT",
    "CorruptIndexError",
    "FileIndexError",
    "IndexEntryInfo",
    "IndexNotFoundError",
    "IndexReader",
    "IndexResult",
    "IndexWriter",
    "RowCountMismatchError",
    "UnsupportedError",
    "bind_predicate",
    "build_index",
    "col",
    "croaring_version",
    "library_version",
    "open_index",
    "parse_predicate",
    "plan_container_subset",
    "simd_level",
]


def __getattr__(name):
    # The predicate DSL is pure Python; import it on first use.
    if name in ("col", "parse_predicate", "bind_predicate"):
        from pyfileindex import predicate

        return getattr(predicate, name)
    raise AttributeError(f"module 'pyfileindex' has no attribute {name!r}")
