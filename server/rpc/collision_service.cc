#include "server/rpc/collision_service.h"

#include <malloc.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "collide/v1/collision_service.pb.h"
#include "google/protobuf/arena.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/support/proto_buffer_reader.h"
#include "proto/formats/input_limits.h"
#include "server/levels/level_snapshot.h"
#include "server/levels/level_store.h"
#include "server/ops/log.h"
#include "server/ops/server_metrics.h"
#include "server/rpc/call_budget.h"
#include "server/rpc/message_bytes.h"
#include "server/rpc/query_handler.h"
#include "server/rpc/status_convert.h"
#include "server/rpc/stream_batch.h"
#include "server/rpc/worker_pool.h"

namespace collide::server {
namespace {

using StreamRequest = v1::StreamQueriesRequest;
using StreamResponse = v1::StreamQueriesResponse;

// Batches read but not yet written beyond which a stream stops reading: a
// client that sends faster than it reads is slowed down by flow control
// instead of growing the server's memory. Several in flight per stream
// keep the pipeline and the workers busy; past 2-4 per stream more only
// add latency.
constexpr size_t kMaxQueuedBatches = 8;

// Emptied batches a stream keeps for its next reads, beside the one being
// read into: each keeps at most StreamBatch::kMaxKeptBytes.
constexpr size_t kMaxSpareBatches = 2;

// Freed memory is given back to the system (NoteFreed) each time calls
// that ended and big batches answered have freed this many bytes: glibc keeps
// the freed pages of its heaps for reuse, and RSS would stay at the peak.
constexpr int64_t kTrimAfterBytes = int64_t{16} << 20;

// What a call costs gRPC beside the bytes it charges (its call arena,
// metadata, stream state), counted towards kTrimAfterBytes when it ends.
constexpr int64_t kCallOverheadBytes = int64_t{16} << 10;

// What a stream reserves before each read at least, in one step with the
// budget's room check (CallBudget::Ticket::Reserve), beside what building
// its last answer cost: the request's bytes, and what is left of it the
// answer's first bytes (AnswerCharge's advance). A request bigger than the
// reservation is charged the difference once it has been read. Small
// enough that --max_streams idle streams, each with a read outstanding,
// hold far less than the default budgets.
constexpr int64_t kReadReserveBytes = int64_t{64} << 10;

// Queries a worker answers between two chances to run another waiting job
// (WorkerPool::YieldSlice), counted in stop checks.
constexpr int kStopChecksPerSlice = 64 / kQueriesPerStopCheck;

// Batches of at most this many queries are answered in the reaction itself
// (a few microseconds of geometry); bigger ones on the worker pool.
constexpr int kMaxInlineQueries = 16;

// Requests of more bytes than this (about a hundred ray queries) are parsed
// on the worker that answers them, not in the reaction that read them.
constexpr int64_t kMaxParseHereBytes = 2048;

// StreamQueriesRequest's `level` field number.
constexpr int kRequestLevelField = 1;

// Whether the call a batch belongs to is still worth answering: its
// deadline not passed and it not cancelled (the client gone, or the server
// shutting down past its grace). A batch asks between queries
// (query_handler.h), so neither an expired call nor a shutdown waits for a
// big batch of expensive queries to finish.
// `deadline` is context->deadline(), read once per batch: converting it
// from gRPC's clock costs as much as the rest of a check.
absl::Status CallStopStatus(grpc::CallbackServerContext* context,
                            std::chrono::system_clock::time_point deadline,
                            const std::atomic<bool>& server_stopping) {
  if (server_stopping.load(std::memory_order_relaxed)) {
    return absl::CancelledError("the server is shutting down");
  }
  if (std::chrono::system_clock::now() >= deadline) {
    return absl::DeadlineExceededError("the call's deadline passed");
  }
  if (context->IsCancelled()) {
    return absl::CancelledError(
        "the call was cancelled (the client went away, or the server is "
        "shutting down)");
  }
  return absl::OkStatus();
}

// Our bugs only: a client's bad input is answered, not logged, so a
// misbehaving client cannot flood the log.
void LogIfInternal(const absl::Status& status, const char* what) {
  if (status.code() == absl::StatusCode::kInternal ||
      status.code() == absl::StatusCode::kUnknown) {
    LogAt(LogSeverity::kError, {{"method", what}, {"status", status}},
          "%s failed: %s", what, LogValue(status));
  }
}

// Gives memory freed since back to the system, on a worker (malloc_trim
// walks every heap, a few ms on a big one): at most one queued at a time.
std::atomic<bool> trim_queued{false};
std::atomic<int64_t> released_since_trim{0};

// Counts `bytes` freed (a call ended, or a big batch's arena dropped) and
// trims once kTrimAfterBytes have been freed since the last trim.
void NoteFreed(int64_t bytes, WorkerPool& workers) {
  if (released_since_trim.fetch_add(bytes) + bytes < kTrimAfterBytes) return;
  released_since_trim.store(0);
  if (trim_queued.exchange(true)) return;
  workers.Submit([] {
    trim_queued.store(false);
    malloc_trim(0);
  });
}

// Called as a call ends having held `peak_bytes` at most: a stream also
// counts kCallOverheadBytes, a unary call (which many clients make by the
// thousand) only its bytes.
void NoteCallEnded(int64_t peak_bytes, bool stream, WorkerPool& workers) {
  NoteFreed(peak_bytes + (stream ? kCallOverheadBytes : 0), workers);
}

// The level a stream batch runs on, looked up as the batch is read: batches
// of one stream are answered in parallel, and taking each snapshot in read
// order means a later batch never sees an older version than an earlier
// one.
using SnapshotOrError = absl::StatusOr<std::shared_ptr<const LevelSnapshot>>;

// The StopCheck of a batch answered on `arena`: before the first query and
// then every slice of kStopChecksPerSlice checks, the answer's growth is
// charged to `charge` (a spent budget stops the batch: its other queries
// get RESOURCE_EXHAUSTED naming the flag) and, on a worker (`workers` not
// null), the batch gives way to other waiting jobs; every check asks
// CallStopStatus.
template <typename ArenaBytes>
absl::Status SliceCheck(int& checks, ArenaBytes arena_bytes,
                        AnswerCharge& charge, WorkerPool* workers,
                        grpc::CallbackServerContext* context,
                        std::chrono::system_clock::time_point deadline,
                        const std::atomic<bool>& server_stopping) {
  if (checks++ % kStopChecksPerSlice == 0) {
    if (workers != nullptr && checks > 1) workers->YieldSlice();
    if (absl::Status room = charge.Update(arena_bytes()); !room.ok()) {
      return room;
    }
  }
  return CallStopStatus(context, deadline, server_stopping);
}

// Answers one stream batch into its response: the handler's results, or
// the batch refused as a whole (the stream stays open either way), its
// growth charged to `charge` (SliceCheck) and the whole of it once done.
// Then records it, read at `read_at` and counted in flight since
// (metrics).
void AnswerBatch(const SnapshotOrError& snapshot,
                 const formats::InputLimits& limits,
                 grpc::CallbackServerContext* context,
                 const std::atomic<bool>& server_stopping, StreamBatch& batch,
                 std::chrono::steady_clock::time_point read_at,
                 AnswerCharge& charge, WorkerPool* workers) {
  const StreamRequest& request = *batch.request();
  int checks = 0;
  // The snapshot pointer is held for the whole batch: a put meanwhile
  // swaps the store's entry, not the level these queries run on.
  if (!snapshot.ok()) {
    RefuseBatch(request, snapshot.status(), batch.response());
  } else if (absl::Status s = AnswerStreamQueries(
                 **snapshot, request, limits, batch.response(),
                 [&, deadline = context->deadline()] {
                   return SliceCheck(
                       checks, [&] { return batch.space_allocated(); }, charge,
                       workers, context, deadline, server_stopping);
                 });
             !s.ok()) {
    LogIfInternal(s, "StreamQueries batch");
    RefuseBatch(request, s, batch.response());
  }
  charge.Finish(batch.space_allocated());
  RecordBatch(request, *batch.response(), read_at);
  Metrics().batches_in_flight.Add(-1);
}

// One StreamQueries call. gRPC allows one outstanding read and one
// outstanding write. Each batch read gets a slot at the back of the queue
// before the next read starts, so responses keep request order even though
// the workers answer batches in parallel; the front slot is written once
// it is ready. Reactions and workers run concurrently, so the queue and
// flags are guarded, and Start* / Finish calls are made after releasing the
// lock (gRPC may run a reaction inline from them).
//
// Each batch is read into and answered in a StreamBatch (its own arena),
// then serialized into its slot's bytes where it was answered (a worker for
// a big batch, so gRPC's event threads never serialize one), and the batch
// is emptied for a later read. What waits to be written is the answer's
// bytes only. Everything is charged to the call's CallBudget ticket: each
// read reserves kReadReserveBytes before it starts, and starts only if the
// budget has room (and fewer than kMaxQueuedBatches are queued), so a
// caller that does not read is held by flow control instead of growing the
// server's memory; the request from the read until its answer is written;
// the answer as it is built (AnswerCharge), then its bytes until written.
//
// The call is registered raw (bytes in, bytes out) and the reactor parses
// and serializes the messages itself, exactly as gRPC would, for one
// reason: a message that does not parse then ends the stream with
// INVALID_ARGUMENT saying so, where gRPC's typed read reports it like the
// client closing its side (and the stream would end OK).
//
// Owned by itself (self_) until OnDone, and by the budget's wake-ups while
// they run, so a wake-up racing with the end of the call is harmless.
class QueryStreamReactor final
    : public grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer>,
      public BudgetWaiter,
      public std::enable_shared_from_this<QueryStreamReactor> {
 public:
  // Starts the call; returns the reactor gRPC drives. `context` is the
  // call's; it lives until OnDone, and so outlives every batch the workers
  // answer for it.
  static QueryStreamReactor* Start(grpc::CallbackServerContext* context,
                                   const LevelStore& store,
                                   const formats::InputLimits& limits,
                                   WorkerPool& workers,
                                   const std::atomic<bool>& stopping,
                                   const std::atomic<bool>& draining,
                                   std::unique_ptr<CallBudget::Ticket> ticket) {
    auto reactor = std::make_shared<QueryStreamReactor>(
        context, store, limits, workers, stopping, draining, std::move(ticket));
    reactor->self_ = reactor;
    // The first read, once its reservation fits the budget.
    reactor->Step([]() {});
    return reactor.get();
  }

  QueryStreamReactor(grpc::CallbackServerContext* context,
                     const LevelStore& store,
                     const formats::InputLimits& limits, WorkerPool& workers,
                     const std::atomic<bool>& stopping,
                     const std::atomic<bool>& draining,
                     std::unique_ptr<CallBudget::Ticket> ticket)
      : context_(context),
        stopping_(stopping),
        draining_(draining),
        store_(store),
        limits_(limits),
        workers_(workers),
        ticket_(std::move(ticket)),
        reading_(std::make_unique<StreamBatch>()) {
    Metrics().streams_open.Add(1);
  }

  void OnReadDone(bool ok) override {
    // What was reserved before this read (MayResumeRead); only the read
    // path touches it, one read at a time.
    const int64_t reserved = read_reserved_;
    read_reserved_ = 0;
    if (!ok) {
      // The client closed its side (or the call is gone): finish once
      // every queued response is written.
      ticket_->Charge(-reserved);
      Step([this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
        reads_done_ = true;
        read_paused_ = true;  // no read outstanding
      });
      return;
    }
    ++messages_read_;
    // The request's bytes count from now until its answer is written; what
    // the reservation holds beyond them is the answer's advance.
    const int64_t request_bytes = static_cast<int64_t>(read_buffer_.Length());
    ticket_->Charge(std::max<int64_t>(request_bytes - reserved, 0));
    const int64_t spare_reserve =
        std::max<int64_t>(reserved - request_bytes, 0);
    // A big request is parsed by the worker that answers it: parsing one
    // costs about as much as a millisecond here, on one of the few threads
    // that also read every other caller's messages. Only its level is read
    // now, so that the level is still looked up in read order. A budget
    // already spent refuses the batch here, which needs it parsed.
    std::string level;
    grpc::ByteBuffer unparsed;
    bool deferred = false;
    AnswerCharge charge(*ticket_, spare_reserve);
    absl::Status room = absl::OkStatus();
    if (request_bytes > kMaxParseHereBytes &&
        ReadTopLevelString(read_buffer_, kRequestLevelField, &level)) {
      room = charge.Update(reading_->space_allocated());
      if (room.ok()) {
        unparsed.Swap(&read_buffer_);
        deferred = true;
      }
    }
    if (!deferred && !ParseRequest(read_buffer_, *reading_)) {
      // Answers to the batches before it still go out, then the stream
      // ends with this status.
      read_buffer_.Clear();
      reading_->Reset();
      ticket_->Charge(-request_bytes - charge.charged());
      absl::Status refusal = ParseRefusal(messages_read_);
      Step([&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
        reads_done_ = true;
        read_paused_ = true;
        end_status_ = std::move(refusal);
      });
      return;
    }
    // The batch just read; only this reaction touches reading_ until the
    // next read is started below (or by Step, under the lock).
    std::unique_ptr<StreamBatch> batch = std::move(reading_);
    const std::chrono::steady_clock::time_point read_at =
        std::chrono::steady_clock::now();
    Metrics().batches_in_flight.Add(1);
    // The parsed request is charged with the answer (it is on the same
    // arena); a budget spent by then refuses the batch as a whole, so no
    // parsed batch waits for a worker uncharged.
    read_buffer_.Clear();
    if (!deferred) {
      level = batch->request()->level();
      room = charge.Update(batch->space_allocated());
    }
    // A small batch costs less than the hand-off to a worker (a wake-up
    // and a context switch on a busy machine), so it is answered right
    // here, as is a refused one; only big batches go to the workers.
    const bool answer_here =
        !room.ok() ||
        (!deferred && BatchQueryCount(*batch->request()) <= kMaxInlineQueries);
    SnapshotOrError snapshot =
        room.ok() ? FindLevel(store_, level, "level") : SnapshotOrError(room);
    grpc::ByteBuffer answer;
    int64_t answer_needed = 0;
    if (answer_here) {
      AnswerBatch(snapshot, limits_, context_, stopping_, *batch, read_at,
                  charge, nullptr);
      Serialize(*batch->response(), &answer);
      answer_needed = charge.needed();
      // The answer replaces the request and what building it was charged;
      // the batch's arena goes as it is kept for a later read (below).
      ticket_->Charge(static_cast<int64_t>(answer.Length()) - request_bytes -
                      charge.charged());
    }
    // What the slot charges until a worker has answered it: the request,
    // and its parsed form and the answer's advance.
    const int64_t charged_at_read = request_bytes + charge.charged();
    // The change in the blocks kept by idle batches (KeptBytes).
    int64_t kept_delta = 0;
    Slot* slot = nullptr;
    bool read_more = false;
    bool wait_for_room = false;
    {
      absl::MutexLock lock(&mutex_);
      // After Finish nothing may touch the reactor from a worker.
      if (finished_) return;
      queue_.push_back({.bytes = std::move(answer),
                        .charge = answer_here ? 0 : request_bytes,
                        .ready = answer_here});
      slot = &queue_.back();
      if (answer_here) {
        slot->charge = static_cast<int64_t>(slot->bytes.Length());
        NoteAnswer(answer_needed);
        KeepSpare(std::move(batch));
      } else {
        slot->charge = charged_at_read;
        ++pending_jobs_;
      }
      reading_ = TakeSpare();
      kept_delta = KeptBytes() - kept_charged_;
      kept_charged_ += kept_delta;
      if (draining_.load(std::memory_order_relaxed) && !reads_done_) {
        // The server drains: this batch is the last one read; once the
        // batches read are answered, the stream ends with UNAVAILABLE and
        // the client resends the rest on a new stream, on another replica,
        // instead of waiting out the grace to be cancelled.
        reads_done_ = true;
        end_status_ = absl::UnavailableError(
            "the server is draining: batches not answered on this stream "
            "were not read; send them on a new stream");
      }
      read_paused_ = true;
      read_more = MayResumeRead(wait_for_room);
    }
    if (answer_here) {
      Step([]() {});  // writes it if it is at the front
    } else {
      // The slot stays put until it is written, which waits for ready.
      workers_.Submit([this, slot, batch = std::move(batch),
                       snapshot = std::move(snapshot), read_at, request_bytes,
                       charged_at_read, deferred,
                       unparsed = std::move(unparsed), level = std::move(level),
                       message = messages_read_]() mutable {
        if (deferred) {
          const bool parsed = ParseRequest(unparsed, *batch);
          unparsed.Clear();
          if (!parsed) {
            EndBeforeSlot(slot, message, charged_at_read);
            return;
          }
          // The level read ahead is the one parsed, as both take the
          // field's last occurrence; looked up again should they differ.
          if (batch->request()->level() != level) {
            snapshot = FindLevel(store_, batch->request()->level(), "level");
          }
        }
        AnswerCharge building(*ticket_, charged_at_read - request_bytes);
        AnswerBatch(snapshot, limits_, context_, stopping_, *batch, read_at,
                    building, &workers_);
        grpc::ByteBuffer bytes;
        Serialize(*batch->response(), &bytes);
        const int64_t answer_bytes = static_cast<int64_t>(bytes.Length());
        // The messages are done with; a big batch's arena is given back now
        // rather than kept by the allocator while the answer waits.
        const int64_t built = batch->space_allocated();
        batch->Reset();
        if (built >= kTrimAfterBytes / 4) NoteFreed(built, workers_);
        ticket_->Charge(answer_bytes - request_bytes - building.charged());
        Step([&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
          slot->bytes = std::move(bytes);
          slot->charge = answer_bytes;
          slot->ready = true;
          NoteAnswer(building.needed());
          --pending_jobs_;
          // The block the batch keeps, charged before the call may finish
          // (positive: wakes no one, so safe under the lock). Not from
          // KeptBytes(): a read may be under way, reading_ moved out.
          const int64_t kept = KeepSpare(std::move(batch));
          kept_charged_ += kept;
          ticket_->Charge(kept);
        });
      });
    }
    ticket_->Charge(kept_delta);
    if (wait_for_room) ticket_->WaitForRoom(weak_from_this());
    // The slot is queued above, so whatever is read next lands behind it.
    if (read_more) StartRead(&read_buffer_);
  }

  void OnWriteDone(bool ok) override {
    int64_t written = 0;
    Step([&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
      writing_ = false;
      written = queue_.front().charge;
      queue_.pop_front();
      // A failed write means the client is gone or cancelled: nothing more
      // can be sent, so stop reading and writing and finish once no worker
      // still holds a slot.
      if (!ok) failed_ = true;
    });
    // After Step: releasing may wake other streams, and this one resumes
    // through OnRoom.
    ticket_->Charge(-written);
  }

  // The client went away or the server is past its grace. A stream paused
  // for the budget has no read or write outstanding to fail, so it ends
  // here instead of holding its stream slot until the budget has room.
  void OnCancel() override {
    Step([this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) { failed_ = true; });
  }

  // The budget has room again (CallBudget::WaitForRoom).
  void OnRoom() override {
    Step([this]()
             ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) { waiting_room_ = false; });
  }

