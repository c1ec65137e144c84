#include "client/query_stream.h"

#include <chrono>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"

namespace collide::client {

namespace {

absl::Status FromGrpc(const grpc::Status& status) {
  return absl::Status(static_cast<absl::StatusCode>(status.error_code()),
                      status.error_message());
}

}  // namespace

// The gRPC side. Reactions may run concurrently on gRPC threads, so state is
// guarded by mutex_ and every Start* call is made after releasing it (a
// Start* may run a reaction inline).
//
// A hold keeps the call open while Send() may still start a write: without
// it, gRPC may finish the call (and free its state) when the server ends the
// stream, between Send() deciding to write and StartWrite(). The hold is
// released once no write can start any more: after WritesDone, or once the
// stream has ended and no write is in flight.
class QueryStream::Reactor final
    : public grpc::ClientBidiReactor<v1::StreamQueriesRequest,
                                     v1::StreamQueriesResponse> {
 public:
  Reactor(v1::CollisionService::StubInterface& stub, std::string level,
          QueryStreamOptions options)
      : level_(std::move(level)), options_(std::move(options)) {
    if (options_.window < 1) options_.window = 1;
    context_.set_deadline(absl::ToChronoTime(absl::Now() + options_.timeout));
    for (const auto& [key, value] : options_.metadata) {
      context_.AddMetadata(key, value);
    }
    stub.async()->StreamQueries(&context_, this);
    AddHold();
    StartRead(&response_);
    StartCall();
  }

  ~Reactor() override {
    bool release = false;
    {
      absl::MutexLock lock(&mutex_);
      if (done_) return;
      ended_ = true;
      release = ReleaseHoldLocked();
    }
    context_.TryCancel();
    if (release) RemoveHold();
    absl::MutexLock lock(&mutex_);
    mutex_.Await(absl::Condition(&done_));
  }

  absl::StatusOr<uint64_t> Send(v1::StreamQueriesRequest request) {
    if (request.queries().empty()) {
      return absl::InvalidArgumentError("queries must not be empty");
    }
    request.set_level(level_);
    bool start_write = false;
    uint64_t id = 0;
    {
      absl::MutexLock lock(&mutex_);
      auto has_room = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
        return done_ || closing_ || half_closed_ ||
               Undelivered() < static_cast<size_t>(options_.window);
      };
      mutex_.Await(absl::Condition(&has_room));
      if (half_closed_) {
        return absl::FailedPreconditionError("the stream was finished");
      }
      if (done_ || closing_) return EndedStatus();
      id = ++last_batch_id_;
      request.set_batch_id(id);
      outstanding_.push_back(id);
      unwritten_.push_back(std::move(request));
      start_write = TakeWriteLocked();
    }
    if (start_write) StartWrite(&writing_request_);
    return id;
  }

