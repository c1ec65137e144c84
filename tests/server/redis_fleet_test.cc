// The shared level store (--level_store=redis://...) end to end: a real
// redis-server on a loopback port and three collide_server processes.
// Writes through one replica reach all three (with the time to converge
// measured), concurrent patches with one expected hash let exactly one
// win, a replica restarted loads every level, and while Redis is down
// replicas keep serving, refuse writes with UNAVAILABLE, and resynchronise
// once it is back.
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "collide/v1/collision_service.grpc.pb.h"
#include "collide/v1/level_service.grpc.pb.h"
#include "e2e_helpers.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "tests/support/redis_process.h"
#include "tests/support/server_process.h"

namespace collide::server {
namespace {

using collide::testing::RedisProcess;
using collide::testing::ServerProcess;
using Clock = std::chrono::steady_clock;

constexpr int kReplicas = 3;
constexpr char kPrefix[] = "fleet";
// Longest any replica may take to apply a change in these tests (loopback,
// small levels: milliseconds are expected; the bound only keeps a broken
// build from hanging).
constexpr auto kConvergeBound = std::chrono::seconds(10);

class RedisFleetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    redis_port_ = collide::testing::FreeLoopbackPort();
    ASSERT_TRUE(redis_.Start(redis_port_))
        << "redis-server did not start (scripts/install_deps.sh installs "
           "it)";
    for (int i = 0; i < kReplicas; ++i) StartReplica(i);
  }

  void StartReplica(int i) {
    replicas_[i] = std::make_unique<ServerProcess>(COLLIDE_SERVER_BINARY);
    ASSERT_TRUE(replicas_[i]->Start(
        {"--listen=127.0.0.1:0", "--worker_threads=2",
         absl::StrCat("--level_store=redis://127.0.0.1:", redis_port_, "/",
                      kPrefix)}))
        << replicas_[i]->log();
    admin_[i] =
        v1::LevelService::NewStub(testing::Connect(replicas_[i]->admin_port()));
    reads_[i] =
        v1::LevelService::NewStub(testing::Connect(replicas_[i]->port()));
    queries_[i] =
        v1::CollisionService::NewStub(testing::Connect(replicas_[i]->port()));
  }

  grpc::Status Put(int i, const v1::Level& level,
                   const std::string& expected = "",
                   v1::PutLevelResponse* response = nullptr) {
    v1::PutLevelResponse ignored;
    grpc::ClientContext context;
    context.set_deadline(testing::Deadline());
    v1::PutLevelRequest request;
    request.set_level(absl::StrCat("levels/", level.id()));
    *request.mutable_content() = level;
    request.set_expected_content_hash(expected);
    return admin_[i]->PutLevel(&context, request,
                               response != nullptr ? response : &ignored);
  }

  // Moves the wall (shape 1) of `id` to x, tagged `tag`.
  grpc::Status Patch(int i, const std::string& id, double x, uint64_t tag,
                     const std::string& expected = "",
                     v1::PatchLevelResponse* response = nullptr) {
    v1::PatchLevelResponse ignored;
    grpc::ClientContext context;
    context.set_deadline(testing::Deadline());
    v1::PatchLevelRequest request;
    request.set_level(absl::StrCat("levels/", id));
    *request.add_upserts() = testing::WallLevel("", x, tag).shapes(0);
    request.set_expected_content_hash(expected);
    return admin_[i]->PatchLevel(&context, request,
                                 response != nullptr ? response : &ignored);
  }

  grpc::Status Delete(int i, const std::string& id) {
    grpc::ClientContext context;
    context.set_deadline(testing::Deadline());
    v1::DeleteLevelRequest request;
    request.set_level(absl::StrCat("levels/", id));
    v1::DeleteLevelResponse response;
    return admin_[i]->DeleteLevel(&context, request, &response);
  }

  // The content hash replica i serves for `id`; "" when it serves none.
  std::string HashOn(int i, const std::string& id) {
    v1::DescribeLevelResponse response;
    if (!testing::Describe(*reads_[i], absl::StrCat("levels/", id), &response)
             .ok()) {
      return "";
    }
    return response.summary().content_hash();
  }

