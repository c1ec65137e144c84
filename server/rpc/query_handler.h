// Answering a batch of queries on one level snapshot: the service's logic as
// plain functions (the gRPC reactors only resolve the level, call these and
// send). Results are exactly (bitwise) what calling lib/query.h directly with
// the converted input gives.
#ifndef COLLIDE_SERVER_RPC_QUERY_HANDLER_H_
#define COLLIDE_SERVER_RPC_QUERY_HANDLER_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "collide/level.h"
#include "collide/v1/collision_service.pb.h"
#include "proto/formats/input_limits.h"
#include "server/levels/level_snapshot.h"
#include "server/rpc/stop_check.h"

namespace collide::server {

// The batch-level check: INVALID_ARGUMENT "queries must not be empty" for 0
// queries, RESOURCE_EXHAUSTED naming max_batch_size above it, else OK.
absl::Status CheckBatchSize(int query_count,
                            const formats::InputLimits& limits);

// Answers one query: `index` is its position in the batch, used in error
// paths ("queries[{index}]..."). Never fails as a whole: a bad query gets
// its error in the result's status (INVALID_ARGUMENT naming the field) and
// no result; a good one gets status OK (code 0) and its result.
v1::QueryResult HandleQuery(const Level& level, const v1::Query& query,
                            int index, const formats::InputLimits& limits);

// Answers a unary batch on `snapshot`: CheckBatchSize's error for the batch
// as a whole, else one result per query in order (each as HandleQuery) and
// snapshot.version. A packed request (packed_rays, packed_circles,
// packed_moves) is answered in the response's packed results instead
// (packed_handler.h); queries and a packed form both set is
// INVALID_ARGUMENT. request.level is not read: the caller resolved it to
// `snapshot`.
absl::StatusOr<v1::RunQueriesResponse> HandleRunQueries(
    const LevelSnapshot& snapshot, const v1::RunQueriesRequest& request,
    const formats::InputLimits& limits);

// The number of queries a request carries: queries_size(), or the length
// of its packed form's first column (the workers take big batches).
int BatchQueryCount(const v1::RunQueriesRequest& request);
int BatchQueryCount(const v1::StreamQueriesRequest& request);

// HandleRunQueries into `response`, which the caller owns and passes in
// empty (the unary call keeps it on the call's arena). On a batch-level
// error `response` is left empty and the error is returned. `stop` is
// asked every kQueriesPerStopCheck queries (and after each visibility or
// visibility polygon query, which counts as that many); once it says stop,
// each query not yet answered gets its request_id and that status
// ("queries[7]: not answered: ...") and no result.
absl::Status AnswerRunQueries(const LevelSnapshot& snapshot,
                              const v1::RunQueriesRequest& request,
                              const formats::InputLimits& limits,
                              v1::RunQueriesResponse* response,
                              StopCheck stop = NeverStop);

// The same for one stream message; the response also echoes batch_id and
// has status OK. A batch-level error is returned as the status (the reactor
// sends it with RefusedBatchResponse and keeps the stream open).
absl::StatusOr<v1::StreamQueriesResponse> HandleStreamQueries(
    const LevelSnapshot& snapshot, const v1::StreamQueriesRequest& request,
    const formats::InputLimits& limits);

// HandleStreamQueries into `response`, which the caller owns and passes in
// empty (the stream reactor keeps it on the batch's arena). On a batch-level
// error `response` is left empty and the error is returned. `stop` as for
// AnswerRunQueries.
absl::Status AnswerStreamQueries(const LevelSnapshot& snapshot,
                                 const v1::StreamQueriesRequest& request,
                                 const formats::InputLimits& limits,
                                 v1::StreamQueriesResponse* response,
                                 StopCheck stop = NeverStop);

// The stream response for a batch refused as a whole (unknown level, bad
// level name, empty or oversized batch): request.batch_id, `status`, no
// results, level_version 0.
v1::StreamQueriesResponse RefusedBatchResponse(
    const v1::StreamQueriesRequest& request, const absl::Status& status);
// The same into `response` (cleared first).
void RefuseBatch(const v1::StreamQueriesRequest& request,
                 const absl::Status& status,
                 v1::StreamQueriesResponse* response);

}  // namespace collide::server

#endif  // COLLIDE_SERVER_RPC_QUERY_HANDLER_H_
