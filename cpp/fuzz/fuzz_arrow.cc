// Arrow input that lies: a one-column record batch whose length, offset, null count, buffer
// count, validity bits and string offsets come from the input, handed to a writer indexing
// that column with every index its type takes. The buffers are exactly as large as the Arrow
// C data interface says for the declared length and offset (a string column's data buffer as
// large as its last offset), each in its own heap block, so any read beyond what the array
// declares is one the sanitizer sees. The writer must index the array or refuse it with an
// InvalidArgument naming the problem.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_input.h"
#include "index/index_type.h"
#include "pyfileindex/arrow_c_abi.h"
#include "pyfileindex/writer.h"
#include "target_support.h"

namespace pyfileindex::fuzz {
namespace {

struct Format {
  const char* arrow;   // Arrow format string
  const char* paimon;  // the column's Paimon type
  int value_bytes;     // bytes per value; 0: a bit per value; -4 / -8: 32 / 64-bit offsets
};

constexpr Format kFormats[] = {
    {"c", "TINYINT", 1},
    {"s", "SMALLINT", 2},
    {"i", "INT", 4},
    {"l", "BIGINT", 8},
    {"C", "SMALLINT", 1},
    {"I", "BIGINT", 4},
    {"L", "BIGINT", 8},
    {"l", "INT", 8},  // narrowed: values out of range refused
    {"f", "FLOAT", 4},
    {"g", "DOUBLE", 8},
    {"b", "BOOLEAN", 0},
    {"tdD", "DATE", 4},
    {"tsu:", "TIMESTAMP(6)", 8},
    {"tsn:", "TIMESTAMP(9)", 8},
    {"u", "STRING", -4},
    {"U", "STRING", -8},
    {"z", "BYTES", -4},
    {"Z", "BYTES", -8},
};

constexpr int64_t kMaxDataBytes = 1 << 16;

// A heap block of exactly `bytes` bytes filled from the input (zeros once it runs out).
std::unique_ptr<uint8_t[]> Block(size_t bytes, FuzzInput& in) {
  std::unique_ptr<uint8_t[]> block(new uint8_t[bytes == 0 ? 1 : bytes]);
  for (size_t i = 0; i < bytes; ++i) block[i] = in.Byte();
  return block;
}

template <typename Offset>
std::unique_ptr<uint8_t[]> Offsets(int64_t count, FuzzInput& in, int64_t* last) {
  std::unique_ptr<uint8_t[]> block(new uint8_t[static_cast<size_t>(count) * sizeof(Offset)]);
  auto* offsets = reinterpret_cast<Offset*>(block.get());
  // Unsigned, so the harness's own steps wrap instead of overflowing (undefined) when a lying
  // offset near the type's maximum is followed by more steps.
  uint64_t at = in.Byte() % 4;
  for (int64_t i = 0; i < count; ++i) {
    const uint8_t step = in.Byte();
    if (step == 0xFF) {
      // anything, as a lying writer puts it
      at = static_cast<uint64_t>(static_cast<int64_t>(static_cast<Offset>(in.U64())));
    } else if (step >= 0xF0) {
      at -= step & 0x0F;  // backwards
    } else {
      at += step % 24;
    }
    offsets[i] = static_cast<Offset>(at);
  }
  *last = static_cast<int64_t>(offsets[count - 1]);
  return block;
}

void Run(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  const Format& format = kFormats[in.Byte() % (sizeof kFormats / sizeof kFormats[0])];
  const int64_t length = in.Byte() % 80;
  const int64_t offset = in.Byte() % 20;
  const uint8_t shape = in.Byte();
  const int64_t slots = offset + length;

  // Buffers as the declared length and offset size them; a string column's data buffer holds
  // its last offset's bytes.
  std::unique_ptr<uint8_t[]> validity, values, offsets, chars;
  if ((shape & 1) != 0) validity = Block(static_cast<size_t>((slots + 7) / 8), in);
  int64_t n_buffers = 2;
  if (format.value_bytes > 0) {
    values = Block(static_cast<size_t>(slots * format.value_bytes), in);
  } else if (format.value_bytes == 0) {
    values = Block(static_cast<size_t>((slots + 7) / 8), in);
  } else {
    int64_t last = 0;
    offsets = format.value_bytes == -4 ? Offsets<int32_t>(slots + 1, in, &last)
                                       : Offsets<int64_t>(slots + 1, in, &last);
    if (last < 0 || last > kMaxDataBytes) return;  // no buffer of that size could be given
    chars = Block(static_cast<size_t>(last), in);
    n_buffers = 3;
  }
  const void* buffers[3] = {validity.get(), values ? values.get() : offsets.get(), chars.get()};
  if ((shape & 2) != 0) n_buffers -= 1 + (shape >> 7);  // fewer buffers than the format has
  if ((shape & 4) != 0) buffers[1 + (shape >> 6) % 2] = nullptr;

  int64_t null_count = 0;
  switch ((shape >> 3) % 4) {
    case 0: null_count = -1; break;  // "unknown": the writer counts
    case 1: null_count = validity ? 1 + in.Byte() % 8 : 0; break;
    case 2: null_count = in.Byte() % 3 == 0 ? length + 1 : 0; break;  // more nulls than rows
    default: null_count = validity ? length : 0; break;
  }

  ArrowSchema column_schema{format.arrow, "c", nullptr, ARROW_FLAG_NULLABLE, 0, nullptr,
                            nullptr, [](ArrowSchema* s) { s->release = nullptr; }, nullptr};
  ArrowArray column_array{length, null_count, offset, n_buffers, 0, buffers, nullptr, nullptr,
                          [](ArrowArray* a) { a->release = nullptr; }, nullptr};
  ArrowSchema* schema_children[1] = {&column_schema};
  ArrowArray* array_children[1] = {&column_array};
  const void* struct_buffers[1] = {nullptr};
  ArrowSchema batch_schema{"+s", "", nullptr, 0, 1, schema_children, nullptr,
                           [](ArrowSchema* s) { s->release = nullptr; }, nullptr};
  ArrowArray batch_array{length, 0, 0, 1, 1, struct_buffers, array_children, nullptr,
                         [](ArrowArray* a) { a->release = nullptr; }, nullptr};

  // Every index the column type takes.
  const DataType column_type = ParseDataType(format.paimon).ValueOrDie();
  Options options;
  for (std::string_view name : index::IndexTypeNames()) {
    if (!index::FindIndexType(name)->CheckType(column_type).ok()) continue;
    options.Set("file-index." + std::string(name) + ".columns", "c");
    if (name == "bloom-filter") options.Set("file-index.bloom-filter.c.items", "100");
  }
  auto writer = FileIndexWriter::Make({{"c", column_type}}, options);
  if (!writer.ok()) Fail("Make", writer.status().ToString());
  const Status written = (shape & 32) != 0
                             ? (*writer)->WriteColumn("c", column_schema, column_array)
                             : (*writer)->Write(batch_schema, batch_array);
  CheckRefusal(written, "Write", {StatusCode::kInvalidArgument});
  if (!written.ok()) return;
  auto finished = (*writer)->Finish();
  if (!finished.ok()) Fail("Finish after an accepted Write", finished.status().ToString());
}

}  // namespace
}  // namespace pyfileindex::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pyfileindex::fuzz::Run(data, size);
  return 0;
}
