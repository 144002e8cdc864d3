#include "index/bitmap/distinct_estimate.h"

#include <algorithm>
#include <cmath>

namespace pyfileindex::index::bitmap {

void DistinctSample::Start(size_t capacity) {
  unsigned log2 = 4;
  while ((size_t{1} << log2) < 2 * capacity) ++log2;  // at most half full
  slots_.assign(size_t{1} << log2, 0);
  mask_ = slots_.size() - 1;
  shift_ = 64 - log2;
  sampled_ = 0;
  repeats_ = 0;
}

double DistinctInDraws(double domain, double rows) {
  if (domain <= 0) return 0;
  // domain * (1 - e^(-rows / domain)), without cancellation for rows << domain.
  return -domain * std::expm1(-rows / domain);
}

double DomainForSample(double sampled, double distinct) {
  // DistinctInDraws(domain, sampled) rises with the domain, from 0 towards `sampled`: the
  // domain that gives `distinct` is found by bisection (in doubling steps, then halving).
  double low = distinct;
  double high = std::max(2 * distinct, 1.0);
  while (DistinctInDraws(high, sampled) < distinct && high < 1e18) high *= 2;
  for (int round = 0; round < 64; ++round) {
    const double middle = 0.5 * (low + high);
    if (DistinctInDraws(middle, sampled) < distinct) {
      low = middle;
    } else {
      high = middle;
    }
  }
  return high;
}

double DistinctSample::ExpectedDistinct(double rows) const {
  if (sampled_ < 2) return 0;
  const double sampled = static_cast<double>(sampled_);
  const double repeats = static_cast<double>(std::min(repeats_ + 1, sampled_ - 1));
  return DistinctInDraws(DomainForSample(sampled, sampled - repeats), rows);
}

}  // namespace pyfileindex::index::bitmap
