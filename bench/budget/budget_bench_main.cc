// collide_budget_bench: what callers that never read and callers that send
// huge batches do to a running collide_server (its pid given), on loopback.
//
//   --mode=hold   streams that send batches and never read their answers:
//                 prints the server's RSS before, its peak while they are
//                 held, and after they are cancelled and closed, per round,
//                 and how many streams were refused (RESOURCE_EXHAUSTED).
//   --mode=fair   a small client sending one 1-query batch every
//                 --small_interval on its own connection, alone and then
//                 beside --heavy_streams streams of --heavy_batch-query
//                 batches (each on its own connection, closed loop, in a
//                 child process: --mode=heavy): prints the small client's
//                 p50 / p99 latency in both phases and the heavy streams'
//                 queries per second.
//
// Queries are rays along +x through the level bench/budget/run.sh makes
// (300 vertical walls): CAST_MODE_ALL rays hit every wall (256 hits
// returned, the server's max_results_per_query), closest-hit rays one.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "client/lib/query_builders.h"
#include "collide/v1/collision_service.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "proto/formats/tool_command_line.h"

ABSL_FLAG(std::string, address, "127.0.0.1:50051", "The server's query port.");
ABSL_FLAG(int, server_pid, 0,
          "The server's pid (hold: RSS is read from /proc).");
ABSL_FLAG(std::string, level, "levels/walls", "The level queried.");
ABSL_FLAG(std::string, mode, "hold", "hold or fair.");
// hold
ABSL_FLAG(int, streams, 4, "hold: streams opened.");
ABSL_FLAG(int, connections, 1, "hold: connections the streams share.");
ABSL_FLAG(int, batches, 8, "hold: batches each stream sends.");
ABSL_FLAG(int, batch, 1024, "hold: queries per batch.");
ABSL_FLAG(bool, all_hits, true, "hold: CAST_MODE_ALL rays (else closest).");
ABSL_FLAG(absl::Duration, hold, absl::Seconds(4),
          "hold: how long they are held.");
ABSL_FLAG(absl::Duration, settle, absl::Seconds(3),
          "hold: wait after closing before reading RSS.");
ABSL_FLAG(int, rounds, 1, "hold: rounds.");
// fair
ABSL_FLAG(int, heavy_streams, 8, "fair: heavy streams.");
ABSL_FLAG(int, heavy_batch, 4096, "fair: queries per heavy batch.");
ABSL_FLAG(absl::Duration, small_interval, absl::Milliseconds(5),
          "fair: time between the small client's batches.");
ABSL_FLAG(absl::Duration, phase, absl::Seconds(10),
          "fair: length of each phase.");
ABSL_FLAG(int, heavy_nice, 0,
          "fair: nice increment of the heavy client's process (on a small "
          "machine, so that the heavy client takes less of the small "
          "client's core, as if it ran on another machine).");

namespace {

using Clock = std::chrono::steady_clock;
using collide::v1::CollisionService;
using collide::v1::StreamQueriesRequest;
using collide::v1::StreamQueriesResponse;

// KiB as the MiB the report prints.
double Mib(int64_t kib) { return static_cast<double>(kib) / 1024.0; }

int64_t RssKib(int pid, const char* field = "VmRSS:") {
  std::ifstream in(absl::StrCat("/proc/", pid, "/status"));
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field, 0) == 0)
      return std::stoll(line.substr(strlen(field)));
  }
  return -1;
}

std::shared_ptr<grpc::Channel> NewConnection(const std::string& target) {
  grpc::ChannelArguments args;
  // A channel of its own: one TCP connection per channel.
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  args.SetMaxReceiveMessageSize(-1);
  return grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(),
                                   args);
}

StreamQueriesRequest Batch(int queries, bool all_hits, uint64_t id) {
  StreamQueriesRequest request;
  request.set_level(absl::GetFlag(FLAGS_level));
  request.set_batch_id(id);
  collide::v1::CastOptions options;
  if (all_hits) options.set_mode(collide::v1::CAST_MODE_ALL);
  for (int i = 0; i < queries; ++i) {
    const double y = -900.0 + 1800.0 * (i + 0.5) / queries;
    *request.add_queries() = collide::client::WithRequestId(
        collide::client::RayCast({-5.0, y}, {400.0, 0.0}, options), i);
  }
  return request;
}

struct HeldStream {
  grpc::ClientContext context;
  // Set when a write failed: the call had ended (refused, say).
  std::optional<grpc::Status> ended;
  std::unique_ptr<
      grpc::ClientReaderWriter<StreamQueriesRequest, StreamQueriesResponse>>
      stream;
};

