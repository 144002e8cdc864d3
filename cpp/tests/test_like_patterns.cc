// LIKE / STARTS WITH / ENDS WITH / CONTAINS: the pattern module, and the answers of every index
// type compared with a brute-force matcher over random string columns.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "pattern/like_pattern.h"
#include "pyfileindex/reader.h"
#include "pyfileindex/writer.h"

namespace pyfileindex {
namespace {

using pattern::LikePattern;

Options OneOption(const std::string& key, const std::string& value) {
  Options options;
  options.Set(key, value);
  return options;
}

bool Like(const std::string& value, const std::string& pattern,
          std::optional<std::string> escape = std::nullopt) {
  auto compiled = LikePattern::Compile(pattern, escape);
  EXPECT_TRUE(compiled.ok()) << compiled.status().ToString();
  return compiled.ok() && compiled->Matches(value);
}

TEST(LikePattern, Wildcards) {
  EXPECT_TRUE(Like("abc", "abc"));
  EXPECT_FALSE(Like("abcd", "abc"));
  EXPECT_TRUE(Like("abc", "a%"));
  EXPECT_TRUE(Like("a", "a%"));
  EXPECT_FALSE(Like("ba", "a%"));
  EXPECT_TRUE(Like("xxabyyab", "%ab"));
  EXPECT_TRUE(Like("abc", "a_c"));
  EXPECT_FALSE(Like("ac", "a_c"));
  EXPECT_TRUE(Like("", "%"));
  EXPECT_TRUE(Like("", ""));
  EXPECT_FALSE(Like("a", ""));
  EXPECT_FALSE(Like("", "_"));
  EXPECT_TRUE(Like("aXbYc", "a%b%c"));
  EXPECT_FALSE(Like("aXbYd", "a%b%c"));
  EXPECT_TRUE(Like("mississippi", "%iss%pi"));
  EXPECT_TRUE(Like("aaa", "%a%a%a%"));
  EXPECT_FALSE(Like("aa", "%a%a%a%"));
  EXPECT_FALSE(Like("ab", "abc%"));  // a pattern longer than the value
}

TEST(LikePattern, UnderscoreIsOneCodePoint) {
  const std::string e_acute = "\xc3\xa9";         // 2 bytes
  const std::string euro = "\xe2\x82\xac";        // 3 bytes
  const std::string emoji = "\xf0\x9f\x98\x80";   // 4 bytes
  EXPECT_TRUE(Like(e_acute, "_"));
  EXPECT_TRUE(Like(euro, "_"));
  EXPECT_TRUE(Like(emoji, "_"));
  EXPECT_FALSE(Like(emoji, "__"));
  EXPECT_TRUE(Like("a" + euro + "b", "a_b"));
  EXPECT_TRUE(Like(emoji + e_acute, "%_" + e_acute));
  EXPECT_TRUE(Like("x" + euro, "%" + euro));
  // A stray byte of a value counts as one character; a pattern must be UTF-8.
  EXPECT_TRUE(LikePattern::Compile("a_bc")->Matches("a\xe2" "bc"));
  EXPECT_TRUE(LikePattern::Compile("a__")->Matches("a\xe2\x82"));  // truncated: two strays
  EXPECT_FALSE(LikePattern::Compile("\xe2%").ok());
}

TEST(LikePattern, Escape) {
  EXPECT_TRUE(Like("a%", "a!%", "!"));
  EXPECT_FALSE(Like("ab", "a!%", "!"));
  EXPECT_TRUE(Like("a_b", "a!_b", "!"));
  EXPECT_FALSE(Like("axb", "a!_b", "!"));
  EXPECT_TRUE(Like("a!", "a!!", "!"));
  EXPECT_TRUE(Like("100%x", "%!%%", "!"));
  // Without ESCAPE every character stands for itself but % and _.
  EXPECT_TRUE(Like("a\\b", "a\\b"));
  EXPECT_TRUE(Like("a\\b", "a\\_"));
  // A multi-byte escape character.
  EXPECT_TRUE(Like("50%", "50\xc2\xa7%", "\xc2\xa7"));
}

TEST(LikePattern, RejectsMalformedEscapes) {
  EXPECT_FALSE(LikePattern::Compile("a!", std::string("!")).ok());   // escape at the end
  EXPECT_FALSE(LikePattern::Compile("a!b", std::string("!")).ok());  // escapes no wildcard
  EXPECT_FALSE(LikePattern::Compile("a", std::string("")).ok());
  EXPECT_FALSE(LikePattern::Compile("a", std::string("ab")).ok());
  EXPECT_FALSE(LikePattern::Compile("\xff", std::nullopt).ok());    // not UTF-8
  auto status = LikePattern::Compile("a!b", std::string("!")).status();
  EXPECT_NE(status.ToString().find("escape"), std::string::npos) << status.ToString();
}

TEST(LikePattern, LiteralPrefix) {
  auto p = LikePattern::Compile("ab%");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->literal_prefix(), "ab");
  EXPECT_TRUE(p->prefix_only());
  p = LikePattern::Compile("ab%%");
  EXPECT_TRUE(p->prefix_only());
  p = LikePattern::Compile("ab%c");
  EXPECT_EQ(p->literal_prefix(), "ab");
  EXPECT_FALSE(p->prefix_only());
  p = LikePattern::Compile("a!%%", std::string("!"));
  EXPECT_EQ(p->literal_prefix(), "a%");
  EXPECT_TRUE(p->prefix_only());
  p = LikePattern::Compile("abc");
  EXPECT_EQ(p->literal_prefix(), "abc");
  EXPECT_FALSE(p->prefix_only());
  p = LikePattern::Compile("%");
  EXPECT_EQ(p->literal_prefix(), "");
  EXPECT_TRUE(p->prefix_only());
  EXPECT_TRUE(LikePattern::StartsWith("a%").prefix_only());
  EXPECT_TRUE(LikePattern::StartsWith("a%").Matches("a%z"));
  EXPECT_FALSE(LikePattern::StartsWith("a%").Matches("az"));
  EXPECT_TRUE(LikePattern::EndsWith("_z").Matches("a_z"));
  EXPECT_FALSE(LikePattern::EndsWith("_z").Matches("az"));
  EXPECT_TRUE(LikePattern::Contains("").Matches(""));
  EXPECT_TRUE(LikePattern::Contains("b_").Matches("ab_c"));
  EXPECT_FALSE(LikePattern::Contains("b_").Matches("abxc"));
}

// ---- index answers against brute force ------------------------------------------------------

// Code points of UTF-8 text (the test's own decoding, independent of the pattern module).
std::vector<std::string> CodePoints(const std::string& text) {
  std::vector<std::string> out;
  for (size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const size_t n = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    out.push_back(text.substr(i, n));
    i += n;
  }
  return out;
}

// Reference LIKE: recursion over code points, wildcards given as pattern tokens.
struct Token {
  enum Kind { kChar, kOne, kAny } kind;
  std::string text;
};
bool MatchFrom(const std::vector<std::string>& v, size_t i, const std::vector<Token>& p,
               size_t j) {
  if (j == p.size()) return i == v.size();
  if (p[j].kind == Token::kAny) {
    for (size_t k = i; k <= v.size(); ++k) {
      if (MatchFrom(v, k, p, j + 1)) return true;
    }
    return false;
  }
  if (i == v.size()) return false;
  if (p[j].kind == Token::kChar && v[i] != p[j].text) return false;
  return MatchFrom(v, i + 1, p, j + 1);
}
std::vector<Token> Tokens(const std::string& pattern, const std::string& escape) {
  std::vector<Token> out;
  const auto units = CodePoints(pattern);
  for (size_t i = 0; i < units.size(); ++i) {
    if (!escape.empty() && units[i] == escape) {
      out.push_back({Token::kChar, units[++i]});
    } else if (units[i] == "%") {
      out.push_back({Token::kAny, ""});
    } else if (units[i] == "_") {
      out.push_back({Token::kOne, ""});
    } else {
      out.push_back({Token::kChar, units[i]});
    }
  }
  return out;
}

// An Arrow utf8 column with nulls, owning its buffers.
struct StringArrow {
  std::vector<int32_t> offsets{0};
  std::string data;
  std::vector<uint8_t> validity;
  const void* buffers[3] = {};
  ArrowArray array{};
  ArrowSchema schema{};

