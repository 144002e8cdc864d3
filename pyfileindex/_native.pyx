# cython: language_level=3
# distutils: language = c++
"""Native bindings of pyfileindex: the only extension module.

A thin layer over the C++ API in cpp/include/pyfileindex/: Python values in, Status errors out
as Python exceptions, Arrow data taken zero-copy through the Arrow PyCapsule interface, and the
GIL released around every piece of native work.
"""

import datetime as _dt
import decimal as _decimal
import numbers as _numbers
import os as _os
import warnings as _warnings

import numpy as _np

from pyfileindex.column_names import split_map_column as _split_map_column

cimport cython
from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libcpp cimport bool as cbool
from libcpp.memory cimport shared_ptr, unique_ptr
from libcpp.optional cimport optional
from libcpp.pair cimport pair
from libcpp.string cimport string
from libcpp.string_view cimport string_view
from libcpp.utility cimport move
from libcpp.vector cimport vector


# ---- C++ declarations --------------------------------------------------------------------------

cdef extern from "pyfileindex/arrow_c_abi.h":
    struct ArrowSchema:
        const char* format
        const char* name
        int64_t n_children
        ArrowSchema** children
        void (*release)(ArrowSchema*) noexcept nogil

    struct ArrowArray:
        int64_t length
        void (*release)(ArrowArray*) noexcept nogil

    struct ArrowArrayStream:
        int (*get_schema)(ArrowArrayStream*, ArrowSchema* out) noexcept nogil
        int (*get_next)(ArrowArrayStream*, ArrowArray* out) noexcept nogil
        const char* (*get_last_error)(ArrowArrayStream*) noexcept nogil
        void (*release)(ArrowArrayStream*) noexcept nogil

cdef extern from "pyfileindex/status.h" namespace "pyfileindex" nogil:
    cdef enum class StatusCode(int):
        kOk
        kInvalidArgument
        kCorrupt
        kNotSupported
        kNotFound
        kIoError
        kInternal

    cdef cppclass Status:
        Status()
        cbool ok()
        StatusCode code()
        const string& message()
        string ToString()

    cdef cppclass Result[T]:
        Result()
        cbool ok()
        const Status& status()
        T& value()

cdef extern from "pyfileindex/build_info.h" namespace "pyfileindex":
    const char* LibraryVersion()
    const char* CRoaringVersion()
    const char* SimdLevelInUse()

cdef extern from "pyfileindex/data_type.h" namespace "pyfileindex" nogil:
    cdef enum class TypeRoot(uint8_t):
        kBoolean
        kTinyInt
        kSmallInt
        kInt
        kBigInt
        kFloat
        kDouble
        kDecimal
        kChar
        kVarChar
        kBinary
        kVarBinary
        kDate
        kTime
        kTimestamp
        kTimestampLocalTimeZone
        kMap
        kArray
        kRow
        kMultiset
        kVariant
        kBlob
        kVector
        kGeometry
        kGeography

    cdef cppclass DataType:
        TypeRoot root
        cbool nullable
        int32_t precision
        int32_t scale
        vector[DataType] children
        vector[string] field_names
        vector[string] field_descriptions
        string ToString() except +

    cdef cppclass Field:
        string name
        DataType type

    Result[DataType] ParseDataType(string text)

cdef extern from "pyfileindex/options.h" namespace "pyfileindex" nogil:
    cdef cppclass Options:
        Options()
        void Set(string key, string value)

    Result[int64_t] ParseMemorySize(string text)

cdef extern from "pyfileindex/literal.h" namespace "pyfileindex" nogil:
    cdef enum class LiteralKind "pyfileindex::Literal::Kind"(uint8_t):
        kNull
        kBool
        kInt
        kDouble
        kString
        kDecimal
        kTimestamp

    cdef cppclass Literal:
        LiteralKind kind()
        cbool bool_value()
        int64_t int_value()
        int64_t unscaled_high()
        uint64_t unscaled_low()
        double double_value()
        string_view bytes()
        int32_t scale()
        int32_t nano_of_milli()
        @staticmethod
        Literal Null()
        @staticmethod
        Literal Bool(cbool v)
        @staticmethod
        Literal Int(int64_t v)
        @staticmethod
        Literal Double(double v)
        @staticmethod
        Literal String(string bytes)
        @staticmethod
        Literal Decimal(int64_t unscaled, int32_t scale)
        @staticmethod
        Literal Decimal128(int64_t unscaled_high, uint64_t unscaled_low, int32_t scale)
        @staticmethod
        Literal Timestamp(int64_t epoch_millis, int32_t nano_of_milli)

cdef extern from "pyfileindex/predicate.h" namespace "pyfileindex" nogil:
    const int kMaxPredicateDepth
    cdef enum class PredicateOp(uint8_t):
        kEqual
        kNotEqual
        kLessThan
        kLessOrEqual
        kGreaterThan
        kGreaterOrEqual
        kIn
        kNotIn
        kIsNull
        kIsNotNull
        kBetween
        kStartsWith
        kEndsWith
        kContains
        kLike
        kNotLike
        kIsNaN
        kIsNotNaN
        kAnd
        kOr

    cdef cppclass Predicate:
        @staticmethod
        shared_ptr[const Predicate] Leaf(PredicateOp op, string column, vector[Literal] literals)
        @staticmethod
        shared_ptr[const Predicate] And(vector[shared_ptr[const Predicate]] children)
        @staticmethod
        shared_ptr[const Predicate] Or(vector[shared_ptr[const Predicate]] children)

    cdef cppclass TopN:
        string column
        cbool descending
        cbool nulls_first
        int32_t limit
        cbool with_ties

cdef extern from "pyfileindex/row_bitmap.h" namespace "pyfileindex" nogil:
    cdef cppclass RowBitmap:
        RowBitmap()
        @staticmethod
        RowBitmap FromRows(const uint32_t* rows, size_t count)
        @staticmethod
        Result[RowBitmap] Deserialize(const uint8_t* data, size_t size)
        uint64_t Cardinality()
        void ToArray(uint32_t* out)
        vector[uint8_t] Serialize()
        vector[pair[uint64_t, uint64_t]] ToRanges() except +

cdef extern from "pyfileindex/file_index_result.h" namespace "pyfileindex" nogil:
    cdef enum class ResultKind "pyfileindex::FileIndexResult::Kind"(uint8_t):
        kRemain
        kSkip
        kRows

    cdef cppclass FileIndexResult:
        ResultKind kind()
        cbool remain()
        const RowBitmap& rows()

ctypedef uint8_t* (*AllocateFn)(void* context, size_t size) noexcept nogil

cdef extern from "pyfileindex/writer.h" namespace "pyfileindex" nogil:
    cdef cppclass WriterMemoryPolicy:
        cbool trim_process_heap
    cdef cppclass FileIndexWriter:
        @staticmethod
        Result[unique_ptr[FileIndexWriter]] Make(vector[Field] fields, const Options& options,
                                                 const WriterMemoryPolicy& memory)
        cbool empty()
        Status Write(const ArrowSchema& schema, const ArrowArray& array)
        Result[cbool] FinishInto(AllocateFn allocate, void* context)
        int64_t row_count()
        const vector[string]& ignored_options()

