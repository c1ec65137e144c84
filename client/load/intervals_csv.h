// The per-interval figures of a load run as CSV (collide-load --csv), one
// row per interval of LoadResult::intervals, for spreadsheets and plotting
// tools:
//
//   start_s,end_s,target_batches_per_s,batches_answered,batches_per_s,
//   queries_answered,queries_per_s,errors,p50_ms,p90_ms,p99_ms,max_ms
//
// start_s and end_s are seconds since the end of the warm-up. The target
// rate is what the open-loop schedule (with its ramp) asked for at the
// interval's middle, 0 for a closed loop. Latency columns cover the batches
// due (open loop) or sent (closed loop) in the interval, and are empty when
// there were none.
#ifndef COLLIDE_CLIENT_LOAD_INTERVALS_CSV_H_
#define COLLIDE_CLIENT_LOAD_INTERVALS_CSV_H_

#include <string>

#include "client/load/load_result.h"
#include "client/load/run_plan.h"

namespace collide::client::load {

// The CSV text, header first, rows ending in "\n".
std::string IntervalsCsv(const LoadResult& result, const PlanOptions& plan);

}  // namespace collide::client::load

#endif  // COLLIDE_CLIENT_LOAD_INTERVALS_CSV_H_
