// Arrow C Data Interface -> ColumnBatch.
//
// Zero-copy where Arrow's buffer already holds Paimon's internal form (int8/16/32/64, float,
// double, date32, time32[ms], timestamps); otherwise values are converted once per batch into
// the holder's scratch buffers.
#include "column/arrow_column.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

#include "io/bit_count.h"

namespace pyfileindex::column {

namespace {

// The column cannot hold `type`; the pieces of `why`, if any, say why (in parentheses).
template <typename... Why>
Status Mismatch(const ArrowSchema& schema, const DataType& type, const Why&... why) {
  constexpr bool explained = sizeof...(Why) > 0;
  return Status::InvalidArgument("Arrow column of format '", schema.format ? schema.format : "?",
                                 "' cannot hold Paimon type ", type.ToString(),
                                 explained ? " (" : "", why..., explained ? ")" : "");
}

bool FormatIs(const ArrowSchema& schema, const char* format) {
  return schema.format != nullptr && std::strcmp(schema.format, format) == 0;
}
bool FormatStartsWith(const ArrowSchema& schema, const char* prefix) {
  return schema.format != nullptr && std::strncmp(schema.format, prefix, std::strlen(prefix)) == 0;
}

Status RequireBuffers(const ArrowArray& array, int64_t n, const char* what) {
  if (array.n_buffers < n || array.buffers == nullptr) {
    return Status::InvalidArgument("Arrow ", what, " array has ",
                                   array.n_buffers, " buffers, expected ",
                                   n);
  }
  for (int64_t i = 1; i < n; ++i) {
    if (array.buffers[i] == nullptr && array.length > 0) {
      return Status::InvalidArgument("Arrow ", what, " array is missing buffer ",
                                     i);
    }
  }
  return Status::OK();
}

// Buffer `i` of `array` from element `first` on. A null buffer stays null: an empty array
// may come without buffers, and adding to a null pointer is undefined.
template <typename T>
const T* BufferFrom(const ArrowArray& array, int i, int64_t first) {
  const T* buffer = static_cast<const T*>(array.buffers[i]);
  return buffer == nullptr ? nullptr : buffer + first;
}

int64_t CountNulls(const ColumnBatch& batch) {
  // A word of validity bits per 64 rows: byte by byte, __builtin_popcount is a libgcc call per
  // byte on the baseline ISA, a visible cost in a nullable column's build.
  int64_t valid = 0;
  for (int64_t i = 0; i < batch.length; i += 64) {
    const int count = static_cast<int>(std::min<int64_t>(64, batch.length - i));
    valid += io::PortablePopcount(batch.ValidBits(i, count));
  }
  return batch.length - valid;
}

void SetValidity(const ArrowArray& array, ColumnBatch* batch) {
  batch->length = array.length;
  batch->null_count = array.null_count;
  batch->validity = array.n_buffers > 0 && array.buffers != nullptr
                        ? static_cast<const uint8_t*>(array.buffers[0])
                        : nullptr;
  batch->validity_offset = array.offset;
  if (array.null_count == 0) batch->validity = nullptr;
  if (array.null_count < 0) {  // Arrow's "unknown": count, writers rely on an exact count
    batch->null_count = batch->validity == nullptr ? 0 : CountNulls(*batch);
    if (batch->null_count == 0) batch->validity = nullptr;
  }
}

// Integer input of any width, checked into the target width (a user convenience: pyarrow
// often infers int64 for Python ints).
template <typename Target>
Status WidenIntegers(const ArrowSchema& schema, const ArrowArray& array, const DataType& type,
                     ColumnBatchHolder* holder) {
  const char f = schema.format[0];
  const void* raw = array.buffers[1];
  std::vector<uint8_t>& out = holder->scratch_bytes;
  out.resize(static_cast<size_t>(array.length) * sizeof(Target));
  Target* dst = reinterpret_cast<Target*>(out.data());
  ColumnBatch& batch = holder->batch;
  for (int64_t i = 0; i < array.length; ++i) {
    const int64_t j = array.offset + i;
    int64_t v = 0;
    uint64_t u = 0;
    bool is_unsigned = false;
    switch (f) {
      case 'c': v = static_cast<const int8_t*>(raw)[j]; break;
      case 's': v = static_cast<const int16_t*>(raw)[j]; break;
      case 'i': v = static_cast<const int32_t*>(raw)[j]; break;
      case 'l': v = static_cast<const int64_t*>(raw)[j]; break;
      case 'C': u = static_cast<const uint8_t*>(raw)[j]; is_unsigned = true; break;
      case 'S': u = static_cast<const uint16_t*>(raw)[j]; is_unsigned = true; break;
      case 'I': u = static_cast<const uint32_t*>(raw)[j]; is_unsigned = true; break;
      case 'L': u = static_cast<const uint64_t*>(raw)[j]; is_unsigned = true; break;
      default: return Mismatch(schema, type);
    }
    if (!batch.IsValid(i)) {
      dst[i] = 0;
      continue;
    }
    if (is_unsigned) {
      if (u > static_cast<uint64_t>(std::numeric_limits<Target>::max())) {
        return Mismatch(schema, type, "value ", u, " at row ", i, " is out of range");
      }
      v = static_cast<int64_t>(u);
    }
    if (v < std::numeric_limits<Target>::min() || v > std::numeric_limits<Target>::max()) {
      return Mismatch(schema, type, "value ", v, " at row ", i, " is out of range");
    }
    dst[i] = static_cast<Target>(v);
  }
  batch.values = dst;
  return Status::OK();
}

bool IsIntegerFormat(const ArrowSchema& schema) {
  if (schema.format == nullptr || schema.format[0] == '\0' || schema.format[1] != '\0') {
    return false;
  }
  return std::strchr("csilCSIL", schema.format[0]) != nullptr;
}

template <typename T>
Status FixedWidth(const ArrowSchema& schema, const ArrowArray& array, const DataType& type,
                  char exact_format, Physical physical, ColumnBatchHolder* holder) {
  ColumnBatch& batch = holder->batch;
  batch.physical = physical;
  if (schema.format[0] == exact_format && schema.format[1] == '\0') {
    PFI_RETURN_NOT_OK(RequireBuffers(array, 2, "fixed-width"));
    batch.values = BufferFrom<T>(array, 1, array.offset);
    return Status::OK();
  }
  if (!IsIntegerFormat(schema) || !std::is_integral<T>::value) return Mismatch(schema, type);
  PFI_RETURN_NOT_OK(RequireBuffers(array, 2, "integer"));
  return WidenIntegers<T>(schema, array, type, holder);
}

Status Booleans(const ArrowSchema& schema, const ArrowArray& array, const DataType& type,
                ColumnBatchHolder* holder) {
  if (!FormatIs(schema, "b")) return Mismatch(schema, type);
  PFI_RETURN_NOT_OK(RequireBuffers(array, 2, "boolean"));
  const uint8_t* bits = static_cast<const uint8_t*>(array.buffers[1]);
  std::vector<uint8_t>& out = holder->scratch_bytes;
  out.resize(static_cast<size_t>(array.length));
  for (int64_t i = 0; i < array.length; ++i) {
    const int64_t bit = array.offset + i;
    out[i] = (bits[bit >> 3] >> (bit & 7)) & 1;
  }
  holder->batch.physical = Physical::kBool;
  holder->batch.values = out.data();
  return Status::OK();
}

// Arrow string offsets must not decrease, and each row's bytes lie in the data buffer: from
// 0 to the last offset (the buffer's size, as the C data interface gives it). Null rows'
// offsets may be anything (writers leave them so): a first pass over every offset, which
// vectorizes, settles the common case; only when it fails are valid rows looked at one by one.
template <typename Offset>
Status CheckOffsets(const ColumnBatch& batch, const Offset* offsets) {
  if (batch.length == 0) return Status::OK();
  const int64_t limit = offsets[batch.length];
  bool suspect = offsets[0] < 0;
  for (int64_t i = 0; i < batch.length; ++i) suspect |= offsets[i + 1] < offsets[i];
  if (!suspect) return Status::OK();
  for (int64_t i = 0; i < batch.length; ++i) {
    if (!batch.IsValid(i)) continue;
    const int64_t begin = offsets[i];
    const int64_t end = offsets[i + 1];
    if (end < begin) {
      return Status::InvalidArgument("Arrow string offsets decrease at row ", i);
    }
    if (begin < 0 || end > limit) {
      return Status::InvalidArgument("Arrow string offsets of row ", i, " [", begin, ", ", end,
                                     ") lie outside the data buffer of ", limit,
                                     " bytes (the last offset)");
    }
  }
  return Status::OK();
}

// Binary-like layouts (utf8, large_utf8, views, fixed-size binary) -> one string_view per row.
// Or, with `keep_offsets`, utf8 and binary arrays keep their offsets (ColumnBatch::string_data).
Status ByteStrings(const ArrowSchema& schema, const ArrowArray& array, const DataType& type,
                   ColumnBatchHolder* holder, bool keep_offsets) {
  const bool want_string = type.IsString();
  const std::string format = schema.format;
  ColumnBatch& batch = holder->batch;
  batch.physical = Physical::kBytes;
  const bool small = format == "u" || format == "z";
  const bool large = format == "U" || format == "Z";
  const bool view = format == "vu" || format == "vz";
  const bool fixed = format.rfind("w:", 0) == 0;
  const bool text_format = format == "u" || format == "U" || format == "vu";
  if (!(small || large || view || fixed)) return Mismatch(schema, type);
  if (want_string && !text_format && !fixed && format != "z" && format != "Z" &&
      format != "vz") {
    return Mismatch(schema, type);
  }
  if ((small || large) && keep_offsets) {
    PFI_RETURN_NOT_OK(RequireBuffers(array, 3, "string"));
    batch.string_data = static_cast<const char*>(array.buffers[2]);
    if (small) {
      batch.offsets32 = BufferFrom<int32_t>(array, 1, array.offset);
      return CheckOffsets(batch, batch.offsets32);
    }
    batch.offsets64 = BufferFrom<int64_t>(array, 1, array.offset);
    return CheckOffsets(batch, batch.offsets64);
  }
  std::vector<std::string_view>& views = holder->scratch_strings;
  views.resize(static_cast<size_t>(array.length));  // every row's view is written below
  batch.strings = views.data();
  if (small || large) {
    PFI_RETURN_NOT_OK(RequireBuffers(array, 3, "string"));
    const char* data = static_cast<const char*>(array.buffers[2]);
    // Every row is written (a null row gets an empty view) without a branch per row: scattered
    // nulls would mispredict one on each of them, and an early exit on bad offsets would keep
    // the loop from running several rows at once. Bad offsets are looked for afterwards.
    if (array.length == 0) return Status::OK();  // its buffers may be null
    auto convert = [&](const auto* offsets) -> Status {
      offsets += array.offset;
      bool decreasing = offsets[0] < 0;
      if (batch.validity == nullptr) {
        for (int64_t i = 0; i < array.length; ++i) {
          const int64_t begin = offsets[i];
          const int64_t end = offsets[i + 1];
          decreasing |= end < begin;
          views[i] = std::string_view(data + begin, static_cast<size_t>(end - begin));
        }
      } else {
        for (int64_t i = 0; i < array.length; ++i) {
          const int64_t keep = -static_cast<int64_t>(batch.IsValid(i));  // all ones or zero
          const int64_t begin = offsets[i] & keep;
          const int64_t end = offsets[i + 1] & keep;
          decreasing |= end < begin;
          views[i] = std::string_view(data + begin, static_cast<size_t>(end - begin));
        }
      }
      // Rows between nulls are not compared with each other above: a null row's garbage
      // offset can lift the last offset (the data size) below a valid row's end.
      if (!decreasing && batch.validity == nullptr) return Status::OK();
      return CheckOffsets(batch, offsets);  // names the valid row whose offsets are wrong
    };
    if (small) return convert(static_cast<const int32_t*>(array.buffers[1]));
    return convert(static_cast<const int64_t*>(array.buffers[1]));
  }
  if (fixed) {
    const long width = std::strtol(format.c_str() + 2, nullptr, 10);
    if (width < 0) return Mismatch(schema, type, "bad fixed-size binary width");
    PFI_RETURN_NOT_OK(RequireBuffers(array, 2, "fixed-size binary"));
    const char* data = static_cast<const char*>(array.buffers[1]);
    for (int64_t i = 0; i < array.length; ++i) {
      views[i] = batch.IsValid(i) ? std::string_view(data + (array.offset + i) * width, width)
                                  : std::string_view();
    }
    return Status::OK();
  }
  // String views: 16 bytes each; length <= 12 inline, else (prefix, buffer index, offset).
  PFI_RETURN_NOT_OK(RequireBuffers(array, 2, "string view"));
  const uint8_t* raw_views = static_cast<const uint8_t*>(array.buffers[1]);
  const int64_t data_buffers = array.n_buffers - 3;  // validity, views, ..., variadic sizes
  for (int64_t i = 0; i < array.length; ++i) {
    if (!batch.IsValid(i)) {
      views[i] = std::string_view();
      continue;
    }
    const uint8_t* v = raw_views + (array.offset + i) * 16;
    int32_t length;
    std::memcpy(&length, v, 4);
    if (length < 0) return Status::InvalidArgument("negative string view length");
    if (length <= 12) {
      views[i] = std::string_view(reinterpret_cast<const char*>(v + 4), length);
    } else {
      int32_t buffer_index, offset;
      std::memcpy(&buffer_index, v + 8, 4);
      std::memcpy(&offset, v + 12, 4);
      if (buffer_index < 0 || buffer_index >= data_buffers || offset < 0) {
        return Status::InvalidArgument("string view points outside its data buffers");
      }
      const char* data = static_cast<const char*>(array.buffers[2 + buffer_index]);
      views[i] = std::string_view(data + offset, length);
    }
  }
  return Status::OK();
}

Status Decimals(const ArrowSchema& schema, const ArrowArray& array, const DataType& type,
                ColumnBatchHolder* holder) {
  int precision = 0, scale = 0, bits = 128;
  if (!FormatStartsWith(schema, "d:") ||
      std::sscanf(schema.format + 2, "%d,%d,%d", &precision, &scale, &bits) < 2) {
    return Mismatch(schema, type);
  }
  if (scale != type.scale) {
    return Mismatch(schema, type, "Arrow scale ", scale, " differs");
  }
  if (bits != 128) return Mismatch(schema, type, "only decimal128 is supported");
  PFI_RETURN_NOT_OK(RequireBuffers(array, 2, "decimal"));
  const uint8_t* raw = BufferFrom<uint8_t>(array, 1, array.offset * 16);
  ColumnBatch& batch = holder->batch;
  if (type.precision > 18) {
    batch.physical = Physical::kDecimal128;
    batch.values = raw;
    return Status::OK();
  }
  std::vector<int64_t>& out = holder->scratch_int64;
  out.assign(static_cast<size_t>(array.length), 0);
  for (int64_t i = 0; i < array.length; ++i) {
    if (!batch.IsValid(i)) continue;
    uint64_t low;
    int64_t high;
    std::memcpy(&low, raw + i * 16, 8);
    std::memcpy(&high, raw + i * 16 + 8, 8);
    const int64_t value = static_cast<int64_t>(low);
    if (high != (value < 0 ? -1 : 0)) {
      return Mismatch(schema, type, "unscaled value at row ", i, " does not fit 64 bits");
    }
    out[i] = value;
  }
  batch.physical = Physical::kDecimal;
  batch.values = out.data();
  return Status::OK();
}

// DATE from date32 (zero-copy) or date64 (ms, floored to days).
Status Dates(const ArrowSchema& schema, const ArrowArray& array, const DataType& type,
             ColumnBatchHolder* holder) {
  ColumnBatch& batch = holder->batch;
  batch.physical = Physical::kInt32;
  if (FormatIs(schema, "tdD")) {
    PFI_RETURN_NOT_OK(RequireBuffers(array, 2, "date32"));
    batch.values = BufferFrom<int32_t>(array, 1, array.offset);
    return Status::OK();
  }
  if (!FormatIs(schema, "tdm")) return Mismatch(schema, type);
  PFI_RETURN_NOT_OK(RequireBuffers(array, 2, "date64"));
  const int64_t* raw = BufferFrom<int64_t>(array, 1, array.offset);
  std::vector<uint8_t>& out = holder->scratch_bytes;
  out.resize(static_cast<size_t>(array.length) * 4);
  int32_t* dst = reinterpret_cast<int32_t*>(out.data());
  for (int64_t i = 0; i < array.length; ++i) {
    dst[i] = batch.IsValid(i) ? static_cast<int32_t>(FloorDiv(raw[i], 86400000)) : 0;
  }
  batch.values = dst;
  return Status::OK();
}

// TIME as int millis of day, from time32[s|ms] or time64[us|ns].
Status Times(const ArrowSchema& schema, const ArrowArray& array, const DataType& type,
             ColumnBatchHolder* holder) {
  ColumnBatch& batch = holder->batch;
  batch.physical = Physical::kInt32;
  if (FormatIs(schema, "ttm")) {
    PFI_RETURN_NOT_OK(RequireBuffers(array, 2, "time32"));
    batch.values = BufferFrom<int32_t>(array, 1, array.offset);
    return Status::OK();
  }
  int64_t divisor = 0, multiplier = 1;
  bool wide = true;
  if (FormatIs(schema, "tts")) {
    multiplier = 1000;
    wide = false;
  } else if (FormatIs(schema, "ttu")) {
    divisor = 1000;
  } else if (FormatIs(schema, "ttn")) {
    divisor = 1000000;
  } else {
    return Mismatch(schema, type);
  }
  PFI_RETURN_NOT_OK(RequireBuffers(array, 2, "time"));
  std::vector<uint8_t>& out = holder->scratch_bytes;
  out.resize(static_cast<size_t>(array.length) * 4);
  int32_t* dst = reinterpret_cast<int32_t*>(out.data());
  for (int64_t i = 0; i < array.length; ++i) {
    const int64_t j = array.offset + i;
    const int64_t raw = wide ? static_cast<const int64_t*>(array.buffers[1])[j]
                             : static_cast<const int32_t*>(array.buffers[1])[j];
    const int64_t millis = divisor ? FloorDiv(raw, divisor) : raw * multiplier;
    dst[i] = batch.IsValid(i) ? static_cast<int32_t>(millis) : 0;
  }
  batch.values = dst;
  return Status::OK();
}

Status Timestamps(const ArrowSchema& schema, const ArrowArray& array, const DataType& type,
                  ColumnBatchHolder* holder) {
  if (!FormatStartsWith(schema, "ts") || std::strlen(schema.format) < 4 ||
      schema.format[3] != ':') {
    return Mismatch(schema, type);
  }
  ColumnBatch& batch = holder->batch;
  switch (schema.format[2]) {
    case 's': batch.timestamp_unit = TimeUnit::kSecond; break;
    case 'm': batch.timestamp_unit = TimeUnit::kMilli; break;
    case 'u': batch.timestamp_unit = TimeUnit::kMicro; break;
    case 'n': batch.timestamp_unit = TimeUnit::kNano; break;
    default: return Mismatch(schema, type);
  }
  PFI_RETURN_NOT_OK(RequireBuffers(array, 2, "timestamp"));
  batch.physical = Physical::kTimestamp;
  batch.values = BufferFrom<int64_t>(array, 1, array.offset);
  return Status::OK();
}

// Arrow's null type: every row null, values never read.
Status AllNull(const ArrowArray& array, const DataType& type, ColumnBatchHolder* holder) {
  ColumnBatch& batch = holder->batch;
  batch.length = array.length;
  batch.null_count = array.length;
  holder->scratch_validity.assign(static_cast<size_t>((array.length + 7) / 8), 0);
  batch.validity = holder->scratch_validity.data();
  batch.validity_offset = 0;
  holder->scratch_bytes.assign(static_cast<size_t>(array.length) * 16, 0);
  holder->scratch_strings.assign(static_cast<size_t>(array.length), std::string_view());
  batch.values = holder->scratch_bytes.data();
  batch.strings = holder->scratch_strings.data();
  switch (type.root) {
    case TypeRoot::kBoolean: batch.physical = Physical::kBool; break;
    case TypeRoot::kTinyInt: batch.physical = Physical::kInt8; break;
    case TypeRoot::kSmallInt: batch.physical = Physical::kInt16; break;
    case TypeRoot::kInt:
    case TypeRoot::kDate:
    case TypeRoot::kTime: batch.physical = Physical::kInt32; break;
    case TypeRoot::kBigInt: batch.physical = Physical::kInt64; break;
    case TypeRoot::kFloat: batch.physical = Physical::kFloat; break;
    case TypeRoot::kDouble: batch.physical = Physical::kDouble; break;
    case TypeRoot::kDecimal:
      batch.physical = type.precision > 18 ? Physical::kDecimal128 : Physical::kDecimal;
      break;
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLocalTimeZone: batch.physical = Physical::kTimestamp; break;
    default: batch.physical = Physical::kBytes; break;
  }
  return Status::OK();
}

// Picks row `indices[i]` of `source` (-1 = null) into `holder`: dictionaries and map values.
void Gather(const ColumnBatch& source, const int64_t* indices, int64_t count,
            ColumnBatchHolder* holder) {
  ColumnBatch& out = holder->batch;
  out.type = source.type;
  out.physical = source.physical;
  out.timestamp_unit = source.timestamp_unit;
  out.length = count;
  holder->scratch_validity.assign(static_cast<size_t>((count + 7) / 8), 0);
  int64_t nulls = 0;
  for (int64_t i = 0; i < count; ++i) {
    const int64_t j = indices[i];
    if (j >= 0 && source.IsValid(j)) {
      holder->scratch_validity[i >> 3] |= static_cast<uint8_t>(1u << (i & 7));
    } else {
      ++nulls;
    }
  }
  out.validity = holder->scratch_validity.data();
  out.validity_offset = 0;
  out.null_count = nulls;
  if (source.physical == Physical::kBytes) {
    holder->scratch_strings.assign(static_cast<size_t>(count), std::string_view());
    for (int64_t i = 0; i < count; ++i) {
      if (indices[i] >= 0 && source.IsValid(indices[i])) {
        holder->scratch_strings[i] = source.strings[indices[i]];
      }
    }
    out.strings = holder->scratch_strings.data();
    return;
  }
  const size_t width = ValueWidth(source.physical);
  holder->scratch_bytes.assign(static_cast<size_t>(count) * width, 0);
  const uint8_t* src = static_cast<const uint8_t*>(source.values);
  for (int64_t i = 0; i < count; ++i) {
    if (indices[i] >= 0) {
      std::memcpy(holder->scratch_bytes.data() + i * width, src + indices[i] * width, width);
    }
  }
  out.values = holder->scratch_bytes.data();
}

Status ReadIndices(const ArrowSchema& schema, const ArrowArray& array, std::vector<int64_t>* out) {
  if (!IsIntegerFormat(schema)) {
    return Status::InvalidArgument("dictionary indices of format '", schema.format,
                                   "' are not integers");
  }
  PFI_RETURN_NOT_OK(RequireBuffers(array, 2, "dictionary index"));
  out->assign(static_cast<size_t>(array.length), -1);
  const uint8_t* validity = array.null_count == 0 || array.buffers[0] == nullptr
                                ? nullptr
                                : static_cast<const uint8_t*>(array.buffers[0]);
  const void* raw = array.buffers[1];
  for (int64_t i = 0; i < array.length; ++i) {
    const int64_t j = array.offset + i;
    if (validity != nullptr && !((validity[j >> 3] >> (j & 7)) & 1)) continue;
    int64_t v = 0;
    switch (schema.format[0]) {
      case 'c': v = static_cast<const int8_t*>(raw)[j]; break;
      case 's': v = static_cast<const int16_t*>(raw)[j]; break;
      case 'i': v = static_cast<const int32_t*>(raw)[j]; break;
      case 'l': v = static_cast<const int64_t*>(raw)[j]; break;
      case 'C': v = static_cast<const uint8_t*>(raw)[j]; break;
      case 'S': v = static_cast<const uint16_t*>(raw)[j]; break;
      case 'I': v = static_cast<const uint32_t*>(raw)[j]; break;
      case 'L': v = static_cast<int64_t>(static_cast<const uint64_t*>(raw)[j]); break;
    }
    (*out)[i] = v;
  }
  return Status::OK();
}

// A dictionary array of strings kept encoded: the batch's rows are the indices (int32, their
// validity the rows'), its values the dictionary's views. Every valid row's index is checked.
Status KeptDictionary(const ArrowArray& array, std::unique_ptr<ColumnBatchHolder> values,
                      ColumnBatchHolder* holder) {
  PFI_RETURN_NOT_OK(RequireBuffers(array, 2, "dictionary index"));
  ColumnBatch& batch = holder->batch;
  SetValidity(array, &batch);
  batch.length = array.length;
  batch.physical = Physical::kBytes;
  const int32_t* indices = BufferFrom<int32_t>(array, 1, array.offset);
  const int64_t size = values->batch.length;
  bool out_of_range = false;  // no early exit: one branch-free pass
  for (int64_t i = 0; i < array.length; ++i) {
    out_of_range |= batch.IsValid(i) && (indices[i] < 0 || indices[i] >= size);
  }
  if (out_of_range) {
    for (int64_t i = 0; i < array.length; ++i) {
      if (batch.IsValid(i) && (indices[i] < 0 || indices[i] >= size)) {
        return Status::InvalidArgument("dictionary index ", indices[i],
                                       " is out of range");
      }
    }
  }
  batch.dictionary_indices = indices;
  holder->dictionary = std::move(values);
  batch.dictionary = &holder->dictionary->batch;
  return Status::OK();
}

Status Dictionary(const ArrowSchema& schema, const ArrowArray& array, const DataType& type,
                  ColumnBatchHolder* holder, BatchForms forms) {
  if (array.dictionary == nullptr) {
    return Status::InvalidArgument("dictionary-encoded Arrow array has no dictionary values");
  }
  ArrowSchema value_schema = *schema.dictionary;
  auto dictionary = std::make_unique<ColumnBatchHolder>();
  const bool may_keep = forms.dictionary && FormatIs(schema, "i");
  // A kept dictionary's strings stay in Arrow's offsets for a writer that reads those: no
  // view per dictionary value (16 bytes each, about as much as the values themselves).
  BatchForms value_forms;
  value_forms.string_offsets = may_keep && forms.string_offsets;
  PFI_RETURN_NOT_OK(
      MakeColumnBatch(value_schema, *array.dictionary, type, dictionary.get(), value_forms));
  const ColumnBatch& values = dictionary->batch;
  if (may_keep && values.physical == Physical::kBytes &&
      (values.validity == nullptr || values.null_count == 0)) {
    return KeptDictionary(array, std::move(dictionary), holder);
  }
  if (value_forms.string_offsets) {  // gathered after all: that needs a view per value
    PFI_RETURN_NOT_OK(MakeColumnBatch(value_schema, *array.dictionary, type, dictionary.get()));
  }
  std::vector<int64_t> indices;
  PFI_RETURN_NOT_OK(ReadIndices(schema, array, &indices));
  for (int64_t index : indices) {
    if (index >= values.length) {
      return Status::InvalidArgument("dictionary index ", index,
                                     " is out of range");
    }
  }
  Gather(values, indices.data(), static_cast<int64_t>(indices.size()), holder);
  // Gather copied fixed-width values; string views still point into the caller's Arrow buffers.
  return Status::OK();
}

}  // namespace

Status MakeColumnBatch(const ArrowSchema& schema, const ArrowArray& array, const DataType& type,
                       ColumnBatchHolder* holder, BatchForms forms) {
  if (schema.format == nullptr) return Status::InvalidArgument("Arrow schema has no format");
  if (array.length < 0 || array.offset < 0) {
    return Status::InvalidArgument("Arrow array has a negative length or offset");
  }
  ColumnBatch& batch = holder->batch;
  batch = ColumnBatch();
  batch.type = &type;
  holder->dictionary.reset();
  if (schema.dictionary != nullptr) {
    return Dictionary(schema, array, type, holder, forms);
  }
  if (FormatIs(schema, "n")) return AllNull(array, type, holder);
  SetValidity(array, &batch);
  switch (type.root) {
    case TypeRoot::kBoolean: return Booleans(schema, array, type, holder);
    case TypeRoot::kTinyInt:
      return FixedWidth<int8_t>(schema, array, type, 'c', Physical::kInt8, holder);
    case TypeRoot::kSmallInt:
      return FixedWidth<int16_t>(schema, array, type, 's', Physical::kInt16, holder);
    case TypeRoot::kInt:
      return FixedWidth<int32_t>(schema, array, type, 'i', Physical::kInt32, holder);
    case TypeRoot::kBigInt:
      return FixedWidth<int64_t>(schema, array, type, 'l', Physical::kInt64, holder);
    case TypeRoot::kFloat:
      return FixedWidth<float>(schema, array, type, 'f', Physical::kFloat, holder);
    case TypeRoot::kDouble:
      return FixedWidth<double>(schema, array, type, 'g', Physical::kDouble, holder);
    case TypeRoot::kDecimal: return Decimals(schema, array, type, holder);
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary:
      return ByteStrings(schema, array, type, holder, forms.string_offsets);
    case TypeRoot::kDate: return Dates(schema, array, type, holder);
    case TypeRoot::kTime: return Times(schema, array, type, holder);
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLocalTimeZone: return Timestamps(schema, array, type, holder);
    default:
      return Status::NotSupported("Paimon type ", type.ToString(),
                                  " cannot be indexed directly");
  }
}

Status MakeMapValueBatch(const ArrowSchema& schema, const ArrowArray& array,
                         const DataType& map_type, std::string_view key,
                         ColumnBatchHolder* holder) {
  if (map_type.root != TypeRoot::kMap || map_type.children.size() != 2) {
    return Status::InvalidArgument("column type ", map_type.ToString(), " is not a MAP");
  }
  if (!FormatIs(schema, "+m") || schema.n_children != 1 || array.n_children != 1 ||
      schema.children[0]->n_children != 2 || array.children[0]->n_children != 2) {
    return Mismatch(schema, map_type, "expected an Arrow map");
  }
  PFI_RETURN_NOT_OK(RequireBuffers(array, 2, "map"));
  const ArrowSchema& entries_schema = *schema.children[0];
  const ArrowArray& entries = *array.children[0];
  ColumnBatchHolder keys;
  PFI_RETURN_NOT_OK(MakeColumnBatch(*entries_schema.children[0], *entries.children[0],
                                    map_type.children[0], &keys));
  if (keys.batch.physical != Physical::kBytes) {
    return Status::NotSupported("map-key indexes need string map keys, not ",
                                map_type.children[0].ToString());
  }
  const int32_t* offsets = static_cast<const int32_t*>(array.buffers[1]);
  const uint8_t* validity = array.null_count == 0 ? nullptr
                                                  : static_cast<const uint8_t*>(array.buffers[0]);
  // Map offsets address the entries struct; its own offset shifts into the key/value children.
  std::vector<int64_t> picks(static_cast<size_t>(array.length), -1);
  for (int64_t i = 0; i < array.length; ++i) {
    const int64_t row = array.offset + i;
    if (validity != nullptr && !((validity[row >> 3] >> (row & 7)) & 1)) continue;
    for (int64_t e = offsets[row]; e < offsets[row + 1]; ++e) {
      const int64_t child = entries.offset + e;
      if (child < 0 || child >= keys.batch.length) {
        return Status::InvalidArgument("Arrow map offsets point outside its entries");
      }
      if (keys.batch.IsValid(child) && keys.batch.strings[child] == key) {
        picks[i] = child;
        break;  // Paimon maps hold each key once
      }
    }
  }
  ColumnBatchHolder values;
  PFI_RETURN_NOT_OK(MakeColumnBatch(*entries_schema.children[1], *entries.children[1],
                                    map_type.children[1], &values));
  for (int64_t p : picks) {
    if (p >= values.batch.length) {
      return Status::InvalidArgument("Arrow map values are shorter than its keys");
    }
  }
  Gather(values.batch, picks.data(), static_cast<int64_t>(picks.size()), holder);
  holder->batch.type = &map_type.children[1];
  return Status::OK();
}

}  // namespace pyfileindex::column