cdef extern from "pyfileindex/index_declarations.h" namespace "pyfileindex" nogil:
    cdef cppclass IndexDeclaration:
        string column
        string field
        string index_type
        cbool takes_dictionaries

    Result[vector[IndexDeclaration]] DeclaredIndexes(const vector[Field]& fields,
                                                     const Options& table_options)

    cdef enum class IndexOptionKind "pyfileindex::IndexOptionKey::Kind"(uint8_t):
        kOther
        kColumns
        kIndexOption
        kTableLevel
        kIgnored

    cdef cppclass IndexOptionKey:
        IndexOptionKind kind
        string index_type
        string column
        string option

    IndexOptionKey ParseIndexOptionKey(string key)

    cdef cppclass IndexColumnName:
        string name
        cbool blank

    vector[IndexColumnName] SplitIndexColumns(string value)

cdef extern from "pyfileindex/reader.h" namespace "pyfileindex" nogil:
    cdef cppclass IndexEntry:
        string column
        string index_type
        int64_t offset
        int64_t length

    cdef cppclass OpenOptions:
        int64_t row_count
        int64_t dictionary_scan_limit

    cdef cppclass FileIndexReader:
        @staticmethod
        Result[shared_ptr[FileIndexReader]] Open(const uint8_t* data, size_t size,
                                                 vector[Field] fields,
                                                 const OpenOptions& options)
        const vector[IndexEntry]& entries()
        Result[FileIndexResult] Evaluate(const Predicate& predicate)
        Result[FileIndexResult] EvaluateTopN(const TopN& top_n, const RowBitmap* selection)
        Result[optional[uint64_t]] Count(const Predicate& predicate, const RowBitmap* excluded)
        Result[optional[pair[Literal, Literal]]] MinMax(const string& column,
                                                       const RowBitmap* selection)
        Result[vector[pair[string, string]]] Describe(const IndexEntry& entry)


cdef extern from "pyfileindex/container_subset.h" namespace "pyfileindex" nogil:
    cdef cppclass SubsetBody:
        int64_t source_offset
        int64_t length
        int64_t offset

    cdef cppclass ContainerSubset:
        vector[uint8_t] head
        vector[SubsetBody] bodies
        int64_t size
        vector[string] listed

    Result[ContainerSubset] PlanContainerSubset(const uint8_t* head, size_t head_size,
                                                int64_t container_size,
                                                const vector[string]& columns)


# ---- errors ------------------------------------------------------------------------------------

class FileIndexError(ValueError):
    """A file index could not be built or read: bad input, options, types or bytes."""


class CorruptIndexError(FileIndexError):
    """Index bytes are truncated or structurally damaged."""


class RowCountMismatchError(CorruptIndexError):
    """An index stores another row count than the data file has (IndexReader's row_count):
    it was written for other rows, or its count is damaged."""


# The C++ reader's wording of that case (file_index_reader.cc), the one Corrupt status told
# apart: the table layer reads such a file without its index instead of failing the query.
_ROW_COUNT_MISMATCH = "stores a row count of "


cdef int64_t _default_dictionary_scan_limit():
    cdef OpenOptions options  # the C++ default, so Python never keeps a copy of the number
    return options.dictionary_scan_limit


DEFAULT_DICTIONARY_SCAN_LIMIT = _default_dictionary_scan_limit()


class UnsupportedError(FileIndexError):
    """A valid request that Paimon (or this library) does not support."""


class IndexNotFoundError(FileIndexError, KeyError):
    """A named column, field or index is absent."""

    def __str__(self):  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


cdef object _raise(const Status& status):
    cdef StatusCode code = status.code()
    message = status.message().decode("utf-8", "replace")
    if code == StatusCode.kCorrupt:
        if _ROW_COUNT_MISMATCH in message:
            raise RowCountMismatchError(message)
        raise CorruptIndexError(message)
    if code == StatusCode.kNotSupported:
        raise UnsupportedError(message)
    if code == StatusCode.kNotFound:
        raise IndexNotFoundError(message)
    if code == StatusCode.kIoError:
        raise OSError(message)
    raise FileIndexError(message)


cdef inline int _check(const Status& status) except -1:
    if not status.ok():
        _raise(status)
    return 0


def library_version() -> str:
    """Version of the native pyfileindex library, e.g. "0.1.0"."""
    return LibraryVersion().decode("ascii")


def croaring_version() -> str:
    """Version of the CRoaring compiled into the native library, e.g. "5.2.2"."""
    return CRoaringVersion().decode("ascii")


def parse_memory_size(text) -> int:
    """Bytes of a Paimon MemorySize text ("500 b", "16kb", "1 mb", "1024"), read as Java reads
    it (FileIndexError naming the problem otherwise)."""
    cdef Result[int64_t] parsed = ParseMemorySize(_utf8(text, "a memory size"))
    _check(parsed.status())
    return parsed.value()


def simd_level() -> str:
    """The widest SIMD kernels in use, chosen at run time from the CPU: "scalar", "avx2",
    "avx512" or "avx512-icelake" (lowered by the PYFILEINDEX_SIMD environment variable)."""
    return SimdLevelInUse().decode("ascii")


# ---- conversions -------------------------------------------------------------------------------

cdef string _utf8(object text, str what="a name") except *:
    """`text` (a str, or bytes taken as UTF-8 already) as UTF-8; `what` names it in the error."""
    if isinstance(text, str):
        return (<str>text).encode("utf-8", "surrogatepass")
    if isinstance(text, bytes):
        return text
    raise TypeError(f"{what} must be a str, got {type(text).__name__}")


cdef vector[Field] _fields(object fields) except *:
    """[(name, "INT"), ...] or objects with .name and .type -> C++ fields."""
    cdef vector[Field] out
    cdef Field field
    cdef Result[DataType] parsed
    if fields is None:
        return out
    if isinstance(fields, (str, bytes)) or not hasattr(fields, "__iter__"):
        raise TypeError("fields must be a sequence of (name, Paimon type) pairs, got "
                        f"{type(fields).__name__}")
    for item in fields:
        if isinstance(item, (tuple, list)):
            if len(item) != 2:
                raise TypeError(f"a field must be a (name, Paimon type) pair, got {item!r}")
            name, type_text = item
        elif hasattr(item, "name") and hasattr(item, "type"):
            # e.g. a schema's field object, whose type may be an object printing as Paimon's text
            name, type_text = item.name, item.type
            if not isinstance(type_text, (str, bytes)):
                type_text = str(type_text)
        else:
            raise TypeError("a field must be a (name, Paimon type) pair or have .name and "
                            f".type, got {item!r}")
        field.name = _utf8(name, "a field name")
        if not isinstance(type_text, str):
            raise TypeError(f"field '{name}': the type must be a str such as 'INT', got "
                            f"{type(type_text).__name__}")
        parsed = ParseDataType(_utf8(type_text))
        if not parsed.ok():
            raise FileIndexError(f"field '{name}': " + parsed.status().message().decode())
        field.type = parsed.value()
        out.push_back(field)
    return out


