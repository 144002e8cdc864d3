"""Client for the Java differential-test harness (Apache Paimon 2.0's own file-index code).

One JVM per pytest session runs ``io.pyfileindex.harness.Main`` from the Maven project in
``tests/java``. It reads one JSON request per line on stdin and answers with one JSON line on
stdout (logs go to stderr). A bad request gets ``{"ok": false, "error": ...}``; the JVM keeps
running. Use the session fixture ``java_harness`` (defined here) or ``JavaHarness`` directly.

Requests (every request may carry an "id", echoed back):

* ``{"op": "ping"}`` -> ``{"ok": true, "version": "2.0.0", "java": "17..."}``
* ``{"op": "write", "fields": F, "columns": C, "options": O}`` ->
  ``{"ok": true, "bytes": "<base64 container>" | null}``. Built the way a Paimon data-file
  writer builds it: ``new CoreOptions(Options.fromMap(O)).indexColumnsOptions()``, then
  ``DataFileIndexWriter.create(fileIO, path, rowType, options)``, ``write(row)`` for every
  row, ``close()``; the bytes are taken from ``result().embeddedIndexBytes()`` or, when Paimon
  chose a sidecar (size > file-index.in-manifest-threshold), from the ``.index`` file it
  wrote into a temp dir. Both hold identical bytes. null = the options declare no index.
* ``{"op": "read", "bytes": B, "fields": F, "predicates": [P, ...]}`` ->
  ``{"ok": true, "results": [A, ...]}``: ``new FileIndexPredicate(bytes, rowType)
  .evaluate(predicate)`` per predicate. An answer A is ``{"result": "SKIP"}``,
  ``{"result": "REMAIN"}``, ``{"result": "ROWS", "rows": [ascending row ids]}`` (Paimon
  returned a BitmapIndexResult; rows may be empty) or ``{"error": "..."}`` when Java threw.
  With several indexes on one column, Java may answer SKIP or an empty ROWS for the same
  question from one call to the next: compare through ``normalize_answer``.
* ``{"op": "topn", "bytes": B, "fields": F, "column": c, "descending": bool,
  "nulls_first": bool, "limit": k, "selection": [row ids] | null, "with_ties": bool}`` ->
  ``{"ok": true, "result": "ROWS", "rows": [...]}`` or ``"REMAIN"``/``"SKIP"``, via
  ``FileIndexPredicate.evaluateTopN(new TopN(orders, k), input)`` with one SortValue on c
  (Paimon's strict TopN) or, with_ties, that SortValue twice (more than one sort key: the
  non-strict TopN that keeps ties), input = ``BitmapIndexResult(selection)`` or
  ``FileIndexResult.REMAIN`` when selection is null. Only range-bitmap answers TopN; Paimon
  returns the input unchanged when the input bitmap has at most k rows or no index answers.
* ``{"op": "bench_write", <write fields>, "repeat": N, "warmup": W}`` and
  ``{"op": "bench_read", "bytes", "fields", "predicate": P, "repeat": N, "warmup": W}`` ->
  ``median_ns``, ``min_ns``, ``runs`` (JIT warmed by W untimed runs, default W = N; timed
  in-JVM with System.nanoTime) plus ``bytes`` (write) or ``result`` (read). Timed write runs
  force the index inline so no sidecar file I/O is measured.
* Benchmark ops with file inputs (``bench_build``, ``bench_open``, ``bench_query``,
  ``bench_topn``; big columns travel as column dumps, not JSON): see
  tests/java/.../BenchOps.java and benchmarks/java_side.py.
* ``{"op": "shutdown"}`` -> answers, then the JVM exits (EOF on stdin does the same).

Fields F: ``[{"name": "f0", "type": "STRING"}, ...]`` (this client also takes
``[("f0", "STRING"), ...]``). Types are Paimon type strings as in schema files ("INT",
"BIGINT NOT NULL", "VARCHAR(10)", "DECIMAL(10, 2)", "TIMESTAMP(9)",
"TIMESTAMP(6) WITH LOCAL TIME ZONE"), parsed by Paimon's DataTypeJsonParser; a JSON type
object (as schema files write ARRAY/MAP) works too. Field ids are the positions.

Columns C: ``{"f0": [values in row order], ...}``, one list per field, all of one length.
Options O: table options, string -> string, e.g. ``{"file-index.bitmap.columns": "f0,f1"}``.

Predicates P: leaves ``{"op": OP, "column": "f0", "literals": [...]}`` with OP in eq ne lt le
gt ge in not_in is_null is_not_null between starts_with ends_with contains like is_nan;
``{"op": "and" | "or", "children": [...]}``; ``{"op": "not", "child": P}`` (Paimon's
``Predicate.negate()``). Built with Paimon's PredicateBuilder: ``in`` with 1..20 literals
becomes an OR of equals (an ``In`` leaf otherwise), ``not_in`` the negation of that (AND of
not-equals / ``NotIn`` leaf); ``"form": "leaf"`` on in/not_in forces the single leaf. A
column ``"m[k]"`` names key k of MAP column m (the name of a map-key index in the container);
its literals have the map's value type.

Value encoding (values in columns and literals; null is JSON null; mirrored by
tests/java/harness/.../Values.java):

* BOOLEAN: true/false.  TINYINT, SMALLINT, INT, BIGINT: JSON integers (range-checked).
* FLOAT, DOUBLE: JSON numbers, or strings "NaN", "Infinity", "-Infinity", "-0.0" or any
  float text (Python's "nan"/"inf" spellings too). A number for a FLOAT column is the double
  value rounded to float32; a string is parsed straight to float32.
  ``{"bits": "7fa00001"}`` gives the IEEE 754 bit pattern in hex (NaN payloads, signalling
  NaNs), through Float.intBitsToFloat / Double.longBitsToDouble.
* DECIMAL(p, s): a string "123.45" (must fit p and s exactly; the harness never rounds).
* CHAR, VARCHAR, STRING: JSON strings, stored as their exact UTF-8 bytes (U+0000 is one 0x00
  byte, non-BMP characters 4 bytes); ``{"base64": "..."}`` gives raw bytes (e.g. invalid
  UTF-8).
* BINARY, VARBINARY, BYTES: base64 strings.
* DATE: int days since 1970-01-01.  TIME: int milliseconds of the day.
* TIMESTAMP(p), TIMESTAMP(p) WITH LOCAL TIME ZONE: int epoch NANOSECONDS, given to Paimon as
  ``Timestamp.fromEpochMillis(floorDiv(ns, 10^6), floorMod(ns, 10^6))``; not truncated to p.
* ARRAY: a list.  MAP: a JSON object or a list of [key, value] pairs (order kept).

This client converts Python values for you: bytes -> base64 (``{"base64"}`` in string
columns), non-finite floats -> strings, decimal.Decimal -> str, numpy scalars -> Python
scalars. Dates and timestamps must already be ints (days / ms / ns): no silent precision loss.
"""

