"""Loading a table snapshot (latest, or a given id)."""

from typing import Optional

from . import _pypaimon
from .errors import PaimonMetadataError


def load_snapshot(table, snapshot_id: Optional[int] = None):
    """Return pypaimon's Snapshot: the latest one, or `snapshot_id`.

    The Snapshot exposes id, schema_id, base/delta manifest lists,
    index_manifest, total_record_count, next_row_id, commit_kind, ...
    """
    if snapshot_id is None:
        snapshot = _pypaimon.latest_snapshot(table)
        if snapshot is None:
            raise PaimonMetadataError(
                f"table {table.table_path} has no snapshot")
        return snapshot
    snapshot = _pypaimon.snapshot_by_id(table, snapshot_id)
    if snapshot is None:
        raise PaimonMetadataError(
            f"table {table.table_path} has no snapshot {snapshot_id}")
    return snapshot