# Paimon's name of each type root, as pyfileindex.schema.DataType spells it.
_ROOT_NAMES = {
    <int>TypeRoot.kBoolean: "BOOLEAN", <int>TypeRoot.kTinyInt: "TINYINT",
    <int>TypeRoot.kSmallInt: "SMALLINT", <int>TypeRoot.kInt: "INT", <int>TypeRoot.kBigInt: "BIGINT",
    <int>TypeRoot.kFloat: "FLOAT", <int>TypeRoot.kDouble: "DOUBLE",
    <int>TypeRoot.kDecimal: "DECIMAL", <int>TypeRoot.kChar: "CHAR",
    <int>TypeRoot.kVarChar: "VARCHAR", <int>TypeRoot.kBinary: "BINARY",
    <int>TypeRoot.kVarBinary: "VARBINARY", <int>TypeRoot.kDate: "DATE",
    <int>TypeRoot.kTime: "TIME", <int>TypeRoot.kTimestamp: "TIMESTAMP",
    <int>TypeRoot.kTimestampLocalTimeZone: "TIMESTAMP_LTZ", <int>TypeRoot.kMap: "MAP",
    <int>TypeRoot.kArray: "ARRAY", <int>TypeRoot.kRow: "ROW",
    <int>TypeRoot.kMultiset: "MULTISET", <int>TypeRoot.kVariant: "VARIANT",
    <int>TypeRoot.kBlob: "BLOB", <int>TypeRoot.kVector: "VECTOR",
    <int>TypeRoot.kGeometry: "GEOMETRY", <int>TypeRoot.kGeography: "GEOGRAPHY",
}


cdef tuple _type_tree(DataType type):
    cdef size_t i
    children = tuple(_type_tree(type.children[i]) for i in range(type.children.size()))
    names = tuple(type.field_names[i].decode("utf-8", "surrogatepass")
                  for i in range(type.field_names.size()))
    descriptions = tuple(type.field_descriptions[i].decode("utf-8", "surrogatepass")
                         for i in range(type.field_descriptions.size()))
    return (_ROOT_NAMES[<int>type.root], type.nullable, type.precision, type.scale, children,
            names, descriptions)


def parse_type_tree(text) -> tuple:
    """A Paimon type string parsed by the native grammar, as nested tuples
    (root, nullable, precision, scale, children, field names, field descriptions): root is
    Paimon's name ("INT", "TIMESTAMP_LTZ", "MAP", ...), precision also the length of CHAR,
    VARCHAR, BINARY, VARBINARY and VECTOR. FileIndexError naming the position otherwise."""
    cdef Result[DataType] parsed = ParseDataType(_utf8(text, "a type"))
    _check(parsed.status())
    return _type_tree(parsed.value())


_ROOT_CODES = {name: code for code, name in _ROOT_NAMES.items()}
# Children a type of each nested root has (ROW: one per field name).
_CHILD_COUNTS = {"ARRAY": 1, "MULTISET": 1, "VECTOR": 1, "MAP": 2}


cdef DataType _type_from_tree(object tree) except *:
    root, nullable, precision, scale, children, names, descriptions = tree
    cdef DataType out
    if root not in _ROOT_CODES:
        raise ValueError(f"unknown Paimon type root {root!r}")
    wanted = len(names) if root == "ROW" else _CHILD_COUNTS.get(root, 0)
    if len(children) != wanted or len(descriptions) > len(names):
        raise ValueError(f"type {root} has {wanted} child types, got {len(children)}"
                         + (f" for {len(names)} field names" if root == "ROW" else ""))
    out.root = <TypeRoot><int>_ROOT_CODES[root]
    out.nullable = bool(nullable)
    out.precision = precision
    out.scale = scale
    for child in children:
        out.children.push_back(_type_from_tree(child))
    for name in names:
        out.field_names.push_back(_utf8(name, "a field name"))
    for description in descriptions:
        out.field_descriptions.push_back(_utf8(description, "a field description"))
    return out


def type_string(tree) -> str:
    """Paimon's SQL spelling (Java's asSQLString, e.g. "DECIMAL(10, 2) NOT NULL") of a type
    given as parse_type_tree's nested tuples: the native printer, the one index messages use."""
    return _type_from_tree(tree).ToString().decode("utf-8", "surrogatepass")


cdef class _RowType:
    """Parsed fields, kept for the next reader opened with the same (name, type) pairs."""
    cdef vector[Field] fields
    # Column name -> (type root, type text), made on first use, for checking DATE and TIME
    # literals; a MAP field's entries "m[k]" are found by its value type, under "m[]".
    cdef dict types

    cdef dict literal_types(self):
        cdef Field field
        if self.types is None:
            self.types = {}
            for field in self.fields:
                name = field.name.decode("utf-8", "surrogateescape")
                self.types[name] = (<int>field.type.root, field.type.ToString().decode())
                if field.type.root == TypeRoot.kMap and field.type.children.size() == 2:
                    self.types[name + "[]"] = (<int>field.type.children[1].root,
                                               field.type.children[1].ToString().decode())
        return self.types


# Opening many index files with one row type (a query planning a table's files) parses it
# once: the parse was half the time of opening a container. Only fields given as (str, str)
# tuples are kept (immutable: the cache cannot go stale), and only a few row types at once.
cdef dict _row_types = {}
cdef Py_ssize_t _ROW_TYPES_KEPT = 64


# The row type asked for last, for the common case of one list object reused file after file:
# found again by identity, the list's items compared by identity too (they are (str, str)
# tuples, immutable, so a list changed since then has other items or another length).
cdef object _last_fields = None
cdef tuple _last_items = None
cdef _RowType _last_parsed = None


cdef bint _same_items(object fields, tuple items):
    cdef Py_ssize_t i, n = len(items)
    if len(fields) != n:
        return False
    for i in range(n):
        if fields[i] is not items[i]:
            return False
    return True


cdef _RowType _row_type(object fields):
    global _last_fields, _last_items, _last_parsed
    cdef _RowType parsed
    if _last_parsed is not None and fields is _last_fields and _same_items(fields, _last_items):
        return _last_parsed
    key = None
    if type(fields) is list or type(fields) is tuple:
        key = tuple(fields)
        for item in key:
            if not (type(item) is tuple and len(item) == 2 and type(item[0]) is str
                    and type(item[1]) is str):
                key = None
                break
    if key is not None:
        parsed = _row_types.get(key)
        if parsed is None:
            parsed = _RowType.__new__(_RowType)
            parsed.fields = _fields(fields)
            if len(_row_types) >= _ROW_TYPES_KEPT:
                _row_types.clear()
            _row_types[key] = parsed
        _last_fields, _last_items, _last_parsed = fields, key, parsed
        return parsed
    parsed = _RowType.__new__(_RowType)
    parsed.fields = _fields(fields)
    return parsed


cdef Options _options(object options) except *:
    """Table options {key: value}: values may be str, bool (true/false) or numbers."""
    cdef Options out
    if options is None:
        return out
    if not hasattr(options, "items"):
        raise TypeError("options must be a mapping of Paimon table option keys to values, got "
                        f"{type(options).__name__}")
    for key, value in options.items():
        if not isinstance(key, str):
            raise TypeError(f"option keys must be str, got {type(key).__name__} {key!r}")
        if isinstance(value, bool):
            value = "true" if value else "false"
        elif not isinstance(value, (str, _numbers.Number)):
            raise TypeError(f"option '{key}': the value must be a str, bool or number, got "
                            f"{type(value).__name__}")
        out.Set(_utf8(key), _utf8(str(value)))
    return out


