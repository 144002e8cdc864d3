// Counts a damaged index may declare, bounded by what Java can write and by the bytes that
// hold them: more is corrupt, never a loop or an allocation the input does not justify.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "index/bloom_filter/bloom_filter_index.h"
#include "index/bloom_filter/bloom_shape.h"
#include "index/range_bitmap/dictionary_reader.h"
#include "index/range_bitmap/key_kind.h"
#include "io/endian.h"
#include "test_support.h"

namespace pyfileindex::index {
namespace {

using test_support::Type;

TEST(BloomLimitsTest, NoOptionsGiveMoreHashFunctionsThanTheReaderAccepts) {
  const int32_t most = bloom_filter::MaxJavaHashFunctions();
  EXPECT_GT(most, 1000);  // -ln(4.9e-324) / ln 2 = 1074.0...
  EXPECT_LT(most, 1100);
  const double fpps[] = {std::numeric_limits<double>::denorm_min(), 1e-320, 1e-300, 1e-100,
                         1e-10, 0.001, 0.1, 0.5, 0.99};
  for (int32_t items = 1; items <= 5000; items += items < 100 ? 1 : 37) {
    for (double fpp : fpps) {
      auto shape = bloom_filter::ComputeBloomShape(items, fpp);
      if (shape.ok()) {
        EXPECT_LE(shape->num_hash_functions, most) << items << " " << fpp;
      }
    }
  }
}

TEST(BloomLimitsTest, MoreHashFunctionsThanJavaWritesAreCorrupt) {
  const DataType type = Type("INT");
  const int32_t most = bloom_filter::MaxJavaHashFunctions();
  std::vector<uint8_t> bytes(4 + 4096, 0x5a);  // bits enough for k up to 32768
  for (int32_t k : {most, most + 1, 32768}) {
    io::StoreU32BE(bytes.data(), static_cast<uint32_t>(k));
    auto reader = BloomFilterIndexType().OpenReader(type, io::ByteSpan(bytes.data(), bytes.size()));
    if (k == most) {
      EXPECT_TRUE(reader.ok()) << reader.status().ToString();
      continue;
    }
    ASSERT_EQ(reader.status().code(), StatusCode::kCorrupt) << k;
    EXPECT_NE(reader.status().message().find("not a filter Java writes (it uses 1 to " +
                                             std::to_string(most) + ")"),
              std::string::npos)
        << reader.status().message();
  }
}

// A range-bitmap dictionary: its 13-byte header, the chunk offsets, `header_bytes` of chunk
// headers (zeros) and no keys.
std::vector<uint8_t> Dictionary(int32_t chunks, int32_t header_bytes) {
  std::vector<uint8_t> bytes(4 + 13 + 4 * static_cast<size_t>(chunks) +
                             static_cast<size_t>(header_bytes));
  io::StoreU32BE(&bytes[0], 13);
  bytes[4] = 1;  // version
  io::StoreU32BE(&bytes[5], static_cast<uint32_t>(chunks));
  io::StoreU32BE(&bytes[9], static_cast<uint32_t>(4 * chunks));
  io::StoreU32BE(&bytes[13], static_cast<uint32_t>(header_bytes));
  return bytes;
}

TEST(RangeBitmapLimitsTest, ChunkCountsBeyondTheirHeaderBytesAreCorrupt) {
  auto spec = range_bitmap::KeySpecFor(Type("INT"));
  ASSERT_TRUE(spec.ok());
  const int32_t chunks = 1000;
  const int32_t least = 1 + 4 + 5 * 4;  // version, an INT head key, five ints
  const std::vector<uint8_t> enough = Dictionary(chunks, chunks * least);
  EXPECT_TRUE(range_bitmap::DictionaryReader::Open(
                  io::ByteSpan(enough.data(), enough.size()), *spec, chunks)
                  .ok());
  // A chunk per 4 input bytes (its offset) and nothing else: refused before a slot is made.
  const std::vector<uint8_t> sparse = Dictionary(chunks, chunks * least - 1);
  auto opened =
      range_bitmap::DictionaryReader::Open(io::ByteSpan(sparse.data(), sparse.size()), *spec, chunks);
  ASSERT_EQ(opened.status().code(), StatusCode::kCorrupt);
  EXPECT_NE(opened.status().message().find("1000 chunks in 24999 header bytes (each needs at "
                                           "least 25)"),
            std::string::npos)
      << opened.status().message();
}

}  // namespace
}  // namespace pyfileindex::index
