// collide_service_bench: queries per second through CollisionService's
// bidi stream on loopback (client and server in this process, over TCP on
// 127.0.0.1), for batch sizes 1, 16 and 256 on scene S1 with query set R20
// of docs/performance.md; per-batch latency (p50 / p99) paced at half
// the measured rate; beside it the in-process lib/ throughput on the same
// queries (one thread) and a bare gRPC echo stream carrying messages of
// the same size with the same streams and windows; and the process CPU
// time per batch of each (client and server together), which a busy
// machine changes far less than the rates. Each batch size runs the
// per-query form (one Query message per ray), the packed form (packed_rays
// columns, collision_service.proto) and the packed form with fixed-width
// result columns (fixed_width_results). Prints a markdown table.
//
// Usage: collide_service_bench [--seconds=2] [--batch_sizes=1,16,256]
//        [--streams=0] [--window=0]   (0: per batch size defaults below)
//        [--forms=per_query,packed,packed_fixed] [--worker_threads=0]
//        [--transport=tcp|unix]   (unix: Unix domain sockets in /tmp)
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/v1/collision_service.grpc.pb.h"
#include "echo.grpc.pb.h"
#include "echo_service.h"
#include "grpcpp/grpcpp.h"
#include "proto/formats/tool_command_line.h"
#include "scenes.h"
#include "server/collide_server.h"
#include "stream_driver.h"
#include "stream_requests.h"
#include "timing.h"

ABSL_FLAG(double, seconds, 2.0, "Length of each timed run.");
ABSL_FLAG(std::vector<std::string>, batch_sizes,
          (std::vector<std::string>{"1", "16", "256"}),
          "Queries per batch, one row each.");
ABSL_FLAG(int, streams, 0, "Streams (one connection each); 0: per batch size.");
ABSL_FLAG(int, window, 0, "Batches in flight per stream; 0: per batch size.");
ABSL_FLAG(bool, latency, true,
          "Measure latency at half rate; false: closed loops only (e.g. to "
          "profile the throughput run alone).");
ABSL_FLAG(bool, echo, true, "Run the echo stream beside the service.");
ABSL_FLAG(std::vector<std::string>, forms,
          (std::vector<std::string>{"per_query", "packed", "packed_fixed"}),
          "Wire forms to run: per_query (one Query message per ray), packed "
          "(packed_rays columns), packed_fixed (packed_rays asking for "
          "fixed_width_results).");
ABSL_FLAG(int, worker_threads, 0,
          "The server's --worker_threads (threads answering batches of more "
          "than 16 queries); 0: one per core.");
ABSL_FLAG(std::string, transport, "tcp",
          "tcp: loopback TCP on 127.0.0.1; unix: Unix domain sockets in "
          "/tmp (a game server beside collide on one host, e.g. a sidecar).");

namespace collide_bench {
namespace {

namespace v1 = collide::v1;
using collide::bench::v1::StreamEchoRequest;
using collide::bench::v1::StreamEchoResponse;

// In-flight batches: enough to hide the round trip (with gRPC 1.51 on
// 2 cores, beyond about 32 in flight only latency grows); measured best on the
// 2-core machine.
struct Shape {
  int streams;
  int window;
};
Shape DefaultShape(int batch) {
  if (batch <= 1) return {4, 8};
  return {4, 4};
}

struct Measurement {
  double queries_per_second = 0.0;
  double batches_per_second = 0.0;
  // Process CPU time (client and server together, all threads) per batch
  // in the closed loop: unlike the rate, it hardly moves when other work
  // shares the cores, so it is what to compare between runs.
  double cpu_us_per_batch = 0.0;
  double p50_us = 0.0;
  double p99_us = 0.0;
  int64_t errors = 0;
};

double Percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const size_t i =
      std::min(values.size() - 1,
               static_cast<size_t>(p * static_cast<double>(values.size())));
  return values[i];
}

std::shared_ptr<grpc::Channel> Channel(const std::string& target, int id) {
  grpc::ChannelArguments args;
  // A distinct argument per channel: otherwise channels share one
  // TCP connection (channels with identical arguments are pooled).
  args.SetInt("collide.bench.channel_id", id);
  return grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(),
                                   args);
}