  void OnDone() override {
    Metrics().streams_open.Add(-1);
    // The last owner, unless a step or a wake-up still runs on another
    // thread: the reactor, and its ticket, go when that one returns.
    std::shared_ptr<QueryStreamReactor> self = std::move(self_);
  }

  // The ticket, a member, gives back its bytes and its stream slot after
  // this.
  ~QueryStreamReactor() override {
    NoteCallEnded(ticket_->peak_charged(), /*stream=*/true, workers_);
  }

 private:
  struct Slot {
    // The answer, serialized, once ready.
    grpc::ByteBuffer bytes;
    // What the slot has charged to the ticket: its request's bytes until
    // it is answered, then its answer's.
    int64_t charge = 0;
    bool ready = false;
    // The request did not parse: the stream ends here, with end_status_,
    // and the batches read after it are dropped unanswered.
    bool ends_stream = false;
  };

  // Parses `bytes` into `batch`'s request, as gRPC's own deserialization
  // does (SerializationTraits), onto the batch's arena.
  static bool ParseRequest(grpc::ByteBuffer& bytes, StreamBatch& batch) {
    grpc::ProtoBufferReader reader(&bytes);
    return batch.request()->ParseFromZeroCopyStream(&reader);
  }

  static absl::Status ParseRefusal(int64_t message) {
    return absl::InvalidArgumentError(
        absl::StrCat("StreamQueries message ", message,
                     " does not parse as a collide.v1.StreamQueriesRequest "
                     "(protobuf binary); the stream is closed"));
  }

