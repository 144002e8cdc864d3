"""The `pyfileindex` command line.

    pyfileindex build DATA_FILE --schema SCHEMA_FILE [--option KEY=VALUE]... -o OUT
    pyfileindex inspect INDEX_FILE [--schema SCHEMA_FILE] [--json]
    pyfileindex query INDEX_FILE --schema SCHEMA_FILE ["PREDICATE"] [--top-n SPEC] [--json]
    pyfileindex indexes TABLE [--json] [--snapshot ID] [--catalog-option KEY=VALUE]...
    pyfileindex demo [--rows N] [--files F] [--master URL]   (Spark demo; --golden DIR: golden tables)
    pyfileindex spark write|index|query|pack ...              (the pipeline on Spark)

Exit status: 0 on success, 2 for bad usage, 1 for any other error; every error is
one line on stderr (set PYFILEINDEX_DEBUG=1 to also get the traceback).

`query` prints SKIP, REMAIN, or the matching row ids on one line separated by
single spaces ("0 5 7"); with --json exactly one JSON object
{"result": "SKIP" | "REMAIN" | "ROWS", "rows": [...]} ("rows" only for ROWS).
It reports what the index answers for the predicate (Paimon's
FileIndexPredicate.evaluate); an empty row set is reported as SKIP.

The native library is reached only inside the command handlers, through the
`pyfileindex` package (build_index, IndexReader), so argument handling works and
can be tested on its own.
"""

import argparse
import json
import os
import sys
import tempfile
import traceback
from typing import Dict, List, Optional, Sequence

from pyfileindex.predicate import Leaf, bind_predicate, parse_predicate
from pyfileindex.schema import Schema, dictionary_columns, load_schema
from pyfileindex._deprecation import deprecated_names
from pyfileindex.top_n import TopN, parse_top_n

PROG = "pyfileindex"
EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
DEBUG_ENV = "PYFILEINDEX_DEBUG"

__all__ = ["main", "build_parser", "parse_top_n", "TopN", "UsageError"]


# TopNSpec was the command line's own top-n type; pyfileindex.top_n.TopN is the one type.
__getattr__ = deprecated_names(__name__, {"TopNSpec": ("pyfileindex.top_n.TopN", TopN)})


class UsageError(Exception):
    """The command line itself is wrong (exit status 2)."""

    def __init__(self, message: str, prog: str = PROG):
        super().__init__(message)
        self.prog = prog


