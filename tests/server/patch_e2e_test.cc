// End to end through the real server (in-process, loopback gRPC):
// PatchLevel, content hashes in summaries and query responses, expected
// versions on puts, patches, deletes and query batches, and a patched level
// surviving restarts through the level directory's journal.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "collide/v1/collision_service.grpc.pb.h"
#include "collide/v1/level_service.grpc.pb.h"
#include "e2e_helpers.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "server/collide_server.h"

namespace collide::server {
namespace {

using testing::Deadline;

// Level "doors": a wall (id 1) at x = 10 and `extra` static crates far away
// (ids 100...), so that patching the wall is a small change.
v1::Level Doors(const std::string& id, int extra) {
  v1::Level level = testing::WallLevel(id, 10, 1);
  for (int i = 0; i < extra; ++i) {
    v1::Shape* crate = level.add_shapes();
    crate->set_id(100 + static_cast<uint64_t>(i));
    testing::Set(crate->mutable_circle()->mutable_center(), -500, 10.0 * i);
    crate->mutable_circle()->set_radius(1);
  }
  return level;
}

// The wall moved to x and tagged `tag`, as an upsert.
v1::Shape Wall(double x, uint64_t tag) {
  return testing::WallLevel("", x, tag).shapes(0);
}

class PatchE2eTest : public ::testing::Test {
 protected:
  void StartServer() {
    ServerOptions options = testing::TestOptions();
    options.level_dir = level_dir_;
    absl::StatusOr<std::unique_ptr<CollideServer>> server =
        CollideServer::Start(options);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
    // Level changes (and reads, which it serves too) on the admin listener.
    levels_ =
        v1::LevelService::NewStub(testing::Connect(server_->admin_port()));
    collisions_ =
        v1::CollisionService::NewStub(testing::Connect(server_->port()));
  }

  grpc::Status Patch(const v1::PatchLevelRequest& request,
                     v1::PatchLevelResponse* response = nullptr) {
    v1::PatchLevelResponse ignored;
    grpc::ClientContext context;
    context.set_deadline(Deadline());
    return levels_->PatchLevel(&context, request,
                               response != nullptr ? response : &ignored);
  }

  v1::LevelSummary Summary(const std::string& name) {
    v1::DescribeLevelResponse response;
    EXPECT_TRUE(testing::Describe(*levels_, name, &response).ok());
    return response.summary();
  }

  v1::Level Content(const std::string& name) {
    grpc::ClientContext context;
    context.set_deadline(Deadline());
    v1::GetLevelRequest request;
    request.set_level(name);
    v1::GetLevelResponse response;
    EXPECT_TRUE(levels_->GetLevel(&context, request, &response).ok());
    return response.content();
  }

  // The ray along +x at y = 0: what it hits first (user data, fraction),
  // with the batch's content hash.
  v1::RunQueriesResponse Shoot(const std::string& expected_hash = "") {
    v1::RunQueriesRequest request;
    request.set_level("levels/doors");
    request.set_expected_content_hash(expected_hash);
    *request.add_queries() = testing::RayAlongX(1, 0);
    v1::RunQueriesResponse response;
    last_query_status_ = testing::RunQueries(*collisions_, request, &response);
    return response;
  }