// Where a server listens for --transport: a free loopback port (the
// returned address is completed with it once bound), or a fresh Unix
// socket path named after this process and `name`.
std::string ListenAddress(const std::string& name) {
  if (absl::GetFlag(FLAGS_transport) == "unix") {
    const std::string path =
        absl::StrCat("/tmp/collide_service_bench.", getpid(), ".", name);
    unlink(path.c_str());
    return absl::StrCat("unix:", path);
  }
  return "127.0.0.1:0";
}
std::string Target(const std::string& listen, int port) {
  return absl::StartsWith(listen, "unix:") ? listen
                                           : absl::StrCat("127.0.0.1:", port);
}

double ProcessCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// Runs `streams` drivers made by make(i): a closed loop for the
// throughput, then an open loop paced at half of it for the latency.
template <typename Driver>
Measurement Measure(int streams, int window, int batch, double seconds,
                    const std::function<std::unique_ptr<Driver>(int)>& make) {
  Measurement m;
  const auto run_for = [](double s) {
    std::this_thread::sleep_for(std::chrono::duration<double>(s));
  };
  {
    std::vector<std::unique_ptr<Driver>> drivers;
    for (int i = 0; i < streams; ++i) drivers.push_back(make(i));
    for (auto& d : drivers) d->RunClosedLoop(window);
    run_for(std::min(0.5, seconds / 4));  // warm-up
    for (auto& d : drivers) d->ResetStats();
    const auto start = BenchClock::now();
    const double cpu_start = ProcessCpuSeconds();
    run_for(seconds);
    int64_t answered = 0;
    for (auto& d : drivers) answered += d->answered();
    const double elapsed =
        std::chrono::duration<double>(BenchClock::now() - start).count();
    const double cpu = ProcessCpuSeconds() - cpu_start;
    for (auto& d : drivers) d->Stop();
    for (auto& d : drivers) {
      const grpc::Status status = d->Wait();
      if (!status.ok()) ++m.errors;
      m.errors += d->errors();
    }
    m.batches_per_second = static_cast<double>(answered) / elapsed;
    m.queries_per_second = m.batches_per_second * batch;
    m.cpu_us_per_batch = cpu * 1e6 / static_cast<double>(answered);
  }
  if (absl::GetFlag(FLAGS_latency)) {
    // Open loop: sends are due at fixed times whatever the answers do, and
    // latency counts from the due time (no coordinated omission).
    std::vector<std::unique_ptr<Driver>> drivers;
    for (int i = 0; i < streams; ++i) drivers.push_back(make(i));
    const double rate = m.batches_per_second / 2;
    const auto interval = std::chrono::duration_cast<BenchClock::duration>(
        std::chrono::duration<double>(1.0 / rate));
    const auto start = BenchClock::now();
    const auto end = start + std::chrono::duration_cast<BenchClock::duration>(
                                 std::chrono::duration<double>(seconds));
    auto due = start;
    int64_t sent = 0;
    while (due < end) {
      const auto now = BenchClock::now();
      while (due <= now && due < end) {
        drivers[sent % streams]->Send(due);
        ++sent;
        due += interval;
      }
      std::this_thread::sleep_until(due);
    }
    std::vector<double> latencies;
    for (auto& d : drivers) d->Stop();
    for (auto& d : drivers) {
      const grpc::Status status = d->Wait();
      if (!status.ok()) ++m.errors;
      m.errors += d->errors();
      const std::vector<double> l = d->latencies();
      latencies.insert(latencies.end(), l.begin(), l.end());
    }
    m.p50_us = Percentile(latencies, 0.50) * 1e6;
    m.p99_us = Percentile(latencies, 0.99) * 1e6;
  }
  return m;
}

// lib/ in process, one thread: CastRay on every query of the set; the
// median of 5 passes.
double LibQueriesPerSecond(const collide::Level& level, const QuerySet& set) {
  std::vector<double> rates;
  uint64_t sink = 0;
  for (int pass = 0; pass < 6; ++pass) {
    const auto start = BenchClock::now();
    for (size_t i = 0; i < set.size(); ++i) {
      const auto hit =
          collide::CastRay({set.origins[i], set.translations[i]}, level);
      if (hit) sink += hit->shape_id;
    }
    const double s =
        std::chrono::duration<double>(BenchClock::now() - start).count();
    if (pass > 0) rates.push_back(static_cast<double>(set.size()) / s);
  }
  g_timing_sink = g_timing_sink + sink;
  std::sort(rates.begin(), rates.end());
  return rates[rates.size() / 2];
}