int Hold() {
  const int pid = absl::GetFlag(FLAGS_server_pid);
  const int streams = absl::GetFlag(FLAGS_streams);
  const int connections = std::max(1, absl::GetFlag(FLAGS_connections));
  const StreamQueriesRequest request =
      Batch(absl::GetFlag(FLAGS_batch), absl::GetFlag(FLAGS_all_hits), 1);
  std::printf(
      "hold: %d streams on %d connection(s), %d batches of %d %s rays, "
      "request %zu bytes\n",
      streams, connections, absl::GetFlag(FLAGS_batches),
      absl::GetFlag(FLAGS_batch),
      absl::GetFlag(FLAGS_all_hits) ? "CAST_MODE_ALL" : "closest-hit",
      request.ByteSizeLong());
  for (int round = 1; round <= absl::GetFlag(FLAGS_rounds); ++round) {
    const int64_t before = RssKib(pid);
    std::vector<std::shared_ptr<grpc::Channel>> channels;
    for (int c = 0; c < connections; ++c) {
      channels.push_back(NewConnection(absl::GetFlag(FLAGS_address)));
    }
    std::vector<std::unique_ptr<HeldStream>> held(streams);
    std::mutex held_mutex;
    std::atomic<int64_t> peak{before};
    std::atomic<bool> sampling{true};
    std::thread sampler([&] {
      while (sampling.load()) {
        const int64_t rss = RssKib(pid);
        int64_t old = peak.load();
        while (rss > old && !peak.compare_exchange_weak(old, rss)) {
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    });
    // Writers: a thread per stream when few (big writes may block on flow
    // control, which is the point), else one thread writing them in turn
    // (small batches never block).
    std::atomic<int> written{0};
    std::atomic<bool> stop_writing{false};
    const auto round_deadline =
        std::chrono::system_clock::now() +
        absl::ToChronoNanoseconds(absl::GetFlag(FLAGS_hold)) +
        std::chrono::seconds(20);
    auto write_stream = [&](int s) {
      if (stop_writing.load()) return;
      auto stream = std::make_unique<HeldStream>();
      // Nothing outlives the round, whatever the server does.
      stream->context.set_deadline(round_deadline);
      CollisionService::Stub stub(channels[s % connections]);
      stream->stream = stub.StreamQueries(&stream->context);
      HeldStream* mine = stream.get();
      {
        std::lock_guard<std::mutex> lock(held_mutex);
        held[s] = std::move(stream);
      }
      for (int b = 0; b < absl::GetFlag(FLAGS_batches); ++b) {
        if (!mine->stream->Write(request)) {
          mine->ended = mine->stream->Finish();
          break;
        }
        written.fetch_add(1);
      }
    };
    std::vector<std::thread> writers;
    if (streams <= 64) {
      for (int s = 0; s < streams; ++s) writers.emplace_back(write_stream, s);
    } else {
      writers.emplace_back([&] {
        for (int s = 0; s < streams; ++s) write_stream(s);
      });
    }
    std::this_thread::sleep_for(
        absl::ToChronoNanoseconds(absl::GetFlag(FLAGS_hold)));
    const int64_t held_rss = RssKib(pid);
    // Cancel and close: the writers return once their Write fails.
    stop_writing.store(true);
    {
      std::lock_guard<std::mutex> lock(held_mutex);
      for (auto& stream : held) {
        if (stream != nullptr) stream->context.TryCancel();
      }
    }
    for (std::thread& writer : writers) writer.join();
    int refused = 0;
    int cancelled = 0;
    for (auto& stream : held) {
      if (stream == nullptr) continue;
      const grpc::Status status =
          stream->ended ? *stream->ended : stream->stream->Finish();
      if (status.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED) {
        ++refused;
        if (refused == 1) {
          std::printf("  refusal: %s\n", status.error_message().c_str());
        }
      } else {
        ++cancelled;
      }
    }
    held.clear();
    channels.clear();
    std::this_thread::sleep_for(
        absl::ToChronoNanoseconds(absl::GetFlag(FLAGS_settle)));
    sampling.store(false);
    sampler.join();
    const int64_t after = RssKib(pid);
    std::printf(
        "round %d: server RSS before %.1f MB, while held %.1f MB, peak %.1f "
        "MB, after close %.1f MB; batches written %d, streams refused %d, "
        "cancelled %d\n",
        round, Mib(before), Mib(held_rss), Mib(peak.load()), Mib(after),
        written.load(), refused, cancelled);
    std::fflush(stdout);
  }
  return 0;
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1,
                    static_cast<size_t>(p * static_cast<double>(v.size())))];
}

