// End to end: a level replaced (PutLevel) or patched (PatchLevel) again and
// again while a stream is busy. Every query must succeed and every batch
// must be answered entirely on one version, the one its response names (no
// query fails, none sees half a level or a mix of versions).
#include <atomic>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <thread>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "collide/v1/collision_service.grpc.pb.h"
#include "collide/v1/level_service.grpc.pb.h"
#include "e2e_helpers.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "server/collide_server.h"

namespace collide::server {
namespace {

using testing::Deadline;

// Content k of level "swap": a wall at x = 10 + k tagged k, so a ray from
// x = 0 along +x hits it at fraction (10 + k) / 1000 with user_data k.
// The writer sends at least kMinBatches, and goes on (up to kMaxBatches)
// until kMinPuts puts have completed, so swaps land while it is busy
// however the threads are scheduled.
constexpr int kMinBatches = 400;
constexpr int kMaxBatches = 20000;
constexpr int kMinPuts = 20;
constexpr int kQueriesPerBatch = 32;
constexpr int kMaxPuts = 2000;
constexpr int kCrates = 60;

// Level "swap" content k: four walls at x = 10 + k, one per band of y
// (ids 1 to 4, user_data k), plus `crates` circles far off the rays (ids
// 100...), so that replacing the walls is a small patch of a larger level.
v1::Level SwapLevel(uint64_t k, int crates) {
  v1::Level level;
  level.set_id("swap");
  const double bands[] = {-100, -25, 0, 25, 100};
  for (int b = 0; b < 4; ++b) {
    v1::Shape* wall = level.add_shapes();
    wall->set_id(static_cast<uint64_t>(b) + 1);
    wall->set_user_data(k);
    testing::Set(wall->mutable_segment()->mutable_p1(),
                 10.0 + static_cast<double>(k), bands[b]);
    testing::Set(wall->mutable_segment()->mutable_p2(),
                 10.0 + static_cast<double>(k), bands[b + 1]);
  }
  for (int i = 0; i < crates; ++i) {
    v1::Shape* crate = level.add_shapes();
    crate->set_id(100 + static_cast<uint64_t>(i));
    testing::Set(crate->mutable_circle()->mutable_center(), -500, 3.0 * i);
    crate->mutable_circle()->set_radius(1);
  }
  return level;
}

// Changes level "swap" to content k; returns the status and the new
// version.
using ChangeLevel = grpc::Status (*)(v1::LevelService::Stub& levels, uint64_t k,
                                     int64_t* version);

grpc::Status PutContent(v1::LevelService::Stub& levels, uint64_t k,
                        int64_t* version) {
  v1::PutLevelResponse put;
  const grpc::Status status =
      testing::PutLevel(levels, SwapLevel(k, kCrates), &put);
  *version = put.summary().version();
  return status;
}

// The four walls replaced in one patch (crates untouched).
grpc::Status PatchContent(v1::LevelService::Stub& levels, uint64_t k,
                          int64_t* version) {
  v1::PatchLevelRequest request;
  request.set_level("levels/swap");
  const v1::Level content = SwapLevel(k, 0);
  *request.mutable_upserts() = content.shapes();
  v1::PatchLevelResponse patched;
  grpc::ClientContext context;
  context.set_deadline(Deadline());
  const grpc::Status status = levels.PatchLevel(&context, request, &patched);
  *version = patched.summary().version();
  return status;
}

void ChangeMidStreamNeverFailsOrMixesVersions(ChangeLevel change) {
  absl::StatusOr<std::unique_ptr<CollideServer>> server =
      CollideServer::Start(testing::TestOptions());
  ASSERT_TRUE(server.ok()) << server.status();
  const auto channel = testing::Connect((*server)->port());
  const auto collisions = v1::CollisionService::NewStub(channel);
  const auto levels =
      v1::LevelService::NewStub(testing::Connect((*server)->admin_port()));

  absl::Mutex mutex;
  std::map<int64_t, uint64_t> tag_of_version;  // from PutLevel responses
  {
    v1::PutLevelResponse put;
    ASSERT_TRUE(testing::PutLevel(*levels, SwapLevel(0, kCrates), &put).ok());
    tag_of_version[put.summary().version()] = 0;
  }

  grpc::ClientContext context;
  context.set_deadline(Deadline(60));
  auto stream = collisions->StreamQueries(&context);
  std::atomic<bool> writer_done{false};
  std::atomic<int> puts_done{0};
  std::atomic<int> batches_sent{0};
  std::thread writer([&] {
    for (int b = 0;
         b < kMinBatches || (puts_done < kMinPuts && b < kMaxBatches); ++b) {
      v1::StreamQueriesRequest request;
      request.set_level("levels/swap");
      request.set_batch_id(static_cast<uint64_t>(b));
      for (int q = 0; q < kQueriesPerBatch; ++q) {
        *request.add_queries() =
            testing::RayAlongX(static_cast<uint64_t>(q), -50.0 + 3.0 * q);
      }
      if (!stream->Write(request)) break;
      ++batches_sent;
    }
    stream->WritesDone();
    writer_done = true;
  });

  // Change the level while the stream is busy (bounded number of changes).
  int puts = 0;
  for (uint64_t k = 1; !writer_done && puts < kMaxPuts; ++k, ++puts) {
    int64_t version = 0;
    const grpc::Status status = change(*levels, k, &version);
    if (!status.ok()) {  // not ASSERT: the writer thread must be joined
      ADD_FAILURE() << status.error_message();
      break;
    }
    absl::MutexLock lock(&mutex);
    tag_of_version[version] = k;
    ++puts_done;
  }

  std::vector<v1::StreamQueriesResponse> responses;
  v1::StreamQueriesResponse response;
  while (stream->Read(&response)) responses.push_back(response);
  writer.join();
  const grpc::Status status = stream->Finish();
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(responses.size(), static_cast<size_t>(batches_sent.load()));

  absl::MutexLock lock(&mutex);
  std::set<int64_t> versions_seen;
  int64_t last_version = 0;
  for (size_t b = 0; b < responses.size(); ++b) {
    const v1::StreamQueriesResponse& r = responses[b];
    EXPECT_EQ(r.batch_id(), b);
    ASSERT_EQ(r.status().code(), 0) << r.status().message();
    // Batches are answered in order, so versions never go back.
    EXPECT_GE(r.level_version(), last_version);
    last_version = r.level_version();
    versions_seen.insert(r.level_version());
    const auto tag = tag_of_version.find(r.level_version());
    ASSERT_NE(tag, tag_of_version.end()) << "unknown version";
    ASSERT_EQ(r.results_size(), kQueriesPerBatch);
    for (const v1::QueryResult& result : r.results()) {
      ASSERT_EQ(result.status().code(), 0) << result.status().message();
      ASSERT_EQ(result.cast().hits_size(), 1);
      const v1::CastHit& hit = result.cast().hits(0);
      // Every result of the batch comes from the version it names.
      EXPECT_EQ(hit.user_data(), tag->second);
      EXPECT_NEAR(hit.fraction(),
                  (10.0 + static_cast<double>(tag->second)) / 1000.0, 1e-12);
    }
  }
  EXPECT_GE(puts, kMinPuts);
  // The swaps really happened during the stream.
  EXPECT_GE(versions_seen.size(), 2u);
}

TEST(LevelSwapE2eTest, LevelReplacedMidStreamNeverFailsOrMixesVersions) {
  ChangeMidStreamNeverFailsOrMixesVersions(PutContent);
}

// Patches are layered over the shared level (server/levels/level_patch.h): a
// batch still sees all four walls of one version.
TEST(LevelSwapE2eTest, LevelPatchedMidStreamNeverFailsOrMixesVersions) {
  ChangeMidStreamNeverFailsOrMixesVersions(PatchContent);
}

}  // namespace
}  // namespace collide::server