  // A worker found that message number `message` does not parse: its slot
  // becomes the end of the stream (Step), and what it charged is given back.
  void EndBeforeSlot(Slot* slot, int64_t message, int64_t charged) {
    Metrics().batches_in_flight.Add(-1);
    ticket_->Charge(-charged);
    absl::Status refusal = ParseRefusal(message);
    Step([&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
      slot->charge = 0;
      slot->ready = true;
      slot->ends_stream = true;
      --pending_jobs_;
      reads_done_ = true;
      end_status_ = std::move(refusal);
    });
  }

  // Serializes `response`; only one over 2 GiB fails: our bug.
  static void Serialize(const StreamResponse& response,
                        grpc::ByteBuffer* bytes) {
    if (absl::Status s = SerializeToByteBuffer(response, bytes); !s.ok()) {
      Log("StreamQueries response failed: %s", LogValue(s.message()));
    }
  }

  // Learns what building an answer costs (AnswerCharge::needed) from an
  // answered batch: the next read reserves as much.
  void NoteAnswer(int64_t build_bytes) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    last_build_bytes_ = build_bytes;
    answered_any_ = true;
  }

  // Keeps an answered batch, emptied, for a later read.
  // Returns the bytes of the block it keeps (0 when it drops the batch).
  int64_t KeepSpare(std::unique_ptr<StreamBatch> batch)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    if (spare_.size() >= kMaxSpareBatches) return 0;
    batch->Reset();
    const auto kept = static_cast<int64_t>(batch->kept_bytes());
    spare_.push_back(std::move(batch));
    return kept;
  }

  // The blocks the idle batches keep for reuse (reading_ and spare_): real
  // memory a stream holds between batches, charged to its ticket
  // (kept_charged_) as batches are kept and at each read. Only the read
  // path calls it: reading_ is moved out while a read is handled.
  int64_t KeptBytes() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    int64_t kept = static_cast<int64_t>(reading_->kept_bytes());
    for (const std::unique_ptr<StreamBatch>& batch : spare_) {
      kept += static_cast<int64_t>(batch->kept_bytes());
    }
    return kept;
  }

  // A kept batch, or a new one.
  std::unique_ptr<StreamBatch> TakeSpare()
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    if (spare_.empty()) return std::make_unique<StreamBatch>();
    std::unique_ptr<StreamBatch> batch = std::move(spare_.back());
    spare_.pop_back();
    return batch;
  }

  // Whether a paused read may start now (it then clears read_paused_): not
  // done, not failed, fewer than kMaxQueuedBatches queued, no batch being
  // answered before the first answer, and the budget has room for
  // kReadReserveBytes and what the last answer cost to build, reserved
  // for the read (read_reserved_); a stream with nothing else in flight
  // takes what room there is, so a batch bigger than the budget still
  // runs (and is cut short as it outgrows it). Sets `wait_for_room` when
  // a spent budget is in the way and no wake-up is asked for yet (the
  // caller asks, after the lock).
  bool MayResumeRead(bool& wait_for_room)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    // Until one answer shows how big answers get, one batch at a time.
    if (!read_paused_ || reads_done_ || failed_ ||
        queue_.size() >= kMaxQueuedBatches || waiting_room_ ||
        (!answered_any_ && pending_jobs_ > 0)) {
      return false;
    }
    const CallBudget::Ticket::Reservation reserved =
        ticket_->Reserve(kReadReserveBytes + last_build_bytes_,
                         /*partial=*/queue_.empty() && pending_jobs_ == 0);
    if (reserved.bytes == 0) {
      // A spent budget wakes the stream when it has room again; too little
      // room for a stream with work in flight waits for that work, whose
      // end (a job done, a write done) steps the stream again.
      if (reserved.spent) waiting_room_ = wait_for_room = true;
      return false;
    }
    read_reserved_ = reserved.bytes;
    read_paused_ = false;
    return true;
  }

  // Applies `change` under the lock, then does what the new state calls
  // for: write the front slot if it is ready, resume a paused read, or
  // finish the call.
  //
  // Start* calls are made after the lock is released, so the call must
  // not finish meanwhile: a failed stream finishes only with no read, no
  // write and no job outstanding. The reactor itself is held for the step:
  // a finish on another thread may run OnDone before this one returns.
  template <typename Change>
  void Step(Change&& change) {
    const std::shared_ptr<QueryStreamReactor> keep = shared_from_this();
    grpc::ByteBuffer* write = nullptr;
    bool read_more = false;
    bool wait_for_room = false;
    bool finish = false;
    absl::Status status;
    int64_t released = 0;
    {
      absl::MutexLock lock(&mutex_);
      change();
      if (finished_) return;
      if (failed_) {
        // Workers still write into slots, and a read started by another
        // step still completes: only finish once they are done.
        if (pending_jobs_ == 0 && !writing_ && read_paused_) {
          finished_ = finish = true;
          status = absl::CancelledError("stream cancelled or a write failed");
        }
      } else {
        if (!writing_ && !queue_.empty() && queue_.front().ready) {
          if (!queue_.front().ends_stream) {
            writing_ = true;
            write = &queue_.front().bytes;
          } else if (pending_jobs_ == 0 && read_paused_) {
            // Nothing holds a slot any more: drop the rest.
            for (const Slot& dropped : queue_) released += dropped.charge;
            queue_.clear();
          }
        }
        read_more = MayResumeRead(wait_for_room);
        if (reads_done_ && !writing_ && queue_.empty()) {
          finished_ = finish = true;
          status = end_status_;
        }
      }
    }
    // Released after the lock: it may wake other streams.
    if (released != 0) ticket_->Charge(-released);
    // One write is outstanding at a time; the slot stays until it is done.
    if (write != nullptr) StartWrite(write);
    if (wait_for_room) ticket_->WaitForRoom(weak_from_this());
    if (read_more) StartRead(&read_buffer_);
    if (finish) Finish(ToGrpcStatus(status));
  }

  grpc::CallbackServerContext* const context_;
  // The service's StopBatches and Drain flags.
  const std::atomic<bool>& stopping_;
  const std::atomic<bool>& draining_;
  const LevelStore& store_;
  const formats::InputLimits& limits_;
  WorkerPool& workers_;
  std::unique_ptr<CallBudget::Ticket> ticket_;
  std::shared_ptr<QueryStreamReactor> self_;

  // The outstanding read's bytes, parsed in OnReadDone (only it and the
  // start touch them).
  grpc::ByteBuffer read_buffer_;
  int64_t messages_read_ = 0;
  // What the outstanding read reserved: set (under the lock) before the
  // read starts, taken by its OnReadDone.
  int64_t read_reserved_ = 0;

  absl::Mutex mutex_;
  // The batch the outstanding read fills. Replaced (under the lock) only in
  // OnReadDone, before the next read can start.
  std::unique_ptr<StreamBatch> reading_;
  // Batches in request order; the front is being written while writing_.
  // A deque, so adding slots at the back moves none of the others.
  std::deque<Slot> queue_ ABSL_GUARDED_BY(mutex_);
  // Answered batches kept for later reads (at most kMaxSpareBatches).
  std::vector<std::unique_ptr<StreamBatch>> spare_ ABSL_GUARDED_BY(mutex_);
  int pending_jobs_ ABSL_GUARDED_BY(mutex_) = 0;
  // KeptBytes() as last charged.
  int64_t kept_charged_ ABSL_GUARDED_BY(mutex_) = 0;
  // What building the last answer cost (NoteAnswer), and whether any batch
  // was answered yet.
  int64_t last_build_bytes_ ABSL_GUARDED_BY(mutex_) = 0;
  bool answered_any_ ABSL_GUARDED_BY(mutex_) = false;
  bool writing_ ABSL_GUARDED_BY(mutex_) = false;
  // No read outstanding: the last one completed and the next is not
  // started (queue full, budget spent, reads done, or not yet got to); so
  // before the first.
  bool read_paused_ ABSL_GUARDED_BY(mutex_) = true;
  // A budget wake-up is asked for and has not come.
  bool waiting_room_ ABSL_GUARDED_BY(mutex_) = false;
  bool reads_done_ ABSL_GUARDED_BY(mutex_) = false;
  bool failed_ ABSL_GUARDED_BY(mutex_) = false;
  bool finished_ ABSL_GUARDED_BY(mutex_) = false;
  // What the stream ends with once every response is written: OK, or why
  // reading stopped early.
  absl::Status end_status_ ABSL_GUARDED_BY(mutex_);
};

