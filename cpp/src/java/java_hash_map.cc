#include "java/java_hash_map.h"

#include <cassert>
#include <limits>
#include <utility>

namespace pyfileindex::java {

namespace {

// java.util.HashMap constants.
constexpr size_t kInitialCapacity = 16;
constexpr int64_t kInitialThreshold = 12;
constexpr size_t kMaximumCapacity = size_t{1} << 30;
constexpr size_t kTreeifyThreshold = 8;
constexpr size_t kUntreeifyThreshold = 6;
constexpr size_t kMinTreeifyCapacity = 64;
constexpr int64_t kIntMax = std::numeric_limits<int32_t>::max();

}  // namespace

JavaHashMapOrder::JavaHashMapOrder(Mode mode, KeyCompare compare)
    : mode_(mode), compare_(std::move(compare)) {}

void JavaHashMapOrder::InsertNew(int32_t java_hash_code) {
  assert(nodes_.size() < kMaxKeys);
  const uint32_t x = static_cast<uint32_t>(nodes_.size());
  nodes_.push_back(Node{Spread(java_hash_code), kNil});
  if (has_tree_arrays_) {
    parent_.push_back(kNil);
    left_.push_back(kNil);
    right_.push_back(kNil);
    prev_.push_back(kNil);
    red_.push_back(0);
  }

  if (mode_ == Mode::kComputeIfAbsent) {
    // computeIfAbsent checks for a resize before looking the key up.
    if (static_cast<int64_t>(size_) > threshold_ || table_.empty()) Resize();
    const uint32_t slot = Slot(x, table_.size());
    const uint32_t slot_value = table_[slot];
    if (IsTreeBin(slot_value)) {
      PutTreeVal(slot, x);
    } else {
      const uint32_t first = slot_value;  // a plain bin's slot holds its head (or kNil) as is
      size_t bin_count = 0;  // nodes compared (all unequal) before the miss
      for (uint32_t e = first; e != kNil; e = nodes_[e].next) ++bin_count;
      nodes_[x].next = first;  // new node becomes the head of the bin
      table_[slot] = x;
      if (bin_count >= kTreeifyThreshold - 1) TreeifyBin(slot);
    }
    ++size_;  // no resize check after inserting
    return;
  }

  // put
  if (table_.empty()) Resize();
  const uint32_t slot = Slot(x, table_.size());
  const uint32_t first = table_[slot];
  if (first == kNil) {
    table_[slot] = x;
  } else if (IsTreeBin(first)) {
    PutTreeVal(slot, x);
  } else {
    size_t bin_count = 0;  // Java's binCount when appending: chain length - 1
    uint32_t tail = first;
    while (nodes_[tail].next != kNil) {
      tail = nodes_[tail].next;
      ++bin_count;
    }
    nodes_[tail].next = x;
    if (bin_count >= kTreeifyThreshold - 1) TreeifyBin(slot);
  }
  if (static_cast<int64_t>(++size_) > threshold_) Resize();
}

void JavaHashMapOrder::GrowAsWholeMapAt(size_t whole_map_size) {
  // The whole map resizes once per call while its size exceeds the threshold; catching up
  // over calls with none of this replay's keys is the same doublings in a row.
  if (table_.empty()) Resize();
  while (static_cast<int64_t>(whole_map_size) > threshold_) Resize();
}

size_t JavaHashMapOrder::MemoryBytes() const {
  size_t bytes = nodes_.capacity() * sizeof(Node) + table_.capacity() * sizeof(uint32_t);
  for (const Ids* links : {&parent_, &left_, &right_, &prev_}) {
    bytes += links->capacity() * sizeof(uint32_t);
  }
  return bytes + red_.capacity();
}

std::vector<uint32_t> JavaHashMapOrder::IterationOrder() const {
  std::vector<uint32_t> order;
  order.reserve(size_);
  for (uint32_t slot_value : table_) {
    for (uint32_t e = HeadOf(slot_value); e != kNil; e = nodes_[e].next) order.push_back(e);
  }
  return order;
}

void JavaHashMapOrder::Resize() {
  ++stats_.resizes;
  const size_t old_cap = table_.size();
  if (old_cap == 0) {
    table_.assign(kInitialCapacity, kNil);
    threshold_ = kInitialThreshold;
    return;
  }
  if (old_cap >= kMaximumCapacity) {
    threshold_ = kIntMax;
    return;
  }
  const size_t new_cap = old_cap * 2;
  threshold_ = new_cap < kMaximumCapacity ? threshold_ * 2 : kIntMax;

  Ids table(new_cap, kNil);
  for (size_t j = 0; j < old_cap; ++j) {
    const uint32_t slot_value = table_[j];
    if (slot_value == kNil) continue;
    const uint32_t e = HeadOf(slot_value);
    if (nodes_[e].next == kNil) {
      table[Slot(e, new_cap)] = e;  // a lone node (never a tree bin: those hold >= 7 nodes)
    } else if (IsTreeBin(slot_value)) {
      SplitTreeBin(e, static_cast<uint32_t>(j), old_cap, &table);
    } else {
      // Split into the nodes that stay (hash & old_cap == 0) and those moving up by old_cap,
      // each keeping its relative order.
      uint32_t lo_head = kNil, lo_tail = kNil, hi_head = kNil, hi_tail = kNil;
      for (uint32_t n = e; n != kNil; n = nodes_[n].next) {
        if ((static_cast<uint32_t>(nodes_[n].hash) & old_cap) == 0) {
          (lo_tail == kNil ? lo_head : nodes_[lo_tail].next) = n;
          lo_tail = n;
        } else {
          (hi_tail == kNil ? hi_head : nodes_[hi_tail].next) = n;
          hi_tail = n;
        }
      }
      if (lo_tail != kNil) {
        nodes_[lo_tail].next = kNil;
        table[j] = lo_head;
      }
      if (hi_tail != kNil) {
        nodes_[hi_tail].next = kNil;
        table[j + old_cap] = hi_head;
      }
    }
  }
  table_ = std::move(table);
}

void JavaHashMapOrder::SplitTreeBin(uint32_t head, uint32_t old_slot, size_t old_cap,
                                    Ids* table) {
  ++stats_.tree_splits;
  uint32_t lo_head = kNil, lo_tail = kNil, hi_head = kNil, hi_tail = kNil;
  size_t lo_count = 0, hi_count = 0;
  for (uint32_t e = head, next; e != kNil; e = next) {
    next = nodes_[e].next;
    nodes_[e].next = kNil;
    if ((static_cast<uint32_t>(nodes_[e].hash) & old_cap) == 0) {
      prev_[e] = lo_tail;
      (lo_tail == kNil ? lo_head : nodes_[lo_tail].next) = e;
      lo_tail = e;
      ++lo_count;
    } else {
      prev_[e] = hi_tail;
      (hi_tail == kNil ? hi_head : nodes_[hi_tail].next) = e;
      hi_tail = e;
      ++hi_count;
    }
  }
  const uint32_t hi_slot = old_slot + static_cast<uint32_t>(old_cap);
  // A small half becomes a plain chain (same order). A large half stays a tree: rebuilt from
  // its chain order if the bin really split, kept as is if every node went to one side.
  if (lo_head != kNil) {
    (*table)[old_slot] = lo_head;
    if (lo_count <= kUntreeifyThreshold) {
      ++stats_.untreeifies;
    } else {
      (*table)[old_slot] = lo_head | kTreeBin;
      if (hi_head != kNil) {
        ++stats_.retreeifies;
        Treeify(lo_head, table);
      }
    }
  }
  if (hi_head != kNil) {
    (*table)[hi_slot] = hi_head;
    if (hi_count <= kUntreeifyThreshold) {
      ++stats_.untreeifies;
    } else {
      (*table)[hi_slot] = hi_head | kTreeBin;
      if (lo_head != kNil) {
        ++stats_.retreeifies;
        Treeify(hi_head, table);
      }
    }
  }
}

void JavaHashMapOrder::EnsureTreeArrays() {
  if (has_tree_arrays_) return;
  has_tree_arrays_ = true;
  const size_t n = nodes_.size();
  parent_.assign(n, kNil);
  left_.assign(n, kNil);
  right_.assign(n, kNil);
  prev_.assign(n, kNil);
  red_.assign(n, 0);
}

void JavaHashMapOrder::TreeifyBin(uint32_t slot) {
  if (table_.size() < kMinTreeifyCapacity) {
    ++stats_.treeify_resizes;
    Resize();
    return;
  }
  ++stats_.treeifications;
  EnsureTreeArrays();
  // The nodes become TreeNodes in chain order, gaining prev links.
  const uint32_t head = table_[slot];  // a plain bin: no flag bit
  uint32_t prev = kNil;
  for (uint32_t e = head; e != kNil; e = nodes_[e].next) {
    prev_[e] = prev;
    prev = e;
  }
  table_[slot] = head | kTreeBin;
  Treeify(head, &table_);
}

int JavaHashMapOrder::TreeDirection(uint32_t x, uint32_t p) const {
  const int32_t xh = nodes_[x].hash;
  const int32_t ph = nodes_[p].hash;  // signed comparison, as Java compares int hashes
  if (ph > xh) return -1;
  if (ph < xh) return 1;
  int dir = compare_ ? compare_(x, p) : 0;
  // Java's tieBreakOrder (identity hash codes) is not reproducible; distinct keys of the
  // Comparable classes Paimon uses never reach it.
  return dir == 0 ? -1 : dir;
}

void JavaHashMapOrder::Treeify(uint32_t head, Ids* table) {
  uint32_t root = kNil;
  for (uint32_t x = head; x != kNil; x = nodes_[x].next) {
    left_[x] = right_[x] = kNil;
    if (root == kNil) {
      parent_[x] = kNil;
      red_[x] = 0;
      root = x;
      continue;
    }
    for (uint32_t p = root;;) {
      const int dir = TreeDirection(x, p);
      uint32_t& child = dir <= 0 ? left_[p] : right_[p];
      if (child == kNil) {
        parent_[x] = p;
        child = x;
        root = BalanceInsertion(root, x);
        break;
      }
      p = child;
    }
  }
  MoveRootToFront(table, root);
}

void JavaHashMapOrder::PutTreeVal(uint32_t slot, uint32_t x) {
  ++stats_.tree_inserts;
  uint32_t root = HeadOf(table_[slot]);
  while (parent_[root] != kNil) root = parent_[root];
  for (uint32_t p = root;;) {
    const int dir = TreeDirection(x, p);
    uint32_t& child = dir <= 0 ? left_[p] : right_[p];
    if (child == kNil) {
      // The new node joins the iteration chain right after its tree parent.
      const uint32_t pn = nodes_[p].next;
      child = x;
      nodes_[x].next = pn;
      nodes_[p].next = x;
      parent_[x] = prev_[x] = p;
      if (pn != kNil) prev_[pn] = x;
      MoveRootToFront(&table_, BalanceInsertion(root, x));
      return;
    }
    p = child;
  }
}

uint32_t JavaHashMapOrder::RotateLeft(uint32_t root, uint32_t p) {
  if (p == kNil) return root;
  const uint32_t r = right_[p];
  if (r == kNil) return root;
  const uint32_t rl = left_[r];
  right_[p] = rl;
  if (rl != kNil) parent_[rl] = p;
  const uint32_t pp = parent_[p];
  parent_[r] = pp;
  if (pp == kNil) {
    root = r;
    red_[r] = 0;
  } else if (left_[pp] == p) {
    left_[pp] = r;
  } else {
    right_[pp] = r;
  }
  left_[r] = p;
  parent_[p] = r;
  return root;
}

uint32_t JavaHashMapOrder::RotateRight(uint32_t root, uint32_t p) {
  if (p == kNil) return root;
  const uint32_t l = left_[p];
  if (l == kNil) return root;
  const uint32_t lr = right_[l];
  left_[p] = lr;
  if (lr != kNil) parent_[lr] = p;
  const uint32_t pp = parent_[p];
  parent_[l] = pp;
  if (pp == kNil) {
    root = l;
    red_[l] = 0;
  } else if (right_[pp] == p) {
    right_[pp] = l;
  } else {
    left_[pp] = l;
  }
  right_[l] = p;
  parent_[p] = l;
  return root;
}

// Red-black insertion fix-up, case for case as Java's balanceInsertion (the exact rotations
// matter: they pick the root, which moves to the front of the bin's chain).
uint32_t JavaHashMapOrder::BalanceInsertion(uint32_t root, uint32_t x) {
  red_[x] = 1;
  for (;;) {
    uint32_t xp = parent_[x];
    if (xp == kNil) {
      red_[x] = 0;
      return x;
    }
    uint32_t xpp;
    if (!red_[xp] || (xpp = parent_[xp]) == kNil) return root;
    const uint32_t xppl = left_[xpp];
    if (xp == xppl) {
      const uint32_t xppr = right_[xpp];
      if (xppr != kNil && red_[xppr]) {
        red_[xppr] = 0;
        red_[xp] = 0;
        red_[xpp] = 1;
        x = xpp;
      } else {
        if (x == right_[xp]) {
          x = xp;
          root = RotateLeft(root, x);
          xp = parent_[x];
          xpp = xp == kNil ? kNil : parent_[xp];
        }
        if (xp != kNil) {
          red_[xp] = 0;
          if (xpp != kNil) {
            red_[xpp] = 1;
            root = RotateRight(root, xpp);
          }
        }
      }
    } else {
      if (xppl != kNil && red_[xppl]) {
        red_[xppl] = 0;
        red_[xp] = 0;
        red_[xpp] = 1;
        x = xpp;
      } else {
        if (x == left_[xp]) {
          x = xp;
          root = RotateRight(root, x);
          xp = parent_[x];
          xpp = xp == kNil ? kNil : parent_[xp];
        }
        if (xp != kNil) {
          red_[xp] = 0;
          if (xpp != kNil) {
            red_[xpp] = 1;
            root = RotateLeft(root, xpp);
          }
        }
      }
    }
  }
}

void JavaHashMapOrder::MoveRootToFront(Ids* table, uint32_t root) {
  if (root == kNil) return;
  // Only called on tree bins, whose slot carries the kTreeBin flag.
  const uint32_t slot = Slot(root, table->size());
  const uint32_t first = HeadOf((*table)[slot]);
  if (root == first) return;
  (*table)[slot] = root | kTreeBin;
  const uint32_t rp = prev_[root];
  const uint32_t rn = nodes_[root].next;
  if (rn != kNil) prev_[rn] = rp;
  if (rp != kNil) nodes_[rp].next = rn;
  if (first != kNil) prev_[first] = root;
  nodes_[root].next = first;
  prev_[root] = kNil;
}

}  // namespace pyfileindex::java
