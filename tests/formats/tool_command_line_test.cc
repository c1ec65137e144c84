// The tools' command lines: repeatable flags keep every value, unknown flags
// are found before Abseil's parser would exit 1, a duration without its unit
// is told so, and --version's text carries the project version.
#include "proto/formats/tool_command_line.h"

#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/time/time.h"
#include "collide/version.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

ABSL_FLAG(absl::Duration, test_duration, absl::Seconds(1),
          "A duration flag for the tests.");

namespace collide::tools {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// argv over string literals (the functions never write through it).
std::vector<char*> Argv(std::vector<std::string>& storage) {
  std::vector<char*> args;
  for (std::string& arg : storage) args.push_back(arg.data());
  return args;
}

TEST(TakeRepeatedFlagTest, KeepsEveryValueInOrderAndTheRest) {
  std::vector<std::string> storage = {
      "tool", "--metadata=a:1", "--rate=5", "-metadata", "b:2, with comma",
      "pos",  "--metadata",     "c:3",      "--",        "--metadata=d:4"};
  std::vector<char*> args = Argv(storage);
  EXPECT_THAT(TakeRepeatedFlag(args, "metadata"),
              ElementsAre("a:1", "b:2, with comma", "c:3"));
  std::vector<std::string> rest(args.begin(), args.end());
  EXPECT_THAT(rest,
              ElementsAre("tool", "--rate=5", "pos", "--", "--metadata=d:4"));
}

TEST(CheckFlagsTest, UnknownFlagsAreNamed) {
  std::vector<std::string> storage = {"tool", "levels", "--frobnicate=1"};
  const absl::Status status = CheckFlags(Argv(storage));
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("--frobnicate: no such flag"));
  // Usage flags are Abseil's to handle; after "--" nothing is a flag.
  std::vector<std::string> fine = {"tool", "--help", "pos", "--",
                                   "--frobnicate"};
  EXPECT_TRUE(CheckFlags(Argv(fine)).ok());
}

TEST(CheckFlagsTest, ADurationWithoutItsUnitIsToldTheUnit) {
  std::vector<std::string> storage = {"tool", "--test_duration=3"};
  const absl::Status status = CheckFlags(Argv(storage));
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(),
              HasSubstr("--test_duration=3: a duration needs a unit, e.g. 3s"));
  // A value that is no number at all keeps Abseil's own message.
  std::vector<std::string> words = {"tool", "--test_duration", "soon"};
  EXPECT_THAT(CheckFlags(Argv(words)).message(),
              HasSubstr("--test_duration: "));
  std::vector<std::string> fine = {"tool", "--test_duration=250ms", "-"};
  EXPECT_TRUE(CheckFlags(Argv(fine)).ok());
  EXPECT_EQ(absl::GetFlag(FLAGS_test_duration), absl::Milliseconds(250));
}

TEST(VersionTextTest, NamesTheProgramAndTheProjectVersion) {
  EXPECT_EQ(VersionText("collide-cli"),
            std::string("collide-cli ") + collide::kVersion + "\n");
  EXPECT_THAT(std::string(collide::kVersion),
              ::testing::MatchesRegex("[0-9]+\\.[0-9]+\\.[0-9]+"));
}

}  // namespace
}  // namespace collide::tools
