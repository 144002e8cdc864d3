"""A PyFlink batch TableEnvironment with Paimon 2.0's own Flink connector on a warehouse that
pyfileindex (through pypaimon) writes too. Everything Flink does here is Flink SQL.

The connector jars are fetched by `./dev engine-test` into build/engine-jars (or the folder
PYFILEINDEX_ENGINE_JARS names): paimon-flink-2.0 and flink-shaded-hadoop-2-uber, whose Hadoop
classes every Paimon job loads even on a file:// warehouse.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

PROJECT_ROOT = Path(__file__).resolve().parents[2]
JAR_PATTERNS = ("paimon-flink-2.0-*.jar", "flink-shaded-hadoop-2-uber-*.jar")


def connector_jars() -> List[Path]:
    """The connector jars, or a clear error saying how to fetch them."""
    folder = Path(os.environ.get("PYFILEINDEX_ENGINE_JARS") or PROJECT_ROOT / "build" / "engine-jars")
    jars = []
    for pattern in JAR_PATTERNS:
        found = sorted(folder.glob(pattern))
        if not found:
            raise FileNotFoundError(
                f"no {pattern} in {folder}: run `./dev engine-test`, which fetches the Paimon "
                f"Flink connector and its Hadoop classes with Maven")
        jars.append(found[-1])
    return jars


def sql_literal(value) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return repr(value)


class FlinkPaimon:
    """One batch TableEnvironment with a Paimon catalog `paimon` on `warehouse`, database `db`."""

    def __init__(self, warehouse: Path, parallelism: int = 1):
        from pyflink.table import EnvironmentSettings, TableEnvironment

        self.warehouse = Path(warehouse)
        self.env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
        config = self.env.get_config()
        config.set("pipeline.jars", ";".join(jar.resolve().as_uri() for jar in connector_jars()))
        # Small tables on two shared cores: one task slot's worth of work per job.
        config.set("parallelism.default", str(parallelism))
        # Paimon's procedures (CALL sys.rewrite_file_index) submit their job and return at
        # once unless DML is synchronous: the next statement must see the job's commit.
        config.set("table.dml-sync", "true")
        # No cached tables or snapshots: pyfileindex commits to the same tables in between.
        self.execute(f"CREATE CATALOG paimon WITH ('type' = 'paimon', "
                     f"'warehouse' = '{self.warehouse.resolve().as_uri()}', "
                     f"'cache-enabled' = 'false')")
        self.execute("USE CATALOG paimon")
        self.execute("CREATE DATABASE IF NOT EXISTS db")
        self.execute("USE db")

    def execute(self, statement: str) -> None:
        """Runs a statement (DDL, INSERT, CALL) to its end; a failing job raises."""
        self.env.execute_sql(statement).wait()

    def rows(self, query: str) -> List[tuple]:
        """All rows of a query, as tuples."""
        with self.env.execute_sql(query).collect() as results:
            return [tuple(row) for row in results]

    def select_many(self, table: str, columns: Sequence[str],
                    predicates: Sequence[str]) -> Dict[str, List[tuple]]:
        """The sorted rows of `SELECT columns FROM table WHERE p` for every predicate p, in
        one job: a UNION ALL of one scan per predicate (each gets its own pushed filter)."""
        selects = [f"SELECT {number} AS q, {', '.join(columns)} FROM {table} WHERE {predicate}"
                   for number, predicate in enumerate(predicates)]
        answers: Dict[str, List[tuple]] = {p: [] for p in predicates}
        for row in self.rows(" UNION ALL ".join(selects)):
            answers[predicates[row[0]]].append(tuple(row[1:]))
        return {p: sorted(rows, key=repr) for p, rows in answers.items()}

    def insert_values(self, table: str, rows: Sequence[Tuple]) -> None:
        """INSERT INTO table VALUES ... (keep it to a few hundred rows: planning VALUES is
        slow)."""
        values = ", ".join("(" + ", ".join(sql_literal(v) for v in row) + ")" for row in rows)
        self.execute(f"INSERT INTO {table} VALUES {values}")