// A StreamQueries call refused at once (a stream limit reached): it ends
// with `status` and reads nothing. What gRPC held for it counts towards
// the next trim: a caller opening streams past the limit by the thousand
// otherwise leaves their memory with the allocator.
class RefusedStreamReactor final
    : public grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer> {
 public:
  RefusedStreamReactor(const absl::Status& status, WorkerPool& workers)
      : workers_(workers) {
    Finish(ToGrpcStatus(status));
  }
  void OnDone() override {
    NoteCallEnded(0, /*stream=*/true, workers_);
    delete this;
  }

 private:
  WorkerPool& workers_;
};

// One RunQueries call, registered raw like StreamQueries (and for the same
// reason: a request that does not parse gets INVALID_ARGUMENT saying so,
// where gRPC answers UNIMPLEMENTED with no message). The request and
// response messages live on the reactor's arena, so a batch costs pointer
// bumps rather than heap allocations per query.
class RunQueriesReactor final : public grpc::ServerUnaryReactor {
 public:
  RunQueriesReactor(grpc::CallbackServerContext* context,
                    const LevelStore& store, const formats::InputLimits& limits,
                    WorkerPool& workers, const std::atomic<bool>& stopping,
                    std::unique_ptr<CallBudget::Ticket> ticket)
      : ticket_(std::move(ticket)),
        context_(context),
        stopping_(stopping),
        store_(store),
        limits_(limits),
        workers_(workers),
        arena_(ArenaOptions()),
        request_(google::protobuf::Arena::CreateMessage<v1::RunQueriesRequest>(
            &arena_)),
        response_(
            google::protobuf::Arena::CreateMessage<v1::RunQueriesResponse>(
                &arena_)) {}

