// RecentValues: drops byte values (strings, binaries) a bloom-filter writer has added already,
// before they are hashed, as seen in a small direct-mapped table of recently added values.
//
// XXH64 of a short string is a chain of dependent 64-bit multiplies, most of a bloom-filter
// build without AVX-512. Low-cardinality string columns (a status, a country code, a
// sorted key) repeat a few values throughout a file, and each repeat would hash the same bytes
// again only to set bits already set. A short value (tuning.h: kRecentValueMaxBytes) is
// recognised from its exact bytes (never from a hash of them), so skipping it cannot change
// the filter. Like RecentHashes, the table is consulted only while it pays: a block where more
// than a quarter of the values are new pauses it for a few blocks, and blocks where nearly all
// are new (no table that stays in cache would hold the column's values) pause it for twice as
// long each time, up to a bound (tuning.h).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "index/bloom_filter/tuning.h"

namespace pyfileindex::index::bloom_filter {

class RecentValues {
 public:
  // The largest table for a filter of `bit_set_bytes`: its slot bits, or 0 when even the
  // smallest table would take too much of it (too small a filter to bother).
  static int MaxSlotBitsFor(size_t bit_set_bytes) {
    for (int bits = tuning::kRecentValuesMaxSlotBits; bits >= tuning::kRecentValuesMinSlotBits;
         --bits) {
      if ((size_t{1} << bits) * sizeof(Key) * 3 <= bit_set_bytes) return bits;
    }
    return 0;
  }

  // `max_slot_bits` from MaxSlotBitsFor (> 0).
  explicit RecentValues(int max_slot_bits)
      : max_slot_bits_(max_slot_bits) {
    Reset(std::max(max_slot_bits - 2, tuning::kRecentValuesMinSlotBits));
  }

  size_t slot_count() const { return slots_.size(); }

  // False while paused (counting the block down): the caller hashes the block as it is.
  bool Consult() {
    if (paused_ == 0) return true;
    --paused_;
    return false;
  }

  // Writes the values of `values[0, count)` not found in the table to `out` (which must not
  // overlap them), in order, records those it can hold, and returns how many were written.
  //
  // Stores happen on a miss only (a branch, well predicted while the table pays). Storing
  // the slot and out[kept] on every row without a branch, as RecentHashes does, is slower
  // here: with a repeat a few rows later the next row's slot load may read the store before
  // it, so the CPU ends up waiting for each store before the next row's loads.
  size_t KeepNew(const std::string_view* values, size_t count, std::string_view* out) {
    size_t kept = 0;
    for (size_t i = 0; i < count; ++i) {
      const std::string_view value = values[i];
      if (value.size() > tuning::kRecentValueMaxBytes) {
        out[kept++] = value;
        continue;
      }
      const Key key = KeyOf(value);
      Key& slot = slots_[SlotOf(key)];
      if (!slot.Matches(key)) {
        slot.Assign(key);
        out[kept++] = value;
      }
    }
    // Every miss is a mispredicted branch as well as a hash: past a quarter of the values the
    // table costs more than it saves.
    if (4 * kept > count) {
      paused_ = next_pause_;
      // Nearly all new: the growth below would not help either, so the next check can wait
      // longer. Otherwise (a thrashed table, which may grow) the checks stay frequent.
      next_pause_ = 8 * kept > 7 * count
                        ? std::min(2 * next_pause_, tuning::kRecentValuesMaxPauseBlocks)
                        : tuning::kRecentValuesPauseBlocks;
    } else {
      next_pause_ = tuning::kRecentValuesPauseBlocks;
    }
    rows_ += count;
    // Grown only where a larger table would pay: many repeats found, yet many values missed.
    // Where nearly every value is new (tens of thousands of distinct values) it stays small:
    // no table that stays in cache would hold them.
    if (8 * kept > count && 4 * kept <= 3 * count &&
        rows_ >= tuning::kRecentValuesGrowAfterRows && slot_bits_ < max_slot_bits_) {
      Reset(max_slot_bits_);  // forgets what it saw: those values are hashed once more
    }
    return kept;
  }

