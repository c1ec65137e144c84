#include "client/load/load_runner.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "client/load/packed_batches.h"
#include "client/load/query_file.h"
#include "collide/number_text.h"

namespace collide::client::load {

namespace {

// Count-bound runs have no natural end, so their streams get this long.
constexpr auto kCountRunStreamTimeout = std::chrono::hours(24);
constexpr auto kFirstBackoff = std::chrono::milliseconds(100);
constexpr auto kMaxBackoff = std::chrono::seconds(1);

// One stream's sender: runs on its own thread, sends its batches when the
// plan says, and records each outcome (delivered on gRPC's threads).
class StreamWorker {
 public:
  StreamWorker(CollideClient& client, const LoadOptions& options, RunPlan& plan,
               LoadRecorder& recorder,
               std::vector<v1::StreamQueriesRequest> batches)
      : client_(client),
        options_(options),
        plan_(plan),
        recorder_(recorder),
        batches_(std::move(batches)) {}

  void Run() {
    size_t next_batch = 0;
    auto backoff = Clock::duration(kFirstBackoff);
    while (true) {
      SentBatch batch;
      RunPlan::Slot slot = RunPlan::Slot::kDone;
      if (plan_.open_loop()) {
        batch.intended = plan_.DueTime(plan_.TakeNextIndex());
        // Claimed before sleeping: whether a batch belongs to the run
        // depends on its due time alone, not on when its stream got to it.
        slot = plan_.Claim(batch.intended);
        if (slot == RunPlan::Slot::kDone) break;
        std::this_thread::sleep_until(batch.intended);
      } else {
        WaitForRoom();
        batch.intended = Clock::now();
        slot = plan_.Claim(batch.intended);
        if (slot == RunPlan::Slot::kDone) break;
      }
      batch.measured = slot == RunPlan::Slot::kMeasured;
      const v1::StreamQueriesRequest& request =
          batches_[next_batch++ % batches_.size()];
      batch.queries = QueryCount(request);

      if (stream_ == nullptr) OpenStream();
      batch.sent = Clock::now();
      recorder_.RecordSent(batch);
      absl::Status failure = open_error_;
      if (stream_ != nullptr) {
        {
          absl::MutexLock lock(&mutex_);
          in_flight_.push_back(batch);
        }
        const absl::StatusOr<uint64_t> sent = stream_->Send(request);
        if (sent.ok()) {
          backoff = kFirstBackoff;
          continue;
        }
        // The stream has ended (its batches in flight were delivered with
        // its status before Send could see that): this batch never left.
        {
          absl::MutexLock lock(&mutex_);
          in_flight_.pop_back();
        }
        failure = sent.status();
      }
      recorder_.RecordSendFailure(batch, failure);
      stream_.reset();
      const Clock::time_point resume = Clock::now() + backoff;
      backoff = std::min<Clock::duration>(2 * backoff, kMaxBackoff);
      std::this_thread::sleep_until(
          plan_.options().count > 0 ? resume
                                    : std::min(resume, plan_.measure_end()));
    }
    if (stream_ != nullptr) {
      // Waits for every answer (or the stream's deadline) and for the
      // stream to close; the outcome of every batch has been recorded then.
      stream_->Finish().IgnoreError();
      stream_.reset();
    }
  }

 private:
  void OpenStream() {
    QueryStreamOptions stream_options;
    stream_options.window = options_.window;
    if (options_.plan.count > 0) {
      stream_options.timeout = absl::FromChrono(kCountRunStreamTimeout);
    } else {
      stream_options.timeout = absl::FromChrono(
          plan_.measure_end() + options_.drain_timeout - Clock::now());
    }
    stream_options.on_response = [this](BatchOutcome outcome) {
      OnResponse(std::move(outcome));
    };
    absl::StatusOr<std::unique_ptr<QueryStream>> stream =
        client_.OpenStream(options_.level_id, std::move(stream_options));
    if (stream.ok()) {
      stream_ = std::move(*stream);
      open_error_ = absl::OkStatus();
    } else {
      // Only a client without a callback stub gets here (a mock); the loop
      // records it as this batch's error and tries again after a back-off.
      stream_ = nullptr;
      open_error_ = stream.status();
    }
  }

  // Closed loop: blocks until fewer than `window` batches are in flight.
  void WaitForRoom() {
    absl::MutexLock lock(&mutex_);
    auto has_room = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
      return in_flight_.size() < static_cast<size_t>(options_.window);
    };
    mutex_.Await(absl::Condition(&has_room));
  }

  // On a gRPC thread, in send order.
  void OnResponse(BatchOutcome outcome) {
    const Clock::time_point answered = Clock::now();
    SentBatch batch;
    {
      absl::MutexLock lock(&mutex_);
      if (in_flight_.empty()) return;  // cannot happen: ids are in order
      batch = in_flight_.front();
      in_flight_.pop_front();
    }
    recorder_.RecordOutcome(batch, outcome.response, answered);
  }

  CollideClient& client_;
  const LoadOptions& options_;
  RunPlan& plan_;
  LoadRecorder& recorder_;
  const std::vector<v1::StreamQueriesRequest> batches_;
  std::unique_ptr<QueryStream> stream_;
  absl::Status open_error_;

  absl::Mutex mutex_;
  // Batches sent on the current stream and not yet answered, in order.
  std::deque<SentBatch> in_flight_ ABSL_GUARDED_BY(mutex_);
};

}  // namespace

