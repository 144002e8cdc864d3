#include "pyfileindex/build_info.h"

#include <gtest/gtest.h>

#include <string>

namespace pyfileindex {
namespace {

TEST(BuildInfoTest, CRoaringVersionIsThePinnedAmalgamation) {
  EXPECT_EQ(std::string(CRoaringVersion()), "5.2.2");
}

TEST(BuildInfoTest, LibraryVersionIsThreeNumbers) {
  const std::string version = LibraryVersion();
  ASSERT_FALSE(version.empty());
  int dots = 0;
  for (char c : version) {
    if (c == '.') {
      ++dots;
    } else {
      EXPECT_TRUE(c >= '0' && c <= '9') << "unexpected character in " << version;
    }
  }
  EXPECT_EQ(dots, 2) << version;
}

}  // namespace
}  // namespace pyfileindex