_EPOCH = _dt.datetime(1970, 1, 1)
_EPOCH_UTC = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)
_EPOCH_DATE = _dt.date(1970, 1, 1)
_INT64_MIN = -(1 << 63)
_INT64_MAX = (1 << 63) - 1
_INT32_MAX = (1 << 31) - 1
_UINT64_MASK = (1 << 64) - 1
_DECIMAL_UNSCALED_LIMIT = 10 ** 38


# Nanoseconds per tick of a numpy.datetime64 unit, and ticks per nanosecond of the finer ones.
_NANOS_PER_DATETIME64_UNIT = {
    "W": 7 * 86_400 * 1_000_000_000, "D": 86_400 * 1_000_000_000, "h": 3_600_000_000_000,
    "m": 60_000_000_000, "s": 1_000_000_000, "ms": 1_000_000, "us": 1_000, "ns": 1,
}
_DATETIME64_UNITS_PER_NANO = {"ps": 1_000, "fs": 1_000_000, "as": 1_000_000_000}


def datetime64_nanos(value) -> int:
    """Epoch nanoseconds of a numpy.datetime64 of any unit and multiple, exactly (a Python int,
    not bounded to 64 bits); FileIndexError for NaT or digits below a nanosecond."""
    if _np.isnat(value):
        raise FileIndexError("NaT is not a timestamp value; use is_null() to match NULLs")
    unit, count = _np.datetime_data(value.dtype)
    if unit in ("Y", "M"):  # calendar units: numpy turns them into days exactly
        value = value.astype("datetime64[D]")
        unit, count = "D", 1
    ticks = int(value.astype(_np.int64)) * count
    if unit in _NANOS_PER_DATETIME64_UNIT:
        return ticks * _NANOS_PER_DATETIME64_UNIT[unit]
    if unit in _DATETIME64_UNITS_PER_NANO:
        nanos, rest = divmod(ticks, _DATETIME64_UNITS_PER_NANO[unit])
        if rest:
            raise FileIndexError(f"timestamp {value} has digits below nanoseconds")
        return nanos
    raise FileIndexError(f"numpy datetime64 unit {unit!r} is not supported")


cdef Literal _timestamp_from_nanos(object nanos) except *:
    millis, nano_of_milli = divmod(int(nanos), 1_000_000)
    if not (_INT64_MIN <= millis <= _INT64_MAX):
        raise FileIndexError(f"timestamp literal out of range: {nanos} ns")
    return Literal.Timestamp(millis, nano_of_milli)


cdef Literal _decimal_literal(object value) except *:
    """A decimal.Decimal -> unscaled 128-bit integer and scale, as Paimon's Decimal holds it."""
    if not value.is_finite():
        raise FileIndexError(f"decimal literal {value} is not finite")
    sign, digits, exponent = value.as_tuple()
    unscaled = int("".join(map(str, digits)) or "0")
    scale = -exponent
    while scale > 0 and unscaled and unscaled % 10 == 0:  # 1.50 == 1.5: fewer digits to hold
        unscaled //= 10
        scale -= 1
    if scale < 0:
        unscaled *= 10 ** -scale
        scale = 0
    if unscaled >= _DECIMAL_UNSCALED_LIMIT:
        raise FileIndexError(
            f"decimal literal {value} needs more than 38 digits (DECIMAL's largest precision)")
    if scale > 0x7FFFFFFF:
        raise FileIndexError(f"decimal literal {value}: scale {scale} does not fit 32 bits")
    if sign:
        unscaled = -unscaled
    return Literal.Decimal128(unscaled >> 64, unscaled & _UINT64_MASK, scale)


cdef _require_column_type(int wanted, str kind, object value, str column, dict types):
    """A DATE or TIME literal becomes an int (days, milliseconds), which a column of another
    type (an INT) would compare as a plain number: such a literal meets only its own type.
    `types` is the reader's row type (column -> (type root, type text)); a MAP column's
    entries "m[k]" are checked against its value type, kept under "m[]"."""
    if types is None or column is None:
        return
    found = types.get(column)
    if found is None:
        name = _split_map_column(column)
        if name.is_map_entry:
            found = types.get(name.base + "[]")
    if found is None:
        return  # not a field of the row type: the reader answers REMAIN
    root, type_text = found
    if root != wanted:
        raise FileIndexError(
            f"column '{column}': {kind} literal {value} cannot be compared with a column of "
            f"type {type_text} (pyfileindex.bind_predicate converts literals to the column's "
            "type)")


