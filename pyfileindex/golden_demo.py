"""The golden-table demo: rebuild every file index Java Paimon wrote in a directory of Paimon
tables from the data files, check the bytes are Java's, and answer a few queries with them.

Runs until the Spark pipeline demo is available; `pyfileindex demo --golden DIR`.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import List, Tuple

import pyarrow.parquet as pq

from pyfileindex.api import build_index
from pyfileindex._native import IndexReader
from pyfileindex.predicate import col


def _tables(golden_dir: Path) -> List[Path]:
    return sorted(p for db in golden_dir.glob("*.db") for p in db.iterdir()
                  if (p / "snapshot").is_dir())


def _fields(schema: dict) -> List[Tuple[str, str]]:
    return [(f["name"], f["type"]) for f in schema["fields"] if isinstance(f["type"], str)]


def run(golden_dir: Path, out=print) -> int:
    """Returns the number of mismatching indexes (0 = every rebuilt index equals Java's)."""
    from pyfileindex.paimon import PaimonTableMetadata

    mismatches = 0
    out(f"{'table':40} {'data file':12} {'rows':>5} {'bytes':>9}  {'equal':5}  queries")
    for table_path in _tables(golden_dir):
        meta = PaimonTableMetadata(str(table_path))
        for data_file in meta.data_files():
            java_bytes = meta.index_bytes(data_file)
            if java_bytes is None:
                continue
            schema_id = meta.file_schema(data_file).schema_id
            schema = json.loads((table_path / "schema" / f"schema-{schema_id}").read_text())
            fields = _fields(schema)
            data = pq.read_table(meta.filesystem_path(data_file.path))
            started = time.perf_counter()
            ours = build_index(data, fields, schema.get("options", {}))
            build_ms = (time.perf_counter() - started) * 1000
            equal = ours == java_bytes
            mismatches += not equal
            reader = IndexReader(java_bytes, fields)
            answers = []
            for column in reader.columns[:2]:
                if column not in data.column_names:
                    continue
                value = next((v for v in data.column(column).to_pylist() if v is not None), None)
                if value is None:
                    continue
                result = reader.evaluate(col(column) == value)
                shown = (result.kind if result.kind != "ROWS"
                         else ",".join(map(str, result.row_ids().tolist())))
                answers.append(f"{column}={value!r}->{shown}")
            out(f"{table_path.name:40} {data_file.file_name[:12]:12} {data.num_rows:5} "
                f"{len(java_bytes):9}  {'yes' if equal else 'NO':5}  {'; '.join(answers)}"
                f"  (built in {build_ms:.1f} ms)")
    out("all rebuilt indexes equal Java's bytes" if mismatches == 0
        else f"{mismatches} rebuilt index(es) differ from Java's bytes")
    return mismatches