  absl::StatusOr<BatchOutcome> Next() {
    absl::MutexLock lock(&mutex_);
    auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
      return !delivered_.empty() || outstanding_.empty();
    };
    mutex_.Await(absl::Condition(&ready));
    if (delivered_.empty()) {
      return absl::FailedPreconditionError("no batch is outstanding");
    }
    BatchOutcome outcome = std::move(delivered_.front());
    delivered_.pop_front();
    return outcome;
  }

  absl::Status Finish() {
    bool writes_done = false;
    bool release = false;
    {
      absl::MutexLock lock(&mutex_);
      half_closed_ = true;
      writes_done = TakeWritesDoneLocked();
      // Outside a reaction, the hold is what keeps the call alive until
      // StartWritesDone has been made: keep it until then.
      starting_writes_done_ = writes_done;
      release = ReleaseHoldLocked();
    }
    if (writes_done) {
      StartWritesDone();
      absl::MutexLock lock(&mutex_);
      starting_writes_done_ = false;
      release = ReleaseHoldLocked();
    }
    if (release) RemoveHold();
    absl::MutexLock lock(&mutex_);
    mutex_.Await(absl::Condition(&done_));
    return status_;
  }

  int outstanding() const {
    absl::MutexLock lock(&mutex_);
    return static_cast<int>(Undelivered());
  }

  void OnWriteDone(bool ok) override {
    bool start_write = false;
    bool writes_done = false;
    bool release = false;
    {
      absl::MutexLock lock(&mutex_);
      writing_ = false;
      if (!ok) ended_ = true;  // the stream is broken; OnDone follows
      start_write = TakeWriteLocked();
      if (!start_write) writes_done = TakeWritesDoneLocked();
      release = ReleaseHoldLocked();
    }
    if (start_write) StartWrite(&writing_request_);
    if (writes_done) StartWritesDone();
    if (release) RemoveHold();
  }

  void OnReadDone(bool ok) override {
    if (!ok) {  // the server closed the stream; OnDone follows
      EndStream();
      return;
    }
    uint64_t expected = 0;
    {
      absl::MutexLock lock(&mutex_);
      if (!outstanding_.empty()) expected = outstanding_.front();
    }
    BatchOutcome outcome{expected, std::move(response_)};
    if (expected == 0 || outcome.response->batch_id() != expected) {
      // The server answers in order; anything else is a protocol error we
      // must not hand out as some other batch's answer.
      context_.TryCancel();
      {
        absl::MutexLock lock(&mutex_);
        protocol_error_ = absl::InternalError(absl::StrCat(
            "stream answered batch_id ", outcome.response->batch_id(),
            " where ", expected, " was due"));
      }
      EndStream();
      return;
    }
    Deliver(std::move(outcome));
    StartRead(&response_);
  }

  void OnDone(const grpc::Status& status) override {
    std::vector<BatchOutcome> failed;
    {
      absl::MutexLock lock(&mutex_);
      // From here no batch may join outstanding_: one sent between this
      // snapshot and done_ would never be delivered.
      closing_ = true;
      status_ = protocol_error_.ok() ? FromGrpc(status) : protocol_error_;
      if (!outstanding_.empty() && status_.ok()) {
        status_ = absl::InternalError(
            absl::StrCat("the server closed the stream with ",
                         outstanding_.size(), " batches unanswered"));
      }
      for (uint64_t id : outstanding_) failed.push_back({id, status_});
    }
    for (BatchOutcome& outcome : failed) Deliver(std::move(outcome));
    absl::MutexLock lock(&mutex_);
    done_ = true;
  }

 private:
  // No write starts after this; releases the hold unless a write is in
  // flight (its OnWriteDone will).
  void EndStream() {
    bool release = false;
    {
      absl::MutexLock lock(&mutex_);
      ended_ = true;
      release = ReleaseHoldLocked();
    }
    if (release) RemoveHold();
  }

  // True once, when the caller must RemoveHold(): no write is in flight and
  // none can start (the stream ended, or WritesDone was started).
  bool ReleaseHoldLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    if (hold_released_ || writing_ || starting_writes_done_ ||
        !(ended_ || writes_done_)) {
      return false;
    }
    hold_released_ = true;
    return true;
  }

  // Hands an outcome to the callback or the Next() queue, then retires its
  // batch (so the window opens only once the caller has it).
  void Deliver(BatchOutcome outcome) {
    if (options_.on_response) {
      options_.on_response(std::move(outcome));
      absl::MutexLock lock(&mutex_);
      outstanding_.pop_front();
    } else {
      absl::MutexLock lock(&mutex_);
      outstanding_.pop_front();
      delivered_.push_back(std::move(outcome));
    }
  }

  // Batches sent and not yet taken by the caller.
  size_t Undelivered() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    return outstanding_.size() + delivered_.size();
  }

  absl::Status EndedStatus() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    return status_.ok() ? absl::UnavailableError("the stream has ended")
                        : status_;
  }

  // Moves the next unwritten request into writing_request_ when no write is
  // in flight; true when the caller must StartWrite it.
  bool TakeWriteLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    if (writing_ || unwritten_.empty() || ended_ || writes_done_) return false;
    writing_ = true;
    writing_request_ = std::move(unwritten_.front());
    unwritten_.pop_front();
    return true;
  }

  // True once: after Finish(), when the last write has completed (gRPC
  // allows WritesDone only after the last OnWriteDone).
  bool TakeWritesDoneLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    if (!half_closed_ || writes_done_ || writing_ || ended_ ||
        !unwritten_.empty()) {
      return false;
    }
    writes_done_ = true;
    return true;
  }

  const std::string level_;
  QueryStreamOptions options_;
  grpc::ClientContext context_;
  // Touched only by the one read in flight.
  v1::StreamQueriesResponse response_;
  // Touched only by the one write in flight (set under the lock before it).
  v1::StreamQueriesRequest writing_request_;

  mutable absl::Mutex mutex_;
  uint64_t last_batch_id_ ABSL_GUARDED_BY(mutex_) = 0;
  // Ids of batches sent and not yet delivered, in order.
  std::deque<uint64_t> outstanding_ ABSL_GUARDED_BY(mutex_);
  std::deque<v1::StreamQueriesRequest> unwritten_ ABSL_GUARDED_BY(mutex_);
  std::deque<BatchOutcome> delivered_ ABSL_GUARDED_BY(mutex_);
  bool writing_ ABSL_GUARDED_BY(mutex_) = false;
  bool half_closed_ ABSL_GUARDED_BY(mutex_) = false;
  bool writes_done_ ABSL_GUARDED_BY(mutex_) = false;
  // The stream ended or is ending: no write may start.
  bool ended_ ABSL_GUARDED_BY(mutex_) = false;
  bool hold_released_ ABSL_GUARDED_BY(mutex_) = false;
  bool starting_writes_done_ ABSL_GUARDED_BY(mutex_) = false;
  // OnDone has begun: Send refuses new batches.
  bool closing_ ABSL_GUARDED_BY(mutex_) = false;
  bool done_ ABSL_GUARDED_BY(mutex_) = false;
  absl::Status status_ ABSL_GUARDED_BY(mutex_);
  absl::Status protocol_error_ ABSL_GUARDED_BY(mutex_);
};

QueryStream::QueryStream(v1::CollisionService::StubInterface& stub,
                         std::string level, QueryStreamOptions options)
    : reactor_(std::make_unique<Reactor>(stub, std::move(level),
                                         std::move(options))) {}

QueryStream::~QueryStream() = default;

absl::StatusOr<uint64_t> QueryStream::Send(
    absl::Span<const v1::Query> queries) {
  v1::StreamQueriesRequest request;
  request.mutable_queries()->Reserve(static_cast<int>(queries.size()));
  for (const v1::Query& query : queries) *request.add_queries() = query;
  return reactor_->Send(std::move(request));
}

absl::StatusOr<uint64_t> QueryStream::Send(v1::StreamQueriesRequest request) {
  return reactor_->Send(std::move(request));
}

absl::StatusOr<BatchOutcome> QueryStream::Next() { return reactor_->Next(); }

absl::Status QueryStream::Finish() { return reactor_->Finish(); }

int QueryStream::outstanding() const { return reactor_->outstanding(); }

}  // namespace collide::client
