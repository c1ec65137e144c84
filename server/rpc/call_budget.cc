#include "server/rpc/call_budget.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "server/ops/log.h"
#include "server/ops/server_metrics.h"

namespace collide::server {
namespace {

// One log line per limit at most this often: a caller hitting a limit in a
// loop must not flood the log.
constexpr std::chrono::seconds kLogInterval{10};

// Logs `message` unless `last` (the time of this limit's last line) is
// within kLogInterval; the count since then goes in the line.
void LogRateLimited(std::atomic<int64_t>& last, std::atomic<int64_t>& since,
                    absl::string_view limit, const std::string& message) {
  since.fetch_add(1, std::memory_order_relaxed);
  const int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                          std::chrono::steady_clock::now().time_since_epoch())
                          .count();
  int64_t previous = last.load(std::memory_order_relaxed);
  if (previous != 0 && now - previous < kLogInterval.count()) return;
  if (!last.compare_exchange_strong(previous, now)) return;
  const int64_t count = since.exchange(0, std::memory_order_relaxed);
  LogAt(LogSeverity::kWarning, {{"limit", limit}, {"times", count}},
        "%s (%d times in the last %d s; logged at most every %d s)",
        LogValue(message), count, kLogInterval.count(), kLogInterval.count());
}

std::atomic<int64_t> last_stream_log{0};
std::atomic<int64_t> streams_since_log{0};
std::atomic<int64_t> last_bytes_log{0};
std::atomic<int64_t> bytes_since_log{0};
std::atomic<int64_t> last_cut_log{0};
std::atomic<int64_t> cuts_since_log{0};

}  // namespace

absl::StatusOr<std::unique_ptr<CallBudget::Ticket>> CallBudget::Admit(
    absl::string_view peer) {
  std::string refusal;
  const char* limit = nullptr;
  {
    absl::MutexLock lock(&mutex_);
    std::unique_ptr<Ticket::Connection>& slot = connections_[peer];
    if (slot == nullptr) {
      slot = std::make_unique<Ticket::Connection>();
      slot->peer = std::string(peer);
    }
    Ticket::Connection& connection = *slot;
    if (connection.streams >= limits_.max_streams_per_connection) {
      limit = "max_streams_per_connection";
      refusal = absl::StrCat(
          "too many calls open on this connection: --max_streams_per_connection"
          "=",
          limits_.max_streams_per_connection,
          " reached; finish or cancel one, or open another connection");
      Metrics().streams_refused_per_connection.Add();
    } else if (streams_ >= limits_.max_streams) {
      limit = "max_streams";
      refusal = absl::StrCat(
          "too many calls open on this server: --max_streams=",
          limits_.max_streams, " reached; retry later or on another replica");
      Metrics().streams_refused_server.Add();
    } else {
      ++connection.streams;
      ++streams_;
      return std::unique_ptr<Ticket>(new Ticket(*this, connection));
    }
    if (connection.streams == 0 && connection.bytes == 0) {
      connections_.erase(connections_.find(peer));
    }
  }
  LogRateLimited(last_stream_log, streams_since_log, limit,
                 absl::StrCat("refused a call from ", peer, ": ", refusal));
  return absl::ResourceExhaustedError(refusal);
}

CallBudget::Ticket::~Ticket() {
  std::vector<std::weak_ptr<BudgetWaiter>> wake;
  {
    absl::MutexLock lock(&budget_.mutex_);
    if (charged_ != 0) {
      connection_.bytes -= charged_;
      budget_.bytes_ -= charged_;
      Metrics().queued_bytes.Add(-charged_);
    }
    --connection_.streams;
    --budget_.streams_;
    if (charged_ > 0) wake = budget_.TakeWaitersWithRoom();
    if (connection_.streams == 0 && !connection_.waiters.empty()) {
      // Waiters are calls of this connection, all ended.
      connection_.waiters.clear();
      --budget_.connections_waiting_;
    }
    if (connection_.streams == 0 && connection_.bytes == 0) {
      budget_.connections_.erase(connection_.peer);  // deletes connection_
    }
  }
  Wake(std::move(wake));
}

void CallBudget::Ticket::Charge(int64_t delta) {
  if (delta == 0) return;
  std::vector<std::weak_ptr<BudgetWaiter>> wake;
  {
    absl::MutexLock lock(&budget_.mutex_);
    charged_ += delta;
    peak_charged_ = std::max(peak_charged_, charged_);
    connection_.bytes += delta;
    budget_.bytes_ += delta;
    if (delta < 0) wake = budget_.TakeWaitersWithRoom();
  }
  Metrics().queued_bytes.Add(delta);
  Wake(std::move(wake));
}

int64_t CallBudget::Ticket::charged() const {
  absl::MutexLock lock(&budget_.mutex_);
  return charged_;
}

int64_t CallBudget::Ticket::peak_charged() const {
  absl::MutexLock lock(&budget_.mutex_);
  return peak_charged_;
}

absl::Status CallBudget::Ticket::CheckRoom() {
  int64_t connection_bytes = 0;
  int64_t server_bytes = 0;
  {
    absl::MutexLock lock(&budget_.mutex_);
    if (budget_.HasRoomLocked(connection_)) return absl::OkStatus();
    connection_bytes = connection_.bytes;
    server_bytes = budget_.bytes_;
  }
  return budget_.Refusal(connection_, connection_bytes, server_bytes, 0,
                         /*cut=*/false);
}

