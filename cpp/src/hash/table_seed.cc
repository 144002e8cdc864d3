#include "hash/table_seed.h"

#include <chrono>
#include <random>

#include "hash/mix64.h"

namespace pyfileindex::hash {
namespace {

uint64_t DrawSeed() {
  uint64_t seed = 0;
  try {
    std::random_device device;
    seed = (uint64_t{device()} << 32) ^ device();
  } catch (...) {
    // No entropy source: the clock and this function's address still vary between runs.
  }
  seed ^= static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  seed ^= reinterpret_cast<uintptr_t>(&DrawSeed);
  return Mix64(seed);
}

}  // namespace

uint64_t TableSeed() {
  static const uint64_t seed = DrawSeed();
  return seed;
}

}  // namespace pyfileindex::hash
