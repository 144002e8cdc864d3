// Java hashCode/compareTo emulation: vectors checked against a JDK 17 runtime and Paimon's
// BinaryString (see the format specs in the shared spec folder).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "java/hash_codes.h"

namespace pyfileindex::java {
namespace {

int Sign(int v) { return (v > 0) - (v < 0); }

TEST(JavaHashCodes, BinaryStringVectors) {
  struct Vector {
    std::string bytes;
    int32_t hash;
  };
  const std::vector<Vector> vectors = {
      {"", 142593372},
      {"a", 1485273170},
      {"abcd", -396302900},
      {"abcde", 814637928},
      {"hello", -1008564952},
      {"Alice", -1597477876},
      {"Bob", 549595493},
      {"asdfghjkl123_0", 2138333737},
      {"\xc3\xa9", 2119106806},                  // "é": tail bytes are sign-extended
      {"\xe4\xb8\xad\xe6\x96\x87", -1261019299},  // "中文"
      {"\xf0\x9f\x98\x80", 1877935379},           // U+1F600, one full word
  };
  for (const Vector& v : vectors) {
    EXPECT_EQ(BinaryStringHashCode(v.bytes), v.hash) << "bytes of \"" << v.bytes << "\"";
  }
}

TEST(JavaHashCodes, BinaryStringHashReadsWordsLittleEndianAtAnyAlignment) {
  // The same bytes at an odd address must hash the same (memcpy loads, no alignment needs).
  std::vector<uint8_t> buffer(1 + 14);
  const std::string text = "asdfghjkl123_0";
  std::copy(text.begin(), text.end(), buffer.begin() + 1);
  EXPECT_EQ(BinaryStringHashCode(buffer.data() + 1, text.size()), 2138333737);
}

TEST(JavaHashCodes, StringVectors) {
  struct Vector {
    std::string utf8;
    int32_t hash;
  };
  const std::vector<Vector> vectors = {
      {"", 0},
      {"a", 97},
      {"abcd", 2987074},
      {"abcde", 92599395},
      {"hello", 99162322},
      {"\xc3\xa9", 233},
      {"\xe4\xb8\xad\xe6\x96\x87", 646394},
      {"\xf0\x9f\x98\x80", 1772899},  // surrogates D83D DE00: 31*0xD83D + 0xDE00
      {"f0", 3210},
      {"f4", 3214},
      {"bloom-filter", 862074498},
      {"bitmap", -1388777169},
      {"bsi", 97848},
      {"range-bitmap", 1818407871},
      {"Aa", 2112},
      {"BB", 2112},
      {std::string("a\0b", 3), 93315},  // NUL is an ordinary char: 31*(31*97+0)+98
  };
  for (const Vector& v : vectors) {
    Result<int32_t> hash = StringHashCode(v.utf8);
    ASSERT_TRUE(hash.ok()) << hash.status().ToString();
    EXPECT_EQ(*hash, v.hash) << "\"" << v.utf8 << "\"";
  }
  // Overflow wraps like Java int arithmetic: "polygenelubricants".hashCode() == Integer.MIN_VALUE.
  EXPECT_EQ(*StringHashCode("polygenelubricants"), std::numeric_limits<int32_t>::min());
}

TEST(JavaHashCodes, StringHashRejectsInvalidUtf8) {
  for (const std::string& bad : {std::string("\xff"), std::string("a\xc3"),
                                 std::string("\xed\xa0\x80"), std::string("\xc0\x80")}) {
    Result<int32_t> hash = StringHashCode(bad);
    ASSERT_FALSE(hash.ok());
    EXPECT_EQ(hash.status().code(), StatusCode::kInvalidArgument);
  }
}

TEST(JavaHashCodes, NumericHashCodes) {
  EXPECT_EQ(IntegerHashCode(-7), -7);
  EXPECT_EQ(ShortHashCode(-1), -1);
  EXPECT_EQ(ByteHashCode(-128), -128);
  EXPECT_EQ(BooleanHashCode(true), 1231);
  EXPECT_EQ(BooleanHashCode(false), 1237);
  EXPECT_EQ(LongHashCode(1), 1);
  EXPECT_EQ(LongHashCode(-1), 0);  // 0xFFFFFFFF ^ 0xFFFFFFFF
  EXPECT_EQ(LongHashCode((int64_t{5} << 32) | 5), 0);
  EXPECT_EQ(LongHashCode(int64_t{1} << 32), 1);
  EXPECT_EQ(LongHashCode(std::numeric_limits<int64_t>::min()), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(LongHashCode(1745542802000123LL), -626951308);
}

TEST(JavaHashCodes, FloatAndDoubleHashCodes) {
  EXPECT_EQ(FloatHashCode(1.0f), 0x3f800000);
  EXPECT_EQ(FloatHashCode(0.0f), 0);
  EXPECT_EQ(FloatHashCode(-0.0f), static_cast<int32_t>(0x80000000u));
  EXPECT_EQ(FloatHashCode(std::numeric_limits<float>::quiet_NaN()), 0x7fc00000);
  EXPECT_EQ(FloatHashCode(IntBitsToFloat(static_cast<int32_t>(0xffc12345u))), 0x7fc00000);
  EXPECT_EQ(FloatToRawIntBits(IntBitsToFloat(0x7f812345)), 0x7f812345);
  EXPECT_EQ(FloatToIntBits(IntBitsToFloat(0x7f812345)), 0x7fc00000);

  EXPECT_EQ(DoubleHashCode(1.0), 0x3ff00000);
  EXPECT_EQ(DoubleHashCode(0.0), 0);
  EXPECT_EQ(DoubleHashCode(-0.0), static_cast<int32_t>(0x80000000u));
  EXPECT_EQ(DoubleHashCode(std::numeric_limits<double>::quiet_NaN()), 0x7ff80000);
  EXPECT_EQ(DoubleToLongBits(LongBitsToDouble(static_cast<int64_t>(0xfff0000000000001ull))),
            kCanonicalDoubleNaNBits);
  EXPECT_EQ(DoubleHashCode(1.5), 0x3ff80000);
  EXPECT_EQ(DoubleHashCode(LongBitsToDouble((int64_t{3} << 32) | 3)), 0);
}

TEST(JavaHashCodes, FloatCompareMatchesJava) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  // Ascending in Java's Float.compare order.
  const std::vector<float> ascending = {-inf, -1.5f, -0.0f, 0.0f, 1e-45f, 2.0f, inf, nan};
  for (size_t i = 0; i < ascending.size(); ++i) {
    for (size_t j = 0; j < ascending.size(); ++j) {
      EXPECT_EQ(Sign(FloatCompare(ascending[i], ascending[j])), Sign(static_cast<int>(i) - static_cast<int>(j)))
          << i << " vs " << j;
    }
  }
  // All NaNs are one value.
  EXPECT_EQ(FloatCompare(nan, IntBitsToFloat(static_cast<int32_t>(0xffc00001u))), 0);
}

TEST(JavaHashCodes, DoubleCompareMatchesJava) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> ascending = {-inf, -1e300, -0.0, 0.0, 5e-324, 1.0, inf, nan};
  for (size_t i = 0; i < ascending.size(); ++i) {
    for (size_t j = 0; j < ascending.size(); ++j) {
      EXPECT_EQ(Sign(DoubleCompare(ascending[i], ascending[j])), Sign(static_cast<int>(i) - static_cast<int>(j)))
          << i << " vs " << j;
    }
  }
  EXPECT_EQ(DoubleCompare(nan, -nan), 0);
}

TEST(JavaHashCodes, SignedAndBooleanCompare) {
  EXPECT_LT(CompareSigned(-2, 1), 0);
  EXPECT_GT(CompareSigned(std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()), 0);
  EXPECT_EQ(CompareSigned(7, 7), 0);
  EXPECT_LT(BooleanCompare(false, true), 0);
  EXPECT_GT(BooleanCompare(true, false), 0);
  EXPECT_EQ(BooleanCompare(true, true), 0);
}

TEST(JavaHashCodes, StringCompareToUsesUtf16CodeUnits) {
  const std::string e000 = "\xee\x80\x80";        // U+E000, UTF-16 unit E000
  const std::string u10ffff = "\xf4\x8f\xbf\xbf";  // U+10FFFF, units DBFF DFFF
  const std::string u1f600 = "\xf0\x9f\x98\x80";   // U+1F600, units D83D DE00
  const std::string u1f9e1 = "\xf0\x9f\xa7\xa1";   // U+1F9E1, units D83E DDE1
  // Byte order says U+E000 < U+10FFFF; Java's char order says the opposite.
  EXPECT_LT(BinaryStringCompareTo(e000, u10ffff), 0);
  EXPECT_GT(StringCompareTo(e000, u10ffff), 0);
  EXPECT_LT(StringCompareTo(u10ffff, e000), 0);
  EXPECT_LT(StringCompareTo(u1f600, u1f9e1), 0);
  EXPECT_LT(StringCompareTo("x" + u1f600, "x" + e000), 0);
  EXPECT_LT(StringCompareTo("\xed\x9f\xbf", u1f600), 0);  // U+D7FF < any surrogate
  // Same differing code point but within the second byte: é (C3 A9) vs ê (C3 AA).
  EXPECT_LT(StringCompareTo("\xc3\xa9", "\xc3\xaa"), 0);
  // Prefix and equality.
  EXPECT_LT(StringCompareTo("Aa", "AaB"), 0);
  EXPECT_GT(StringCompareTo("b", "abc"), 0);
  EXPECT_EQ(StringCompareTo(u1f600 + "z", u1f600 + "z"), 0);
  EXPECT_EQ(StringCompareTo("", ""), 0);
  EXPECT_LT(StringCompareTo("", "a"), 0);
  EXPECT_LT(StringCompareTo("AaAa", "AaBB"), 0);
  EXPECT_LT(StringCompareTo("AaBB", "BBAa"), 0);
}

TEST(JavaHashCodes, BinaryStringCompareIsUnsignedBytesThenLength) {
  EXPECT_LT(BinaryStringCompareTo("a", "\xc3\xa9"), 0);  // 0x61 < 0xC3 unsigned
  EXPECT_GT(BinaryStringCompareTo("\xff", "\x7f"), 0);
  EXPECT_LT(BinaryStringCompareTo("Bob", "Bobby"), 0);
  EXPECT_GT(BinaryStringCompareTo("Bobby", "Bob"), 0);
  EXPECT_EQ(BinaryStringCompareTo("Tony", "Tony"), 0);
  EXPECT_EQ(BinaryStringCompareTo("", ""), 0);
  EXPECT_LT(BinaryStringCompareTo("", "a"), 0);
  EXPECT_LT(BinaryStringCompareTo("Alice", "Bob"), 0);
}

}  // namespace
}  // namespace pyfileindex::java
