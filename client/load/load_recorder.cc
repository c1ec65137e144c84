#include "client/load/load_recorder.h"

#include <algorithm>
#include <chrono>

#include "client/load/packed_batches.h"
#include "collide/v1/collision_service.pb.h"

namespace collide::client::load {

namespace {

// A run of an hour at 10 ms intervals; beyond it intervals are not kept
// (the whole run's figures still are).
constexpr size_t kMaxIntervals = 360000;

absl::Duration ToDuration(Clock::duration d) { return absl::FromChrono(d); }

}  // namespace

absl::string_view ErrorOriginName(ErrorOrigin origin) {
  switch (origin) {
    case ErrorOrigin::kStream:
      return "stream";
    case ErrorOrigin::kBatch:
      return "batch";
    case ErrorOrigin::kQuery:
      return "query";
  }
  return "unknown";
}

int64_t LoadResult::error_count() const {
  int64_t total = 0;
  for (const auto& [key, count] : errors) total += count.count;
  return total;
}

double LoadResult::QueriesPerSecond() const {
  const double seconds = absl::ToDoubleSeconds(elapsed);
  return seconds > 0 ? static_cast<double>(queries_answered) / seconds : 0;
}

double LoadResult::BatchesPerSecond() const {
  const double seconds = absl::ToDoubleSeconds(elapsed);
  return seconds > 0 ? static_cast<double>(batches_answered) / seconds : 0;
}

LoadRecorder::LoadRecorder(Clock::time_point measure_start,
                           Clock::duration interval)
    : measure_start_(measure_start),
      interval_(
          std::max<Clock::duration>(interval, std::chrono::milliseconds(1))),
      last_measured_answer_(measure_start),
      last_measured_send_(measure_start) {
  result_.interval = ToDuration(interval_);
}

IntervalStats* LoadRecorder::IntervalAtLocked(Clock::time_point t) {
  if (t < measure_start_) return nullptr;
  const auto index = static_cast<size_t>((t - measure_start_) / interval_);
  if (index >= kMaxIntervals) return nullptr;
  if (index >= result_.intervals.size()) result_.intervals.resize(index + 1);
  return &result_.intervals[index];
}

void LoadRecorder::RecordSent(const SentBatch& batch) {
  absl::MutexLock lock(&mutex_);
  if (!batch.measured) {
    ++result_.warmup_batches;
    return;
  }
  ++result_.batches_sent;
  last_measured_send_ = std::max(last_measured_send_, batch.sent);
  result_.max_send_lag =
      std::max(result_.max_send_lag, ToDuration(batch.sent - batch.intended));
}

void LoadRecorder::AddErrorLocked(const SentBatch& batch, ErrorOrigin origin,
                                  int code, absl::string_view message,
                                  int64_t count) {
  ErrorCount& entry =
      result_.errors[{origin, static_cast<absl::StatusCode>(code)}];
  if (entry.count == 0) entry.example = std::string(message);
  entry.count += count;
  if (IntervalStats* slot = IntervalAtLocked(batch.intended)) {
    slot->errors += count;
  }
}

void LoadRecorder::RecordOutcome(
    const SentBatch& batch,
    const absl::StatusOr<v1::StreamQueriesResponse>& outcome,
    Clock::time_point answered) {
  absl::MutexLock lock(&mutex_);
  if (outcome.ok()) {
    ++all_batches_answered_;
    if (outcome->status().code() == 0) {
      all_queries_answered_ += CountAnswered(*outcome).answered;
    }
  }
  if (!batch.measured) return;
  if (!outcome.ok()) {
    AddErrorLocked(batch, ErrorOrigin::kStream,
                   static_cast<int>(outcome.status().code()),
                   outcome.status().message(), 1);
    return;
  }
  const int64_t latency_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(answered -
                                                           batch.intended)
          .count();
  result_.latency.Record(latency_ns);
  ++result_.batches_answered;
  last_measured_answer_ = std::max(last_measured_answer_, answered);
  if (IntervalStats* slot = IntervalAtLocked(batch.intended)) {
    slot->latency.Record(latency_ns);
  }
  if (outcome->status().code() != 0) {
    AddErrorLocked(batch, ErrorOrigin::kBatch, outcome->status().code(),
                   outcome->status().message(), 1);
    return;
  }
  const int64_t answered_queries = CountAnswered(*outcome).answered;
  result_.queries_answered += answered_queries;
  if (IntervalStats* slot = IntervalAtLocked(answered)) {
    ++slot->batches_answered;
    slot->queries_answered += answered_queries;
  }
  for (const v1::QueryResult& query : outcome->results()) {
    if (query.status().code() == 0) {
      ++result_.queries_ok;
    } else {
      AddErrorLocked(batch, ErrorOrigin::kQuery, query.status().code(),
                     query.status().message(), 1);
    }
  }
  // A packed answer: its refused queries are listed, the rest are OK.
  const google::protobuf::RepeatedPtrField<v1::PackedQueryError>* errors =
      outcome->has_packed_casts()   ? &outcome->packed_casts().errors()
      : outcome->has_packed_moves() ? &outcome->packed_moves().errors()
                                    : nullptr;
  if (errors != nullptr) {
    result_.queries_ok += answered_queries - errors->size();
    for (const v1::PackedQueryError& error : *errors) {
      AddErrorLocked(batch, ErrorOrigin::kQuery, error.status().code(),
                     error.status().message(), 1);
    }
  }
}

void LoadRecorder::RecordSendFailure(const SentBatch& batch,
                                     const absl::Status& status) {
  absl::MutexLock lock(&mutex_);
  if (!batch.measured) return;
  AddErrorLocked(batch, ErrorOrigin::kStream, static_cast<int>(status.code()),
                 status.message(), 1);
}

ProgressSnapshot LoadRecorder::Snapshot() const {
  absl::MutexLock lock(&mutex_);
  ProgressSnapshot snapshot;
  snapshot.batches_answered = all_batches_answered_;
  snapshot.queries_answered = all_queries_answered_;
  snapshot.measured_batches = result_.batches_answered;
  snapshot.p50_ns = result_.latency.ValueAtQuantile(0.5);
  snapshot.p99_ns = result_.latency.ValueAtQuantile(0.99);
  snapshot.errors = result_.error_count();
  return snapshot;
}

LoadResult LoadRecorder::Result() const {
  absl::MutexLock lock(&mutex_);
  LoadResult result = result_;
  result.elapsed = ToDuration(last_measured_answer_ - measure_start_);
  result.send_span = ToDuration(last_measured_send_ - measure_start_);
  return result;
}

}  // namespace collide::client::load
