// The load tester's own figures checked against a fake server whose speed
// is known: its latencies match the server's delay, and at an
// open-loop rate the server cannot keep up with they grow (coordinated
// omission is not hidden). Also: errors by where and status code, and
// streams that fail are reopened.
//
// Timing: every lower bound below holds by construction (the fake never
// answers a batch before its delay, and serves one batch at a time). The
// only upper bound, on the closed-loop p50, leaves 15 ms for the client, the
// loopback and scheduling on a loaded 2-core machine (it takes 0.5 ms).
#include "client/load/load_runner.h"

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "client/load/connections.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/client/load/fake_collision_service.h"

namespace collide::client::load {
namespace {

using std::chrono::milliseconds;

constexpr int64_t kNsPerMs = 1'000'000;

QueryMix RayMix() {
  QueryMixOptions options;
  options.kinds = {{QueryKind::kRay, 1}};
  options.bounds = {{-10, -10}, {10, 10}};
  absl::StatusOr<QueryMix> mix = QueryMix::Create(options);
  EXPECT_TRUE(mix.ok()) << mix.status();
  return *std::move(mix);
}

class LoadRunnerTest : public ::testing::Test {
 protected:
  // Starts the fake and connects `connections` clients to it.
  // `options` gives everything but the target.
  void Start(FakeBehaviour behaviour, int connections = 1,
             ClientOptions options = {}) {
    fake_ = StartFakeServer(std::move(behaviour));
    ASSERT_NE(fake_->server, nullptr);
    options.target = absl::StrCat("127.0.0.1:", fake_->port);
    absl::StatusOr<std::vector<std::unique_ptr<CollideClient>>> clients =
        ConnectMany(options, connections);
    ASSERT_TRUE(clients.ok()) << clients.status();
    clients_ = std::move(*clients);
  }

  LoadResult Run(const LoadOptions& options) {
    std::vector<CollideClient*> connections;
    for (const auto& client : clients_) connections.push_back(client.get());
    absl::StatusOr<LoadResult> result = RunLoad(connections, RayMix(), options);
    EXPECT_TRUE(result.ok()) << result.status();
    return result.ok() ? *std::move(result) : LoadResult();
  }

  void TearDown() override {
    clients_.clear();
    fake_.reset();
  }

