// Replays the calls Java makes on a small java.util.HashMap (names, option keys) and reports
// its iteration order. Keys are compared by value; order comes from java::JavaHashMapOrder.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "java/java_hash_map.h"

namespace pyfileindex::container {

template <typename Key>
class JavaMapReplay {
 public:
  using Mode = java::JavaHashMapOrder::Mode;
  using HashFn = std::function<int32_t(const Key&)>;
  // Java compareTo for keys of a Comparable class; tree bins only (>= 8 colliding keys).
  using CompareFn = std::function<int(const Key&, const Key&)>;

  JavaMapReplay(Mode mode, HashFn hash, CompareFn compare)
      : hash_(std::move(hash)),
        compare_(std::move(compare)),
        order_(mode, [this](uint32_t a, uint32_t b) { return compare_(keys_[a], keys_[b]); }) {}

  JavaMapReplay(const JavaMapReplay&) = delete;
  JavaMapReplay& operator=(const JavaMapReplay&) = delete;

  // One put / computeIfAbsent call; returns the key's id (its first-insertion index).
  size_t Call(const Key& key) {
    for (size_t i = 0; i < keys_.size(); ++i) {
      if (keys_[i] == key) {
        order_.TouchExisting();
        return i;
      }
    }
    keys_.push_back(key);
    order_.InsertNew(hash_(key));
    return keys_.size() - 1;
  }

  // Key ids in Java iteration order.
  std::vector<uint32_t> Order() const { return order_.IterationOrder(); }
  const Key& key(size_t id) const { return keys_[id]; }
  size_t size() const { return keys_.size(); }

 private:
  HashFn hash_;
  CompareFn compare_;
  std::vector<Key> keys_;
  java::JavaHashMapOrder order_;
};

}  // namespace pyfileindex::container
