// JavaHashMapOrder against iteration orders observed on a real OpenJDK 17 java.util.HashMap.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "java/hash_codes.h"
#include "java/java_hash_map.h"

namespace pyfileindex::java {
namespace {

using Mode = JavaHashMapOrder::Mode;

// Replays one call per element of `calls` (repeats are calls on existing keys, as in Paimon's
// per-row computeIfAbsent) and returns the final iteration order as key values.
template <typename Key, typename HashFn, typename CompareFn>
std::vector<Key> Replay(Mode mode, const std::vector<Key>& calls, HashFn hash, CompareFn compare,
                        size_t* capacity = nullptr) {
  std::vector<Key> keys;  // by id
  JavaHashMapOrder map(mode, [&keys, &compare](uint32_t a, uint32_t b) {
    return compare(keys[a], keys[b]);
  });
  for (const Key& key : calls) {
    bool seen = false;
    for (const Key& k : keys) seen = seen || (k == key);
    if (seen) {
      map.TouchExisting();
    } else {
      keys.push_back(key);
      map.InsertNew(hash(key));
    }
  }
  if (capacity != nullptr) *capacity = map.capacity();
  std::vector<Key> order;
  for (uint32_t id : map.IterationOrder()) order.push_back(keys[id]);
  return order;
}

std::vector<int32_t> ReplayInts(Mode mode, const std::vector<int32_t>& calls,
                                size_t* capacity = nullptr) {
  return Replay(mode, calls, IntegerHashCode,
                [](int32_t a, int32_t b) { return CompareSigned(a, b); }, capacity);
}

std::vector<int64_t> ReplayLongs(Mode mode, const std::vector<int64_t>& calls) {
  return Replay(mode, calls, LongHashCode, [](int64_t a, int64_t b) { return CompareSigned(a, b); });
}

std::vector<std::string> ReplayStrings(Mode mode, const std::vector<std::string>& calls,
                                       size_t* capacity = nullptr) {
  return Replay(
      mode, calls, [](const std::string& s) { return StringHashCode(s).ValueOrDie(); },
      [](const std::string& a, const std::string& b) { return StringCompareTo(a, b); }, capacity);
}

std::vector<std::string> ReplayBinaryStrings(Mode mode, const std::vector<std::string>& calls,
                                             size_t* capacity = nullptr) {
  return Replay(
      mode, calls, [](const std::string& s) { return BinaryStringHashCode(s); },
      [](const std::string& a, const std::string& b) { return BinaryStringCompareTo(a, b); },
      capacity);
}

// ---- vectors from the verified HashMap study (model and Java 17 agree) ----------------------

TEST(JavaHashMapOrder, SmallChainPutAppendsComputeIfAbsentPrepends) {
  EXPECT_EQ(ReplayInts(Mode::kPut, {1, 17, 33}), (std::vector<int32_t>{1, 17, 33}));
  EXPECT_EQ(ReplayInts(Mode::kComputeIfAbsent, {1, 17, 33}), (std::vector<int32_t>{33, 17, 1}));
}

TEST(JavaHashMapOrder, ThirteenKeysResizeTiming) {
  const std::vector<int32_t> keys = {16, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  const std::vector<int32_t> resized = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16};
  size_t capacity = 0;
  // put resizes right after the 13th insertion.
  EXPECT_EQ(ReplayInts(Mode::kPut, keys, &capacity), resized);
  EXPECT_EQ(capacity, 32u);
  // computeIfAbsent holds 13 keys at capacity 16 until the next call...
  EXPECT_EQ(ReplayInts(Mode::kComputeIfAbsent, keys, &capacity), keys);
  EXPECT_EQ(capacity, 16u);
  // ...which resizes even though its key (5) is already present.
  std::vector<int32_t> with_hit = keys;
  with_hit.push_back(5);
  EXPECT_EQ(ReplayInts(Mode::kComputeIfAbsent, with_hit, &capacity), resized);
  EXPECT_EQ(capacity, 32u);
}

TEST(JavaHashMapOrder, TouchExistingIsANoOpForPut) {
  JavaHashMapOrder map(Mode::kPut, nullptr);
  for (int32_t k : {16, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}) map.InsertNew(k);
  EXPECT_EQ(map.capacity(), 16u);
  map.TouchExisting();
  EXPECT_FALSE(map.ResizePending());
  EXPECT_EQ(map.capacity(), 16u);
}

TEST(JavaHashMapOrder, ResizePendingOnlyAfterThresholdCrossed) {
  JavaHashMapOrder map(Mode::kComputeIfAbsent, nullptr);
  EXPECT_EQ(map.capacity(), 0u);
  for (int32_t k = 0; k < 12; ++k) map.InsertNew(k);
  EXPECT_FALSE(map.ResizePending());
  map.InsertNew(12);  // size 13 > threshold 12
  EXPECT_TRUE(map.ResizePending());
  EXPECT_EQ(map.capacity(), 16u);
  map.TouchExisting();
  EXPECT_FALSE(map.ResizePending());
  EXPECT_EQ(map.capacity(), 32u);
}

TEST(JavaHashMapOrder, IntegersCongruentMod64Treeify) {
  const std::vector<int32_t> keys = {69, 133, 197, 261, 325, 389, 453, 517, 581, 645, 709};
  size_t capacity = 0;
  EXPECT_EQ(ReplayInts(Mode::kPut, keys, &capacity),
            (std::vector<int32_t>{261, 69, 133, 197, 325, 389, 453, 517, 581, 645, 709}));
  EXPECT_EQ(capacity, 64u);
  EXPECT_EQ(ReplayInts(Mode::kComputeIfAbsent, keys, &capacity),
            (std::vector<int32_t>{453, 645, 709, 581, 517, 389, 325, 261, 197, 133, 69}));
  EXPECT_EQ(capacity, 64u);
}

TEST(JavaHashMapOrder, LongsWithHashCodeZero) {
  std::vector<int64_t> keys;
  for (int64_t x = 1; x <= 10; ++x) keys.push_back((x << 32) | x);
  // put: the 9th and 10th keys resize (capacity < 64) instead of treeifying.
  EXPECT_EQ(ReplayLongs(Mode::kPut, keys), keys);
  std::vector<int64_t> expected;
  for (int64_t x : {7, 10, 9, 8, 6, 5, 4, 3, 2, 1}) expected.push_back((x << 32) | x);
  EXPECT_EQ(ReplayLongs(Mode::kComputeIfAbsent, keys), expected);
}

std::vector<std::string> AaBbFamily() {
  std::vector<std::string> keys;
  for (int i = 0; i < 16; ++i) {
    std::string s;
    for (int block = 3; block >= 0; --block) s += (i >> block) & 1 ? "BB" : "Aa";
    keys.push_back(s);
  }
  return keys;  // sorted: AaAaAaAa, AaAaAaBB, ..., BBBBBBBB
}

TEST(JavaHashMapOrder, StringFamilyWithEqualHashCodes) {
  const std::vector<std::string> keys = AaBbFamily();
  EXPECT_EQ(ReplayStrings(Mode::kPut, keys),
            (std::vector<std::string>{"AaAaBBBB", "AaAaAaAa", "AaAaAaBB", "AaAaBBAa", "AaBBAaAa",
                                      "AaBBAaBB", "AaBBBBAa", "AaBBBBBB", "BBAaAaAa", "BBAaAaBB",
                                      "BBAaBBAa", "BBAaBBBB", "BBBBAaAa", "BBBBAaBB", "BBBBBBAa",
                                      "BBBBBBBB"}));
  EXPECT_EQ(ReplayStrings(Mode::kComputeIfAbsent, keys),
            (std::vector<std::string>{"AaBBBBAa", "BBAaAaBB", "BBAaBBAa", "BBAaBBBB", "BBBBAaAa",
                                      "BBBBAaBB", "BBBBBBAa", "BBBBBBBB", "BBAaAaAa", "AaBBBBBB",
                                      "AaBBAaBB", "AaBBAaAa", "AaAaBBBB", "AaAaBBAa", "AaAaAaBB",
                                      "AaAaAaAa"}));
}

TEST(JavaHashMapOrder, IndexTypeOrderWithinAColumn) {
  EXPECT_EQ(ReplayStrings(Mode::kPut, {"bitmap", "bloom-filter", "bsi", "range-bitmap"}),
            (std::vector<std::string>{"bloom-filter", "bitmap", "bsi", "range-bitmap"}));
  EXPECT_EQ(ReplayStrings(Mode::kPut, {"range-bitmap", "bsi", "bitmap", "bloom-filter"}),
            (std::vector<std::string>{"bloom-filter", "bitmap", "bsi", "range-bitmap"}));
}

TEST(JavaHashMapOrder, BinaryStringsAToN) {
  std::vector<std::string> keys;
  for (char c = 'a'; c <= 'n'; ++c) keys.push_back(std::string(1, c));
  size_t capacity = 0;
  EXPECT_EQ(ReplayBinaryStrings(Mode::kComputeIfAbsent, keys, &capacity),
            (std::vector<std::string>{"j", "n", "m", "h", "d", "l", "k", "b", "i", "a", "e", "f",
                                      "c", "g"}));
  EXPECT_EQ(capacity, 32u);  // the 14th call resized
}

// ---- worked examples of the container/bitmap format spec (Java-written files) ---------------

TEST(JavaHashMapOrder, DataSetABitmapKeyOrders) {
  // f0 STRING, one computeIfAbsent per row.
  EXPECT_EQ(ReplayBinaryStrings(Mode::kComputeIfAbsent,
                                {"Alice", "Bob", "Emily", "Tony", "Lucy", "Bob", "Tony", "Alice"}),
            (std::vector<std::string>{"Alice", "Lucy", "Bob", "Emily", "Tony"}));
  // f1 INT: 20 (slot 4) before 10 (slot 10).
  EXPECT_EQ(ReplayInts(Mode::kComputeIfAbsent, {10, 10, 10, 10, 20, 10, 20, 20}),
            (std::vector<int32_t>{20, 10}));
  // f2 INT (the null row makes no call).
  EXPECT_EQ(ReplayInts(Mode::kComputeIfAbsent, {1, 1, 0, 0, 1, 1, 0}),
            (std::vector<int32_t>{0, 1}));
}

TEST(JavaHashMapOrder, DataSetBNegativeIntsShareASlot) {
  // spread(-2) = 0xFFFF0001 lands in slot 1 with key 1, which was inserted later: 1 first.
  EXPECT_EQ(ReplayInts(Mode::kComputeIfAbsent, {-2, -3, 1, 1, -1, 2, -2}),
            (std::vector<int32_t>{-1, 1, -2, 2, -3}));
}

TEST(JavaHashMapOrder, ContainerColumnOrder) {
  const std::vector<std::string> expected = {"f0", "f1", "f2", "f3", "f4"};
  EXPECT_EQ(ReplayStrings(Mode::kComputeIfAbsent, {"f0", "f1", "f2", "f3", "f4"}), expected);
  EXPECT_EQ(ReplayStrings(Mode::kComputeIfAbsent, {"f3", "f0", "f4", "f2", "f1", "f0"}), expected);
  // "a" and "q" share slot 1 of 16: the later one comes first.
  EXPECT_EQ(ReplayStrings(Mode::kComputeIfAbsent, {"a", "q"}), (std::vector<std::string>{"q", "a"}));
}

// ---- adversarial cases; expected orders printed by a real OpenJDK 17 HashMap --------------
// (Key sequences are generated by the formulas below on both sides; BinaryString keys are
// Paimon 2.0's own class.)

TEST(JavaHashMapOrder, JavaCaseIntsCongruentMod64PerRow) {
  std::vector<int32_t> calls;  // 80 calls, 48 distinct keys, tree bins split on resize
  for (int i = 0; i < 80; ++i) calls.push_back(((i * 37) % 48) * 64 + 5);
  EXPECT_EQ(ReplayInts(Mode::kComputeIfAbsent, calls),
            (std::vector<int32_t>{1221, 2885, 2949, 3013, 2693, 2757, 2821, 517, 1925, 2629, 261, 133,
                                  197, 325, 389, 453, 965, 1029, 1093, 1157, 773, 837, 901, 581,
                                  645, 709, 1669, 1733, 1797, 1861, 1477, 1541, 1605, 1285, 1349,
                                  1413, 2373, 2437, 2501, 2565, 2181, 2245, 2309, 1989, 2053, 2117,
                                  5, 69}));
}

TEST(JavaHashMapOrder, JavaCaseSignedSpreadHashesInTrees) {
  // 40 keys whose spread hashes all end in 00011 (many negative): the tree orders them by
  // signed hash.
  std::vector<int32_t> keys;
  for (uint64_t j = 1; j <= 40; ++j) {
    const int32_t spread = static_cast<int32_t>(static_cast<uint32_t>((j * 2654435761ULL) & ~31ULL)) | 3;
    keys.push_back(JavaHashMapOrder::Spread(spread));  // spread is its own inverse
  }
  EXPECT_EQ(ReplayInts(Mode::kPut, keys),
            (std::vector<int32_t>{-239387592, 1401159751, -626608219, 2027789854, 2084334719,
                                  1936363817, -865929503, -718029392, 1788468954, 1549131158,
                                  1697041125, 1161847811, 1309737298, -91487985, 56503005,
                                  -478709644, -570144633, -330816181, -2119199380, -1253281937,
                                  387282806, -1640503404, 1013894925, 1070408494, 922474520,
                                  -1879848752, -1971271645, -1731924505, 774565577, 147924274,
                                  295848513, -1105283523, -1196705016, -957353780, -1492647765,
                                  -1584069962, -1344701830, 535204229, 443782032, 683119828}));
  EXPECT_EQ(ReplayInts(Mode::kComputeIfAbsent, keys),
            (std::vector<int32_t>{1161847811, -478709644, 1788468954, -865929503, -2119199380,
                                  -239387592, -330816181, -91487985, 56503005, 1401159751,
                                  1309737298, 1549131158, 1697041125, 2027789854, 2084334719,
                                  1936363817, -626608219, -570144633, -718029392, 147924274,
                                  -1492647765, 774565577, -1879848752, -1971271645, -1253281937,
                                  -1344701830, -1105283523, -1196705016, -957353780, 387282806,
                                  295848513, 535204229, 443782032, 683119828, 1013894925,
                                  1070408494, 922474520, -1640503404, -1584069962, -1731924505}));
}

// Three-block strings over blocks with equal String.hashCode, where block "1" is the
// supplementary U+10FFFF (units DBFF DFFF) and blocks "0"/"2" start with U+E000/U+E001:
// Java's compareTo puts "1" first, UTF-8 byte order puts it last.
std::string SurrogateFamilyKey(const std::string& code) {
  static const char* const kBlocks[] = {"\xee\x80\x80\xe6\x8f\xa0",   // U+E000 U+63E0
                                        "\xf4\x8f\xbf\xbf",           // U+10FFFF
                                        "\xee\x80\x81\xe6\x8f\x81"};  // U+E001 U+63C1
  std::string key;
  for (char c : code) key += kBlocks[c - '0'];
  return key;
}

std::vector<std::string> SurrogateFamilyKeys(const std::vector<std::string>& codes) {
  std::vector<std::string> keys;
  for (const std::string& code : codes) keys.push_back(SurrogateFamilyKey(code));
  return keys;
}

TEST(JavaHashMapOrder, JavaCaseStringTreeUsesUtf16Order) {
  std::vector<std::string> codes;
  for (int j = 0; j < 27; ++j) {
    const int i = (j * 10) % 27;
    codes.push_back({static_cast<char>('0' + i / 9), static_cast<char>('0' + (i / 3) % 3),
                     static_cast<char>('0' + i % 3)});
  }
  const std::vector<std::string> keys = SurrogateFamilyKeys(codes);
  for (const std::string& key : keys) ASSERT_EQ(*StringHashCode(key), *StringHashCode(keys[0]));

  const std::vector<std::string> cia_order = SurrogateFamilyKeys(
      {"000", "121", "100", "102", "222", "221", "220", "020", "211", "210", "022", "002", "021", "212",
       "111", "110", "112", "010", "120", "011", "122", "012", "001", "202", "201", "200", "101"});
  EXPECT_EQ(ReplayStrings(Mode::kComputeIfAbsent, keys), cia_order);
  EXPECT_EQ(ReplayStrings(Mode::kPut, keys),
            SurrogateFamilyKeys({"000", "101", "202", "010", "120", "011", "122", "012", "001",
                                 "111", "110", "112", "212", "020", "211", "210", "022", "002",
                                 "021", "121", "222", "221", "220", "100", "102", "201", "200"}));
  // The case is sensitive to the comparator: UTF-8 byte order would give another order.
  std::vector<std::string> byte_order = Replay(
      Mode::kComputeIfAbsent, keys, [](const std::string& s) { return StringHashCode(s).ValueOrDie(); },
      [](const std::string& a, const std::string& b) { return BinaryStringCompareTo(a, b); });
  EXPECT_NE(byte_order, cia_order);
}

TEST(JavaHashMapOrder, JavaCaseBinaryStringsWithEqualHashCodes) {
  // 12 pairs of 6-byte strings with identical BinaryString.hashCode, all spread & 63 == 5,
  // one computeIfAbsent per row (some rows repeat a key).
  const std::vector<std::string> calls = {
      "y9zwic", "otlr4h", "pp7981", "otlr4h", "r31vx8", "93im29", "7tiyoq", "pp7981",
      "5z58jd", "gnszum", "yeu3o4", "93im29", "v8r87l", "s0wv4k", "z9ia17", "7tiyoq",
      "d1dqfk", "u5fa4b", "yxw5ud", "gnszum", "dp4x0p", "cj6bno", "qs8bk7", "yeu3o4",
      "xefeuq", "c3rpn3", "qu0zic", "s0wv4k", "eymmg9", "zugx1n", "z5jlwv", "z9ia17"};
  std::vector<std::string> distinct;
  for (const std::string& c : calls) {
    if (std::find(distinct.begin(), distinct.end(), c) == distinct.end()) distinct.push_back(c);
  }
  ASSERT_EQ(distinct.size(), 24u);
  for (size_t i = 0; i < distinct.size(); i += 2) {
    EXPECT_EQ(BinaryStringHashCode(distinct[i]), BinaryStringHashCode(distinct[i + 1])) << distinct[i];
  }
  const std::vector<std::string> java_order = {
      "yeu3o4", "v8r87l", "gnszum", "d1dqfk", "u5fa4b", "cj6bno", "qs8bk7", "xefeuq",
      "c3rpn3", "yxw5ud", "dp4x0p", "5z58jd", "7tiyoq", "qu0zic", "eymmg9", "93im29",
      "r31vx8", "pp7981", "zugx1n", "z5jlwv", "otlr4h", "s0wv4k", "z9ia17", "y9zwic"};
  EXPECT_EQ(ReplayBinaryStrings(Mode::kComputeIfAbsent, calls), java_order);
  // Sensitive to compareTo: the reversed comparator changes the order.
  std::vector<std::string> reversed = Replay(
      Mode::kComputeIfAbsent, calls, [](const std::string& s) { return BinaryStringHashCode(s); },
      [](const std::string& a, const std::string& b) { return -BinaryStringCompareTo(a, b); });
  EXPECT_NE(reversed, java_order);
}

TEST(JavaHashMapOrder, JavaCaseLongsWithEqualHashCodeIncludingNegatives) {
  std::vector<int64_t> keys;  // (x << 32) | (x ^ 3): hashCode 3 for every x
  for (int64_t x = -10; x <= 10; ++x) {
    keys.push_back(static_cast<int64_t>((static_cast<uint64_t>(x) << 32) |
                                        static_cast<uint32_t>(x ^ 3)));
  }
  EXPECT_EQ(ReplayLongs(Mode::kPut, keys),
            (std::vector<int64_t>{-8589934594LL, -25769803782LL, -38654705675LL, -34359738380LL,
                                  -30064771077LL, -21474836487LL, -17179869192LL, -12884901889LL,
                                  -4294967299LL, -4LL, 3LL, 4294967298LL, 8589934593LL,
                                  12884901888LL, 17179869191LL, 21474836486LL, 25769803781LL,
                                  30064771076LL, 34359738379LL, 38654705674LL, 42949672969LL}));
  EXPECT_EQ(ReplayLongs(Mode::kComputeIfAbsent, keys),
            (std::vector<int64_t>{3LL, -12884901889LL, -4LL, 4294967298LL, 8589934593LL,
                                  12884901888LL, 17179869191LL, 21474836486LL, 25769803781LL,
                                  30064771076LL, 34359738379LL, 38654705674LL, 42949672969LL,
                                  -4294967299LL, -8589934594LL, -17179869192LL, -21474836487LL,
                                  -25769803782LL, -30064771077LL, -34359738380LL,
                                  -38654705675LL}));
}

TEST(JavaHashMapOrder, JavaCaseDoublesWithHashCodeZeroNaNAndSignedZero) {
  // Keys are Double values, held here as doubleToLongBits (Java's equality: all NaNs are one
  // key, -0.0 and 0.0 are two). (x << 32) | x has hashCode 0; negative x gives NaNs.
  std::vector<int64_t> calls;
  for (int64_t x = -12; x <= 12; ++x) {
    const auto raw = static_cast<int64_t>((static_cast<uint64_t>(x) << 32) | static_cast<uint32_t>(x));
    calls.push_back(DoubleToLongBits(LongBitsToDouble(raw)));
  }
  calls.push_back(DoubleToLongBits(-0.0));
  calls.push_back(DoubleToLongBits(0.0));
  calls.push_back(kCanonicalDoubleNaNBits);
  std::vector<int64_t> order = Replay(
      Mode::kComputeIfAbsent, calls, [](int64_t bits) { return DoubleHashCode(LongBitsToDouble(bits)); },
      [](int64_t a, int64_t b) { return DoubleCompare(LongBitsToDouble(a), LongBitsToDouble(b)); });
  EXPECT_EQ(order, (std::vector<int64_t>{25769803782LL, 38654705673LL, 42949672970LL,
                                         47244640267LL, 51539607564LL, 34359738376LL,
                                         30064771079LL, 21474836485LL, 17179869188LL,
                                         12884901891LL, 8589934594LL, 4294967297LL, 0LL,
                                         std::numeric_limits<int64_t>::min(),  // -0.0
                                         kCanonicalDoubleNaNBits}));
}

TEST(JavaHashMapOrder, JavaCaseMultiplesOf1024PerRow) {
  // 100 distinct multiples of 1024 (spread == value, so they share slot 0 up to capacity 1024)
  // with a repeated key after every third row: one big tree, split and re-treeified.
  std::vector<int32_t> calls;
  for (int i = 0; i < 100; ++i) {
    calls.push_back(((i * 61) % 100) * 1024);
    if (i % 3 == 0) calls.push_back((((i / 2) * 61) % 100) * 1024);
  }
  size_t capacity = 0;
  EXPECT_EQ(ReplayInts(Mode::kComputeIfAbsent, calls, &capacity),
            (std::vector<int32_t>{
                32768, 55296, 58368, 59392, 56320, 57344, 53248, 54272, 51200, 52224, 10240,
                50176, 27648, 30720, 31744, 28672, 29696, 25600, 26624, 23552, 24576, 5120,
                4096,  8192,  7168,  9216,  6144,  45056, 44032, 48128, 47104, 49152, 46080,
                37888, 40960, 41984, 38912, 39936, 35840, 36864, 33792, 34816, 43008, 22528,
                15360, 13312, 14336, 11264, 12288, 20480, 19456, 21504, 18432, 16384, 17408,
                62464, 61440, 63488, 64512, 60416, 0,     1024,  2048,  3072,  82944, 100352,
                99328, 101376, 98304, 96256, 97280, 77824, 80896, 81920, 78848, 79872, 75776,
                76800, 73728, 74752, 95232, 72704, 90112, 89088, 93184, 92160, 94208, 91136,
                67584, 70656, 71680, 68608, 69632, 65536, 66560, 84992, 83968, 86016, 87040,
                88064}));
}

TEST(JavaHashMapOrder, ManyKeysStayConsistent) {
  // Per-row pattern at scale: a million calls over 200k distinct keys; TouchExisting must keep
  // the same final state as if the hits were not replayed once no resize is pending.
  JavaHashMapOrder map(Mode::kComputeIfAbsent, [](uint32_t a, uint32_t b) {
    return CompareSigned(a, b);
  });
  uint32_t inserted = 0;
  for (uint32_t row = 0; row < 1000000; ++row) {
    if (row % 5 == 0) {
      map.InsertNew(static_cast<int32_t>(inserted * 1024u));
      ++inserted;
    } else {
      map.TouchExisting();
    }
  }
  EXPECT_EQ(map.size(), 200000u);
  EXPECT_EQ(map.capacity(), 262144u * 2);  // 200000 > 196608 = 0.75 * 262144
  std::vector<uint32_t> order = map.IterationOrder();
  ASSERT_EQ(order.size(), 200000u);
  std::vector<uint8_t> seen(order.size(), 0);
  for (uint32_t id : order) {
    ASSERT_LT(id, seen.size());
    EXPECT_EQ(seen[id]++, 0) << "key " << id << " listed twice";
  }
}

TEST(JavaHashMapOrder, EmptyMap) {
  JavaHashMapOrder map(Mode::kComputeIfAbsent, nullptr);
  EXPECT_TRUE(map.IterationOrder().empty());
  EXPECT_EQ(map.size(), 0u);
  EXPECT_EQ(map.capacity(), 0u);
}

}  // namespace
}  // namespace pyfileindex::java
