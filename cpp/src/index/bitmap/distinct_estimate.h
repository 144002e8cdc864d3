// DistinctSample: how many distinct keys a column is heading for, from a sample of its rows.
//
// A writer's per-key arrays (the lookup table, the keys, their Java hash codes, the rare keys'
// row lists) grow by doubling: each growth faults fresh memory in and hands the outgrown
// buffer back, so a column with a key per row faults its per-key memory in about twice, and
// rehashes its table a dozen times. The rows of a batch are all there from its start, so a
// sample of them tells, before most keys arrive, how many there will be: the arrays are sized
// once. The estimate assumes keys drawn at random from a domain (the domain's size solved from
// the sample's repeats, then the distinct keys of that many rows): a skewed column repeats
// more in the sample than later and is underestimated, which costs only the doubling it would
// have had anyway.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pyfileindex::index::bitmap {

class DistinctSample {
 public:
  // Room for `capacity` sampled keys; the set is reused across samples.
  void Start(size_t capacity);
  // A sampled row's key, as a well-mixed 64-bit hash of it (equal keys, equal hashes).
  void Add(uint64_t hash) {
    ++sampled_;
    const uint64_t tagged = hash | 1;  // 0 marks an empty slot
    size_t slot = static_cast<size_t>(hash >> shift_);
    for (;;) {
      uint64_t& s = slots_[slot];
      if (s == 0) {
        s = tagged;
        return;
      }
      if (s == tagged) {
        ++repeats_;
        return;
      }
      slot = (slot + 1) & mask_;
    }
  }
  size_t sampled() const { return sampled_; }
  size_t repeats() const { return repeats_; }

  // The distinct keys expected among `rows` rows of the sampled column. One repeat more than
  // seen is assumed (a sample without repeats does not make the domain infinite), so the
  // estimate leans low: a table sized from it may still grow once, never start far too large.
  double ExpectedDistinct(double rows) const;

 private:
  std::vector<uint64_t> slots_;
  size_t mask_ = 0;
  unsigned shift_ = 64;
  size_t sampled_ = 0;
  size_t repeats_ = 0;
};

// The size of the domain that `sampled` random draws cover with `distinct` distinct values
// (distinct < sampled), and the distinct values `rows` draws from a domain of `domain` cover.
// Exposed for tests.
double DomainForSample(double sampled, double distinct);
double DistinctInDraws(double domain, double rows);

}  // namespace pyfileindex::index::bitmap
