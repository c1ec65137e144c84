// ChooseLevel: which level a tool reading a request file acts on.
#include "client/lib/level_choice.h"

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace collide::client {
namespace {

using ::testing::HasSubstr;

TEST(ChooseLevelTest, TheFilesLevelWinsOverTheDefault) {
  absl::StatusOr<std::string> level =
      ChooseLevel("patch.json", "levels/dock", std::nullopt);
  ASSERT_TRUE(level.ok()) << level.status();
  EXPECT_EQ(*level, "dock");
}

TEST(ChooseLevelTest, TheFlagFillsInForAFileThatNamesNone) {
  EXPECT_EQ(*ChooseLevel("batch.json", "", std::string("levels/dock")), "dock");
  EXPECT_EQ(*ChooseLevel("batch.json", "", std::string("dock")), "dock");
}

TEST(ChooseLevelTest, NeitherNamingOneIsTheArena) {
  EXPECT_EQ(*ChooseLevel("batch.json", "", std::nullopt), "arena");
  EXPECT_EQ(*ChooseLevel("batch.json", "", std::string("")), "arena");
}

TEST(ChooseLevelTest, AFlagNamingTheSameLevelIsNoConflict) {
  for (const char* flag : {"dock", "levels/dock"}) {
    for (const char* file : {"dock", "levels/dock"}) {
      absl::StatusOr<std::string> level =
          ChooseLevel("patch.json", file, std::string(flag));
      ASSERT_TRUE(level.ok()) << flag << " " << file << ": " << level.status();
      EXPECT_EQ(*level, "dock");
    }
  }
}

TEST(ChooseLevelTest, AFlagNamingAnotherLevelIsRefusedNamingBoth) {
  absl::StatusOr<std::string> level =
      ChooseLevel("patch.json", "levels/dock", std::string("arena"));
  ASSERT_EQ(level.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(level.status().message(),
            "--level=arena and patch.json's \"level\": \"levels/dock\" name "
            "different levels (give one, or make them agree)");
  // The default is never a conflict: only a flag that was given.
  EXPECT_TRUE(ChooseLevel("patch.json", "levels/dock", std::nullopt).ok());
  EXPECT_THAT(
      ChooseLevel("b.json", "levels/a", std::string("levels/b"))
          .status()
          .message(),
      HasSubstr("--level=levels/b and b.json's \"level\": \"levels/a\""));
}

}  // namespace
}  // namespace collide::client