cdef Literal _literal(object value, str column=None, dict types=None) except *:
    """A Python value -> C++ Literal in Paimon's internal representation. With the reader's
    row type (`types`), a DATE or TIME literal is checked against its `column`."""
    if value is None:
        return Literal.Null()
    if isinstance(value, (bool, _np.bool_)):
        return Literal.Bool(bool(value))
    if isinstance(value, (int, _np.integer)):
        value = int(value)
        if not (_INT64_MIN <= value <= _INT64_MAX):
            raise FileIndexError(f"integer literal {value} does not fit 64 bits")
        return Literal.Int(value)
    if isinstance(value, (float, _np.floating)):
        return Literal.Double(float(value))
    if isinstance(value, str):
        return Literal.String(_utf8(value))
    if isinstance(value, (bytes, bytearray, memoryview)):
        return Literal.String(bytes(value))
    if isinstance(value, _decimal.Decimal):
        return _decimal_literal(value)
    if isinstance(value, _np.datetime64):
        if not _np.isnat(value) and _np.datetime_data(value.dtype)[0] in ("Y", "M", "W", "D"):
            _require_column_type(<int>TypeRoot.kDate, "DATE", value, column, types)
            return Literal.Int(int(value.astype("datetime64[D]").astype(_np.int64)))
        return _timestamp_from_nanos(datetime64_nanos(value))
    if isinstance(value, _dt.datetime):
        # TIMESTAMP is wall-clock time: a naive datetime is taken as is; an aware one (for
        # TIMESTAMP WITH LOCAL TIME ZONE) is converted to UTC first.
        if value.tzinfo is not None:
            delta = value - _EPOCH_UTC
        else:
            delta = value - _EPOCH
        micros = (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds
        return _timestamp_from_nanos(micros * 1_000 + int(getattr(value, "nanosecond", 0)))
    if isinstance(value, _dt.date):
        _require_column_type(<int>TypeRoot.kDate, "DATE", value, column, types)
        return Literal.Int((value - _EPOCH_DATE).days)
    if isinstance(value, _dt.time):
        _require_column_type(<int>TypeRoot.kTime, "TIME", value, column, types)
        return Literal.Int(((value.hour * 60 + value.minute) * 60 + value.second) * 1000
                           + value.microsecond // 1000)
    raise TypeError(f"unsupported literal type {type(value).__name__}: {value!r}")


_OPS = {
    "eq": PredicateOp.kEqual,
    "ne": PredicateOp.kNotEqual,
    "lt": PredicateOp.kLessThan,
    "le": PredicateOp.kLessOrEqual,
    "gt": PredicateOp.kGreaterThan,
    "ge": PredicateOp.kGreaterOrEqual,
    "in": PredicateOp.kIn,
    "not_in": PredicateOp.kNotIn,
    "is_null": PredicateOp.kIsNull,
    "is_not_null": PredicateOp.kIsNotNull,
    "between": PredicateOp.kBetween,
    "starts_with": PredicateOp.kStartsWith,
    "ends_with": PredicateOp.kEndsWith,
    "contains": PredicateOp.kContains,
    "like": PredicateOp.kLike,
    "not_like": PredicateOp.kNotLike,
    "is_nan": PredicateOp.kIsNaN,
    "is_not_nan": PredicateOp.kIsNotNaN,
}


cdef shared_ptr[const Predicate] _predicate(object node, int depth=0,
                                            dict types=None) except *:
    """A pyfileindex.predicate tree (Leaf / And / Or) -> C++ predicate. With `types` (the
    reader's row type), DATE and TIME literals are checked against their columns."""
    cdef vector[shared_ptr[const Predicate]] children
    cdef vector[Literal] literals
    op = getattr(node, "op", None)
    kind = type(node).__name__
    if kind in ("And", "Or") or op in ("and", "or"):
        # The reader's own bound, checked here too: this conversion recurses in C, where a tree
        # nested 100,000 deep would overflow the stack before the reader could refuse it.
        if depth >= kMaxPredicateDepth:
            raise FileIndexError(
                f"predicate nests AND/OR deeper than {kMaxPredicateDepth} levels")
        for child in node.children:
            children.push_back(_predicate(child, depth + 1, types))
        if kind == "And" or op == "and":
            return Predicate.And(children)
        return Predicate.Or(children)
    if op not in _OPS:
        raise FileIndexError(f"unknown predicate operator {op!r} in {node!r}")
    cdef string column = _utf8(node.column, "a column name")  # a str, checked here first
    for value in node.literals:
        literals.push_back(_literal(value, node.column, types))
    return Predicate.Leaf(<PredicateOp>_OPS[op], column, literals)


cdef RowBitmap _row_bitmap(object rows) except *:
    """Row ids (a sequence, numpy array or pyroaring BitMap of integers in [0, 2^32)) -> bitmap.
    Checked before the cast to uint32, which would wrap -1 or 2^40 to another row silently."""
    ids = _np.asarray(rows)
    if ids.ndim != 1:
        raise TypeError(f"row ids must be a one-dimensional sequence, got {ids.ndim} dimensions")
    if ids.size == 0:
        return RowBitmap()
    if ids.dtype.kind not in "iu":
        raise TypeError(f"row ids must be integers, got {ids.dtype}")
    lowest, highest = int(ids.min()), int(ids.max())
    if lowest < 0 or highest > 0xFFFFFFFF:
        raise FileIndexError(f"row id {lowest if lowest < 0 else highest} is outside [0, 2^32)")
    cdef const uint32_t[::1] view = _np.ascontiguousarray(ids, dtype=_np.uint32)
    return RowBitmap.FromRows(&view[0], view.shape[0])


cdef RowBitmap _row_set(object rows) except *:
    """Rows as a native bitmap: a pyroaring BitMap or portable Roaring bytes (deserialized
    natively, no row id passes through Python), or row ids (see _row_bitmap)."""
    cdef Result[RowBitmap] parsed
    cdef const uint8_t[::1] view
    if hasattr(rows, "serialize") and hasattr(rows, "__contains__"):
        rows = rows.serialize()  # pyroaring: the portable format
    if isinstance(rows, (bytes, bytearray, memoryview)):
        view = bytes(rows)
        if view.shape[0] == 0:
            raise FileIndexError("an empty byte string is not a serialized row bitmap")
        with nogil:
            parsed = RowBitmap.Deserialize(&view[0], view.shape[0])
        _check(parsed.status())
        return parsed.value()
    return _row_bitmap(rows)


_EPOCH_NUMPY = _np.datetime64(0, "ns")


cdef object _python_value(const Literal& literal, int root):
    """A literal the reader gives back (a min or max key) as the Python value of its column
    type, the kind predicates take: DATE -> date, TIME -> time, TIMESTAMP -> datetime64[ns],
    DECIMAL -> Decimal, strings -> str, binary -> bytes."""
    cdef LiteralKind kind = literal.kind()
    cdef string_view view
    if kind == LiteralKind.kNull:
        return None
    if kind == LiteralKind.kBool:
        return bool(literal.bool_value())
    if kind == LiteralKind.kDouble:
        return float(literal.double_value())
    if kind == LiteralKind.kString:
        view = literal.bytes()
        data = PyBytes_FromStringAndSize(<char*>view.data(), view.size())
        if root in (<int>TypeRoot.kChar, <int>TypeRoot.kVarChar):
            return data.decode("utf-8", "surrogateescape")
        return data
    if kind == LiteralKind.kDecimal:
        unscaled = (int(literal.unscaled_high()) << 64) | int(literal.unscaled_low())
        return _decimal.Decimal(unscaled).scaleb(-literal.scale())
    if kind == LiteralKind.kTimestamp:
        nanos = int(literal.int_value()) * 1_000_000 + int(literal.nano_of_milli())
        return _EPOCH_NUMPY + _np.timedelta64(nanos, "ns")
    value = int(literal.int_value())
    if root == <int>TypeRoot.kDate:
        return _EPOCH_DATE + _dt.timedelta(days=value)
    if root == <int>TypeRoot.kTime:
        seconds, millis = divmod(value, 1000)
        return _dt.time(seconds // 3600, seconds // 60 % 60, seconds % 60, millis * 1000)
    return value


# ---- results -----------------------------------------------------------------------------------

@cython.final
cdef class IndexResult:
    """What an index says about a data file: SKIP, REMAIN, or the rows that may match.

    ``kind`` is "SKIP", "REMAIN" or "ROWS"; ``skip`` is Paimon's ``!remain()`` (an empty row
    set skips the file too). Row ids are 0-based positions in the data file.
    """
    cdef FileIndexResult result
    cdef object _rows_cache

    @staticmethod
    cdef IndexResult wrap(FileIndexResult result):
        cdef IndexResult out = IndexResult.__new__(IndexResult)
        out.result = result
        return out

    @property
    def kind(self) -> str:
        cdef ResultKind k = self.result.kind()
        if k == ResultKind.kSkip:
            return "SKIP"
        if k == ResultKind.kRemain:
            return "REMAIN"
        return "ROWS"

    @property
    def remain(self) -> bool:
        return self.result.remain()

    @property
    def skip(self) -> bool:
        return not self.result.remain()

    @property
    def cardinality(self):
        """Number of selected rows, or None unless kind == "ROWS"."""
        if self.result.kind() != ResultKind.kRows:
            return None
        return self.result.rows().Cardinality()

    def row_ids(self):
        """The selected rows as a sorted numpy uint32 array (None unless kind == "ROWS")."""
        if self.result.kind() != ResultKind.kRows:
            return None
        if self._rows_cache is None:
            out = _np.empty(self.result.rows().Cardinality(), dtype=_np.uint32)
            self._fill(out)
            out.flags.writeable = False
            self._rows_cache = out
        return self._rows_cache

    cdef _fill(self, out):
        cdef uint32_t[::1] view = out
        if view.shape[0] > 0:
            with nogil:
                self.result.rows().ToArray(&view[0])

    def ranges(self):
        """Maximal runs of selected rows as [(begin, end), ...] (end exclusive)."""
        if self.result.kind() != ResultKind.kRows:
            return None
        cdef vector[pair[uint64_t, uint64_t]] ranges
        with nogil:  # runs for run containers and bitset words; row by row only in arrays
            ranges = self.result.rows().ToRanges()
        return [(r.first, r.second) for r in ranges]

    def to_bitmap(self):
        """The selected rows as a pyroaring.BitMap (needs pyroaring installed)."""
        if self.result.kind() != ResultKind.kRows:
            return None
        from pyroaring import BitMap

        cdef vector[uint8_t] data = self.result.rows().Serialize()
        return BitMap.deserialize(bytes((<char*>data.data())[:data.size()]))

    def __repr__(self):
        if self.result.kind() == ResultKind.kRows:
            return f"IndexResult(ROWS, {self.cardinality} rows)"
        return f"IndexResult({self.kind})"


# ---- writer ------------------------------------------------------------------------------------

class DeclaredIndex:
    """One index the table options declare: ``column`` as the container names it ("f0", or
    "m[k]" for key k of MAP column m), the ``field`` it reads ("f0" or "m"), ``index_type``,
    and ``takes_dictionaries``: whether its writer takes a dictionary-encoded string array as
    it is, working once per distinct value (False for map keys and non-string columns)."""
    __slots__ = ("column", "field", "index_type", "takes_dictionaries")

    def __init__(self, column, field, index_type, takes_dictionaries):
        self.column = column
        self.field = field
        self.index_type = index_type
        self.takes_dictionaries = takes_dictionaries

    def __repr__(self):
        return (f"DeclaredIndex(column={self.column!r}, field={self.field!r}, "
                f"index_type={self.index_type!r}, takes_dictionaries={self.takes_dictionaries})")


_OPTION_KINDS = {
    <int>IndexOptionKind.kOther: None,
    <int>IndexOptionKind.kColumns: "columns",
    <int>IndexOptionKind.kIndexOption: "index-option",
    <int>IndexOptionKind.kTableLevel: "table",
    <int>IndexOptionKind.kIgnored: "ignored",
}


def parse_index_option_key(key) -> tuple:
    """What a table option key means to the file index, as the writer reads it:
    (kind, index type, column, option) with kind None (not under ``file-index.``),
    "columns" (``file-index.<type>.columns``), "index-option"
    (``file-index.<type>.<column>.<option>``), "table" (in-manifest-threshold, read.enabled)
    or "ignored" (any other ``file-index.`` key, which Java ignores too)."""
    cdef IndexOptionKey parsed = ParseIndexOptionKey(_utf8(key, "an option key"))
    return (_OPTION_KINDS[<int>parsed.kind],
            parsed.index_type.decode("utf-8", "surrogatepass"),
            parsed.column.decode("utf-8", "surrogatepass"),
            parsed.option.decode("utf-8", "surrogatepass"))


def split_index_columns(value) -> list:
    """The pieces of a ``file-index.<type>.columns`` value as Java's split(",") gives them
    (trailing empty pieces dropped), each String.trim()-ed: [(name, blank), ...], ``blank``
    marking a piece of whitespace only, which Paimon refuses."""
    cdef vector[IndexColumnName] pieces = SplitIndexColumns(_utf8(value, "a column list"))
    return [(piece.name.decode("utf-8", "surrogatepass"), piece.blank) for piece in pieces]


def declared_indexes(fields, options) -> list:
    """The indexes ``options`` (Paimon table options) declare for a data file with row type
    ``fields`` ((name, Paimon type) pairs), as DeclaredIndex objects in container order; the
    options are checked as IndexWriter checks them (FileIndexError naming the problem)."""
    cdef vector[Field] cfields = _fields(fields)
    cdef Options coptions = _options(options)
    cdef Result[vector[IndexDeclaration]] declared
    with nogil:
        declared = DeclaredIndexes(cfields, coptions)
    _check(declared.status())
    return [DeclaredIndex(d.column.decode("utf-8", "surrogatepass"),
                          d.field.decode("utf-8", "surrogatepass"),
                          d.index_type.decode("utf-8", "surrogatepass"),
                          d.takes_dictionaries)
            for d in declared.value()]


cdef class IndexWriter:
    """Builds the file-index container of one data file, batch by batch, as Java Paimon does.

    ``fields`` is the data file's row type as (name, Paimon type string) pairs; ``options``
    are Paimon table options with their own keys (``file-index.bitmap.columns`` ...).

    A writer takes one data file's batches in order, so it is used from one thread at a time:
    a call made while another thread's write() or finish() runs raises FileIndexError.
    """
    cdef unique_ptr[FileIndexWriter] writer
    # Set while a write() or finish() runs without the GIL. The native writer is not thread
    # safe, and two threads' batches would have no row order anyway: the second call is
    # refused (tested and set under the GIL, so two calls cannot both pass).
    cdef bint busy

    cdef _claim(self, str call):
        if self.busy:
            raise FileIndexError(f"IndexWriter.{call}() while another thread's write() or "
                                 "finish() runs: a writer takes one data file's batches, in "
                                 "order, from one thread at a time")
        self.busy = True

    def __cinit__(self, fields, options):
        cdef vector[Field] cfields = _fields(fields)
        cdef Options coptions = _options(options)
        cdef Result[unique_ptr[FileIndexWriter]] made
        # This process is pyfileindex's own (no embedding engine with a heap policy of its
        # own): after freeing many small blocks at once, a writer hands the C library's free
        # heap back, which keeps high-cardinality builds' resident peak down.
        cdef WriterMemoryPolicy memory
        memory.trim_process_heap = True
        with nogil:
            made = FileIndexWriter.Make(cfields, coptions, memory)
        _check(made.status())
        self.writer = move(made.value())
        for key in self.ignored_options:
            # Java ignores such keys too (its tables can carry them), so this only warns.
            _warnings.warn(f"file index option '{key}' has no effect: per-index options are "
                           "file-index.<type>.<column>.<option>", UserWarning, stacklevel=2)

    @property
    def empty(self) -> bool:
        """True when the options declare no index (Java then writes none)."""
        return self.writer.get().empty()

    @property
    def row_count(self) -> int:
        return self.writer.get().row_count()

    @property
    def ignored_options(self) -> list:
        """Options under ``file-index.`` that have no effect, as in Java (each also warned
        about when the writer is made), e.g. ``file-index.bloom-filter.fpp`` without a column."""
        cdef vector[string] keys = self.writer.get().ignored_options()
        return [key.decode("utf-8", "surrogatepass") for key in keys]

    def write(self, data):
        """Appends rows: a pyarrow RecordBatch or Table, or any object exporting the Arrow
        PyCapsule interface (``__arrow_c_array__`` for a struct array / record batch,
        ``__arrow_c_stream__`` for a stream of them)."""
        if hasattr(data, "__arrow_c_array__"):
            writes = self._write_array
        elif hasattr(data, "__arrow_c_stream__"):
            writes = self._write_stream
        else:
            raise TypeError(f"expected Arrow data (RecordBatch, Table, ...), got "
                            f"{type(data).__name__}")
        self._claim("write")
        try:
            writes(data)
        finally:
            self.busy = False

    cdef _write_array(self, data):
        schema_capsule, array_capsule = data.__arrow_c_array__()
        cdef ArrowSchema* schema = <ArrowSchema*>PyCapsule_GetPointer(schema_capsule,
                                                                      "arrow_schema")
        cdef ArrowArray* array = <ArrowArray*>PyCapsule_GetPointer(array_capsule, "arrow_array")
        cdef Status status
        with nogil:
            status = self.writer.get().Write(schema[0], array[0])
        _check(status)

    cdef _write_stream(self, data):
        capsule = data.__arrow_c_stream__()
        cdef ArrowArrayStream* stream = <ArrowArrayStream*>PyCapsule_GetPointer(
            capsule, "arrow_array_stream")
        cdef ArrowSchema schema
        cdef ArrowArray array
        cdef Status status
        cdef int rc
        with nogil:
            rc = stream.get_schema(stream, &schema)
        if rc != 0:
            raise FileIndexError("Arrow stream failed to give its schema: "
                                 + _stream_error(stream))
        try:
            while True:
                with nogil:
                    rc = stream.get_next(stream, &array)
                if rc != 0:
                    raise FileIndexError("Arrow stream failed: " + _stream_error(stream))
                if array.release == NULL:
                    break
                with nogil:
                    status = self.writer.get().Write(schema, array)
                    array.release(&array)
                _check(status)
        finally:
            if schema.release != NULL:
                schema.release(&schema)

    def finish(self):
        """The container bytes, or None when the options declare no index. Call once."""
        cdef Result[cbool] done
        cdef list holder = []  # the bytes object the container is written into
        self._claim("finish")
        try:
            with nogil:
                done = self.writer.get().FinishInto(_allocate_bytes, <void*>holder)
        finally:
            self.busy = False
        _check(done.status())
        return holder[0] if done.value() else None


cdef uint8_t* _allocate_bytes(void* context, size_t size) noexcept with gil:
    # The container goes straight into a bytes object: no second copy of it in memory.
    cdef bytes out
    try:
        out = PyBytes_FromStringAndSize(NULL, <Py_ssize_t>size)
    except MemoryError:
        return NULL
    (<list>context).append(out)
    return <uint8_t*>PyBytes_AS_STRING(out)


cdef str _stream_error(ArrowArrayStream* stream):
    cdef const char* message = stream.get_last_error(stream)
    return message.decode("utf-8", "replace") if message != NULL else "unknown error"


def plan_container_subset(head, int64_t container_size, columns) -> tuple:
    """How to read only the indexes of ``columns`` (names as stored, "m[k]" for a map key)
    from a container of ``container_size`` bytes whose first bytes, at least its header, are
    ``head``: (the subset's header as bytes, [(source offset, length, offset)] of each index
    body to copy, in source order, the subset's size, every column the whole header lists).
    Filled in, the subset opens with IndexReader and answers those columns as the whole
    container does.
    CorruptIndexError / UnsupportedError when the header is damaged or cannot be cut down (a
    column listed twice, bodies out of order or sharing bytes): read the container whole."""
    cdef vector[string] wanted
    for column in columns:
        wanted.push_back(_utf8(column, "a column name"))
    cdef Py_buffer view
    PyObject_GetBuffer(head, &view, PyBUF_SIMPLE)
    cdef Result[ContainerSubset] planned
    try:
        with nogil:
            planned = PlanContainerSubset(<const uint8_t*>view.buf, <size_t>view.len,
                                          container_size, wanted)
    finally:
        PyBuffer_Release(&view)
    _check(planned.status())
    cdef ContainerSubset* subset = &planned.value()
    subset_head = PyBytes_FromStringAndSize(<const char*>subset.head.data(),
                                            <Py_ssize_t>subset.head.size())
    bodies = [(body.source_offset, body.length, body.offset) for body in subset.bodies]
    listed = [name.decode("utf-8", "surrogatepass") for name in subset.listed]
    return subset_head, bodies, subset.size, listed


# ---- reader ------------------------------------------------------------------------------------

class IndexEntryInfo:
    """One (column, index type) record of a container header."""
    __slots__ = ("column", "index_type", "offset", "length")

    def __init__(self, column, index_type, offset, length):
        self.column = column
        self.index_type = index_type
        self.offset = offset
        self.length = length

    @property
    def empty(self) -> bool:
        return self.offset < 0

    def __repr__(self):
        return (f"IndexEntryInfo(column={self.column!r}, index_type={self.index_type!r}, "
                f"offset={self.offset}, length={self.length})")


cdef class IndexReader:
    """A file-index container opened from bytes, a buffer (e.g. a memory map) or a file path
    (read whole into memory: the reader never depends on the file afterwards).

    ``fields`` is the row type the index was written for, as (name, Paimon type) pairs; an
    index on a column absent from it answers REMAIN. ``row_count`` is the data file's row
    count (e.g. the manifest's): an index storing another one is corrupt, and a question it
    would answer raises RowCountMismatchError (a CorruptIndexError) - indexes are read when
    first asked, so not here. ``dictionary_scan_limit`` bounds the dictionary entries one
    LIKE / starts_with / ends_with / contains leaf may read from a bitmap or range-bitmap
    index (default DEFAULT_DICTIONARY_SCAN_LIMIT); a leaf that would read more answers REMAIN.
    Safe to share between threads.
    """
    cdef shared_ptr[FileIndexReader] reader
    cdef _RowType row_type  # for checking DATE and TIME literals against their columns
    cdef int64_t scan_limit
    cdef Py_buffer buffer
    cdef bint has_buffer
    cdef object owner  # keeps the bytes alive (bytes, mmap, ...)

    def __cinit__(self):
        self.has_buffer = False

    def __init__(self, data, fields=None, row_count=None, dictionary_scan_limit=None):
        cdef OpenOptions options
        options.row_count = -1
        if dictionary_scan_limit is not None:
            if (isinstance(dictionary_scan_limit, bool)
                    or not isinstance(dictionary_scan_limit, (int, _np.integer))):
                raise TypeError("dictionary_scan_limit must be an int, got "
                                f"{type(dictionary_scan_limit).__name__}")
            if dictionary_scan_limit < 0:
                raise FileIndexError("dictionary_scan_limit must not be negative, got "
                                     f"{dictionary_scan_limit}")
            options.dictionary_scan_limit = min(int(dictionary_scan_limit), 2 ** 63 - 1)
        if row_count is not None:
            if isinstance(row_count, bool) or not isinstance(row_count, (int, _np.integer)):
                raise TypeError(f"row_count must be an int, got {type(row_count).__name__}")
            if row_count < 0:
                raise FileIndexError(f"row_count must not be negative, got {row_count}")
            options.row_count = min(int(row_count), 2 ** 63 - 1)
        self.scan_limit = options.dictionary_scan_limit
        # bytes first: the PathLike check goes through the ABC machinery on every call.
        if type(data) is not bytes and isinstance(data, (str, _os.PathLike)):
            # Read into bytes the reader owns, not mapped: a memory map of the file kills the
            # process (SIGBUS) when another writer truncates the file while the reader lives,
            # and a reader must outlive whatever happens to the file it was opened from.
            with open(data, "rb") as f:
                data = f.read()
        self.owner = data
        PyObject_GetBuffer(data, &self.buffer, PyBUF_SIMPLE)
        self.has_buffer = True
        self.row_type = _row_type(fields)
        cdef vector[Field] cfields = self.row_type.fields
        cdef Result[shared_ptr[FileIndexReader]] opened
        if type(data) is bytes:
            # Opening reads the header only, already in memory: a few hundred nanoseconds,
            # less than handing the GIL over and taking it back (a fifth of an open).
            opened = FileIndexReader.Open(<const uint8_t*>self.buffer.buf,
                                          <size_t>self.buffer.len, move(cfields), options)
        else:
            with nogil:  # a memory map's header may still have to be read from disk
                opened = FileIndexReader.Open(<const uint8_t*>self.buffer.buf,
                                              <size_t>self.buffer.len, move(cfields), options)
        _check(opened.status())
        self.reader = opened.value()

    def __dealloc__(self):
        self.reader.reset()
        if self.has_buffer:
            PyBuffer_Release(&self.buffer)

    @staticmethod
    def open(data, fields=None, row_count=None, dictionary_scan_limit=None):
        """Same as IndexReader(data, fields, row_count, dictionary_scan_limit)."""
        return IndexReader(data, fields, row_count, dictionary_scan_limit)

    @property
    def dictionary_scan_limit(self) -> int:
        """The most dictionary entries one string-pattern leaf may read (REMAIN beyond)."""
        return self.scan_limit

    @property
    def entries(self):
        """The container's (column, index type, byte range) records, in file order."""
        out = []
        cdef vector[IndexEntry] entries = self.reader.get().entries()
        for e in entries:
            out.append(IndexEntryInfo(e.column.decode("utf-8", "surrogateescape"),
                                      e.index_type.decode("utf-8", "surrogateescape"),
                                      e.offset, e.length))
        return out

    @property
    def columns(self):
        seen = []
        for e in self.entries:
            if e.column not in seen:
                seen.append(e.column)
        return seen

    def evaluate(self, predicate) -> IndexResult:
        """Evaluates a pyfileindex.predicate tree: SKIP, REMAIN or the rows that may match."""
        cdef shared_ptr[const Predicate] tree = _predicate(predicate, 0,
                                                           self.row_type.literal_types())
        cdef Result[FileIndexResult] evaluated
        with nogil:
            evaluated = self.reader.get().Evaluate(tree.get()[0])
        _check(evaluated.status())
        return IndexResult.wrap(evaluated.value())

    def top_n(self, column, n, descending=False, nulls_first=False, selection=None,
              with_ties=False):
        """ORDER BY column [DESC] [NULLS FIRST] LIMIT n within ``selection`` (row ids; all rows
        when None), answered by a range-bitmap index; REMAIN when no index can answer.

        ``with_ties``: FETCH FIRST n ROWS WITH TIES - also every row tied with the n-th on this
        column (NULLs tie), as ``ORDER BY column, other, ... LIMIT n`` needs (Paimon's TopN
        with more than one sort key). Without it: min(n, selected rows) rows."""
        if isinstance(n, bool) or not isinstance(n, (int, _np.integer)):
            raise TypeError(f"top_n limit must be an int, got {type(n).__name__}")
        if n < 0:
            raise FileIndexError(f"top_n limit must not be negative, got {n}")
        # A file has fewer than 2^31 rows (Java counts them in an int): a larger limit is all.
        n = min(int(n), _INT32_MAX)
        cdef TopN request
        request.column = _utf8(column, "the column")
        request.descending = bool(descending)
        request.nulls_first = bool(nulls_first)
        request.limit = n
        request.with_ties = bool(with_ties)
        cdef RowBitmap rows
        cdef const RowBitmap* selected = NULL
        if selection is not None:
            rows = _row_bitmap(selection)
            selected = &rows
        cdef Result[FileIndexResult] answered
        with nogil:
            answered = self.reader.get().EvaluateTopN(request, selected)
        _check(answered.status())
        return IndexResult.wrap(answered.value())

    def count(self, predicate, exclude=None):
        """The exact number of rows where ``predicate`` holds (a NULL never matches), from the
        indexes alone, or None when they cannot tell exactly (REMAIN, a bloom filter's maybe,
        FLOAT / DOUBLE comparisons, TIMESTAMP equality on a bitmap...). ``exclude``: rows left
        out of the count (a deletion vector: a pyroaring BitMap, portable Roaring bytes or row
        ids). The count is read from the native answer; no row id is copied out."""
        cdef shared_ptr[const Predicate] tree = _predicate(predicate, 0,
                                                           self.row_type.literal_types())
        cdef RowBitmap excluded
        cdef const RowBitmap* excluded_ptr = NULL
        if exclude is not None:
            excluded = _row_set(exclude)
            excluded_ptr = &excluded
        cdef Result[optional[uint64_t]] counted
        with nogil:
            counted = self.reader.get().Count(tree.get()[0], excluded_ptr)
        _check(counted.status())
        if not counted.value().has_value():
            return None
        return counted.value().value()

    def min_max(self, column, selection=None):
        """(min, max) of ``column``'s non-NULL values from its range-bitmap index: the header's
        keys, or within ``selection`` (the live rows: a pyroaring BitMap, portable Roaring
        bytes or row ids) the lowest and highest among them. None when no (selected) row holds
        a value; IndexNotFoundError when the column has no range-bitmap index. FLOAT / DOUBLE
        follow Java's order: -0.0 below 0.0, NaN above +Infinity."""
        cdef string name = _utf8(column, "the column")
        cdef RowBitmap rows
        cdef const RowBitmap* selected = NULL
        if selection is not None:
            rows = _row_set(selection)
            selected = &rows
        cdef Result[optional[pair[Literal, Literal]]] answered
        with nogil:
            answered = self.reader.get().MinMax(name, selected)
        _check(answered.status())
        if not answered.value().has_value():
            return None
        found = self.row_type.literal_types().get(column)
        if found is None:
            base = _split_map_column(column)
            found = self.row_type.literal_types().get(base.base + "[]", (-1, ""))
        root = found[0]
        return (_python_value(answered.value().value().first, root),
                _python_value(answered.value().value().second, root))

    def describe(self, column, index_type) -> dict:
        """Facts about one index: version, row count, cardinality, null count, ..."""
        cdef IndexEntry entry
        entry.column = _utf8(column, "the column")
        entry.index_type = _utf8(index_type, "the index type")
        cdef Result[vector[pair[string, string]]] described
        with nogil:
            described = self.reader.get().Describe(entry)
        _check(described.status())
        return {k.decode(): v.decode("utf-8", "replace") for k, v in described.value()}
