// ValidateLoadOptions: a load test's options are refused naming the field
// (and so the collide-load flag) that is out of range.
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "client/load/load_runner.h"
#include "gtest/gtest.h"

namespace collide::client::load {
namespace {

TEST(LoadOptionsTest, BadRampsAreRefusedNamingTheFlag) {
  LoadOptions closed;
  closed.plan.ramp = {.shape = RampShape::kLinear, .to_rate = 100};
  EXPECT_TRUE(absl::StartsWith(ValidateLoadOptions(closed).message(), "ramp"));
  LoadOptions no_end;
  no_end.plan.rate = 10;
  no_end.plan.ramp = {.shape = RampShape::kStep};
  EXPECT_TRUE(
      absl::StartsWith(ValidateLoadOptions(no_end).message(), "ramp_to"));
  LoadOptions one_step = no_end;
  one_step.plan.ramp = {.shape = RampShape::kStep, .to_rate = 20, .steps = 1};
  EXPECT_TRUE(
      absl::StartsWith(ValidateLoadOptions(one_step).message(), "ramp_steps"));
  LoadOptions counted = one_step;
  counted.plan.ramp.steps = 3;
  EXPECT_TRUE(ValidateLoadOptions(counted).ok());
  counted.plan.count = 10;
  EXPECT_TRUE(absl::StartsWith(ValidateLoadOptions(counted).message(), "ramp"));
}

TEST(LoadOptionsTest, BadOptionsAreRefusedNamingTheField) {
  struct Case {
    LoadOptions options;
    const char* field;
  };
  std::vector<Case> cases(6);
  cases[0].options.window = 0;
  cases[0].field = "window";
  cases[1].options.batch_size = 0;
  cases[1].field = "batch_size";
  cases[2].options.streams_per_connection = 0;
  cases[2].field = "streams";
  cases[3].options.plan.rate = -1;
  cases[3].field = "rate";
  cases[4].options.plan.duration = Clock::duration::zero();
  cases[4].field = "duration";
  cases[5].options.plan.count = -2;
  cases[5].field = "count";
  for (const Case& c : cases) {
    const absl::Status status = ValidateLoadOptions(c.options);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << c.field;
    EXPECT_TRUE(absl::StartsWith(status.message(), c.field))
        << status.message();
  }
  EXPECT_TRUE(ValidateLoadOptions(LoadOptions()).ok());
}

}  // namespace
}  // namespace collide::client::load
