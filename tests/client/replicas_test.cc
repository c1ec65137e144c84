// Scale-out: three collide_server processes on loopback ports
// share one level directory, and one CollideClient spreads calls over them
// with round_robin. A replica is killed mid-run: query batches keep
// succeeding on the other two (calls in flight on the killed one are
// retried), a stream on it delivers its unanswered batches with
// UNAVAILABLE, and new streams work. Then the level file changes and every
// remaining replica serves the new content.
//
// Which replica answered a call is gRPC's peer address, read by an
// interceptor on the client's channel. Loopback only; every wait is
// bounded; nothing asserts on timing.
#include <stdio.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <fstream>
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
#include "absl/strings/str_format.h"
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
#include "tests/support/temp_dir.h"

#ifndef COLLIDE_SERVER_BINARY
#error "COLLIDE_SERVER_BINARY must name the collide_server binary"
#endif

namespace collide::client {
namespace {

constexpr int kReplicas = 3;
constexpr int kDrivers = 3;
// Calls each live replica must have answered in a phase before it counts
// as taking part in the round robin.
constexpr int kCallsPerReplica = 5;
// Generous for a loaded 2-core machine: a wait that runs out fails.
constexpr absl::Duration kPatience = absl::Seconds(20);

constexpr char kLevel[] = "wall";
constexpr char kRunQueries[] = "/collide.v1.CollisionService/RunQueries";
constexpr char kStreamQueries[] = "/collide.v1.CollisionService/StreamQueries";

// The level's two contents: a wall x = x, y in [-100, 100], whose user_data
// tag says which content an answer was computed on.
struct Wall {
  double x;
  uint64_t tag;
};
constexpr Wall kOldWall{10, 1};
constexpr Wall kNewWall{15, 2};

// The level file as a user writes it (protobuf JSON).
std::string WallJson(Wall wall) {
  return absl::StrFormat(
      R"({"id": "%s", "shapes": [{"id": "1", "userData": "%d", "segment": )"
      R"({"p1": {"x": %g, "y": -100}, "p2": {"x": %g, "y": 100}}}]})",
      kLevel, wall.tag, wall.x, wall.x);
}

// Written aside and renamed into place, as a user (or the kubelet) updates
// a level: a polling server never sees half a file.
bool WriteLevelFile(const std::string& dir, Wall wall) {
  const std::string path = absl::StrCat(dir, "/", kLevel, ".json");
  {
    std::ofstream out(path + ".tmp");
    out << WallJson(wall);
    if (!out.flush()) return false;
  }
  return rename((path + ".tmp").c_str(), path.c_str()) == 0;
}

// Rays from (0, y) along +x, 20 long: each hits the wall at x / 20.
constexpr int kRays = 4;
std::vector<v1::Query> Rays() {
  std::vector<v1::Query> rays;
  for (int i = 0; i < kRays; ++i) {
    rays.push_back(WithRequestId(RayCast({0, 10.0 * i}, {20, 0}), i + 1));
  }
  return rays;
}

// The tag of the content a batch of Rays() was answered on, or 0 when the
// answer fits neither content (a wrong answer, or a mix of both).
uint64_t ContentOf(
    const google::protobuf::RepeatedPtrField<v1::QueryResult>& results) {
  if (results.size() != kRays) return 0;
  uint64_t tag = 0;
  for (int i = 0; i < kRays; ++i) {
    const v1::QueryResult& result = results[i];
    if (result.request_id() != static_cast<uint64_t>(i + 1) ||
        result.status().code() != 0 || result.cast().hits_size() != 1) {
      return 0;
    }
    const v1::CastHit& hit = result.cast().hits(0);
    uint64_t this_tag = 0;
    for (const Wall wall : {kOldWall, kNewWall}) {
      if (hit.user_data() == wall.tag &&
          std::abs(hit.fraction() - wall.x / 20) < 1e-12) {
        this_tag = wall.tag;
      }
    }
    if (this_tag == 0 || (tag != 0 && this_tag != tag)) return 0;
    tag = this_tag;
  }
  return tag;
}

// Polls `condition` every 20 ms until it holds or `limit` has passed.
bool WaitUntil(absl::FunctionRef<bool()> condition,
               absl::Duration limit = kPatience) {
  const absl::Time give_up = absl::Now() + limit;
  while (!condition()) {
    if (absl::Now() > give_up) return false;
    absl::SleepFor(absl::Milliseconds(20));
  }
  return true;
}

// The test's phases; each call is filed under the phase it started in.
enum Phase : int {
  kAllUp = 0,
  kVictimPaused = 1,  // SIGSTOPped: calls to it stay in flight
  kVictimKilled = 2,
  kLevelChanged = 3,
};

// One call as the interceptor saw it.
struct CallRecord {
  std::string method;
  int phase = kAllUp;
  // The replica that answered, from its peer address
  // ("ipv4:127.0.0.1:PORT"); 0 while unknown.
  int port = 0;
  std::optional<grpc::StatusCode> code;  // once finished
  int finish_phase = -1;
  // The call's context while it is unfinished (the caller destroys it
  // only after the interceptor has seen the status), then null.
  grpc::ClientContext* context = nullptr;
};

int PortOf(const std::string& peer) {
  int port = 0;
  const size_t colon = peer.rfind(':');
  if (colon == std::string::npos ||
      !absl::SimpleAtoi(peer.substr(colon + 1), &port)) {
    return 0;
  }
  return port;
}

// Every call made on the round-robin client's channel.
class CallLog {
 public:
  void set_phase(Phase phase) { phase_.store(phase); }

