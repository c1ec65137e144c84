// End to end through the real server (in-process, loopback gRPC): two-way
// filters and one-sided shapes put in a level, queried, patched, refused
// with INVALID_ARGUMENT naming the field, and kept through a restart from
// the level directory.
#include <cstdint>
#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "collide/v1/collision_service.grpc.pb.h"
#include "collide/v1/level_service.grpc.pb.h"
#include "e2e_helpers.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "server/collide_server.h"

namespace collide::server {
namespace {

using testing::Deadline;
using testing::Set;

// Level "yard": a one-sided platform (id 1) along y = 0 from x = -5 to 5
// facing up; a wall (id 2) at x = 3 that blocks only query category 4; a
// wall (id 3) at x = 6 of group -7.
v1::Level Yard() {
  v1::Level level;
  level.set_id("yard");
  v1::Shape* platform = level.add_shapes();
  platform->set_id(1);
  Set(platform->mutable_segment()->mutable_p1(), -5, 0);
  Set(platform->mutable_segment()->mutable_p2(), 5, 0);
  platform->set_one_sided(true);
  v1::Shape* gate = level.add_shapes();
  gate->set_id(2);
  Set(gate->mutable_segment()->mutable_p1(), 3, -100);
  Set(gate->mutable_segment()->mutable_p2(), 3, 100);
  gate->set_mask_bits(4);
  v1::Shape* squad = level.add_shapes();
  squad->set_id(3);
  Set(squad->mutable_segment()->mutable_p1(), 6, -100);
  Set(squad->mutable_segment()->mutable_p2(), 6, 100);
  squad->set_group(-7);
  return level;
}

v1::Query Ray(uint64_t request_id, double ox, double oy, double dx, double dy) {
  v1::Query query;
  query.set_request_id(request_id);
  Set(query.mutable_ray_cast()->mutable_origin(), ox, oy);
  Set(query.mutable_ray_cast()->mutable_translation(), dx, dy);
  return query;
}

class FilterE2eTest : public ::testing::Test {
 protected:
  void StartServer() {
    ServerOptions options = testing::TestOptions();
    options.level_dir = dir_.path();
    absl::StatusOr<std::unique_ptr<CollideServer>> server =
        CollideServer::Start(options);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
    levels_ =
        v1::LevelService::NewStub(testing::Connect(server_->admin_port()));
    collisions_ =
        v1::CollisionService::NewStub(testing::Connect(server_->port()));
  }

