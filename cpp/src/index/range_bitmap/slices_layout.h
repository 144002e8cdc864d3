// The range-bitmap writer's layout stage: the ingest's ids and keys (IngestedIds) as Java's
// payload (RangeBitmap: header, chunked dictionary, bit-sliced codes), written in place.
//
// Plan() sorts the distinct keys once, turns the blocks' ids into codes (ranks) and bit slices
// block by block, freeing each block as it goes, then plans the chunked dictionary, which
// WriteTo() writes from the keys. Each part is released as soon as it is written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "index/range_bitmap/code_bsi_writer.h"
#include "index/range_bitmap/dictionary_writer.h"
#include "index/range_bitmap/id_block_ingest.h"
#include "index/range_bitmap/key_kind.h"

namespace pyfileindex::index::range_bitmap {

class SlicesLayout {
 public:
  SlicesLayout(IngestedIds in, const KeySpec& spec, int32_t chunk_size)
      : in_(std::move(in)), spec_(spec), chunk_size_(chunk_size) {}
  SlicesLayout(const SlicesLayout&) = delete;  // keys_ points back here
  SlicesLayout& operator=(const SlicesLayout&) = delete;

  // The payload's size; encodes the bit slices (the blocks are gone afterwards) and plans the
  // dictionary.
  Result<size_t> Plan();
  // Writes exactly Plan()'s size.
  void WriteTo(uint8_t* out);

 private:
  // The code BSI from the blocks and each id's code (rank; empty: ids are ranks): encoded
  // now, freeing the blocks (bsi_), or, when every block is runs and no row null, sized now
  // and written from the blocks and rank by WriteTo (run_bsi_).
  void EncodeSlices(std::vector<uint32_t> rank, size_t cardinality);
  Result<size_t> PlanFixed();
  Result<size_t> PlanStrings();
  // The header into head_ and the dictionary's plan from keys_; returns the payload's size
  // (the slices are in bsi_ or run_bsi_).
  Result<size_t> Assemble();

  IngestedIds in_;
  KeySpec spec_;
  int32_t chunk_size_;
  // The dictionary is written from the sorted keys straight into the output: no copy of it
  // is held next to the keys.
  std::vector<uint8_t> head_;
  SortedKeys keys_;
  DictionaryPlan dictionary_;
  std::vector<uint32_t> sorted_units_;  // strings: the keys' places in in_.strings, ascending
  std::vector<uint32_t> sorted32_;      // fixed-width keys in their stored form (keys_.fixed)
  std::vector<uint64_t> sorted64_;
  std::unique_ptr<CodeBsi> bsi_;
  std::unique_ptr<RunCodeBsi> run_bsi_;  // reads in_.blocks and rank_ until WriteTo
  std::vector<uint32_t> rank_;
};

}  // namespace pyfileindex::index::range_bitmap
