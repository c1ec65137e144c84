// Draining under load: three collide_server processes on
// loopback, one round-robin CollideClient, and drivers that keep query
// batches flowing through it, on unary calls and on QueryStreams. One
// replica gets SIGTERM (a rolling update, a scale-down): it drains and
// exits, and not one batch may be lost. Unary batches are retried on
// UNAVAILABLE; a stream that the draining replica ends resends its
// unanswered batches on a new stream (QueryStreamOptions::max_reopens).
//
// Which replica a stream is on is gRPC's peer address, read by an
// interceptor on the client's channel. Loopback only; every wait is
// bounded; nothing asserts on timing.
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "client/lib/collide_client.h"
#include "client/lib/query_builders.h"
#include "client/lib/query_stream.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/support/client_interceptor.h"
#include "gtest/gtest.h"
#include "tests/support/server_process.h"

#ifndef COLLIDE_SERVER_BINARY
#error "COLLIDE_SERVER_BINARY must name the collide_server binary"
#endif

namespace collide::client {
namespace {

constexpr int kReplicas = 3;
constexpr int kStreamDrivers = 3;
constexpr int kUnaryDrivers = 2;
constexpr int kWindow = 4;
// Generous for a loaded 2-core machine: a wait that runs out fails.
constexpr absl::Duration kPatience = absl::Seconds(20);
constexpr char kStreamQueries[] = "/collide.v1.CollisionService/StreamQueries";

// Rays from the bundled arena's middle; any answer that is a result per
// query will do: the point is that every batch gets one.
constexpr int kRays = 4;
std::vector<v1::Query> Rays() {
  std::vector<v1::Query> rays;
  for (int i = 0; i < kRays; ++i) {
    rays.push_back(WithRequestId(RayCast({0, 1.0 * i}, {20, 0}), i + 1));
  }
  return rays;
}

bool WaitUntil(absl::FunctionRef<bool()> condition) {
  const absl::Time give_up = absl::Now() + kPatience;
  while (!condition()) {
    if (absl::Now() > give_up) return false;
    absl::SleepFor(absl::Milliseconds(20));
  }
  return true;
}

int PortOf(const std::string& peer) {
  int port = 0;
  const size_t colon = peer.rfind(':');
  if (colon == std::string::npos ||
      !absl::SimpleAtoi(peer.substr(colon + 1), &port)) {
    return 0;
  }
  return port;
}

// Stream answers received, by the port of the replica that sent them.
class StreamAnswers {
 public:
  void Add(int port) {
    absl::MutexLock lock(&mutex_);
    ++by_port_[port];
  }
  int On(int port) const {
    absl::MutexLock lock(&mutex_);
    auto it = by_port_.find(port);
    return it == by_port_.end() ? 0 : it->second;
  }

 private:
  mutable absl::Mutex mutex_;
  std::map<int, int> by_port_ ABSL_GUARDED_BY(mutex_);
};

class StreamInterceptor : public grpc::experimental::Interceptor {
 public:
  StreamInterceptor(StreamAnswers& answers,
                    grpc::experimental::ClientRpcInfo* info)
      : answers_(answers), info_(info) {}
  void Intercept(
      grpc::experimental::InterceptorBatchMethods* methods) override {
    if (std::string(info_->method()) == kStreamQueries &&
        methods->QueryInterceptionHookPoint(
            grpc::experimental::InterceptionHookPoints::POST_RECV_MESSAGE)) {
      answers_.Add(PortOf(info_->client_context()->peer()));
    }
    methods->Proceed();
  }

