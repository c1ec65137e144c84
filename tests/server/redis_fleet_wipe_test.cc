// The fleet's Redis losing its data (a restart without persistence,
// FLUSHALL): a real redis-server on a loopback port and three
// collide_server processes, each keeping its copy of the store in a
// directory (--level_store_copy_dir). An acknowledged delete of the bundled
// level stays deleted and every acknowledged put comes back, whether Redis
// is wiped under running replicas or while all are down and they restart
// in any order; a replica whose copy missed the delete and restores first
// is overruled by the next one; a brand-new fleet seeds its base levels
// once and never over a tombstone.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "collide/v1/level_service.grpc.pb.h"
#include "e2e_helpers.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "proto/formats/level_file.h"
#include "tests/support/redis_process.h"
#include "tests/support/server_process.h"

namespace collide::server {
namespace {

using collide::testing::RedisProcess;
using collide::testing::ServerProcess;
using Clock = std::chrono::steady_clock;

constexpr int kReplicas = 3;
constexpr char kPrefix[] = "fleet";
// Longest any replica may take to converge (milliseconds are expected; the
// bound only keeps a broken build from hanging).
constexpr auto kConvergeBound = std::chrono::seconds(10);

class RedisFleetWipeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    redis_port_ = collide::testing::FreeLoopbackPort();
    ASSERT_TRUE(redis_.Start(redis_port_))
        << "redis-server did not start (scripts/install_deps.sh installs "
           "it)";
  }

  // Starts replica i, its copy in {dir}/copy{i}; `extra` flags appended.
  void StartReplica(int i, std::vector<std::string> extra = {}) {
    replicas_[i] = std::make_unique<ServerProcess>(COLLIDE_SERVER_BINARY);
    std::vector<std::string> args = {
        "--listen=127.0.0.1:0", "--worker_threads=1",
        absl::StrCat("--level_store=redis://127.0.0.1:", redis_port_, "/",
                     kPrefix),
        absl::StrCat("--level_store_copy_dir=", dir_.path(), "/copy", i)};
    args.insert(args.end(), extra.begin(), extra.end());
    ASSERT_TRUE(replicas_[i]->Start(args)) << replicas_[i]->log();
    admin_[i] =
        v1::LevelService::NewStub(testing::Connect(replicas_[i]->admin_port()));
    reads_[i] =
        v1::LevelService::NewStub(testing::Connect(replicas_[i]->port()));
  }

