// The grammar of the file index's table option keys and column lists: the one reading of them,
// used by the index plan and offered to callers (the Python table layer renames columns in
// them for files written under older schemas).
#include <string>
#include <string_view>
#include <vector>

#include "java/java_text.h"
#include "pyfileindex/index_declarations.h"

namespace pyfileindex {

namespace {

constexpr std::string_view kPrefix = "file-index.";
constexpr std::string_view kColumnsSuffix = ".columns";

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

IndexOptionKey ParseIndexOptionKey(std::string_view key) {
  IndexOptionKey parsed;
  if (key.compare(0, kPrefix.size(), kPrefix) != 0) return parsed;  // kOther
  const std::string_view rest = key.substr(kPrefix.size());
  // file-index.<type>.columns, <type> not empty (it may hold dots).
  if (rest.size() > kColumnsSuffix.size() && EndsWith(rest, kColumnsSuffix)) {
    parsed.kind = IndexOptionKey::Kind::kColumns;
    parsed.index_type = std::string(rest.substr(0, rest.size() - kColumnsSuffix.size()));
    return parsed;
  }
  if (rest == "in-manifest-threshold" || rest == "read.enabled") {
    parsed.kind = IndexOptionKey::Kind::kTableLevel;
    return parsed;
  }
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    const size_t dot = rest.find('.', start);
    parts.emplace_back(rest.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  if (parts.size() != 3) {
    parsed.kind = IndexOptionKey::Kind::kIgnored;
    return parsed;
  }
  parsed.kind = IndexOptionKey::Kind::kIndexOption;
  parsed.index_type = std::move(parts[0]);
  parsed.column = std::move(parts[1]);
  parsed.option = std::move(parts[2]);
  return parsed;
}

std::vector<IndexColumnName> SplitIndexColumns(std::string_view value) {
  std::vector<IndexColumnName> names;
  for (std::string_view piece : java::Split(value, ',')) {
    IndexColumnName name;
    name.blank = java::IsWhitespaceOnly(piece);
    name.name = std::string(java::Trim(piece));
    names.push_back(std::move(name));
  }
  return names;
}

}  // namespace pyfileindex