CallBudget::Ticket::Reservation CallBudget::Ticket::Reserve(int64_t want,
                                                            bool partial) {
  int64_t connection_bytes = 0;
  int64_t server_bytes = 0;
  bool spent = false;
  {
    absl::MutexLock lock(&budget_.mutex_);
    const CallLimits& limits = budget_.limits_;
    const int64_t room =
        std::min(limits.max_queued_bytes_per_connection - connection_.bytes,
                 limits.max_queued_bytes - budget_.bytes_);
    if (room > 0 && (room >= want || partial)) {
      const int64_t bytes = std::min(want, room);
      charged_ += bytes;
      peak_charged_ = std::max(peak_charged_, charged_);
      connection_.bytes += bytes;
      budget_.bytes_ += bytes;
      Metrics().queued_bytes.Add(bytes);
      return {.bytes = bytes};
    }
    spent = room <= 0;
    connection_bytes = connection_.bytes;
    server_bytes = budget_.bytes_;
  }
  budget_
      .Refusal(connection_, connection_bytes, server_bytes, want,
               /*cut=*/false)
      .IgnoreError();
  return {.spent = spent};
}

absl::Status CallBudget::Ticket::ChargeToGrow(int64_t delta) {
  Charge(delta);
  int64_t connection_bytes = 0;
  int64_t server_bytes = 0;
  {
    absl::MutexLock lock(&budget_.mutex_);
    if (budget_.HasRoomLocked(connection_)) return absl::OkStatus();
    connection_bytes = connection_.bytes;
    server_bytes = budget_.bytes_;
  }
  return budget_.Refusal(connection_, connection_bytes, server_bytes, 0,
                         /*cut=*/true);
}

absl::Status CallBudget::Refusal(const Ticket::Connection& connection,
                                 int64_t connection_bytes, int64_t server_bytes,
                                 int64_t want, bool cut) const {
  // The budget with the least room is the one in the way.
  const int64_t connection_room =
      limits_.max_queued_bytes_per_connection - connection_bytes;
  const int64_t server_room = limits_.max_queued_bytes - server_bytes;
  const bool connection_full = connection_room <= server_room;
  ServerMetrics& metrics = Metrics();
  (cut ? (connection_full ? metrics.budget_cuts_per_connection
                          : metrics.budget_cuts_server)
       : (connection_full ? metrics.budget_pauses_per_connection
                          : metrics.budget_pauses_server))
      .Add();
  const int64_t room = connection_full ? connection_room : server_room;
  const std::string spent =
      room > 0 ? absl::StrCat(" leaves ", room, " bytes, too few for the ",
                              want, " bytes the next batch reserves")
               : " reached";
  const std::string message =
      connection_full
          ? absl::StrCat("this connection's calls hold ", connection_bytes,
                         " bytes of requests and answers not yet read: "
                         "--max_queued_bytes_per_connection=",
                         limits_.max_queued_bytes_per_connection, spent)
          : absl::StrCat("the server's calls hold ", server_bytes,
                         " bytes of requests and answers not yet read: "
                         "--max_queued_bytes=",
                         limits_.max_queued_bytes, spent);
  LogRateLimited(
      cut ? last_cut_log : last_bytes_log,
      cut ? cuts_since_log : bytes_since_log,
      connection_full ? "max_queued_bytes_per_connection" : "max_queued_bytes",
      absl::StrCat(message, " (peer ", connection.peer,
                   cut ? "); answers being built are cut short, their other "
                         "queries answered RESOURCE_EXHAUSTED"
                       : "); streams read no more until callers read"));
  return absl::ResourceExhaustedError(message);
}

void CallBudget::Ticket::WaitForRoom(std::weak_ptr<BudgetWaiter> waiter) {
  {
    absl::MutexLock lock(&budget_.mutex_);
    if (!budget_.HasRoomLocked(connection_)) {
      if (connection_.waiters.empty()) ++budget_.connections_waiting_;
      connection_.waiters.push_back(std::move(waiter));
      return;
    }
  }
  // Room appeared since the caller asked.
  Wake({std::move(waiter)});
}

bool AnswerCharge::Grow(int64_t arena_bytes, int64_t& delta) {
  needed_ = kArenaFactor * arena_bytes;
  if (needed_ <= advance_) return false;
  delta = std::max<int64_t>(needed_ - charged_, 0);
  charged_ += delta;
  return true;
}

absl::Status AnswerCharge::Update(int64_t arena_bytes) {
  int64_t delta = 0;
  if (!Grow(arena_bytes, delta)) return absl::OkStatus();
  return ticket_.ChargeToGrow(delta);
}

void AnswerCharge::Finish(int64_t arena_bytes) {
  int64_t delta = 0;
  if (Grow(arena_bytes, delta)) ticket_.Charge(delta);
}

int64_t CallBudget::queued_bytes() const {
  absl::MutexLock lock(&mutex_);
  return bytes_;
}

bool CallBudget::HasRoomLocked(const Ticket::Connection& connection) const {
  return connection.bytes < limits_.max_queued_bytes_per_connection &&
         bytes_ < limits_.max_queued_bytes;
}

std::vector<std::weak_ptr<BudgetWaiter>> CallBudget::TakeWaitersWithRoom() {
  std::vector<std::weak_ptr<BudgetWaiter>> wake;
  if (connections_waiting_ == 0 || bytes_ >= limits_.max_queued_bytes) {
    return wake;
  }
  for (auto& [peer, connection] : connections_) {
    if (connection->waiters.empty() || !HasRoomLocked(*connection)) continue;
    for (std::weak_ptr<BudgetWaiter>& waiter : connection->waiters) {
      wake.push_back(std::move(waiter));
    }
    connection->waiters.clear();
    --connections_waiting_;
  }
  return wake;
}

void CallBudget::Wake(std::vector<std::weak_ptr<BudgetWaiter>> waiters) {
  for (std::weak_ptr<BudgetWaiter>& weak : waiters) {
    if (std::shared_ptr<BudgetWaiter> waiter = weak.lock()) waiter->OnRoom();
  }
}

}  // namespace collide::server
