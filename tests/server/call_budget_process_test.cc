// The call limits of a real collide_server process: a stream past
// --max_streams_per_connection is refused naming the flag, and callers that
// send big batches and never read their answers leave the server's memory
// within the bound of docs/server.md, given back once they close, while a
// small caller on another connection is still answered.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "collide/v1/collision_service.grpc.pb.h"
#include "e2e_helpers.h"
#include "gmock/gmock.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "tests/support/server_process.h"

namespace collide::server {
namespace {

using testing::Deadline;
using ::testing::HasSubstr;
using Clock = std::chrono::steady_clock;

// GCC says __SANITIZE_ADDRESS__, clang __has_feature(address_sanitizer).
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

class ServerProcess : public ::collide::testing::ServerProcess {
 public:
  ServerProcess() : ::collide::testing::ServerProcess(COLLIDE_SERVER_BINARY) {}
};

using Stream = grpc::ClientReaderWriter<v1::StreamQueriesRequest,
                                        v1::StreamQueriesResponse>;

// A channel with a connection of its own.
std::shared_ptr<grpc::Channel> NewConnection(int port) {
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  args.SetMaxReceiveMessageSize(-1);
  return grpc::CreateCustomChannel(absl::StrCat("127.0.0.1:", port),
                                   grpc::InsecureChannelCredentials(), args);
}

// The server's resident memory (VmRSS), bytes; -1 if unreadable.
int64_t RssBytes(pid_t pid) {
  std::ifstream in(absl::StrCat("/proc/", pid, "/status"));
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoll(line.substr(6)) << 10;
  }
  return -1;
}

// 300 vertical walls at x = 0..299, y in [-1000, 1000].
void WriteWallsLevel(const std::string& path) {
  std::ofstream out(path);
  out << "{\"id\": \"walls\", \"shapes\": [";
  for (int i = 0; i < 300; ++i) {
    out << (i ? "," : "") << "{\"id\": \"" << i + 1
        << "\", \"segment\": {\"p1\": {\"x\": " << i
        << ", \"y\": -1000}, \"p2\": {\"x\": " << i << ", \"y\": 1000}}}";
  }
  out << "]}";
}

// The worst case of docs/server.md beside the byte budgets (`budgets`:
// what the callers' connections may hold together): one slice's answer
// (64 queries) past the budget per batch being built, and a worker has at
// most 3 batches under way (one running and 2 that gave way to it). An
// answer is built on an arena of about 3 times its serialized size,
// charged twice (AnswerCharge); 4 times is taken for the margin. Requests
// here are smaller than a read's reservation, so they add nothing.
int64_t ByteBound(int64_t budgets, int workers, int64_t answer_bytes,
                  int batch_queries) {
  const int64_t slice = 2 * 64 * 4 * answer_bytes / batch_queries;
  return budgets + int64_t{workers} * 3 * slice;
}

// `count` rays crossing every wall, all hits asked: each answer holds 256
// hits (the server's max_results_per_query).
v1::StreamQueriesRequest AllHitsBatch(int count) {
  v1::StreamQueriesRequest request;
  request.set_level("levels/walls");
  for (int i = 0; i < count; ++i) {
    v1::Query* query = request.add_queries();
    query->set_request_id(i);
    v1::RayCastQuery* ray = query->mutable_ray_cast();
    testing::Set(ray->mutable_origin(), -5, -900 + 1800.0 * (i + 0.5) / count);
    testing::Set(ray->mutable_translation(), 400, 0);
    ray->mutable_options()->set_mode(v1::CAST_MODE_ALL);
  }
  return request;
}

TEST(CallBudgetProcessTest,
     AStreamPastThePerConnectionLimitGetsResourceExhaustedNamingTheFlag) {
  testing::TempDir dir;
  const std::string level = dir.path() + "/walls.json";
  WriteWallsLevel(level);
  ServerProcess server;
  ASSERT_TRUE(server.Start({"--listen=127.0.0.1:0", "--level_files=" + level,
                            "--max_streams_per_connection=3"}))
      << server.log();
  std::shared_ptr<grpc::Channel> channel = NewConnection(server.port());
  v1::CollisionService::Stub stub(channel);
  // Three streams open (each answered once, so the server holds them).
  std::vector<std::unique_ptr<grpc::ClientContext>> contexts;
  std::vector<std::unique_ptr<Stream>> open;
  for (int i = 0; i < 3; ++i) {
    contexts.push_back(std::make_unique<grpc::ClientContext>());
    contexts.back()->set_deadline(Deadline());
    open.push_back(stub.StreamQueries(contexts.back().get()));
    ASSERT_TRUE(open.back()->Write(AllHitsBatch(1)));
    v1::StreamQueriesResponse response;
    ASSERT_TRUE(open.back()->Read(&response));
    EXPECT_EQ(response.results_size(), 1);
  }
  // The fourth is refused, naming the flag and its value.
  grpc::ClientContext fourth_context;
  fourth_context.set_deadline(Deadline());
  std::unique_ptr<Stream> fourth = stub.StreamQueries(&fourth_context);
  fourth->Write(AllHitsBatch(1));
  v1::StreamQueriesResponse ignored;
  EXPECT_FALSE(fourth->Read(&ignored));
  const grpc::Status status = fourth->Finish();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(status.error_message(),
              HasSubstr("--max_streams_per_connection=3"));
  // So is a unary call on the same connection.
  grpc::ClientContext unary_context;
  unary_context.set_deadline(Deadline());
  v1::RunQueriesRequest unary;
  unary.set_level("levels/walls");
  *unary.mutable_queries() = AllHitsBatch(1).queries();
  v1::RunQueriesResponse unary_response;
  const grpc::Status unary_status =
      stub.RunQueries(&unary_context, unary, &unary_response);
  EXPECT_EQ(unary_status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(unary_status.error_message(),
              HasSubstr("--max_streams_per_connection=3"));
  // Another connection is not held to this one's streams.
  v1::CollisionService::Stub other(NewConnection(server.port()));
  grpc::ClientContext other_context;
  other_context.set_deadline(Deadline());
  EXPECT_TRUE(other.RunQueries(&other_context, unary, &unary_response).ok());
  // Once one of the three ends, the connection may open another. The
  // server gives the slot back as its side of the call is torn down, just
  // after the client has the status: a few tries, bounded.
  open[0]->WritesDone();
  EXPECT_TRUE(open[0]->Finish().ok());
  grpc::Status again;
  for (int attempt = 0; attempt < 100; ++attempt) {
    grpc::ClientContext again_context;
    again_context.set_deadline(Deadline());
    again = stub.RunQueries(&again_context, unary, &unary_response);
    if (again.error_code() != grpc::StatusCode::RESOURCE_EXHAUSTED) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_TRUE(again.ok()) << again.error_message();
  for (size_t i = 1; i < open.size(); ++i) {
    open[i]->WritesDone();
    EXPECT_TRUE(open[i]->Finish().ok());
  }
  EXPECT_THAT(server.log(), HasSubstr("--max_streams_per_connection=3"));
}

// Four streams on one connection each send 8 batches of 1,024 all-hits
// rays (answers of about 10 MB) and never read. The bound
// (docs/server.md) for one connection: its budget, plus a slice of each
// answer being built (ByteBound).
TEST(CallBudgetProcessTest, CallersThatNeverReadStayWithinTheByteBound) {
  if (kAddressSanitizer) {
    GTEST_SKIP() << "under AddressSanitizer freed memory sits in quarantine "
                    "and RSS says nothing about the server's bound";
  }
  testing::TempDir dir;
  const std::string level = dir.path() + "/walls.json";
  WriteWallsLevel(level);
  constexpr int64_t kBudget = int64_t{32} << 20;
  constexpr int kWorkers = 2;
  constexpr int kStreams = 4;
  ServerProcess server;
  ASSERT_TRUE(
      server.Start({"--listen=127.0.0.1:0", "--level_files=" + level,
                    absl::StrCat("--max_queued_bytes_per_connection=", kBudget),
                    absl::StrCat("--worker_threads=", kWorkers)}))
      << server.log();
  const v1::StreamQueriesRequest batch = AllHitsBatch(1024);
  // One answer read normally, for its size (and to warm the server up).
  int64_t answer_bytes = 0;
  {
    v1::CollisionService::Stub stub(NewConnection(server.port()));
    grpc::ClientContext context;
    context.set_deadline(Deadline());
    std::unique_ptr<Stream> stream = stub.StreamQueries(&context);
    ASSERT_TRUE(stream->Write(batch));
    v1::StreamQueriesResponse response;
    ASSERT_TRUE(stream->Read(&response));
    answer_bytes = static_cast<int64_t>(response.ByteSizeLong());
    stream->WritesDone();
    ASSERT_TRUE(stream->Finish().ok());
  }
  std::this_thread::sleep_for(std::chrono::seconds(1));
  const int64_t baseline = RssBytes(server.pid());
  ASSERT_GT(baseline, 0);
  const int64_t bound = ByteBound(kBudget, kWorkers, answer_bytes, 1024);
  // Margin: gRPC's own buffers and allocator slack.
  const int64_t margin = int64_t{48} << 20;

  int64_t peak = baseline;
  {
    std::shared_ptr<grpc::Channel> channel = NewConnection(server.port());
    v1::CollisionService::Stub stub(channel);
    std::vector<std::unique_ptr<grpc::ClientContext>> contexts;
    std::vector<std::unique_ptr<Stream>> streams;
    std::vector<std::thread> writers;
    for (int s = 0; s < kStreams; ++s) {
      contexts.push_back(std::make_unique<grpc::ClientContext>());
      contexts.back()->set_deadline(Deadline(60));
      streams.push_back(stub.StreamQueries(contexts.back().get()));
    }
    for (int s = 0; s < kStreams; ++s) {
      // Writes block once flow control holds them; cancelling ends them.
      writers.emplace_back([&, s] {
        for (int b = 0; b < 8 && streams[s]->Write(batch); ++b) {
        }
      });
    }
    const Clock::time_point until = Clock::now() + std::chrono::seconds(8);
    while (Clock::now() < until) {
      peak = std::max(peak, RssBytes(server.pid()));
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    for (auto& context : contexts) context->TryCancel();
    for (std::thread& writer : writers) writer.join();
    for (auto& stream : streams) stream->Finish();
  }
  EXPECT_LE(peak - baseline, bound + margin)
      << "peak " << peak << " baseline " << baseline << " bound " << bound;
  // A pause was logged naming the flag.
  EXPECT_THAT(server.log(), HasSubstr("--max_queued_bytes_per_connection="));
  // Memory is given back once they are gone (allow for gRPC's caches).
  int64_t after = RssBytes(server.pid());
  for (int i = 0; i < 50 && after - baseline > margin; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    after = RssBytes(server.pid());
  }
  EXPECT_LE(after - baseline, margin)
      << "after " << after << " baseline " << baseline;
}

// The size of `batch`'s answer, read normally on a connection of its own
// (which also warms the server up); 0 if the call failed.
int64_t AnswerBytes(int port, const v1::StreamQueriesRequest& batch) {
  v1::CollisionService::Stub stub(NewConnection(port));
  grpc::ClientContext context;
  context.set_deadline(Deadline());
  std::unique_ptr<Stream> stream = stub.StreamQueries(&context);
  v1::StreamQueriesResponse response;
  if (!stream->Write(batch) || !stream->Read(&response)) return 0;
  stream->WritesDone();
  if (!stream->Finish().ok()) return 0;
  return static_cast<int64_t>(response.ByteSizeLong());
}

// 64 streams on 4 connections each send 4 batches of 1,024 all-hits rays
// at once and never read: every stream's first batch is read before any
// answer shows how big they get, and the workers build them side by side.
// Each answer is charged as it grows, so the connections' budgets cut the
// batches short (their other queries answered RESOURCE_EXHAUSTED) instead
// of the server holding 64 answers of 10 MB and their arenas. A small
// caller on a fifth connection is answered all along: the server's budget
// is larger than the four connections' together with what their batches
// under way can add (ByteBound).
TEST(CallBudgetProcessTest,
     ManyStreamsBuildingBigAnswersAtOnceStayWithinTheBoundAndOthersAreServed) {
  if (kAddressSanitizer) {
    GTEST_SKIP() << "under AddressSanitizer freed memory sits in quarantine "
                    "and RSS says nothing about the server's bound";
  }
  testing::TempDir dir;
  const std::string level = dir.path() + "/walls.json";
  WriteWallsLevel(level);
  constexpr int64_t kConnectionBudget = int64_t{16} << 20;
  constexpr int64_t kServerBudget = int64_t{160} << 20;
  constexpr int kWorkers = 2;
  constexpr int kConnections = 4;
  constexpr int kStreamsPerConnection = 16;
  constexpr int kBatches = 4;
  ServerProcess server;
  ASSERT_TRUE(server.Start(
      {"--listen=127.0.0.1:0", "--level_files=" + level,
       absl::StrCat("--max_queued_bytes_per_connection=", kConnectionBudget),
       absl::StrCat("--max_queued_bytes=", kServerBudget),
       absl::StrCat("--worker_threads=", kWorkers)}))
      << server.log();
  const v1::StreamQueriesRequest batch = AllHitsBatch(1024);
  const int64_t answer_bytes = AnswerBytes(server.port(), batch);
  ASSERT_GT(answer_bytes, 0);
  std::this_thread::sleep_for(std::chrono::seconds(1));
  const int64_t baseline = RssBytes(server.pid());
  ASSERT_GT(baseline, 0);
  const int64_t bound =
      ByteBound(kConnections * kConnectionBudget, kWorkers, answer_bytes, 1024);
  // Margin: gRPC's own buffers (the requests sent ahead of each stream's
  // read wait in its HTTP/2 window) and allocator slack.
  const int64_t margin = int64_t{48} << 20;

  int64_t peak = baseline;
  int small_answered = 0;
  int small_failed = 0;
  {
    std::vector<std::shared_ptr<grpc::Channel>> channels;
    std::vector<std::unique_ptr<v1::CollisionService::Stub>> stubs;
    for (int c = 0; c < kConnections; ++c) {
      channels.push_back(NewConnection(server.port()));
      stubs.push_back(
          std::make_unique<v1::CollisionService::Stub>(channels[c]));
    }
    std::vector<std::unique_ptr<grpc::ClientContext>> contexts;
    std::vector<std::unique_ptr<Stream>> streams;
    for (int s = 0; s < kConnections * kStreamsPerConnection; ++s) {
      contexts.push_back(std::make_unique<grpc::ClientContext>());
      contexts.back()->set_deadline(Deadline(60));
      streams.push_back(
          stubs[s % kConnections]->StreamQueries(contexts.back().get()));
    }
    std::vector<std::thread> writers;
    for (size_t s = 0; s < streams.size(); ++s) {
      // Writes block once flow control holds them; cancelling ends them.
      writers.emplace_back([&, s] {
        for (int b = 0; b < kBatches && streams[s]->Write(batch); ++b) {
        }
      });
    }
    // The small caller: a 1-query batch every 20 ms, each read back.
    std::atomic<bool> stop{false};
    std::thread small([&] {
      v1::CollisionService::Stub stub(NewConnection(server.port()));
      grpc::ClientContext context;
      context.set_deadline(Deadline(60));
      std::unique_ptr<Stream> stream = stub.StreamQueries(&context);
      v1::StreamQueriesRequest one = AllHitsBatch(1);
      v1::StreamQueriesResponse response;
      for (int i = 0; i < 1000 && !stop.load(); ++i) {
        one.set_batch_id(i + 1);
        if (!stream->Write(one) || !stream->Read(&response)) break;
        const bool ok = response.batch_id() == static_cast<uint64_t>(i + 1) &&
                        response.results_size() == 1 &&
                        response.results(0).status().code() == 0;
        ++(ok ? small_answered : small_failed);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
      stream->WritesDone();
      stream->Finish();
    });
    const Clock::time_point until = Clock::now() + std::chrono::seconds(6);
    while (Clock::now() < until) {
      peak = std::max(peak, RssBytes(server.pid()));
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    stop.store(true);
    small.join();
    for (auto& context : contexts) context->TryCancel();
    for (std::thread& writer : writers) writer.join();
    for (auto& stream : streams) stream->Finish();
  }
  EXPECT_LE(peak - baseline, bound + margin)
      << "peak " << peak << " baseline " << baseline << " bound " << bound;
  std::printf("peak - baseline %.1f MB, bound %.1f MB + margin %.1f MB\n",
              static_cast<double>(peak - baseline) / 1e6,
              static_cast<double>(bound) / 1e6,
              static_cast<double>(margin) / 1e6);
  // The small caller was answered all along (one batch every 20 ms for 6 s
  // is about 300; a loaded 2-core machine answers fewer, never none).
  EXPECT_GE(small_answered, 20);
  EXPECT_EQ(small_failed, 0);
  // The budget cut answers short, logged naming the flag.
  EXPECT_THAT(server.log(), HasSubstr("answers being built are cut short"));
  EXPECT_THAT(server.log(), HasSubstr("--max_queued_bytes_per_connection="));
}

}  // namespace
}  // namespace collide::server
