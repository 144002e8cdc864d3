"""The index report (report.py) as text for a terminal, and as one JSON document."""

from typing import Any, Dict, List, Mapping, Sequence

from .report import MISSING, FileIndexReport

HEADER = ("COLUMN", "INDEX", "BYTES", "INDEX ROWS", "STATUS")


def report_json(summary: Mapping[str, Any], reports: Sequence[FileIndexReport]) -> Dict:
    """{"table", "schema_id", "read_enabled", "options", "ignored_options", "files": [...],
    "stale_files"}."""
    out = dict(summary)
    out["files"] = [r.to_dict() for r in reports]
    out["stale_files"] = sum(1 for r in reports if r.stale)
    return out


def _partition_text(report: FileIndexReport) -> str:
    if not report.partition:
        return "-"
    return ",".join(f"{k}={v}" for k, v in report.partition.items())


def _location_text(report: FileIndexReport) -> str:
    if report.location is None:
        return "no index"
    size = f"{report.container_bytes} bytes" if report.container_bytes else "size unknown"
    if report.sidecar is not None:
        return f"sidecar {report.sidecar}, {size}"
    return f"{report.location}, {size}"


def _rows(report: FileIndexReport) -> List[tuple]:
    """One row per stored index, then one per declared index the file lacks."""
    kinds: Dict[tuple, List[str]] = {}
    for finding in report.findings:
        if finding.column is not None:
            kinds.setdefault((finding.column, finding.index_type), []).append(finding.kind)
    rows = []
    for index in report.indexes:
        status = kinds.get((index.column, index.index_type), []) + \
            kinds.get((index.column, None), [])
        rows.append((index.column, index.index_type, str(index.bytes),
                     "-" if index.row_count is None else str(index.row_count),
                     ",".join(status) or "ok"))
    for finding in report.findings:
        if finding.kind == MISSING:
            rows.append((finding.column, finding.index_type, "-", "-", MISSING))
    return rows


def report_text(summary: Mapping[str, Any], reports: Sequence[FileIndexReport]) -> str:
    """The report for a terminal: the options judged against, then per data file where its
    index lives, a table of its indexes and its findings spelled out, then a closing count
    of the files a rewrite_file_index would change."""
    lines = [f"table {summary['table']} (schema {summary['schema_id']}; file index reads "
             f"{_read_text(summary.get('read_enabled'))})"]
    options = summary.get("options") or {}
    if options:
        ignored = set(summary.get("ignored_options") or ())
        lines += [f"  {k} = {v}" + ("  (ignored: not an option any writer reads)"
                                     if k in ignored else "")
                  for k, v in sorted(options.items())]
    else:
        lines.append("  no file-index options")
    tables = [_rows(report) for report in reports]
    every = [HEADER] + [row for rows in tables for row in rows]
    widths = [max(len(row[i]) for row in every) for i in range(len(HEADER) - 1)]

    def line(row) -> str:
        return "    " + "  ".join(c.ljust(w) for c, w in zip(row, widths)) + "  " + row[-1]

    for report, rows in zip(reports, tables):
        lines.append("")
        lines.append(f"{report.file_name}  partition {_partition_text(report)}  bucket "
                     f"{report.bucket}  {report.row_count} rows  schema {report.schema_id}  "
                     f"{'STALE' if report.stale else 'up to date'}")
        lines.append(f"  index: {_location_text(report)}")
        if rows:
            lines += [line(HEADER)] + [line(row) for row in rows]
        for finding in report.findings:
            lines.append(f"  {finding.kind}: {finding.message}")
    stale = sum(1 for r in reports if r.stale)
    lines.append("")
    lines.append(f"{len(reports)} data file(s): {len(reports) - stale} up to date, {stale} "
                 f"stale" + (" (rewrite_file_index rebuilds them)" if stale else ""))
    return "\n".join(lines)


def _read_text(enabled) -> str:
    if enabled is None:
        return "option invalid"
    return "enabled" if enabled else "disabled"