from __future__ import annotations

import atexit
import base64
import collections
import decimal
import fcntl
import json
import math
import queue
import shutil
import subprocess
import threading
import time
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import pytest

JAVA_PROJECT = Path(__file__).resolve().parent / "java"
LIB_DIR = JAVA_PROJECT / "target" / "lib"
BUILD_STAMP = LIB_DIR / ".build-stamp"
MAIN_CLASS = "io.pyfileindex.harness.Main"
DEFAULT_TIMEOUT_S = 300.0
STDERR_TAIL_LINES = 60

_STRING_ROOTS = {"CHAR", "VARCHAR", "STRING"}
_BINARY_ROOTS = {"BINARY", "VARBINARY", "BYTES"}


class JavaHarnessError(RuntimeError):
    """The harness cannot run: build failed, JVM died or timed out, protocol broken."""


class JavaRequestError(JavaHarnessError):
    """Java answered {"ok": false}: the request was rejected or Paimon threw."""


# ----------------------------------------------------------------------------- build


def _source_files() -> list[Path]:
    files = [JAVA_PROJECT / "pom.xml", JAVA_PROJECT / "harness" / "pom.xml"]
    files += sorted((JAVA_PROJECT / "harness" / "src").rglob("*.java"))
    return files


def build_is_stale() -> bool:
    """True when the runnable classpath is missing or older than any Maven source."""
    if not BUILD_STAMP.exists() or not (LIB_DIR / "paimon-harness.jar").exists():
        return True
    built = BUILD_STAMP.stat().st_mtime
    return any(f.stat().st_mtime > built for f in _source_files())


