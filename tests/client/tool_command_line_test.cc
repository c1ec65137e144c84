// The client tools' command lines: repeatable flags keep every
// value, and unknown flags are found before Abseil's parser would exit 1.
#include "client/lib/tool_command_line.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace collide::client::tools {
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

}  // namespace
}  // namespace collide::client::tools
