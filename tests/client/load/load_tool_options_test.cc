// collide-load's command line, parsed and checked before any connection:
// defaults, the first refused flag named, and what the runner gets.
#include "client/load/load_tool_options.h"

#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace collide::client::load {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;
using ::testing::StartsWith;

// The message ParseLoadToolOptions refuses `flags` with ("" when it
// accepts them); every refusal is INVALID_ARGUMENT unless a file is named.
std::string Refusal(const LoadToolFlags& flags) {
  absl::StatusOr<LoadToolOptions> options = ParseLoadToolOptions(flags);
  return options.ok() ? "" : std::string(options.status().message());
}

TEST(ParseLoadToolOptionsTest, DefaultsAreAClosedLoopOnTheArena) {
  absl::StatusOr<LoadToolOptions> options = ParseLoadToolOptions({});
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->client.target, "127.0.0.1:50051");
  EXPECT_EQ(options->client.load_balancing, "round_robin");
  EXPECT_TRUE(options->client.metadata.empty());
  EXPECT_EQ(options->connections, 1);
  EXPECT_EQ(options->load.level_id, "arena");
  EXPECT_EQ(options->load.streams_per_connection, 4);
  EXPECT_EQ(options->load.window, 4);
  EXPECT_EQ(options->load.batch_size, 16);
  EXPECT_EQ(options->load.plan.rate, 0);
  EXPECT_EQ(options->load.plan.ramp.shape, RampShape::kNone);
  EXPECT_EQ(options->load.plan.duration, std::chrono::seconds(10));
  EXPECT_EQ(options->load.plan.warmup, std::chrono::seconds(1));
  // 10 s over at most about 60 intervals: 200 ms.
  EXPECT_EQ(options->load.interval, std::chrono::milliseconds(200));
  EXPECT_EQ(options->load.progress_interval, std::chrono::seconds(1));
  EXPECT_EQ(options->load.drain_timeout, std::chrono::seconds(30));
  EXPECT_TRUE(options->load.replay_queries.empty());
  ASSERT_EQ(options->mix.kinds.size(), 3u);
  EXPECT_EQ(options->mix.length.min, 1);
  EXPECT_EQ(options->mix.length.max, 20);
  EXPECT_EQ(options->mix.radius.min, 0.25);
  EXPECT_EQ(options->mix.radius.max, 1);
  EXPECT_FALSE(options->json);
  EXPECT_TRUE(options->plot.empty());
  EXPECT_TRUE(options->csv.empty());
}

TEST(ParseLoadToolOptionsTest, FlagsReachTheClientAndTheRunner) {
  LoadToolFlags flags;
  flags.address = "10.0.0.1:1";
  flags.target = "dns:///collide:50051";
  flags.level = "levels/dock";
  flags.connections = 3;
  flags.rate = 500;
  flags.ramp = "step";
  flags.ramp_to = 2000;
  flags.ramp_steps = 4;
  flags.duration = absl::Seconds(30);
  flags.interval = absl::Milliseconds(50);
  flags.metadata = {"authorization: Bearer TOKEN", "x-tenant:blue"};
  flags.tls_ca_file = "ca.pem";
  flags.mix = "move=5,shot=4";
  flags.plot = "load.HTML";
  flags.csv = "ramp.csv";
  absl::StatusOr<LoadToolOptions> options = ParseLoadToolOptions(flags);
  ASSERT_TRUE(options.ok()) << options.status();
  // --target wins over --address.
  EXPECT_EQ(options->client.target, "dns:///collide:50051");
  EXPECT_EQ(options->client.tls_ca_file, "ca.pem");
  EXPECT_THAT(options->client.metadata,
              ElementsAre(Pair("authorization", "Bearer TOKEN"),
                          Pair("x-tenant", "blue")));
  EXPECT_EQ(options->connections, 3);
  EXPECT_EQ(options->load.level_id, "dock");
  EXPECT_EQ(options->load.plan.rate, 500);
  EXPECT_EQ(options->load.plan.ramp.shape, RampShape::kStep);
  EXPECT_EQ(options->load.plan.ramp.to_rate, 2000);
  EXPECT_EQ(options->load.plan.ramp.steps, 4);
  EXPECT_EQ(options->load.plan.duration, std::chrono::seconds(30));
  EXPECT_EQ(options->load.interval, std::chrono::milliseconds(50));
  EXPECT_EQ(options->mix.kinds.size(), 2u);
  EXPECT_EQ(options->plot, "load.HTML");
  EXPECT_EQ(options->csv, "ramp.csv");
}

