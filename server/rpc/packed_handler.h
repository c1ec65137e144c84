// Answering the packed batch form (collision_service.proto: packed_rays,
// packed_circles, packed_moves): columns decoded straight into lib/ query
// structs (proto/formats/packed_convert.h), each query answered by the
// same lib/ call the per-query form makes with the same converted input,
// and the answer written straight into result columns. So every answer is
// bitwise the per-query form's (tests/server/packed_e2e_test.cc checks it
// through a real server).
#ifndef COLLIDE_SERVER_RPC_PACKED_HANDLER_H_
#define COLLIDE_SERVER_RPC_PACKED_HANDLER_H_

#include "absl/status/status.h"
#include "collide/level.h"
#include "collide/v1/collision_service.pb.h"
#include "proto/formats/input_limits.h"
#include "server/rpc/stop_check.h"

namespace collide::server {

// Whether `request` carries the packed form (one of its packed arms set).
bool IsPacked(const v1::StreamQueriesRequest& request);
bool IsPacked(const v1::RunQueriesRequest& request);

// The packed form's query count: its first column's length (0 when not
// packed). Checked against the other columns only when answered.
int PackedQueryCount(const v1::StreamQueriesRequest& request);
int PackedQueryCount(const v1::RunQueriesRequest& request);

// Answers the packed form of `request` on `level` into `response`'s packed
// results (`response` empty on entry). Batch-level errors (returned;
// `response` is then left for the caller to clear): INVALID_ARGUMENT when
// `queries` is set too, for columns of different lengths, an empty batch
// or bad shared options; RESOURCE_EXHAUSTED over max_batch_size. A bad
// value of one query goes into the results' `errors` with its column and
// index, and its row stays a miss. `stop` is asked every
// kQueriesPerStopCheck queries; once it says stop, every query not yet
// answered gets an error "{arm}[{i}]: not answered: {why}".
absl::Status AnswerPacked(const Level& level,
                          const v1::StreamQueriesRequest& request,
                          const formats::InputLimits& limits,
                          v1::StreamQueriesResponse* response, StopCheck stop);
absl::Status AnswerPacked(const Level& level,
                          const v1::RunQueriesRequest& request,
                          const formats::InputLimits& limits,
                          v1::RunQueriesResponse* response, StopCheck stop);

}  // namespace collide::server

#endif  // COLLIDE_SERVER_RPC_PACKED_HANDLER_H_