int Main() {
  const double seconds = absl::GetFlag(FLAGS_seconds);
  const Scene scene = MakeS1();
  const QuerySet set = MakeR20(scene);

  // The level, as the service receives it and as lib/ builds it.
  const v1::Level level_proto = LevelProto(scene);
  std::vector<collide::ShapeDesc> shapes;
  for (size_t i = 0; i < scene.segments.size(); ++i) {
    shapes.push_back({.id = i, .geometry = scene.segments[i]});
  }
  absl::StatusOr<collide::Level> level = collide::Level::Create(shapes);
  if (!level.ok()) {
    std::fprintf(stderr, "level: %s\n", level.status().ToString().c_str());
    return 1;
  }
  const double lib_qps = LibQueriesPerSecond(*level, set);

  collide::server::ServerOptions options;
  const std::string transport = absl::GetFlag(FLAGS_transport);
  if (transport != "tcp" && transport != "unix") {
    std::fprintf(stderr,
                 "collide_service_bench: --transport: \"%s\" is not tcp or "
                 "unix\n",
                 transport.c_str());
    return 2;
  }
  options.listen = ListenAddress("collide");
  // The level goes straight into the store: no admin listener (nor the
  // default port 50052 it would take).
  options.admin_listen = "";
  options.load_default_level = false;
  options.shutdown_grace = absl::Seconds(1);
  options.worker_threads = absl::GetFlag(FLAGS_worker_threads);
  absl::StatusOr<std::unique_ptr<collide::server::CollideServer>> server =
      collide::server::CollideServer::Start(options);
  if (!server.ok()) {
    std::fprintf(stderr, "server: %s\n", server.status().ToString().c_str());
    return 1;
  }
  if (auto put = (*server)->store().Put(level_proto, false); !put.ok()) {
    std::fprintf(stderr, "put: %s\n", put.status().ToString().c_str());
    return 1;
  }
  const int port = (*server)->port();

  EchoServiceImpl echo_service;
  grpc::ServerBuilder echo_builder;
  int echo_port = 0;
  const std::string echo_listen = ListenAddress("echo");
  echo_builder.AddListeningPort(echo_listen, grpc::InsecureServerCredentials(),
                                &echo_port);
  echo_builder.RegisterService(&echo_service);
  std::unique_ptr<grpc::Server> echo_server = echo_builder.BuildAndStart();
  if (echo_server == nullptr) {
    std::fprintf(stderr, "echo server did not start\n");
    return 1;
  }

  using QueryDriver =
      StreamDriver<v1::StreamQueriesRequest, v1::StreamQueriesResponse>;
  using EchoDriver = StreamDriver<StreamEchoRequest, StreamEchoResponse>;

  const std::vector<std::string> forms = absl::GetFlag(FLAGS_forms);
  for (const std::string& form : forms) {
    if (form != "per_query" && form != "packed" && form != "packed_fixed") {
      std::fprintf(stderr,
                   "collide_service_bench: --forms: \"%s\" is not a form "
                   "(per_query, packed or packed_fixed)\n",
                   form.c_str());
      return 2;
    }
  }
  std::printf(
      "scene S1 (%zu segments), query set R20 (%zu rays); "
      "lib/ in process, 1 thread: %.0f queries/s (%.0f ns per query); "
      "server worker_threads %d (0: one per core)\n\n",
      scene.size(), set.size(), lib_qps, 1e9 / lib_qps, options.worker_threads);
  std::printf(
      "| batch | form | streams x window | collide queries/s | echo "
      "queries/s | collide / echo | collide / lib | collide p50 / p99 us "
      "(half rate) | echo p50 / p99 us (half rate) | CPU us per batch, "
      "collide / echo | CPU per query / lib's time per query |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const std::string& text : absl::GetFlag(FLAGS_batch_sizes)) {
    int batch = 0;
    if (!absl::SimpleAtoi(text, &batch) || batch < 1) {
      std::fprintf(stderr,
                   "collide_service_bench: --batch_sizes: \"%s\" is not a "
                   "batch size (an integer >= 1)\n",
                   text.c_str());
      return 2;
    }
    Shape shape = DefaultShape(batch);
    if (absl::GetFlag(FLAGS_streams) > 0)
      shape.streams = absl::GetFlag(FLAGS_streams);
    if (absl::GetFlag(FLAGS_window) > 0)
      shape.window = absl::GetFlag(FLAGS_window);

    std::vector<std::unique_ptr<v1::CollisionService::Stub>> stubs;
    std::vector<std::unique_ptr<collide::bench::v1::EchoService::Stub>>
        echo_stubs;
    for (int i = 0; i < shape.streams; ++i) {
      stubs.push_back(v1::CollisionService::NewStub(
          Channel(Target(options.listen, port), i)));
      echo_stubs.push_back(collide::bench::v1::EchoService::NewStub(
          Channel(Target(echo_listen, echo_port), i)));
    }
    for (const std::string& form : forms) {
      const bool packed = form != "per_query";
      // Distinct batches cycling through the query set; echo messages of
      // the same sizes as this form's requests.
      const std::vector<v1::StreamQueriesRequest> requests =
          packed ? PackedRayBatches(set, batch, form == "packed_fixed")
                 : RayBatches(set, batch);
      std::vector<StreamEchoRequest> echoes(requests.size());
      for (size_t b = 0; b < requests.size(); ++b) {
        echoes[b].set_payload(std::string(requests[b].ByteSizeLong(), 'x'));
      }
      const Measurement collide = Measure<QueryDriver>(
          shape.streams, shape.window, batch, seconds, [&](int i) {
            return std::make_unique<QueryDriver>(
                [&, i](grpc::ClientContext* c, QueryDriver* r) {
                  stubs[i]->async()->StreamQueries(c, r);
                },
                requests,
                [batch, packed](const v1::StreamQueriesResponse& r) {
                  // fraction: filled in either packed result encoding.
                  const int answered = packed ? r.packed_casts().fraction_size()
                                              : r.results_size();
                  return r.status().code() == 0 && answered == batch;
                });
          });
      Measurement echo;
      if (absl::GetFlag(FLAGS_echo)) {
        echo = Measure<EchoDriver>(
            shape.streams, shape.window, batch, seconds, [&](int i) {
              return std::make_unique<EchoDriver>(
                  [&, i](grpc::ClientContext* c, EchoDriver* r) {
                    echo_stubs[i]->async()->StreamEcho(c, r);
                  },
                  echoes, [](const StreamEchoResponse&) { return true; });
            });
      }
      std::printf(
          "| %d | %s | %d x %d | %.0f | %.0f | %.2f | %.2f | %.0f / %.0f | "
          "%.0f / %.0f | %.1f / %.1f | %.2f |\n",
          batch, form.c_str(), shape.streams, shape.window,
          collide.queries_per_second, echo.queries_per_second,
          collide.queries_per_second / echo.queries_per_second,
          collide.queries_per_second / lib_qps, collide.p50_us, collide.p99_us,
          echo.p50_us, echo.p99_us, collide.cpu_us_per_batch,
          echo.cpu_us_per_batch,
          collide.cpu_us_per_batch / batch / (1e6 / lib_qps));
      std::fflush(stdout);
      if (collide.errors + echo.errors > 0) {
        std::fprintf(stderr, "errors: collide %lld, echo %lld\n",
                     static_cast<long long>(collide.errors),
                     static_cast<long long>(echo.errors));
      }
    }
  }
  echo_server->Shutdown(std::chrono::system_clock::now() +
                        std::chrono::seconds(1));
  (*server)->Shutdown();
  return 0;
}

}  // namespace
}  // namespace collide_bench

int main(int argc, char** argv) {
  collide::tools::ParseCommandLineOrExit(
      argc, argv,
      "Queries per second through CollisionService's stream on loopback.\n  "
      "collide_service_bench [--seconds=2]",
      __FILE__, "collide_service_bench");
  // As collide_server's main does (see there): no debug deadlock detector
  // on every absl::Mutex lock.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  return collide_bench::Main();
}
