// How a batch learns that it must stop early (its call's deadline passed,
// the call was cancelled, the server is shutting down): the per-query
// (query_handler.h) and the packed (packed_handler.h) forms ask the same
// question every kQueriesPerStopCheck queries.
#ifndef COLLIDE_SERVER_RPC_STOP_CHECK_H_
#define COLLIDE_SERVER_RPC_STOP_CHECK_H_

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"

namespace collide::server {

// Whether a batch must stop before its next query: OK to go on, else the
// status (DEADLINE_EXCEEDED, CANCELLED) that every query not yet answered
// gets in its own result. The service makes one from its call's deadline
// and cancellation (collision_service.cc).
using StopCheck = absl::FunctionRef<absl::Status()>;

// A StopCheck that never stops (direct callers, tests, benchmark programs).
absl::Status NeverStop();

// Queries answered between two StopChecks (one check before the first): a
// check reads the clock and the call's state, a few tens of ns, so a batch
// stops within this many queries' work of its deadline, at a cost of a few
// ns per query.
inline constexpr int kQueriesPerStopCheck = 8;

}  // namespace collide::server

#endif  // COLLIDE_SERVER_RPC_STOP_CHECK_H_
