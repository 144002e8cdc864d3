// JavaHashMapOrder: reproduces the iteration order of a java.util.HashMap (OpenJDK 17).
//
// Paimon writes index entries, bitmap bodies and container columns in HashMap iteration order,
// so byte-identical output needs that order exactly. This class replays the map's structure --
// table size and resize timing, bin chains, red-black tree bins -- without holding key values:
// keys are dense ids 0..n-1 in first-insertion order, known to the emulator only through their
// Java hashCode and, for colliding hashes in tree bins, a caller-supplied compareTo.
//
// Scope: a default-constructed HashMap (capacity 16, load factor 0.75) that only grows (no
// removals, no putAll/clear), filled by either put() or computeIfAbsent() (one mode per map).
//
// Memory: per key 8 bytes (hash, chain link) plus 1.33..2.67 table slots of 4 bytes; 17 more
// bytes per key only once some bin has become a tree. Inserting costs about two cache misses
// (table slot, bin chain), as in Java's own map.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "memory/growing_vector.h"

namespace pyfileindex::java {

class JavaHashMapOrder {
 public:
  enum class Mode {
    kPut,              // HashMap.put: append to bin tail, resize after inserting
    kComputeIfAbsent,  // HashMap.computeIfAbsent: resize check first (every call), prepend
  };

  // Java `keys[a].compareTo(keys[b])` (any sign-carrying int). Only called for two keys whose
  // spread hashes are equal while ordering a tree bin. A null function means "keys are not
  // Comparable": Java then orders by identity hash codes, which is not reproducible; the
  // emulator uses a fixed tie-break (as if the new key were smaller) instead.
  using KeyCompare = std::function<int(uint32_t a, uint32_t b)>;

  // Counters of structural events, for tests and diagnostics.
  struct Stats {
    uint64_t resizes = 0;
    uint64_t treeify_resizes = 0;  // treeifyBin with capacity < 64 that resized instead
    uint64_t treeifications = 0;   // chain converted to a tree by treeifyBin
    uint64_t tree_inserts = 0;
    uint64_t tree_splits = 0;      // tree bins split by a resize
    uint64_t untreeifies = 0;
    uint64_t retreeifies = 0;
  };

  JavaHashMapOrder(Mode mode, KeyCompare compare);

  // A put/computeIfAbsent call whose key is absent. The key's id is size() before the call.
  // `java_hash_code` is key.hashCode(). At most 2^31 - 2 keys.
  void InsertNew(int32_t java_hash_code);

  // A call whose key is already present. For computeIfAbsent this runs the resize check Java
  // makes at the top of every call; O(1) unless a resize is pending. No-op for put.
  void TouchExisting() {
    if (ResizePending()) Resize();
  }

  // For a replay of only some hash classes of a computeIfAbsent map (see
  // compute_if_absent_order.h): grows the table as the whole map's has grown by its call made
  // when it held `whole_map_size` keys. Call it before each InsertNew, with the key's id in the
  // whole map. Valid only while no bin of the whole map fills on a table under 64 slots.
  void GrowAsWholeMapAt(size_t whole_map_size);

  // True if the next computeIfAbsent call (hit or miss) will grow the table first.
  bool ResizePending() const {
    return mode_ == Mode::kComputeIfAbsent && static_cast<int64_t>(size_) > threshold_;
  }

  // Key ids in the order Java's forEach / entrySet / keySet / values would visit them.
  std::vector<uint32_t> IterationOrder() const;

  size_t size() const { return size_; }
  size_t capacity() const { return table_.size(); }  // 0 until the first insertion
  // Heap bytes the replay holds (its nodes, table and tree links).
  size_t MemoryBytes() const;
  const Stats& stats() const { return stats_; }

  // Java's HashMap.hash(): h ^ (h >>> 16).
  static int32_t Spread(int32_t hash_code) {
    uint32_t h = static_cast<uint32_t>(hash_code);
    return static_cast<int32_t>(h ^ (h >> 16));
  }

 private:
  // Node ids by slot or by node; grown with the map, outgrown buffers handed back.
  using Ids = memory::GrowingVector<uint32_t>;
  static constexpr uint32_t kNil = 0xFFFFFFFFu;
  // A table slot holds kNil or its first node's id, with kTreeBin set if the bin's nodes are
  // TreeNodes (Java's `first instanceof TreeNode`). Folding the flag into the slot saves a
  // second random memory access per call.
  static constexpr uint32_t kTreeBin = 0x80000000u;
  static constexpr uint32_t kMaxKeys = 0x7FFFFFFEu;

  static uint32_t HeadOf(uint32_t slot_value) {
    return slot_value == kNil ? kNil : slot_value & ~kTreeBin;
  }
  static bool IsTreeBin(uint32_t slot_value) {
    return slot_value != kNil && (slot_value & kTreeBin) != 0;
  }

  uint32_t Slot(uint32_t node, size_t cap) const {
    return static_cast<uint32_t>(nodes_[node].hash) & static_cast<uint32_t>(cap - 1);
  }

  void Resize();
  void SplitTreeBin(uint32_t head, uint32_t old_slot, size_t old_cap,
                    Ids* table);
  void TreeifyBin(uint32_t slot);
  void EnsureTreeArrays();
  // Builds a red-black tree over the chain starting at `head` (prev links already set),
  // then moves its root to the front of its slot in `table`.
  void Treeify(uint32_t head, Ids* table);
  void PutTreeVal(uint32_t slot, uint32_t x);
  // <= 0: x belongs left of p (Java's `dir`).
  int TreeDirection(uint32_t x, uint32_t p) const;
  uint32_t BalanceInsertion(uint32_t root, uint32_t x);
  uint32_t RotateLeft(uint32_t root, uint32_t p);
  uint32_t RotateRight(uint32_t root, uint32_t p);
  void MoveRootToFront(Ids* table, uint32_t root);

  Mode mode_;
  KeyCompare compare_;
  size_t size_ = 0;
  int64_t threshold_ = 0;

  // Hash and chain link side by side: a resize reads both for every node, once.
  struct Node {
    int32_t hash;   // spread hash
    uint32_t next;  // next node of the bin chain (iteration order), or kNil
  };
  memory::GrowingVector<Node> nodes_;  // by key id
  Ids table_;  // per slot: kNil, or first node | kTreeBin flag

  // Tree links, allocated at the first treeification and then kept for every key.
  bool has_tree_arrays_ = false;
  Ids parent_, left_, right_, prev_;
  memory::GrowingVector<uint8_t> red_;

  Stats stats_;
};

}  // namespace pyfileindex::java
