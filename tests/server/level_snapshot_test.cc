// Level snapshots: built from a v1::Level with its id and version, described
// for LevelService.
#include "server/levels/level_snapshot.h"

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "collide/v1/geometry.pb.h"
#include "collide/v1/level_service.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/formats/input_limits.h"

namespace collide::server {
namespace {

using ::testing::StartsWith;

v1::Level TwoCircles() {
  v1::Level level;
  level.set_id("two");
  for (int i = 0; i < 2; ++i) {
    v1::Shape* shape = level.add_shapes();
    shape->set_id(static_cast<uint64_t>(i + 1));
    shape->mutable_circle()->mutable_center()->set_x(10.0 * i);
    shape->mutable_circle()->set_radius(1);
  }
  return level;
}

TEST(MakeLevelSnapshotTest, KeepsIdVersionLevelAndSource) {
  absl::StatusOr<LevelSnapshot> snapshot =
      MakeLevelSnapshot(TwoCircles(), 4, formats::InputLimits{});
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_EQ(snapshot->id, "two");
  EXPECT_EQ(snapshot->version, 4);
  ASSERT_TRUE(snapshot->level != nullptr);
  EXPECT_EQ(snapshot->level->shape_count(), 2);
  ASSERT_TRUE(snapshot->source != nullptr);
  EXPECT_EQ(snapshot->source->shapes_size(), 2);
}

TEST(MakeLevelSnapshotTest, BadIdIsInvalidArgument) {
  v1::Level level = TwoCircles();
  level.set_id("../two");
  const absl::Status status =
      MakeLevelSnapshot(level, 1, formats::InputLimits{}).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()), StartsWith("level.id"));
}

TEST(MakeLevelSnapshotTest, BadShapeIsTheConversionError) {
  v1::Level level = TwoCircles();
  level.mutable_shapes(1)->mutable_circle()->set_radius(-1);
  const absl::Status status =
      MakeLevelSnapshot(level, 1, formats::InputLimits{}).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()),
              StartsWith("level.shapes[1].circle.radius must be >= 0"));
}

TEST(DescribeSnapshotTest, ReportsWhatTheLevelIs) {
  absl::StatusOr<LevelSnapshot> snapshot =
      MakeLevelSnapshot(TwoCircles(), 4, formats::InputLimits{});
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  const v1::LevelSummary summary = DescribeSnapshot(*snapshot);
  EXPECT_EQ(summary.level(), "levels/two");
  EXPECT_EQ(summary.version(), 4);
  EXPECT_EQ(summary.shape_count(), 2);
  EXPECT_EQ(summary.bounds().lower().x(), -1);
  EXPECT_EQ(summary.bounds().upper().x(), 11);
  EXPECT_EQ(summary.bounds().upper().y(), 1);
  EXPECT_GT(summary.cell_size(), 0);
  EXPECT_EQ(summary.cell_size(),
            snapshot->level->spatial_hash().grid().cell_size);
  EXPECT_GT(summary.memory_bytes(), 0);
}

}  // namespace
}  // namespace collide::server