  grpc::Status Put(int i, const v1::Level& level,
                   v1::PutLevelResponse* response) {
    grpc::ClientContext context;
    context.set_deadline(testing::Deadline());
    v1::PutLevelRequest request;
    request.set_level(absl::StrCat("levels/", level.id()));
    *request.mutable_content() = level;
    return admin_[i]->PutLevel(&context, request, response);
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

  // Whether replica i comes to serve `hash` for `id` ("" : none) within
  // kConvergeBound.
  bool ServesSoon(int i, const std::string& id, const std::string& hash) {
    const Clock::time_point give_up = Clock::now() + kConvergeBound;
    while (Clock::now() < give_up) {
      if (HashOn(i, id) == hash) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
  }

  // The acknowledged state: "doors" and "dock" put, the bundled "arena"
  // deleted, all through replica `through`, seen by every running one.
  void WriteAcknowledgedState(int through) {
    v1::PutLevelResponse doors, dock;
    ASSERT_TRUE(Put(through, testing::WallLevel("doors", 10, 1), &doors).ok());
    ASSERT_TRUE(Put(through, testing::WallLevel("dock", 20, 2), &dock).ok());
    ASSERT_TRUE(Delete(through, "arena").ok());
    doors_hash_ = doors.summary().content_hash();
    dock_hash_ = dock.summary().content_hash();
  }

  // Replica i serves the acknowledged state (waiting for it to converge).
  void ExpectAcknowledgedState(int i, const std::string& when) {
    EXPECT_TRUE(ServesSoon(i, "doors", doors_hash_))
        << when << ": replica " << i << "\n"
        << replicas_[i]->log();
    EXPECT_TRUE(ServesSoon(i, "dock", dock_hash_)) << when << ": replica " << i;
    EXPECT_TRUE(ServesSoon(i, "arena", ""))
        << when << ": replica " << i << " serves the deleted arena\n"
        << replicas_[i]->log();
  }

  // What Redis holds for `id` in the index ("" : nothing).
  std::string IndexEntry(const std::string& id) {
    std::string entry =
        redis_.Cli(absl::StrCat("HGET ", kPrefix, ":index ", id));
    while (!entry.empty() && entry.back() == '\n') entry.pop_back();
    return entry;
  }

  // Waits until Redis holds a tombstone for arena again.
  bool RedisHoldsTheDeleteSoon() {
    const Clock::time_point give_up = Clock::now() + kConvergeBound;
    while (Clock::now() < give_up) {
      if (IndexEntry("arena").ends_with(" deleted")) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
  }

  testing::TempDir dir_;
  int redis_port_ = 0;
  RedisProcess redis_{dir_.path()};
  std::array<std::unique_ptr<ServerProcess>, kReplicas> replicas_;
  std::array<std::unique_ptr<v1::LevelService::Stub>, kReplicas> admin_;
  std::array<std::unique_ptr<v1::LevelService::Stub>, kReplicas> reads_;
  std::string doors_hash_;
  std::string dock_hash_;
};

TEST_F(RedisFleetWipeTest,
       RedisRestartedEmptyUnderRunningReplicasKeepsTheDelete) {
  for (int i = 0; i < kReplicas; ++i) StartReplica(i);
  WriteAcknowledgedState(0);
  for (int i = 0; i < kReplicas; ++i) ExpectAcknowledgedState(i, "before");

  redis_.Kill();
  ASSERT_TRUE(redis_.Start(redis_port_));
  ASSERT_TRUE(RedisHoldsTheDeleteSoon()) << replicas_[0]->log();
  for (int i = 0; i < kReplicas; ++i) ExpectAcknowledgedState(i, "restored");
  // Rolling restart, in an order other than the one they started in.
  for (int i : {2, 0, 1}) {
    replicas_[i]->Kill();
    StartReplica(i);
    ExpectAcknowledgedState(i, absl::StrCat("replica ", i, " restarted"));
  }
  // FLUSHALL keeps the connections: the replicas notice the missing epoch.
  ASSERT_EQ(redis_.Cli("FLUSHALL"), "OK\n");
  ASSERT_TRUE(RedisHoldsTheDeleteSoon()) << replicas_[0]->log();
  for (int i = 0; i < kReplicas; ++i) ExpectAcknowledgedState(i, "flushed");
  // And writes go on.
  v1::PutLevelResponse yard;
  ASSERT_TRUE(Put(1, testing::WallLevel("yard", 5, 5), &yard).ok());
  for (int i = 0; i < kReplicas; ++i) {
    EXPECT_TRUE(ServesSoon(i, "yard", yard.summary().content_hash()));
  }
}

TEST_F(RedisFleetWipeTest, WipedWhileAllAreDownAnyRestartOrderKeepsTheDelete) {
  std::array<int, kReplicas> order = {0, 1, 2};
  int round = 0;
  do {
    const std::string when = absl::StrCat("order ", absl::StrJoin(order, ","));
    std::error_code ignored;
    for (int i = 0; i < kReplicas; ++i) {
      std::filesystem::remove_all(absl::StrCat(dir_.path(), "/copy", i),
                                  ignored);
    }
    ASSERT_EQ(redis_.Cli("FLUSHALL"), "OK\n");
    for (int i = 0; i < kReplicas; ++i) StartReplica(i);
    WriteAcknowledgedState(round % kReplicas);
    for (int i = 0; i < kReplicas; ++i) ExpectAcknowledgedState(i, when);
    for (int i = 0; i < kReplicas; ++i) replicas_[i]->Kill();
    // Alternately a FLUSHALL and a restart without persistence.
    if (round % 2 == 0) {
      ASSERT_EQ(redis_.Cli("FLUSHALL"), "OK\n");
    } else {
      redis_.Kill();
      ASSERT_TRUE(redis_.Start(redis_port_));
    }
    ASSERT_EQ(IndexEntry("arena"), "");
    for (int n = 0; n < kReplicas; ++n) {
      const int i = order[n];
      StartReplica(i);
      // Loaded before it listens: the first one restored the store.
      EXPECT_EQ(HashOn(i, "arena"), "") << when << ", replica " << i;
      for (int m = 0; m <= n; ++m) {
        ExpectAcknowledgedState(order[m], when);
      }
    }
    EXPECT_NE(
        replicas_[order[0]]->log().find("restored it from this replica's copy"),
        std::string::npos)
        << when << "\n"
        << replicas_[order[0]]->log();
    for (int i = 0; i < kReplicas; ++i) replicas_[i]->Kill();
    ++round;
  } while (std::next_permutation(order.begin(), order.end()));
}

TEST_F(RedisFleetWipeTest, AStaleCopyRestoredFirstIsOverruledByANewerOne) {
  for (int i = 0; i < kReplicas; ++i) StartReplica(i);
  // Replica 2 is down when the level is deleted: its copy still has it.
  replicas_[2]->Kill();
  WriteAcknowledgedState(0);
  for (int i = 0; i < 2; ++i) ExpectAcknowledgedState(i, "before");
  replicas_[0]->Kill();
  replicas_[1]->Kill();
  ASSERT_EQ(redis_.Cli("FLUSHALL"), "OK\n");
  // Replica 2 restores first: arena (and no doors, dock) as it last knew.
  StartReplica(2);
  EXPECT_NE(HashOn(2, "arena"), "");
  // Replica 0 knew more: it writes back the delete and the puts, which
  // replica 2 then applies.
  StartReplica(0);
  ASSERT_TRUE(RedisHoldsTheDeleteSoon()) << replicas_[0]->log();
  ExpectAcknowledgedState(0, "after replica 0");
  ExpectAcknowledgedState(2, "after replica 0");
  EXPECT_NE(replicas_[0]->log().find("from this replica's copy"),
            std::string::npos)
      << replicas_[0]->log();
}

TEST_F(RedisFleetWipeTest, ANewFleetSeedsBaseLevelsOnceAndNeverOverADelete) {
  const std::string file = absl::StrCat(dir_.path(), "/pier.binpb");
  ASSERT_TRUE(
      formats::WriteLevelFile(file, testing::WallLevel("pier", 30, 3)).ok());
  const std::string level_files = absl::StrCat("--level_files=", file);
  StartReplica(0, {level_files});
  EXPECT_NE(replicas_[0]->log().find("was empty: initialised it"),
            std::string::npos)
      << replicas_[0]->log();
  EXPECT_TRUE(IndexEntry("arena").starts_with("1 "));
  EXPECT_TRUE(IndexEntry("pier").starts_with("1 "));
  ASSERT_TRUE(Delete(0, "pier").ok());
  ASSERT_TRUE(Delete(0, "arena").ok());
  // A replica with the same base levels and no copy: the store is
  // initialised, so the tombstones stand.
  StartReplica(1, {level_files, "--level_store_copy_dir="});
  EXPECT_EQ(HashOn(1, "pier"), "") << replicas_[1]->log();
  EXPECT_EQ(HashOn(1, "arena"), "") << replicas_[1]->log();
  EXPECT_TRUE(IndexEntry("pier").ends_with(" deleted"));
  EXPECT_EQ(replicas_[1]->log().find("initialised it"), std::string::npos);
}

}  // namespace
}  // namespace collide::server