  // Parses `request_bytes` and answers into `response_bytes` (gRPC's, valid
  // until OnDone): small batches right here, big ones on a worker.
  void Start(const grpc::ByteBuffer& request_bytes,
             grpc::ByteBuffer* response_bytes) {
    response_bytes_ = response_bytes;
    // The request's bytes count until the call ends. gRPC has read them
    // already, so a call over the budget is refused rather than held.
    ticket_->Charge(static_cast<int64_t>(request_bytes.Length()));
    if (absl::Status room = ticket_->CheckRoom(); !room.ok()) {
      Finish(ToGrpcStatus(room));
      return;
    }
    // A copy shares the slices; the reader needs a mutable buffer.
    grpc::ByteBuffer bytes(request_bytes);
    grpc::ProtoBufferReader reader(&bytes);
    if (!request_->ParseFromZeroCopyStream(&reader)) {
      Finish(ToGrpcStatus(absl::InvalidArgumentError(
          "the request does not parse as a "
          "collide.v1.RunQueriesRequest (protobuf binary)")));
      return;
    }
    read_at_ = std::chrono::steady_clock::now();
    Metrics().batches_in_flight.Add(1);
    if (BatchQueryCount(*request_) <= kMaxInlineQueries) {
      Answer();
    } else {
      workers_.Submit([this] { Answer(); });
    }
  }

