// Java RoaringBitmap32.serialize() bytes straight from a sorted row list, without building a
// CRoaring bitmap (the writer's hot path for keys with few rows per 65536-row chunk, where one
// heap container per chunk per key would dominate the cost).
//
// Container choice is Java's content-only rule for bitmaps built by add() (spec 3.3, verified
// against Java in VERIFIED-roaring-hashmap.md): per chunk of c values in r runs,
// c <= 4096: run iff 2 + 4r < 2c, else array; c > 4096: run iff 2 + 4r < 8192, else bitmap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pyfileindex::index::bitmap {

// Appends the portable serialization of the set {rows[0], ..., rows[n-1]} to `out`.
// `rows` must be strictly ascending.
void AppendJavaRoaring(const uint32_t* rows, size_t n, std::vector<uint8_t>* out);

}  // namespace pyfileindex::index::bitmap