class CliError(Exception):
    """A command failed for a reason already phrased for the user (exit status 1)."""


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of printing usage and exiting, so errors stay one line.

    Options and positionals may be mixed in any order: plain argparse cannot fill an
    optional positional (query's PREDICATE) that comes after an option, so such parsers
    parse "intermixed".
    """

    _parsing_intermixed = False

    def error(self, message):
        raise UsageError(message, self.prog)

    def parse_known_args(self, args=None, namespace=None):
        if self._parsing_intermixed or not self._can_intermix():
            return super().parse_known_args(args, namespace)
        # parse_known_intermixed_args calls back into parse_known_args on some Pythons.
        self._parsing_intermixed = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._parsing_intermixed = False

    def _can_intermix(self) -> bool:
        return not any(action.nargs in (argparse.REMAINDER, argparse.PARSER)
                       for action in self._actions if not action.option_strings)


def _parse_option(text: str) -> tuple:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    return key.strip(), value


def _catalog_options_file_argument(sub) -> None:
    sub.add_argument("--catalog-options-file", action="append", default=[], metavar="PATH",
                     dest="catalog_options_file",
                     help="file of catalog / file-system options, one KEY=VALUE per line, "
                          "# comments (keeps secrets off the command line); --catalog-option "
                          "flags override it (repeatable)")


def _catalog_options(args) -> dict:
    """The catalog options of the command: its options files, then its flags."""
    from pyfileindex.catalog_options import OptionsFileError, merged_options
    try:
        return merged_options(args.catalog_options_file, args.catalog_option)
    except OptionsFileError as exc:
        raise CliError(str(exc)) from None


# ---------------------------------------------------------------------------------------------
# The parser
# ---------------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Apache Paimon file indexes: build them from data files, inspect and "
                    "query them.",
        epilog=f"Errors are one line on stderr; set {DEBUG_ENV}=1 for tracebacks.")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    build = commands.add_parser(
        "build", help="build the file index Java Paimon writes for a data file",
        description="Read a Parquet or ORC data file and write the file-index container "
                    "Java Paimon writes for it, with the table's index options.")
    build.add_argument("data_file", metavar="DATA_FILE",
                       help="Parquet (.parquet) or ORC (.orc) file")
    build.add_argument("--schema", required=True, metavar="SCHEMA_FILE",
                       help="Paimon schema file, e.g. <table>/schema/schema-0")
    build.add_argument("--option", action="append", default=[], type=_parse_option,
                       metavar="KEY=VALUE",
                       help="table option overriding the schema's (repeatable), "
                            "e.g. file-index.bitmap.columns=f0,f1; KEY= removes KEY")
    build.add_argument("-o", "--output", required=True, metavar="OUT", help="index file to write")
    build.set_defaults(handler=_cmd_build)

    inspect = commands.add_parser(
        "inspect", help="list the indexes in an index file",
        description="List the (column, index type) entries of a file-index container with "
                    "their byte ranges and what each index records.")
    inspect.add_argument("index_file", metavar="INDEX_FILE")
    inspect.add_argument("--schema", metavar="SCHEMA_FILE",
                         help="schema the index was written with (enables type-dependent facts)")
    inspect.add_argument("--json", action="store_true", help="print one JSON object")
    inspect.set_defaults(handler=_cmd_inspect)

    query = commands.add_parser(
        "query", help="evaluate a predicate (or a top-n) against an index file",
        description="Evaluate a SQL-like predicate against a file-index container. Prints SKIP, "
                    "REMAIN, or the matching row ids separated by spaces.",
        epilog="PREDICATE examples: \"f0 = 'Alice' AND (f1 IN (10, 20) OR f2 IS NULL)\", "
               "\"f4 >= TIMESTAMP '2025-04-25 00:00:00.000000001'\", \"m['k'] BETWEEN 1 AND 9\". "
               "With both PREDICATE and --top-n, the top-n is taken among the predicate's rows "
               "when the index answers the predicate with rows; a SKIP or REMAIN answer is "
               "printed as is.")
    query.add_argument("index_file", metavar="INDEX_FILE")
    query.add_argument("--schema", required=True, metavar="SCHEMA_FILE",
                       help="schema the index was written with (gives the column types)")
    query.add_argument("predicate", metavar="PREDICATE", nargs="?",
                       help="SQL-like condition; may be omitted when --top-n is given")
    query.add_argument("--top-n", metavar="SPEC", type=_top_n_argument,
                       help="'column [ASC|DESC] [NULLS FIRST|LAST] LIMIT n [WITH TIES]' (ASC, "
                            "NULLS FIRST for ASC and NULLS LAST for DESC by default; WITH TIES "
                            "also keeps the rows tied with the n-th, for an ORDER BY with more "
                            "sort keys)")
    query.add_argument("--json", action="store_true", help="print one JSON object")
    query.add_argument("--explain", action="store_true",
                       help="also print, per leaf, the answer and what each index does for it "
                            "(lookups, code ranges, dictionary scans and their sizes)")
    query.set_defaults(handler=_cmd_query)

    indexes = commands.add_parser(
        "indexes", help="list the file indexes of a table's data files, and what is missing "
                        "or stale against its current options and schema",
        description="For every live data file of a Paimon table: its indexed columns and "
                    "index types, bytes, embedded or sidecar, the row count each index "
                    "stores, and what is missing or stale against the table's current "
                    "file-index options and schema (what rewrite_file_index would change). "
                    "TABLE is a table directory <warehouse>/<database>.db/<table>, local or "
                    "on an object store (s3://bucket/warehouse/db.db/t, with "
                    "--catalog-option fs.s3.*=...).")
    indexes.add_argument("table", metavar="TABLE")
    indexes.add_argument("--snapshot", type=int, default=None, metavar="ID",
                         help="report the data files of this snapshot (default: the latest)")
    indexes.add_argument("--json", action="store_true", help="print one JSON object")
    indexes.add_argument("--catalog-option", action="append", default=[], type=_parse_option,
                         dest="catalog_option", metavar="KEY=VALUE",
                         help="pypaimon catalog / file-system option for the table, e.g. "
                              "fs.s3.endpoint=URL (repeatable)")
    _catalog_options_file_argument(indexes)
    indexes.set_defaults(handler=_cmd_indexes)

    demo = commands.add_parser(
        "demo", help="write, index and query an events table through Spark; exit 1 if any "
                     "result differs from a plain Spark filter",
        description="Generate an events data set, write it as a Paimon table with bitmap, "
                    "bloom-filter and range-bitmap indexes through Spark, and compare "
                    "pruned queries with plain Spark. --golden DIR instead rebuilds and "
                    "queries the indexes of Java-written tables (no Spark).")
    demo.add_argument("--rows", type=int, default=None, metavar="N",
                      help="number of events (default 20,000,000)")
    demo.add_argument("--files", type=int, default=None, metavar="F",
                      help="number of data files (default 40)")
    demo.add_argument("--master", default=None, metavar="URL",
                      help="Spark master (default local[*])")
    demo.add_argument("--archive", default=None, metavar="FILE",
                      help="packed environment for the executors (see 'spark pack')")
    demo.add_argument("--warehouse", default=None, metavar="DIR",
                      help="where to write the table, a directory or a URI such as "
                           "s3://bucket/warehouse (default: a temporary directory, "
                           "removed afterwards)")
    demo.add_argument("--catalog-option", action="append", default=[], type=_parse_option,
                      dest="catalog_option", metavar="KEY=VALUE",
                      help="pypaimon catalog / file-system option for the warehouse, e.g. "
                           "fs.s3.endpoint=URL (repeatable)")
    _catalog_options_file_argument(demo)
    demo.add_argument("--keep", action="store_true", help="keep the table afterwards")
    demo.add_argument("--golden", metavar="DIR", nargs="?", const="", default=None,
                      help="run the golden-table demo instead, on DIR (default: shared/golden/"
                           "paimon-java-tables next to the current directory or its parent)")
    demo.set_defaults(handler=_cmd_demo)

    spark = commands.add_parser(
        "spark", help="write, index and query Paimon tables on Spark",
        description="The pyfileindex pipeline on Spark. TABLE is a table directory "
                    "<warehouse>/<database>.db/<table>, local or on an object store "
                    "(s3://bucket/warehouse/db.db/t, with --catalog-option fs.s3.*=...).")
    spark_commands = spark.add_subparsers(dest="spark_command", metavar="SPARK_COMMAND")

    def spark_common(sub, session: bool = True):
        if session:
            sub.add_argument("--master", default=None, metavar="URL",
                             help="Spark master (default local[*])")
            sub.add_argument("--archive", default=None, metavar="FILE",
                             help="packed environment for the executors (see 'spark pack')")
            sub.add_argument("--conf", action="append", default=[], type=_parse_option,
                             metavar="KEY=VALUE", help="Spark configuration (repeatable)")
            sub.add_argument("--catalog-option", action="append", default=[],
                             type=_parse_option, dest="catalog_option", metavar="KEY=VALUE",
                             help="pypaimon catalog / file-system option for the table, on "
                                  "the driver and every executor, e.g. "
                                  "fs.s3.endpoint=http://127.0.0.1:9000 (repeatable)")
            _catalog_options_file_argument(sub)

    spark_write = spark_commands.add_parser(
        "write", help="append data files (Parquet, ORC, JSON, CSV) to a table, with indexes")
    spark_write.add_argument("table", metavar="TABLE")
    spark_write.add_argument("--input", action="append", required=True, metavar="PATH",
                             help="input path (repeatable)")
    spark_write.add_argument("--format", default="parquet", dest="input_format",
                             help="input format: parquet (default), orc, json or csv")
    spark_write.add_argument("--option", action="append", default=[], type=_parse_option,
                             metavar="KEY=VALUE", help="table option, e.g. "
                             "file-index.bitmap.columns=category (repeatable)")
    spark_write.add_argument("--partition-key", action="append", default=[], metavar="COLUMN",
                             help="partition column of a new table (repeatable)")
    spark_write.add_argument("--tasks", type=int, default=None, metavar="N",
                             help="repartition into N write tasks first")
    spark_common(spark_write)
    spark_write.set_defaults(handler=_cmd_spark_write)

    spark_index = spark_commands.add_parser(
        "index", help="rebuild the file indexes of a table on the executors")
    spark_index.add_argument("table", metavar="TABLE")
    spark_index.add_argument("--option", action="append", default=[], type=_parse_option,
                             metavar="KEY=VALUE", help="table option to set first (repeatable)")
    spark_index.add_argument("--tasks", type=int, default=None, metavar="N",
                             help="number of index tasks")
    spark_common(spark_index)
    spark_index.set_defaults(handler=_cmd_spark_index)

    spark_query = spark_commands.add_parser(
        "query", help="read the rows matching a predicate, pruned by the file indexes")
    spark_query.add_argument("table", metavar="TABLE")
    spark_query.add_argument("predicate", nargs="?", default=None, metavar="PREDICATE",
                             help="SQL-like condition")
    spark_query.add_argument("--columns", default=None, metavar="A,B,...",
                             help="columns to return (default all)")
    spark_query.add_argument("--top-n", metavar="SPEC", type=_top_n_argument,
                             help="'column [ASC|DESC] [NULLS FIRST|LAST] LIMIT n'")
    spark_query.add_argument("--limit", type=int, default=None, metavar="N")
    spark_query.add_argument("--show", type=int, default=20, metavar="N",
                             help="rows to print (default 20; -1 for all)")
    spark_query.add_argument("--output", default=None, metavar="DIR",
                             help="write the rows as Parquet into DIR instead of printing")
    spark_query.add_argument("--compare", action="store_true",
                             help="also run a plain Spark filter and check the results are "
                                  "equal (exit 1 if not)")
    spark_query.add_argument("--count", action="store_true",
                             help="print COUNT(*) of the matching rows instead, answered from "
                                  "the file indexes where they tell it exactly (with "
                                  "--compare: checked against a plain Spark count)")
    spark_common(spark_query)
    spark_query.set_defaults(handler=_cmd_spark_query)

    spark_pack = spark_commands.add_parser(
        "pack", help="pack this virtual environment for the executors (spark.archives)")
    spark_pack.add_argument("output", metavar="FILE", help="archive to write (.tar, .tar.gz)")
    spark_pack.set_defaults(handler=_cmd_spark_pack)
    spark.set_defaults(handler=_cmd_spark_missing)
    return parser


def _top_n_argument(text: str) -> TopN:
    try:
        return parse_top_n(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


# ---------------------------------------------------------------------------------------------
# Native access: only here, so the rest works without the compiled module
# ---------------------------------------------------------------------------------------------


def _native(name: str):
    import pyfileindex

    found = getattr(pyfileindex, name, None)
    if found is None:
        raise CliError(f"this build of pyfileindex lacks the native {name}; rebuild the package")
    return found


def _open_reader(path: str, fields):
    if os.path.isdir(path):
        raise CliError(f"not an index file but a directory: {path}")
    if not os.path.isfile(path):
        raise CliError(f"index file not found: {path}")
    reader_class = _native("IndexReader")
    return reader_class.open(path, fields)


def _rows_array(result):
    """The result's row ids as the native numpy uint32 array (None unless kind is ROWS)."""
    return result.row_ids() if hasattr(result, "row_ids") else result.rows()


def _row_ids(result) -> List[int]:
    rows = _rows_array(result)
    return [] if rows is None else [int(r) for r in rows]


# ---------------------------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------------------------


def _load_schema(path: Optional[str]) -> Optional[Schema]:
    if path is None:
        return None
    if not os.path.isfile(path):
        raise CliError(f"schema file not found: {path}")
    return load_schema(path)


def _read_data_file(path: str, wanted: Sequence[str], dictionary: Sequence[str] = ()):
    """The columns of `wanted` that the file has, read with pyarrow (Parquet or ORC); those of
    `dictionary` dictionary-encoded where the format keeps them so (Parquet)."""
    if not os.path.isfile(path):
        raise CliError(f"data file not found: {path}")
    lower = path.lower()
    if lower.endswith(".parquet"):
        readers = [_read_parquet]
    elif lower.endswith(".orc"):
        readers = [_read_orc]
    else:
        readers = [_read_parquet, _read_orc]
    problems = []
    for reader in readers:
        try:
            return reader(path, wanted, dictionary)
        except (OSError, ValueError, ImportError) as exc:
            problems.append(f"{reader.__name__[6:]}: {_one_line(exc)}")
    raise CliError(f"cannot read data file {path} ({'; '.join(problems)})")


def _read_parquet(path: str, wanted: Sequence[str], dictionary: Sequence[str]):
    import pyarrow.parquet as pq

    present = set(pq.read_schema(path).names)
    return pq.read_table(path, columns=[n for n in wanted if n in present],
                         read_dictionary=[n for n in dictionary if n in present] or None)


def _read_orc(path: str, wanted: Sequence[str], dictionary: Sequence[str]):
    import pyarrow.orc as orc

    del dictionary  # pyarrow decodes ORC dictionaries while reading

    handle = orc.ORCFile(path)
    present = set(handle.schema.names)
    return handle.read(columns=[n for n in wanted if n in present])


def _write_atomically(path: str, data: bytes) -> None:
    """Write to a temporary file beside `path`, then rename: readers never see half a file.

    The file gets the mode a plain open() would give it (an existing file's mode, else 0666
    less the umask), not mkstemp's owner-only 0600, so other users and services read it as
    before. Failures name `path`, not the temporary file."""
    if os.path.isdir(path):
        raise CliError(f"cannot write {path}: it is a directory")
    directory = os.path.dirname(os.path.abspath(path))
    try:
        mode = os.stat(path).st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    try:
        handle, temp = tempfile.mkstemp(prefix=".pyfileindex-", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise CliError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        os.fchmod(handle, mode)
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise


def _cmd_build(args) -> int:
    schema = _load_schema(args.schema)
    options: Dict[str, str] = dict(schema.options)
    for key, value in args.option:
        if value == "":
            options.pop(key, None)  # KEY= drops a schema option (Paimon rejects empty lists)
        else:
            options[key] = value
    from pyfileindex import _native as native_core  # the writer's reading of the options

    # Checked before the data file is read: the indexes declared, and the options' errors.
    declared = native_core.declared_indexes(schema.row_type(), options)
    if not declared:
        raise CliError("the options declare no file index: add e.g. "
                       "--option file-index.bitmap.columns=COL (or set it in the schema)")
    # String columns whose indexes take dictionaries are read that way: each distinct value
    # is then indexed once, not once per row.
    table = _read_data_file(args.data_file, schema.field_names,
                            dictionary_columns(schema.row_type(), options))
    present = set(table.column_names)
    missing = sorted({index.field for index in declared} - present)
    if missing:
        raise CliError(f"indexed column(s) {', '.join(missing)} not found in {args.data_file}")
    fields = [(f.name, f.type) for f in schema.fields if f.name in present]
    table = table.select([name for name, _ in fields])
    data = _native("build_index")(table, fields, options)
    if data is None:
        raise CliError("the options declare no file index for the columns of this file")
    _write_atomically(args.output, bytes(data))
    return EXIT_OK


def _json_value(value):
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    if isinstance(value, (bytes, bytearray)):
        return value.hex()
    return value if isinstance(value, (str, int, float, bool, type(None))) else str(value)


def _cmd_inspect(args) -> int:
    schema = _load_schema(args.schema)
    reader = _open_reader(args.index_file, schema.row_type() if schema else None)
    entries = []
    for entry in reader.entries:
        empty = bool(getattr(entry, "empty", False))
        details, note = {}, None
        if not empty:
            try:
                details = dict(reader.describe(entry.column, entry.index_type))
            except KeyError as exc:
                # The reader cannot open this index: its column type is unknown without a
                # schema, or the index type is unknown. The entry itself is still listed.
                note = _one_line(exc) + ("" if schema else " (pass --schema for details)")
        record = {
            "column": entry.column,
            "index_type": entry.index_type,
            "offset": int(entry.offset),
            "length": int(entry.length),
            "empty": empty,
            "details": {str(k): _json_value(v) for k, v in details.items()},
        }
        if note is not None:
            record["note"] = note
        entries.append(record)
    if args.json:
        _print(json.dumps({"file": args.index_file, "entries": entries}, ensure_ascii=False))
        return EXIT_OK
    header = ("COLUMN", "INDEX", "OFFSET", "LENGTH", "DETAILS")
    rows = [header] + [
        (e["column"], e["index_type"], "-" if e["empty"] else str(e["offset"]),
         "-" if e["empty"] else str(e["length"]),
         "empty (no rows)" if e["empty"] else e.get("note") or
         " ".join(f"{k}={v}" for k, v in e["details"].items()))
        for e in entries]
    widths = [max(len(row[i]) for row in rows) for i in range(len(header) - 1)]
    for row in rows:
        _print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[-1])
    return EXIT_OK


def _cmd_query(args) -> int:
    if args.predicate is None and args.top_n is None:
        raise UsageError("give a PREDICATE, --top-n, or both", f"{PROG} query")
    schema = _load_schema(args.schema)
    fields = schema.row_type()
    node = parse_predicate(args.predicate, fields) if args.predicate is not None else None
    top_n: Optional[TopN] = args.top_n
    if top_n is not None:
        bind_predicate(Leaf("is_null", top_n.column), fields)  # the column must exist
    reader = _open_reader(args.index_file, fields)
    result = reader.evaluate(node) if node is not None else None
    if top_n is not None and (result is None or (result.kind == "ROWS" and not result.skip)):
        # Only a row answer may narrow the top-n: a REMAIN filter says nothing about which
        # rows match, so ranking all rows could drop matching ones.
        selection = None if result is None else _rows_array(result)
        result = reader.top_n(top_n.column, top_n.limit, descending=top_n.descending,
                              nulls_first=top_n.nulls_first, selection=selection,
                              with_ties=top_n.with_ties)
    # An empty row set means the file can be skipped (Paimon's remain() is false).
    kind = "SKIP" if result.skip else result.kind
    rows = _row_ids(result) if kind == "ROWS" else None
    explained = None
    if args.explain and node is not None:
        from pyfileindex.explain import explain, format_explain
        explained = explain(reader, node)
    if args.json:
        payload = {"result": kind}
        if rows is not None:
            payload["rows"] = rows
        if explained is not None:
            payload["explain"] = explained
        _print(json.dumps(payload))
        return EXIT_OK
    if explained is not None:
        _print(format_explain(explained))
    elif rows is not None:
        _print(" ".join(map(str, rows)))
    else:
        _print(kind)
    return EXIT_OK


def _cmd_indexes(args) -> int:
    from pyfileindex.paimon import PaimonTableMetadata, index_report
    from pyfileindex.paimon.report import table_summary
    from pyfileindex.paimon.report_text import report_json, report_text

    meta = PaimonTableMetadata(args.table, options=_catalog_options(args))
    reports = index_report(meta, snapshot_id=args.snapshot)
    summary = table_summary(meta)
    if args.json:
        _print(json.dumps(report_json(summary, reports), ensure_ascii=False))
    else:
        _print(report_text(summary, reports))
    return EXIT_OK


def _cmd_demo(args) -> int:
    if args.golden is None:
        from pyfileindex.spark import commands as spark_commands
        from pyfileindex.spark.demo import DEFAULT_FILES, DEFAULT_ROWS

        rows = DEFAULT_ROWS if args.rows is None else args.rows
        files = DEFAULT_FILES if args.files is None else args.files
        if rows < 1 or files < 1:
            raise UsageError("--rows and --files must be positive", f"{PROG} demo")
        if files > rows:
            files = rows
        return spark_commands.demo(rows, files, args.master, args.warehouse, args.keep,
                                   args.archive, catalog_options=_catalog_options(args))
    return _golden_demo(args.golden)


def _golden_demo(directory: str) -> int:
    from pathlib import Path

    from pyfileindex import golden_demo

    if directory:
        golden = Path(directory)
    else:
        candidates = [Path.cwd() / "shared", Path.cwd().parent / "shared"]
        golden = next((c / "golden" / "paimon-java-tables" for c in candidates
                       if (c / "golden" / "paimon-java-tables").is_dir()), None)
        if golden is None:
            raise CliError("no golden tables found; pass --golden DIR")
    if not golden.is_dir():
        raise CliError(f"--golden {golden}: not a directory")
    return 1 if golden_demo.run(golden) else 0


def _cmd_spark_missing(args) -> int:
    raise UsageError("missing SPARK_COMMAND (write, index, query or pack)", f"{PROG} spark")


def _cmd_spark_write(args) -> int:
    from pyfileindex.spark import commands as spark_commands
    return spark_commands.write(args.table, args.input, args.input_format, dict(args.option),
                                args.partition_key, args.tasks, args.master, args.archive,
                                dict(args.conf), catalog_options=_catalog_options(args))


def _cmd_spark_index(args) -> int:
    from pyfileindex.spark import commands as spark_commands
    return spark_commands.index(args.table, dict(args.option), args.tasks, args.master,
                                args.archive, dict(args.conf),
                                catalog_options=_catalog_options(args))


def _cmd_spark_query(args) -> int:
    if args.top_n is not None and args.top_n.with_ties:
        # The Spark read ends in orderBy(column).limit(n): it cannot return the ties.
        raise UsageError("--top-n ... WITH TIES is not supported by spark query",
                         f"{PROG} spark query")
    from pyfileindex.spark import commands as spark_commands
    columns = None
    if args.columns:
        columns = [c.strip() for c in args.columns.split(",") if c.strip()]
    if args.count:
        if args.top_n is not None or args.limit is not None or args.columns or args.output:
            raise UsageError("--count takes a PREDICATE (or none: every row), not --top-n, "
                             "--limit, --columns or --output", f"{PROG} spark query")
        return spark_commands.count(args.table, args.predicate, args.compare, args.master,
                                    args.archive, dict(args.conf),
                                    catalog_options=_catalog_options(args))
    if args.predicate is None and args.top_n is None and args.limit is None:
        raise UsageError("give a PREDICATE, --top-n or --limit", f"{PROG} spark query")
    return spark_commands.query(args.table, args.predicate, columns, args.top_n, args.limit,
                                args.show, args.output, args.compare, args.master,
                                args.archive, dict(args.conf),
                                catalog_options=_catalog_options(args))


def _cmd_spark_pack(args) -> int:
    from pyfileindex.spark import commands as spark_commands
    return spark_commands.pack(args.output)


# ---------------------------------------------------------------------------------------------
# Entry point
# ---------------------------------------------------------------------------------------------


def _print(text: str) -> None:
    sys.stdout.write(text + "\n")


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        text = exc.strerror + (f": {exc.filename}" if exc.filename else "")
    elif isinstance(exc, KeyError) and exc.args:
        text = str(exc.args[0])  # str(KeyError) would add quotes
    else:
        text = str(exc) or type(exc).__name__
    return " ".join(text.split())


def _fail(message: str) -> None:
    print(f"{PROG}: error: {message}", file=sys.stderr)


def _version() -> str:
    """The package version, then what the native core was built with and runs on."""
    try:
        from importlib.metadata import version

        package = version("pyfileindex")
    except Exception:  # not installed: fall back to the native library's own version
        package = str(_native("__version__"))
    return (f"{package} (native {_native('library_version')()}, "
            f"CRoaring {_native('croaring_version')()}, SIMD {_native('simd_level')()})")


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line and return its exit status; errors never escape as exceptions."""
    debug = os.environ.get(DEBUG_ENV, "") not in ("", "0")
    try:
        parser = build_parser()
        args = parser.parse_args(list(argv) if argv is not None else None)
        if args.version:
            _print(f"{PROG} {_version()}")
            return EXIT_OK
        if args.command is None:
            raise UsageError("missing COMMAND (build, inspect, query, indexes, demo or spark)")
        status = args.handler(args)
        sys.stdout.flush()
        return status
    except UsageError as exc:
        print(f"{exc.prog}: error: {_one_line(exc)} (see '{exc.prog} --help')", file=sys.stderr)
        return EXIT_USAGE
    except SystemExit as exc:  # --help
        return exc.code if isinstance(exc.code, int) else EXIT_OK
    except KeyboardInterrupt:
        _fail("interrupted")
        return 130
    except BrokenPipeError:
        # The reader of stdout went away (e.g. `| head`): not worth a message.
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return EXIT_ERROR
    except Exception as exc:  # every failure becomes one line (FileIndexError, OSError, ...)
        if debug:
            traceback.print_exc()
        if isinstance(exc, (CliError, ValueError, OSError, KeyError)):
            _fail(_one_line(exc))
        else:
            _fail(f"internal error ({type(exc).__name__}): {_one_line(exc)}; "
                  f"set {DEBUG_ENV}=1 for a traceback")
        return EXIT_ERROR
