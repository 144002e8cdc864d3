"""The small events table the table-layer tests write: one generator for the local and the
S3 suites, so both read the same rows."""

import numpy as np
import pyarrow as pa

EVENT_SCHEMA = pa.schema([
    ("id", pa.int64()), ("category", pa.string()), ("score", pa.float64()),
    ("level", pa.int32()), ("ts", pa.timestamp("us")), ("tag", pa.string()),
])
# The events without their timestamp: the table suites on S3 and the concurrent-writer
# suite write these.
UNTIMED_SCHEMA = pa.schema([f for f in EVENT_SCHEMA if f.name != "ts"])


def events(start: int, count: int, schema: pa.Schema = EVENT_SCHEMA) -> pa.Table:
    """Rows `start` .. `start + count - 1`: nulls in score and tag, repeating categories,
    levels and tags, rising timestamps; only the columns of `schema`."""
    ids = np.arange(start, start + count)
    columns = {
        "id": pa.array(ids, pa.int64()),
        "category": pa.array([f"c{i % 5}" for i in ids]),
        "score": pa.array([None if i % 11 == 0 else float(i % 97) / 3 for i in ids]),
        "level": pa.array([int(i % 7) for i in ids], pa.int32()),
        "ts": pa.array([1_700_000_000_000_000 + int(i) * 1_000_000 for i in ids],
                       pa.timestamp("us")),
        "tag": pa.array([None if i % 3 == 0 else f"t{i % 13}" for i in ids]),
    }
    return pa.table({name: columns[name] for name in schema.names}, schema=schema)


def untimed_events(start: int, count: int) -> pa.Table:
    """events() in UNTIMED_SCHEMA."""
    return events(start, count, UNTIMED_SCHEMA)