  size_t Begin(const char* method, grpc::ClientContext* context) {
    absl::MutexLock lock(&mutex_);
    CallRecord record;
    record.method = method;
    record.phase = phase_.load();
    record.context = context;
    records_.push_back(std::move(record));
    return records_.size() - 1;
  }
  void SetPort(size_t index, int port) {
    absl::MutexLock lock(&mutex_);
    if (records_[index].port == 0) records_[index].port = port;
  }
  void Finish(size_t index, grpc::StatusCode code, int port) {
    absl::MutexLock lock(&mutex_);
    records_[index].code = code;
    records_[index].finish_phase = phase_.load();
    records_[index].context = nullptr;
    // After a retry the peer is the attempt that finished the call.
    if (port != 0) records_[index].port = port;
  }

  std::vector<CallRecord> Snapshot() const {
    absl::MutexLock lock(&mutex_);
    return records_;
  }

  // The unfinished RunQueries calls sent to the replica on `port` (gRPC
  // knows a call's peer from the moment it is sent; reading it while the
  // call runs is thread-safe).
  std::vector<size_t> InFlightOn(int port) const {
    absl::MutexLock lock(&mutex_);
    std::vector<size_t> calls;
    for (size_t i = 0; i < records_.size(); ++i) {
      const CallRecord& record = records_[i];
      if (record.method == kRunQueries && record.context != nullptr &&
          PortOf(record.context->peer()) == port) {
        calls.push_back(i);
      }
    }
    return calls;
  }

  // RunQueries calls started in `phase` that the replica on `port` answered
  // with OK.
  int Answered(int port, Phase phase) const {
    absl::MutexLock lock(&mutex_);
    int count = 0;
    for (const CallRecord& record : records_) {
      count += record.method == kRunQueries && record.phase == phase &&
               record.port == port && record.code == grpc::StatusCode::OK;
    }
    return count;
  }

 private:
  std::atomic<int> phase_{kAllUp};
  mutable absl::Mutex mutex_;
  std::vector<CallRecord> records_ ABSL_GUARDED_BY(mutex_);
};

class RecordingInterceptor : public grpc::experimental::Interceptor {
 public:
  RecordingInterceptor(CallLog& log, grpc::experimental::ClientRpcInfo* info)
      : log_(log),
        info_(info),
        index_(log.Begin(info->method(), info->client_context())) {}

