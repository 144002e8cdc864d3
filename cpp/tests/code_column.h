// A column of dictionary codes and the range-bitmap BSI section built from it: the fixture of
// the code-scan tests (test_code_range_scan.cc, test_code_set_scan.cc).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "index/range_bitmap/code_bsi_reader.h"
#include "index/range_bitmap/code_bsi_writer.h"
#include "io/byte_span.h"
#include "roaring/container_span.h"

namespace pyfileindex::index::range_bitmap::test_codes {

inline constexpr uint32_t kNull = UINT32_MAX;  // a row without a key

struct CodeColumn {
  int64_t cardinality = 0;
  std::vector<uint32_t> codes;  // by row; kNull: no key
  std::vector<uint8_t> bsi;
  std::unique_ptr<CodeBsiReader> reader;

  // Writes `bsi` from `codes` and opens `reader` on it.
  void Build() {
    const uint32_t rows = static_cast<uint32_t>(codes.size());
    constexpr size_t kRows = roaring::kRowsPerContainer;
    const size_t blocks = (size_t{rows} + kRows - 1) / kRows;
    std::vector<uint64_t> validity(blocks * roaring::kBlockWords, 0);
    std::vector<uint32_t> block_codes(blocks * kRows, 0);  // rows without a key: ignored
    for (uint32_t r = 0; r < rows; ++r) {
      if (codes[r] == kNull) continue;
      validity[r / 64] |= uint64_t{1} << (r % 64);
      block_codes[r] = codes[r];
    }
    CodeBsi writer(cardinality, blocks);
    for (size_t b = 0; b < blocks; ++b) {
      writer.AddBlock(static_cast<uint16_t>(b), validity.data() + b * roaring::kBlockWords,
                      block_codes.data() + b * kRows);
    }
    bsi.assign(writer.size(), 0);
    writer.WriteTo(bsi.data());
    Reopen();
  }

  // Opens `reader` on `bsi` as it is now (after a test damaged it, say).
  void Reopen() {
    auto opened = CodeBsiReader::Open(io::ByteSpan(bsi.data(), bsi.size()), cardinality,
                                      static_cast<uint32_t>(codes.size()));
    ASSERT_TRUE(opened.ok()) << opened.status().ToString();
    reader = std::move(*opened);
  }
};

// `rows` random codes below `card`, a share `nulls` of them NULL.
inline CodeColumn Shuffled(std::mt19937_64& rng, uint32_t rows, int64_t card, double nulls) {
  CodeColumn c;
  c.cardinality = card;
  c.codes.resize(rows);
  for (uint32_t r = 0; r < rows; ++r) {
    c.codes[r] = (rng() % 10000) < nulls * 10000
                     ? kNull
                     : static_cast<uint32_t>(rng() % static_cast<uint64_t>(card));
  }
  return c;
}

// 200,000 rows in the layouts a scan meets block by block: periodic runs, a NULL stretch (an
// EBM gap inside a block), random codes (bitmap slices under a run EBM), a few codes near the
// top, sorted codes, and single values (array containers in the slices).
inline CodeColumn MixedLayouts(std::mt19937_64& rng, int64_t card) {
  constexpr uint32_t kRows = 200000;
  CodeColumn c;
  c.cardinality = card;
  c.codes.resize(kRows);
  for (uint32_t r = 0; r < kRows; ++r) {
    if (r < 65536) {
      c.codes[r] = static_cast<uint32_t>((r / 37) % card);
    } else if (r < 100000) {
      c.codes[r] = kNull;
    } else if (r < 131072) {
      c.codes[r] = static_cast<uint32_t>(rng() % card);
    } else if (r < 140000) {
      c.codes[r] = static_cast<uint32_t>(card - 1 - (r % 3));
    } else {
      c.codes[r] = static_cast<uint32_t>(((r - 140000) * card) / (kRows - 140000));
    }
  }
  for (int i = 0; i < 50; ++i) c.codes[65536 + 1000 * i] = static_cast<uint32_t>(rng() % card);
  return c;
}

}  // namespace pyfileindex::index::range_bitmap::test_codes
