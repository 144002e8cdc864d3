// Option values are read the way Paimon reads them: Long.parseLong and Double.parseDouble on
// the text as given, so a table Java accepts is accepted here and one it refuses is refused.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>

#include "pyfileindex/options.h"

namespace pyfileindex {
namespace {

Options One(const std::string& value) {
  Options options;
  options.Set("k", value);
  return options;
}
Result<int64_t> Int(const std::string& text) { return One(text).GetInt("k", -7); }
Result<double> Double(const std::string& text) { return One(text).GetDouble("k", -7); }

TEST(OptionsTest, AbsentKeysGiveTheDefault) {
  EXPECT_EQ(*Options().GetInt("k", 42), 42);
  EXPECT_EQ(*Options().GetDouble("k", 0.25), 0.25);
}

TEST(OptionsTest, IntegersAsLongParseLong) {
  EXPECT_EQ(*Int("100"), 100);
  EXPECT_EQ(*Int("+100"), 100);
  EXPECT_EQ(*Int("-2147483649"), -2147483649LL);
  EXPECT_EQ(*Int("9223372036854775807"), std::numeric_limits<int64_t>::max());
  // Java refuses each of these (OptionsUtils passes the text untrimmed).
  for (const std::string bad : {"", " 100", "100 ", "1e3", "0x10", "10.0", "+", "-", "1_000",
                                "9223372036854775808", "100L"}) {
    const Result<int64_t> parsed = Int(bad);
    ASSERT_FALSE(parsed.ok()) << "'" << bad << "'";
    EXPECT_NE(parsed.status().message().find("option 'k'"), std::string::npos);
  }
}

TEST(OptionsTest, BooleansAsConvertToBoolean) {
  EXPECT_TRUE(*One("true").GetBool("k", false));
  EXPECT_FALSE(*One("FaLsE").GetBool("k", true));
  EXPECT_TRUE(*Options().GetBool("k", true));
  for (const std::string bad : {"", " true", "false ", "yes", "1", "t"}) {
    EXPECT_FALSE(One(bad).GetBool("k", true).ok()) << "'" << bad << "'";  // Java: no trim
  }
}

TEST(OptionsTest, MemorySizesAsMemorySizeParse) {
  EXPECT_EQ(*ParseMemorySize("16 kb"), 16 << 10);
  EXPECT_EQ(*ParseMemorySize("\x01\t2M\x1f"), 2 << 20);  // String.trim drops all <= ' '
  EXPECT_EQ(*ParseMemorySize("3 \x02 GiBibytes"), int64_t{3} << 30);
  EXPECT_EQ(*ParseMemorySize("100"), 100);
  for (const std::string bad : {"", " ", "kb", "1 \xc2\xa0kb", "\xd9\xa1 kb", "1 kb b", "-1"}) {
    EXPECT_FALSE(ParseMemorySize(bad).ok()) << "'" << bad << "'";
  }
}

TEST(OptionsTest, NumbersAsDoubleParseDouble) {
  EXPECT_EQ(*Double("0.1"), 0.1);
  EXPECT_EQ(*Double(" 0.1 "), 0.1);   // parseDouble trims
  EXPECT_EQ(*Double("0.1d"), 0.1);    // and takes a type suffix
  EXPECT_EQ(*Double("0.1F"), 0.1);    // (still read as a double)
  EXPECT_EQ(*Double("1."), 1.0);
  EXPECT_EQ(*Double(".5"), 0.5);
  EXPECT_EQ(*Double("-1.5E-3"), -1.5e-3);
  EXPECT_EQ(*Double("1e+2"), 100.0);
  EXPECT_EQ(*Double("0x1p-4"), 0.0625);
  EXPECT_EQ(*Double("0x1.8P1d"), 3.0);
  EXPECT_EQ(*Double("4.9e-324"), std::numeric_limits<double>::denorm_min());  // strtod: ERANGE
  EXPECT_EQ(*Double("1e-400"), 0.0);
  EXPECT_EQ(*Double("1e400"), std::numeric_limits<double>::infinity());
  EXPECT_EQ(*Double("-Infinity"), -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(*Double("NaN")));
  for (const std::string bad : {"", " ", ".", "e5", "1e", "1e+", "0x1", "0x1.8", "0x", "inf",
                                "nan", "infinity", "NaNd", "1,5", "1.5.2", "--1", "1f2", "d"}) {
    EXPECT_FALSE(Double(bad).ok()) << "'" << bad << "'";
  }
}

TEST(OptionsTest, PointsAndExponentsMoveTogether) {
  // The point is taken out before strtod reads the number (the locale's radix character may
  // not be '.'), and the exponent is lowered by the fraction's digits instead.
  EXPECT_EQ(*Double("123.456e7"), 123.456e7);
  EXPECT_EQ(*Double("0.000001e6"), 1.0);
  EXPECT_EQ(*Double("3.14159265358979323846264338327950288"), 3.14159265358979323846);
  EXPECT_EQ(*Double("0x.8p1"), 1.0);
  EXPECT_EQ(*Double("0x1.fffffffffffffp1023"), std::numeric_limits<double>::max());
  EXPECT_EQ(*Double("-0.0"), 0.0);
  EXPECT_TRUE(std::signbit(*Double("-0.0")));
  // Exponents far past a double's range still overflow and underflow, not wrap.
  EXPECT_EQ(*Double("1e99999999999999999999"), std::numeric_limits<double>::infinity());
  EXPECT_EQ(*Double("1.5e-99999999999999999999"), 0.0);
  EXPECT_EQ(*Double("0." + std::string(400, '0') + "1e401"), 1.0);
}

TEST(OptionsTest, DecimalsAgreeWithStrtodInTheCLocale) {
  std::mt19937_64 random(20261126);
  auto digits = [&](int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += static_cast<char>('0' + random() % 10);
    return out;
  };
  for (int trial = 0; trial < 20000; ++trial) {
    std::string text = digits(static_cast<int>(random() % 4));
    text += "." + digits(1 + static_cast<int>(random() % 25));
    if (random() % 2) text += "e" + std::to_string(static_cast<int>(random() % 700) - 350);
    const double expected = std::strtod(text.c_str(), nullptr);  // this test's locale is "C"
    const Result<double> parsed = Double(text);
    ASSERT_TRUE(parsed.ok()) << text;
    EXPECT_EQ(*parsed, expected) << text;
  }
}

}  // namespace
}  // namespace pyfileindex
