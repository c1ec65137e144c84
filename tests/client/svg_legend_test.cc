// The legend under a picture: which entries it shows, its notes, and how
// long lines are cut.
#include "client/svg/svg_legend.h"

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace collide::client::svg_internal {
namespace {

int Count(const std::string& text, const std::string& part) {
  int count = 0;
  for (size_t at = text.find(part); at != std::string::npos;
       at = text.find(part, at + 1)) {
    ++count;
  }
  return count;
}

TEST(ShortenedTest, FitsUnchangedElseCutWithDots) {
  EXPECT_EQ(Shortened("abc", 3), "abc");
  EXPECT_EQ(Shortened("abcdefgh", 6), "abc...");
}

TEST(ShortenedTest, NeverSplitsAUtf8Sequence) {
  // "a" then three 2-byte characters (7 bytes). Cut to 5, 2 bytes are left
  // before the dots: byte 2 is inside the first character, so it goes.
  EXPECT_EQ(Shortened("a\xC3\xA9\xC3\xA9\xC3\xA9", 5), "a...");
  EXPECT_EQ(Shortened("a\xC3\xA9\xC3\xA9\xC3\xA9", 6), "a\xC3\xA9...");
}

TEST(DrawLegendTest, ShowsOnlyTheRolesUsed) {
  LegendContent content;
  content.summary = "level x";
  content.roles.set(kRoleSolid);
  content.roles.set(kRoleToi);
  const Legend legend = DrawLegend(content, 800, 100.0);
  EXPECT_TRUE(absl::StrContains(legend.svg, ">solid shape<"));
  EXPECT_TRUE(absl::StrContains(legend.svg, ">at hit (fraction t)<"));
  EXPECT_FALSE(absl::StrContains(legend.svg, ">swept region<"));
  EXPECT_FALSE(absl::StrContains(legend.svg, ">closest point<"));
  EXPECT_TRUE(absl::StartsWith(legend.svg, "<g id=\"legend\">"));
}

TEST(DrawLegendTest, ManyNotesAreSummedUpAndTheBandGrowsWithThem) {
  LegendContent few;
  few.summary = "level x";
  few.notes = {"#1: one"};
  LegendContent many = few;
  for (int i = 2; i <= 20; ++i) many.notes.push_back(absl::StrCat("#", i));
  const Legend short_legend = DrawLegend(few, 800, 0.0);
  const Legend long_legend = DrawLegend(many, 800, 0.0);
  EXPECT_TRUE(absl::StrContains(long_legend.svg, "... and 12 more notes"));
  EXPECT_FALSE(absl::StrContains(long_legend.svg, ">#9<"));
  EXPECT_TRUE(absl::StrContains(long_legend.svg, ">#8<"));
  // 8 notes and the "more" line against 1 note: 8 more rows.
  EXPECT_EQ(long_legend.height - short_legend.height, 8 * 18);
}

TEST(DrawLegendTest, NarrowLegendWrapsEntriesOntoMoreRows) {
  LegendContent content;
  content.summary = "level x";
  for (int role = 0; role < kRoleCount; ++role) content.roles.set(role);
  const Legend wide = DrawLegend(content, 2000, 0.0);
  const Legend narrow = DrawLegend(content, 300, 0.0);
  EXPECT_GT(narrow.height, wide.height);
  // Every entry is there either way (halo and text per name).
  EXPECT_EQ(Count(narrow.svg, "class=\"note\">"),
            Count(wide.svg, "class=\"note\">"));
}

}  // namespace
}  // namespace collide::client::svg_internal
