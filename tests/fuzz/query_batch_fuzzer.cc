// Fuzz target: a query batch answered on a fuzzed level, as the service's
// unary RunQueries does it, minus gRPC: the level is validated and built
// (MakeLevelSnapshot), the batch decoded, checked and answered
// (HandleRunQueries in server/rpc/query_handler.h).
//
// Input: a 2-byte little-endian length n, then n bytes of a v1::Level in
// protobuf binary, then the rest: a v1::RunQueriesRequest in protobuf
// binary. tests/fuzz/make_seeds.py writes seeds in this form.
//
// Every input stays small so each runs fast: the harness's InputLimits cap
// the level's shapes and vertices, the batch size and the list lengths.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "absl/status/statusor.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/v1/geometry.pb.h"
#include "proto/formats/input_limits.h"
#include "server/levels/level_snapshot.h"
#include "server/rpc/query_handler.h"
#include "tests/fuzz/fuzz_check.h"

namespace collide::fuzz {
namespace {

formats::InputLimits HarnessLimits() {
  formats::InputLimits limits;
  limits.max_batch_size = 16;
  limits.max_vertices = 64;
  limits.max_level_shapes = 32;
  limits.max_level_vertices = 256;
  limits.max_results_per_query = 16;
  limits.max_ignore_ids = 8;
  limits.max_shot_targets = 8;
  return limits;
}

}  // namespace
}  // namespace collide::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const size_t level_size =
      std::min<size_t>(size - 2, data[0] | (size_t{data[1]} << 8));
  collide::v1::Level level;
  if (!level.ParseFromArray(data + 2, static_cast<int>(level_size))) return 0;
  collide::v1::RunQueriesRequest request;
  if (!request.ParseFromArray(data + 2 + level_size,
                              static_cast<int>(size - 2 - level_size))) {
    return 0;
  }
  const collide::formats::InputLimits limits = collide::fuzz::HarnessLimits();
  level.set_id("fuzz");
  absl::StatusOr<collide::server::LevelSnapshot> snapshot =
      collide::server::MakeLevelSnapshot(std::move(level), 1, limits);
  if (!snapshot.ok()) return 0;
  const absl::StatusOr<collide::v1::RunQueriesResponse> response =
      collide::server::HandleRunQueries(*snapshot, request, limits);
  if (response.ok()) {
    // One result per query, in order, each echoing its request id.
    FUZZ_CHECK(response->results_size() == request.queries_size());
    for (int i = 0; i < request.queries_size(); ++i) {
      FUZZ_CHECK(response->results(i).request_id() ==
                 request.queries(i).request_id());
    }
  }
  return 0;
}