def ensure_built(mvn: str = "mvn") -> None:
    """Runs `mvn -q -f tests/java/pom.xml package -DskipTests` when the build is stale.

    A file lock keeps parallel test workers from building at the same time.
    """
    (JAVA_PROJECT / "target").mkdir(exist_ok=True)
    with open(JAVA_PROJECT / "target" / ".build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not build_is_stale():
            return
        if shutil.which(mvn) is None:
            raise JavaHarnessError(f"'{mvn}' not found: Maven is needed to build tests/java")
        command = [mvn, "-q", "-B", "-f", str(JAVA_PROJECT / "pom.xml"), "package", "-DskipTests"]
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if done.returncode != 0:
            tail = done.stdout.decode("utf-8", "replace")[-4000:]
            raise JavaHarnessError(f"Maven build of tests/java failed:\n{tail}")
        BUILD_STAMP.touch()


# -------------------------------------------------------------------- value encoding


def normalize_fields(fields: Iterable[Any]) -> list[dict]:
    """[("f0", "INT"), ...] or [{"name": ..., "type": ...}, ...] -> list of dicts."""
    out = []
    for field in fields:
        if isinstance(field, Mapping):
            out.append(dict(field))
        else:
            name, type_ = field
            out.append({"name": name, "type": type_})
    return out


def _type_root(type_: Any) -> str:
    """"VARCHAR(10)" -> "VARCHAR"; "TIMESTAMP(6) WITH LOCAL TIME ZONE" -> "TIMESTAMP"."""
    if not isinstance(type_, str):
        return ""
    return type_.strip().split("(")[0].split()[0].upper()


def encode_value(value: Any, root: str = "") -> Any:
    """One Python value -> its JSON form for a column whose type root is `root`."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value  # json writes repr(): exact, and keeps -0.0
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        text = base64.b64encode(bytes(value)).decode("ascii")
        return {"base64": text} if root in _STRING_ROOTS else text
    if isinstance(value, (list, tuple)):
        return [encode_value(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): encode_value(v) for k, v in value.items()}
    if hasattr(value, "item"):  # numpy scalar
        return encode_value(value.item(), root)
    raise TypeError(
        f"cannot encode {type(value).__name__} {value!r} for the Java harness "
        "(dates/times/timestamps must be ints: days / ms of day / epoch ns)"
    )


_PLAIN_JSON_TYPES = (int, str, type(None))  # exact types: bool and floats need encode_value


def encode_columns(fields: list[dict], columns: Mapping[str, Sequence[Any]]) -> dict:
    roots = {f["name"]: _type_root(f["type"]) for f in fields}
    encoded = {}
    for name, values in columns.items():
        values = list(values)
        if all(type(v) in _PLAIN_JSON_TYPES for v in values):
            encoded[name] = values  # the common case, kept cheap for big benchmark inputs
        else:
            root = roots.get(name, "")
            encoded[name] = [encode_value(v, root) for v in values]
    return encoded


def encode_predicate(predicate: Mapping[str, Any], roots: Mapping[str, str]) -> dict:
    """Encodes the literals of a predicate tree with the type of the column they test."""
    out = dict(predicate)
    if "children" in out:
        out["children"] = [encode_predicate(c, roots) for c in out["children"]]
    if "child" in out:
        out["child"] = encode_predicate(out["child"], roots)
    if "literals" in out and out["literals"] is not None:
        root = roots.get(out.get("column", ""), "")
        out["literals"] = [encode_value(v, root) for v in out["literals"]]
    return out


# ---------------------------------------------------------------------------- client


class JavaHarness:
    """One long-running JVM speaking the JSON-lines protocol described in this module."""

    def __init__(
        self,
        *,
        java: str = "java",
        mvn: str = "mvn",
        jvm_args: Sequence[str] = ("-Xss8m", "-XX:+UseSerialGC"),
        timeout_s: float = DEFAULT_TIMEOUT_S,
    ) -> None:
        self.java = java
        self.mvn = mvn
        self.jvm_args = list(jvm_args)
        self.timeout_s = timeout_s
        self.startup_seconds: float | None = None
        self._process: subprocess.Popen | None = None
        self._stdout_lines: queue.Queue = queue.Queue()
        self._stderr_tail: collections.deque = collections.deque(maxlen=STDERR_TAIL_LINES)
        self._lock = threading.Lock()
        self._next_id = 0

    # -- lifecycle

    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def start(self) -> "JavaHarness":
        if self.alive:
            return self
        ensure_built(self.mvn)
        if shutil.which(self.java) is None:
            raise JavaHarnessError(f"'{self.java}' not found: a JDK 17+ is needed")
        began = time.monotonic()
        self._stdout_lines = queue.Queue()
        self._stderr_tail.clear()
        self._process = subprocess.Popen(
            [self.java, *self.jvm_args, "-cp", str(LIB_DIR / "*"), MAIN_CLASS],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        # Each JVM gets its own queue: a dead JVM's pump thread must not feed the next one.
        threading.Thread(target=_pump_stdout, args=(self._process, self._stdout_lines),
                         daemon=True).start()
        threading.Thread(target=self._pump_stderr, args=(self._process,), daemon=True).start()
        self.ping()
        self.startup_seconds = time.monotonic() - began
        return self

    def close(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        try:
            if process.poll() is None:
                try:
                    process.stdin.write(b'{"op":"shutdown"}\n')
                    process.stdin.flush()
                    process.stdin.close()
                except OSError:
                    pass
                process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def __enter__(self) -> "JavaHarness":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _pump_stderr(self, process: subprocess.Popen) -> None:
        for line in process.stderr:
            self._stderr_tail.append(line.decode("utf-8", "replace").rstrip("\n"))

    def stderr_tail(self) -> str:
        return "\n".join(self._stderr_tail)

    def _dead(self, what: str) -> JavaHarnessError:
        process = self._process
        code = process.poll() if process is not None else None
        return JavaHarnessError(
            f"Java harness {what} (exit code {code}). stderr tail:\n{self.stderr_tail()}"
        )

    # -- protocol

    def request(self, payload: Mapping[str, Any], timeout_s: float | None = None) -> dict:
        """Sends one request and returns the decoded response; raises on ok == false."""
        if not self.alive:
            if self._process is not None:
                raise self._dead("is not running")
            self.start()
        with self._lock:
            self._next_id += 1
            request_id = self._next_id
            message = dict(payload, id=request_id)
            # ensure_ascii=False + strict UTF-8: a lone surrogate fails here, not in Java.
            line = json.dumps(message, ensure_ascii=False, allow_nan=False,
                              separators=(",", ":")).encode("utf-8") + b"\n"
            try:
                self._process.stdin.write(line)
                self._process.stdin.flush()
            except OSError as e:
                raise self._dead(f"cannot take requests ({e})") from None
            try:
                raw = self._stdout_lines.get(timeout=timeout_s or self.timeout_s)
            except queue.Empty:
                self._process.kill()
                raise self._dead(f"timed out after {timeout_s or self.timeout_s}s "
                                 f"on op {payload.get('op')!r} and was killed") from None
            if raw is None:
                raise self._dead(f"died while answering op {payload.get('op')!r}")
        response = json.loads(raw)
        if response.get("id") != request_id:
            raise JavaHarnessError(f"protocol out of step: sent id {request_id}, got {response}")
        if not response.get("ok"):
            raise JavaRequestError(response.get("error", "unknown error"))
        return response

    def ping(self) -> str:
        return self.request({"op": "ping"})["version"]

    def write(self, fields: Iterable[Any], columns: Mapping[str, Sequence[Any]],
              options: Mapping[str, str] | None = None) -> bytes | None:
        """Container bytes Paimon's DataFileIndexWriter produces, or None (no index)."""
        fields = normalize_fields(fields)
        response = self.request({
            "op": "write", "fields": fields, "columns": encode_columns(fields, columns),
            "options": dict(options or {}),
        })
        data = response["bytes"]
        return None if data is None else base64.b64decode(data)

    def read(self, data: bytes, fields: Iterable[Any],
             predicates: Sequence[Mapping[str, Any]]) -> list[dict]:
        """One answer dict per predicate (see module doc)."""
        fields = normalize_fields(fields)
        roots = {f["name"]: _type_root(f["type"]) for f in fields}
        response = self.request({
            "op": "read", "bytes": base64.b64encode(data).decode("ascii"), "fields": fields,
            "predicates": [encode_predicate(p, roots) for p in predicates],
        })
        return response["results"]

    def topn(self, data: bytes, fields: Iterable[Any], column: str, *, limit: int,
             descending: bool = False, nulls_first: bool = False,
             selection: Iterable[int] | None = None, with_ties: bool = False) -> dict:
        """{"result": "ROWS", "rows": [...]} or {"result": "REMAIN" | "SKIP"}. with_ties: Java's
        non-strict TopN (a second sort key after `column`)."""
        response = self.request({
            "op": "topn", "bytes": base64.b64encode(data).decode("ascii"),
            "fields": normalize_fields(fields), "column": column, "limit": limit,
            "descending": descending, "nulls_first": nulls_first,
            "selection": None if selection is None else [int(r) for r in selection],
            "with_ties": bool(with_ties),
        })
        answer = {"result": response["result"]}
        if "rows" in response:
            answer["rows"] = response["rows"]
        return answer

    def bench_write(self, fields: Iterable[Any], columns: Mapping[str, Sequence[Any]],
                    options: Mapping[str, str], *, repeat: int,
                    warmup: int | None = None) -> dict:
        fields = normalize_fields(fields)
        payload = {"op": "bench_write", "fields": fields, "options": dict(options),
                   "columns": encode_columns(fields, columns), "repeat": repeat}
        if warmup is not None:
            payload["warmup"] = warmup
        response = self.request(payload)
        response["bytes"] = base64.b64decode(response["bytes"])
        return _timing(response, "bytes")

    def bench_read(self, data: bytes, fields: Iterable[Any], predicate: Mapping[str, Any], *,
                   repeat: int, warmup: int | None = None) -> dict:
        fields = normalize_fields(fields)
        roots = {f["name"]: _type_root(f["type"]) for f in fields}
        payload = {"op": "bench_read", "bytes": base64.b64encode(data).decode("ascii"),
                   "fields": fields, "predicate": encode_predicate(predicate, roots),
                   "repeat": repeat}
        if warmup is not None:
            payload["warmup"] = warmup
        return _timing(self.request(payload), "result")


def normalize_answer(answer: Mapping[str, Any]) -> dict:
    """Maps an empty ROWS answer to SKIP, so answers compare by meaning.

    Java evaluates a column's index readers in HashSet order of the reader objects (identity
    hashes, so it changes from call to call) and stops at the first answer that does not
    remain: on a column with e.g. bloom-filter + bitmap, a value that is absent yields SKIP
    or an empty ROWS at random. Both mean "no row matches".
    """
    if answer.get("result") == "ROWS" and not answer.get("rows"):
        return {"result": "SKIP"}
    return dict(answer)


def _pump_stdout(process: subprocess.Popen, lines: queue.Queue) -> None:
    for line in process.stdout:
        lines.put(line)
    lines.put(None)  # EOF: the JVM is gone


def _timing(response: dict, extra: str) -> dict:
    return {k: response[k] for k in ("median_ns", "min_ns", "runs", extra)}


# --------------------------------------------------------------------- pytest wiring

_shared: JavaHarness | None = None


def shared_harness() -> JavaHarness:
    """The one JVM of this process (restarted if it died)."""
    global _shared
    if _shared is None or not _shared.alive:
        if _shared is not None:
            _shared.close()
        _shared = JavaHarness().start()
    return _shared


@atexit.register
def _close_shared() -> None:
    if _shared is not None:
        _shared.close()


@pytest.fixture(scope="session")
def java_harness() -> JavaHarness:
    """Session-wide Java harness. Import it into a test module
    (`from java_harness import java_harness  # noqa: F401`) or load this module as a plugin
    (`pytest_plugins = ["java_harness"]` in the root conftest.py)."""
    return shared_harness()


def pytest_configure(config: pytest.Config) -> None:
    """Registers the marker when this module is loaded as a plugin."""
    config.addinivalue_line("markers", "java: needs a JDK + Maven (Java Paimon 2.0 harness)")