// The heavy load: --heavy_streams streams, each on its own connection,
// each keeping two --heavy_batch-query batches in flight, for --phase;
// prints their queries per second.
int Heavy() {
  const std::string target = absl::GetFlag(FLAGS_address);
  const int heavy = absl::GetFlag(FLAGS_heavy_streams);
  const StreamQueriesRequest big =
      Batch(absl::GetFlag(FLAGS_heavy_batch), false, 1);
  std::atomic<int64_t> queries{0};
  const Clock::time_point start = Clock::now();
  const Clock::time_point until =
      start + absl::ToChronoNanoseconds(absl::GetFlag(FLAGS_phase));
  std::vector<std::thread> threads;
  for (int h = 0; h < heavy; ++h) {
    threads.emplace_back([&] {
      CollisionService::Stub stub(NewConnection(target));
      grpc::ClientContext context;
      context.set_deadline(std::chrono::system_clock::now() +
                           (until - Clock::now()) + std::chrono::seconds(30));
      auto stream = stub.StreamQueries(&context);
      StreamQueriesResponse response;
      if (!stream->Write(big) || !stream->Write(big)) return;
      while (Clock::now() < until && stream->Read(&response)) {
        queries.fetch_add(response.results_size());
        if (!stream->Write(big)) break;
      }
      context.TryCancel();
      stream->Finish();
    });
  }
  for (std::thread& t : threads) t.join();
  const double seconds =
      std::chrono::duration<double>(Clock::now() - start).count();
  std::printf("heavy: %d streams of %d closest-hit rays: %.0f queries/s\n",
              heavy, absl::GetFlag(FLAGS_heavy_batch),
              static_cast<double>(queries.load()) / seconds);
  std::fflush(stdout);
  return 0;
}

// The small client for --phase: one 1-query batch every --small_interval
// on a stream of its own connection; prints its latencies.
void Small(const char* label) {
  CollisionService::Stub stub(NewConnection(absl::GetFlag(FLAGS_address)));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       absl::ToChronoNanoseconds(absl::GetFlag(FLAGS_phase)) +
                       std::chrono::seconds(30));
  auto stream = stub.StreamQueries(&context);
  StreamQueriesResponse response;
  std::vector<double> ms;
  const auto interval =
      absl::ToChronoNanoseconds(absl::GetFlag(FLAGS_small_interval));
  const auto length = absl::ToChronoNanoseconds(absl::GetFlag(FLAGS_phase));
  const Clock::time_point start = Clock::now();
  Clock::time_point next = start;
  uint64_t id = 0;
  StreamQueriesRequest request = Batch(1, false, 0);
  while (Clock::now() - start < length) {
    std::this_thread::sleep_until(next);
    next += interval;
    const Clock::time_point sent = Clock::now();
    request.set_batch_id(++id);
    if (!stream->Write(request) || !stream->Read(&response)) break;
    ms.push_back(
        std::chrono::duration<double, std::milli>(Clock::now() - sent).count());
  }
  stream->WritesDone();
  stream->Finish();
  std::printf(
      "%s: small client %zu batches, p50 %.3f ms, p99 %.3f ms, "
      "max %.3f ms\n",
      label, ms.size(), Percentile(ms, 0.5), Percentile(ms, 0.99),
      Percentile(ms, 1.0));
  std::fflush(stdout);
}

// The small client alone, then beside the heavy load, which runs in a
// process of its own (this program with --mode=heavy) so that the two
// clients share no gRPC threads.
int Fair(const char* self) {
  std::printf(
      "fair: small client 1 query every %s; heavy %d streams of %d "
      "closest-hit rays, 2 batches in flight each\n",
      absl::FormatDuration(absl::GetFlag(FLAGS_small_interval)).c_str(),
      absl::GetFlag(FLAGS_heavy_streams), absl::GetFlag(FLAGS_heavy_batch));
  std::fflush(stdout);
  Small("alone");
  const absl::Duration phase = absl::GetFlag(FLAGS_phase);
  std::vector<std::string> args = {
      self,
      "--mode=heavy",
      absl::StrCat("--address=", absl::GetFlag(FLAGS_address)),
      absl::StrCat("--level=", absl::GetFlag(FLAGS_level)),
      absl::StrCat("--heavy_streams=", absl::GetFlag(FLAGS_heavy_streams)),
      absl::StrCat("--heavy_batch=", absl::GetFlag(FLAGS_heavy_batch)),
      absl::StrCat("--phase=", absl::FormatDuration(phase + absl::Seconds(2)))};
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  const pid_t child = fork();
  if (child == 0) {
    if (const int increment = absl::GetFlag(FLAGS_heavy_nice); increment != 0) {
      errno = 0;
      if (nice(increment) == -1 && errno != 0) std::perror("nice");
    }
    execv(argv[0], argv.data());
    _exit(127);
  }
  // The heavy load runs a second before and after the measured phase.
  std::this_thread::sleep_for(std::chrono::seconds(1));
  Small("loaded");
  int status = 0;
  waitpid(child, &status, 0);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  collide::tools::ParseCommandLineOrExit(
      argc, argv,
      "What callers that never read and callers that send huge batches do to a "
      "running collide_server.\n  collide_budget_bench --server_pid=PID "
      "[--mode=hold|fair] [--address=127.0.0.1:50051]",
      __FILE__, "collide_budget_bench");
  const std::string mode = absl::GetFlag(FLAGS_mode);
  if (mode == "hold") return Hold();
  if (mode == "fair") return Fair(argv[0]);
  if (mode == "heavy") return Heavy();
  std::fprintf(stderr, "--mode must be hold, fair or heavy, got %s\n",
               mode.c_str());
  return 2;
}