  void OnDone() override {
    const int64_t peak = ticket_->peak_charged();
    ticket_.reset();
    NoteCallEnded(peak, /*stream=*/false, workers_);
    delete this;
  }

 private:
  // As the typed call's arena had: a small first block for small calls,
  // blocks up to 64 KiB for big ones.
  static google::protobuf::ArenaOptions ArenaOptions() {
    google::protobuf::ArenaOptions options;
    options.start_block_size = size_t{4} << 10;
    options.max_block_size = size_t{64} << 10;
    return options;
  }

  void Answer() {
    absl::StatusOr<std::shared_ptr<const LevelSnapshot>> snapshot =
        FindLevel(store_, request_->level(), "level");
    absl::Status status = snapshot.status();
    if (status.ok()) {
      const bool on_worker = BatchQueryCount(*request_) > kMaxInlineQueries;
      int checks = 0;
      // The answer's arena is the call's: charged until the call ends.
      AnswerCharge charge(*ticket_, 0);
      status = AnswerRunQueries(
          **snapshot, *request_, limits_, response_,
          [&, deadline = context_->deadline()] {
            return SliceCheck(
                checks,
                [this] {
                  return static_cast<int64_t>(arena_.SpaceAllocated());
                },
                charge, on_worker ? &workers_ : nullptr, context_, deadline,
                stopping_);
          });
      charge.Finish(static_cast<int64_t>(arena_.SpaceAllocated()));
      LogIfInternal(status, "RunQueries");
    }
    // Before Finish, which may delete the reactor. A refused batch left
    // the response empty: its queries count as refused.
    RecordBatch(*request_, *response_, read_at_);
    Metrics().batches_in_flight.Add(-1);
    if (!status.ok()) {
      Finish(ToGrpcStatus(status));
      return;
    }
    const absl::Status serialized =
        SerializeToByteBuffer(*response_, response_bytes_);
    ticket_->Charge(static_cast<int64_t>(response_bytes_->Length()));
    Finish(ToGrpcStatus(serialized));
  }