  // The shape id each query's first hit names (0: a miss).
  std::vector<uint64_t> FirstIds(const v1::RunQueriesRequest& request) {
    v1::RunQueriesResponse response;
    const grpc::Status status =
        testing::RunQueries(*collisions_, request, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    std::vector<uint64_t> ids;
    for (const v1::QueryResult& result : response.results()) {
      EXPECT_EQ(result.status().code(), 0) << result.status().message();
      if (result.has_cast()) {
        ids.push_back(result.cast().hits_size() > 0
                          ? result.cast().hits(0).shape_id()
                          : 0);
      } else if (result.has_move_validation()) {
        const v1::MoveValidationResult& move = result.move_validation();
        ids.push_back(move.has_first_hit() ? move.first_hit().shape_id() : 0);
      }
    }
    return ids;
  }

  // Falling onto the platform, rising through it, and rays along +x with
  // the default filter, category 4 and group -7.
  v1::RunQueriesRequest Probe() {
    v1::RunQueriesRequest request;
    request.set_level("levels/yard");
    *request.add_queries() = Ray(1, 0, 2, 0, -4);
    *request.add_queries() = Ray(2, 0, -2, 0, 4);
    *request.add_queries() = Ray(3, 0, 50, 100, 0);
    v1::Query mine = Ray(4, 0, 50, 100, 0);
    mine.mutable_ray_cast()
        ->mutable_options()
        ->mutable_filter()
        ->set_category_bits(4);
    *request.add_queries() = mine;
    v1::Query squad = Ray(5, 0, 50, 100, 0);
    squad.mutable_ray_cast()->mutable_options()->mutable_filter()->set_group(
        -7);
    *request.add_queries() = squad;
    // A disc landing on the platform, and one jumping up through it.
    for (const double dy : {-4.0, 4.0}) {
      v1::Query move;
      move.set_request_id(dy < 0 ? 6 : 7);
      v1::MoveValidationQuery* m = move.mutable_move_validation();
      Set(m->mutable_circle()->mutable_center(), 0, dy < 0 ? 2 : -2);
      m->mutable_circle()->set_radius(0.5);
      Set(m->mutable_translation(), 0, dy);
      *request.add_queries() = move;
    }
    return request;
  }

  testing::TempDir dir_;
  std::unique_ptr<CollideServer> server_;
  std::unique_ptr<v1::LevelService::Stub> levels_;
  std::unique_ptr<v1::CollisionService::Stub> collisions_;
};

TEST_F(FilterE2eTest, FiltersAndOneSidedShapesAnswerOverTheWire) {
  StartServer();
  v1::PutLevelResponse put;
  const grpc::Status status = testing::PutLevel(*levels_, Yard(), &put);
  ASSERT_TRUE(status.ok()) << status.error_message();
  const std::vector<uint64_t> expected = {1, 0, 3, 2, 0, 1, 0};
  EXPECT_EQ(FirstIds(Probe()), expected);
}

TEST_F(FilterE2eTest, DefaultFieldsKeepTheContentHash) {
  StartServer();
  v1::Level plain = testing::WallLevel("plain", 10, 1);
  v1::PutLevelResponse first;
  ASSERT_TRUE(testing::PutLevel(*levels_, plain, &first).ok());
  // The same shape with the new fields set to their defaults.
  plain.mutable_shapes(0)->set_group(0);
  plain.mutable_shapes(0)->set_one_sided(false);
  plain.set_id("plain2");
  v1::PutLevelResponse second;
  ASSERT_TRUE(testing::PutLevel(*levels_, plain, &second).ok());
  EXPECT_EQ(first.summary().content_hash(), second.summary().content_hash());
}

TEST_F(FilterE2eTest, PatchesChangeFiltersAndSidesAndSurviveARestart) {
  StartServer();
  v1::PutLevelResponse put;
  ASSERT_TRUE(testing::PutLevel(*levels_, Yard(), &put).ok());
  // The platform turns two-sided: rising through it is now blocked; the
  // gate blocks every query category.
  v1::PatchLevelRequest patch;
  patch.set_level("levels/yard");
  *patch.add_upserts() = Yard().shapes(0);
  patch.mutable_upserts(0)->set_one_sided(false);
  *patch.add_upserts() = Yard().shapes(1);
  patch.mutable_upserts(1)->clear_mask_bits();
  {
    grpc::ClientContext context;
    context.set_deadline(Deadline());
    v1::PatchLevelResponse response;
    const grpc::Status status = levels_->PatchLevel(&context, patch, &response);
    ASSERT_TRUE(status.ok()) << status.error_message();
  }
  const std::vector<uint64_t> patched = {1, 1, 2, 2, 2, 1, 1};
  EXPECT_EQ(FirstIds(Probe()), patched);
  // The level directory's journal keeps the fields.
  server_.reset();
  StartServer();
  EXPECT_EQ(FirstIds(Probe()), patched);
}

TEST_F(FilterE2eTest, OneSidedOnASolidIsInvalidArgumentNamingTheField) {
  StartServer();
  v1::Level level = Yard();
  v1::Shape* disc = level.add_shapes();
  disc->set_id(9);
  Set(disc->mutable_circle()->mutable_center(), 0, 0);
  disc->mutable_circle()->set_radius(1);
  disc->set_one_sided(true);
  v1::PutLevelResponse put;
  const grpc::Status status = testing::PutLevel(*levels_, level, &put);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(status.error_message(),
            "content.shapes[3].one_sided needs a segment or polyline, got a "
            "circle");
  // The same through PatchLevel names the upsert.
  ASSERT_TRUE(testing::PutLevel(*levels_, Yard(), &put).ok());
  v1::PatchLevelRequest patch;
  patch.set_level("levels/yard");
  *patch.add_upserts() = *disc;
  grpc::ClientContext context;
  context.set_deadline(Deadline());
  v1::PatchLevelResponse response;
  const grpc::Status patched = levels_->PatchLevel(&context, patch, &response);
  EXPECT_EQ(patched.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(absl::StrContains(patched.error_message(),
                                "upserts[0].one_sided needs a segment"))
      << patched.error_message();
}

}  // namespace
}  // namespace collide::server