 private:
  // A value of up to 32 bytes as its size and four words that together cover every byte (they
  // may overlap, and unused words are zero): for one size, equal keys mean equal bytes. Every
  // load stays within the value.
  struct Key {
    uint64_t words[4];  // cover up to tuning::kRecentValueMaxBytes (KeyOf)
    uint64_t size;
    // Word by word, in registers: compared or copied as one block, the key goes through the
    // stack, and the wide reload of its narrow stores stalls (store forwarding fails).
    bool Matches(const Key& other) const {
      return ((words[0] ^ other.words[0]) | (words[1] ^ other.words[1]) |
              (words[2] ^ other.words[2]) | (words[3] ^ other.words[3]) |
              (size ^ other.size)) == 0;
    }
    void Assign(const Key& other) {
      words[0] = other.words[0];
      words[1] = other.words[1];
      words[2] = other.words[2];
      words[3] = other.words[3];
      size = other.size;
    }
  };
  static_assert(sizeof(Key::words) >= tuning::kRecentValueMaxBytes,
                "a key holds every byte of a value it records");

  static uint64_t Load64(const char* p) {
    uint64_t word;
    std::memcpy(&word, p, sizeof word);
    return word;
  }
  static uint64_t Load32(const char* p) {
    uint32_t word;
    std::memcpy(&word, p, sizeof word);
    return word;
  }

  static Key KeyOf(std::string_view value) {
    const char* p = value.data();
    const size_t size = value.size();
    Key key{{0, 0, 0, 0}, size};
    if (size >= 8) {
      // First and last eight bytes; from 17 bytes on also bytes 8-15 and the eight before
      // the last eight. Clamped offsets keep the loads in bounds, and a mask zeroes the middle
      // words of shorter values: written as conditional offsets, GCC made a branch of them,
      // mispredicted on every other row of 12-20 byte strings.
      const uint64_t long_value = uint64_t{0} - static_cast<uint64_t>(size > 16);
      key.words[0] = Load64(p);
      key.words[1] = Load64(p + (8 & long_value)) & long_value;
      key.words[2] = Load64(p + ((size - 16) & long_value)) & long_value;
      key.words[3] = Load64(p + size - 8);
    } else if (size >= 4) {
      key.words[0] = Load32(p) | Load32(p + size - 4) << 32;
    } else if (size > 0) {
      key.words[0] = static_cast<uint8_t>(p[0]) | uint64_t{static_cast<uint8_t>(p[size / 2])} << 8 |
                     uint64_t{static_cast<uint8_t>(p[size - 1])} << 16;
    }
    return key;
  }

  size_t SlotOf(const Key& key) const {
    const uint64_t mixed = (key.words[0] ^ (key.words[1] << 1) ^ (key.words[2] >> 1) ^
                            ((key.words[3] << 32) | (key.words[3] >> 32)) ^ key.size) *
                           0x9E3779B97F4A7C15ull;
    return static_cast<size_t>(mixed >> (64 - slot_bits_));
  }

  void Reset(int slot_bits) {
    slot_bits_ = slot_bits;
    // An entry no value can match: sizes above tuning::kRecentValueMaxBytes are never stored.
    slots_.assign(size_t{1} << slot_bits, Key{{0, 0, 0, 0}, tuning::kRecentValueMaxBytes + 1});
  }

  std::vector<Key> slots_;
  int slot_bits_ = 0;
  int max_slot_bits_;
  uint64_t rows_ = 0;  // consulted so far
  uint32_t paused_ = 0;
  // The pause a block that does not pay starts.
  uint32_t next_pause_ = tuning::kRecentValuesPauseBlocks;
};

}  // namespace pyfileindex::index::bloom_filter
