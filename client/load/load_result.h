// What a load test measured: the latency of every measured batch (from its
// intended send time to its answer), throughput, errors by status code, and
// the same per interval of the run for latency-over-time plots.
#ifndef COLLIDE_CLIENT_LOAD_LOAD_RESULT_H_
#define COLLIDE_CLIENT_LOAD_LOAD_RESULT_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "client/load/histogram.h"

namespace collide::client::load {

// Latency interval histograms are coarser (1.6%) than the whole run's (0.4%)
// so that long runs with many intervals stay small.
inline constexpr int kRunPrecisionBits = 9;
inline constexpr int kIntervalPrecisionBits = 7;

// Where an error was reported.
enum class ErrorOrigin {
  // The stream failed: a batch in flight (or being sent) got the stream's
  // status instead of an answer.
  kStream,
  // The server refused a whole batch (StreamQueriesResponse.status).
  kBatch,
  // One query's own result (QueryResult.status).
  kQuery,
};

// "stream", "batch", "query".
absl::string_view ErrorOriginName(ErrorOrigin origin);

struct ErrorKey {
  ErrorOrigin origin = ErrorOrigin::kStream;
  absl::StatusCode code = absl::StatusCode::kUnknown;
  friend bool operator<(const ErrorKey& a, const ErrorKey& b) {
    return a.origin != b.origin ? a.origin < b.origin : a.code < b.code;
  }
};

struct ErrorCount {
  int64_t count = 0;
  // The first message seen with this origin and code.
  std::string example;
};

// One slice of the measured run, `interval` long.
struct IntervalStats {
  // Latencies of the batches due (open loop) or sent (closed loop) in it.
  LatencyHistogram latency{kIntervalPrecisionBits};
  // Batches and queries answered in it (by the time the answer came).
  int64_t batches_answered = 0;
  int64_t queries_answered = 0;
  // Errors among the batches due or sent in it.
  int64_t errors = 0;
};

struct LoadResult {
  // Measured batches answered by the server (refused ones included: they
  // were answered), nanoseconds from intended send to answer.
  LatencyHistogram latency{kRunPrecisionBits};
  // Measured batches sent (or due, when the stream had failed).
  int64_t batches_sent = 0;
  int64_t batches_answered = 0;
  // Queries of measured batches answered without a batch refusal, and of
  // those the ones whose own status is OK.
  int64_t queries_answered = 0;
  int64_t queries_ok = 0;
  // Batches of the warm-up (not measured).
  int64_t warmup_batches = 0;
  // From the end of the warm-up to the last measured answer: the time the
  // measured work took, which throughput is divided by.
  absl::Duration elapsed;
  // From the end of the warm-up to the last measured send: the time the
  // measured load was offered over.
  absl::Duration send_span;
  // Open loop: how late the sends left after their due times at most (the
  // client's own lag, including waits for a full window).
  absl::Duration max_send_lag;
  std::map<ErrorKey, ErrorCount> errors;
  // The run was stopped before its duration or count (Ctrl-C).
  bool interrupted = false;
  absl::Duration interval = absl::Seconds(1);
  std::vector<IntervalStats> intervals;

  int64_t error_count() const;
  double QueriesPerSecond() const;
  double BatchesPerSecond() const;
};

}  // namespace collide::client::load

#endif  // COLLIDE_CLIENT_LOAD_LOAD_RESULT_H_
