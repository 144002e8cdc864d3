// Java modified UTF-8 (writeUTF/readUTF body) <-> standard UTF-8.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "io/mutf8.h"
#include "io/utf8.h"

namespace pyfileindex::io {
namespace {

std::vector<uint8_t> Bytes(std::initializer_list<int> values) {
  std::vector<uint8_t> out;
  for (int v : values) out.push_back(static_cast<uint8_t>(v));
  return out;
}

std::vector<uint8_t> Encode(const std::string& utf8) {
  Result<std::vector<uint8_t>> encoded = EncodeModifiedUtf8(utf8);
  EXPECT_TRUE(encoded.ok()) << encoded.status().ToString();
  return encoded.ok() ? *encoded : std::vector<uint8_t>{};
}

std::string FromHex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

TEST(ModifiedUtf8, EncodesLikeJavaWriteUTF) {
  // Vectors verified on a JDK (DataOutputStream.writeUTF without its length prefix).
  EXPECT_EQ(Encode("a"), Bytes({0x61}));
  EXPECT_EQ(Encode(std::string("\0", 1)), Bytes({0xc0, 0x80}));
  EXPECT_EQ(Encode("\xc3\xa9"), Bytes({0xc3, 0xa9}));                // é
  EXPECT_EQ(Encode("\xe2\x82\xac"), Bytes({0xe2, 0x82, 0xac}));      // €
  EXPECT_EQ(Encode("\xf0\x9f\x98\x80"),                              // U+1F600
            Bytes({0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80}));
  EXPECT_EQ(Encode(std::string("a\0b", 3)), Bytes({0x61, 0xc0, 0x80, 0x62}));
  EXPECT_EQ(Encode(""), Bytes({}));
  EXPECT_EQ(Encode("\xf4\x8f\xbf\xbf"), Bytes({0xed, 0xaf, 0xbf, 0xed, 0xbf, 0xbf}));  // U+10FFFF
}

TEST(ModifiedUtf8, MatchesAJavaGeneratedMixedString) {
  // From a JDK 17 run: UTF-8 bytes, then writeUTF output (with its 2-byte length 0x000f).
  const std::string utf8 = FromHex("da96e1899b2df29589adefb48a");
  const std::string java = FromHex("da96e1899b2deda894edb9adefb48a");
  const std::vector<uint8_t> expected(java.begin(), java.end());
  EXPECT_EQ(Encode(utf8), expected);
  EXPECT_EQ(*ModifiedUtf8Length(utf8), 15u);
  Result<std::string> decoded = DecodeModifiedUtf8(ByteSpan(expected));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(*decoded, utf8);
}

TEST(ModifiedUtf8, EncodedLength) {
  EXPECT_EQ(*ModifiedUtf8Length(""), 0u);
  EXPECT_EQ(*ModifiedUtf8Length("bitmap"), 6u);
  // NUL inside the 8-byte ASCII fast path still takes two bytes.
  EXPECT_EQ(*ModifiedUtf8Length(std::string("abcdefgh\0ijk", 12)), 13u);
  EXPECT_EQ(*ModifiedUtf8Length(std::string("abc\0", 4)), 5u);
  EXPECT_EQ(*ModifiedUtf8Length("\xf0\x9f\x98\x80x"), 7u);
  EXPECT_EQ(*ModifiedUtf8Length("\xe4\xb8\xad\xe6\x96\x87"), 6u);
}

TEST(ModifiedUtf8, RejectsInvalidUtf8Input) {
  const std::vector<std::string> bad = {
      "\xff",                  // never valid
      "abc\x80",               // stray continuation byte
      "\xc3",                  // truncated
      "\xe2\x82",              // truncated
      "\xc0\x80",              // overlong NUL (standard UTF-8 forbids it)
      "\xe0\x80\xaf",          // overlong
      "\xed\xa0\x80",          // encoded surrogate
      "\xf4\x90\x80\x80",      // > U+10FFFF
      "\xf0\x9f\x98",          // truncated 4-byte
  };
  for (const std::string& s : bad) {
    Result<size_t> length = ModifiedUtf8Length(s);
    ASSERT_FALSE(length.ok()) << "accepted invalid input of " << s.size() << " bytes";
    EXPECT_EQ(length.status().code(), StatusCode::kInvalidArgument);
    std::vector<uint8_t> out = {1, 2};
    EXPECT_FALSE(AppendModifiedUtf8(s, &out).ok());
    EXPECT_EQ(out, Bytes({1, 2})) << "output modified on error";
  }
  Status status = ModifiedUtf8Length("abc\x80").status();
  EXPECT_NE(status.message().find("byte offset 3"), std::string::npos) << status.message();
}

TEST(ModifiedUtf8, DecodesWhatJavaReadUTFAccepts) {
  auto decode = [](std::vector<uint8_t> bytes) { return DecodeModifiedUtf8(ByteSpan(bytes)); };
  EXPECT_EQ(*decode(Bytes({0xc0, 0x80})), std::string("\0", 1));
  EXPECT_EQ(*decode(Bytes({0x00})), std::string("\0", 1));  // readUTF accepts a raw zero too
  EXPECT_EQ(*decode(Bytes({0xc1, 0x81})), "A");             // overlong forms are not rejected
  EXPECT_EQ(*decode(Bytes({0xe0, 0x81, 0x81})), "A");
  EXPECT_EQ(*decode(Bytes({0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80})), "\xf0\x9f\x98\x80");
  EXPECT_EQ(*decode(Bytes({0x62, 0x73, 0x69})), "bsi");
  EXPECT_EQ(*decode(Bytes({})), "");
}

TEST(ModifiedUtf8, RejectsWhatJavaReadUTFRejects) {
  struct Case {
    std::vector<uint8_t> bytes;
    size_t offset;
  };
  const std::vector<Case> cases = {
      {Bytes({0x61, 0x80}), 1},              // continuation byte as lead
      {Bytes({0xf0, 0x9f, 0x98, 0x80}), 0},  // 4-byte form does not exist in modified UTF-8
      {Bytes({0x61, 0x62, 0xc3}), 2},        // partial character at end
      {Bytes({0xe2, 0x82}), 0},
      {Bytes({0xc3, 0x41}), 1},              // bad continuation
      {Bytes({0xe2, 0x82, 0x41}), 2},
  };
  for (const Case& c : cases) {
    Result<std::string> decoded = DecodeModifiedUtf8(ByteSpan(c.bytes));
    ASSERT_FALSE(decoded.ok());
    EXPECT_EQ(decoded.status().code(), StatusCode::kCorrupt);
    EXPECT_NE(decoded.status().message().find("byte offset " + std::to_string(c.offset)),
              std::string::npos)
        << decoded.status().message();
  }
}

TEST(ModifiedUtf8, UnpairedSurrogatesHaveNoUtf8Form) {
  const std::vector<std::vector<uint8_t>> cases = {
      Bytes({0xed, 0xa0, 0xbd}),                    // lone high surrogate at the end
      Bytes({0xed, 0xb8, 0x80}),                    // lone low surrogate
      Bytes({0xed, 0xa0, 0xbd, 0x61}),              // high surrogate followed by 'a'
      Bytes({0xed, 0xa0, 0xbd, 0xed, 0xa0, 0xbd}),  // two high surrogates
  };
  for (const auto& bytes : cases) {
    Result<std::string> decoded = DecodeModifiedUtf8(ByteSpan(bytes));
    ASSERT_FALSE(decoded.ok());
    EXPECT_EQ(decoded.status().code(), StatusCode::kNotSupported);
  }
}

TEST(ModifiedUtf8, RoundTripsEveryKindOfCodePoint) {
  // A deterministic walk over the code space, skipping surrogates.
  std::string text;
  uint32_t state = 12345;
  for (int i = 0; i < 5000; ++i) {
    state = state * 1103515245u + 12345u;
    uint32_t cp = (state >> 8) % 0x110000;
    if (i % 4 == 0) cp &= 0x7f;
    if (i % 4 == 1) cp &= 0x7ff;
    if (cp >= 0xD800 && cp <= 0xDFFF) continue;
    if (cp < 0x80) {
      text.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      text.push_back(static_cast<char>(0xC0 | (cp >> 6)));
      text.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      text.push_back(static_cast<char>(0xE0 | (cp >> 12)));
      text.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      text.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      text.push_back(static_cast<char>(0xF0 | (cp >> 18)));
      text.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      text.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      text.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }
  ASSERT_TRUE(ValidateUtf8(text, "test text").ok());
  std::vector<uint8_t> encoded = Encode(text);
  EXPECT_EQ(encoded.size(), *ModifiedUtf8Length(text));
  for (uint8_t b : encoded) {
    EXPECT_NE(b, 0) << "modified UTF-8 never holds a raw zero byte";
    EXPECT_LT(b, 0xF0) << "modified UTF-8 never holds a 4-byte lead";
  }
  Result<std::string> decoded = DecodeModifiedUtf8(ByteSpan(encoded));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(*decoded, text);
}

TEST(Utf8, ValidateNamesTheOffendingByte) {
  EXPECT_TRUE(ValidateUtf8("plain \xc3\xa9 text \xf0\x9f\x98\x80", "name").ok());
  Status status = ValidateUtf8("ok\xc3(", "column name");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "column name is not valid UTF-8 (bad byte 0xc3 at byte offset 2)");
}

TEST(Utf8, ForEachUtf16UnitSplitsSupplementaryCharacters) {
  std::vector<uint16_t> units;
  ASSERT_TRUE(ForEachUtf16Unit("a\xc3\xa9\xf0\x9f\x98\x80", [&](uint16_t u) { units.push_back(u); }));
  EXPECT_EQ(units, (std::vector<uint16_t>{0x61, 0xe9, 0xd83d, 0xde00}));
  size_t bad = 0;
  EXPECT_FALSE(ForEachUtf16Unit("ab\xff", [](uint16_t) {}, &bad));
  EXPECT_EQ(bad, 2u);
}

}  // namespace
}  // namespace pyfileindex::io
