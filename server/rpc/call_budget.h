// CallBudget: what callers may make the server hold for query calls, by
// connection and in all. Two kinds of limit:
//
// - Streams (StreamQueries and RunQueries calls, each an HTTP/2 stream)
//   open at once, per connection and server-wide. A call past either is
//   refused at once with RESOURCE_EXHAUSTED naming the flag and its value.
// - Queued bytes: requests read and not yet answered, and answers not yet
//   written to the transport. A stream starts its next read only while its
//   connection and the server are both under their budget; otherwise it
//   waits (gRPC's flow control then holds the caller) until bytes are
//   released. A caller that never reads its answers stops the reads of its
//   own connection, not the server.
//
// The stream reactor reserves a read's bytes before it starts the read,
// in one step with the room check (TryCharge), so streams that find room
// at once cannot all pass the check and then all allocate; and it charges
// the answer it builds as it grows, slice by slice (ChargeToGrow), so a
// batch whose answer would pass the budget is cut short: the rest of it is
// answered RESOURCE_EXHAUSTED naming the flag. docs/server.md has the
// resulting bound as a formula of the flags.
#ifndef COLLIDE_SERVER_RPC_CALL_BUDGET_H_
#define COLLIDE_SERVER_RPC_CALL_BUDGET_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"

namespace collide::server {

// The limits, named as their flags (ServerOptions copies them).
struct CallLimits {
  // Query calls open at once on one connection (peer address).
  int32_t max_streams_per_connection = 100;
  // Query calls open at once on the whole server.
  int32_t max_streams = 1000;
  // Bytes of requests and answers queued for one connection's calls.
  int64_t max_queued_bytes_per_connection = int64_t{64} << 20;
  // Bytes of requests and answers queued for all calls.
  int64_t max_queued_bytes = int64_t{256} << 20;
};

// Told when the budget it waited for has room again.
class BudgetWaiter {
 public:
  virtual ~BudgetWaiter() = default;
  // Called once per WaitForRoom, on the thread that released bytes, with no
  // budget lock held. The waiter checks HasRoom again itself.
  virtual void OnRoom() = 0;
};

class CallBudget {
 public:
  explicit CallBudget(const CallLimits& limits) : limits_(limits) {}
  CallBudget(const CallBudget&) = delete;
  CallBudget& operator=(const CallBudget&) = delete;

  // One call's share: its stream slot and the bytes it has charged. The
  // destructor gives back both (and wakes waiters if bytes were held).
  class Ticket {
   public:
    ~Ticket();
    Ticket(const Ticket&) = delete;
    Ticket& operator=(const Ticket&) = delete;

    // Adds `delta` bytes (negative to release) to this call's, its
    // connection's and the server's queued bytes. Releasing wakes the
    // waiters once there is room.
    void Charge(int64_t delta);
    // What Reserve did: charged `bytes` (0: nothing); when nothing, whether
    // a budget is spent (WaitForRoom then tells when it is not) or only
    // has too little room for all of `want`.
    struct Reservation {
      int64_t bytes = 0;
      bool spent = false;
    };
    // Reserves `want` bytes in one step with the room check: charged if
    // the connection's and the server's budgets both have room for all of
    // it, or, when `partial` (the caller holds nothing else in flight, so
    // it must not wait for its own bytes), for part of it: then what room
    // is left. A refusal is counted as a read pause and logged, naming the
    // flag in the way, as CheckRoom's.
    Reservation Reserve(int64_t want, bool partial);
    // Charges `delta` (memory that exists already: an answer being built)
    // and says whether the budget still has room. RESOURCE_EXHAUSTED naming
    // the flag spent when not: the caller stops growing (a batch answers
    // the rest of its queries with that status), counted in the metrics as
    // a batch cut and logged (at most every 10 s).
    absl::Status ChargeToGrow(int64_t delta);
    // OK while the connection and the server are both under their byte
    // budget; else RESOURCE_EXHAUSTED naming the flag spent and its value,
    // counted in the metrics and logged (at most every 10 s).
    absl::Status CheckRoom();
    bool HasRoom() { return CheckRoom().ok(); }
    // Calls waiter->OnRoom() once the budget has room (at once, on this
    // thread, if it has room now). Held weakly: a waiter gone by then is
    // skipped.
    void WaitForRoom(std::weak_ptr<BudgetWaiter> waiter);
    // This call's bytes queued now, and the most it had at once.
    int64_t charged() const;
    int64_t peak_charged() const;