  void Intercept(
      grpc::experimental::InterceptorBatchMethods* methods) override {
    using grpc::experimental::InterceptionHookPoints;
    // A stream's replica is known from its first answer, long before the
    // stream ends.
    if (methods->QueryInterceptionHookPoint(
            InterceptionHookPoints::POST_RECV_INITIAL_METADATA) ||
        methods->QueryInterceptionHookPoint(
            InterceptionHookPoints::POST_RECV_MESSAGE)) {
      log_.SetPort(index_, PortOf(info_->client_context()->peer()));
    }
    if (methods->QueryInterceptionHookPoint(
            InterceptionHookPoints::POST_RECV_STATUS)) {
      log_.Finish(index_, methods->GetRecvStatus()->error_code(),
                  PortOf(info_->client_context()->peer()));
    }
    methods->Proceed();
  }

 private:
  CallLog& log_;
  grpc::experimental::ClientRpcInfo* const info_;
  const size_t index_;
};

class RecordingInterceptorFactory
    : public grpc::experimental::ClientInterceptorFactoryInterface {
 public:
  explicit RecordingInterceptorFactory(CallLog& log) : log_(log) {}
  grpc::experimental::Interceptor* CreateClientInterceptor(
      grpc::experimental::ClientRpcInfo* info) override {
    return new RecordingInterceptor(log_, info);
  }

 private:
  CallLog& log_;
};

// What one driver thread saw of its query batches.
struct DriverTally {
  int answered = 0;
  // Answers that fit no content, or the new one before it was written.
  int wrong_content = 0;
  // Batches RunQueries (with its retries) still failed, and what the
  // driver's own retry of each then returned.
  std::vector<absl::Status> failures;
  std::vector<absl::Status> failed_again;
};

// A game server's loop: batch after batch through the round-robin client.
// A failed batch is sent once more, as a caller would.
void Drive(std::stop_token stop, CollideClient& client, DriverTally& tally) {
  const std::vector<v1::Query> rays = Rays();
  while (!stop.stop_requested()) {
    absl::StatusOr<v1::RunQueriesResponse> response =
        client.RunQueries(kLevel, rays);
    if (!response.ok()) {
      tally.failures.push_back(response.status());
      response = client.RunQueries(kLevel, rays);
      if (!response.ok()) {
        tally.failed_again.push_back(response.status());
        continue;
      }
    }
    ++tally.answered;
    if (ContentOf(response->results()) != kOldWall.tag) ++tally.wrong_content;
  }
}

class ReplicasTest : public ::testing::Test {
 protected:
  // Starts the replicas on one level directory holding kOldWall and waits
  // until each says SERVING and answers on that content.
  void StartReplicas() {
    ASSERT_FALSE(dir_.path().empty());
    ASSERT_TRUE(WriteLevelFile(dir_.path(), kOldWall));
    for (int i = 0; i < kReplicas; ++i) {
      servers_.push_back(
          std::make_unique<testing::ServerProcess>(COLLIDE_SERVER_BINARY));
      ASSERT_TRUE(servers_[i]->Start({
          "--listen=127.0.0.1:0",
          absl::StrCat("--level_dir=", dir_.path()),
          "--level_dir_poll_interval=100ms",
          "--default_level=false",
          "--worker_threads=2",
          "--shutdown_grace=1s",
      })) << servers_[i]->log();
      ports_.push_back(servers_[i]->port());
      // pick_first on one address: this replica and no other.
      absl::StatusOr<std::unique_ptr<CollideClient>> direct =
          CollideClient::Connect({.target = Address(i),
                                  .load_balancing = "pick_first",
                                  .call_timeout = absl::Seconds(5),
                                  .max_attempts = 1});
      ASSERT_TRUE(direct.ok()) << direct.status();
      direct_.push_back(std::move(*direct));
    }
    for (int i = 0; i < kReplicas; ++i) {
      ASSERT_TRUE(WaitUntil([&] { return direct_[i]->CheckHealth().ok(); }))
          << servers_[i]->log();
      EXPECT_EQ(DirectContent(i), kOldWall.tag) << servers_[i]->log();
    }
  }

