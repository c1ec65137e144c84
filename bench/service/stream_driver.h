// A client side of a bidi stream for benchmarks: keeps up to `window`
// batches in flight on one stream (closed loop), or sends when a pacer
// says so (open loop), and records each batch's latency. Works for any
// service whose stream answers every request with one response, in order
// (CollisionService.StreamQueries and the echo stream).
//
// Each response is read into a message on the driver's arena, dropped at
// once when the next read starts: what a client that cares about speed
// does with many-result responses (a reused heap message still frees and
// reallocates every result's sub-messages, because clearing a oneof
// deletes them). The client shares the cores with the server here, so its
// allocator churn would count against the service.
//
// gRPC rules (docs/architecture.md): one outstanding read and one outstanding
// write; StartWritesDone only after the last OnWriteDone. Reactions may run
// concurrently, so state is guarded, and Start* calls are made after
// releasing the lock.
#ifndef COLLIDE_BENCH_SERVICE_STREAM_DRIVER_H_
#define COLLIDE_BENCH_SERVICE_STREAM_DRIVER_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "google/protobuf/arena.h"
#include "grpcpp/grpcpp.h"

namespace collide_bench {

using BenchClock = std::chrono::steady_clock;

template <typename Request, typename Response>
class StreamDriver : public grpc::ClientBidiReactor<Request, Response> {
 public:
  // Starts the call: `start(context, reactor)` is the stub's
  // async()->Method(context, reactor). Requests are sent in turn from
  // `requests` (kept alive by the caller). `check(response)` is called on
  // every response and returns false on a bad one (counted as an error).
  template <typename StartFn>
  StreamDriver(StartFn start, const std::vector<Request>& requests,
               std::function<bool(const Response&)> check)
      : requests_(requests),
        check_(std::move(check)),
        block_(std::make_unique_for_overwrite<char[]>(kArenaBlockBytes)),
        arena_(ArenaOptionsFor(block_.get())),
        response_(NewResponse()) {
    start(&context_, this);
    this->StartRead(response_);
    this->StartCall();
  }

  // Sends one request now (or as soon as the write in progress ends);
  // `sent_at` is when it was due (open loop: the scheduled time, so queueing
  // delay counts in the latency).
  void Send(BenchClock::time_point sent_at) {
    const Request* write = nullptr;
    {
      absl::MutexLock lock(&mutex_);
      if (closing_) return;
      sent_times_.push_back(sent_at);
      ++unwritten_;
      write = TakeWriteLocked();
    }
    if (write != nullptr) this->StartWrite(write);
  }

  // Closed loop: keep `window` batches in flight, each answer sending the
  // next one, until Stop().
  void RunClosedLoop(int window) {
    {
      absl::MutexLock lock(&mutex_);
      refill_ = true;
    }
    for (int i = 0; i < window; ++i) Send(BenchClock::now());
  }

  // No new sends; once every batch in flight is answered the stream is
  // closed. Wait() then returns.
  void Stop() {
    bool writes_done = false;
    {
      absl::MutexLock lock(&mutex_);
      refill_ = false;
      closing_ = true;
      writes_done = TakeWritesDoneLocked();
    }
    if (writes_done) this->StartWritesDone();
  }

  // Blocks until the call has finished; returns its status.
  grpc::Status Wait() {
    absl::MutexLock lock(&mutex_);
    mutex_.Await(absl::Condition(&done_));
    return status_;
  }

  // Latencies (seconds) of answered batches, and counts, since the start or
  // the last ResetStats().
  std::vector<double> latencies() {
    absl::MutexLock lock(&mutex_);
    return latencies_;
  }
  int64_t answered() {
    absl::MutexLock lock(&mutex_);
    return answered_;
  }
  int64_t errors() {
    absl::MutexLock lock(&mutex_);
    return errors_;
  }
  void ResetStats() {
    absl::MutexLock lock(&mutex_);
    latencies_.clear();
    answered_ = 0;
  }

