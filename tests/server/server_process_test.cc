// The collide_server binary as a subprocess: what only a real process can
// show. SIGTERM drains (a stream in flight finishes, health turns
// NOT_SERVING, exit code 0), the grace period bounds the drain, levels put
// with --level_dir survive a restart, and bad start-up configuration exits
// non-zero. Loopback only; every wait is bounded.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "collide/v1/collision_service.grpc.pb.h"
#include "collide/v1/level_service.grpc.pb.h"
#include "e2e_helpers.h"
#include "gmock/gmock.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "server/level_file.h"

#ifndef COLLIDE_SERVER_BINARY
#error "COLLIDE_SERVER_BINARY must name the collide_server binary"
#endif

namespace collide::server {
namespace {

using testing::Deadline;
using ::testing::HasSubstr;

using Clock = std::chrono::steady_clock;

// A collide_server child process with its stderr captured.
class ServerProcess {
 public:
  ~ServerProcess() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (reader_.joinable()) reader_.join();
  }

  // Starts the binary with `args` (plus --listen=127.0.0.1:0 unless given)
  // and waits up to 30 s for its "listening" log line. False if it exited
  // or never said so.
  bool Start(std::vector<std::string> args) {
    args.insert(args.begin(), COLLIDE_SERVER_BINARY);
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return false;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(fds[1], STDERR_FILENO);
      std::vector<char*> argv;
      for (std::string& arg : args) argv.push_back(arg.data());
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    close(fds[1]);
    if (pid_ < 0) {
      close(fds[0]);
      return false;
    }
    reader_ = std::thread([this, fd = fds[0]] { ReadLog(fd); });
    const auto give_up = Clock::now() + std::chrono::seconds(30);
    while (Clock::now() < give_up) {
      {
        absl::MutexLock lock(&mutex_);
        const size_t at = log_.find("(port ");
        if (at != std::string::npos) {
          port_ = std::atoi(log_.c_str() + at + 6);
          return port_ > 0;
        }
        if (log_closed_) return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }

  void Signal(int signal_number) { kill(pid_, signal_number); }

  // The exit code, or nullopt if it has not exited within `seconds` (or was
  // killed by a signal).
  std::optional<int> Wait(int seconds) {
    const auto give_up = Clock::now() + std::chrono::seconds(seconds);
    while (Clock::now() < give_up) {
      int status = 0;
      const pid_t done = waitpid(pid_, &status, WNOHANG);
      if (done == pid_) {
        pid_ = -1;
        if (reader_.joinable()) reader_.join();
        if (WIFEXITED(status)) return WEXITSTATUS(status);
        return std::nullopt;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return std::nullopt;
  }

  int port() const { return port_; }
  std::string log() {
    absl::MutexLock lock(&mutex_);
    return log_;
  }

 private:
  void ReadLog(int fd) {
    char buffer[4096];
    while (true) {
      const ssize_t n = read(fd, buffer, sizeof buffer);
      if (n <= 0) break;
      absl::MutexLock lock(&mutex_);
      log_.append(buffer, static_cast<size_t>(n));
    }
    close(fd);
    absl::MutexLock lock(&mutex_);
    log_closed_ = true;
  }

  pid_t pid_ = -1;
  int port_ = 0;
  std::thread reader_;
  absl::Mutex mutex_;
  std::string log_;
  bool log_closed_ = false;
};

v1::StreamQueriesRequest ArenaBatch(uint64_t batch_id) {
  v1::StreamQueriesRequest request;
  request.set_level("levels/arena");
  request.set_batch_id(batch_id);
  *request.add_queries() = testing::RayAlongX(1, 0);
  return request;
}

TEST(ServerProcessTest, SigtermDrainsTheStreamInFlightAndExitsZero) {
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

  // The stream that was in flight still works until the client ends it.
  ASSERT_TRUE(stream->Write(ArenaBatch(2)));
  ASSERT_TRUE(stream->Read(&response));
  EXPECT_EQ(response.batch_id(), 2u);
  EXPECT_EQ(response.status().code(), 0);
  ASSERT_EQ(response.results_size(), 1);
  EXPECT_EQ(response.results(0).cast().hits_size(), 1);
  ASSERT_TRUE(stream->WritesDone());
  EXPECT_FALSE(stream->Read(&response));
  const grpc::Status status = stream->Finish();
  EXPECT_TRUE(status.ok()) << status.error_message();

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
          v1::LevelService::NewStub(testing::Connect(server.port()));
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
        LevelToJson(testing::WallLevel("", 5, 55));
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

TEST(ServerProcessTest, UnreadableLevelFileFailsTheStart) {
  ServerProcess server;
  EXPECT_FALSE(server.Start(
      {"--listen=127.0.0.1:0", "--level_files=/nonexistent/level.json"}));
  EXPECT_EQ(server.Wait(15), std::optional<int>(1)) << server.log();
  EXPECT_THAT(server.log(), HasSubstr("/nonexistent/level.json"));
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