  // The round-robin client over all replicas: CollideClient::Connect's
  // channel (MakeChannelSpec), plus the interceptor that files every call.
  void ConnectRoundRobin() {
    ClientOptions options;
    options.target = absl::StrJoin(AllAddresses(), ",");
    options.load_balancing = "round_robin";
    options.call_timeout = absl::Seconds(10);
    options.max_attempts = 3;
    absl::StatusOr<ChannelSpec> spec = MakeChannelSpec(options);
    ASSERT_TRUE(spec.ok()) << spec.status();
    std::vector<
        std::unique_ptr<grpc::experimental::ClientInterceptorFactoryInterface>>
        interceptors;
    interceptors.push_back(std::make_unique<RecordingInterceptorFactory>(log_));
    const std::shared_ptr<grpc::Channel> channel =
        grpc::experimental::CreateCustomChannelWithInterceptors(
            spec->target, grpc::InsecureChannelCredentials(), spec->arguments,
            std::move(interceptors));
    client_ = std::make_unique<CollideClient>(
        v1::CollisionService::NewStub(channel),
        v1::LevelService::NewStub(channel),
        grpc::health::v1::Health::NewStub(channel), options);
  }

  std::string Address(int replica) const {
    return absl::StrCat("127.0.0.1:", ports_[replica]);
  }
  std::vector<std::string> AllAddresses() const {
    std::vector<std::string> addresses;
    for (int i = 0; i < kReplicas; ++i) addresses.push_back(Address(i));
    return addresses;
  }

  // The content replica `replica` answers Rays() on (0: an error or a
  // wrong answer).
  uint64_t DirectContent(int replica) {
    absl::StatusOr<v1::RunQueriesResponse> response =
        direct_[replica]->RunQueries(kLevel, Rays());
    return response.ok() ? ContentOf(response->results()) : 0;
  }

  // True once every replica in `replicas` has answered kCallsPerReplica
  // round-robin batches started in `phase`.
  bool EachAnswered(const std::vector<int>& replicas, Phase phase) const {
    for (int i : replicas) {
      if (log_.Answered(ports_[i], phase) < kCallsPerReplica) return false;
    }
    return true;
  }
  std::string AnsweredCounts(Phase phase) const {
    std::vector<std::string> counts;
    for (int i = 0; i < kReplicas; ++i) {
      counts.push_back(absl::StrCat("replica ", i, " (port ", ports_[i],
                                    "): ", log_.Answered(ports_[i], phase)));
    }
    return absl::StrJoin(counts, ", ");
  }

  void StartDrivers() {
    tallies_.resize(kDrivers);
    for (int i = 0; i < kDrivers; ++i) {
      drivers_.emplace_back(Drive, std::ref(*client_), std::ref(tallies_[i]));
    }
  }
  void StopDrivers() {
    for (std::jthread& driver : drivers_) driver.request_stop();
    drivers_.clear();  // joins
  }