  // Polls every replica until each serves `hash` for `id` ("" : none);
  // returns how long that took, or kConvergeBound + 1s if it never did.
  Clock::duration Converge(const std::string& id, const std::string& hash) {
    const Clock::time_point start = Clock::now();
    std::array<bool, kReplicas> done{};
    while (Clock::now() - start < kConvergeBound) {
      for (int i = 0; i < kReplicas; ++i) {
        if (!done[i]) done[i] = HashOn(i, id) == hash;
      }
      if (std::all_of(done.begin(), done.end(), [](bool d) { return d; })) {
        return Clock::now() - start;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    return kConvergeBound + std::chrono::seconds(1);
  }

  // The user data of what the ray along +x hits first on replica i.
  grpc::Status Shoot(int i, const std::string& id, uint64_t* hit_tag) {
    v1::RunQueriesRequest request;
    request.set_level(absl::StrCat("levels/", id));
    *request.add_queries() = testing::RayAlongX(1, 0);
    v1::RunQueriesResponse response;
    grpc::Status status = testing::RunQueries(*queries_[i], request, &response);
    if (status.ok() && response.results_size() == 1 &&
        response.results(0).cast().hits_size() == 1) {
      *hit_tag = response.results(0).cast().hits(0).user_data();
    }
    return status;
  }

  static std::string Millis(Clock::duration d) {
    return absl::StrCat(
        static_cast<double>(
            std::chrono::duration_cast<std::chrono::microseconds>(d).count()) /
            1000.0,
        " ms");
  }

  testing::TempDir dir_;
  int redis_port_ = 0;
  RedisProcess redis_{dir_.path()};
  std::array<std::unique_ptr<ServerProcess>, kReplicas> replicas_;
  std::array<std::unique_ptr<v1::LevelService::Stub>, kReplicas> admin_;
  std::array<std::unique_ptr<v1::LevelService::Stub>, kReplicas> reads_;
  std::array<std::unique_ptr<v1::CollisionService::Stub>, kReplicas> queries_;
};

// p-th percentile (nearest rank) of `samples`.
Clock::duration Percentile(std::vector<Clock::duration> samples, double p) {
  std::sort(samples.begin(), samples.end());
  const size_t rank =
      static_cast<size_t>(p * static_cast<double>(samples.size() - 1) + 0.5);
  return samples[rank];
}

TEST_F(RedisFleetTest, PutsAndPatchesThroughOneReplicaReachAllThree) {
  constexpr int kWrites = 50;
  std::vector<Clock::duration> put_times;
  std::vector<Clock::duration> patch_times;
  for (int n = 0; n < kWrites; ++n) {
    v1::PutLevelResponse put;
    ASSERT_TRUE(Put(0, testing::WallLevel("doors", 10 + n, n), "", &put).ok());
    put_times.push_back(Converge("doors", put.summary().content_hash()));
    ASSERT_LT(put_times.back(), kConvergeBound) << "put " << n;
  }
  for (int n = 0; n < kWrites; ++n) {
    v1::PatchLevelResponse patch;
    ASSERT_TRUE(Patch(0, "doors", 100 + n, 1000 + n, "", &patch).ok());
    patch_times.push_back(Converge("doors", patch.summary().content_hash()));
    ASSERT_LT(patch_times.back(), kConvergeBound) << "patch " << n;
  }
  // Every replica answers from the last patch.
  for (int i = 0; i < kReplicas; ++i) {
    uint64_t tag = 0;
    ASSERT_TRUE(Shoot(i, "doors", &tag).ok());
    EXPECT_EQ(tag, 1000 + kWrites - 1) << "replica " << i;
  }
  std::printf(
      "time for 3 replicas to converge over %d writes through one: put p50 "
      "%s p99 %s; patch p50 %s p99 %s\n",
      kWrites, Millis(Percentile(put_times, 0.5)).c_str(),
      Millis(Percentile(put_times, 0.99)).c_str(),
      Millis(Percentile(patch_times, 0.5)).c_str(),
      Millis(Percentile(patch_times, 0.99)).c_str());
  // A delete reaches them all too.
  ASSERT_TRUE(Delete(2, "doors").ok());
  EXPECT_LT(Converge("doors", ""), kConvergeBound);
}

TEST_F(RedisFleetTest, ConcurrentPatchesWithOneExpectedHashLetExactlyOneWin) {
  v1::PutLevelResponse put;
  ASSERT_TRUE(Put(0, testing::WallLevel("doors", 10, 1), "", &put).ok());
  std::string hash = put.summary().content_hash();
  ASSERT_LT(Converge("doors", hash), kConvergeBound);
  for (int round = 0; round < 10; ++round) {
    std::array<grpc::Status, kReplicas> statuses;
    std::array<std::string, kReplicas> results;
    std::vector<std::thread> admins;
    for (int i = 0; i < kReplicas; ++i) {
      admins.emplace_back([&, i] {
        v1::PatchLevelResponse response;
        statuses[i] =
            Patch(i, "doors", 20 + round * 10 + i,
                  static_cast<uint64_t>(round * 10 + i), hash, &response);
        results[i] = response.summary().content_hash();
      });
    }
    for (std::thread& admin : admins) admin.join();
    int won = -1;
    for (int i = 0; i < kReplicas; ++i) {
      if (statuses[i].ok()) {
        EXPECT_EQ(won, -1) << "round " << round << ": two patches won";
        won = i;
      } else {
        EXPECT_EQ(statuses[i].error_code(),
                  grpc::StatusCode::FAILED_PRECONDITION)
            << statuses[i].error_message();
        EXPECT_NE(statuses[i].error_message().find("expected_content_hash"),
                  std::string::npos)
            << statuses[i].error_message();
      }
    }
    ASSERT_NE(won, -1) << "round " << round << ": no patch won";
    hash = results[won];
    ASSERT_LT(Converge("doors", hash), kConvergeBound) << "round " << round;
  }
}

TEST_F(RedisFleetTest, RestartedReplicaLoadsEveryLevelFromTheStore) {
  v1::PutLevelResponse a, b;
  ASSERT_TRUE(Put(1, testing::WallLevel("a", 10, 1), "", &a).ok());
  ASSERT_TRUE(Put(1, testing::WallLevel("b", 20, 2), "", &b).ok());
  ASSERT_LT(Converge("b", b.summary().content_hash()), kConvergeBound);
  replicas_[2]->Kill();
  // Changes while it is down: a patch, and the bundled level deleted.
  v1::PatchLevelResponse patched;
  ASSERT_TRUE(Patch(0, "a", 30, 3, "", &patched).ok());
  ASSERT_TRUE(Delete(0, "arena").ok());
  StartReplica(2);
  // Loaded before it listens: no polling needed.
  EXPECT_EQ(HashOn(2, "a"), patched.summary().content_hash());
  EXPECT_EQ(HashOn(2, "b"), b.summary().content_hash());
  EXPECT_EQ(HashOn(2, "arena"), "") << "the deleted bundled level came back";
  uint64_t tag = 0;
  ASSERT_TRUE(Shoot(2, "a", &tag).ok());
  EXPECT_EQ(tag, 3u);
}

TEST_F(RedisFleetTest, WhileRedisIsDownReplicasServeAndRefuseWrites) {
  v1::PutLevelResponse put;
  ASSERT_TRUE(Put(0, testing::WallLevel("doors", 10, 7), "", &put).ok());
  const std::string hash = put.summary().content_hash();
  ASSERT_LT(Converge("doors", hash), kConvergeBound);

  redis_.Kill();
  for (int i = 0; i < kReplicas; ++i) {
    const grpc::Status refused = Patch(i, "doors", 50, 8);
    EXPECT_EQ(refused.error_code(), grpc::StatusCode::UNAVAILABLE)
        << refused.error_message();
    const grpc::Status put_refused = Put(i, testing::WallLevel("new", 1, 1));
    EXPECT_EQ(put_refused.error_code(), grpc::StatusCode::UNAVAILABLE)
        << put_refused.error_message();
    uint64_t tag = 0;
    ASSERT_TRUE(Shoot(i, "doors", &tag).ok()) << "replica " << i;
    EXPECT_EQ(tag, 7u);
    EXPECT_EQ(HashOn(i, "new"), "");
  }

  // Back, empty (no persistence): the first replica to reconnect restores
  // it from its copy, so a put expecting the old content succeeds once it
  // has.
  const Clock::time_point restarted = Clock::now();
  ASSERT_TRUE(redis_.Start(redis_port_));
  grpc::Status status;
  v1::PutLevelResponse after;
  while (Clock::now() - restarted < kConvergeBound) {
    status = Put(1, testing::WallLevel("doors", 60, 9), hash, &after);
    if (status.ok()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_LT(Converge("doors", after.summary().content_hash()), kConvergeBound);
  std::printf("writes accepted again %s after redis restarted\n",
              Millis(Clock::now() - restarted).c_str());
  for (int i = 0; i < kReplicas; ++i) {
    EXPECT_NE(replicas_[i]->log().find("level store: lost redis:"),
              std::string::npos)
        << replicas_[i]->log();
  }
}

TEST_F(RedisFleetTest, ResyncAfterReconnectLoadsWhatChangedMeanwhile) {
  v1::PutLevelResponse put;
  ASSERT_TRUE(Put(0, testing::WallLevel("a", 10, 4), "", &put).ok());
  const std::string hash = put.summary().content_hash();
  ASSERT_LT(Converge("a", hash), kConvergeBound);
  // A change no replica hears of: level "b" written without a PUBLISH
  // (the content hash does not cover the id, so a's content is b's).
  const std::string index = absl::StrCat(kPrefix, ":index");
  ASSERT_EQ(redis_.Cli(absl::StrCat("COPY ", kPrefix, ":level:a ", kPrefix,
                                    ":level:b")),
            "1\n");
  ASSERT_EQ(redis_.Cli(absl::StrCat("HSET ", index, " b '1 ", hash, "'")),
            "1\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  for (int i = 0; i < kReplicas; ++i) EXPECT_EQ(HashOn(i, "b"), "");
  // Their subscriptions dropped: they reconnect and resynchronise.
  ASSERT_NE(redis_.Cli("CLIENT KILL TYPE pubsub"), "");
  EXPECT_LT(Converge("b", hash), kConvergeBound);
  uint64_t tag = 0;
  ASSERT_TRUE(Shoot(2, "b", &tag).ok());
  EXPECT_EQ(tag, 4u);
}

TEST_F(RedisFleetTest, PatchBuiltOnAnOlderLevelIsBuiltAgainOnTheStores) {
  // "a" as the replicas serve it, and "c": a's wall plus a crate (id 2).
  v1::PutLevelResponse a, c;
  ASSERT_TRUE(Put(0, testing::WallLevel("a", 10, 1), "", &a).ok());
  v1::Level with_crate = testing::WallLevel("c", 10, 1);
  v1::Shape* crate = with_crate.add_shapes();
  crate->set_id(2);
  testing::Set(crate->mutable_circle()->mutable_center(), -500, 0);
  crate->mutable_circle()->set_radius(1);
  ASSERT_TRUE(Put(0, with_crate, "", &c).ok());
  ASSERT_LT(Converge("c", c.summary().content_hash()), kConvergeBound);
  ASSERT_LT(Converge("a", a.summary().content_hash()), kConvergeBound);
  // Redis moves "a" on to c's content with no notification: the replicas
  // still serve the older "a".
  ASSERT_EQ(redis_.Cli(absl::StrCat("COPY ", kPrefix, ":level:c ", kPrefix,
                                    ":level:a REPLACE")),
            "1\n");
  ASSERT_EQ(redis_.Cli(absl::StrCat("HSET ", kPrefix, ":index a '2 ",
                                    c.summary().content_hash(), "'")),
            "0\n");
  EXPECT_EQ(HashOn(1, "a"), a.summary().content_hash());
  // Expecting the older content: refused, by Redis' check.
  const grpc::Status stale = Patch(1, "a", 30, 5, a.summary().content_hash());
  EXPECT_EQ(stale.error_code(), grpc::StatusCode::FAILED_PRECONDITION)
      << stale.error_message();
  // Expecting nothing: built again on Redis' "a", so the crate is kept.
  v1::PatchLevelResponse patched;
  const grpc::Status status = Patch(1, "a", 30, 5, "", &patched);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(patched.summary().shape_count(), 2);
  EXPECT_LT(Converge("a", patched.summary().content_hash()), kConvergeBound);
}

}  // namespace
}  // namespace collide::server