  std::unique_ptr<FakeServer> fake_;
  std::vector<std::unique_ptr<CollideClient>> clients_;
};

TEST_F(LoadRunnerTest, ClosedLoopLatencyMatchesTheServersDelay) {
  Start({.delay = absl::Milliseconds(20)});
  LoadOptions options;
  options.window = 1;
  options.batch_size = 4;
  options.plan = {
      .rate = 0, .warmup = milliseconds(100), .duration = milliseconds(600)};
  options.interval = milliseconds(100);
  const LoadResult result = Run(options);

  EXPECT_TRUE(result.errors.empty());
  EXPECT_GT(result.warmup_batches, 0);
  EXPECT_GT(result.batches_answered, 5);
  EXPECT_EQ(result.batches_answered, result.batches_sent);
  EXPECT_EQ(result.queries_answered, 4 * result.batches_answered);
  EXPECT_EQ(result.queries_ok, result.queries_answered);
  // One batch in flight, each taking at least 20 ms: at most 600/20 + 1
  // start within the 600 ms.
  EXPECT_LE(result.batches_sent, 31);
  EXPECT_GE(result.latency.min(), 20 * kNsPerMs);
  const int64_t p50 = result.latency.ValueAtQuantile(0.5);
  EXPECT_GE(p50, 20 * kNsPerMs);
  // Timing from before the wait for window room would report about 40 ms
  // (two delays); 35 ms leaves room for a loaded machine.
  EXPECT_LE(p50, 35 * kNsPerMs);
  // Closed loop: a new batch is sent only once one is answered, so at most
  // one batch per 20 ms is answered.
  EXPECT_LE(result.BatchesPerSecond(), 50.0 * (1 + 1e-9));
}

TEST_F(LoadRunnerTest, OpenLoopBeyondCapacityShowsLatencyGrowing) {
  // The fake serves 100 batches/s at most; 300/s are due for 0.5 s, so the
  // 150 batches take at least 1.5 s and the last, due at 0.497 s, is
  // answered at least 1 s late.
  Start({.delay = absl::Milliseconds(10)});
  LoadOptions options;
  options.window = 8;
  options.batch_size = 1;
  options.plan = {
      .rate = 300, .warmup = milliseconds(0), .duration = milliseconds(500)};
  options.interval = milliseconds(100);
  const LoadResult result = Run(options);

  EXPECT_TRUE(result.errors.empty());
  EXPECT_EQ(result.batches_sent, 150);
  EXPECT_EQ(result.batches_answered, 150);
  // The backlog is in the latency: at least 150 x 10 ms - 497 ms.
  EXPECT_GE(result.latency.max(), 1000 * kNsPerMs);
  // A tester timing from the actual send would have seen at most a window
  // of 8 x 10 ms; this one reports what a caller on the schedule saw.
  EXPECT_GE(result.latency.ValueAtQuantile(0.9), 200 * kNsPerMs);
  // The sends themselves were held back by the full window, and the lag
  // is reported.
  EXPECT_GE(result.max_send_lag, absl::Milliseconds(500));
  // Latency grows over the run: batch k is answered no earlier than
  // (k + 1) x 10 ms, due at k x 3.3 ms, so the last interval's batches
  // (k >= 120) wait at least 810 ms while the first's median is far below.
  // Batches were due in the first 5 intervals; answers came later.
  ASSERT_GT(result.intervals.size(), 5u);
  EXPECT_EQ(result.intervals[5].latency.count(), 0);
  const IntervalStats& first = result.intervals[0];
  const IntervalStats& last = result.intervals[4];
  EXPECT_EQ(first.latency.count(), 30);
  EXPECT_EQ(last.latency.count(), 30);
  EXPECT_GE(last.latency.ValueAtQuantile(0.5), 810 * kNsPerMs);
  EXPECT_GT(last.latency.ValueAtQuantile(0.99),
            3 * first.latency.ValueAtQuantile(0.5));
  EXPECT_GT(last.latency.ValueAtQuantile(0.5),
            3 * first.latency.ValueAtQuantile(0.5));
}

TEST_F(LoadRunnerTest, ErrorsAreCountedByWhereAndStatusCode) {
  Start({.delay = absl::Milliseconds(1),
         .error_code_for_second_query = 3,
         .refused_level = "refused"});
  LoadOptions options;
  options.batch_size = 4;
  options.window = 2;
  options.plan = {.warmup = milliseconds(0), .count = 10};
  LoadResult result = Run(options);
  EXPECT_EQ(result.batches_sent, 10);
  EXPECT_EQ(result.batches_answered, 10);
  EXPECT_EQ(result.queries_answered, 40);
  EXPECT_EQ(result.queries_ok, 30);
  ASSERT_EQ(result.errors.size(), 1u);
  const auto& [key, count] = *result.errors.begin();
  EXPECT_EQ(key.origin, ErrorOrigin::kQuery);
  EXPECT_EQ(key.code, absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(count.count, 10);
  EXPECT_EQ(count.example, "queries[1] is bad");

  options.level_id = "refused";
  result = Run(options);
  EXPECT_EQ(result.batches_answered, 10);
  EXPECT_EQ(result.queries_answered, 0);
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_EQ(result.errors.begin()->first.origin, ErrorOrigin::kBatch);
  EXPECT_EQ(result.errors.begin()->first.code, absl::StatusCode::kNotFound);
  EXPECT_EQ(result.errors.begin()->second.count, 10);
  // Refused batches were answered, so they have latencies.
  EXPECT_EQ(result.latency.count(), 10);
}

TEST_F(LoadRunnerTest, FailedStreamsAreCountedAndReopened) {
  Start({.delay = absl::Milliseconds(1), .end_stream_after = 3});
  LoadOptions options;
  options.batch_size = 2;
  options.window = 1;
  options.plan = {.warmup = milliseconds(0), .count = 12};
  const LoadResult result = Run(options);
  EXPECT_EQ(result.batches_sent, 12);
  // Every batch sent is either answered or lost with its stream, and more
  // than one stream's worth (3) were answered: the stream was reopened.
  int64_t lost = 0;
  for (const auto& [key, count] : result.errors) {
    EXPECT_EQ(key.origin, ErrorOrigin::kStream);
    lost += count.count;
  }
  EXPECT_GT(lost, 0);
  EXPECT_EQ(result.batches_answered + lost, 12);
  EXPECT_GT(result.batches_answered, 3);
}

TEST_F(LoadRunnerTest, StreamsSpreadOverSeveralConnections) {
  Start({.delay = absl::Milliseconds(1)}, /*connections=*/3);
  LoadOptions options;
  options.streams_per_connection = 2;
  options.window = 2;
  options.plan = {.warmup = milliseconds(0), .count = 60};
  const LoadResult result = Run(options);
  EXPECT_TRUE(result.errors.empty());
  EXPECT_EQ(result.batches_answered, 60);
}

TEST_F(LoadRunnerTest, AStopRequestEndsTheRunWithWhatWasMeasured) {
  Start({.delay = absl::Milliseconds(1)});
  std::atomic<bool> stop{false};
  LoadOptions options;
  options.plan = {.rate = 200,
                  .warmup = milliseconds(0),
                  .duration = std::chrono::seconds(30)};
  options.stop_requested = &stop;
  std::thread stopper([&stop] {
    std::this_thread::sleep_for(milliseconds(300));
    stop.store(true);
  });
  const auto started = Clock::now();
  const LoadResult result = Run(options);
  stopper.join();
  EXPECT_LT(Clock::now() - started, std::chrono::seconds(20));
  EXPECT_TRUE(result.interrupted);
  EXPECT_GT(result.batches_answered, 0);
  EXPECT_EQ(result.batches_answered, result.batches_sent);
}

// collide-load --metadata=key:value, e.g. "authorization:Bearer
// TOKEN", reaches the server on every stream.
TEST_F(LoadRunnerTest, MetadataIsSentOnEveryStream) {
  ClientOptions client;
  client.metadata = {{"authorization", "Bearer s3cret"}, {"x-tenant", "blue"}};
  Start({.delay = absl::Milliseconds(1)}, /*connections=*/2, client);
  LoadOptions options;
  options.streams_per_connection = 2;
  options.plan = {.warmup = milliseconds(0), .count = 20};
  const LoadResult result = Run(options);
  EXPECT_EQ(result.batches_answered, 20);
  const std::vector<std::vector<std::string>> streams =
      fake_->service->StreamMetadata();
  // Streams open at their first send, so a stream the others left no batch
  // to may never open; every one that did carries the metadata.
  ASSERT_FALSE(streams.empty());
  EXPECT_LE(streams.size(), 4u);
  for (const std::vector<std::string>& metadata : streams) {
    EXPECT_THAT(metadata,
                ::testing::IsSupersetOf(
                    {"authorization: Bearer s3cret", "x-tenant: blue"}));
  }
}

// collide-load --queries=FILE replays a file's queries in order.
TEST_F(LoadRunnerTest, ReplayedQueriesAreSentInsteadOfTheMix) {
  Start({.delay = absl::Milliseconds(1)});
  LoadOptions options;
  options.streams_per_connection = 1;
  options.window = 1;
  options.batch_size = 2;
  options.plan = {.warmup = milliseconds(0), .count = 6};
  for (int x : {101, 102, 103}) {
    v1::Query query;
    query.mutable_ray_cast()->mutable_origin()->set_x(x);
    query.mutable_ray_cast()->mutable_translation()->set_y(1);
    options.replay_queries.push_back(query);
  }
  const LoadResult result = Run(options);
  EXPECT_EQ(result.batches_answered, 6);
  const std::vector<v1::Query> received = fake_->service->ReceivedQueries();
  ASSERT_EQ(received.size(), 12u);
  // One stream, one batch at a time: the file's order, cycled.
  for (size_t i = 0; i < received.size(); ++i) {
    EXPECT_EQ(received[i].ray_cast().origin().x(), 101 + i % 3) << i;
    EXPECT_EQ(received[i].request_id(), 1 + i % 2) << i;
  }
}

// A ramp raises the open loop's rate while measuring.
TEST_F(LoadRunnerTest, ALinearRampSendsTheScheduledBatches) {
  Start({.delay = absl::Milliseconds(0)});
  LoadOptions options;
  options.plan = {.rate = 50,
                  .ramp = {.shape = RampShape::kLinear, .to_rate = 150},
                  .warmup = milliseconds(0),
                  .duration = milliseconds(1000)};
  options.interval = milliseconds(500);
  const LoadResult result = Run(options);
  // The integral of the rate: (50 + 150) / 2 batches/s over 1 s.
  EXPECT_EQ(result.batches_sent, 100);
  ASSERT_GE(result.intervals.size(), 2u);
  // 50 -> 100 batches/s in the first half, 100 -> 150 in the second.
  EXPECT_LT(result.intervals[0].latency.count(),
            result.intervals[1].latency.count());
}

}  // namespace
}  // namespace collide::client::load
