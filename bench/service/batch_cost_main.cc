// collide_batch_cost: where the CPU time of one StreamQueries batch goes,
// phase by phase, with no network and no threads, so the numbers are
// repeatable on a busy machine (wall time, or instruction counts under
// `valgrind --tool=callgrind`: every phase is its own non-inlined function).
// The phases are what the loopback benchmark's client and server do per
// batch, with the same gRPC serialization calls:
//   client_serialize  the client's request message -> gRPC byte buffer
//   server_parse      byte buffer -> the server's request message
//   server_answer     validate, convert, query lib/, build the response
//   server_serialize  response -> byte buffer
//   client_parse      byte buffer -> a response on the client's arena
//   server_release    freeing the batch's request and response
// and, for scale, lib_only: the same rays through lib/ CastRay directly.
//
// Usage: collide_batch_cost [--batch=256] [--batches=200] [--repeats=5]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "collide/query.h"
#include "collide/v1/collision_service.pb.h"
#include "google/protobuf/arena.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/impl/codegen/proto_utils.h"
#include "proto/formats/input_limits.h"
#include "scenes.h"
#include "server/level_snapshot.h"
#include "server/query_handler.h"
#include "server/stream_batch.h"
#include "stream_requests.h"
#include "timing.h"

ABSL_FLAG(int, batch, 256, "Queries per batch.");
ABSL_FLAG(int, batches, 200, "Batches per timed pass of each phase.");
ABSL_FLAG(int, repeats, 5, "Timed passes per phase (the median is shown).");

namespace collide_bench {
namespace {

namespace v1 = collide::v1;
using Request = v1::StreamQueriesRequest;
using Response = v1::StreamQueriesResponse;
template <typename T>
using Traits = grpc::SerializationTraits<T>;

// The state the phases pass along, one entry per batch of a pass.
struct Batch {
  grpc::ByteBuffer request_bytes;
  // What the stream reactor reads into, answers in and writes from.
  collide::server::StreamBatch server;
  grpc::ByteBuffer response_bytes;
};

struct Context {
  const collide::server::LevelSnapshot* snapshot = nullptr;
  collide::formats::InputLimits limits;
  const std::vector<Request>* requests = nullptr;
  const QuerySet* set = nullptr;
  int batch = 0;
  // The client reads each response into a message on its arena and resets
  // the arena after it, as the loopback benchmark's driver does.
  google::protobuf::Arena* client_arena = nullptr;
};

__attribute__((noinline)) void ClientSerialize(Context& c, Batch& b, int i) {
  bool own = false;
  b.request_bytes.Clear();  // the writer wants an empty buffer
  Traits<Request>::Serialize((*c.requests)[i % c.requests->size()],
                             &b.request_bytes, &own);
}

__attribute__((noinline)) void ServerParse(Context&, Batch& b, int) {
  grpc::ByteBuffer bytes(b.request_bytes);  // Deserialize consumes it
  if (!Traits<Request>::Deserialize(&bytes, b.server.request()).ok()) {
    std::abort();
  }
}

__attribute__((noinline)) void ServerAnswer(Context& c, Batch& b, int) {
  if (!collide::server::AnswerStreamQueries(*c.snapshot, *b.server.request(),
                                            c.limits, b.server.response())
           .ok()) {
    std::abort();
  }
}

__attribute__((noinline)) void ServerSerialize(Context&, Batch& b, int) {
  bool own = false;
  b.response_bytes.Clear();
  Traits<Response>::Serialize(*b.server.response(), &b.response_bytes, &own);
}

__attribute__((noinline)) void ClientParse(Context& c, Batch& b, int) {
  grpc::ByteBuffer bytes(b.response_bytes);
  Response* response =
      google::protobuf::Arena::CreateMessage<Response>(c.client_arena);
  if (!Traits<Response>::Deserialize(&bytes, response).ok() ||
      response->results_size() != c.batch) {
    std::abort();
  }
  c.client_arena->Reset();
}

// The reactor empties a written batch for its next read.
__attribute__((noinline)) void ServerRelease(Context&, Batch& b, int) {
  b.server.Reset();
}

__attribute__((noinline)) void LibOnly(Context& c, Batch&, int i) {
  const size_t n = c.set->size();
  uint64_t sink = 0;
  for (int q = 0; q < c.batch; ++q) {
    const size_t k = (static_cast<size_t>(i) * c.batch + q) % n;
    const auto hit = collide::CastRay(
        {c.set->origins[k], c.set->translations[k]}, *c.snapshot->level);
    if (hit) sink += hit->shape_id;
  }
  g_timing_sink = g_timing_sink + sink;
}

using Phase = void (*)(Context&, Batch&, int);

int Main() {
  const int batch = std::max(1, absl::GetFlag(FLAGS_batch));
  const int batches = std::max(1, absl::GetFlag(FLAGS_batches));
  const int repeats = std::max(1, absl::GetFlag(FLAGS_repeats));
  const Scene scene = MakeS1();
  const QuerySet set = MakeR20(scene);
  std::vector<char> client_block(size_t{512} << 10);
  google::protobuf::ArenaOptions arena_options;
  arena_options.initial_block = client_block.data();
  arena_options.initial_block_size = client_block.size();
  google::protobuf::Arena client_arena(arena_options);
  Context c;
  c.client_arena = &client_arena;
  c.set = &set;
  c.batch = batch;
  absl::StatusOr<collide::server::LevelSnapshot> snapshot =
      collide::server::MakeLevelSnapshot(LevelProto(scene), 1, c.limits);
  if (!snapshot.ok()) {
    std::fprintf(stderr, "level: %s\n", snapshot.status().ToString().c_str());
    return 1;
  }
  c.snapshot = &*snapshot;
  const std::vector<Request> requests = RayBatches(set, batch);
  c.requests = &requests;

  struct Named {
    const char* name;
    Phase phase;
  };
  const Named phases[] = {
      {"client_serialize", ClientSerialize},
      {"server_parse", ServerParse},
      {"server_answer", ServerAnswer},
      {"server_serialize", ServerSerialize},
      {"client_parse", ClientParse},
      {"server_release", ServerRelease},
      {"lib_only", LibOnly},
  };
  std::vector<std::vector<double>> us(std::size(phases));
  std::vector<Batch> state(static_cast<size_t>(batches));
  int next = 0;
  for (int r = 0; r <= repeats; ++r) {  // pass 0 warms up
    for (size_t p = 0; p < std::size(phases); ++p) {
      const int first = next;
      const auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < batches; ++i) {
        phases[p].phase(c, state[static_cast<size_t>(i)], first + i);
      }
      if (r > 0) us[p].push_back(SecondsSince(start) * 1e6 / batches);
    }
    next += batches;
  }
  std::printf("batch %d, %d batches per pass, median of %d passes\n\n", batch,
              batches, repeats);
  std::printf("| phase | us per batch | ns per query |\n|---|---:|---:|\n");
  double total = 0.0;
  for (size_t p = 0; p < std::size(phases); ++p) {
    std::sort(us[p].begin(), us[p].end());
    const double median = us[p][us[p].size() / 2];
    if (phases[p].phase != LibOnly) total += median;
    std::printf("| %s | %.1f | %.0f |\n", phases[p].name, median,
                median * 1000 / batch);
  }
  std::printf("| all but lib_only | %.1f | %.0f |\n", total,
              total * 1000 / batch);
  return 0;
}

}  // namespace
}  // namespace collide_bench

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  return collide_bench::Main();
}
