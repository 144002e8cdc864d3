// ComputeIfAbsentOrder: the iteration order of a java.util.HashMap (OpenJDK 17, default capacity
// and load factor) filled only by computeIfAbsent, worked out once after the last call instead of
// replaying the map call by call.
//
// Facts of that map it relies on:
// - computeIfAbsent links a new key at the head of its bin, and resizes (if size > threshold)
//   at the top of every call, hit or miss, before looking the key up;
// - a resize splits each chain into the keys that stay and those moving up by the old capacity,
//   both keeping their relative order;
// - only a bin already holding 7 keys when an 8th arrives calls treeifyBin (which resizes a
//   table under 64 slots, or turns the bin into a tree).
// So while treeifyBin is never called, every chain holds its keys newest first, and the map
// visits the keys by bucket of the final table, newest first within a bucket: a counting sort.
// Where treeifyBin is called is decided exactly from per-bucket counts at each table size the
// map went through. A bucket of one table size holds exactly the keys of one hash class
// (hash modulo the capacity), and its bin evolves from those keys and the table sizes alone:
// so only the classes in which a bin filled are replayed (JavaHashMapOrder, with the whole
// map's table sizes), and the whole map only when a bin filled while the table had fewer than
// 64 slots (treeifyBin then resizes the whole map, which changes every later table size).
//
// The calls' effect on the map depends only on the keys' hash codes in insertion order and on
// whether a hit came after the last insertion: a hit runs the pending resize that the next miss
// would run first anyway, so only a hit after the last insertion changes anything.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "java/java_hash_map.h"
#include "memory/growing_vector.h"
#include "memory/scratch.h"

namespace pyfileindex::java {

class ComputeIfAbsentOrder {
 public:
  // A call whose key is absent; the key's id is size() before the call. `java_hash_code` is
  // key.hashCode().
  void InsertNew(int32_t java_hash_code) {
    hash_codes_.push_back(java_hash_code);
    hit_after_last_insert_ = false;
  }
  // Whether a call on a present key now could change the order: only the first hit after an
  // insertion that took the map past a resize threshold (sizes 12 * 2^k + 1) can.
  bool HitMatters() const { return !hit_after_last_insert_ && PastThresholdAt(size()); }
  // Room for `count` keys' hash codes (a writer that expects that many).
  void Reserve(size_t count) { hash_codes_.reserve(count); }
  // A call whose key is present (callers may skip it while HitMatters() is false).
  void NoteHit() { hit_after_last_insert_ = true; }

  size_t size() const { return hash_codes_.size(); }
  // Key ids in the order Java's forEach / entrySet / keySet would visit them. `compare` is the
  // keys' compareTo, only called if a bin may have become a tree (see JavaHashMapOrder).
  // The working arrays come from `scratch` where they fit.
  std::vector<uint32_t> IterationOrder(const JavaHashMapOrder::KeyCompare& compare,
                                       memory::Scratch scratch = memory::Scratch()) const;
  size_t MemoryBytes() const { return hash_codes_.capacity() * sizeof(int32_t); }

  // Whether a map that reached `size` keys with its last insertion may hold size > threshold:
  // thresholds are 3/4 of a power of two from 16 up, and a call never leaves the size more than
  // one above its threshold.
  static bool PastThresholdAt(size_t size) {
    if (size < 13 || (size - 1) % 12 != 0) return false;
    const size_t halvings = (size - 1) / 12;
    return (halvings & (halvings - 1)) == 0;
  }

 private:
  memory::GrowingVector<int32_t> hash_codes_;  // by key id
  bool hit_after_last_insert_ = false;
};

// The order of a computeIfAbsent-only map whose keys, by id, have these Java hash codes: a
// counting sort by bucket of the final table, with the keys of the hash classes in which a bin
// filled replayed on their own. nullopt when the whole map must be replayed instead.
// `hit_after_last_insert`: a call on a present key came after the last insertion. `compare`
// orders keys in tree bins (see JavaHashMapOrder). The working arrays (per-bucket counts) come
// from `scratch` where they fit. `replayed`, if given, is set to the number of keys replayed.
std::optional<std::vector<uint32_t>> ClassWiseComputeIfAbsentOrder(
    const int32_t* hash_codes, size_t count, bool hit_after_last_insert,
    const JavaHashMapOrder::KeyCompare& compare, memory::Scratch scratch = memory::Scratch(),
    size_t* replayed = nullptr);

// The same order by replaying every insertion (any map, trees included).
std::vector<uint32_t> ReplayedComputeIfAbsentOrder(const int32_t* hash_codes, size_t count,
                                                   bool hit_after_last_insert,
                                                   const JavaHashMapOrder::KeyCompare& compare);

}  // namespace pyfileindex::java
