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
  const CallLimits& limits = budget_.limits_;
  const bool connection_full =
      connection_bytes >= limits.max_queued_bytes_per_connection;
  (connection_full ? Metrics().budget_pauses_per_connection
                   : Metrics().budget_pauses_server)
      .Add();
  const std::string message =
      connection_full
          ? absl::StrCat("this connection's calls hold ", connection_bytes,
                         " bytes of requests and answers not yet read: "
                         "--max_queued_bytes_per_connection=",
                         limits.max_queued_bytes_per_connection, " reached")
          : absl::StrCat("the server's calls hold ", server_bytes,
                         " bytes of requests and answers not yet read: "
                         "--max_queued_bytes=",
                         limits.max_queued_bytes, " reached");
  LogRateLimited(
      last_bytes_log, bytes_since_log,
      connection_full ? "max_queued_bytes_per_connection" : "max_queued_bytes",
      absl::StrCat(message, " (peer ", connection_.peer,
                   "); streams read no more until callers read"));
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
