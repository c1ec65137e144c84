// collide_batch_cost: where the CPU time of one StreamQueries batch goes,
// phase by phase, with no network and no threads, so the numbers are
// repeatable on a busy machine (wall time, or instruction counts under
// `valgrind --tool=callgrind`: every phase is its own non-inlined function).
// The phases are what the loopback benchmark's client and server do per
// batch, with the same gRPC serialization calls:
//   client_build      the client fills its request (reused) with the rays
//   client_serialize  the client's request message -> gRPC byte buffer
//   server_parse      byte buffer -> the server's request message
//   server_answer     validate, convert, query lib/, build the response
//   server_serialize  response -> byte buffer
//   client_parse      byte buffer -> a response on the client's arena
//   server_release    freeing the batch's request and response
// and, for scale, lib_only: the same rays through lib/ CastRay directly.
// With --form=packed the request carries packed_rays and the response
// packed_casts (collision_service.proto), and server_answer is also shown
// broken down (not added to the total again):
//   server_decode     columns -> lib/ RayInputs (checked as the server does)
//   server_geometry   lib/ CastRay on them, with the batch's options
//   server_encode     the hits -> result columns
//
// Usage: collide_batch_cost [--batch=256] [--batches=200] [--repeats=5]
//        [--form=per_query|packed|packed_fixed]
// (packed_fixed: packed, asking for fixed_width_results)
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "collide/query.h"
#include "collide/v1/collision_service.pb.h"
#include "google/protobuf/arena.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/impl/codegen/proto_utils.h"
#include "proto/formats/input_limits.h"
#include "proto/formats/packed_convert.h"
#include "proto/formats/tool_command_line.h"
#include "scenes.h"
#include "server/levels/level_snapshot.h"
#include "server/rpc/message_bytes.h"
#include "server/rpc/query_handler.h"
#include "server/rpc/stream_batch.h"
#include "stream_requests.h"
#include "timing.h"

ABSL_FLAG(int, batch, 256, "Queries per batch.");
ABSL_FLAG(int, batches, 200, "Batches per timed pass of each phase.");
ABSL_FLAG(int, repeats, 5, "Timed passes per phase (the median is shown).");
ABSL_FLAG(std::string, form, "per_query",
          "per_query: one Query message per ray; packed: packed_rays columns; "
          "packed_fixed: packed_rays with fixed_width_results.");