  StringArrow(const std::vector<std::optional<std::string>>& values, const char* name) {
    validity.assign((values.size() + 7) / 8, 0);
    int64_t nulls = 0;
    for (size_t i = 0; i < values.size(); ++i) {
      if (values[i]) {
        data += *values[i];
        validity[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
      } else {
        ++nulls;
      }
      offsets.push_back(static_cast<int32_t>(data.size()));
    }
    buffers[0] = validity.data();
    buffers[1] = offsets.data();
    buffers[2] = data.data();
    array = ArrowArray{static_cast<int64_t>(values.size()), nulls, 0, 3, 0, buffers, nullptr,
                       nullptr, [](ArrowArray* a) { a->release = nullptr; }, nullptr};
    schema = ArrowSchema{"u", name, nullptr, ARROW_FLAG_NULLABLE, 0, nullptr, nullptr,
                         [](ArrowSchema* s) { s->release = nullptr; }, nullptr};
  }
};

std::vector<uint8_t> Container(const std::vector<std::optional<std::string>>& values,
                               const Options& options) {
  StringArrow column(values, "s");
  auto writer = FileIndexWriter::Make({{"s", *ParseDataType("STRING")}}, options);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  if (!writer.ok()) return {};
  Status written = (*writer)->WriteColumn("s", column.schema, column.array);
  EXPECT_TRUE(written.ok()) << written.ToString();
  auto bytes = (*writer)->Finish();
  EXPECT_TRUE(bytes.ok() && bytes->has_value());
  return bytes.ok() && bytes->has_value() ? **bytes : std::vector<uint8_t>();
}

struct IndexSetup {
  const char* label;
  std::vector<std::pair<std::string, std::string>> options;
  bool exact;
};

const std::vector<IndexSetup>& Setups() {
  static const std::vector<IndexSetup> setups = {
      {"bitmap v1", {{"file-index.bitmap.columns", "s"}, {"file-index.bitmap.s.version", "1"}},
       true},
      {"bitmap v2", {{"file-index.bitmap.columns", "s"}}, true},
      {"bitmap v2, small blocks",
       {{"file-index.bitmap.columns", "s"}, {"file-index.bitmap.s.index-block-size", "64b"}},
       true},
      {"range-bitmap", {{"file-index.range-bitmap.columns", "s"}}, true},
      {"range-bitmap, small chunks",
       {{"file-index.range-bitmap.columns", "s"}, {"file-index.range-bitmap.s.chunk-size", "64b"}},
       true},
      {"bloom-filter", {{"file-index.bloom-filter.columns", "s"}}, false},
  };
  return setups;
}

std::vector<std::optional<std::string>> RandomValues(std::mt19937* rng, size_t rows) {
  // A small alphabet with wildcard characters, the escape and multi-byte code points, so
  // patterns both match and miss often.
  static const std::vector<std::string> alphabet = {
      "a", "b", "c", "%", "_", "!", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80"};
  std::vector<std::string> distinct;
  const size_t keys = 1 + (*rng)() % 60;
  for (size_t k = 0; k < keys; ++k) {
    std::string value;
    const size_t length = (*rng)() % 5;
    for (size_t i = 0; i < length; ++i) value += alphabet[(*rng)() % alphabet.size()];
    distinct.push_back(value);
  }
  std::vector<std::optional<std::string>> values;
  for (size_t r = 0; r < rows; ++r) {
    if ((*rng)() % 7 == 0) {
      values.push_back(std::nullopt);
    } else {
      values.push_back(distinct[(*rng)() % distinct.size()]);
    }
  }
  return values;
}

// A random well-formed pattern (escape "!" when `escaped`) over the same alphabet.
std::string RandomPattern(std::mt19937* rng, bool escaped) {
  static const std::vector<std::string> pieces = {"a", "b", "c", "%", "_", "\xc3\xa9",
                                                  "\xe2\x82\xac", "\xf0\x9f\x98\x80"};
  std::string pattern;
  const size_t length = (*rng)() % 5;
  for (size_t i = 0; i < length; ++i) {
    if (escaped && (*rng)() % 4 == 0) {
      static const char* const kEscaped[] = {"!%", "!_", "!!"};
      pattern += kEscaped[(*rng)() % 3];
    } else {
      pattern += pieces[(*rng)() % pieces.size()];
    }
  }
  return pattern;
}

std::vector<uint32_t> Answer(const FileIndexReader& reader, const PredicatePtr& predicate,
                             size_t rows, bool* remain, bool* skip) {
  auto result = reader.Evaluate(*predicate);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  *remain = result.ok() && result->kind() == FileIndexResult::Kind::kRemain;
  *skip = result.ok() && result->kind() == FileIndexResult::Kind::kSkip;
  if (!result.ok() || !result->is_rows()) return {};
  (void)rows;
  return result->rows().ToVector();
}

TEST(LikeIndexes, AnswersEqualBruteForce) {
  std::mt19937 rng(20261128);
  for (int round = 0; round < 40; ++round) {
    const size_t rows = 1 + rng() % 300;
    const auto values = RandomValues(&rng, rows);
    std::vector<std::pair<PredicatePtr, std::vector<bool>>> cases;
    for (int q = 0; q < 25; ++q) {
      const bool escaped = q % 2 == 0;
      const std::string pattern = RandomPattern(&rng, escaped);
      const std::string escape = escaped ? "!" : "";
      const auto tokens = Tokens(pattern, escape);
      std::vector<Literal> literals = {Literal::String(pattern)};
      if (escaped) literals.push_back(Literal::String(escape));
      std::vector<bool> like(rows), not_like(rows);
      for (size_t r = 0; r < rows; ++r) {
        const bool match = values[r] && MatchFrom(CodePoints(*values[r]), 0, tokens, 0);
        like[r] = values[r] && match;
        not_like[r] = values[r] && !match;
      }
      cases.emplace_back(Predicate::Leaf(PredicateOp::kLike, "s", literals), like);
      cases.emplace_back(Predicate::Leaf(PredicateOp::kNotLike, "s", literals), not_like);
      // The string functions over a random value's piece.
      const std::string piece = values[rng() % rows].value_or("a").substr(0, rng() % 3);
      std::vector<bool> starts(rows), ends(rows), contains(rows);
      for (size_t r = 0; r < rows; ++r) {
        if (!values[r]) continue;
        const std::string& v = *values[r];
        starts[r] = v.compare(0, piece.size(), piece) == 0 && v.size() >= piece.size();
        ends[r] = v.size() >= piece.size() &&
                  v.compare(v.size() - piece.size(), piece.size(), piece) == 0;
        contains[r] = v.find(piece) != std::string::npos;
      }
      cases.emplace_back(Predicate::Leaf(PredicateOp::kStartsWith, "s", {Literal::String(piece)}),
                         starts);
      cases.emplace_back(Predicate::Leaf(PredicateOp::kEndsWith, "s", {Literal::String(piece)}),
                         ends);
      cases.emplace_back(Predicate::Leaf(PredicateOp::kContains, "s", {Literal::String(piece)}),
                         contains);
    }
    for (const IndexSetup& setup : Setups()) {
      Options options;
      for (const auto& [key, value] : setup.options) options.Set(key, value);
      const std::vector<uint8_t> bytes = Container(values, options);
      auto reader = FileIndexReader::Open(bytes.data(), bytes.size(),
                                          {{"s", *ParseDataType("STRING")}});
      ASSERT_TRUE(reader.ok()) << reader.status().ToString();
      for (const auto& [predicate, expected] : cases) {
        bool remain = false, skip = false;
        const std::vector<uint32_t> got = Answer(**reader, predicate, rows, &remain, &skip);
        std::vector<uint32_t> want;
        for (size_t r = 0; r < rows; ++r) {
          if (expected[r]) want.push_back(static_cast<uint32_t>(r));
        }
        if (!setup.exact) {
          EXPECT_TRUE(remain) << setup.label << ": " << predicate->ToString();
          continue;
        }
        ASSERT_FALSE(remain) << setup.label << ": " << predicate->ToString();
        EXPECT_EQ(skip, want.empty()) << setup.label << ": " << predicate->ToString();
        EXPECT_EQ(got, want) << setup.label << ": " << predicate->ToString() << " round "
                             << round;
      }
    }
  }
}

TEST(LikeIndexes, ScanLimitAnswersRemain) {
  std::vector<std::optional<std::string>> values;
  for (int i = 0; i < 200; ++i) values.push_back("k" + std::to_string(i));
  for (const IndexSetup& setup : Setups()) {
    if (!setup.exact) continue;
    Options options;
    for (const auto& [key, value] : setup.options) options.Set(key, value);
    const std::vector<uint8_t> bytes = Container(values, options);
    OpenOptions open;
    open.dictionary_scan_limit = 50;
    auto reader = FileIndexReader::Open(bytes.data(), bytes.size(),
                                        {{"s", *ParseDataType("STRING")}}, open);
    ASSERT_TRUE(reader.ok());
    auto scan = (*reader)->Evaluate(
        *Predicate::Leaf(PredicateOp::kEndsWith, "s", {Literal::String("7")}));
    ASSERT_TRUE(scan.ok());
    EXPECT_EQ(scan->kind(), FileIndexResult::Kind::kRemain) << setup.label;
    // A prefix run within the limit is still answered.
    auto run = (*reader)->Evaluate(
        *Predicate::Leaf(PredicateOp::kLike, "s", {Literal::String("k19_")}));
    ASSERT_TRUE(run.ok());
    ASSERT_TRUE(run->is_rows()) << setup.label;
    EXPECT_EQ(run->rows().ToVector(),
              (std::vector<uint32_t>{190, 191, 192, 193, 194, 195, 196, 197, 198, 199}));
    // A prefix on range-bitmap reads no entries: answered whatever the limit.
    auto prefix = (*reader)->Evaluate(
        *Predicate::Leaf(PredicateOp::kStartsWith, "s", {Literal::String("k")}));
    ASSERT_TRUE(prefix.ok());
    const bool range = std::string(setup.label).rfind("range-bitmap", 0) == 0;
    EXPECT_EQ(prefix->kind() == FileIndexResult::Kind::kRemain, !range) << setup.label;
  }
  OpenOptions negative;
  negative.dictionary_scan_limit = -1;
  std::vector<uint8_t> bytes = Container(values, OneOption("file-index.bitmap.columns", "s"));
  EXPECT_FALSE(FileIndexReader::Open(bytes.data(), bytes.size(),
                                     {{"s", *ParseDataType("STRING")}}, negative)
                   .ok());
}

TEST(LikeIndexes, ScatteredCodesOfRangeBitmap) {
  // 50 matching codes 10 apart: too many runs for one slice walk each, so the rows' codes
  // are decoded once; rows repeat values and some are NULL.
  std::vector<std::optional<std::string>> values;
  std::vector<uint32_t> want;
  for (int i = 0; i < 1500; ++i) {
    if (i % 11 == 0) {
      values.push_back(std::nullopt);
      continue;
    }
    char text[8];
    std::snprintf(text, sizeof text, "k%03d", (i * 7) % 500);
    values.push_back(std::string(text));
    if (text[3] == '7') want.push_back(static_cast<uint32_t>(i));
  }
  const std::vector<uint8_t> bytes =
      Container(values, OneOption("file-index.range-bitmap.columns", "s"));
  auto reader =
      FileIndexReader::Open(bytes.data(), bytes.size(), {{"s", *ParseDataType("STRING")}});
  ASSERT_TRUE(reader.ok());
  auto result = (*reader)->Evaluate(
      *Predicate::Leaf(PredicateOp::kEndsWith, "s", {Literal::String("7")}));
  ASSERT_TRUE(result.ok() && result->is_rows());
  EXPECT_EQ(result->rows().ToVector(), want);
}

TEST(LikeIndexes, BadLeavesAreInvalidArgument) {
  std::vector<std::optional<std::string>> values = {std::string("a")};
  std::vector<uint8_t> bytes = Container(values, OneOption("file-index.bitmap.columns", "s"));
  auto reader =
      FileIndexReader::Open(bytes.data(), bytes.size(), {{"s", *ParseDataType("STRING")}});
  ASSERT_TRUE(reader.ok());
  auto check = [&](PredicatePtr p, const char* needle) {
    auto result = (*reader)->Evaluate(*p);
    ASSERT_FALSE(result.ok()) << p->ToString();
    EXPECT_EQ(result.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(result.status().ToString().find(needle), std::string::npos)
        << result.status().ToString();
  };
  check(Predicate::Leaf(PredicateOp::kLike, "s", {}), "literal");
  check(Predicate::Leaf(PredicateOp::kLike, "s",
                        {Literal::String("a"), Literal::String("!"), Literal::String("x")}),
        "literal");
  check(Predicate::Leaf(PredicateOp::kStartsWith, "s",
                        {Literal::String("a"), Literal::String("b")}),
        "literal");
  check(Predicate::Leaf(PredicateOp::kLike, "s", {Literal::Int(1)}), "string");
  check(Predicate::Leaf(PredicateOp::kLike, "s", {Literal::String("a!"), Literal::String("!")}),
        "escape");
  check(Predicate::Leaf(PredicateOp::kLike, "s", {Literal::String("a"), Literal::String("")}),
        "escape");
  check(Predicate::Leaf(PredicateOp::kLike, "s", {Literal::Null()}), "NULL");
}

TEST(LikeIndexes, NonStringColumnIsInvalidArgument) {
  Options options = OneOption("file-index.bitmap.columns", "x");
  static const std::vector<int32_t> ints = {1, 2};
  static const void* buffers[2] = {nullptr, ints.data()};
  ArrowArray column{2, 0, 0, 2, 0, buffers, nullptr, nullptr,
                    [](ArrowArray* a) { a->release = nullptr; }, nullptr};
  ArrowSchema schema{"i", "x", nullptr, ARROW_FLAG_NULLABLE, 0, nullptr, nullptr,
                     [](ArrowSchema* s) { s->release = nullptr; }, nullptr};
  auto writer = FileIndexWriter::Make({{"x", *ParseDataType("INT")}}, options);
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->WriteColumn("x", schema, column).ok());
  auto bytes = (*writer)->Finish();
  ASSERT_TRUE(bytes.ok() && bytes->has_value());
  auto reader = FileIndexReader::Open((*bytes)->data(), (*bytes)->size(),
                                      {{"x", *ParseDataType("INT")}});
  ASSERT_TRUE(reader.ok());
  auto result = (*reader)->Evaluate(
      *Predicate::Leaf(PredicateOp::kStartsWith, "x", {Literal::String("1")}));
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().ToString().find("CHAR or VARCHAR"), std::string::npos);
}

}  // namespace
}  // namespace pyfileindex
