#include "client/lib/query_stream.h"

#include <chrono>
#include <deque>
#include <functional>
#include <string>
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

// One StreamQueries call: the gRPC side. Its outcomes go, in order, to the
// stream's callback (never to a queue). Reactions may run concurrently on gRPC
// threads, so state is guarded by mutex_ and every Start* call is made after
// releasing it (a Start* may run a reaction inline).
//
// A hold keeps the call open while Send() may still start a write: without
// it, gRPC may finish the call (and free its state) when the server ends the
// stream, between Send() deciding to write and StartWrite(). The hold is
// released once no write can start any more: after WritesDone, or once the
// stream has ended and no write is in flight.
class QueryStream::Call final
    : public grpc::ClientBidiReactor<v1::StreamQueriesRequest,
                                     v1::StreamQueriesResponse> {
 public:
  // Opens the call (with `metadata`). The stream keeps at most `window`
  // batches outstanding, so Send never waits for room here.
  Call(v1::CollisionService::StubInterface& stub, std::string level,
       absl::Time deadline,
       const std::vector<std::pair<std::string, std::string>>& metadata,
       std::function<void(BatchOutcome)> on_response)
      : level_(std::move(level)), on_response_(std::move(on_response)) {
    context_.set_deadline(absl::ToChronoTime(deadline));
    for (const auto& [key, value] : metadata) {
      context_.AddMetadata(key, value);
    }
    stub.async()->StreamQueries(&context_, this);
    AddHold();
    StartRead(&response_);
    StartCall();
  }

  ~Call() override {
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
    if (request.queries().empty() &&
        request.packed_case() == v1::StreamQueriesRequest::PACKED_NOT_SET) {
      return absl::InvalidArgumentError("queries must not be empty");
    }
    request.set_level(level_);
    bool start_write = false;
    uint64_t id = 0;
    {
      absl::MutexLock lock(&mutex_);
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

  // Hands an outcome to the stream (Impl), then retires its batch.
  void Deliver(BatchOutcome outcome) {
    on_response_(std::move(outcome));
    absl::MutexLock lock(&mutex_);
    outstanding_.pop_front();
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
  const std::function<void(BatchOutcome)> on_response_;
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

// The stream as the caller sees it: the window, delivery in order, batch
// ids, and reopening. Holds the current Call and the requests of the
// batches it has not answered yet.
//
// Each Call is a generation; outcomes of a Call that was given up on (a
// reopening replaced it, or the stream ended) are ignored, so every batch
// is delivered exactly once. Sends to a Call are serialized (sending_,
// reopening_) so that its batch ids, which it numbers 1, 2, ... in send
// order, can be predicted and matched to unanswered_.
class QueryStream::Impl {
 public:
  Impl(v1::CollisionService::StubInterface& stub, std::string level,
       QueryStreamOptions options)
      : stub_(stub),
        level_(std::move(level)),
        options_(std::move(options)),
        deadline_(absl::Now() + options_.timeout) {
    if (options_.window < 1) options_.window = 1;
    current_ = NewCall(0);
  }

  // Stops reopening, then cancels the calls (each waits for gRPC).
  ~Impl() {
    std::unique_ptr<Call> current;
    std::vector<std::unique_ptr<Call>> retired;
    {
      absl::MutexLock lock(&mutex_);
      closing_ = true;
      mutex_.Await(absl::Condition(this, &Impl::Settled));
      current = std::move(current_);
      retired = std::move(retired_);
    }
  }

  absl::StatusOr<uint64_t> Send(v1::StreamQueriesRequest request) {
    if (request.queries().empty() &&
        request.packed_case() == v1::StreamQueriesRequest::PACKED_NOT_SET) {
      return absl::InvalidArgumentError("queries must not be empty");
    }
    Call* call = nullptr;
    int generation = 0;
    uint64_t id = 0;
    {
      absl::MutexLock lock(&mutex_);
      auto may_send = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
        return ended_ || half_closed_ ||
               (Settled() &&
                Undelivered() < static_cast<size_t>(options_.window));
      };
      mutex_.Await(absl::Condition(&may_send));
      if (half_closed_) {
        return absl::FailedPreconditionError("the stream was finished");
      }
      if (ended_) return ended_status_;
      id = ++last_batch_id_;
      unanswered_.push_back({id, ++call_sends_, request});
      call = current_.get();
      generation = generation_;
      sending_ = true;
    }
    const absl::StatusOr<uint64_t> sent = call->Send(std::move(request));
    {
      absl::MutexLock lock(&mutex_);
      sending_ = false;
    }
    // The call ended before taking it: its failure, reported below or by
    // its own outcomes, reopens the stream (the batch is resent) or ends it
    // (the batch is delivered with the error).
    if (!sent.ok()) CallFailed(generation, sent.status());
    return id;
  }

  absl::StatusOr<BatchOutcome> Next() {
    absl::MutexLock lock(&mutex_);
    auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
      return !ready_.empty() || (unanswered_.empty() && delivering_ == 0);
    };
    mutex_.Await(absl::Condition(&ready));
    if (ready_.empty()) {
      return absl::FailedPreconditionError("no batch is outstanding");
    }
    BatchOutcome outcome = std::move(ready_.front());
    ready_.pop_front();
    return outcome;
  }

  absl::Status Finish() {
    absl::MutexLock lock(&mutex_);
    half_closed_ = true;
    while (!finished_ && !ended_) {
      mutex_.Await(absl::Condition(this, &Impl::Settled));
      if (ended_) break;
      Call* call = current_.get();
      const int generation = generation_;
      mutex_.Unlock();
      const absl::Status status = call->Finish();
      mutex_.Lock();
      // Unless a reopening or the stream's end replaced the call meanwhile
      // (then go on with what replaced it).
      if (generation == generation_) {
        finished_ = true;
        final_status_ = status;
      }
    }
    auto delivered = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
      return delivering_ == 0;
    };
    mutex_.Await(absl::Condition(&delivered));
    return finished_ ? final_status_ : ended_status_;
  }

  int outstanding() const {
    absl::MutexLock lock(&mutex_);
    return static_cast<int>(Undelivered());
  }

  int reopened() const {
    absl::MutexLock lock(&mutex_);
    return reopened_;
  }

 private:
  struct Unanswered {
    uint64_t batch_id;       // the caller's
    uint64_t call_batch_id;  // the current Call's
    v1::StreamQueriesRequest request;
  };

  std::unique_ptr<Call> NewCall(int generation) {
    return std::make_unique<Call>(stub_, level_, deadline_, options_.metadata,
                                  [this, generation](BatchOutcome outcome) {
                                    OnOutcome(generation, std::move(outcome));
                                  });
  }

  // No send or reopening in progress.
  bool Settled() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    return !sending_ && !reopening_;
  }

  size_t Undelivered() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    return unanswered_.size() + delivering_ + ready_.size();
  }

  // A stream the server ended because it drains or closed its connection:
  // UNAVAILABLE, or CANCELLED when this side did not cancel (closing_).
  static bool Reopenable(const absl::Status& status) {
    return status.code() == absl::StatusCode::kUnavailable ||
           status.code() == absl::StatusCode::kCancelled;
  }

  // An outcome from the Call of `generation` (on a gRPC thread).
  void OnOutcome(int generation, BatchOutcome outcome) {
    if (!outcome.response.ok()) {
      CallFailed(generation, outcome.response.status());
      return;
    }
    {
      absl::MutexLock lock(&mutex_);
      if (generation != generation_) return;
      if (!unanswered_.empty() &&
          unanswered_.front().call_batch_id == outcome.batch_id) {
        outcome.batch_id = unanswered_.front().batch_id;
        unanswered_.pop_front();
        ++delivering_;
        reopens_in_a_row_ = 0;
      } else {
        outcome.batch_id = 0;
      }
    }
    if (outcome.batch_id == 0) {
      // Our bug (the Call checks the order the server answers in).
      CallFailed(generation,
                 absl::InternalError("a stream answer matched no batch"));
      return;
    }
    Deliver(std::move(outcome));
  }

  // The Call of `generation` failed with `status`: reopen, or end the
  // stream delivering every unanswered batch with `status`.
  void CallFailed(int generation, absl::Status status) {
    {
      absl::MutexLock lock(&mutex_);
      if (generation != generation_) return;
      if (reopening_) {
        // The call Reopen is filling: it sees this when it is done.
        reopen_failure_ = status;
        return;
      }
      mutex_.Await(absl::Condition(this, &Impl::Settled));
      if (generation != generation_) return;
      if (!MayReopenLocked(status)) {
        EndLocked(std::move(status));
        mutex_.Unlock();
        DeliverEnded();
        mutex_.Lock();
        return;
      }
      reopening_ = true;
    }
    Reopen();
  }

  bool MayReopenLocked(const absl::Status& status) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    return Reopenable(status) && !closing_ &&
           reopens_in_a_row_ < options_.max_reopens && absl::Now() < deadline_;
  }

  // Opens calls until one takes every unanswered batch (or reopening is no
  // longer allowed). Runs with reopening_ set, which holds Send, Finish and
  // the destructor off.
  void Reopen() {
    Call* failed_first = nullptr;
    {
      absl::MutexLock lock(&mutex_);
      failed_first = current_.get();
    }
    while (true) {
      std::vector<v1::StreamQueriesRequest> resend;
      int generation = 0;
      {
        absl::MutexLock lock(&mutex_);
        generation = ++generation_;
        ++reopened_;
        ++reopens_in_a_row_;
        reopen_failure_ = absl::OkStatus();
        call_sends_ = 0;
        for (Unanswered& batch : unanswered_) {
          batch.call_batch_id = ++call_sends_;
          resend.push_back(batch.request);
        }
      }
      std::unique_ptr<Call> call = NewCall(generation);
      for (v1::StreamQueriesRequest& request : resend) {
        const absl::StatusOr<uint64_t> sent = call->Send(std::move(request));
        if (!sent.ok()) {
          absl::MutexLock lock(&mutex_);
          if (reopen_failure_.ok()) reopen_failure_ = sent.status();
          break;
        }
      }
      // Destroyed outside the lock: every retired call but the one that
      // failed first, whose OnDone may be what runs this.
      std::vector<std::unique_ptr<Call>> gone;
      absl::MutexLock lock(&mutex_);
      retired_.push_back(std::move(current_));
      current_ = std::move(call);
      for (std::unique_ptr<Call>& retired : retired_) {
        if (retired.get() != failed_first) gone.push_back(std::move(retired));
      }
      std::erase(retired_, nullptr);
      if (reopen_failure_.ok()) {
        reopening_ = false;
        return;
      }
      if (!MayReopenLocked(reopen_failure_)) {
        EndLocked(reopen_failure_);
        reopening_ = false;
        mutex_.Unlock();
        DeliverEnded();
        mutex_.Lock();
        return;
      }
    }
  }

  // Ends the stream with `status`: from now on the Calls' outcomes are
  // ignored and every unanswered batch is to be delivered with `status`.
  void EndLocked(absl::Status status) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    ++generation_;
    ended_ = true;
    ended_status_ = std::move(status);
    for (Unanswered& batch : unanswered_) {
      ending_.push_back({batch.batch_id, ended_status_});
    }
    delivering_ += unanswered_.size();
    unanswered_.clear();
  }

  void DeliverEnded() {
    std::deque<BatchOutcome> ending;
    {
      absl::MutexLock lock(&mutex_);
      ending.swap(ending_);
    }
    for (BatchOutcome& outcome : ending) Deliver(std::move(outcome));
  }

  // Hands an outcome to the callback or the Next() queue; the window opens
  // only once the caller has it.
  void Deliver(BatchOutcome outcome) {
    if (options_.on_response) {
      options_.on_response(std::move(outcome));
      absl::MutexLock lock(&mutex_);
      --delivering_;
    } else {
      absl::MutexLock lock(&mutex_);
      --delivering_;
      ready_.push_back(std::move(outcome));
    }
  }

  v1::CollisionService::StubInterface& stub_;
  const std::string level_;
  QueryStreamOptions options_;
  const absl::Time deadline_;

  mutable absl::Mutex mutex_;
  std::unique_ptr<Call> current_ ABSL_GUARDED_BY(mutex_);
  // Calls a reopening replaced. The one whose failure started it may still
  // be in its OnDone (which may be running the reopening), so it is kept
  // until the next reopening or the Impl's end; the others go at once.
  std::vector<std::unique_ptr<Call>> retired_ ABSL_GUARDED_BY(mutex_);
  int generation_ ABSL_GUARDED_BY(mutex_) = 0;
  uint64_t last_batch_id_ ABSL_GUARDED_BY(mutex_) = 0;
  uint64_t call_sends_ ABSL_GUARDED_BY(mutex_) = 0;
  std::deque<Unanswered> unanswered_ ABSL_GUARDED_BY(mutex_);
  // Outcomes being handed to the caller, and those waiting for Next().
  size_t delivering_ ABSL_GUARDED_BY(mutex_) = 0;
  std::deque<BatchOutcome> ready_ ABSL_GUARDED_BY(mutex_);
  std::deque<BatchOutcome> ending_ ABSL_GUARDED_BY(mutex_);
  bool sending_ ABSL_GUARDED_BY(mutex_) = false;
  bool reopening_ ABSL_GUARDED_BY(mutex_) = false;
  absl::Status reopen_failure_ ABSL_GUARDED_BY(mutex_);
  int reopened_ ABSL_GUARDED_BY(mutex_) = 0;
  int reopens_in_a_row_ ABSL_GUARDED_BY(mutex_) = 0;
  bool half_closed_ ABSL_GUARDED_BY(mutex_) = false;
  bool closing_ ABSL_GUARDED_BY(mutex_) = false;
  bool ended_ ABSL_GUARDED_BY(mutex_) = false;
  absl::Status ended_status_ ABSL_GUARDED_BY(mutex_);
  bool finished_ ABSL_GUARDED_BY(mutex_) = false;
  absl::Status final_status_ ABSL_GUARDED_BY(mutex_);
};

QueryStream::QueryStream(v1::CollisionService::StubInterface& stub,
                         std::string level, QueryStreamOptions options)
    : impl_(
          std::make_unique<Impl>(stub, std::move(level), std::move(options))) {}

QueryStream::~QueryStream() = default;

absl::StatusOr<uint64_t> QueryStream::Send(
    absl::Span<const v1::Query> queries) {
  v1::StreamQueriesRequest request;
  request.mutable_queries()->Reserve(static_cast<int>(queries.size()));
  for (const v1::Query& query : queries) *request.add_queries() = query;
  return impl_->Send(std::move(request));
}

absl::StatusOr<uint64_t> QueryStream::Send(v1::StreamQueriesRequest request) {
  return impl_->Send(std::move(request));
}

absl::StatusOr<BatchOutcome> QueryStream::Next() { return impl_->Next(); }

absl::Status QueryStream::Finish() { return impl_->Finish(); }

int QueryStream::outstanding() const { return impl_->outstanding(); }

int QueryStream::reopened() const { return impl_->reopened(); }

}  // namespace collide::client