namespace collide_bench {
namespace {

namespace v1 = collide::v1;
using Request = v1::StreamQueriesRequest;
using Response = v1::StreamQueriesResponse;
template <typename T>
using Traits = grpc::SerializationTraits<T>;

// The state the phases pass along, one entry per batch of a pass.
struct Batch {
  // The client's request, reused from batch to batch as a client would.
  Request client_request;
  grpc::ByteBuffer request_bytes;
  // What the stream reactor reads into, answers in and writes from.
  collide::server::StreamBatch server;
  grpc::ByteBuffer response_bytes;
  // The packed breakdown's intermediate state.
  std::vector<collide::RayInput> rays;
  std::vector<std::optional<collide::WorldHit>> hits;
};

struct Context {
  const collide::server::LevelSnapshot* snapshot = nullptr;
  collide::formats::InputLimits limits;
  const QuerySet* set = nullptr;
  int batch = 0;
  bool packed = false;
  // packed_fixed: the request sets fixed_width_results.
  bool fixed_width = false;
  // The packed batches' shared options (all batches have the same).
  collide::formats::PackedCastBatch packed_batch;
  // The client reads each response into a message on its arena and resets
  // the arena after it, as the loopback benchmark's driver does.
  google::protobuf::Arena* client_arena = nullptr;
};

__attribute__((noinline)) void ClientBuild(Context& c, Batch& b, int i) {
  // Clear keeps the cleared Query messages (and column capacity) for reuse.
  b.client_request.Clear();
  b.client_request.set_level("levels/s1");
  b.client_request.set_batch_id(static_cast<uint64_t>(i));
  const size_t first = static_cast<size_t>(i) * c.batch;
  if (c.packed) {
    AddPackedRays(*c.set, first, c.batch, c.fixed_width, &b.client_request);
  } else {
    AddRayQueries(*c.set, first, c.batch, &b.client_request);
  }
}

__attribute__((noinline)) void ClientSerialize(Context&, Batch& b, int) {
  bool own = false;
  b.request_bytes.Clear();  // the writer wants an empty buffer
  Traits<Request>::Serialize(b.client_request, &b.request_bytes, &own);
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

// server_answer's packed work, one part at a time.
__attribute__((noinline)) void ServerDecode(Context& c, Batch& b, int) {
  const v1::PackedRayCasts& packed = b.server.request()->packed_rays();
  absl::StatusOr<collide::formats::PackedCastBatch> batch =
      collide::formats::PackedRaysFromProto(packed, c.limits, "packed_rays");
  if (!batch.ok()) std::abort();
  c.packed_batch = *batch;
  b.rays.clear();
  for (int q = 0; q < batch->count; ++q) {
    absl::StatusOr<collide::RayInput> ray =
        collide::formats::PackedRayAt(packed, q, "packed_rays");
    if (!ray.ok()) std::abort();
    b.rays.push_back(*ray);
  }
}

__attribute__((noinline)) void ServerGeometry(Context& c, Batch& b, int) {
  b.hits.clear();
  for (const collide::RayInput& ray : b.rays) {
    b.hits.push_back(collide::CastRay(ray, *c.snapshot->level,
                                      c.packed_batch.settings.filter,
                                      c.packed_batch.settings.options));
  }
}

__attribute__((noinline)) void ServerEncode(Context& c, Batch& b, int) {
  v1::PackedCastResults results;
  const bool fixed_width = c.packed_batch.fixed_width_results;
  collide::formats::ResizePackedResults(static_cast<int>(b.hits.size()),
                                        fixed_width, &results);
  for (size_t q = 0; q < b.hits.size(); ++q) {
    if (b.hits[q]) {
      collide::formats::SetPackedHit(static_cast<int>(q), *b.hits[q],
                                     fixed_width, &results);
    }
  }
  g_timing_sink = g_timing_sink + results.fraction_size();
}

// As the stream reactor writes a response (server/rpc/message_bytes.h).
__attribute__((noinline)) void ServerSerialize(Context&, Batch& b, int) {
  if (!collide::server::SerializeToByteBuffer(*b.server.response(),
                                              &b.response_bytes)
           .ok()) {
    std::abort();
  }
}

__attribute__((noinline)) void ClientParse(Context& c, Batch& b, int) {
  grpc::ByteBuffer bytes(b.response_bytes);
  Response* response =
      google::protobuf::Arena::CreateMessage<Response>(c.client_arena);
  if (!Traits<Response>::Deserialize(&bytes, response).ok() ||
      (c.packed ? response->packed_casts().fraction_size()
                : response->results_size()) != c.batch) {
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
  const std::string form = absl::GetFlag(FLAGS_form);
  if (form != "per_query" && form != "packed" && form != "packed_fixed") {
    std::fprintf(stderr,
                 "--form must be per_query, packed or packed_fixed, got "
                 "\"%s\"\n",
                 form.c_str());
    return 2;
  }
  c.packed = form != "per_query";
  c.fixed_width = form == "packed_fixed";

  struct Named {
    const char* name;
    Phase phase;
    // Counted in "all but lib_only" (the breakdown of server_answer and
    // lib_only are not).
    bool in_total;
  };
  std::vector<Named> phases = {
      {"client_build", ClientBuild, true},
      {"client_serialize", ClientSerialize, true},
      {"server_parse", ServerParse, true},
      {"server_answer", ServerAnswer, true},
  };
  if (c.packed) {
    phases.push_back({"  server_decode", ServerDecode, false});
    phases.push_back({"  server_geometry", ServerGeometry, false});
    phases.push_back({"  server_encode", ServerEncode, false});
  }
  phases.push_back({"server_serialize", ServerSerialize, true});
  phases.push_back({"client_parse", ClientParse, true});
  phases.push_back({"server_release", ServerRelease, true});
  phases.push_back({"lib_only", LibOnly, false});
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
  std::printf("%s, batch %d, %d batches per pass, median of %d passes\n\n",
              form.c_str(), batch, batches, repeats);
  std::printf("| phase | us per batch | ns per query |\n|---|---:|---:|\n");
  double total = 0.0;
  for (size_t p = 0; p < std::size(phases); ++p) {
    std::sort(us[p].begin(), us[p].end());
    const double median = us[p][us[p].size() / 2];
    if (phases[p].in_total) total += median;
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
  collide::tools::ParseCommandLineOrExit(
      argc, argv,
      "Where the CPU time of one StreamQueries batch goes, phase by phase.\n  "
      "collide_batch_cost [--batch=256] [--form=per_query]",
      __FILE__, "collide_batch_cost");
  return collide_bench::Main();
}
