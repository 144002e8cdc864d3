"""Table files through the table's own file IO, on a local disk or an object store.

Every read, write, listing and delete of a table file goes through pypaimon's file IO
for the table (or the pyarrow filesystem it wraps), never through open() or os.path:
the same code serves `/warehouse/...`, `file:/...` and `s3://bucket/...` tables.

What is atomic where:
* Local disks and HDFS have an atomic rename that refuses to replace a file, so a new
  file is written under a temporary name and renamed into place (writer.py).
* Object stores (S3 and S3-compatible, OSS, GCS) have no rename. An object becomes
  visible only when its upload completes (one PUT, or a multipart upload completed at
  close), so a file written with one write and one close is never seen half-written.
  Whether the name is free is checked just before: an existing object is never
  knowingly replaced. Leftovers of a killed writer are objects no snapshot references;
  the orphan clean-up removes them.

Errors name the store and the object (bucket and key), never credentials: messages are
scrubbed of every credential value in the file IO's options.
"""

from typing import Iterable, List, Optional, Sequence, Tuple
from urllib.parse import urlparse

from . import _pypaimon
from .errors import PaimonMetadataError

# Schemes whose stores have no rename; everything else (no scheme, file, hdfs, viewfs)
# keeps the temp-name-then-rename protocol.
OBJECT_STORE_SCHEMES = frozenset({"s3", "s3a", "s3n", "oss", "gs", "gcs", "cos", "cosn",
                                  "obs", "abfs", "abfss", "wasb", "wasbs"})

# Option keys whose values are credentials: matched on the key's lower-cased text.
_CREDENTIAL_WORDS = ("secret", "key", "token", "password", "credential")
_REDACTED = "***"


# Request limits for S3 clients, as file-system / catalog options. pypaimon 2.1 builds
# its S3 client with fixed ones (10 attempts, 60 s to connect, 60 s per request), so a
# store that stops answering holds an operation for many minutes; these replace them.
CONNECT_TIMEOUT_OPTION = "pyfileindex.s3.connect-timeout"  # seconds
REQUEST_TIMEOUT_OPTION = "pyfileindex.s3.request-timeout"  # seconds
MAX_ATTEMPTS_OPTION = "pyfileindex.s3.max-attempts"  # tries of one request, >= 1
_PYPAIMON_MAX_ATTEMPTS = 10  # kept when only the timeouts are set


class StoreError(PaimonMetadataError):
    """A table file on its store could not be read, written, listed or deleted."""


def scheme_of(path: str) -> str:
    scheme = urlparse(str(path)).scheme.lower()
    return "" if len(scheme) == 1 else scheme  # a Windows drive letter is no scheme


def is_object_store(path: str) -> bool:
    return scheme_of(path) in OBJECT_STORE_SCHEMES


def is_local(path: str) -> bool:
    """A path on this machine's file system (no scheme, or file:)."""
    return scheme_of(path) in ("", "file")


def describe(path: str) -> str:
    """`path` for a message: bucket and key on an object store, else the path itself."""
    parsed = urlparse(str(path))
    if is_object_store(path) and parsed.netloc:
        key = parsed.path.lstrip("/")
        return f"object '{key}' in bucket '{parsed.netloc}' ({parsed.scheme}://{parsed.netloc})"
    return f"'{path}'"


def credential_values(items: Iterable[Tuple[str, object]]) -> List[str]:
    """The values of credential options among (key, value) pairs."""
    values = []
    for key, value in items:
        text = "" if value is None else str(value)
        if len(text) >= 4 and any(word in str(key).lower() for word in _CREDENTIAL_WORDS):
            values.append(text)
    return values


def _scrub(text: str, secrets: Iterable[str]) -> str:
    # Longest first: a secret that contains another is replaced whole.
    for secret in sorted(secrets, key=len, reverse=True):
        text = text.replace(secret, _REDACTED)
    return text


def redact_text(text: str, items: Iterable[Tuple[str, object]]) -> str:
    """`text` with every credential value of the (key, value) options replaced."""
    return _scrub(text, credential_values(items))


def redact(text: str, file_io) -> str:
    """`text` with every credential value of the file IO's options replaced."""
    return _scrub(text, _pypaimon.file_io_secrets(file_io))


def missing_bucket(file_io, path: str) -> Optional[str]:
    """The bucket of `path` when the store says it does not exist, else None."""
    parsed = urlparse(str(path))
    if not is_object_store(path) or not parsed.netloc:
        return None
    filesystem, _ = _pypaimon.arrow_filesystem(file_io, path)
    if filesystem is None:
        return None
    import pyarrow.fs as pafs
    try:
        info = filesystem.get_file_info(parsed.netloc)
    except OSError:
        return None  # undecided (e.g. access denied): the original error stands
    return parsed.netloc if info.type == pafs.FileType.NotFound else None


def store_error(file_io, action: str, path: str, exc: BaseException) -> StoreError:
    """A StoreError for `action` ('read', 'write', ...) on `path` failing with `exc`."""
    reason = str(exc) or type(exc).__name__
    if isinstance(exc, FileNotFoundError):
        bucket = missing_bucket(file_io, path)
        reason = (f"bucket '{bucket}' not found" if bucket is not None
                  else f"not found ({reason})")
    return StoreError(redact(f"cannot {action} {describe(path)}: {reason}", file_io))


