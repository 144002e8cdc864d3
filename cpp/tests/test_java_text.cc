// String.split / trim and Character.isWhitespace as Paimon applies them to column lists.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "java/java_text.h"

namespace pyfileindex::java {
namespace {

using Pieces = std::vector<std::string_view>;

TEST(JavaTextTest, SplitDropsOnlyTrailingEmptyPieces) {
  EXPECT_EQ(Split("a,b", ','), (Pieces{"a", "b"}));
  EXPECT_EQ(Split("a,b,,", ','), (Pieces{"a", "b"}));
  EXPECT_EQ(Split(",a,,b", ','), (Pieces{"", "a", "", "b"}));
  EXPECT_EQ(Split("a, ,", ','), (Pieces{"a", " "}));
  EXPECT_EQ(Split(",,", ','), Pieces{});
  EXPECT_EQ(Split("", ','), Pieces{""});  // no separator: the text itself
  EXPECT_EQ(Split("abc", ','), Pieces{"abc"});
}

TEST(JavaTextTest, TrimDropsEveryCharacterUpToSpace) {
  EXPECT_EQ(Trim(std::string_view("\x01\t a b \x1f\0", 9)), "a b");
  EXPECT_EQ(Trim("\x7f"), "\x7f");                // DEL is above ' '
  EXPECT_EQ(Trim("\xc2\xa0x\xc2\xa0"), "\xc2\xa0x\xc2\xa0");  // so is U+00A0
  EXPECT_EQ(Trim(" \x02 "), "");
}

TEST(JavaTextTest, WhitespaceIsCharacterIsWhitespace) {
  for (char32_t c : {0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x1F, 0x20, 0x1680, 0x2000,
                     0x2006, 0x2008, 0x200A, 0x2028, 0x2029, 0x205F, 0x3000}) {
    EXPECT_TRUE(IsWhitespace(c)) << std::hex << static_cast<uint32_t>(c);
  }
  for (char32_t c : {0x00, 0x01, 0x08, 0x0E, 0x1B, 0x21, 0x85, 0xA0, 0x2007, 0x200B, 0x202F,
                     0xFEFF, 0x10FFFF}) {
    EXPECT_FALSE(IsWhitespace(c)) << std::hex << static_cast<uint32_t>(c);
  }
  EXPECT_TRUE(IsWhitespaceOnly(""));
  EXPECT_TRUE(IsWhitespaceOnly(" \t\x1c\xe2\x80\x83\xe3\x80\x80"));  // U+2003, U+3000
  EXPECT_FALSE(IsWhitespaceOnly(" \x01 "));          // trimmed to nothing, yet not blank
  EXPECT_FALSE(IsWhitespaceOnly("\xc2\xa0"));        // no-break space
  EXPECT_FALSE(IsWhitespaceOnly(" \xe2\x80"));       // truncated sequence
}

}  // namespace
}  // namespace pyfileindex::java
