// NumberText: numbers in messages read back as the same double.
#include "collide/number_text.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "gtest/gtest.h"
#include "tests/support/splitmix64.h"

namespace collide {
namespace {

double Parse(const std::string& text) {
  double value = 0.0;
  const std::from_chars_result result =
      std::from_chars(text.data(), text.data() + text.size(), value);
  EXPECT_EQ(result.ptr, text.data() + text.size()) << text;
  return value;
}

TEST(NumberTextTest, AValueJustOutsideALimitDoesNotReadAsTheLimit) {
  EXPECT_EQ(NumberText(std::nextafter(1.0, 2.0)), "1.0000000000000002");
  EXPECT_EQ(NumberText(std::nextafter(1e60, 1e61)), "1.0000000000000001e+60");
  EXPECT_EQ(NumberText(1e60 * (1 + 0x1p-52)), "1.0000000000000001e+60");
  EXPECT_EQ(NumberText(std::nextafter(0.0, -1.0)), "-5e-324");
}

TEST(NumberTextTest, ShortValuesPrintAsPeopleWriteThem) {
  EXPECT_EQ(NumberText(0.0), "0");
  EXPECT_EQ(NumberText(-0.0), "-0");
  EXPECT_EQ(NumberText(-1.0), "-1");
  EXPECT_EQ(NumberText(0.25), "0.25");
  EXPECT_EQ(NumberText(0.1), "0.1");
  EXPECT_EQ(NumberText(100000.0), "100000");
  EXPECT_EQ(NumberText(123456789.0), "123456789");
  EXPECT_EQ(NumberText(0.0001), "0.0001");
  EXPECT_EQ(NumberText(1e-5), "1e-05");
  EXPECT_EQ(NumberText(1e60), "1e+60");
  EXPECT_EQ(NumberText(1e17), "1e+17");
  EXPECT_EQ(NumberText(1e16), "10000000000000000");
}

TEST(NumberTextTest, NonFiniteValuesAreNamed) {
  EXPECT_EQ(NumberText(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(NumberText(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(NumberText(std::nan("")), "nan");
}

TEST(NumberTextTest, EveryDoubleReadsBackExactly) {
  // Random bit patterns cover every exponent, subnormals included.
  testing::SplitMix64 random(0x6e756d62);
  for (int i = 0; i < 200000; ++i) {
    const uint64_t bits = random.Next();
    double value;
    static_assert(sizeof(value) == sizeof(bits));
    std::memcpy(&value, &bits, sizeof(value));
    if (!std::isfinite(value)) continue;
    const std::string text = NumberText(value);
    const double back = Parse(text);
    EXPECT_EQ(std::signbit(back), std::signbit(value)) << text;
    ASSERT_EQ(back, value) << text;
  }
  for (const double edge :
       {std::numeric_limits<double>::max(), std::numeric_limits<double>::min(),
        std::numeric_limits<double>::denorm_min(), std::nextafter(1e-4, 0.0),
        1e-4, std::nextafter(1e17, 0.0)}) {
    EXPECT_EQ(Parse(NumberText(edge)), edge) << NumberText(edge);
  }
}

}  // namespace
}  // namespace collide
