// The client library against the real server (the collide_server binary on
// an ephemeral loopback port): level administration, batches, and QueryStream's
// ordering, window, refusals and failure delivery.
#include <atomic>
#include <csignal>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "client/lib/collide_client.h"
#include "client/lib/query_builders.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/client/test_server.h"

namespace collide::client {
namespace {

using ::testing::HasSubstr;

// A wall x = wall_x, y in [-100, 100], shape id 1, user_data tag.
v1::Level WallLevel(double wall_x, uint64_t tag) {
  v1::Level level;
  v1::Shape* shape = level.add_shapes();
  shape->set_id(1);
  shape->set_user_data(tag);
  *shape->mutable_segment()->mutable_p1() = ToProto({wall_x, -100});
  *shape->mutable_segment()->mutable_p2() = ToProto({wall_x, 100});
  return level;
}

class ClientE2eTest : public testing::ServerAndClientTest {};

TEST_F(ClientE2eTest, LevelsArePutListedFetchedAndDeleted) {
  ASSERT_TRUE(client_->CheckHealth().ok());
  absl::StatusOr<v1::PutLevelResponse> put =
      client_->PutLevel("wall", WallLevel(10, 77));
  ASSERT_TRUE(put.ok()) << put.status();
  EXPECT_TRUE(put->created());

  absl::StatusOr<v1::ListLevelsResponse> levels = client_->ListLevels();
  ASSERT_TRUE(levels.ok()) << levels.status();
  std::vector<std::string> names;
  for (const v1::LevelSummary& level : levels->levels()) {
    names.push_back(level.level());
  }
  EXPECT_EQ(levels->skipped_files_size(), 0);
  EXPECT_THAT(names, ::testing::ElementsAre("levels/arena", "levels/wall"));

  absl::StatusOr<v1::GetLevelResponse> got = client_->GetLevel("wall");
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->content().id(), "wall");
  ASSERT_EQ(got->content().shapes_size(), 1);
  EXPECT_EQ(got->content().shapes(0).user_data(), 77u);
  EXPECT_EQ(got->summary().version(), put->summary().version());

