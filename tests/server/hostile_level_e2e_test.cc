// End to end: levels built to exhaust or stall a server. Their
// memory stays small, a closest-point query without max_distance returns,
// other callers keep being served, and a level over max_level_bytes is
// refused before it is built.
#include <cmath>
#include <memory>
#include <string>

#include "collide/v1/collision_service.grpc.pb.h"
#include "collide/v1/level_service.grpc.pb.h"
#include "e2e_helpers.h"
#include "gmock/gmock.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "server/collide_server.h"

namespace collide::server {
namespace {

using ::testing::HasSubstr;
using testing::Set;

void AddBox(v1::Level& level, uint64_t id, double cx, double cy, double hx,
            double hy) {
  v1::Shape* shape = level.add_shapes();
  shape->set_id(id);
  Set(shape->mutable_box()->mutable_center(), cx, cy);
  Set(shape->mutable_box()->mutable_half_extents(), hx, hy);
}

// A 138-byte level built to exhaust a server: one box 2^48 tall beside two
// small ones. Its spatial hash must stay small (under 1 MiB), and a
// closest-point query from (7, 7) without max_distance must end.
v1::Level ThreeBoxes() {
  v1::Level level;
  level.set_id("three_boxes");
  AddBox(level, 1, 2.5, 2.5, 1.1, 1);
  AddBox(level, 3, 97.5, 7.5, 1.1, 1);
  AddBox(level, 2, 62.5, 2.5, 1.1, std::ldexp(1.0, 48));
  return level;
}

class HostileLevelE2eTest : public ::testing::Test {
 protected:
  void Start(const ServerOptions& options) {
    absl::StatusOr<std::unique_ptr<CollideServer>> server =
        CollideServer::Start(options);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
    const auto channel = testing::Connect(server_->port());
    collisions_ = v1::CollisionService::NewStub(channel);
    // LevelService on the admin listener: it serves reads and the writes.
    levels_ =
        v1::LevelService::NewStub(testing::Connect(server_->admin_port()));
  }

  std::unique_ptr<CollideServer> server_;
  std::unique_ptr<v1::CollisionService::Stub> collisions_;
  std::unique_ptr<v1::LevelService::Stub> levels_;
};

TEST_F(HostileLevelE2eTest, HugeBoxLevelIsSmallAndAnUnboundedClosestPointEnds) {
  Start(testing::TestOptions());
  v1::PutLevelResponse put;
  const grpc::Status put_status =
      testing::PutLevel(*levels_, ThreeBoxes(), &put);
  ASSERT_TRUE(put_status.ok()) << put_status.error_message();
  EXPECT_LT(put.summary().memory_bytes(), 1 << 20);

  v1::RunQueriesRequest request;
  request.set_level("levels/three_boxes");
  v1::Query* closest = request.add_queries();
  closest->set_request_id(1);
  Set(closest->mutable_closest_point()->mutable_point(), 7, 7);
  v1::Query* ray = request.add_queries();
  ray->set_request_id(2);
  Set(ray->mutable_ray_cast()->mutable_origin(), 0, 2.5);
  Set(ray->mutable_ray_cast()->mutable_translation(), 100, 0);
  v1::RunQueriesResponse response;
  const grpc::Status status =
      testing::RunQueries(*collisions_, request, &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(response.results_size(), 2);
  // Box 1's corner (3.6, 3.5) is nearest (7, 7).
  const v1::ClosestPointResult& found = response.results(0).closest_point();
  EXPECT_TRUE(found.found());
  EXPECT_EQ(found.shape_id(), 1u);
  EXPECT_NEAR(found.distance(), std::hypot(7 - 3.6, 7 - 3.5), 1e-12);
  // The ray along y = 2.5 meets box 1 first, at x = 1.4.
  ASSERT_EQ(response.results(1).cast().hits_size(), 1);
  EXPECT_EQ(response.results(1).cast().hits(0).shape_id(), 1u);
  EXPECT_NEAR(response.results(1).cast().hits(0).fraction(), 0.014, 1e-12);
}

TEST_F(HostileLevelE2eTest, LevelOverMaxLevelBytesIsRefusedNamingTheLimit) {
  ServerOptions options = testing::TestOptions();
  options.limits.max_level_bytes = 4 << 20;
  Start(options);
  v1::Level level;
  level.set_id("too_big");
  for (int i = 0; i < 20000; ++i) {
    AddBox(level, static_cast<uint64_t>(i + 1), i, 0, 0.4, 0.4);
  }
  v1::PutLevelResponse put;
  const grpc::Status status = testing::PutLevel(*levels_, level, &put);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(status.error_message(), HasSubstr("max_level_bytes 4194304"));
  // A level within the limit is still accepted afterwards.
  const grpc::Status small = testing::PutLevel(*levels_, ThreeBoxes(), &put);
  EXPECT_TRUE(small.ok()) << small.error_message();
}

}  // namespace
}  // namespace collide::server
