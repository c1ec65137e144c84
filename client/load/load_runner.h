// RunLoad: drives a load test against a collide server over given
// connections: `streams_per_connection` QueryStreams on each, batches drawn
// from a QueryMix, sent closed or open loop as run_plan.h describes, every
// outcome recorded (load_recorder.h).
//
// A stream that fails is counted (its batches in flight get the stream's
// status as errors) and reopened after a short back-off, so a server restart
// or a replica going away shows up as errors and a latency spike instead of
// ending the test.
#ifndef COLLIDE_CLIENT_LOAD_LOAD_RUNNER_H_
#define COLLIDE_CLIENT_LOAD_LOAD_RUNNER_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "client/lib/collide_client.h"
#include "client/load/load_recorder.h"
#include "client/load/load_result.h"
#include "client/load/query_mix.h"
#include "client/load/run_plan.h"

namespace collide::client::load {

struct LoadOptions {
  // The level queried: "levels/{level_id}".
  std::string level_id = "arena";
  int streams_per_connection = 1;
  // Batches in flight per stream at most (>= 1). Closed loop: always this
  // many. Open loop: a batch due while its stream's window is full waits,
  // and the wait counts in its latency.
  int window = 8;
  // Queries per batch (>= 1).
  int batch_size = 16;
  PlanOptions plan;
  // Slice of the time series (LoadResult::intervals).
  Clock::duration interval = std::chrono::seconds(1);
  // Distinct batches each stream draws at the start and cycles through, so
  // drawing queries costs the client nothing while it measures.
  int batches_per_stream = 64;
  // When not empty: the queries sent, in order (query_file.h), instead of
  // the mix's; streams take their batches from it one after the other,
  // each at least batches_per_stream, enough to hold every query.
  std::vector<v1::Query> replay_queries;
  // Send every batch in the packed form (packed_batches.h): the mix (or
  // file) must then hold one kind, ray or circle casts with the same
  // options; anything else is INVALID_ARGUMENT "packed: ...".
  bool packed = false;
  // With packed: results in fixed-width columns (fixed_width_results).
  bool fixed_width = false;
  uint64_t seed = 1;
  // After the last measured send, how long answers in flight are awaited;
  // then streams are cancelled and those batches count as stream errors
  // (DEADLINE_EXCEEDED). Duration-bound runs only: with a count, streams
  // wait as long as it takes.
  Clock::duration drain_timeout = std::chrono::seconds(30);
  // When set (and progress_interval > 0), called every progress_interval
  // from a thread of the runner with the run's elapsed time and figures.
  Clock::duration progress_interval = Clock::duration::zero();
  std::function<void(Clock::duration elapsed, const ProgressSnapshot&)>
      on_progress;
  // When set, polled every 20 ms: once true, no further batch is sent (the
  // ones in flight are still awaited) and the result covers the run so far.
  // For Ctrl-C: a signal handler may set it.
  const std::atomic<bool>* stop_requested = nullptr;
};

// Checks the options: INVALID_ARGUMENT naming the field (window,
// batch_size, streams_per_connection, rate, duration or count...).
absl::Status ValidateLoadOptions(const LoadOptions& options);

// Runs the test over `connections` (one CollideClient per TCP connection,
// at least one) and returns what it measured. Errors only for bad options;
// everything the server does is in the result.
absl::StatusOr<LoadResult> RunLoad(absl::Span<CollideClient* const> connections,
                                   const QueryMix& mix,
                                   const LoadOptions& options);

}  // namespace collide::client::load

#endif  // COLLIDE_CLIENT_LOAD_LOAD_RUNNER_H_
