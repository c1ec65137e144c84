// The collide_server binary as a subprocess: what only a real process can
// show. SIGTERM drains (a stream in flight finishes, health turns
// NOT_SERVING, exit code 0), the grace period bounds the drain, levels put
// with --level_dir survive a restart, and bad start-up configuration exits
// non-zero. Loopback only; every wait is bounded.
#include "tests/support/server_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "collide/v1/collision_service.grpc.pb.h"
#include "collide/v1/level_service.grpc.pb.h"
#include "e2e_helpers.h"
#include "gmock/gmock.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "proto/formats/level_file.h"

#ifndef COLLIDE_SERVER_BINARY
#error "COLLIDE_SERVER_BINARY must name the collide_server binary"
#endif

namespace collide::server {
namespace {

using testing::Deadline;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

using Clock = std::chrono::steady_clock;

// The binary under test as a child process (killed and reaped when the
// object goes away).
class ServerProcess : public ::collide::testing::ServerProcess {
 public:
  ServerProcess() : ::collide::testing::ServerProcess(COLLIDE_SERVER_BINARY) {}
};

v1::StreamQueriesRequest ArenaBatch(uint64_t batch_id) {
  v1::StreamQueriesRequest request;
  request.set_level("levels/arena");
  request.set_batch_id(batch_id);
  *request.add_queries() = testing::RayAlongX(1, 0);
  return request;
}

using HealthResponse = grpc::health::v1::HealthCheckResponse;

HealthResponse::ServingStatus HealthOf(grpc::Channel& channel,
                                       const std::string& service) {
  const auto health = grpc::health::v1::Health::NewStub(
      std::shared_ptr<grpc::Channel>(&channel, [](grpc::Channel*) {}));
  grpc::ClientContext context;
  context.set_deadline(Deadline());
  grpc::health::v1::HealthCheckRequest request;
  request.set_service(service);
  HealthResponse response;
  const grpc::Status status = health->Check(&context, request, &response);
  return status.ok() ? response.status() : HealthResponse::UNKNOWN;
}

// "levels/x path error" per skipped file ListLevels reports.
std::vector<std::string> SkippedFiles(grpc::Channel& channel) {
  const auto levels = v1::LevelService::NewStub(
      std::shared_ptr<grpc::Channel>(&channel, [](grpc::Channel*) {}));
  grpc::ClientContext context;
  context.set_deadline(Deadline());
  v1::ListLevelsResponse response;
  std::vector<std::string> files;
  const grpc::Status status =
      levels->ListLevels(&context, v1::ListLevelsRequest(), &response);
  if (!status.ok()) return {"ListLevels failed: " + status.error_message()};
  for (const v1::SkippedLevelFile& file : response.skipped_files()) {
    files.push_back(
        absl::StrCat(file.level(), " ", file.file(), " ", file.error()));
  }
  return files;
}

TEST(ServerProcessTest, SigtermEndsTheStreamInFlightAfterItsBatchAndExitsZero) {
  ServerProcess server;
  ASSERT_TRUE(server.Start({"--listen=127.0.0.1:0", "--shutdown_grace=20s"}))
      << server.log();
  const auto channel = testing::Connect(server.port());
  const auto collisions = v1::CollisionService::NewStub(channel);

  // Health, watched: it must turn NOT_SERVING when the drain starts.
  const auto health = grpc::health::v1::Health::NewStub(channel);
  grpc::ClientContext watch_context;
  watch_context.set_deadline(Deadline());
  grpc::health::v1::HealthCheckRequest watch_request;
  auto watch = health->Watch(&watch_context, watch_request);
  grpc::health::v1::HealthCheckResponse health_status;
  ASSERT_TRUE(watch->Read(&health_status));
  EXPECT_EQ(health_status.status(),
            grpc::health::v1::HealthCheckResponse::SERVING);

  grpc::ClientContext context;
  context.set_deadline(Deadline());
  auto stream = collisions->StreamQueries(&context);
  v1::StreamQueriesResponse response;
  ASSERT_TRUE(stream->Write(ArenaBatch(1)));
  ASSERT_TRUE(stream->Read(&response));

  const auto signalled = Clock::now();
  server.Signal(SIGTERM);
  ASSERT_TRUE(watch->Read(&health_status));
  EXPECT_EQ(health_status.status(),
            grpc::health::v1::HealthCheckResponse::NOT_SERVING);
  watch_context.TryCancel();

  // The stream that was in flight answers the batch it reads next, then
  // ends with UNAVAILABLE saying the server drains (clients resend what
  // it did not read on a new stream, on another replica, instead of
  // waiting for the grace to cancel it).
  ASSERT_TRUE(stream->Write(ArenaBatch(2)));
  ASSERT_TRUE(stream->Read(&response));
  EXPECT_EQ(response.batch_id(), 2u);
  EXPECT_EQ(response.status().code(), 0);
  ASSERT_EQ(response.results_size(), 1);
  EXPECT_EQ(response.results(0).cast().hits_size(), 1);
  EXPECT_FALSE(stream->Read(&response));
  const grpc::Status status = stream->Finish();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE)
      << status.error_message();
  EXPECT_THAT(status.error_message(), HasSubstr("draining"));