TEST(ParseLoadToolOptionsTest, EachRefusalNamesItsFlag) {
  const auto with = [](auto set) {
    LoadToolFlags flags;
    set(flags);
    return Refusal(flags);
  };
  EXPECT_THAT(with([](LoadToolFlags& f) { f.metadata = {"Bad:1"}; }),
              StartsWith("metadata \"Bad:1\" must be key:value"));
  EXPECT_THAT(with([](LoadToolFlags& f) { f.metadata = {"grpc-x:1"}; }),
              StartsWith("metadata \"grpc-x:1\""));
  EXPECT_THAT(with([](LoadToolFlags& f) { f.metadata = {"nocolon"}; }),
              StartsWith("metadata \"nocolon\""));
  EXPECT_THAT(with([](LoadToolFlags& f) { f.fixed_width = true; }),
              StartsWith("fixed_width needs --packed"));
  EXPECT_THAT(with([](LoadToolFlags& f) { f.ramp = "up"; }),
              StartsWith("ramp \"up\" must be none, linear or step"));
  EXPECT_THAT(with([](LoadToolFlags& f) { f.window = 0; }),
              StartsWith("window must be >= 1, not 0"));
  EXPECT_THAT(with([](LoadToolFlags& f) { f.rate = -1; }),
              StartsWith("rate must be >= 0"));
  EXPECT_THAT(with([](LoadToolFlags& f) {
                f.ramp = "step";
                f.rate = 5;
                f.ramp_to = 10;
                f.ramp_steps = 1;
              }),
              StartsWith("ramp_steps must be >= 2, not 1"));
  EXPECT_THAT(with([](LoadToolFlags& f) { f.queries = "/nonexistent"; }),
              StartsWith("queries: cannot open /nonexistent"));
  EXPECT_THAT(with([](LoadToolFlags& f) { f.plot = "x.png"; }),
              StartsWith("plot \"x.png\" must end in .svg or .html"));
  EXPECT_THAT(with([](LoadToolFlags& f) { f.mix = "foo=1"; }),
              StartsWith("mix: unknown query kind \"foo\""));
  EXPECT_THAT(with([](LoadToolFlags& f) { f.radius = "a:b"; }),
              StartsWith("radius \"a:b\" must be MIN:MAX"));
}

TEST(ParseLoadToolOptionsTest, TheFirstRefusedFlagInOrderIsReported) {
  LoadToolFlags flags;
  flags.radius = "a:b";
  flags.window = 0;
  flags.metadata = {"nocolon"};
  EXPECT_THAT(Refusal(flags), StartsWith("metadata"));
  flags.metadata.clear();
  EXPECT_THAT(Refusal(flags), StartsWith("window"));
  flags.window = 1;
  EXPECT_THAT(Refusal(flags), StartsWith("radius"));
}

// Connection flags are the connection's to check: the parser passes them on.
TEST(ParseLoadToolOptionsTest, ConnectionFlagsAreLeftToTheConnection) {
  LoadToolFlags flags;
  flags.connections = 0;
  flags.tls_cert_file = "client.pem";
  EXPECT_EQ(Refusal(flags), "");
}

TEST(ParseLoadToolOptionsTest, ReplayedQueriesComeFromTheFile) {
  char pattern[] = "/tmp/collide_load_tool_options_XXXXXX";
  const int fd = mkstemp(pattern);
  ASSERT_GE(fd, 0);
  close(fd);
  std::ofstream(pattern)
      << R"({"rayCast": {"origin": {"x": 1}, "translation": {"x": 30}}})"
      << "\n";
  LoadToolFlags flags;
  flags.queries = pattern;
  absl::StatusOr<LoadToolOptions> options = ParseLoadToolOptions(flags);
  unlink(pattern);
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->queries_file, pattern);
  ASSERT_EQ(options->load.replay_queries.size(), 1u);
  EXPECT_TRUE(options->load.replay_queries[0].has_ray_cast());
}

TEST(AutoIntervalTest, AFewDozenIntervalsOnA125Step) {
  EXPECT_EQ(AutoInterval(absl::Seconds(10), 5), absl::Seconds(1));
  EXPECT_EQ(AutoInterval(absl::Milliseconds(500), 0), absl::Milliseconds(10));
  EXPECT_EQ(AutoInterval(absl::Seconds(10), 0), absl::Milliseconds(200));
  EXPECT_EQ(AutoInterval(absl::Seconds(60), 0), absl::Seconds(1));
  EXPECT_EQ(AutoInterval(absl::Hours(1), 0), absl::Seconds(10));
}

TEST(DescribeRampTest, NamesTheShapeAndTheLastRate) {
  EXPECT_EQ(DescribeRamp({}), "");
  EXPECT_EQ(DescribeRamp({.shape = RampShape::kLinear, .to_rate = 2000}),
            "linear to 2000 batches/s");
  EXPECT_EQ(
      DescribeRamp({.shape = RampShape::kStep, .to_rate = 2000, .steps = 5}),
      "5 steps to 2000 batches/s");
}

}  // namespace
}  // namespace collide::client::load
