"""Paimon tables on pypaimon: metadata (snapshots, schemas, data files, index bytes,
deletion vectors), read planning with file indexes, and writing tables with indexes;
`prune` and `enable` make pypaimon's own read builders prune with the indexes;
`index_report` lists each data file's indexes and what is missing or stale in them;
`count_rows` and `min_max` answer COUNT(*) and min/max from the indexes where they can.

The metadata modules never import the native core; `plan_read`, `read_plan`,
`write_table` and `rewrite_file_index` do (imported lazily).
"""

from pyfileindex._deprecation import deprecated_names

from .deletion_vectors import (
    BITMAP32_MAGIC,
    BITMAP64_MAGIC,
    DeletionVector,
    decode_deletion_vector,
    decode_index_file,
    read_deletion_vectors,
)
from .errors import CommitConflictError, PaimonMetadataError
from .index_bytes import EMBEDDED, SIDECAR, index_sidecar_path, index_source, read_index_bytes
from .manifest import DataFile, live_data_files
from .schema import (
    FieldChange,
    FieldInfo,
    SchemaInfo,
    compare_schemas,
    field_in_schema,
    load_all_schemas,
    load_schema_by_id,
    translate_column,
)
from .snapshot import load_snapshot
from .table import PaimonTableMetadata

_LAZY = {
    "FilePlan": "plan",
    "ReadPlan": "plan",
    "TopN": "evaluator",  # pyfileindex.top_n.TopN, the one top-n type
    "plan_read": "planner",
    "read_plan": "reader",
    "write_table": "writer",
    "rewrite_file_index": "rewrite",
    "remove_orphan_index_files": "rewrite",
    "build_file_index": "rewrite",
    "prune": "splits",
    "enable": "splits",
    "disable": "splits",
    "PrunedSplits": "splits",
    "index_report": "report",
    "FileIndexReport": "report",
    "StoredIndexInfo": "report",
    "IndexFinding": "report",
    "count_rows": "count",
    "CountResult": "count",
    "min_max": "extremes",
    "MinMaxResult": "extremes",
}

# Old names: load_schema was also pyfileindex.schema.load_schema(path), which reads a file.
_deprecated = deprecated_names(__name__, {"load_schema": ("pyfileindex.paimon.load_schema_by_id",
                                                          load_schema_by_id)})


def __getattr__(name):
    # Planning and writing need the native core; keep `import pyfileindex.paimon` light.
    if name in _LAZY:
        import importlib
        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    return _deprecated(name)


__all__ = [
    "CountResult",
    "FileIndexReport",
    "FilePlan",
    "IndexFinding",
    "MinMaxResult",
    "PrunedSplits",
    "ReadPlan",
    "StoredIndexInfo",
    "TopN",
    "build_file_index",
    "count_rows",
    "disable",
    "enable",
    "index_report",
    "min_max",
    "plan_read",
    "prune",
    "read_plan",
    "remove_orphan_index_files",
    "rewrite_file_index",
    "write_table",
    "BITMAP32_MAGIC",
    "BITMAP64_MAGIC",
    "DataFile",
    "DeletionVector",
    "EMBEDDED",
    "FieldChange",
    "FieldInfo",
    "CommitConflictError",
    "PaimonMetadataError",
    "PaimonTableMetadata",
    "SIDECAR",
    "SchemaInfo",
    "compare_schemas",
    "decode_deletion_vector",
    "decode_index_file",
    "field_in_schema",
    "index_sidecar_path",
    "index_source",
    "live_data_files",
    "load_all_schemas",
    "load_schema_by_id",
    "load_snapshot",
    "read_deletion_vectors",
    "read_index_bytes",
    "translate_column",
]
