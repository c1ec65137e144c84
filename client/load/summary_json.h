// The load test's report for programs: the run's settings, throughput,
// latency percentiles (ms), errors by where and status code, the histogram's
// non-empty buckets and the time series, as one JSON object.
#ifndef COLLIDE_CLIENT_LOAD_SUMMARY_JSON_H_
#define COLLIDE_CLIENT_LOAD_SUMMARY_JSON_H_

#include <string>

#include "client/load/load_result.h"
#include "client/load/run_description.h"

namespace collide::client::load {

// Pretty-printed (2 spaces), ending in a newline. Text from the server
// (error messages) that is not valid UTF-8 has its bad bytes replaced.
std::string SummaryJson(const RunDescription& run, const LoadResult& result);

}  // namespace collide::client::load

#endif  // COLLIDE_CLIENT_LOAD_SUMMARY_JSON_H_
