// collide_server --max_connection_age: a client that keeps one
// channel open sees its connection replaced (GOAWAY, then a new connection,
// which re-resolves the target and so reaches replicas added since) while
// its calls keep succeeding, and a stream that outlives its connection's
// grace resends its unanswered batches on a new stream.
//
// The replacement is seen in the channel's connectivity state: with
// pick_first, a GOAWAY takes the channel out of READY. Loopback only;
// every wait is bounded.
#include <atomic>
#include <memory>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "client/lib/collide_client.h"
#include "client/lib/query_builders.h"
#include "client/lib/query_stream.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "tests/support/server_process.h"

#ifndef COLLIDE_SERVER_BINARY
#error "COLLIDE_SERVER_BINARY must name the collide_server binary"
#endif

namespace collide::client {
namespace {

constexpr absl::Duration kPatience = absl::Seconds(20);

TEST(ConnectionAgeTest, AgedConnectionIsReplacedWhileCallsSucceed) {
  collide::testing::ServerProcess server(COLLIDE_SERVER_BINARY);
  ASSERT_TRUE(
      server.Start({"--listen=127.0.0.1:0", "--max_connection_age=300ms",
                    "--max_connection_age_grace=1s"}))
      << server.log();
  ClientOptions options;
  options.target = absl::StrCat("127.0.0.1:", server.port());
  options.load_balancing = "pick_first";
  options.max_attempts = 1;  // a call that fails is a failure here
  absl::StatusOr<ChannelSpec> spec = MakeChannelSpec(options);
  ASSERT_TRUE(spec.ok()) << spec.status();
  const std::shared_ptr<grpc::Channel> channel = grpc::CreateCustomChannel(
      spec->target, spec->credentials, spec->arguments);
  CollideClient client(v1::CollisionService::NewStub(channel),
                       v1::LevelService::NewStub(channel),
                       grpc::health::v1::Health::NewStub(channel), options);
  const v1::Query ray = RayCast({0, 0}, {30, 0});
  ASSERT_TRUE(client.RunQuery("arena", ray).ok());
  ASSERT_EQ(channel->GetState(false), GRPC_CHANNEL_READY);

  // Counts the times the channel leaves READY while the calls below run.
  std::atomic<int> replaced{0};
  std::atomic<bool> stop{false};
  std::thread watcher([&] {
    grpc_connectivity_state state = GRPC_CHANNEL_READY;
    while (!stop.load()) {
      if (channel->WaitForStateChange(
              state,
              absl::ToChronoTime(absl::Now() + absl::Milliseconds(100)))) {
        const grpc_connectivity_state now = channel->GetState(false);
        if (state == GRPC_CHANNEL_READY && now != GRPC_CHANNEL_READY) {
          ++replaced;
        }
        state = now;
      }
    }
  });
  int calls = 0;
  int failures = 0;
  const absl::Time give_up = absl::Now() + kPatience;
  // Two replacements: the second connection aged out too.
  while (replaced.load() < 2 && absl::Now() < give_up) {
    failures += !client.RunQuery("arena", ray).ok();
    ++calls;
  }
  stop.store(true);
  watcher.join();
  EXPECT_GE(replaced.load(), 2) << calls << " calls";
  EXPECT_EQ(failures, 0) << "of " << calls << " calls";
  EXPECT_TRUE(client.RunQuery("arena", ray).ok());
}

TEST(ConnectionAgeTest, StreamOutlivingItsConnectionLosesNoBatch) {
  collide::testing::ServerProcess server(COLLIDE_SERVER_BINARY);
  ASSERT_TRUE(
      server.Start({"--listen=127.0.0.1:0", "--max_connection_age=300ms",
                    "--max_connection_age_grace=300ms"}))
      << server.log();
  absl::StatusOr<std::unique_ptr<CollideClient>> client =
      CollideClient::Connect(
          {.target = absl::StrCat("127.0.0.1:", server.port())});
  ASSERT_TRUE(client.ok()) << client.status();
  QueryStreamOptions stream_options;
  stream_options.window = 4;
  absl::StatusOr<std::unique_ptr<QueryStream>> stream =
      (*client)->OpenStream("arena", stream_options);
  ASSERT_TRUE(stream.ok()) << stream.status();
  const v1::Query ray = RayCast({0, 0}, {30, 0});
  int answered = 0;
  int lost = 0;
  // Until the stream has been cut (and reopened) twice.
  const absl::Time give_up = absl::Now() + kPatience;
  while ((*stream)->reopened() < 2 && absl::Now() < give_up) {
    ASSERT_TRUE((*stream)->Send({ray}).ok());
    if ((*stream)->outstanding() < 4) continue;
    absl::StatusOr<BatchOutcome> outcome = (*stream)->Next();
    ASSERT_TRUE(outcome.ok()) << outcome.status();
    if (outcome->response.ok()) {
      ++answered;
    } else {
      ++lost;
    }
  }
  EXPECT_GE((*stream)->reopened(), 2);
  EXPECT_TRUE((*stream)->Finish().ok());
  while ((*stream)->outstanding() > 0) {
    absl::StatusOr<BatchOutcome> outcome = (*stream)->Next();
    ASSERT_TRUE(outcome.ok()) << outcome.status();
    outcome->response.ok() ? ++answered : ++lost;
  }
  EXPECT_EQ(lost, 0) << answered << " answered";
  EXPECT_GT(answered, 0);
}

}  // namespace
}  // namespace collide::client
