// ByteWriter / ByteReader: Java DataOutput/DataInput-compatible bytes and bounds checking.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "io/byte_reader.h"
#include "io/byte_writer.h"
#include "io/endian.h"

namespace pyfileindex::io {
namespace {

std::vector<uint8_t> Bytes(std::initializer_list<int> values) {
  std::vector<uint8_t> out;
  for (int v : values) out.push_back(static_cast<uint8_t>(v));
  return out;
}

TEST(ByteWriter, WritesBigEndianLikeDataOutputStream) {
  ByteWriter w;
  w.WriteU8(0xab);
  w.WriteI8(-2);
  w.WriteBool(true);
  w.WriteBool(false);
  w.WriteI16BE(-2);
  w.WriteI32BE(0x01020304);
  w.WriteI64BE(0x0005'4e4e'd01a'35aeLL);  // the file-index magic
  w.WriteI32BE(-1);
  EXPECT_EQ(w.Take(), Bytes({0xab, 0xfe, 0x01, 0x00, 0xff, 0xfe, 0x01, 0x02, 0x03, 0x04, 0x00,
                             0x05, 0x4e, 0x4e, 0xd0, 0x1a, 0x35, 0xae, 0xff, 0xff, 0xff, 0xff}));
  EXPECT_EQ(w.size(), 0u) << "Take() leaves the writer empty";
}

TEST(ByteWriter, FloatsAreWrittenAsJavaFloatToIntBits) {
  ByteWriter w;
  w.WriteF32BE(1.0f);
  w.WriteF32BE(-0.0f);
  w.WriteF32BE(-std::numeric_limits<float>::quiet_NaN());  // canonicalised like writeFloat
  w.WriteF64BE(1.5);
  w.WriteF64BE(-std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(w.Take(), Bytes({0x3f, 0x80, 0, 0, 0x80, 0, 0, 0, 0x7f, 0xc0, 0, 0,
                             0x3f, 0xf8, 0, 0, 0, 0, 0, 0, 0x7f, 0xf8, 0, 0, 0, 0, 0, 0}));
}

TEST(ByteWriter, LittleEndianHelpersAndPatching) {
  ByteWriter w;
  w.WriteU16LE(0x303a);  // roaring cookie 12346
  w.WriteU32LE(0x01020304);
  w.WriteU64LE(0x0102030405060708ULL);
  w.WriteI32BE(0);
  w.PatchI32BE(14, 176);
  EXPECT_EQ(w.Take(), Bytes({0x3a, 0x30, 0x04, 0x03, 0x02, 0x01, 0x08, 0x07, 0x06, 0x05, 0x04,
                             0x03, 0x02, 0x01, 0x00, 0x00, 0x00, 0xb0}));

  uint8_t buffer[8];
  StoreU32BE(buffer, 0xdeadbeef);
  StoreU32LE(buffer + 4, 0xdeadbeef);
  EXPECT_EQ(std::vector<uint8_t>(buffer, buffer + 8),
            Bytes({0xde, 0xad, 0xbe, 0xef, 0xef, 0xbe, 0xad, 0xde}));
  EXPECT_EQ(LoadU32BE(buffer), 0xdeadbeefu);
  EXPECT_EQ(LoadU32LE(buffer + 4), 0xdeadbeefu);
  EXPECT_EQ(LoadU64BE(Bytes({0, 0, 0, 0, 0, 0, 1, 2}).data()), 0x102u);
}

TEST(ByteWriter, WriteBytesAndContinueExistingBuffer) {
  ByteWriter w(Bytes({1, 2}));
  w.WriteBytes(ByteSpan(Bytes({3, 4, 5})));
  w.WriteBytes(ByteSpan());
  uint8_t* p = w.AppendUninitialized(2);
  p[0] = 6;
  p[1] = 7;
  EXPECT_EQ(std::vector<uint8_t>(w.data(), w.data() + w.size()), Bytes({1, 2, 3, 4, 5, 6, 7}));
}

TEST(ByteWriter, WriteUTFMatchesJava) {
  ByteWriter w;
  ASSERT_TRUE(w.WriteUTF("a").ok());
  ASSERT_TRUE(w.WriteUTF(std::string("\0", 1)).ok());
  ASSERT_TRUE(w.WriteUTF("\xc3\xa9").ok());
  ASSERT_TRUE(w.WriteUTF("\xe2\x82\xac").ok());
  ASSERT_TRUE(w.WriteUTF("\xf0\x9f\x98\x80").ok());
  ASSERT_TRUE(w.WriteUTF("").ok());
  EXPECT_EQ(w.Take(), Bytes({0x00, 0x01, 0x61, 0x00, 0x02, 0xc0, 0x80, 0x00, 0x02, 0xc3, 0xa9,
                             0x00, 0x03, 0xe2, 0x82, 0xac, 0x00, 0x06, 0xed, 0xa0, 0xbd, 0xed,
                             0xb8, 0x80, 0x00, 0x00}));
}

TEST(ByteWriter, WriteUTFLengthLimit) {
  std::string euros;
  for (int i = 0; i < 21845; ++i) euros += "\xe2\x82\xac";  // 3 bytes each: 65535 in total
  ByteWriter w;
  ASSERT_TRUE(w.WriteUTF(euros).ok());
  EXPECT_EQ(w.size(), 65537u);
  EXPECT_EQ(w.data()[0], 0xff);
  EXPECT_EQ(w.data()[1], 0xff);

  ByteWriter w2;
  w2.WriteU8(9);
  Status too_long = w2.WriteUTF(euros + "\xe2\x82\xac");
  ASSERT_FALSE(too_long.ok());
  EXPECT_EQ(too_long.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(too_long.message().find("65538"), std::string::npos) << too_long.message();
  EXPECT_EQ(w2.size(), 1u) << "nothing written on error";

  // NUL doubles in size: 32768 NULs need 65536 bytes.
  EXPECT_FALSE(w2.WriteUTF(std::string(32768, '\0')).ok());
  EXPECT_TRUE(w2.WriteUTF(std::string(32767, '\0')).ok());

  Status invalid = w2.WriteUTF("\xff");
  EXPECT_EQ(invalid.code(), StatusCode::kInvalidArgument);
}

TEST(ByteWriter, BuildsTheSpecContainerHeadStart) {
  // First 0x24 bytes of the data-set-A container (spec 8.1).
  ByteWriter w;
  w.WriteI64BE(1493475289347502LL);
  w.WriteI32BE(1);
  w.WriteI32BE(96);
  w.WriteI32BE(3);
  ASSERT_TRUE(w.WriteUTF("f0").ok());
  w.WriteI32BE(1);
  ASSERT_TRUE(w.WriteUTF("bitmap").ok());
  EXPECT_EQ(w.Take(), Bytes({0x00, 0x05, 0x4e, 0x4e, 0xd0, 0x1a, 0x35, 0xae, 0x00, 0x00, 0x00, 0x01,
                             0x00, 0x00, 0x00, 0x60, 0x00, 0x00, 0x00, 0x03, 0x00, 0x02, 0x66, 0x30,
                             0x00, 0x00, 0x00, 0x01, 0x00, 0x06, 0x62, 0x69, 0x74, 0x6d, 0x61, 0x70}));
}

TEST(ByteReader, ReadsBackWhatTheWriterWrote) {
  ByteWriter w;
  w.WriteU8(200);
  w.WriteBool(true);
  w.WriteI16BE(-300);
  w.WriteI32BE(std::numeric_limits<int32_t>::min());
  w.WriteI64BE(-1234567890123LL);
  w.WriteF32BE(2.5f);
  w.WriteF64BE(-0.0);
  ASSERT_TRUE(w.WriteUTF("f\xc3\xa9\xf0\x9f\x98\x80").ok());
  w.WriteU32LE(77);
  std::vector<uint8_t> bytes = w.Take();

  ByteReader r(bytes.data(), bytes.size());
  EXPECT_EQ(*r.ReadU8(), 200);
  EXPECT_EQ(*r.ReadBool(), true);
  EXPECT_EQ(*r.ReadI16BE(), -300);
  EXPECT_EQ(*r.ReadI32BE(), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(*r.ReadI64BE(), -1234567890123LL);
  EXPECT_EQ(*r.ReadF32BE(), 2.5f);
  double negative_zero = *r.ReadF64BE();
  EXPECT_EQ(negative_zero, 0.0);
  EXPECT_TRUE(std::signbit(negative_zero));
  EXPECT_EQ(*r.ReadUTF(), "f\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_EQ(*r.ReadU32LE(), 77u);
  EXPECT_TRUE(r.AtEnd());
  EXPECT_EQ(r.remaining(), 0u);
  EXPECT_EQ(r.position(), bytes.size());
}

TEST(ByteReader, AnyNonZeroByteIsTrue) {
  std::vector<uint8_t> bytes = Bytes({0x00, 0x01, 0x7f, 0xff});
  ByteReader r{ByteSpan(bytes)};
  EXPECT_FALSE(*r.ReadBool());
  EXPECT_TRUE(*r.ReadBool());
  EXPECT_TRUE(*r.ReadBool());
  EXPECT_TRUE(*r.ReadBool());
}

TEST(ByteReader, TruncationNamesWhatWhereAndHowMuch) {
  std::vector<uint8_t> bytes(20, 0);
  ByteReader r(bytes.data(), bytes.size());
  ASSERT_TRUE(r.Skip(17).ok());
  Result<int32_t> v = r.ReadI32BE("row count");
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().code(), StatusCode::kCorrupt);
  EXPECT_EQ(v.status().message(), "truncated: need 4 bytes for row count at offset 17, 3 left");
  EXPECT_EQ(r.position(), 17u) << "a failed read does not move the cursor";

  EXPECT_EQ(r.ReadI64BE("long").status().message(),
            "truncated: need 8 bytes for long at offset 17, 3 left");
  EXPECT_FALSE(r.ReadBytes(4, "key bytes").ok());
  EXPECT_FALSE(r.Skip(4).ok());
  EXPECT_TRUE(r.ReadI16BE().ok());
  EXPECT_TRUE(r.ReadU8().ok());
  EXPECT_EQ(r.ReadU8("version").status().message(),
            "truncated: need 1 bytes for version at offset 20, 0 left");
  EXPECT_FALSE(r.ReadBool().ok());
  EXPECT_FALSE(r.ReadI8().ok());
  EXPECT_FALSE(r.ReadF32BE().ok());
  EXPECT_FALSE(r.ReadF64BE().ok());
  EXPECT_FALSE(r.ReadU16LE().ok());
  EXPECT_FALSE(r.ReadU32LE().ok());
  EXPECT_FALSE(r.ReadU16BE().ok());
  EXPECT_TRUE(r.ReadBytes(0).ok());
}

TEST(ByteReader, BaseOffsetMakesOffsetsAbsolute) {
  std::vector<uint8_t> bytes = Bytes({1, 2});
  ByteReader r(bytes.data(), bytes.size(), /*base_offset=*/272);
  ASSERT_TRUE(r.ReadU8().ok());
  EXPECT_EQ(r.ReadI32BE("null offset").status().message(),
            "truncated: need 4 bytes for null offset at offset 273, 1 left");
  EXPECT_EQ(r.position(), 1u);
  EXPECT_EQ(r.base_offset(), 272u);
}

TEST(ByteReader, EmptyAndNullSpans) {
  ByteReader r(nullptr, 0);
  EXPECT_TRUE(r.AtEnd());
  EXPECT_FALSE(r.ReadU8().ok());
  EXPECT_TRUE(r.Seek(0).ok());
  EXPECT_TRUE(r.Rest().empty());
}

TEST(ByteReader, ReadLengthChecksSignAndBounds) {
  ByteWriter w;
  w.WriteI32BE(3);
  w.WriteBytes(ByteSpan::Of("Bob"));
  w.WriteI32BE(-5);
  std::vector<uint8_t> bytes = w.Take();
  bytes.push_back(0);  // one byte after the negative length

  ByteReader r{ByteSpan(bytes)};
  Result<uint32_t> length = r.ReadLength("key length");
  ASSERT_TRUE(length.ok());
  EXPECT_EQ(*length, 3u);
  Result<ByteSpan> key = r.ReadBytes(*length, "key");
  ASSERT_TRUE(key.ok());
  EXPECT_EQ(key->AsStringView(), "Bob");
  EXPECT_EQ(key->data(), bytes.data() + 4) << "ReadBytes returns a view, not a copy";

  Result<uint32_t> negative = r.ReadLength("key length");
  ASSERT_FALSE(negative.ok());
  EXPECT_EQ(negative.status().message(), "negative length -5 for key length at offset 7");

  std::vector<uint8_t> too_long = Bytes({0x00, 0x00, 0x00, 0x05, 'a', 'b'});
  ByteReader r2{ByteSpan(too_long)};
  Result<uint32_t> over = r2.ReadLength("bitmap length");
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.status().code(), StatusCode::kCorrupt);
  EXPECT_EQ(over.status().message(),
            "length 5 for bitmap length at offset 0 exceeds the 2 bytes left");

  std::vector<uint8_t> max_length = Bytes({0x7f, 0xff, 0xff, 0xff});
  ByteReader r3{ByteSpan(max_length)};
  EXPECT_FALSE(r3.ReadLength("huge").ok());
  std::vector<uint8_t> short_field = Bytes({0x00, 0x00});
  ByteReader r4{ByteSpan(short_field)};
  EXPECT_EQ(r4.ReadLength("entry count").status().message(),
            "truncated: need 4 bytes for entry count at offset 0, 2 left");
}

TEST(ByteReader, SeekSkipAndRest) {
  std::vector<uint8_t> bytes = Bytes({10, 11, 12, 13, 14});
  ByteReader r{ByteSpan(bytes)};
  ASSERT_TRUE(r.Seek(3).ok());
  EXPECT_EQ(*r.ReadU8(), 13);
  EXPECT_EQ(r.Rest().size(), 1u);
  EXPECT_EQ(r.All().size(), 5u);
  ASSERT_TRUE(r.Seek(5).ok());
  EXPECT_TRUE(r.AtEnd());
  Status beyond = r.Seek(6, "index start");
  ASSERT_FALSE(beyond.ok());
  EXPECT_EQ(beyond.code(), StatusCode::kCorrupt);
  EXPECT_EQ(beyond.message(), "index start 6 is beyond the end of the data (offset 5)");
  EXPECT_EQ(r.position(), 5u);
  ASSERT_TRUE(r.Seek(0).ok());
  ASSERT_TRUE(r.Skip(5).ok());
  EXPECT_FALSE(r.Skip(1).ok());
}

TEST(ByteReader, RequireThenUncheckedReads) {
  std::vector<uint8_t> bytes = Bytes({0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x03, 0xff, 0xff, 0xff,
                                      0xff, 0xff, 0xff, 0xff, 0xfe});
  ByteReader r{ByteSpan(bytes)};
  ASSERT_TRUE(r.Require(15, "entry").ok());
  EXPECT_FALSE(r.Require(16, "entry").ok());
  EXPECT_EQ(r.ReadU8Unchecked(), 1);
  EXPECT_EQ(r.ReadU16BEUnchecked(), 2);
  EXPECT_EQ(r.ReadI32BEUnchecked(), 3);
  EXPECT_EQ(r.ReadI64BEUnchecked(), -2);
  EXPECT_TRUE(r.AtEnd());
}

TEST(ByteReader, ReadUTFErrorsCarryContext) {
  // Length says 4, only 2 bytes follow.
  std::vector<uint8_t> truncated = Bytes({0x00, 0x04, 0x61, 0x62});
  ByteReader r1{ByteSpan(truncated)};
  EXPECT_EQ(r1.ReadUTF("column name").status().message(),
            "truncated: need 4 bytes for column name at offset 2, 2 left");
  // Malformed body.
  std::vector<uint8_t> malformed = Bytes({0x07, 0x00, 0x02, 0x61, 0x80});
  ByteReader r2(malformed.data(), malformed.size(), 100);
  ASSERT_TRUE(r2.Skip(1).ok());
  Result<std::string> bad = r2.ReadUTF("index type");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kCorrupt);
  EXPECT_EQ(bad.status().message(),
            "index type at offset 101: malformed modified UTF-8: bad lead byte at byte offset 1");
  // Missing length field.
  std::vector<uint8_t> one = Bytes({0x00});
  ByteReader r3{ByteSpan(one)};
  EXPECT_FALSE(r3.ReadUTF().ok());
}

}  // namespace
}  // namespace pyfileindex::io
