#include "index/bitmap/payload_layout.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "index/bitmap/tuning.h"
#include "memory/huge_pages.h"
#include "memory/return_pages.h"

namespace pyfileindex::index::bitmap {

PayloadLayout::PayloadLayout(KeyRows rows, KeyKind kind, WriterOptions options,
                             memory::HeapTrim trim)
    : rows_(std::move(rows)), kind_(kind), options_(options), trim_(trim) {}

Result<size_t> PayloadLayout::Plan() {
  const WriterKeys& keys = rows_.keys();
  const KeyKind kind = keys.kind();
  const size_t key_count = keys.size();
  trim_after_dictionary_ =
      trim_.allowed() && keys.MemoryBytes() >= tuning::kTrimAfterDictionaryBytes;
  key_count_ = key_count;
  // The lookup table is done with: the orders' working arrays reuse its resident pages (one
  // after the other: each order's are dead once it is out).
  WriterKeys& lookup = rows_.strings ? static_cast<WriterKeys&>(*rows_.strings)
                                     : static_cast<WriterKeys&>(*rows_.numeric);
  java_order_ = keys.JavaOrder(lookup.LookupMemory());
  // The meta lists keys in HashMap order (V1) or sorted (V2); keys that came in ascending
  // order are sorted by id already and need no list.
  if (options_.version == 2 && !keys.IdsAreSorted()) {
    sorted_ids_ = keys.SortedIds(lookup.LookupMemory());
  }
  // Numeric keys are taken out of their dictionary, which (slots, Java hash codes: many times
  // the keys' own bytes) goes before they are put in meta order and the plan is built.
  // String keys stay in theirs until the meta is written (the meta's keys are read from it);
  // only its lookup table and hash codes go now.
  if (rows_.numeric != nullptr) {
    memory::GrowingVector<uint64_t> by_id = rows_.numeric->TakeKeys();
    rows_.numeric.reset();
    const uint32_t* order = meta_ids();
    if (KeyBitsFit32(kind)) {
      meta_bits32_.resize(key_count);
      for (size_t i = 0; i < key_count; ++i) meta_bits32_[i] = NarrowKeyBits(by_id[IdAt(order, i)]);
    } else if (order == nullptr) {  // meta order is id order: the keys as they are
      meta_bits_ = std::move(by_id);
    } else {
      meta_bits_.resize(key_count);
      for (size_t i = 0; i < key_count; ++i) meta_bits_[i] = by_id[order[i]];
    }
  } else {
    rows_.strings->ReleaseLookup();
  }
  if (trim_after_dictionary_) trim_.Trim();

  // Body: the null bitmap (only when it has >= 2 rows), then the bitmaps of keys with >= 2
  // rows, in HashMap order; a key with one row is inlined in the meta as -1 - row. Offsets
  // are body-relative, so every size is known before a byte is written. By key id:
  // key_bodies_ holds the bitmap's size (0: a single row) and its offset (or -1 - row).
  rare_plan_.gather_inline = rows_.rare.size() >= tuning::kGatherInlineListsFromKeys;
  key_bodies_.assign(key_count, KeyBody());
  const uint64_t null_count = rows_.nulls.Count();
  // Java's meta records the null bitmap's serialized length even when it is not written.
  const size_t null_bytes = rows_.nulls.SerializedSize();
  null_body_bytes_ = null_count >= 2 ? null_bytes : 0;
  size_t body = null_body_bytes_;
  // Java's order visits the ids at random: each key's row list and plan entries are loaded a
  // few keys ahead, then (once the list is cached) its rows.
  constexpr size_t kAhead = tuning::kPrefetchRows;
  const size_t order_size = java_order_.size();
  for (size_t k = 0; k < order_size; ++k) {
    if (k + kAhead < order_size) {
      const uint32_t ahead = java_order_[k + kAhead];
      if (ahead >= rows_.first_rare_id) rows_.rare.PrefetchList(ahead - rows_.first_rare_id);
      __builtin_prefetch(&key_bodies_[ahead], 1);
    }
    if (k + kAhead / 2 < order_size) {
      const uint32_t ahead = java_order_[k + kAhead / 2];
      if (ahead >= rows_.first_rare_id) rows_.rare.PrefetchHead(ahead - rows_.first_rare_id);
    }
    const uint32_t id = java_order_[k];
    size_t size = 0;
    if (id < rows_.first_rare_id) {
      ContainerRows& rows = rows_.frequent[id];
      if (rows.Count() == 1) {
        key_bodies_[id].offset = static_cast<uint32_t>(-1 - static_cast<int32_t>(rows.FirstRow()));
        continue;
      }
      size = rows.SerializedSize();
    } else {
      RowList& rows = rows_.rare[id - rows_.first_rare_id];
      if (rows.IsSingle()) {
        key_bodies_[id].offset = static_cast<uint32_t>(-1 - static_cast<int32_t>(rows.OnlyRow()));
        continue;
      }
      size = rows.SerializedSize();
      if (Gathers(rows)) {
        ++rare_plan_.gathered_keys;
        rare_plan_.gathered_entries += rows.PendingEntries();
      }
    }
    if (body + size > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
      return Status::InvalidArgument("bitmap index: the bitmaps exceed 2 GiB");
    }
    key_bodies_[id] = {static_cast<uint32_t>(body), static_cast<uint32_t>(size)};
    body += size;
  }

  MetaHead head;
  head.row_count = static_cast<int32_t>(rows_.row_count);
  head.has_null = null_count > 0;
  head.null_offset = null_count == 1 ? -1 - static_cast<int32_t>(rows_.nulls.FirstRow()) : 0;
  head.null_length = static_cast<int32_t>(null_bytes);
  if (options_.version == 2) {
    PFI_ASSIGN_OR_RETURN(meta_plan_,
                         MetaPlan::V2(head, kind, MetaKeysInOrder(), options_.block_size_limit));
  } else {
    meta_plan_ = MetaPlan::V1(head, kind, MetaKeysInOrder());
  }
  body_bytes_ = body;
  return meta_plan_.bytes() + body;
}

const uint32_t* PayloadLayout::meta_ids() const {
  if (options_.version == 1) return java_order_.data();
  return sorted_ids_.empty() ? nullptr : sorted_ids_.data();
}

MetaKeys PayloadLayout::MetaKeysInOrder() const {
  if (rows_.strings != nullptr) {
    return MetaKeys::OfDictionary(*rows_.strings, meta_ids(), key_count_);
  }
  if (KeyBitsFit32(kind_)) {  // the dictionary is gone by now
    return MetaKeys::Numeric32(kind_, meta_bits32_.data(), meta_bits32_.size());
  }
  return MetaKeys::Numeric(meta_bits_.data(), meta_bits_.size());
}

void PayloadLayout::WriteTo(uint8_t* out) {
  // The body first, releasing the rows as it goes, then the meta: the string keys the meta
  // is read from and the rows are never resident together with the whole container. (The
  // meta first, its keys and sizes released before the body, peaks higher even for numeric
  // keys: the body's rows are the larger part, and they would wait for the meta.)
  uint8_t* const body = out + meta_plan_.bytes();
  // Every key's bitmap goes to its place in the body (Plan laid them out in Java
  // order), so the keys can be written in whatever order frees memory soonest.
  // Rare keys are written out of order (WriteRareKeys), and the meta after the body: on
  // huge pages the first of those writes would make the whole payload resident while the rows
  // are still there.
  if (rows_.rare.size() > 0) memory::WithdrawHugePages(out, meta_plan_.bytes() + body_bytes_);
  // The rare keys first: their rows are gathered and freed before writes all over the body
  // (the frequent keys' bitmaps lie between theirs) make its pages resident.
  WriteRareKeys(body);
  if (null_body_bytes_ > 0) rows_.nulls.SerializeTo(body);
  for (uint32_t id : java_order_) {
    if (id < rows_.first_rare_id && key_bodies_[id].bytes != 0) {
      rows_.frequent[id].SerializeTo(body + key_bodies_[id].offset);  // releases the key's rows
    }
  }
  // The rows are in the payload now, and what only the body needed goes (its pages handed
  // back: the meta is about to fill the rest of the payload); then the meta.
  rows_.frequent = std::vector<ContainerRows>();
  if (options_.version == 2) memory::ReleaseVector(&java_order_);
  if (trim_after_dictionary_) trim_.Trim();
  meta_plan_.WriteTo(MetaKeysInOrder(),
                     MetaEntries(meta_ids(), key_bodies_.data()), out);
  rows_.strings.reset();
  memory::ReleaseVector(&meta_bits_);
  memory::ReleaseVector(&meta_bits32_);
  memory::ReleaseVector(&sorted_ids_);
  memory::ReleaseVector(&java_order_);
  memory::ReleaseVector(&key_bodies_);
  meta_plan_ = MetaPlan();
}

void PayloadLayout::WriteRareKeys(uint8_t* body) {
  // java_order_ is body order. Many keys' row arrays lie scattered over the heap: written out
  // in body order, each freed array leaves a hole in pages that stay resident; in address
  // order, the body's pages are touched at random and all resident at once. So the rows are
  // first gathered, in body order, into one array (the heap they leave is one stretch, which
  // the heap-trim policy may hand back), then written from it front to back, its pages handed
  // back as they are passed. Lists kept in a bitmap are written at once.
  auto has_rare_body = [this](uint32_t id) {
    return id >= rows_.first_rare_id && key_bodies_[id].bytes != 0;
  };
  const size_t total = rare_plan_.gathered_entries;
  const size_t gathered_keys = rare_plan_.gathered_keys;
  std::vector<uint32_t> gathered(total);
  // Of the gathered keys, in body order: how many entries each has and where its bitmap
  // goes, so the second pass reads them in sequence instead of by id at random.
  std::vector<uint32_t> counts(gathered_keys);
  std::vector<uint32_t> targets(gathered_keys);
  size_t at = 0;
  size_t k = 0;
  constexpr size_t kAhead = tuning::kPrefetchRows;
  const size_t order_size = java_order_.size();
  for (size_t o = 0; o < order_size; ++o) {
    if (o + kAhead < order_size) {  // ids at random, as in Plan
      const uint32_t ahead = java_order_[o + kAhead];
      __builtin_prefetch(&key_bodies_[ahead]);
      if (ahead >= rows_.first_rare_id) rows_.rare.PrefetchList(ahead - rows_.first_rare_id);
    }
    if (o + kAhead / 2 < order_size) {
      const uint32_t ahead = java_order_[o + kAhead / 2];
      if (ahead >= rows_.first_rare_id) rows_.rare.PrefetchHead(ahead - rows_.first_rare_id);
    }
    const uint32_t id = java_order_[o];
    if (!has_rare_body(id)) continue;
    RowList& rows = rows_.rare[id - rows_.first_rare_id];
    if (!Gathers(rows)) {
      rows.SerializeTo(body + key_bodies_[id].offset);
      continue;
    }
    counts[k] = rows.PendingEntries();
    targets[k] = key_bodies_[id].offset;
    rows.MoveEntriesTo(gathered.data() + at);
    at += counts[k++];
  }
  rows_.rare = RowSets();
  // The lists were thousands of small blocks: unless handed back they stay resident while
  // the body they were gathered for is written (for many rare keys, a large part of it).
  if (gathered_keys >= tuning::kTrimAfterRareKeys ||
      total * sizeof(uint32_t) >= tuning::kTrimAfterRareBytes) {
    trim_.Trim();
  }

  constexpr size_t kReturnEveryEntries = tuning::kGatheredEntriesPerReturn;
  size_t returned = 0;
  at = 0;
  for (k = 0; k < gathered_keys; ++k) {
    RowList::SerializeEntries(gathered.data() + at, counts[k], body + targets[k]);
    at += counts[k];
    if (at - returned >= kReturnEveryEntries) {
      memory::ReturnPages(gathered.data() + returned, (at - returned) * sizeof(uint32_t));
      returned = at;
    }
  }
  memory::ReleaseVector(&gathered);
  memory::ReleaseVector(&counts);
  memory::ReleaseVector(&targets);
}

}  // namespace pyfileindex::index::bitmap