  void OnWriteDone(bool ok) override {
    const Request* write = nullptr;
    bool writes_done = false;
    {
      absl::MutexLock lock(&mutex_);
      writing_ = false;
      if (!ok) {
        ++errors_;
        return;
      }
      write = TakeWriteLocked();
      if (write == nullptr) writes_done = TakeWritesDoneLocked();
    }
    if (write != nullptr) this->StartWrite(write);
    if (writes_done) this->StartWritesDone();
  }

  void OnReadDone(bool ok) override {
    if (!ok) return;  // the stream ended; OnDone follows
    const BenchClock::time_point now = BenchClock::now();
    const bool good = check_(*response_);
    bool send_next = false;
    bool writes_done = false;
    {
      absl::MutexLock lock(&mutex_);
      if (!good) ++errors_;
      if (!sent_times_.empty()) {
        latencies_.push_back(
            std::chrono::duration<double>(now - sent_times_.front()).count());
        sent_times_.pop_front();
      }
      ++answered_;
      send_next = refill_;
      if (!send_next) writes_done = TakeWritesDoneLocked();
    }
    // Only the one outstanding read touches the arena: dropping the
    // response just checked before the next read is safe.
    arena_.Reset();
    response_ = NewResponse();
    this->StartRead(response_);
    if (send_next) Send(BenchClock::now());
    if (writes_done) this->StartWritesDone();
  }

  void OnDone(const grpc::Status& status) override {
    absl::MutexLock lock(&mutex_);
    status_ = status;
    done_ = true;
  }

 private:
  // A 256-query response needs well under this; bigger ones take more
  // blocks, freed by the reset.
  static constexpr size_t kArenaBlockBytes = size_t{512} << 10;

  static google::protobuf::ArenaOptions ArenaOptionsFor(char* block) {
    google::protobuf::ArenaOptions options;
    options.initial_block = block;
    options.initial_block_size = kArenaBlockBytes;
    options.max_block_size = kArenaBlockBytes;
    return options;
  }
  Response* NewResponse() {
    return google::protobuf::Arena::CreateMessage<Response>(&arena_);
  }

  const Request* TakeWriteLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    if (writing_ || unwritten_ == 0) return nullptr;
    writing_ = true;
    --unwritten_;
    return &requests_[next_request_++ % requests_.size()];
  }
  // True once, when closing and nothing is in flight or being written.
  bool TakeWritesDoneLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    if (!closing_ || writes_done_ || writing_ || unwritten_ > 0 ||
        !sent_times_.empty()) {
      return false;
    }
    writes_done_ = true;
    return true;
  }

  grpc::ClientContext context_;
  const std::vector<Request>& requests_;
  std::function<bool(const Response&)> check_;
  // Only the one outstanding read touches these.
  std::unique_ptr<char[]> block_;
  google::protobuf::Arena arena_;
  Response* response_;

  absl::Mutex mutex_;
  std::deque<BenchClock::time_point> sent_times_ ABSL_GUARDED_BY(mutex_);
  size_t next_request_ ABSL_GUARDED_BY(mutex_) = 0;
  int unwritten_ ABSL_GUARDED_BY(mutex_) = 0;
  bool writing_ ABSL_GUARDED_BY(mutex_) = false;
  bool refill_ ABSL_GUARDED_BY(mutex_) = false;
  bool closing_ ABSL_GUARDED_BY(mutex_) = false;
  bool writes_done_ ABSL_GUARDED_BY(mutex_) = false;
  std::vector<double> latencies_ ABSL_GUARDED_BY(mutex_);
  int64_t answered_ ABSL_GUARDED_BY(mutex_) = 0;
  int64_t errors_ ABSL_GUARDED_BY(mutex_) = 0;
  bool done_ ABSL_GUARDED_BY(mutex_) = false;
  grpc::Status status_ ABSL_GUARDED_BY(mutex_);
};

}  // namespace collide_bench

#endif  // COLLIDE_BENCH_SERVICE_STREAM_DRIVER_H_