  // Declared in the order they may be torn down in reverse: the servers die
  // first (so a driver blocked on a paused replica returns), then the
  // drivers are stopped and joined, then the clients go.
  testing::TempDir dir_;
  CallLog log_;
  std::vector<int> ports_;
  std::vector<std::unique_ptr<CollideClient>> direct_;
  std::unique_ptr<CollideClient> client_;
  std::vector<DriverTally> tallies_;
  std::vector<std::jthread> drivers_;
  std::vector<std::unique_ptr<testing::ServerProcess>> servers_;
};

TEST_F(ReplicasTest,
       QueriesSurviveAKilledReplicaAndEveryReplicaTakesANewLevel) {
  StartReplicas();
  if (HasFatalFailure()) return;
  ConnectRoundRobin();
  if (HasFatalFailure()) return;

  // --- All up: round_robin spreads the batches over all three.
  StartDrivers();
  ASSERT_TRUE(WaitUntil([&] {
    return EachAnswered({0, 1, 2}, kAllUp);
  })) << AnsweredCounts(kAllUp);

  // A stream from the same client; the replica it landed on is the victim.
  // Not reopened (max_reopens 0): what a stream that cannot go on delivers.
  absl::StatusOr<std::unique_ptr<QueryStream>> doomed =
      client_->OpenStream(kLevel, {.window = 8,
                                   .timeout = absl::Seconds(60),
                                   .on_response = {},
                                   .metadata = {},
                                   .max_reopens = 0});
  ASSERT_TRUE(doomed.ok()) << doomed.status();
  ASSERT_TRUE((*doomed)->Send(Rays()).ok());
  absl::StatusOr<BatchOutcome> first = (*doomed)->Next();
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_TRUE(first->response.ok()) << first->response.status();
  EXPECT_EQ(ContentOf(first->response->results()), kOldWall.tag);
  int victim = -1;
  for (const CallRecord& record : log_.Snapshot()) {
    if (record.method != kStreamQueries) continue;
    for (int i = 0; i < kReplicas; ++i) {
      if (record.port == ports_[i]) victim = i;
    }
  }
  ASSERT_NE(victim, -1) << "the stream's replica is unknown";
  std::vector<int> survivors;
  for (int i = 0; i < kReplicas; ++i) {
    if (i != victim) survivors.push_back(i);
  }

  // --- The victim hangs, then dies. Paused first so that work is surely
  // in flight on it when it dies: three batches on the stream, and the
  // drivers' batches. Its connection is still READY, so round_robin keeps
  // handing it every third pick, and each such batch waits there: soon
  // every driver has one in flight on it.
  ASSERT_TRUE(servers_[victim]->Pause());
  log_.set_phase(kVictimPaused);
  constexpr int kUnanswered = 3;
  for (int i = 0; i < kUnanswered; ++i) {
    ASSERT_TRUE((*doomed)->Send(Rays()).ok());
  }
  ASSERT_TRUE(WaitUntil([&] {
    return log_.InFlightOn(ports_[victim]).size() >= kDrivers;
  })) << AnsweredCounts(kVictimPaused);
  // Before the kill, so that whatever finishes later is filed after it.
  log_.set_phase(kVictimKilled);
  const std::vector<size_t> caught = log_.InFlightOn(ports_[victim]);
  servers_[victim]->Kill();

  // The stream's unanswered batches come back with UNAVAILABLE: delivered
  // in order, none lost.
  const absl::Status stream_end = (*doomed)->Finish();
  EXPECT_EQ(stream_end.code(), absl::StatusCode::kUnavailable) << stream_end;
  for (int i = 0; i < kUnanswered; ++i) {
    absl::StatusOr<BatchOutcome> outcome = (*doomed)->Next();
    ASSERT_TRUE(outcome.ok()) << outcome.status();
    EXPECT_EQ(outcome->batch_id, static_cast<uint64_t>(i + 2));
    EXPECT_EQ(outcome->response.status().code(), absl::StatusCode::kUnavailable)
        << outcome->response.status();
  }
  EXPECT_EQ((*doomed)->Next().status().code(),
            absl::StatusCode::kFailedPrecondition);

  // New streams from the same client land on the survivors and work.
  for (int i = 0; i < kReplicas; ++i) {
    absl::StatusOr<std::unique_ptr<QueryStream>> stream =
        client_->OpenStream(kLevel, {.window = 8,
                                     .timeout = absl::Seconds(60),
                                     .on_response = {},
                                     .metadata = {}});
    ASSERT_TRUE(stream.ok()) << stream.status();
    ASSERT_TRUE((*stream)->Send(Rays()).ok());
    absl::StatusOr<BatchOutcome> outcome = (*stream)->Next();
    ASSERT_TRUE(outcome.ok()) << outcome.status();
    ASSERT_TRUE(outcome->response.ok()) << outcome->response.status();
    EXPECT_EQ(ContentOf(outcome->response->results()), kOldWall.tag);
    EXPECT_TRUE((*stream)->Finish().ok());
  }

  // Batches keep being answered, by both survivors.
  EXPECT_TRUE(WaitUntil([&] { return EachAnswered(survivors, kVictimKilled); }))
      << AnsweredCounts(kVictimKilled);
  StopDrivers();

  DriverTally total;
  for (const DriverTally& tally : tallies_) {
    total.answered += tally.answered;
    total.wrong_content += tally.wrong_content;
    total.failures.insert(total.failures.end(), tally.failures.begin(),
                          tally.failures.end());
    total.failed_again.insert(total.failed_again.end(),
                              tally.failed_again.begin(),
                              tally.failed_again.end());
  }
  EXPECT_EQ(total.wrong_content, 0);
  // RunQueries retries UNAVAILABLE (gRPC's retry policy, then its own
  // loop), so a batch caught on the dying replica normally still succeeds.
  // At most the batches in flight at the kill (one per driver) may fail,
  // only with UNAVAILABLE, and the driver's retry of each succeeds.
  EXPECT_LE(total.failures.size(), static_cast<size_t>(kDrivers));
  for (const absl::Status& failure : total.failures) {
    EXPECT_EQ(failure.code(), absl::StatusCode::kUnavailable) << failure;
  }
  EXPECT_TRUE(total.failed_again.empty()) << total.failed_again.front();

  // Nothing started after the pause was answered by the victim (the
  // interceptor's attribution holds; no new stream landed on it).
  const std::vector<CallRecord> calls = log_.Snapshot();
  int on_victim = 0;
  for (const CallRecord& record : calls) {
    on_victim += record.phase >= kVictimPaused &&
                 record.port == ports_[victim] &&
                 record.code == grpc::StatusCode::OK;
  }
  EXPECT_EQ(on_victim, 0);
  // The batches caught on the victim at the kill: each ended, either
  // answered by a survivor (gRPC's retry policy sent it again within the
  // same call) or with UNAVAILABLE (and RunQueries' own loop sent it
  // again; counted above if that failed too).
  int caught_answered = 0;
  for (size_t index : caught) {
    const CallRecord& record = calls[index];
    ASSERT_TRUE(record.code.has_value());
    if (*record.code == grpc::StatusCode::OK) {
      ++caught_answered;
      EXPECT_NE(record.port, ports_[victim]);
    } else {
      EXPECT_EQ(*record.code, grpc::StatusCode::UNAVAILABLE);
    }
  }
  printf(
      "[ replicas ] %d batches answered; round robin before the kill: %s; "
      "after: %s; victim replica %d; batches in flight on it at the kill: "
      "%zu, of which gRPC's retry got answered by a survivor: %d; batches "
      "RunQueries itself failed: %zu\n",
      total.answered, AnsweredCounts(kAllUp).c_str(),
      AnsweredCounts(kVictimKilled).c_str(), victim, caught.size(),
      caught_answered, total.failures.size());

  // --- The level file changes: each survivor, asked directly, moves to
  // the new content (never anything else), with a newer version.
  std::vector<int64_t> old_versions;
  for (int i : survivors) {
    absl::StatusOr<v1::LevelSummary> summary =
        direct_[i]->DescribeLevel(kLevel);
    ASSERT_TRUE(summary.ok()) << summary.status();
    old_versions.push_back(summary->version());
  }
  log_.set_phase(kLevelChanged);
  ASSERT_TRUE(WriteLevelFile(dir_.path(), kNewWall));
  for (size_t s = 0; s < survivors.size(); ++s) {
    const int i = survivors[s];
    int unexpected = 0;
    EXPECT_TRUE(WaitUntil([&] {
      const uint64_t tag = DirectContent(i);
      unexpected += tag != kOldWall.tag && tag != kNewWall.tag;
      return tag == kNewWall.tag;
    })) << servers_[i]->log();
    EXPECT_EQ(unexpected, 0);
    absl::StatusOr<v1::GetLevelResponse> level = direct_[i]->GetLevel(kLevel);
    ASSERT_TRUE(level.ok()) << level.status();
    ASSERT_EQ(level->content().shapes_size(), 1);
    EXPECT_EQ(level->content().shapes(0).user_data(), kNewWall.tag);
    EXPECT_EQ(level->content().shapes(0).segment().p1().x(), kNewWall.x);
    EXPECT_GT(level->summary().version(), old_versions[s]);
  }

  // The round-robin client now gets only the new content, from both.
  int old_answers = 0;
  for (int call = 0; call < 200 && !EachAnswered(survivors, kLevelChanged);
       ++call) {
    absl::StatusOr<v1::RunQueriesResponse> response =
        client_->RunQueries(kLevel, Rays());
    ASSERT_TRUE(response.ok()) << response.status();
    old_answers += ContentOf(response->results()) != kNewWall.tag;
  }
  EXPECT_EQ(old_answers, 0);
  EXPECT_TRUE(EachAnswered(survivors, kLevelChanged))
      << AnsweredCounts(kLevelChanged);
}

}  // namespace
}  // namespace collide::client
