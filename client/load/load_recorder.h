// LoadRecorder: collects what happens to every batch of a load test into a
// LoadResult. Called from the senders and from gRPC's callback threads at
// once, so everything goes through one mutex (held for a few hundred
// nanoseconds per batch).
#ifndef COLLIDE_CLIENT_LOAD_LOAD_RECORDER_H_
#define COLLIDE_CLIENT_LOAD_LOAD_RECORDER_H_

#include <cstdint>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "client/load/load_result.h"
#include "client/load/run_plan.h"
#include "collide/v1/collision_service.pb.h"

namespace collide::client::load {

// A batch sent and not yet answered.
struct SentBatch {
  // Open loop: when it was due; closed loop: when its window had room.
  // Its latency runs from here.
  Clock::time_point intended;
  // When Send was called (open loop: intended plus the client's lag).
  Clock::time_point sent;
  bool measured = false;
  int queries = 0;
};

// Where the run stands, for progress lines.
struct ProgressSnapshot {
  // Every batch and query answered so far, the warm-up's included.
  int64_t batches_answered = 0;
  int64_t queries_answered = 0;
  // Measured so far: batches answered, their p50 and p99 (ns), errors.
  int64_t measured_batches = 0;
  int64_t p50_ns = 0;
  int64_t p99_ns = 0;
  int64_t errors = 0;
};

class LoadRecorder {
 public:
  // Intervals of the time series are counted from measure_start.
  LoadRecorder(Clock::time_point measure_start, Clock::duration interval);

  // A batch handed to its stream.
  void RecordSent(const SentBatch& batch);
  // Its answer (or the stream's failure), which came at `answered`.
  void RecordOutcome(const SentBatch& batch,
                     const absl::StatusOr<v1::StreamQueriesResponse>& outcome,
                     Clock::time_point answered);
  // A batch that could not be sent because its stream had ended.
  void RecordSendFailure(const SentBatch& batch, const absl::Status& status);

  ProgressSnapshot Snapshot() const;
  // The result so far (the whole run's, once every stream has finished).
  LoadResult Result() const;

 private:
  void AddErrorLocked(const SentBatch& batch, ErrorOrigin origin, int code,
                      absl::string_view message, int64_t count)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // The time-series slot of `t`, grown as needed; nullptr before
  // measure_start or past the cap on intervals.
  IntervalStats* IntervalAtLocked(Clock::time_point t)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  const Clock::time_point measure_start_;
  const Clock::duration interval_;

  mutable absl::Mutex mutex_;
  LoadResult result_ ABSL_GUARDED_BY(mutex_);
  int64_t all_batches_answered_ ABSL_GUARDED_BY(mutex_) = 0;
  int64_t all_queries_answered_ ABSL_GUARDED_BY(mutex_) = 0;
  Clock::time_point last_measured_answer_ ABSL_GUARDED_BY(mutex_);
  Clock::time_point last_measured_send_ ABSL_GUARDED_BY(mutex_);
};

}  // namespace collide::client::load

#endif  // COLLIDE_CLIENT_LOAD_LOAD_RECORDER_H_
