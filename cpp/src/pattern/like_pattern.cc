#include "pattern/like_pattern.h"

#include <utility>

#include "io/utf8.h"

namespace pyfileindex::pattern {

LikePattern::LikePattern(std::vector<Element> elements) : elements_(std::move(elements)) {
  size_t i = 0;
  if (i < elements_.size() && elements_[i].kind == Kind::kText) {
    literal_prefix_ = elements_[i].text;
    ++i;
  }
  prefix_only_ = i + 1 == elements_.size() && elements_[i].kind == Kind::kAny;
}

Result<LikePattern> LikePattern::Compile(std::string_view pattern,
                                         std::optional<std::string_view> escape) {
  PFI_RETURN_NOT_OK(io::ValidateUtf8(pattern, "LIKE pattern"));
  if (escape) {
    PFI_RETURN_NOT_OK(io::ValidateUtf8(*escape, "LIKE escape"));
    if (escape->empty() || CodePointBytes(escape->data(), escape->size()) != escape->size()) {
      return Status::InvalidArgument("LIKE escape must be one character, got '",
                                     std::string(*escape), "'");
    }
  }
  std::vector<Element> elements;
  auto add = [&elements](Kind kind, std::string_view text) {
    if (kind == Kind::kText && !elements.empty() && elements.back().kind == Kind::kText) {
      elements.back().text.append(text);
    } else if (kind != Kind::kAny || elements.empty() || elements.back().kind != Kind::kAny) {
      elements.push_back(Element{kind, std::string(text)});
    }
  };
  size_t pos = 0;
  while (pos < pattern.size()) {
    const size_t length = CodePointBytes(pattern.data() + pos, pattern.size() - pos);
    const std::string_view unit = pattern.substr(pos, length);
    pos += length;
    if (escape && unit == *escape) {
      if (pos == pattern.size()) {
        return Status::InvalidArgument("LIKE pattern '", std::string(pattern),
                                       "' ends with its escape character");
      }
      const size_t next = CodePointBytes(pattern.data() + pos, pattern.size() - pos);
      const std::string_view escaped = pattern.substr(pos, next);
      if (escaped != "%" && escaped != "_" && escaped != *escape) {
        return Status::InvalidArgument("LIKE pattern '", std::string(pattern),
                                       "': the escape character may only precede %, _ or "
                                       "itself, not '", std::string(escaped), "'");
      }
      add(Kind::kText, escaped);
      pos += next;
    } else if (unit == "%") {
      add(Kind::kAny, {});
    } else if (unit == "_") {
      add(Kind::kOne, {});
    } else {
      add(Kind::kText, unit);
    }
  }
  return LikePattern(std::move(elements));
}

LikePattern LikePattern::StartsWith(std::string_view text) {
  std::vector<Element> elements;
  if (!text.empty()) elements.push_back(Element{Kind::kText, std::string(text)});
  elements.push_back(Element{Kind::kAny, {}});
  return LikePattern(std::move(elements));
}

LikePattern LikePattern::EndsWith(std::string_view text) {
  std::vector<Element> elements{Element{Kind::kAny, {}}};
  if (!text.empty()) elements.push_back(Element{Kind::kText, std::string(text)});
  return LikePattern(std::move(elements));
}

LikePattern LikePattern::Contains(std::string_view text) {
  std::vector<Element> elements{Element{Kind::kAny, {}}};
  if (!text.empty()) {
    elements.push_back(Element{Kind::kText, std::string(text)});
    elements.push_back(Element{Kind::kAny, {}});
  }
  return LikePattern(std::move(elements));
}

bool LikePattern::Matches(std::string_view value) const {
  // Greedy matching that remembers the last `%`: when a later element fails, that `%` takes
  // one more code point and matching resumes after it. Earlier `%`s never need to take more,
  // since the last one can absorb anything they would, so the work is O(value * pattern).
  size_t e = 0, v = 0;
  size_t star_element = SIZE_MAX, star_value = 0;
  const size_t n = value.size();
  while (true) {
    if (e < elements_.size()) {
      const Element& element = elements_[e];
      if (element.kind == Kind::kAny) {
        star_element = e++;
        star_value = v;
        continue;
      }
      if (element.kind == Kind::kOne && v < n) {
        v += CodePointBytes(value.data() + v, n - v);
        ++e;
        continue;
      }
      if (element.kind == Kind::kText && value.substr(v, element.text.size()) == element.text) {
        v += element.text.size();
        ++e;
        continue;
      }
    } else if (v == n || (!elements_.empty() && elements_.back().kind == Kind::kAny)) {
      return true;  // a trailing `%` takes whatever is left
    }
    // A mismatch (or elements used up before the value): give the last `%` one more code point.
    if (star_element == SIZE_MAX || star_value >= n) return false;
    star_value += CodePointBytes(value.data() + star_value, n - star_value);
    v = star_value;
    e = star_element + 1;
  }
}

}  // namespace pyfileindex::pattern
