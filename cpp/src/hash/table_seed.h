// TableSeed: a random 64-bit value, drawn once per process, that the writers' hash tables mix
// into every key's hash.
//
// The tables only find keys (ids come from first appearance, the output's order from sorting
// or from Java's HashMap model), so the seed changes no output byte. It keeps column values
// chosen to land in one slot (Mix64 and the byte hashes can be inverted) from turning every
// lookup into a walk along one chain: without the seed such values are computable offline.
#pragma once

#include <cstdint>

namespace pyfileindex::hash {

uint64_t TableSeed();

}  // namespace pyfileindex::hash