   private:
    friend class CallBudget;
    struct Connection;
    Ticket(CallBudget& budget, Connection& connection)
        : budget_(budget), connection_(connection) {}
    CallBudget& budget_;
    Connection& connection_;
    // Under the budget's lock: a call's reactions and its jobs charge
    // concurrently.
    int64_t charged_ = 0;
    int64_t peak_charged_ = 0;
  };

  // A slot for a new call from `peer` (the call's peer address, one per
  // connection), or RESOURCE_EXHAUSTED naming --max_streams_per_connection
  // or --max_streams and its value when that many are open.
  absl::StatusOr<std::unique_ptr<Ticket>> Admit(absl::string_view peer);

  int64_t queued_bytes() const;
  const CallLimits& limits() const { return limits_; }

 private:
  bool HasRoomLocked(const Ticket::Connection& connection) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // The refusal for a spent budget, from the bytes held when it was found
  // spent: counted (a read pause, or a batch cut when `cut`) and logged.
  // `want`: the bytes a reservation asked for (0: none).
  absl::Status Refusal(const Ticket::Connection& connection,
                       int64_t connection_bytes, int64_t server_bytes,
                       int64_t want, bool cut) const;
  // Waiters whose connection now has room, taken off the lists.
  std::vector<std::weak_ptr<BudgetWaiter>> TakeWaitersWithRoom()
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  static void Wake(std::vector<std::weak_ptr<BudgetWaiter>> waiters);

  const CallLimits limits_;
  mutable absl::Mutex mutex_;
  absl::flat_hash_map<std::string, std::unique_ptr<Ticket::Connection>>
      connections_ ABSL_GUARDED_BY(mutex_);
  int32_t streams_ ABSL_GUARDED_BY(mutex_) = 0;
  int64_t bytes_ ABSL_GUARDED_BY(mutex_) = 0;
  // Connections with a waiter, so a release looks only at those.
  int32_t connections_waiting_ ABSL_GUARDED_BY(mutex_) = 0;
};

// What building one answer holds, charged to its call's ticket as it grows:
// twice the bytes of the arena it is built on (the messages, and room for
// their serialized copy, which is never bigger), and at least `advance`,
// the bytes the caller charged for it beforehand. While it stays within
// the advance it asks nothing; past it each Update asks the budget for
// room, so a spent budget stops the answer within one slice of work.
class AnswerCharge {
 public:
  // Twice the arena: the messages, and room for their serialized copy.
  static constexpr int64_t kArenaFactor = 2;

  AnswerCharge(CallBudget::Ticket& ticket, int64_t advance)
      : ticket_(ticket), advance_(advance), charged_(advance) {}
  AnswerCharge(const AnswerCharge&) = delete;
  AnswerCharge& operator=(const AnswerCharge&) = delete;

  // `arena_bytes`: what the answer's arena holds now (it only grows).
  // OK, or RESOURCE_EXHAUSTED naming the flag once the answer has grown
  // past its advance and the budget is spent (Ticket::ChargeToGrow).
  absl::Status Update(int64_t arena_bytes);
  // The same once the answer is complete: charges it, asks nothing.
  void Finish(int64_t arena_bytes);

  // Bytes charged for it (the advance included).
  int64_t charged() const { return charged_; }
  // kArenaFactor times its arena's bytes at the last Update or Finish.
  int64_t needed() const { return needed_; }

 private:
  // Raises the charge to cover `arena_bytes`; false while within advance.
  bool Grow(int64_t arena_bytes, int64_t& delta);

  CallBudget::Ticket& ticket_;
  const int64_t advance_;
  int64_t charged_;
  int64_t needed_ = 0;
};

struct CallBudget::Ticket::Connection {
  std::string peer;
  int32_t streams = 0;
  int64_t bytes = 0;
  std::vector<std::weak_ptr<BudgetWaiter>> waiters;
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_RPC_CALL_BUDGET_H_
