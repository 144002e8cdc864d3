"""Appends the engine suite's rows to an existing Paimon table through pyfileindex's Spark
pipeline (`write_dataframe`: Spark tasks write the data files and their indexes, the driver
commits once).

PySpark is not in the engine venv: the suite runs this file with the main venv's Python,

    python spark_append.py TABLE_PATH FIRST_ID ROWS TASKS PARTITIONED(0|1)

and it prints `rows files` of the commit."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from event_tables import arrow_rows  # noqa: E402


def main(argv) -> int:
    table_path, first, count, tasks, partitioned = argv
    from pyfileindex.spark.session import spark_session
    from pyfileindex.spark.write import write_dataframe

    spark = spark_session(master=f"local[{min(int(tasks), 2)}]")
    try:
        rows = arrow_rows(range(int(first), int(first) + int(count)), partitioned == "1")
        result = write_dataframe(spark.createDataFrame(rows), table_path,
                                 num_tasks=int(tasks), progress=False)
    finally:
        spark.stop()
    print(result.rows, result.files)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
