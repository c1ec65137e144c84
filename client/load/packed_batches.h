// collide-load --packed: the mix's batches sent in the packed form
// (collision_service.proto: packed_rays, packed_circles) instead of one
// Query message per query, and the packed answers counted like per-query
// ones.
#ifndef COLLIDE_CLIENT_LOAD_PACKED_BATCHES_H_
#define COLLIDE_CLIENT_LOAD_PACKED_BATCHES_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "collide/v1/collision_service.pb.h"

namespace collide::client::load {

// `batch` (level, batch id and queries) with its queries moved onto packed
// columns: all ray casts, or all circle casts, sharing their options;
// fixed_width asks for the results in fixed-width columns.
// INVALID_ARGUMENT otherwise (a mix of kinds, differing options, another
// kind), naming the first query that does not fit.
absl::StatusOr<v1::StreamQueriesRequest> PackBatch(
    const v1::StreamQueriesRequest& batch, bool fixed_width = false);

// Queries a request carries, per query or packed.
int QueryCount(const v1::StreamQueriesRequest& request);

// Queries a response answers (per query or packed), and how many of them
// it refused (per-query statuses, or the packed errors).
struct AnsweredQueries {
  int64_t answered = 0;
  int64_t refused = 0;
};
AnsweredQueries CountAnswered(const v1::StreamQueriesResponse& response);

}  // namespace collide::client::load

#endif  // COLLIDE_CLIENT_LOAD_PACKED_BATCHES_H_
