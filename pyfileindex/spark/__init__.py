"""The pyfileindex pipeline on Spark (the `[spark]` extra): write, index and query Paimon
tables from PySpark, with the native core and pypaimon running on the executors.

    from pyfileindex import spark as pfs
    session = pfs.spark_session()                      # local[*] on loopback
    pfs.write_dataframe(df, "/warehouse/db.db/events", options={...})
    pfs.index_table(session, "/warehouse/db.db/events")
    result = pfs.read_table(session, "/warehouse/db.db/events", "category = 'refund'")
    result.dataframe.count()
    pfs.count_table(session, "/warehouse/db.db/events", "category = 'refund'").count

Nothing here imports pyspark or pypaimon until it is used.
"""

_LAZY = {
    "spark_session": "session",
    "SessionSettings": "session",
    "pack_environment": "packing",
    "write_dataframe": "write",
    "WriteResult": "write",
    "index_table": "index",
    "IndexTableSummary": "index",
    "IndexResult": "index",  # deprecated name of IndexTableSummary (warns)
    "read_table": "read",
    "count_table": "count",
    "plan_table": "read",
    "plain_scan": "read",
    "ReadResult": "read",
    "create_table": "tables",
    "set_table_options": "tables",
}


def __getattr__(name):
    if name in _LAZY:
        import importlib
        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = sorted(set(_LAZY) - {"IndexResult"})
