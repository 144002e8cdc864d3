// The bitmap writer's layout stage: the ingest's keys and rows (KeyRows) as Java's payload,
// version 1 or 2, written in place.
//
// Plan() lays every part out before a byte is written: the body holds the null bitmap (when it
// has at least two rows), then the bitmaps of keys with at least two rows, in HashMap order; a
// key with one row is inlined in the meta as -1 - row. Offsets are body-relative, so every size
// is known first. WriteTo() then writes the body, releasing each key's rows as its bitmap is
// written, and the meta (V1: keys in HashMap order; V2: sorted, in blocks) last.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "index/bitmap/key_rows_ingest.h"
#include "index/bitmap/meta_writer.h"
#include "memory/growing_vector.h"
#include "memory/heap_trim.h"

namespace pyfileindex::index::bitmap {

struct WriterOptions {
  int version = 2;
  int64_t block_size_limit = 16 * 1024;  // V2 "index-block-size"
};

class PayloadLayout {
 public:
  PayloadLayout(KeyRows rows, KeyKind kind, WriterOptions options, memory::HeapTrim trim);

  // The payload's size. Numeric keys leave their dictionary for a compact array in meta order
  // here; string keys stay in theirs (the meta reads them) but for its lookup table.
  Result<size_t> Plan();
  // Writes exactly Plan()'s size; the rows and keys are released as they are written.
  void WriteTo(uint8_t* out);

 private:
  // Writes the bitmaps of the rare keys to their places in `body` (see WriteTo).
  void WriteRareKeys(uint8_t* body);
  // Whether WriteRareKeys gathers a rare key's rows before writing them.
  bool Gathers(const RowList& rows) const {
    return rows.AllPending() && (rare_plan_.gather_inline || !rows.IsInline());
  }
  // The key ids in the meta's order (V1: HashMap order, V2: sorted; nullptr: the ids in
  // order), and their keys.
  const uint32_t* meta_ids() const;
  MetaKeys MetaKeysInOrder() const;

  KeyRows rows_;
  KeyKind kind_;
  WriterOptions options_;
  memory::HeapTrim trim_;
  // The dictionary was large (tuning::kTrimAfterDictionaryBytes) and the policy allows it: the
  // free heap is handed back after freeing it and after freeing the rows.
  bool trim_after_dictionary_ = false;

  // Between Plan and WriteTo: the meta's layout, the key ids in HashMap order (and, for V2,
  // sorted), the numeric keys' bits in meta order, each key's body size (0: no body, the row
  // is inlined in the meta) and the null bitmap's (0: not written).
  MetaPlan meta_plan_;
  std::vector<uint32_t> java_order_;
  std::vector<uint32_t> sorted_ids_;  // empty when the ids are sorted already
  size_t key_count_ = 0;
  memory::GrowingVector<uint64_t> meta_bits_;
  // Keys of at most 4 bytes are kept in 4 (KeyBitsFit32): the meta's keys lie beside the
  // payload until it is written.
  memory::GrowingVector<uint32_t> meta_bits32_;
  std::vector<KeyBody> key_bodies_;  // by key id: where its bitmap lies in the body
  // The rare keys whose rows WriteRareKeys gathers.
  struct RarePlan {
    // Whether lists held inline are gathered too: only when there are many of them
    // (tuning::kGatherInlineListsFromKeys).
    bool gather_inline = false;
    size_t gathered_keys = 0;
    size_t gathered_entries = 0;
  };
  RarePlan rare_plan_;
  size_t null_body_bytes_ = 0;
  size_t body_bytes_ = 0;
};

}  // namespace pyfileindex::index::bitmap