  ASSERT_TRUE(client_->DeleteLevel("wall").ok());
  EXPECT_EQ(client_->DescribeLevel("wall").status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(client_->GetLevel("wall").status().code(),
            absl::StatusCode::kNotFound);
}

TEST_F(ClientE2eTest, PatchesAndWritesExpectingAVersion) {
  absl::StatusOr<v1::PutLevelResponse> put =
      client_->PutLevel("wall", WallLevel(10, 77));
  ASSERT_TRUE(put.ok()) << put.status();
  const std::string hash = put->summary().content_hash();
  EXPECT_EQ(
      client_->PutLevel("wall", WallLevel(11, 1), {.content_hash = "absent"})
          .status()
          .code(),
      absl::StatusCode::kFailedPrecondition);

  v1::PatchLevelRequest patch;
  *patch.add_upserts() = WallLevel(20, 88).shapes(0);
  patch.set_expected_content_hash(hash);
  absl::StatusOr<v1::PatchLevelResponse> patched =
      client_->PatchLevel("wall", patch);
  ASSERT_TRUE(patched.ok()) << patched.status();
  // The same patch, expecting the content it replaced: refused.
  EXPECT_EQ(client_->PatchLevel("wall", patch).status().code(),
            absl::StatusCode::kFailedPrecondition);

  const std::string now = patched->summary().content_hash();
  const v1::Query ray = RayCast({0, 0}, {100, 0});
  absl::StatusOr<v1::RunQueriesResponse> answered =
      client_->RunQueries("wall", {&ray, 1}, now);
  ASSERT_TRUE(answered.ok()) << answered.status();
  EXPECT_EQ(answered->content_hash(), now);
  EXPECT_EQ(answered->results(0).cast().hits(0).user_data(), 88u);
  EXPECT_EQ(client_->RunQueries("wall", {&ray, 1}, hash).status().code(),
            absl::StatusCode::kFailedPrecondition);

  EXPECT_EQ(
      client_->DeleteLevel("wall", {.content_hash = hash}).status().code(),
      absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(client_->DeleteLevel("wall", {.content_hash = now}).ok());
}

TEST_F(ClientE2eTest, RunQueryAnswersAKnownHit) {
  ASSERT_TRUE(client_->PutLevel("wall", WallLevel(10, 77)).ok());
  absl::StatusOr<v1::QueryResult> result =
      client_->RunQuery("wall", RayCast({0, 0}, {20, 0}));
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->cast().hits_size(), 1);
  EXPECT_EQ(result->cast().hits(0).fraction(), 0.5);
  EXPECT_EQ(result->cast().hits(0).normal().x(), -1);
  EXPECT_EQ(result->cast().hits(0).user_data(), 77u);

  const absl::Status bad =
      client_->RunQuery("wall", CircleCast({0, 0}, -1, {1, 0})).status();
  EXPECT_EQ(bad.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(bad.message(), HasSubstr("radius"));
  EXPECT_EQ(client_->RunQuery("nope", RayCast({0, 0}, {1, 0})).status().code(),
            absl::StatusCode::kNotFound);
}

TEST_F(ClientE2eTest, ValidatesAMoveAndAShot) {
  ASSERT_TRUE(client_->PutLevel("wall", WallLevel(10, 77)).ok());
  // A circle of radius 1 at the origin claims 20 to the right: the wall at
  // x = 10 stops it with its centre at 9 - skin.
  absl::StatusOr<v1::QueryResult> move =
      client_->RunQuery("wall", MoveCircle({0, 0}, 1, {20, 0}, 0.01, 4));
  ASSERT_TRUE(move.ok()) << move.status();
  EXPECT_EQ(move->move_validation().verdict(), v1::MOVE_VERDICT_BLOCKED);
  EXPECT_NEAR(move->move_validation().safe_translation().x(), 8.99, 1e-9);
  EXPECT_FALSE(move->move_validation().claimed_end_reachable());

  // A target crossing the line at x = 5 just as the bullet passes (both
  // there at t = 0.25) is hit; one behind the wall never is.
  const v1::ShotTarget targets[] = {CircleTarget(7, {5, -1}, 0.5, {0, 4}),
                                    CircleTarget(8, {15, 0}, 0.5, {0, 0})};
  absl::StatusOr<v1::QueryResult> shot =
      client_->RunQuery("wall", Shot({0, 0}, {20, 0}, 0, targets));
  ASSERT_TRUE(shot.ok()) << shot.status();
  EXPECT_EQ(shot->hit_validation().outcome(), v1::SHOT_OUTCOME_TARGET);
  EXPECT_EQ(shot->hit_validation().id(), 7u);
}

TEST_F(ClientE2eTest, StreamAnswersEveryBatchInOrderWithinTheWindow) {
  ASSERT_TRUE(client_->PutLevel("wall", WallLevel(10, 77)).ok());
  constexpr int kWindow = 4;
  constexpr int kBatches = 60;
  absl::StatusOr<std::unique_ptr<QueryStream>> stream = client_->OpenStream(
      "wall", {.window = kWindow, .on_response = {}, .metadata = {}});
  ASSERT_TRUE(stream.ok()) << stream.status();
  int received = 0;
  for (int i = 1; i <= kBatches; ++i) {
    // Ray i starts at x = 10 - i / 10 and moves 1 along +x: it hits when
    // i <= 10, at fraction 1 - i / 10... so the answer tells batches apart.
    const double start = 10.0 - i / 10.0;
    const v1::Query batch[] = {WithRequestId(RayCast({start, 0}, {1, 0}), i)};
    absl::StatusOr<uint64_t> id = (*stream)->Send(batch);
    ASSERT_TRUE(id.ok()) << id.status();
    EXPECT_EQ(*id, static_cast<uint64_t>(i));
    EXPECT_LE((*stream)->outstanding(), kWindow);
    // Take answers only when the window is full, so Send must have waited.
    if ((*stream)->outstanding() == kWindow) {
      absl::StatusOr<BatchOutcome> outcome = (*stream)->Next();
      ASSERT_TRUE(outcome.ok()) << outcome.status();
      ++received;
      ASSERT_TRUE(outcome->response.ok()) << outcome->response.status();
      EXPECT_EQ(outcome->batch_id, static_cast<uint64_t>(received));
      EXPECT_EQ(outcome->response->results(0).request_id(),
                static_cast<uint64_t>(received));
    }
  }
  while (received < kBatches) {
    absl::StatusOr<BatchOutcome> outcome = (*stream)->Next();
    ASSERT_TRUE(outcome.ok()) << outcome.status();
    ++received;
    EXPECT_EQ(outcome->batch_id, static_cast<uint64_t>(received));
    const v1::QueryResult& result = outcome->response->results(0);
    EXPECT_EQ(result.request_id(), static_cast<uint64_t>(received));
    EXPECT_EQ(result.cast().hits_size(), received <= 10 ? 1 : 0);
  }
  EXPECT_EQ((*stream)->Next().status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE((*stream)->Finish().ok());
  const v1::Query batch[] = {RayCast({0, 0}, {1, 0})};
  EXPECT_EQ((*stream)->Send(batch).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST_F(ClientE2eTest, RefusedBatchComesBackAndTheStreamGoesOn) {
  absl::StatusOr<std::unique_ptr<QueryStream>> stream =
      client_->OpenStream("no_such_level");
  ASSERT_TRUE(stream.ok()) << stream.status();
  EXPECT_EQ((*stream)->Send(absl::Span<const v1::Query>()).status().code(),
            absl::StatusCode::kInvalidArgument);
  const v1::Query batch[] = {RayCast({0, 0}, {1, 0})};
  ASSERT_TRUE((*stream)->Send(batch).ok());
  ASSERT_TRUE((*stream)->Send(batch).ok());
  for (int i = 0; i < 2; ++i) {
    absl::StatusOr<BatchOutcome> outcome = (*stream)->Next();
    ASSERT_TRUE(outcome.ok()) << outcome.status();
    ASSERT_TRUE(outcome->response.ok()) << outcome->response.status();
    EXPECT_EQ(outcome->response->status().code(), 5);  // NOT_FOUND
  }
  EXPECT_TRUE((*stream)->Finish().ok());
}

TEST_F(ClientE2eTest, CallbackGetsEveryOutcomeEvenWhenTheServerGoesAway) {
  absl::Mutex mutex;
  std::vector<uint64_t> ids;
  int failed = 0;
  QueryStreamOptions options;
  options.window = 16;
  options.on_response = [&](BatchOutcome outcome) {
    absl::MutexLock lock(&mutex);
    ids.push_back(outcome.batch_id);
    if (!outcome.response.ok()) ++failed;
  };
  absl::StatusOr<std::unique_ptr<QueryStream>> stream =
      client_->OpenStream("arena", std::move(options));
  ASSERT_TRUE(stream.ok()) << stream.status();
  const v1::Query batch[] = {RayCast({0, 0}, {30, 0})};
  int sent = 0;
  for (; sent < 20; ++sent) ASSERT_TRUE((*stream)->Send(batch).ok());
  // A graceful stop (SIGTERM): the server drains, then exits 0.
  server_->Signal(SIGTERM);
  EXPECT_EQ(server_->Wait(20), 0) << server_->log();
  // Sends after the server went away fail with the stream's status; the
  // loop is bounded in case the stream outlives the shutdown briefly.
  for (int i = 0; i < 100; ++i) {
    if (!(*stream)->Send(batch).ok()) break;
    ++sent;
  }
  const absl::Status status = (*stream)->Finish();
  absl::MutexLock lock(&mutex);
  ASSERT_EQ(ids.size(), static_cast<size_t>(sent));
  for (size_t i = 0; i < ids.size(); ++i) EXPECT_EQ(ids[i], i + 1);
  // Either the server drained every batch before closing (OK), or the ones
  // it had not answered were delivered with the error.
  if (status.ok()) {
    EXPECT_EQ(failed, 0);
  }
}

}  // namespace
}  // namespace collide::client