absl::Status ValidateLoadOptions(const LoadOptions& options) {
  if (options.level_id.empty()) {
    return absl::InvalidArgumentError("level must not be empty");
  }
  if (options.streams_per_connection < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "streams must be >= 1, not ", options.streams_per_connection));
  }
  if (options.window < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("window must be >= 1, not ", options.window));
  }
  if (options.batch_size < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("batch_size must be >= 1, not ", options.batch_size));
  }
  if (options.batches_per_stream < 1) {
    return absl::InvalidArgumentError("batches_per_stream must be >= 1");
  }
  if (!(options.plan.rate >= 0) || !std::isfinite(options.plan.rate)) {
    return absl::InvalidArgumentError(
        absl::StrCat("rate must be >= 0 batches/s (0: closed loop), not ",
                     NumberText(options.plan.rate)));
  }
  if (options.plan.warmup < Clock::duration::zero()) {
    return absl::InvalidArgumentError("warmup must be >= 0");
  }
  if (options.plan.count < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("count must be >= 0, not ", options.plan.count));
  }
  if (options.plan.count == 0 &&
      options.plan.duration <= Clock::duration::zero()) {
    return absl::InvalidArgumentError("duration must be > 0 (or give a count)");
  }
  if (options.interval <= Clock::duration::zero()) {
    return absl::InvalidArgumentError("interval must be > 0");
  }
  if (options.drain_timeout < Clock::duration::zero()) {
    return absl::InvalidArgumentError("drain_timeout must be >= 0");
  }
  const RateRamp& ramp = options.plan.ramp;
  if (ramp.shape != RampShape::kNone) {
    if (options.plan.rate <= 0) {
      return absl::InvalidArgumentError(
          "ramp needs an open loop: rate > 0 is where it starts");
    }
    if (!(ramp.to_rate > 0) || !std::isfinite(ramp.to_rate)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "ramp_to must be > 0 batches/s (where the ramp ends), not ",
          NumberText(ramp.to_rate)));
    }
    if (options.plan.count > 0) {
      return absl::InvalidArgumentError(
          "ramp runs over --duration; it takes no count");
    }
    if (ramp.shape == RampShape::kStep && ramp.steps < 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("ramp_steps must be >= 2, not ", ramp.steps));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<LoadResult> RunLoad(absl::Span<CollideClient* const> connections,
                                   const QueryMix& mix,
                                   const LoadOptions& options) {
  if (absl::Status valid = ValidateLoadOptions(options); !valid.ok()) {
    return valid;
  }
  if (connections.empty()) {
    return absl::InvalidArgumentError("connections must not be empty");
  }
  // Every stream's batches come from one generator, stream after stream, so
  // a seed fixes the whole run's queries.
  Rng rng(options.seed);
  const size_t stream_count =
      connections.size() * static_cast<size_t>(options.streams_per_connection);
  // A replayed file is dealt out whole: every query is in some pool.
  const size_t replay_batches = options.replay_queries.empty()
                                    ? 0
                                    : (options.replay_queries.size() +
                                       stream_count * options.batch_size - 1) /
                                          (stream_count * options.batch_size);
  const size_t batches_per_stream =
      std::max(static_cast<size_t>(options.batches_per_stream), replay_batches);
  size_t next_replayed = 0;
  std::vector<std::vector<v1::StreamQueriesRequest>> pools(stream_count);
  for (std::vector<v1::StreamQueriesRequest>& pool : pools) {
    pool.reserve(batches_per_stream);
    for (size_t i = 0; i < batches_per_stream; ++i) {
      pool.push_back(options.replay_queries.empty()
                         ? mix.NextBatch(options.batch_size, rng)
                         : ReplayBatch(options.replay_queries,
                                       options.batch_size, &next_replayed));
    }
  }
  if (options.packed) {
    for (std::vector<v1::StreamQueriesRequest>& pool : pools) {
      for (v1::StreamQueriesRequest& batch : pool) {
        absl::StatusOr<v1::StreamQueriesRequest> packed =
            PackBatch(batch, options.fixed_width);
        if (!packed.ok()) {
          return absl::InvalidArgumentError(
              absl::StrCat("packed: ", packed.status().message()));
        }
        batch = *std::move(packed);
      }
    }
  }

  RunPlan plan(Clock::now(), options.plan);
  LoadRecorder recorder(plan.measure_start(), options.interval);
  std::vector<std::unique_ptr<StreamWorker>> workers;
  for (size_t i = 0; i < stream_count; ++i) {
    CollideClient& client =
        *connections[i / static_cast<size_t>(options.streams_per_connection)];
    workers.push_back(std::make_unique<StreamWorker>(
        client, options, plan, recorder, std::move(pools[i])));
  }

  absl::Notification finished;
  std::thread progress;
  if (options.on_progress &&
      options.progress_interval > Clock::duration::zero()) {
    progress = std::thread([&] {
      while (!finished.WaitForNotificationWithTimeout(
          absl::FromChrono(options.progress_interval))) {
        options.on_progress(Clock::now() - plan.start(), recorder.Snapshot());
      }
    });
  }
  std::thread watcher;
  if (options.stop_requested != nullptr) {
    watcher = std::thread([&] {
      while (!finished.WaitForNotificationWithTimeout(absl::Milliseconds(20))) {
        if (options.stop_requested->load()) plan.Stop();
      }
    });
  }
  std::vector<std::thread> threads;
  threads.reserve(workers.size());
  for (auto& worker : workers) {
    threads.emplace_back([w = worker.get()] { w->Run(); });
  }
  for (std::thread& thread : threads) thread.join();
  finished.Notify();
  if (progress.joinable()) progress.join();
  if (watcher.joinable()) watcher.join();
  LoadResult result = recorder.Result();
  result.interrupted = plan.stopped();
  return result;
}

}  // namespace collide::client::load
