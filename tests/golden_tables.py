"""Access to the Java-written golden tables in ../shared/golden for tests.

Every live data file comes with its rows (read from Parquet), its row type under the schema it
was written with, the table options of that schema, and the index bytes Java wrote for it.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pyarrow.parquet as pq

from conftest import GOLDEN_DIR, require_shared_dir

TABLES_DIR = GOLDEN_DIR / "paimon-java-tables"


@dataclasses.dataclass
class GoldenFile:
    table: str
    data_path: Path
    schema_path: Path
    fields: List[Tuple[str, str]]
    options: Dict[str, str]
    rows: Dict[str, list]  # column name -> values in row order (None for null)
    index_bytes: Optional[bytes]
    deleted_rows: frozenset

    @property
    def row_count(self) -> int:
        return len(next(iter(self.rows.values()))) if self.rows else 0


def table_dir(name: str) -> Path:
    require_shared_dir()
    db = TABLES_DIR / f"{name}.db"
    return db / name


def table_names() -> List[str]:
    require_shared_dir()
    return sorted(p.name[: -len(".db")] for p in TABLES_DIR.glob("*.db"))


def load_files(name: str) -> List[GoldenFile]:
    """The live data files of the latest snapshot of golden table `name`."""
    from pyfileindex.paimon import PaimonTableMetadata

    meta = PaimonTableMetadata(str(table_dir(name)))
    out = []
    for data_file in meta.data_files():
        schema = meta.file_schema(data_file)
        schema_path = table_dir(name) / "schema" / f"schema-{schema.schema_id}"
        raw = json.loads(schema_path.read_text())
        fields = [(f["name"], f["type"]) for f in raw["fields"] if isinstance(f["type"], str)]
        table = pq.read_table(meta.filesystem_path(data_file.path))
        rows = {column: table.column(column).to_pylist() for column in table.column_names}
        deleted = frozenset()
        if data_file.deletion_vector is not None:
            deleted = frozenset(int(r) for r in data_file.deletion_vector.positions())
        out.append(
            GoldenFile(
                table=name,
                data_path=Path(meta.filesystem_path(data_file.path)),
                schema_path=schema_path,
                fields=fields,
                options=dict(raw.get("options", {})),
                rows=rows,
                index_bytes=meta.index_bytes(data_file),
                deleted_rows=deleted,
            )
        )
    return out