  testing::TempDir dir_;
  std::string level_dir_;
  std::unique_ptr<CollideServer> server_;
  std::unique_ptr<v1::LevelService::Stub> levels_;
  std::unique_ptr<v1::CollisionService::Stub> collisions_;
  grpc::Status last_query_status_;
};

TEST_F(PatchE2eTest, PatchReplacesRemovesAndAddsShapesAtomically) {
  StartServer();
  v1::PutLevelResponse put;
  ASSERT_TRUE(testing::PutLevel(*levels_, Doors("doors", 50), &put).ok());
  EXPECT_EQ(put.summary().content_hash().size(), 64u);

  v1::PatchLevelRequest request;
  request.set_level("levels/doors");
  *request.add_upserts() = Wall(20, 2);  // the wall moves back
  request.add_remove_ids(100);           // a crate goes
  v1::Shape* added = request.add_upserts();
  *added = Wall(15, 3);  // a door closes in front
  added->set_id(7);
  v1::PatchLevelResponse patched;
  const grpc::Status status = Patch(request, &patched);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_GT(patched.summary().version(), put.summary().version());
  EXPECT_EQ(patched.summary().shape_count(), 51);
  EXPECT_NE(patched.summary().content_hash(), put.summary().content_hash());

  const v1::RunQueriesResponse shot = Shoot();
  ASSERT_TRUE(last_query_status_.ok()) << last_query_status_.error_message();
  EXPECT_EQ(shot.level_version(), patched.summary().version());
  EXPECT_EQ(shot.content_hash(), patched.summary().content_hash());
  ASSERT_EQ(shot.results(0).cast().hits_size(), 1);
  EXPECT_EQ(shot.results(0).cast().hits(0).user_data(), 3u);

  // The same content put whole has the same hash (ids are not content).
  v1::Level copy = Content("levels/doors");
  copy.set_id("copy");
  ASSERT_TRUE(testing::PutLevel(*levels_, copy, &put).ok());
  EXPECT_EQ(put.summary().content_hash(), patched.summary().content_hash());
}

TEST_F(PatchE2eTest, BadPatchesNameTheFieldAndChangeNothing) {
  StartServer();
  v1::PutLevelResponse put;
  ASSERT_TRUE(testing::PutLevel(*levels_, Doors("doors", 5), &put).ok());
  v1::PatchLevelRequest bad;
  bad.set_level("levels/doors");
  for (uint64_t id = 200; id < 203; ++id) {
    v1::Shape* shape = bad.add_upserts();
    *shape = Wall(30, 0);
    shape->set_id(id);
  }
  v1::Shape* polygon = bad.add_upserts();
  polygon->set_id(300);
  testing::Set(polygon->mutable_polygon()->add_vertices(), 0, 0);
  grpc::Status status = Patch(bad);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(
      absl::StartsWith(status.error_message(), "upserts[3].polygon.vertices"))
      << status.error_message();

  v1::PatchLevelRequest unknown;
  unknown.set_level("levels/doors");
  unknown.add_remove_ids(4242);
  status = Patch(unknown);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
  unknown.set_level("levels/nowhere");
  EXPECT_EQ(Patch(unknown).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(Summary("levels/doors").version(), put.summary().version());
}

TEST_F(PatchE2eTest, ConcurrentPatchesExpectingTheSameContentOneWins) {
  StartServer();
  v1::PutLevelResponse put;
  ASSERT_TRUE(testing::PutLevel(*levels_, Doors("doors", 20), &put).ok());
  std::string hash = put.summary().content_hash();
  for (int round = 0; round < 10; ++round) {
    std::atomic<int> ready{0};
    grpc::Status statuses[2];
    v1::PatchLevelResponse responses[2];
    std::vector<std::thread> admins;
    for (int a = 0; a < 2; ++a) {
      admins.emplace_back([&, a] {
        v1::PatchLevelRequest request;
        request.set_level("levels/doors");
        request.set_expected_content_hash(hash);
        *request.add_upserts() =
            Wall(20.0 + round, static_cast<uint64_t>(10 * round + a));
        ++ready;
        while (ready < 2) std::this_thread::yield();  // both start together
        statuses[a] = Patch(request, &responses[a]);
      });
    }
    for (std::thread& admin : admins) admin.join();
    const int winners = statuses[0].ok() + statuses[1].ok();
    ASSERT_EQ(winners, 1) << statuses[0].error_message() << " / "
                          << statuses[1].error_message();
    const int loser = statuses[0].ok() ? 1 : 0;
    EXPECT_EQ(statuses[loser].error_code(),
              grpc::StatusCode::FAILED_PRECONDITION);
    // What is served is the winner's patch.
    const v1::RunQueriesResponse shot = Shoot();
    EXPECT_EQ(shot.results(0).cast().hits(0).user_data(),
              static_cast<uint64_t>(10 * round + (1 - loser)));
    hash = responses[1 - loser].summary().content_hash();
    EXPECT_EQ(shot.content_hash(), hash);
  }
}

TEST_F(PatchE2eTest, PutAndDeleteRefuseWhenTheLevelMovedOn) {
  StartServer();
  v1::PutLevelResponse first;
  ASSERT_TRUE(testing::PutLevel(*levels_, Doors("doors", 2), &first).ok());
  // Create-only: the level exists.
  v1::PutLevelRequest put;
  put.set_level("levels/doors");
  *put.mutable_content() = Doors("doors", 3);
  put.set_expected_content_hash("absent");
  v1::PutLevelResponse ignored;
  {
    grpc::ClientContext context;
    context.set_deadline(Deadline());
    EXPECT_EQ(levels_->PutLevel(&context, put, &ignored).error_code(),
              grpc::StatusCode::FAILED_PRECONDITION);
  }
  // A stale version, then the right one.
  put.set_expected_content_hash("");
  put.set_expected_version(first.summary().version() + 100);
  {
    grpc::ClientContext context;
    context.set_deadline(Deadline());
    EXPECT_EQ(levels_->PutLevel(&context, put, &ignored).error_code(),
              grpc::StatusCode::FAILED_PRECONDITION);
  }
  EXPECT_EQ(Summary("levels/doors").version(), first.summary().version());
  put.set_expected_version(first.summary().version());
  {
    grpc::ClientContext context;
    context.set_deadline(Deadline());
    ASSERT_TRUE(levels_->PutLevel(&context, put, &ignored).ok());
  }
  v1::DeleteLevelRequest del;
  del.set_level("levels/doors");
  del.set_expected_content_hash(first.summary().content_hash());  // stale
  v1::DeleteLevelResponse deleted;
  {
    grpc::ClientContext context;
    context.set_deadline(Deadline());
    EXPECT_EQ(levels_->DeleteLevel(&context, del, &deleted).error_code(),
              grpc::StatusCode::FAILED_PRECONDITION);
  }
  del.set_expected_content_hash(ignored.summary().content_hash());
  grpc::ClientContext context;
  context.set_deadline(Deadline());
  EXPECT_TRUE(levels_->DeleteLevel(&context, del, &deleted).ok());
}

TEST_F(PatchE2eTest, QueryBatchExpectingOtherContentIsRefused) {
  StartServer();
  v1::PutLevelResponse put;
  ASSERT_TRUE(testing::PutLevel(*levels_, Doors("doors", 2), &put).ok());
  const std::string hash = put.summary().content_hash();
  Shoot(hash);
  EXPECT_TRUE(last_query_status_.ok()) << last_query_status_.error_message();
  Shoot(std::string(64, '0'));
  EXPECT_EQ(last_query_status_.error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_TRUE(absl::StrContains(last_query_status_.error_message(), hash));

  // On the stream: the batch is refused in its response, the stream stays.
  grpc::ClientContext context;
  context.set_deadline(Deadline());
  auto stream = collisions_->StreamQueries(&context);
  for (const std::string& expected : {std::string(64, '0'), hash}) {
    v1::StreamQueriesRequest request;
    request.set_level("levels/doors");
    request.set_expected_content_hash(expected);
    *request.add_queries() = testing::RayAlongX(1, 0);
    ASSERT_TRUE(stream->Write(request));
    v1::StreamQueriesResponse response;
    ASSERT_TRUE(stream->Read(&response));
    if (expected == hash) {
      EXPECT_EQ(response.status().code(), 0);
      EXPECT_EQ(response.content_hash(), hash);
      EXPECT_EQ(response.results_size(), 1);
    } else {
      EXPECT_EQ(response.status().code(),
                static_cast<int>(grpc::StatusCode::FAILED_PRECONDITION));
      EXPECT_EQ(response.results_size(), 0);
    }
  }
  stream->WritesDone();
  EXPECT_TRUE(stream->Finish().ok());
}

TEST_F(PatchE2eTest, PatchedLevelSurvivesRestartsWithItsContentHash) {
  level_dir_ = dir_.path();
  StartServer();
  v1::PutLevelResponse put;
  ASSERT_TRUE(testing::PutLevel(*levels_, Doors("doors", 60), &put).ok());
  for (uint64_t k = 2; k <= 4; ++k) {  // journaled patches
    v1::PatchLevelRequest request;
    request.set_level("levels/doors");
    *request.add_upserts() = Wall(10.0 + static_cast<double>(k), k);
    request.add_remove_ids(100 + k);
    ASSERT_TRUE(Patch(request).ok());
  }
  const v1::LevelSummary before = Summary("levels/doors");
  // Persisted as the level file plus a journal of the patches.
  EXPECT_TRUE(std::filesystem::exists(level_dir_ + "/doors.binpb"));
  EXPECT_TRUE(std::filesystem::exists(level_dir_ + "/doors.patches"));
  server_->Shutdown();
  server_.reset();

  StartServer();
  v1::LevelSummary after = Summary("levels/doors");
  EXPECT_EQ(after.content_hash(), before.content_hash());
  EXPECT_EQ(after.shape_count(), 58);
  EXPECT_EQ(Shoot().results(0).cast().hits(0).user_data(), 4u);
  // Patching goes on from the restored level, and survives the next
  // restart too.
  v1::PatchLevelRequest request;
  request.set_level("levels/doors");
  request.set_expected_content_hash(before.content_hash());
  *request.add_upserts() = Wall(30, 9);
  v1::PatchLevelResponse patched;
  ASSERT_TRUE(Patch(request, &patched).ok());
  server_->Shutdown();
  server_.reset();

  StartServer();
  after = Summary("levels/doors");
  EXPECT_EQ(after.content_hash(), patched.summary().content_hash());
  EXPECT_EQ(Shoot().results(0).cast().hits(0).user_data(), 9u);

  // A patch past 1/8 of the level builds it whole and folds the journal
  // into the level file.
  v1::PatchLevelRequest big;
  big.set_level("levels/doors");
  for (uint64_t id = 110; id < 130; ++id) big.add_remove_ids(id);
  ASSERT_TRUE(Patch(big, &patched).ok());
  EXPECT_FALSE(std::filesystem::exists(level_dir_ + "/doors.patches"));
  server_->Shutdown();
  server_.reset();

  StartServer();
  after = Summary("levels/doors");
  EXPECT_EQ(after.content_hash(), patched.summary().content_hash());
  EXPECT_EQ(after.shape_count(), 38);
}

}  // namespace
}  // namespace collide::server