  // The call's stream slot and bytes (request and response) until OnDone.
  std::unique_ptr<CallBudget::Ticket> ticket_;
  grpc::CallbackServerContext* const context_;
  // The service's StopBatches flag.
  const std::atomic<bool>& stopping_;
  const LevelStore& store_;
  const formats::InputLimits& limits_;
  WorkerPool& workers_;
  google::protobuf::Arena arena_;
  v1::RunQueriesRequest* const request_;
  v1::RunQueriesResponse* const response_;
  grpc::ByteBuffer* response_bytes_ = nullptr;
  // When the request was parsed (metrics).
  std::chrono::steady_clock::time_point read_at_;
};

}  // namespace

grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer>*
CollisionServiceImpl::StreamQueries(grpc::CallbackServerContext* context) {
  absl::StatusOr<std::unique_ptr<CallBudget::Ticket>> ticket =
      budget_.Admit(context->peer());
  if (!ticket.ok()) return new RefusedStreamReactor(ticket.status(), workers_);
  return QueryStreamReactor::Start(context, store_, limits_, workers_,
                                   stopping_, draining_, *std::move(ticket));
}

grpc::ServerUnaryReactor* CollisionServiceImpl::RunQueries(
    grpc::CallbackServerContext* context, const grpc::ByteBuffer* request,
    grpc::ByteBuffer* response) {
  absl::StatusOr<std::unique_ptr<CallBudget::Ticket>> ticket =
      budget_.Admit(context->peer());
  if (!ticket.ok()) {
    grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
    reactor->Finish(ToGrpcStatus(ticket.status()));
    return reactor;
  }
  auto* reactor = new RunQueriesReactor(context, store_, limits_, workers_,
                                        stopping_, *std::move(ticket));
  reactor->Start(*request, response);
  return reactor;
}

}  // namespace collide::server