  // Exits 0 once drained, well before the 20 s grace.
  EXPECT_EQ(server.Wait(15), std::optional<int>(0)) << server.log();
  EXPECT_LT(Clock::now() - signalled, std::chrono::seconds(15));
  EXPECT_THAT(server.log(), HasSubstr("received TERM"));
  EXPECT_THAT(server.log(), HasSubstr("stopped"));
}

TEST(ServerProcessTest, GracePeriodBoundsTheDrain) {
  ServerProcess server;
  ASSERT_TRUE(server.Start({"--listen=127.0.0.1:0", "--shutdown_grace=1s"}))
      << server.log();
  const auto channel = testing::Connect(server.port());
  const auto collisions = v1::CollisionService::NewStub(channel);
  grpc::ClientContext context;
  context.set_deadline(Deadline());
  auto stream = collisions->StreamQueries(&context);
  v1::StreamQueriesResponse response;
  ASSERT_TRUE(stream->Write(ArenaBatch(1)));
  ASSERT_TRUE(stream->Read(&response));

  // The client never closes its stream: the server cancels it at the end
  // of the grace period and still exits 0.
  server.Signal(SIGINT);
  EXPECT_EQ(server.Wait(15), std::optional<int>(0)) << server.log();
  EXPECT_FALSE(stream->Read(&response));
  EXPECT_FALSE(stream->Finish().ok());
}

// A level of `count` short vertical bars 0.005 apart above the x axis, in
// cells 4 wide that also hold a floor at y = -1; and a ray along the axis,
// between floor and bars: it tests every bar in the cells it crosses and
// hits none. Each query costs time linear in `count` and answers nothing,
// so a batch of them is as slow as a test needs and its response small.
v1::Level BarsLevel(int count) {
  v1::Level level;
  level.set_id("bars");
  level.set_cell_size(4);
  v1::Shape* floor = level.add_shapes();
  floor->set_id(1);
  testing::Set(floor->mutable_segment()->mutable_p1(), -1, -1);
  testing::Set(floor->mutable_segment()->mutable_p2(), 1100, -1);
  for (int i = 0; i < count; ++i) {
    v1::Shape* shape = level.add_shapes();
    shape->set_id(static_cast<uint64_t>(i) + 2);
    testing::Set(shape->mutable_segment()->mutable_p1(), 1 + 0.005 * i, 0.5);
    testing::Set(shape->mutable_segment()->mutable_p2(), 1 + 0.005 * i, 1.5);
  }
  return level;
}

v1::Query RayUnderEveryBar(uint64_t request_id) {
  v1::Query query = testing::RayAlongX(request_id, 0);
  query.mutable_ray_cast()->mutable_options()->set_mode(v1::CAST_MODE_ALL);
  return query;
}

// Whatever is in flight, a draining server exits within
// --shutdown_grace plus a second: batches stop between queries once their
// call is cancelled, and queued batches of cancelled calls answer nothing.
TEST(ServerProcessTest, DrainNeverOutlivesTheGraceByMoreThanASecond) {
  constexpr int kGraceSeconds = 1;
  ServerProcess server;
  ASSERT_TRUE(
      server.Start({"--listen=127.0.0.1:0",
                    absl::StrCat("--shutdown_grace=", kGraceSeconds, "s"),
                    "--worker_threads=2"}))
      << server.log();
  const auto channel = testing::Connect(server.port());
  v1::PutLevelResponse put;
  ASSERT_TRUE(testing::PutLevel(*v1::LevelService::NewStub(
                                    testing::Connect(server.admin_port())),
                                BarsLevel(160000), &put)
                  .ok());
  const auto collisions = v1::CollisionService::NewStub(channel);

  // What one query costs, to know how much work is queued below.
  v1::RunQueriesRequest probe;
  probe.set_level("levels/bars");
  constexpr int kProbeQueries = 32;
  for (int i = 0; i < kProbeQueries; ++i) {
    *probe.add_queries() = RayUnderEveryBar(i);
  }
  v1::RunQueriesResponse probed;
  const auto probe_start = Clock::now();
  ASSERT_TRUE(testing::RunQueries(*collisions, probe, &probed).ok());
  const double seconds_per_query =
      std::chrono::duration<double>(Clock::now() - probe_start).count() /
      kProbeQueries;
  ASSERT_EQ(probed.results(0).cast().hits_size(), 0);

  // Two streams, each with as many big batches in flight as the server
  // reads ahead, and two unary calls.
  constexpr int kStreams = 2;
  constexpr int kBatchesPerStream = 8;
  constexpr int kQueriesPerBatch = 4096;
  v1::StreamQueriesRequest batch;
  batch.set_level("levels/bars");
  v1::RunQueriesRequest unary;
  unary.set_level("levels/bars");
  for (int i = 0; i < kQueriesPerBatch; ++i) {
    *batch.add_queries() = RayUnderEveryBar(i);
    *unary.add_queries() = RayUnderEveryBar(i);
  }
  const double queued_seconds = seconds_per_query * kQueriesPerBatch *
                                (kStreams * kBatchesPerStream + 2) / 2;
  std::printf("one query: %.3f ms; queued: about %.0f s of work on 2 workers\n",
              seconds_per_query * 1e3, queued_seconds);
  // Without stopping between queries the drain would take about this long,
  // less what the workers do before the signal: well past the bound. (About
  // 20 s here; one probe's figure varies by a third between runs.)
  constexpr std::chrono::milliseconds kWorkBeforeSignal(1500);
  ASSERT_GT(queued_seconds,
            std::chrono::duration<double>(kWorkBeforeSignal).count() +
                2 * (kGraceSeconds + 3))
      << "make the work bigger";

  std::vector<std::thread> clients;
  for (int s = 0; s < kStreams; ++s) {
    clients.emplace_back([&] {
      grpc::ClientContext context;
      context.set_deadline(Deadline(120));
      auto stream = collisions->StreamQueries(&context);
      for (int b = 0; b < kBatchesPerStream; ++b) {
        if (!stream->Write(batch)) break;
      }
      v1::StreamQueriesResponse response;
      while (stream->Read(&response)) {
      }
      stream->Finish();
    });
  }
  for (int u = 0; u < 2; ++u) {
    clients.emplace_back([&] {
      grpc::ClientContext context;
      context.set_deadline(Deadline(120));
      v1::RunQueriesResponse response;
      collisions->RunQueries(&context, unary, &response);
    });
  }
  // Let the workers get well into the batches.
  std::this_thread::sleep_for(kWorkBeforeSignal);

  const auto signalled = Clock::now();
  server.Signal(SIGTERM);
  const std::optional<int> exit_code = server.Wait(60);
  const double drain_seconds =
      std::chrono::duration<double>(Clock::now() - signalled).count();
  std::printf("SIGTERM to exit: %.3f s (--shutdown_grace=%ds)%s\n",
              drain_seconds, kGraceSeconds,
              server.log().find("exiting now") != std::string::npos
                  ? "; ended by the shutdown watchdog"
                  : "");
  for (std::thread& client : clients) client.join();
  const std::string log = server.log();
  // The server's own account: "draining: ..." and "stopped after ...".
  std::printf("%s",
              log.substr(log.find("received TERM") == std::string::npos
                             ? 0
                             : log.rfind('\n', log.find("received TERM")) + 1)
                  .c_str());
  EXPECT_EQ(exit_code, std::optional<int>(0)) << server.log();
  // The bound is grace + 1 s; the margin absorbs a loaded machine.
  EXPECT_LT(drain_seconds, kGraceSeconds + 3) << server.log();
  // The drain kept it by itself: the server stopped ("stopped after")
  // before the watchdog (at grace + 0.75 s), which would keep the bound even
  // if batches never stopped. The watchdog may still end the process's
  // teardown after the stop (freeing a 160,001-shape level takes longer
  // than the rest of the overrun under the sanitizers); that is not the
  // drain's time.
  const size_t stopped = log.find("stopped after");
  ASSERT_NE(stopped, std::string::npos) << log;
  const size_t watchdog = log.find("exiting now");
  EXPECT_TRUE(watchdog == std::string::npos || watchdog > stopped) << log;
}

TEST(ServerProcessTest, RestartKeepsTheLevelsPutWithALevelDirectory) {
  const testing::TempDir dir_holder;
  const std::string& dir = dir_holder.path();
  ASSERT_FALSE(dir.empty());
  const std::vector<std::string> args = {"--listen=127.0.0.1:0",
                                         absl::StrCat("--level_dir=", dir)};
  v1::PutLevelResponse kept;
  {
    ServerProcess server;
    ASSERT_TRUE(server.Start(args)) << server.log();
    {
      // Closed before the signal: an idle client channel answers the
      // server's shutdown ping only when gRPC's backup poller runs (every
      // 5 s), which would only slow the test down.
      const auto levels =
          v1::LevelService::NewStub(testing::Connect(server.admin_port()));
      ASSERT_TRUE(
          testing::PutLevel(*levels, testing::WallLevel("kept", 4, 44), &kept)
              .ok());
      // Replacing the bundled level persists too.
      v1::PutLevelResponse arena;
      ASSERT_TRUE(
          testing::PutLevel(*levels, testing::WallLevel("arena", 9, 99), &arena)
              .ok());
    }
    server.Signal(SIGTERM);
    ASSERT_EQ(server.Wait(15), std::optional<int>(0)) << server.log();
  }
  ServerProcess restarted;
  ASSERT_TRUE(restarted.Start(args)) << restarted.log();
  {
    const auto channel = testing::Connect(restarted.port());
    const auto levels = v1::LevelService::NewStub(channel);
    v1::DescribeLevelResponse described;
    ASSERT_TRUE(testing::Describe(*levels, "levels/kept", &described).ok());
    EXPECT_EQ(described.summary().shape_count(), 1);
    EXPECT_EQ(described.summary().bounds().lower().x(), 4);

    const auto collisions = v1::CollisionService::NewStub(channel);
    for (const char* level : {"levels/kept", "levels/arena"}) {
      v1::RunQueriesRequest request;
      request.set_level(level);
      *request.add_queries() = testing::RayAlongX(1, 0);
      v1::RunQueriesResponse response;
      ASSERT_TRUE(testing::RunQueries(*collisions, request, &response).ok());
      ASSERT_EQ(response.results(0).cast().hits_size(), 1) << level;
      EXPECT_EQ(response.results(0).cast().hits(0).user_data(),
                std::string(level) == "levels/kept" ? 44u : 99u);
    }
  }
  restarted.Signal(SIGTERM);
  EXPECT_EQ(restarted.Wait(15), std::optional<int>(0)) << restarted.log();
}

TEST(ServerProcessTest, LevelFilesDroppedIntoTheLevelDirectoryAreServed) {
  const testing::TempDir dir_holder;
  const std::string& dir = dir_holder.path();
  ASSERT_FALSE(dir.empty());
  ServerProcess server;
  ASSERT_TRUE(
      server.Start({"--listen=127.0.0.1:0", absl::StrCat("--level_dir=", dir),
                    "--level_dir_poll_interval=20ms"}))
      << server.log();
  {
    const auto levels =
        v1::LevelService::NewStub(testing::Connect(server.port()));
    // Described until found or 10 s have passed.
    const auto wait_for = [&](const char* name, grpc::StatusCode code) {
      const auto give_up = Clock::now() + std::chrono::seconds(10);
      while (Clock::now() < give_up) {
        v1::DescribeLevelResponse described;
        if (testing::Describe(*levels, name, &described).error_code() == code) {
          return true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
      return false;
    };

    // As a user copies a level in: written aside, renamed into place.
    const std::string json = absl::StrCat(dir, "/dock.json");
    const absl::StatusOr<std::string> contents =
        formats::LevelToJson(testing::WallLevel("", 5, 55));
    ASSERT_TRUE(contents.ok());
    {
      std::ofstream out(json + ".tmp");
      out << *contents;
    }
    ASSERT_EQ(rename((json + ".tmp").c_str(), json.c_str()), 0);
    EXPECT_TRUE(wait_for("levels/dock", grpc::StatusCode::OK)) << server.log();

    ASSERT_EQ(unlink(json.c_str()), 0);
    EXPECT_TRUE(wait_for("levels/dock", grpc::StatusCode::NOT_FOUND))
        << server.log();
  }
  server.Signal(SIGTERM);
  EXPECT_EQ(server.Wait(15), std::optional<int>(0)) << server.log();
  EXPECT_THAT(server.log(), HasSubstr("level levels/dock loaded from"));
  EXPECT_THAT(server.log(), HasSubstr("level levels/dock dropped"));
}

// A bad file in the level directory is skipped with a log line naming it
// (refusing to start would crash-loop every replica), leftover temporaries
// are removed, and the other levels are served. --strict_level_dir refuses
// to start instead (exit 1).
TEST(ServerProcessTest, ABadLevelDirectoryFileIsSkippedAndTheRestServed) {
  const testing::TempDir dir_holder;
  const std::string& dir = dir_holder.path();
  ASSERT_FALSE(dir.empty());
  ASSERT_TRUE(formats::WriteLevelFile(absl::StrCat(dir, "/good.binpb"),
                                      testing::WallLevel("good", 4, 44))
                  .ok());
  const std::string framed =
      formats::EncodeLevelFile(testing::WallLevel("cut", 4, 44));
  std::ofstream(absl::StrCat(dir, "/cut.binpb"))
      << framed.substr(0, framed.size() / 2);
  std::ofstream(absl::StrCat(dir, "/empty.binpb"));
  // As a write killed before its rename leaves it (pid 1: a container's).
  const std::string temporary = absl::StrCat(dir, "/good.binpb.tmp.1");
  std::ofstream(temporary) << "half";
  const timespec old_time{time(nullptr) - 600, 0};
  const timespec times[2] = {old_time, old_time};
  ASSERT_EQ(utimensat(AT_FDCWD, temporary.c_str(), times, 0), 0);

  ServerProcess server;
  ASSERT_TRUE(
      server.Start({"--listen=127.0.0.1:0", absl::StrCat("--level_dir=", dir),
                    "--level_dir_poll_interval=100ms"}))
      << server.log();
  {
    const auto channel = testing::Connect(server.port());
    // Reported where operators look: health and ListLevels.
    EXPECT_EQ(HealthOf(*channel, ""), HealthResponse::SERVING);
    EXPECT_EQ(HealthOf(*channel, "collide.level_dir"),
              HealthResponse::NOT_SERVING);
    EXPECT_THAT(
        SkippedFiles(*channel),
        ElementsAre(StartsWith(absl::StrCat(
                        "levels/cut ", dir, "/cut.binpb DATA_LOSS: ", dir,
                        "/cut.binpb: truncated: header says")),
                    StartsWith(absl::StrCat("levels/empty ", dir,
                                            "/empty.binpb DATA_LOSS: ", dir,
                                            "/empty.binpb: empty file"))));
    const auto collisions = v1::CollisionService::NewStub(channel);
    for (const char* level : {"levels/good", "levels/arena"}) {
      v1::RunQueriesRequest request;
      request.set_level(level);
      *request.add_queries() = testing::RayAlongX(1, 0);
      v1::RunQueriesResponse response;
      EXPECT_TRUE(testing::RunQueries(*collisions, request, &response).ok())
          << level;
    }
    const auto levels = v1::LevelService::NewStub(channel);
    v1::DescribeLevelResponse described;
    EXPECT_EQ(testing::Describe(*levels, "levels/cut", &described).error_code(),
              grpc::StatusCode::NOT_FOUND);

    // Fixed and removed: the watcher loads one, forgets the other, and
    // health turns SERVING.
    ASSERT_TRUE(formats::WriteLevelFile(absl::StrCat(dir, "/cut.binpb"),
                                        testing::WallLevel("cut", 4, 44))
                    .ok());
    ASSERT_EQ(unlink(absl::StrCat(dir, "/empty.binpb").c_str()), 0);
    const Clock::time_point give_up = Clock::now() + std::chrono::seconds(20);
    while (HealthOf(*channel, "collide.level_dir") != HealthResponse::SERVING &&
           Clock::now() < give_up) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_EQ(HealthOf(*channel, "collide.level_dir"), HealthResponse::SERVING);
    EXPECT_THAT(SkippedFiles(*channel), ::testing::IsEmpty());
    EXPECT_TRUE(testing::Describe(*levels, "levels/cut", &described).ok());
  }
  server.Signal(SIGTERM);
  EXPECT_EQ(server.Wait(15), std::optional<int>(0)) << server.log();
  const std::string log = server.log();
  EXPECT_THAT(log, HasSubstr("removed " + temporary));
  EXPECT_THAT(log, HasSubstr("skipping a level file: DATA_LOSS: " + dir +
                             "/cut.binpb: truncated: header says"));
  EXPECT_THAT(log, HasSubstr(dir + "/empty.binpb: empty file (0 bytes)"));
  EXPECT_THAT(log, HasSubstr("2 level file(s) skipped, 1 loaded"));
  EXPECT_THAT(log, HasSubstr("level levels/good from"));
  struct stat info;
  EXPECT_NE(stat(temporary.c_str(), &info), 0);

  {
    std::ofstream(absl::StrCat(dir, "/cut.binpb"))
        << framed.substr(0, framed.size() / 2);
    ServerProcess strict;
    EXPECT_FALSE(
        strict.Start({"--listen=127.0.0.1:0", absl::StrCat("--level_dir=", dir),
                      "--strict_level_dir"}));
    EXPECT_EQ(strict.Wait(15), std::optional<int>(1)) << strict.log();
    EXPECT_THAT(strict.log(), HasSubstr("cut.binpb: truncated: header says"));
  }
}

// A fresh machine has no /var/lib/collide; the server creates
// its level directory rather than refusing to start, and persists there.
TEST(ServerProcessTest, AMissingLevelDirectoryIsCreated) {
  const testing::TempDir parent;
  const std::string dir = parent.path() + "/var/lib/collide";
  {
    ServerProcess server;
    ASSERT_TRUE(server.Start(
        {"--listen=127.0.0.1:0", absl::StrCat("--level_dir=", dir)}))
        << server.log();
    EXPECT_THAT(server.log(), HasSubstr("created level directory " + dir));
    const auto levels =
        v1::LevelService::NewStub(testing::Connect(server.admin_port()));
    v1::PutLevelRequest put;
    put.set_level("levels/kept");
    *put.mutable_content() = testing::WallLevel("", 4, 44);
    grpc::ClientContext context;
    context.set_deadline(Deadline());
    v1::PutLevelResponse response;
    ASSERT_TRUE(levels->PutLevel(&context, put, &response).ok());
  }
  struct stat info;
  EXPECT_EQ(stat((dir + "/kept.binpb").c_str(), &info), 0);

  // A file where the directory should be: a clear refusal.
  const std::string file = parent.path() + "/plain_file";
  std::ofstream(file) << "x";
  ServerProcess refused;
  EXPECT_FALSE(refused.Start(
      {"--listen=127.0.0.1:0", absl::StrCat("--level_dir=", file, "/sub")}));
  EXPECT_EQ(refused.Wait(15), std::optional<int>(1)) << refused.log();
  EXPECT_THAT(refused.log(), HasSubstr("cannot create level directory"));
}

// A caller's newline cannot forge a log line, nor a huge name
// write a huge one.
TEST(ServerProcessTest, CallerValuesInLogLinesAreEscapedAndCut) {
  ServerProcess server;
  ASSERT_TRUE(server.Start({"--listen=127.0.0.1:0"})) << server.log();
  {
    const auto levels =
        v1::LevelService::NewStub(testing::Connect(server.admin_port()));
    for (const std::string& name :
         {std::string("levels/a\n2026-01-01T00:00:00.000Z collide_server: "
                      "forged"),
          "levels/" + std::string(1 << 20, 'x')}) {
      grpc::ClientContext context;
      context.set_deadline(Deadline());
      v1::DeleteLevelRequest request;
      request.set_level(name);
      v1::DeleteLevelResponse response;
      EXPECT_FALSE(levels->DeleteLevel(&context, request, &response).ok());
    }
  }
  server.Signal(SIGTERM);
  EXPECT_EQ(server.Wait(15), std::optional<int>(0)) << server.log();
  const std::string log = server.log();
  EXPECT_THAT(log, HasSubstr("DeleteLevel levels/a\\n2026-01-01"));
  EXPECT_THAT(log, ::testing::Not(HasSubstr("\n2026-01-01T00:00:00.000Z")));
  EXPECT_THAT(log, HasSubstr("...(1048583 bytes)"));
  EXPECT_LT(log.size(), 16u << 10);
}

TEST(ServerProcessTest, UnreadableLevelFileFailsTheStart) {
  ServerProcess server;
  EXPECT_FALSE(server.Start(
      {"--listen=127.0.0.1:0", "--level_files=/nonexistent/level.json"}));
  EXPECT_EQ(server.Wait(15), std::optional<int>(1)) << server.log();
  EXPECT_THAT(server.log(), HasSubstr("/nonexistent/level.json"));
}

// A game server beside collide on one host (a sidecar) can reach it over a
// Unix domain socket: no TCP stack, about a third less CPU per batch of one
// query.
TEST(ServerProcessTest, ServesOnAUnixDomainSocketAndRemovesItOnExit) {
  const std::string path =
      absl::StrCat("/tmp/collide_server_process_test.", getpid(), ".sock");
  unlink(path.c_str());
  ServerProcess server;
  ASSERT_TRUE(server.Start({absl::StrCat("--listen=unix:", path)}))
      << server.log();
  EXPECT_THAT(server.log(),
              HasSubstr(absl::StrCat("listening on unix:", path)));
  const auto channel = grpc::CreateChannel(absl::StrCat("unix:", path),
                                           grpc::InsecureChannelCredentials());
  EXPECT_EQ(HealthOf(*channel, ""), HealthResponse::SERVING);
  const auto collisions = v1::CollisionService::NewStub(channel);
  grpc::ClientContext context;
  context.set_deadline(Deadline());
  auto stream = collisions->StreamQueries(&context);
  ASSERT_TRUE(stream->Write(ArenaBatch(1)));
  v1::StreamQueriesResponse response;
  ASSERT_TRUE(stream->Read(&response));
  ASSERT_EQ(response.results_size(), 1);
  EXPECT_EQ(response.results(0).cast().hits_size(), 1);
  ASSERT_TRUE(stream->WritesDone());
  EXPECT_TRUE(stream->Finish().ok());

  server.Signal(SIGTERM);
  EXPECT_EQ(server.Wait(15), std::optional<int>(0)) << server.log();
  EXPECT_NE(access(path.c_str(), F_OK), 0) << path << " left behind";
}

TEST(ServerProcessTest, AnAddressInUseFailsTheStart) {
  ServerProcess first;
  ASSERT_TRUE(first.Start({"--listen=127.0.0.1:0"})) << first.log();
  ServerProcess second;
  EXPECT_FALSE(
      second.Start({absl::StrCat("--listen=127.0.0.1:", first.port())}));
  EXPECT_EQ(second.Wait(15), std::optional<int>(1)) << second.log();
  EXPECT_THAT(second.log(), HasSubstr("cannot"));
  first.Signal(SIGTERM);
  EXPECT_EQ(first.Wait(15), std::optional<int>(0));
}

}  // namespace
}  // namespace collide::server
