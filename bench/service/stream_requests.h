// What the service benchmarks send: the S1 scene as a v1::Level and batches
// of R20 rays as StreamQueriesRequest messages (docs/performance.md), built
// the same way for the loopback benchmark and the per-phase cost benchmark
// so their numbers describe the same bytes.
#ifndef COLLIDE_BENCH_SERVICE_STREAM_REQUESTS_H_
#define COLLIDE_BENCH_SERVICE_STREAM_REQUESTS_H_

#include <vector>

#include "collide/v1/collision_service.pb.h"
#include "collide/v1/geometry.pb.h"
#include "scenes.h"

namespace collide_bench {

// The scene's segments as level "s1", shape ids 0..n-1 in scene order.
collide::v1::Level LevelProto(const Scene& scene);

// Distinct batches of `batch` ray casts on "levels/s1" cycling through `set`
// (at most 512 batches, fewer when the set runs out); batch_id b, request
// ids the query's index in the set.
std::vector<collide::v1::StreamQueriesRequest> RayBatches(const QuerySet& set,
                                                          int batch);

// The same batches in the packed form (packed_rays, default options);
// `fixed_width` sets fixed_width_results.
std::vector<collide::v1::StreamQueriesRequest> PackedRayBatches(
    const QuerySet& set, int batch, bool fixed_width);

// Adds rays first..first+count-1 of `set` (wrapping round) to `request`:
// one Query each (request ids their index in the set), or onto the packed
// columns (client/lib/packed_batch.h). What a client does per batch.
void AddRayQueries(const QuerySet& set, size_t first, int count,
                   collide::v1::StreamQueriesRequest* request);
void AddPackedRays(const QuerySet& set, size_t first, int count,
                   bool fixed_width,
                   collide::v1::StreamQueriesRequest* request);

}  // namespace collide_bench

#endif  // COLLIDE_BENCH_SERVICE_STREAM_REQUESTS_H_