 private:
  StreamAnswers& answers_;
  grpc::experimental::ClientRpcInfo* const info_;
};

class StreamInterceptorFactory
    : public grpc::experimental::ClientInterceptorFactoryInterface {
 public:
  explicit StreamInterceptorFactory(StreamAnswers& answers)
      : answers_(answers) {}
  grpc::experimental::Interceptor* CreateClientInterceptor(
      grpc::experimental::ClientRpcInfo* info) override {
    return new StreamInterceptor(answers_, info);
  }

 private:
  StreamAnswers& answers_;
};

// What the drivers saw, all together.
struct Tally {
  std::atomic<int> answered{0};
  std::atomic<int> lost{0};
  absl::Mutex mutex;
  std::vector<std::string> errors ABSL_GUARDED_BY(mutex);
  // The longest a stream driver waited between two outcomes (reported, not
  // asserted: timing on a shared machine).
  absl::Duration longest_stream_wait ABSL_GUARDED_BY(mutex);

  void StreamWaited(absl::Duration wait) {
    absl::MutexLock lock(&mutex);
    longest_stream_wait = std::max(longest_stream_wait, wait);
  }

  // `kind`: "stream" or "unary", for the error list.
  void Outcome(const char* kind, const absl::Status& status, int results) {
    if (status.ok() && results == kRays) {
      ++answered;
      return;
    }
    ++lost;
    absl::MutexLock lock(&mutex);
    if (errors.size() < 10) {
      errors.push_back(absl::StrCat(
          kind, " ",
          status.ok() ? absl::StrCat(results, " results") : status.ToString()));
    }
  }
};

// A game server's tick loop on a stream: batches back to back, a window of
// them in flight. Every batch sent gets an outcome (QueryStream's promise);
// a Send refused because the stream ended sent nothing, and the loop opens
// a new stream.
void DriveStream(std::stop_token stop, CollideClient& client, Tally& tally) {
  const std::vector<v1::Query> rays = Rays();
  absl::Time last_outcome = absl::Now();
  while (!stop.stop_requested()) {
    absl::StatusOr<std::unique_ptr<QueryStream>> stream = client.OpenStream(
        "arena",
        {.window = kWindow,
         .timeout = absl::Seconds(60),
         .on_response =
             [&tally, &last_outcome](BatchOutcome outcome) {
               const absl::Time now = absl::Now();
               tally.StreamWaited(now - last_outcome);
               last_outcome = now;
               if (!outcome.response.ok()) {
                 tally.Outcome("stream", outcome.response.status(), 0);
               } else {
                 tally.Outcome(
                     "stream",
                     absl::Status(static_cast<absl::StatusCode>(
                                      outcome.response->status().code()),
                                  outcome.response->status().message()),
                     outcome.response->results_size());
               }
             },
         .metadata = {}});
    if (!stream.ok()) {
      tally.Outcome("stream", stream.status(), 0);
      continue;
    }
    while (!stop.stop_requested() && (*stream)->Send(rays).ok()) {
    }
    (void)(*stream)->Finish();
  }
}

// The same on unary calls (RunQueries retries UNAVAILABLE itself).
void DriveUnary(std::stop_token stop, CollideClient& client, Tally& tally) {
  const std::vector<v1::Query> rays = Rays();
  while (!stop.stop_requested()) {
    absl::StatusOr<v1::RunQueriesResponse> response =
        client.RunQueries("arena", rays);
    tally.Outcome("unary", response.status(),
                  response.ok() ? response->results_size() : 0);
  }
}

TEST(DrainTest, SigtermedReplicaUnderLoadLosesNoBatch) {
  std::vector<std::unique_ptr<testing::ServerProcess>> servers;
  std::vector<std::string> addresses;
  std::vector<int> ports;
  for (int i = 0; i < kReplicas; ++i) {
    servers.push_back(
        std::make_unique<testing::ServerProcess>(COLLIDE_SERVER_BINARY));
    ASSERT_TRUE(servers[i]->Start(
        {"--listen=127.0.0.1:0", "--worker_threads=1", "--shutdown_grace=1s"}))
        << servers[i]->log();
    ports.push_back(servers[i]->port());
    addresses.push_back(absl::StrCat("127.0.0.1:", servers[i]->port()));
  }
  // The client library's channel (MakeChannelSpec), plus the interceptor.
  ClientOptions options;
  options.target = absl::StrJoin(addresses, ",");
  options.load_balancing = "round_robin";
  absl::StatusOr<ChannelSpec> spec = MakeChannelSpec(options);
  ASSERT_TRUE(spec.ok()) << spec.status();
  StreamAnswers answers;
  std::vector<
      std::unique_ptr<grpc::experimental::ClientInterceptorFactoryInterface>>
      interceptors;
  interceptors.push_back(std::make_unique<StreamInterceptorFactory>(answers));
  const std::shared_ptr<grpc::Channel> channel =
      grpc::experimental::CreateCustomChannelWithInterceptors(
          spec->target, spec->credentials, spec->arguments,
          std::move(interceptors));
  CollideClient client(v1::CollisionService::NewStub(channel),
                       v1::LevelService::NewStub(channel),
                       grpc::health::v1::Health::NewStub(channel), options);

  Tally tally;
  {
    std::vector<std::jthread> drivers;
    for (int i = 0; i < kStreamDrivers; ++i) {
      drivers.emplace_back(DriveStream, std::ref(client), std::ref(tally));
    }
    for (int i = 0; i < kUnaryDrivers; ++i) {
      drivers.emplace_back(DriveUnary, std::ref(client), std::ref(tally));
    }
    // The victim is a replica with a stream on it: the one that has sent
    // the most stream answers.
    int victim = -1;
    ASSERT_TRUE(WaitUntil([&] {
      for (int i = 0; i < kReplicas; ++i) {
        if (answers.On(ports[i]) >= 20 &&
            (victim < 0 || answers.On(ports[i]) > answers.On(ports[victim]))) {
          victim = i;
        }
      }
      return victim >= 0;
    })) << "no stream was answered";
    const int answered_before = tally.answered.load();
    servers[victim]->Signal(SIGTERM);
    const std::optional<int> exit_code = servers[victim]->Wait(10);
    EXPECT_EQ(exit_code, 0) << servers[victim]->log();
    // Load continues on the survivors.
    const int answered_at_exit = tally.answered.load();
    EXPECT_TRUE(WaitUntil(
        [&] { return tally.answered.load() >= answered_at_exit + 200; }));
    for (std::jthread& driver : drivers) driver.request_stop();
    absl::MutexLock lock(&tally.mutex);
    std::printf(
        "drain: %d batches answered (%d before SIGTERM), %d lost; longest "
        "wait between two answers on a stream: %s\n",
        tally.answered.load(), answered_before, tally.lost.load(),
        absl::FormatDuration(tally.longest_stream_wait).c_str());
  }
  EXPECT_EQ(tally.lost.load(), 0) << [&] {
    absl::MutexLock lock(&tally.mutex);
    return absl::StrJoin(tally.errors, "; ");
  }();
}

// A client that keeps its channel open after its calls (every game server
// does) must not hold a drain up: with nothing in flight, SIGTERM ends the
// process at once. It took 5 s: gRPC's Shutdown waited for the client to
// close its connection, and an idle client reads the GOAWAY only at its
// backup poller's next round (every 5 s).
TEST(DrainTest, IdleOpenConnectionDoesNotDelayTheExit) {
  testing::ServerProcess server(COLLIDE_SERVER_BINARY);
  ASSERT_TRUE(server.Start({"--listen=127.0.0.1:0", "--shutdown_grace=30s"}))
      << server.log();
  absl::StatusOr<std::unique_ptr<CollideClient>> client =
      CollideClient::Connect(
          {.target = absl::StrCat("127.0.0.1:", server.port())});
  ASSERT_TRUE(client.ok()) << client.status();
  ASSERT_TRUE((*client)->RunQueries("arena", Rays()).ok());
  const absl::Time start = absl::Now();
  server.Signal(SIGTERM);
  // Far below the 30 s grace; a machine under load may take a while.
  EXPECT_EQ(server.Wait(25), 0) << server.log();
  std::printf("idle drain: exited %s after SIGTERM\n",
              absl::FormatDuration(absl::Now() - start).c_str());
  EXPECT_LT(absl::Now() - start, absl::Seconds(3)) << server.log();
}

}  // namespace
}  // namespace collide::client
