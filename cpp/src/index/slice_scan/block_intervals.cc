#include "index/slice_scan/block_intervals.h"

#include <algorithm>
#include <utility>

#include "io/endian.h"

namespace pyfileindex::index::slice_scan {

Status RunsRead::status() const {
  if (inside_) return Status::OK();
  return Status::Corrupt("bit slice container with a run past its end");
}

void ToIntervals(const RoaringView& view, size_t i, Intervals* out) {
  out->clear();
  const uint8_t* data = view.data(i);
  const uint32_t count = view.count(i);
  if (view.kind(i) == RoaringView::Kind::kRun) {
    out->reserve(2 * size_t{count});
    for (uint32_t r = 0; r < count; ++r) {
      const uint32_t start = io::LoadU16LE(data + 4 * r);
      out->push_back(start);
      // Cut at the block's end: only an unchecked damaged run reaches past it, and its
      // reader answers Corrupt (RoaringView::RunsEndInside), but nothing may write past a
      // block meanwhile.
      out->push_back(std::min<uint32_t>(start + io::LoadU16LE(data + 4 * r + 2) + 1,
                                        uint32_t{1} << 16));
    }
    return;
  }
  for (uint32_t j = 0; j < count; ++j) {
    const uint32_t v = io::LoadU16LE(data + 2 * j);
    if (!out->empty() && out->back() == v) {
      out->back() = v + 1;
    } else {
      out->push_back(v);
      out->push_back(v + 1);
    }
  }
}

bool ReadAsWords(const RoaringView& slice, size_t i, size_t tie_intervals) {
  // A word step under sparse ties reads an eighth of the block's 1024 words.
  constexpr size_t kMaxIntervals = 128;
  return slice.kind(i) == RoaringView::Kind::kBitmap || slice.count(i) > kMaxIntervals ||
         tie_intervals > kMaxIntervals;
}

namespace {

// The walk of SplitBy: each piece of x inside s goes to inside(from, to), each piece outside
// to outside(from, to), in order.
template <typename Inside, typename Outside>
void Split(const Intervals& x, const Intervals& s, Inside inside, Outside outside) {
  const size_t sn = s.size() / 2;
  size_t j = 0;
  for (size_t k = 0; k < x.size(); k += 2) {
    uint32_t cur = x[k];
    const uint32_t end = x[k + 1];
    while (j < sn && s[2 * j + 1] <= cur) ++j;
    while (cur < end) {
      if (j >= sn || s[2 * j] >= end) {
        outside(cur, end);
        break;
      }
      const uint32_t from = std::max(s[2 * j], cur);
      const uint32_t to = std::min(s[2 * j + 1], end);
      if (from > cur) outside(cur, from);
      if (to > from) inside(from, to);
      cur = std::max(cur, to);
      if (s[2 * j + 1] > end) break;  // s's interval reaches into x's next one
      ++j;
    }
  }
}

}  // namespace

void SplitBy(const Intervals& x, const Intervals& s, Intervals* inside, Intervals* outside) {
  auto into = [](Intervals* out) {
    return [out](uint32_t from, uint32_t to) {
      if (out == nullptr) return;
      out->push_back(from);
      out->push_back(to);
    };
  };
  Split(x, s, into(inside), into(outside));
}

uint32_t RowsInside(const Intervals& x, const Intervals& s) {
  uint32_t rows = 0;
  Split(x, s, [&](uint32_t from, uint32_t to) { rows += to - from; }, [](uint32_t, uint32_t) {});
  return rows;
}

void SetIntervals(const Intervals& v, uint64_t* words) {
  for (size_t k = 0; k < v.size(); k += 2) {
    const uint32_t begin = v[k];
    const uint32_t end = v[k + 1];  // exclusive, <= 65536
    if (begin >= end) continue;
    const uint32_t first = begin >> 6;
    const uint32_t last = (end - 1) >> 6;
    const uint64_t head = ~uint64_t{0} << (begin & 63);
    const uint64_t tail = ~uint64_t{0} >> (63 - ((end - 1) & 63));
    if (first == last) {
      words[first] |= head & tail;
      continue;
    }
    words[first] |= head;
    std::fill(words + first + 1, words + last, ~uint64_t{0});
    words[last] |= tail;
  }
}

void SortAndJoin(Intervals* v) {
  // Pieces from a single step come in order already and are not sorted again.
  bool ordered = true;
  for (size_t k = 2; k < v->size() && ordered; k += 2) ordered = (*v)[k - 2] <= (*v)[k];
  if (!ordered) {
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    pairs.reserve(v->size() / 2);
    for (size_t k = 0; k < v->size(); k += 2) pairs.emplace_back((*v)[k], (*v)[k + 1]);
    std::sort(pairs.begin(), pairs.end());
    for (size_t k = 0; k < pairs.size(); ++k) {
      (*v)[2 * k] = pairs[k].first;
      (*v)[2 * k + 1] = pairs[k].second;
    }
  }
  // In order of their starts: each piece joins the last kept one where it overlaps or touches.
  size_t kept = 0;
  for (size_t k = 0; k < v->size(); k += 2) {
    if (kept > 0 && (*v)[k] <= (*v)[kept - 1]) {
      (*v)[kept - 1] = std::max((*v)[kept - 1], (*v)[k + 1]);
    } else {
      (*v)[kept] = (*v)[k];
      (*v)[kept + 1] = (*v)[k + 1];
      kept += 2;
    }
  }
  v->resize(kept);
}

uint32_t IntervalRows(const Intervals& v) {
  uint32_t rows = 0;
  for (size_t k = 0; k < v.size(); k += 2) rows += v[k + 1] - v[k];
  return rows;
}

}  // namespace pyfileindex::index::slice_scan