def _positive(options: dict, key: str, kind):
    text = options.get(key)
    if text is None:
        return None
    try:
        value = kind(str(text).strip())
    except ValueError:
        value = 0
    if not value > 0:
        raise PaimonMetadataError(f"option {key} must be a positive "
                                  f"{'integer' if kind is int else 'number'}, got {text!r}")
    return value


def bound_store_requests(file_io, path: str) -> bool:
    """Apply the `pyfileindex.s3.*` request limits among the file IO's options to the S3
    client serving `path` (once per file IO; later reads, writes and pypaimon's own
    metadata requests all go through it). True when a limit was applied."""
    options = _pypaimon.file_io_options(file_io)
    connect = _positive(options, CONNECT_TIMEOUT_OPTION, float)
    request = _positive(options, REQUEST_TIMEOUT_OPTION, float)
    attempts = _positive(options, MAX_ATTEMPTS_OPTION, int)
    if connect is None and request is None and attempts is None:
        return False

    def rebuild(filesystem):
        import pyarrow.fs as pafs
        _, (settings,) = filesystem.__reduce__()  # the constructor's arguments
        settings = dict(settings)
        if connect is not None:
            settings["connect_timeout"] = connect
        if request is not None:
            settings["request_timeout"] = request
        settings["retry_strategy"] = pafs.AwsStandardS3RetryStrategy(
            max_attempts=attempts or _PYPAIMON_MAX_ATTEMPTS)
        return pafs.S3FileSystem(**settings)

    return _pypaimon.replace_s3_filesystem(file_io, path, rebuild)


def open_input(file_io, path: str):
    """A random-access input file for `path` (ranged reads on object stores)."""
    filesystem, fs_path = _pypaimon.arrow_filesystem(file_io, path)
    try:
        if filesystem is not None:
            return filesystem.open_input_file(fs_path)
        return file_io.new_input_stream(path)
    except OSError as exc:
        raise store_error(file_io, "open", path, exc) from None


def read_columns(file_io, path: str, names: Sequence[str],
                 dictionary_columns: Sequence[str] = ()):
    """The columns `names` of a Parquet or ORC data file that it has, as an Arrow table."""
    fmt = str(path).rsplit(".", 1)[-1].lower()
    if fmt not in ("parquet", "orc"):
        raise PaimonMetadataError(f"reading {fmt!r} data files is not supported "
                                  f"({describe(path)})")
    source = open_input(file_io, path)
    try:
        if fmt == "parquet":
            import pyarrow.parquet as pq
            # Dictionary-encoded where Parquet keeps them so: no string per row is built.
            reader = pq.ParquetFile(source, read_dictionary=list(dictionary_columns) or None)
            present = set(reader.schema_arrow.names)
        else:
            import pyarrow.orc as orc
            reader = orc.ORCFile(source)
            present = set(reader.schema.names)
        return reader.read(columns=[n for n in names if n in present])
    except OSError as exc:
        raise store_error(file_io, "read", path, exc) from None
    finally:
        source.close()


def put_new_object(file_io, path: str, data: bytes) -> bool:
    """Write `data` as the object `path` on an object store unless that name is taken.

    False when an object of that name exists (it is left as it is). The bytes go in one
    write and one close, so the store makes the object visible whole or not at all; the
    stored size is checked against `data` afterwards.
    """
    try:
        if file_io.exists(path):
            return False
        out = file_io.new_output_stream(path)
        try:
            out.write(data)
        finally:
            out.close()
        size = file_io.get_file_size(path)
    except OSError as exc:
        raise store_error(file_io, "write", path, exc) from None
    if size != len(data):
        raise StoreError(f"writing {describe(path)}: the store holds {size} bytes, "
                         f"{len(data)} were written")
    return True


def list_files(file_io, directory: str) -> List[Tuple[str, Optional[float]]]:
    """(name, modification time in seconds or None) of the files directly in `directory`;
    empty when it does not exist."""
    import pyarrow.fs as pafs
    filesystem, fs_path = _pypaimon.arrow_filesystem(file_io, directory)
    try:
        if filesystem is not None:
            infos = filesystem.get_file_info(
                pafs.FileSelector(fs_path, recursive=False, allow_not_found=True))
        else:
            infos = file_io.list_status(directory)
    except OSError as exc:
        raise store_error(file_io, "list", directory, exc) from None
    files = []
    for info in infos:
        if info.type != pafs.FileType.File:
            continue
        mtime = info.mtime
        if mtime is not None and hasattr(mtime, "timestamp"):
            mtime = mtime.timestamp()
        files.append((info.base_name, None if mtime is None else float(mtime)))
    return files


def delete_file(file_io, path: str) -> None:
    """Delete the file `path`; an error if that fails (a missing file is no error)."""
    try:
        file_io.delete(path, False)
    except OSError as exc:
        raise store_error(file_io, "delete", path, exc) from None
