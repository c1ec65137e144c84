// collide-load as a user runs it: the real binary against the
// real server on an ephemeral loopback port, with what ghz users reach for:
// a ramp, CSV per interval, queries replayed from a file, metadata.
// Runs are short (1 s or a few batches) and bounded by their flags.
#include <stdio.h>
#include <sys/wait.h>

#include <array>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/client/test_server.h"
#include "tests/support/run_program.h"
#include "tests/support/temp_dir.h"

namespace collide::client {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

using Outcome = ::collide::testing::ProgramOutcome;

// Runs collide-load with `args` through the shell; stderr goes to the
// test's log.
Outcome RunLoad(const std::string& args) {
  return ::collide::testing::RunShellCommand(
      absl::StrCat(COLLIDE_LOAD_BINARY, " ", args));
}

std::string ReadFile(const std::string& path) {
  std::ifstream file(path);
  std::stringstream contents;
  contents << file.rdbuf();
  return contents.str();
}

class LoadCliE2eTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = testing::StartTestServer();
    ASSERT_NE(server_, nullptr) << "collide_server did not start";
    address_ = absl::StrCat("--address=127.0.0.1:", server_->port(),
                            " --progress=0 --warmup=0s");
    ASSERT_FALSE(dir_holder_.path().empty());
    dir_ = dir_holder_.path();
  }

  Outcome Load(const std::string& args) {
    return RunLoad(absl::StrCat(address_, " ", args));
  }

  std::unique_ptr<collide::testing::ServerProcess> server_;
  std::string address_;
  // Removed with everything in it when the test ends.
  collide::testing::TempDir dir_holder_;
  std::string dir_;
};

TEST_F(LoadCliE2eTest, StepRampWritesItsIntervalsAsCsv) {
  const std::string csv = absl::StrCat(dir_, "/ramp.csv");
  Outcome run = Load(absl::StrCat(
      "--rate=40 --ramp=step --ramp_to=80 --ramp_steps=2 --duration=1s "
      "--interval=500ms --level=levels/arena --csv=",
      csv,
      " --metadata=x-tenant:blue --metadata=\"authorization:Bearer t0k\""));
  EXPECT_EQ(run.exit_code, 0) << run.out;
  EXPECT_THAT(run.out, HasSubstr("ramp 2 steps to 80 batches/s"));
  // 40 batches/s for 0.5 s, then 80/s for 0.5 s.
  EXPECT_THAT(run.out, HasSubstr("60 answered of 60 sent"));
  const std::vector<std::string> lines =
      absl::StrSplit(ReadFile(csv), '\n', absl::SkipEmpty());
  ASSERT_GE(lines.size(), 3u) << ReadFile(csv);
  EXPECT_THAT(lines[0], StartsWith("start_s,end_s,target_batches_per_s,"));
  EXPECT_THAT(lines[1], StartsWith("0.000,0.500,40,"));
  EXPECT_THAT(lines[2], StartsWith("0.500,1.000,80,"));
}

TEST_F(LoadCliE2eTest, ReplaysQueriesFromAFile) {
  const std::string file = absl::StrCat(dir_, "/queries.jsonl");
  std::ofstream(file)
      << "# a wall hit and a miss on the arena\n"
      << R"({"rayCast": {"origin": {"x": 0, "y": 0}, "translation": {"x": 30}}})"
      << "\n"
      << R"({"circleCast": {"circle": {"center": {"x": 0, "y": 5}, "radius": 0.5}, "translation": {"x": 10}}})"
      << "\n";
  Outcome run = Load(
      absl::StrCat("--queries=", file, " --count=10 --batch_size=4 --json"));
  ASSERT_EQ(run.exit_code, 0) << run.out;
  const nlohmann::json json = nlohmann::json::parse(run.out, nullptr, false);
  ASSERT_FALSE(json.is_discarded()) << run.out;
  EXPECT_THAT(json["run"]["mix"].get<std::string>(),
              HasSubstr("replay " + file + " (2 queries)"));
  EXPECT_EQ(json["queries_ok"], 40);
}

// --packed sends the same mix as packed_rays columns; every
// query is answered and counted, and a mix of kinds is refused by name.
TEST_F(LoadCliE2eTest, PackedRaysAreAnsweredAndCounted) {
  Outcome run = Load("--packed --mix=ray --count=10 --batch_size=32 --json");
  ASSERT_EQ(run.exit_code, 0) << run.out;
  const nlohmann::json json = nlohmann::json::parse(run.out, nullptr, false);
  ASSERT_FALSE(json.is_discarded()) << run.out;
  EXPECT_EQ(json["run"]["packed"], true);
  EXPECT_EQ(json["queries_ok"], 320);
  EXPECT_EQ(json["queries_answered"], 320);

  Outcome mixed = Load("--packed --mix=ray=1,polygon=1 --count=1 2>&1");
  EXPECT_EQ(mixed.exit_code, 2) << mixed.out;
  EXPECT_THAT(mixed.out, HasSubstr("packed"));
}

// --fixed_width asks the packed batches for fixed-width result columns:
// every query is still answered and counted (from hit_status_fixed), and
// without --packed the flag is refused by name.
TEST_F(LoadCliE2eTest, FixedWidthPackedResultsAreCounted) {
  Outcome run = Load(
      "--packed --fixed_width --mix=circle --count=10 --batch_size=32 --json");
  ASSERT_EQ(run.exit_code, 0) << run.out;
  const nlohmann::json json = nlohmann::json::parse(run.out, nullptr, false);
  ASSERT_FALSE(json.is_discarded()) << run.out;
  EXPECT_EQ(json["run"]["fixed_width"], true);
  EXPECT_EQ(json["queries_ok"], 320);
  EXPECT_EQ(json["queries_answered"], 320);

  Outcome unpacked = Load("--fixed_width --mix=ray --count=1 2>&1");
  EXPECT_EQ(unpacked.exit_code, 2) << unpacked.out;
  EXPECT_THAT(unpacked.out, HasSubstr("fixed_width"));
}

// A bad flag is exit status 2 with the flag named (1 is for a run with
// errors), never a run of something else.
TEST_F(LoadCliE2eTest, BadFlagsAreRefusedByName) {
  struct Case {
    const char* args;
    const char* named;
  };
  for (const Case& c :
       {Case{"--frobnicate", "--frobnicate"}, Case{"--rate=fast", "--rate"},
        Case{"--ramp=zigzag --rate=10", "ramp"},
        Case{"--ramp=linear --ramp_to=10", "ramp"},
        Case{"--metadata=NoColon", "metadata"},
        Case{"--metadata=grpc-timeout:1S", "metadata"},
        Case{"--queries=/nonexistent/q.jsonl", "queries"}}) {
    const std::string command = absl::StrCat(COLLIDE_LOAD_BINARY, " ", address_,
                                             " --count=1 ", c.args, " 2>&1");
    FILE* pipe = popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string out;
    std::array<char, 4096> buffer;
    size_t n = 0;
    while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) {
      out.append(buffer.data(), n);
    }
    const int status = pclose(pipe);
    EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 2)
        << c.args << ": " << out;
    EXPECT_THAT(out, HasSubstr(c.named)) << c.args;
    EXPECT_THAT(out, ::testing::Not(HasSubstr("measured"))) << c.args;
  }
}

}  // namespace
}  // namespace collide::client
